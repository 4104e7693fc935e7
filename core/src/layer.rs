//! The overlay's layers (grid, colliders, lights…) as the View menu and the
//! action table name them; the viewport draws them.

/// One overlay layer, for the View menu and the action table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Layer {
    Grid,
    Colliders,
    Triggers,
    Lights,
    Emitters,
    Spawn,
    Patrols,
    Sounds,
}

impl Layer {
    pub const ALL: [Layer; 8] = [
        Layer::Grid,
        Layer::Colliders,
        Layer::Triggers,
        Layer::Lights,
        Layer::Emitters,
        Layer::Spawn,
        Layer::Patrols,
        Layer::Sounds,
    ];

    pub fn label(self) -> &'static str {
        match self {
            Layer::Grid => "Grid",
            Layer::Colliders => "Colliders",
            Layer::Triggers => "Triggers",
            Layer::Lights => "Lights",
            Layer::Emitters => "Emitters",
            Layer::Spawn => "Player spawn",
            Layer::Patrols => "Patrols and ball pits",
            Layer::Sounds => "Sound sources",
        }
    }
}
