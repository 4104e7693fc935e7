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
    /// The kinds described as data: the built-in sound source and the project's
    /// own kinds (entities.ron), with their links.
    GameEntities,
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
        Layer::GameEntities,
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
            Layer::GameEntities => "Sound sources and game entities",
        }
    }
}

/// Which of the game entities' links the viewport draws.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Links {
    #[default]
    All,
    /// Only those from or to a selected entity.
    Selected,
    None,
}

impl Links {
    pub const ALL: [Links; 3] = [Links::All, Links::Selected, Links::None];

    pub fn label(self) -> &'static str {
        match self {
            Links::All => "Links: all",
            Links::Selected => "Links: the selection's",
            Links::None => "Links: none",
        }
    }
}
