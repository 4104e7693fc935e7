//! The docked panels by name: what the layout, the menus and the actions that
//! show a panel share, apart from the panels themselves.

/// The docked panels; each is a tab that can be dragged to another place; the
/// arrangement is saved between runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Pane {
    Viewport,
    Outliner,
    Inspector,
    Assets,
    Materials,
    Uv,
    History,
    Log,
    Problems,
}

impl Pane {
    pub const ALL: [Pane; 9] = [
        Pane::Viewport,
        Pane::Outliner,
        Pane::Inspector,
        Pane::Assets,
        Pane::Materials,
        Pane::Uv,
        Pane::History,
        Pane::Log,
        Pane::Problems,
    ];

    pub fn title(self) -> &'static str {
        match self {
            Pane::Viewport => "Viewport",
            Pane::Outliner => "Outliner",
            Pane::Inspector => "Inspector",
            Pane::Assets => "Assets",
            Pane::Materials => "Materials",
            Pane::Uv => "UV",
            Pane::History => "History",
            Pane::Log => "Log",
            Pane::Problems => "Problems",
        }
    }
}
