//! The overlay's layers (grid, colliders, lights…) as the View menu and the
//! action table name them; the viewport draws them.

/// One overlay layer, for the View menu and the action table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Layer {
    Grid,
    Colliders,
    Lights,
    Emitters,
    /// Pebble's built-in kinds described as data: the player spawn, triggers,
    /// patrols, ball pits, sound sources.
    Markers,
    /// The project's own kinds (entities.ron) and their links.
    GameEntities,
}

impl Layer {
    pub const ALL: [Layer; 6] = [
        Layer::Grid,
        Layer::Colliders,
        Layer::Lights,
        Layer::Emitters,
        Layer::Markers,
        Layer::GameEntities,
    ];

    pub fn label(self) -> &'static str {
        match self {
            Layer::Grid => "Grid",
            Layer::Colliders => "Colliders",
            Layer::Lights => "Lights",
            Layer::Emitters => "Emitters",
            Layer::Markers => "Gameplay markers (spawn, triggers, patrols, sounds)",
            Layer::GameEntities => "Game entities",
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
