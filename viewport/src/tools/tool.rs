//! What a tool sees and is: the [`Tool`] trait, the context a tool works in
//! ([`ToolContext`], [`OverlayContext`]), the [`Pointer`] it is handed, the
//! overlay it draws, and the picking helpers the tools share (what is under the
//! cursor, the right click's menu).

use pebble_model::glam::{Vec2, Vec3};
use pebble_render::PickHit;
use pebble_render::overlay::LineVertex;

use crate::gizmo;
use crate::navigation::Button;
use crate::preferences::Preferences;
use crate::view::{View, ViewState};
use pebble_core::document::Document;
use pebble_core::status::Status;

/// The modifier keys held.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Modifiers {
    pub shift: bool,
    pub ctrl: bool,
    pub alt: bool,
    /// Ctrl, or ⌘ on a Mac.
    pub command: bool,
}

/// The pointer as a tool sees it, in the viewport's pixels.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Pointer {
    /// Where it is now.
    pub pos: Vec2,
    /// Where the button went down: a drag grabs what was there.
    pub press: Vec2,
    /// How far it moved since the last frame.
    pub delta: Vec2,
    pub button: Button,
    pub modifiers: Modifiers,
    /// A click: press and release with no drag between them.
    pub click: bool,
}

/// Asks the ID buffer what is drawn where (the renderer, or a fake in tests).
pub trait Pick {
    /// What is under `pixel` (the nearest hit within the picking window).
    fn pick(&self, pixel: Vec2) -> Result<Option<PickHit>, String>;
    /// The entity ids drawn in the rectangle between two pixels.
    fn pick_rect(&self, a: Vec2, b: Vec2) -> Result<Vec<u32>, String>;
    /// [`Pick::pick`] seeing through the entities `exclude` names.
    fn pick_excluding(&self, pixel: Vec2, exclude: &[u32]) -> Result<Option<PickHit>, String>;
}

/// The keys a flight (and a game in play mode) reads while it lasts.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct FlyKeys {
    /// Right, up, forward: each −1, 0 or 1.
    pub direction: Vec3,
    /// Shift: four times as fast.
    pub fast: bool,
    /// Play mode: turning right (E or →) or left (Q or ←), −1, 0 or 1.
    pub turn: f32,
    /// Play mode: looking up (↑) or down (↓).
    pub look: f32,
    /// Play mode: Space.
    pub jump: bool,
    /// Play mode: H went down this frame (the HUD on or off).
    pub hud: bool,
}

/// What a tool may read and change while it works.
pub struct ToolContext<'a> {
    pub doc: &'a mut Document,
    pub view: &'a mut ViewState,
    pub prefs: &'a mut Preferences,
    pub status: &'a mut Status,
    pub pick: &'a dyn Pick,
    /// The viewport's size in pixels.
    pub size: Vec2,
    pub gizmo_mode: gizmo::Mode,
    /// The surface point under the cursor at the last hover pick.
    pub hover_point: Option<Vec3>,
    /// Seconds since the last frame.
    pub dt: f32,
    pub fly: FlyKeys,
    /// V is held: a move puts the nearest vertex of what it moves onto the
    /// nearest vertex of something else.
    pub vertex_snap: bool,
    /// Set by a tool that needs another frame soon (a flight in progress).
    pub repaint: bool,
    /// Set by a right click (or Alt+click): open the context menu.
    pub context_menu: Option<MenuRequest>,
}

/// Where the context menu opens and what it lists.
#[derive(Debug, Clone, PartialEq)]
pub struct MenuRequest {
    /// The pixel clicked.
    pub pixel: Vec2,
    /// The surface point under it ("Paste here" puts things there).
    pub point: Option<Vec3>,
    /// Every pickable entity under the pixel, nearest first (the menu lists them
    /// when there are several, to choose one of overlapping things).
    pub under: Vec<u32>,
}

/// The most entities listed under one pixel.
pub const MAX_UNDER: usize = 12;

/// Every entity under `pixel`, nearest first: the ID buffer's hit, then the hit
/// with it left out, and so on. The sun and the sky light the whole map from
/// nowhere (their markers stand where they were made, at the origin): they are
/// listed only when the click hit one of them first, never as something
/// "under" a wall or the floor.
pub fn under_cursor(
    scene: &pebble_model::Scene,
    pick: &dyn Pick,
    pixel: Vec2,
) -> Result<Vec<u32>, String> {
    let mut out: Vec<u32> = Vec::new();
    while out.len() < MAX_UNDER {
        match pick.pick_excluding(pixel, &out)? {
            Some(hit) if !out.contains(&hit.id) => out.push(hit.id),
            _ => break,
        }
    }
    let first = out.first().copied();
    out.retain(|id| Some(*id) == first || !lights_from_nowhere(scene, *id));
    // What is drawn in front comes first; invisible volumes after it (the
    // campfire's warmth trigger and its light took two clicks before its logs).
    out.sort_by_key(|id| pick_rank(scene, *id));
    Ok(out)
}

/// The order a click picks things under the cursor: what is drawn (meshes, the
/// game's spheres, particles, the markers of lights, emitters, the spawn…) in
/// the order the ID buffer found them, then the volumes that are never seen
/// (triggers, colliders, walkable surfaces, groups).
pub fn pick_rank(scene: &pebble_model::Scene, id: u32) -> u8 {
    use pebble_model::EntityKind;
    use pebble_model::definitions::builtin;
    match scene.entity(pebble_model::EntityId(id)).map(|e| &e.kind) {
        Some(EntityKind::Collider(_) | EntityKind::Walkable(_) | EntityKind::Group) | None => 1,
        // A volume (a trigger): a box of its size field, never seen in the game.
        Some(EntityKind::Defined(d))
            if builtin::kinds()
                .kind(&d.kind)
                .is_some_and(|k| k.size_field().is_some()) =>
        {
            1
        }
        Some(_) => 0,
    }
}

/// A sun or a sky: light with a direction, or everywhere, but no place.
fn lights_from_nowhere(scene: &pebble_model::Scene, id: u32) -> bool {
    use pebble_model::entity::Light;
    scene.entity(pebble_model::EntityId(id)).is_some_and(|e| {
        matches!(
            e.kind,
            pebble_model::EntityKind::Light(Light::Sun { .. } | Light::Hemisphere { .. })
        )
    })
}

impl std::fmt::Debug for ToolContext<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ToolContext")
            .field("view", &self.view)
            .field("size", &self.size)
            .field("gizmo_mode", &self.gizmo_mode)
            .finish_non_exhaustive()
    }
}

impl ToolContext<'_> {
    /// The camera as drawn this frame, with the viewport's size.
    pub fn camera_view(&self) -> View {
        View {
            camera: self.view.orbit.camera(),
            size: self.size,
        }
    }
}

/// What a tool's overlay is drawn from.
#[derive(Debug)]
pub struct OverlayContext<'a> {
    pub doc: &'a Document,
    pub prefs: &'a Preferences,
    pub view: View,
    pub gizmo_mode: gizmo::Mode,
    /// The pointer's place in the viewport, pixels (none when it is outside).
    pub cursor: Option<Vec2>,
}

/// What the tools draw this frame.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct ToolOverlay {
    /// World-space line pairs drawn over everything.
    pub lines: Vec<LineVertex>,
    /// World-space triangles drawn over everything (thick lines: [`Self::thick_line`]).
    pub triangles: Vec<LineVertex>,
    /// A rectangle on screen between two pixels (the selection box).
    pub rect: Option<(Vec2, Vec2)>,
    /// A line of text in the viewport's corner (the flight's speed).
    pub text: Option<String>,
    /// A short text beside the cursor, at this pixel (a size being drawn).
    pub label: Option<(Vec2, String)>,
}

impl ToolOverlay {
    pub fn line(&mut self, from: Vec3, to: Vec3, color: u32) {
        for p in [from, to] {
            self.lines.push(LineVertex {
                pos: p.to_array(),
                color,
            });
        }
    }

    /// A line `width` pixels wide on screen whatever its depth: a quad facing the
    /// camera (a 1-pixel line along a pixel boundary can vanish on some
    /// rasterizers, and a thin handle is hard to see and to hit).
    pub fn thick_line(&mut self, view: &View, (from, to): (Vec3, Vec3), color: u32, width: f32) {
        let Some(quad) = view.screen_quad(from, to, width) else {
            return;
        };
        self.triangles.extend(quad.map(|p| LineVertex {
            pos: p.to_array(),
            color,
        }));
    }
}

/// One way of working in the viewport.
pub trait Tool: std::fmt::Debug {
    /// Its name (status, tests).
    fn name(&self) -> &'static str;
    /// Offered a press (a drag beginning, or a click): takes it by returning
    /// `true`, and is the active tool until its release or cancel.
    fn press(&mut self, cx: &mut ToolContext, pointer: &Pointer) -> bool;
    /// The pointer moved with the button down.
    fn drag(&mut self, cx: &mut ToolContext, pointer: &Pointer);
    /// The button came up: the tool's work is done.
    fn release(&mut self, cx: &mut ToolContext, pointer: &Pointer);
    /// Esc: undo whatever the press and drags did, leaving no trace.
    fn cancel(&mut self, cx: &mut ToolContext);
    /// The wheel turned while this tool is active; returns whether it used it.
    fn wheel(&mut self, _cx: &mut ToolContext, _notches: f32) -> bool {
        false
    }
    /// After its release, whether the tool goes on with no button held (a height
    /// after the footprint, a copy following the mouse): it then sees the
    /// pointer's moves in [`Tool::hover`] until a left click or press
    /// ([`Tool::complete`]) or Esc or a right click ([`Tool::cancel`]).
    fn follows_pointer(&self) -> bool {
        false
    }
    /// A click the tool takes before the tools ahead of it in the list see it
    /// (click selection going deeper on the spot it clicked last, where the
    /// selection's gizmo would otherwise take the click).
    fn claims_click(&self, _cx: &ToolContext, _pointer: &Pointer) -> bool {
        false
    }
    /// The pointer moved with no button held while the tool follows it.
    fn hover(&mut self, _cx: &mut ToolContext, _pointer: &Pointer) {}
    /// The click that ends what the tool follows the pointer for.
    fn complete(&mut self, _cx: &mut ToolContext, _pointer: &Pointer) {}
    /// Esc with nothing in progress: a tool armed for its next press (create)
    /// lets go and returns `true`.
    fn disarm(&mut self, _cx: &mut ToolContext) -> bool {
        false
    }
    /// Draws what the tool shows, active or not (the gizmo's handles are there
    /// whenever something is selected).
    fn overlay(&self, _cx: &OverlayContext, _active: bool, _out: &mut ToolOverlay) {}
    /// Another action (a key, a menu) came while the tool follows the pointer:
    /// keep what is done and stop following.
    fn settle(&mut self, _doc: &mut Document) {}
    /// A mode the tool stands for is on (face mode, a game).
    fn is_mode_on(&self) -> bool {
        false
    }
    /// Every frame while the tool follows the pointer (a game steps).
    fn tick(&mut self, _cx: &mut ToolContext) {}
}

/// What egui's pointer did this frame, in the viewport.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct PointerEvents {
    /// A drag began (the pointer moved past egui's threshold with a button down).
    pub drag_started: bool,
    /// A button is held and dragging.
    pub dragging: bool,
    /// A click ended this frame (press and release without a drag).
    pub clicked: bool,
    /// Esc was pressed.
    pub escape: bool,
}

/// A right click at `pixel`: what is under it becomes the selection unless it
/// is already part of it (so the menu acts on what was clicked), and the
/// context menu opens there.
pub(crate) fn right_click(cx: &mut ToolContext, pixel: Vec2) {
    let under = match under_cursor(cx.doc.scene(), cx.pick, pixel) {
        Ok(under) => under,
        Err(e) => return cx.status.error(format!("pick failed: {e}")),
    };
    match cx.pick.pick(pixel) {
        Ok(Some(hit)) => {
            let id = pebble_model::EntityId(hit.id);
            let scene = cx.doc.scene();
            if scene.is_pickable(id)
                && !scene.selection().contains(&id)
                && let Err(e) = cx.doc.select(vec![id])
            {
                cx.status.error(e.to_string());
            }
            cx.context_menu = Some(MenuRequest {
                pixel,
                point: Some(hit.world),
                under,
            });
        }
        Ok(None) => {
            cx.context_menu = Some(MenuRequest {
                pixel,
                point: None,
                under,
            })
        }
        Err(e) => cx.status.error(format!("pick failed: {e}")),
    }
}

/// Alt+click: the menu listing everything under the pixel, the selection left as
/// it is (choose one of overlapping things there).
pub(crate) fn list_under(cx: &mut ToolContext, pixel: Vec2) {
    match (
        under_cursor(cx.doc.scene(), cx.pick, pixel),
        cx.pick.pick(pixel),
    ) {
        (Ok(under), Ok(hit)) => {
            cx.context_menu = Some(MenuRequest {
                pixel,
                point: hit.map(|h| h.world),
                under,
            })
        }
        (Err(e), _) | (_, Err(e)) => cx.status.error(format!("pick failed: {e}")),
    }
}

/// A new selection from a click or a box: Shift adds, Ctrl toggles (a click
/// only), a plain one replaces.
pub fn combine_selection(
    current: &[pebble_model::EntityId],
    found: impl IntoIterator<Item = pebble_model::EntityId>,
    modifiers: Modifiers,
    toggle: bool,
) -> Vec<pebble_model::EntityId> {
    let keep = modifiers.shift || (toggle && modifiers.command);
    let mut ids: Vec<_> = if keep { current.to_vec() } else { Vec::new() };
    for id in found {
        if toggle && modifiers.command && ids.contains(&id) {
            ids.retain(|i| *i != id);
        } else if !ids.contains(&id) {
            ids.push(id);
        }
    }
    ids
}
