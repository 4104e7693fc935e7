//! Viewport tools: what a press, a drag and a release in the viewport do. The
//! viewport offers each press to its tools in order; the first that takes it is
//! the active tool until the button is released or Esc cancels it, and a cancel
//! puts back exactly what was there. Each tool draws its own overlay (the gizmo's
//! handles, the orbit's centre, the selection box). A new way of working in the
//! viewport (create by drag, face select, vertex edit) is a new file here, a
//! [`ToolId`] entry (its place in [`ToolId::ORDER`] is where a press reaches it)
//! and a field in [`Tools`]; the compiler then points at the two matches that
//! still lack it ([`Tools::tool`], [`Tools::tool_mut`]).
//!
//! Tools see pixels, the document and the view, never egui: the viewport turns
//! egui's pointer into a [`Pointer`], and tests drive tools with a fake [`Pick`].

use pebble_model::glam::Vec3;

use super::navigation::Button;
use pebble_core::document::Document;

mod box_select;
pub mod clearance;
mod create;
mod face;
mod gizmo_tool;
mod measure;
mod navigate;
mod place;
mod play;
mod point_handles;
mod select;
mod snap;
mod tool;

pub use box_select::BoxSelect;
pub use create::CreateTool;
pub use face::FaceTool;
pub use gizmo_tool::{GizmoTool, gizmo_on_faces, gizmo_on_selection};
pub use measure::Measure;
pub use navigate::Navigate;
pub use place::PlaceCopies;
pub use play::PlayTool;
pub use point_handles::PointHandles;
pub use select::ClickSelect;
pub use tool::{
    FlyKeys, MAX_UNDER, MenuRequest, Modifiers, OverlayContext, Pick, Pointer, PointerEvents, Tool,
    ToolContext, ToolOverlay, combine_selection, pick_rank, under_cursor,
};
pub(crate) use tool::{list_under, right_click};

/// Each of the viewport's tools by name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ToolId {
    Play,
    Create,
    Place,
    Measure,
    Points,
    Gizmo,
    Navigate,
    Face,
    BoxSelect,
    ClickSelect,
}

impl ToolId {
    /// The order a press is offered to the tools: a game first, creation and
    /// placing when armed, measuring, a described entity's point handles, the
    /// gizmo's handles, navigation, face mode, then box and click selection.
    pub const ORDER: [ToolId; 10] = [
        ToolId::Play,
        ToolId::Create,
        ToolId::Place,
        ToolId::Measure,
        ToolId::Points,
        ToolId::Gizmo,
        ToolId::Navigate,
        ToolId::Face,
        ToolId::BoxSelect,
        ToolId::ClickSelect,
    ];
}

/// The viewport's tools and which one is active. Each tool is a field of its own
/// type: what the app asks of one tool (arm creation, start a game) reaches it
/// without a downcast, and the order presses take is [`ToolId::ORDER`] alone.
#[derive(Debug, Default)]
pub struct Tools {
    play: PlayTool,
    create: CreateTool,
    place: PlaceCopies,
    measure: Measure,
    points: PointHandles,
    gizmo: GizmoTool,
    navigate: Navigate,
    face: FaceTool,
    box_select: BoxSelect,
    click_select: ClickSelect,
    active: Option<ToolId>,
    /// The tool following the pointer after its release ([`Tool::follows_pointer`]).
    following: Option<ToolId>,
}

impl Tools {
    /// The editor's tools, none at work.
    pub fn standard() -> Self {
        Self::default()
    }

    fn tool(&self, id: ToolId) -> &dyn Tool {
        match id {
            ToolId::Play => &self.play,
            ToolId::Create => &self.create,
            ToolId::Place => &self.place,
            ToolId::Measure => &self.measure,
            ToolId::Points => &self.points,
            ToolId::Gizmo => &self.gizmo,
            ToolId::Navigate => &self.navigate,
            ToolId::Face => &self.face,
            ToolId::BoxSelect => &self.box_select,
            ToolId::ClickSelect => &self.click_select,
        }
    }

    fn tool_mut(&mut self, id: ToolId) -> &mut dyn Tool {
        match id {
            ToolId::Play => &mut self.play,
            ToolId::Create => &mut self.create,
            ToolId::Place => &mut self.place,
            ToolId::Measure => &mut self.measure,
            ToolId::Points => &mut self.points,
            ToolId::Gizmo => &mut self.gizmo,
            ToolId::Navigate => &mut self.navigate,
            ToolId::Face => &mut self.face,
            ToolId::BoxSelect => &mut self.box_select,
            ToolId::ClickSelect => &mut self.click_select,
        }
    }

    /// Starts a game: the viewport is the player's view until Esc or F5.
    pub fn start_play(
        &mut self,
        session: pebble_core::play::PlaySession,
        editing: super::navigation::OrbitCamera,
    ) {
        self.settle_none();
        self.play.start(session, editing);
        self.active = None;
        self.following = Some(ToolId::Play);
    }

    /// Ends the game; returns the view it started from.
    pub fn stop_play(&mut self) -> Option<super::navigation::OrbitCamera> {
        if self.following == Some(ToolId::Play) {
            self.following = None;
        }
        self.play.stop()
    }

    /// Whether a game is on.
    pub fn playing(&self) -> bool {
        self.play.is_mode_on()
    }

    /// The game in progress and whether its HUD is on.
    pub fn play_hud(&mut self) -> Option<(&pebble_core::play::PlaySession, bool)> {
        let hud = self.play.hud;
        self.play.session().map(|s| (s, hud))
    }

    /// The game in progress.
    pub fn play_session(&mut self) -> Option<&pebble_core::play::PlaySession> {
        self.play.session()
    }

    /// Forgets a tool following the pointer without settling it (a game starts).
    fn settle_none(&mut self) {
        self.following = None;
    }

    /// Turns face mode on or off.
    pub fn set_face_mode(&mut self, on: bool) {
        self.face.set_armed(on);
        if self.active == Some(ToolId::Face) {
            self.active = None;
        }
    }

    /// Whether face mode is on.
    pub fn face_mode(&self) -> bool {
        self.face.is_mode_on()
    }

    /// Arms the measuring tool: the next click is a measurement's first point.
    pub fn arm_measure(&mut self) {
        self.measure.arm();
        if self.following == Some(ToolId::Measure) {
            self.following = None;
        }
    }

    /// Whether the measuring tool is armed, and what it measured last.
    pub fn measuring(&mut self) -> Option<Option<(Vec3, Vec3)>> {
        self.measure.is_armed().then(|| self.measure.result())
    }

    /// A drag is in progress (keys that change the selection wait for it).
    pub fn is_dragging(&self) -> bool {
        self.active.is_some()
    }

    /// Another action came: a tool following the pointer keeps what it did and
    /// stops.
    pub fn settle(&mut self, doc: &mut Document) {
        if let Some(k) = self.following.take() {
            self.tool_mut(k).settle(doc);
        }
    }

    /// Ctrl+D: the selection duplicated, the copies following the mouse until a
    /// click (Esc takes them back); returns the copies.
    pub fn duplicate_following(
        &mut self,
        doc: &mut Document,
    ) -> Result<Vec<pebble_model::EntityId>, String> {
        self.settle(doc);
        let copies = self.place.duplicate(doc)?;
        self.following = Some(ToolId::Place);
        Ok(copies)
    }

    /// The active tool's name (the one following the pointer, if none is).
    pub fn active(&self) -> Option<&'static str> {
        self.active.or(self.following).map(|k| self.tool(k).name())
    }

    /// A tool is at work: a drag, or a tool following the pointer.
    pub fn is_active(&self) -> bool {
        self.active.is_some() || self.following.is_some()
    }

    /// Forgets a tool in progress without running its cancel (the scene it
    /// worked on was replaced), and lets go of an armed one.
    pub fn reset(&mut self) {
        self.active = None;
        self.following = None;
        self.create = CreateTool::default();
        self.place = PlaceCopies::default();
        self.measure = Measure::default();
        self.face = FaceTool::default();
        self.play = PlayTool::default();
    }

    /// Arms creation for `item`: the next press in the viewport draws it.
    pub fn arm_create(&mut self, item: pebble_core::create::CreateItem) {
        self.create = CreateTool::default();
        self.create.arm(item);
        if self.following == Some(ToolId::Create) {
            self.following = None;
        }
    }

    /// Arms creation for an emitter made from a preset's `emitter`.
    pub fn arm_create_emitter(&mut self, emitter: pebble_model::entity::Emitter) {
        self.create = CreateTool::default();
        self.create.arm_emitter(emitter);
        if self.following == Some(ToolId::Create) {
            self.following = None;
        }
    }

    /// Arms creation for an instance of the project's kind `kind`.
    pub fn arm_create_defined(
        &mut self,
        kind: String,
        defs: &pebble_model::definitions::Definitions,
    ) {
        self.create = CreateTool::default();
        self.create.arm_defined(kind, defs);
        if self.following == Some(ToolId::Create) {
            self.following = None;
        }
    }

    /// The project's kind creation is armed for, if any.
    pub fn armed_kind(&self) -> Option<&str> {
        self.create.armed_kind()
    }

    /// What creation is armed for (the toolbar shows it pressed).
    pub fn armed_create(&self) -> Option<pebble_core::create::CreateItem> {
        self.create.armed()
    }

    /// Runs this frame's pointer events through the tools. Returns whether Esc
    /// was the active tool's (it cancelled it).
    pub fn handle(
        &mut self,
        cx: &mut ToolContext,
        events: PointerEvents,
        pointer: Option<Pointer>,
    ) -> bool {
        if let Some(k) = self.active {
            if events.escape {
                self.tool_mut(k).cancel(cx);
                self.active = None;
                return true;
            }
            match pointer {
                Some(p) if events.dragging => self.tool_mut(k).drag(cx, &p),
                _ => {
                    if let Some(p) = pointer {
                        self.tool_mut(k).release(cx, &p);
                    }
                    self.active = None;
                    if self.tool_mut(k).follows_pointer() {
                        self.following = Some(k);
                    }
                }
            }
            return false;
        }
        if let Some(k) = self.following {
            self.tool_mut(k).tick(cx);
            if events.escape {
                self.tool_mut(k).cancel(cx);
                self.following = None;
                return true;
            }
            let Some(p) = pointer else {
                return false;
            };
            let starts = events.clicked || events.drag_started;
            if starts && p.button == Button::Left {
                self.tool_mut(k).complete(cx, &p);
                if !self.tool_mut(k).follows_pointer() {
                    self.following = None;
                }
                if !events.drag_started || self.following.is_some() {
                    return false;
                }
                // A drag instead of a click (a gizmo handle grabbed): it goes on
                // to the tools as any press does.
                return self.handle(cx, events, Some(p));
            }
            if events.clicked && p.button == Button::Right {
                self.tool_mut(k).cancel(cx);
                self.following = None;
                return true;
            }
            if !starts {
                self.tool_mut(k).hover(cx, &p);
                return false;
            }
            // Another button's drag navigates meanwhile; only the navigation
            // tools may take it.
            if k != ToolId::Navigate && self.navigate.press(cx, &p) {
                self.navigate.drag(cx, &p);
                self.active = Some(ToolId::Navigate);
            }
            return false;
        }
        if events.escape {
            return ToolId::ORDER
                .into_iter()
                .any(|k| self.tool_mut(k).disarm(cx));
        }
        let Some(p) = pointer else {
            return false;
        };
        if events.drag_started {
            for k in ToolId::ORDER {
                let tool = self.tool_mut(k);
                if tool.press(cx, &p) {
                    // The first movement counts: no pixels lost to the threshold.
                    tool.drag(cx, &p);
                    self.active = Some(k);
                    // A press and release within one frame (a quick right click)
                    // needs the next frame to see the release.
                    cx.repaint = true;
                    break;
                }
            }
        } else if events.clicked {
            let click = Pointer { click: true, ..p };
            if let Some(k) = ToolId::ORDER
                .into_iter()
                .find(|&k| self.tool(k).claims_click(cx, &click))
            {
                self.tool_mut(k).release(cx, &click);
                return true;
            }
            for k in ToolId::ORDER {
                let tool = self.tool_mut(k);
                if tool.press(cx, &click) {
                    tool.release(cx, &click);
                    // A click can begin what then follows the pointer (a
                    // measurement's second point).
                    if tool.follows_pointer() {
                        self.following = Some(k);
                    }
                    break;
                }
            }
        }
        false
    }

    /// Offers the wheel to the active tool; returns whether it took it.
    pub fn wheel(&mut self, cx: &mut ToolContext, notches: f32) -> bool {
        match self.active {
            Some(k) => self.tool_mut(k).wheel(cx, notches),
            None => false,
        }
    }

    /// Every tool's overlay for this frame (while playing, the game's alone).
    pub fn overlay(&self, cx: &OverlayContext) -> ToolOverlay {
        let mut out = ToolOverlay::default();
        let playing = self.playing();
        for k in ToolId::ORDER {
            if playing && k != ToolId::Play {
                continue;
            }
            let tool = self.tool(k);
            let at_work = self.active == Some(k) || self.following == Some(k);
            pebble_core::profiling::time(tool.name(), || tool.overlay(cx, at_work, &mut out));
        }
        out
    }
}

#[cfg(test)]
mod tests;
