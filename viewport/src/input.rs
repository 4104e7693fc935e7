//! egui's input over the viewport, turned into what the viewport acts on: the
//! tools' pointer events, the flight's keys, drops from the panels and the
//! desktop, a tool's context-menu request and the wheel's zoom.

use pebble_model::glam::{Vec2, Vec3};

use super::context_menu;
use super::navigation::Button;
use super::tools::{self, FlyKeys, Modifiers, Pointer, PointerEvents, ToolContext, Tools};
use super::view::ZOOM_EASE;

/// A texture or material from the panels, or files from the desktop, dropped on
/// the viewport: the face under the pointer says where (Shift: the whole object,
/// Alt: every face with its material).
pub(super) fn drops(
    ui: &egui::Ui,
    response: &egui::Response,
    latest: Option<egui::Pos2>,
    cx: &ToolContext<'_>,
    to_pixels: &impl Fn(egui::Pos2) -> Vec2,
) -> Vec<pebble_core::intent::Intent> {
    use pebble_core::intent::{AssetDrag, DropScope, FaceDrop, Intent};
    let mut out = Vec::new();
    let modifiers = ui.input(|i| i.modifiers);
    let scope = DropScope::from_keys(modifiers.shift, modifiers.alt);
    let under = |at: egui::Pos2| {
        cx.pick.pick(to_pixels(at)).ok().flatten().and_then(|hit| {
            let entity = pebble_model::EntityId(hit.id);
            let is_mesh = matches!(
                cx.doc.scene().entity(entity).map(|e| &e.kind),
                Some(pebble_model::EntityKind::Mesh(_))
            );
            is_mesh.then_some(((entity, hit.face as usize), hit.world))
        })
    };
    // Taken once: the payload is gone after the first look.
    match response.dnd_release_payload::<AssetDrag>().as_deref() {
        Some(AssetDrag::Prefab(prefab)) => {
            // A prefab stands on whatever surface is under the cursor.
            let at = latest
                .and_then(|p| cx.pick.pick(to_pixels(p)).ok().flatten())
                .map(|hit| hit.world);
            out.push(Intent::PlacePrefab {
                prefab: *prefab,
                at,
            });
        }
        Some(what) => {
            let target = latest.and_then(under).map(|(t, _)| t);
            out.push(Intent::Drop(FaceDrop {
                what: what.clone(),
                target,
                scope,
            }));
        }
        None => {}
    }
    let dropped: Vec<std::path::PathBuf> = ui.input(|i| {
        i.raw
            .dropped_files
            .iter()
            .map(|f| f.path().to_path_buf())
            .collect()
    });
    if !dropped.is_empty() {
        let hit = latest.and_then(under);
        let at = hit.map(|(_, world)| world).or_else(|| {
            let pivot = cx.view.goal().pivot;
            let floor =
                pebble_core::edit_ops::floor_below(cx.doc.scene(), pivot, &[]).unwrap_or(pivot.y);
            Some(Vec3::new(pivot.x, floor, pivot.z))
        });
        out.push(Intent::DroppedFiles {
            files: dropped,
            target: hit.map(|(t, _)| t),
            at,
            scope,
        });
    }
    out
}

/// The right-click menu a tool asked for, at its pixel, listing what is under it.
pub(super) fn context_menu_at(
    request: tools::MenuRequest,
    scene: &pebble_model::Scene,
    rect: egui::Rect,
    ppp: f32,
) -> context_menu::ContextMenu {
    let under = request
        .under
        .iter()
        .filter_map(|id| scene.entity(pebble_model::EntityId(*id)))
        .map(|e| (e.id, e.name.clone()))
        .collect();
    context_menu::ContextMenu {
        at: rect.min + egui::vec2(request.pixel.x, request.pixel.y) / ppp,
        point: request.point,
        under,
        create: false,
    }
}

/// The wheel over the viewport: the active tool's, else a zoom toward the point
/// under the pointer (`pointer`, in pixels), eased.
pub(super) fn wheel_zoom(
    tools: &mut Tools,
    cx: &mut ToolContext<'_>,
    notches: f32,
    pointer: Option<Vec2>,
    hover_point: Option<Vec3>,
) {
    if tools.wheel(cx, notches) {
        return;
    }
    let notches = notches * if cx.prefs.zoom_invert { -1.0 } else { 1.0 };
    let mut target = cx.view.goal();
    match pointer {
        Some(p) => {
            let ray = cx.camera_view().ray(p);
            let anchor = cx.view.orbit.zoom_anchor(hover_point, ray);
            target.zoom_towards(anchor, notches, cx.prefs.zoom_step);
        }
        None => target.zoom(notches, cx.prefs.zoom_step),
    }
    cx.view.target = Some((target, ZOOM_EASE));
}

/// egui's pointer in the viewport as the tools' events and pointer.
///
/// A right press starts its drag at once (the flight: no waiting for egui's drag
/// threshold), and a tool at work keeps its drag while any button is held.
pub(super) fn pointer_events(
    ui: &egui::Ui,
    response: &egui::Response,
    (escape, tool_active): (bool, bool),
    ppp: f32,
    to_pixels: impl Fn(egui::Pos2) -> Vec2,
) -> (PointerEvents, Option<Pointer>) {
    const BUTTONS: [(egui::PointerButton, Button); 3] = [
        (egui::PointerButton::Primary, Button::Left),
        (egui::PointerButton::Middle, Button::Middle),
        (egui::PointerButton::Secondary, Button::Right),
    ];
    let (m, press_origin, right_pressed, any_down) = ui.input(|i| {
        (
            i.modifiers,
            i.pointer.press_origin(),
            i.pointer.button_pressed(egui::PointerButton::Secondary),
            i.pointer.any_down(),
        )
    });
    let right_pressed = right_pressed && response.contains_pointer();
    let button = if right_pressed {
        Button::Right
    } else {
        BUTTONS
            .into_iter()
            .find(|(b, _)| response.dragged_by(*b) || response.clicked_by(*b))
            .map_or(Button::Left, |(_, b)| b)
    };
    let events = PointerEvents {
        drag_started: response.drag_started() || right_pressed,
        dragging: response.dragged() || (tool_active && any_down) || right_pressed,
        clicked: response.clicked_by(egui::PointerButton::Primary)
            || response.clicked_by(egui::PointerButton::Middle)
            || response.clicked_by(egui::PointerButton::Secondary),
        escape,
    };
    let pointer = response
        .interact_pointer_pos()
        .or(response.hover_pos())
        .map(|p| {
            let pos = to_pixels(p);
            let delta = response.drag_delta() * ppp;
            Pointer {
                pos,
                press: press_origin.map_or(pos, &to_pixels),
                delta: Vec2::new(delta.x, delta.y),
                button,
                modifiers: Modifiers {
                    shift: m.shift,
                    ctrl: m.ctrl,
                    alt: m.alt,
                    command: m.command,
                },
                click: false,
            }
        });
    (events, pointer)
}

/// W/A/S/D, Q/E and Shift, read by a flight; the arrows and Space too, for a game.
pub(super) fn fly_keys(ui: &egui::Ui) -> FlyKeys {
    ui.input(|i| {
        let k = |key| if i.key_down(key) { 1.0 } else { 0.0 };
        FlyKeys {
            direction: Vec3::new(
                k(egui::Key::D) - k(egui::Key::A),
                k(egui::Key::E) - k(egui::Key::Q),
                k(egui::Key::W) - k(egui::Key::S),
            ),
            fast: i.modifiers.shift,
            turn: (k(egui::Key::E) + k(egui::Key::ArrowRight)
                - k(egui::Key::Q)
                - k(egui::Key::ArrowLeft))
            .clamp(-1.0, 1.0),
            look: k(egui::Key::ArrowUp) - k(egui::Key::ArrowDown),
            jump: i.key_down(egui::Key::Space),
            hud: i.key_pressed(egui::Key::H),
        }
    })
}
