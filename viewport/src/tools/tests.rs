//! The tools driven as the viewport drives them, with a fake ID buffer.

use std::cell::RefCell;
use std::time::Duration;

use pebble_model::command::AddEntities;
use pebble_model::definitions::builtin::instance;
use pebble_model::glam::{Vec2, Vec3};
use pebble_model::{Entity, EntityId, EntityKind, Scene, Transform};
use pebble_render::PickHit;

use super::*;
use crate::gizmo;
use crate::preferences::Preferences;
use crate::view::{View, ViewState};
use pebble_core::status::Status;

/// An ID buffer where each entity covers a disc of 20 pixels round the pixel its
/// position projects to (and is that world point there).
#[derive(Default)]
struct FakePick {
    discs: Vec<(Vec2, u32, Vec3)>,
    rect_calls: RefCell<Vec<(Vec2, Vec2)>>,
}

impl Pick for FakePick {
    fn pick(&self, pixel: Vec2) -> Result<Option<PickHit>, String> {
        Ok(self
            .discs
            .iter()
            .find(|(c, _, _)| c.distance(pixel) < 20.0)
            .map(|(c, id, world)| PickHit {
                id: *id,
                face: 0,
                back_face: false,
                pixel: (c.x as u32, c.y as u32),
                world: *world,
            }))
    }

    fn pick_excluding(&self, pixel: Vec2, exclude: &[u32]) -> Result<Option<PickHit>, String> {
        Ok(self
            .discs
            .iter()
            .filter(|(_, id, _)| !exclude.contains(id))
            .find(|(c, _, _)| c.distance(pixel) < 20.0)
            .map(|(c, id, world)| PickHit {
                id: *id,
                face: 0,
                back_face: false,
                pixel: (c.x as u32, c.y as u32),
                world: *world,
            }))
    }

    fn pick_rect(&self, a: Vec2, b: Vec2) -> Result<Vec<u32>, String> {
        self.rect_calls.borrow_mut().push((a, b));
        let (lo, hi) = (a.min(b), a.max(b));
        Ok(self
            .discs
            .iter()
            .filter(|(c, _, _)| c.cmpge(lo).all() && c.cmple(hi).all())
            .map(|(_, id, _)| *id)
            .collect())
    }
}

/// The world the tools work on: a document with markers, a view, preferences.
struct World {
    doc: Document,
    view: ViewState,
    prefs: Preferences,
    status: Status,
    pick: FakePick,
    tools: Tools,
    /// V held.
    vertex_snap: bool,
    /// The context menu a frame asked for (a right click), with its surface point.
    context_menu: Option<MenuRequest>,
}

const SIZE: Vec2 = Vec2::new(800.0, 600.0);

impl World {
    fn new(at: &[Vec3]) -> Self {
        let mut doc = Document::new(
            Scene::new(),
            std::env::temp_dir().join("pebble-tools-test.pebble.ron"),
            Duration::from_secs(600),
        );
        let entities = at
            .iter()
            .enumerate()
            .map(|(k, p)| {
                let mut e = Entity::new(
                    format!("m{k}"),
                    EntityKind::Defined(instance("PlayerSpawn", [])),
                );
                e.transform = Transform::from_translation(*p);
                e
            })
            .collect();
        doc.execute(AddEntities::new("Create", entities).without_selecting())
            .expect("add");
        doc.end_edit();
        let view = ViewState::framing(doc.scene().bounds());
        let mut world = Self {
            doc,
            view,
            prefs: Preferences::default(),
            status: Status::default(),
            pick: FakePick::default(),
            tools: Tools::standard(),
            vertex_snap: false,
            context_menu: None,
        };
        world.draw();
        world
    }

    /// The ID buffer as the current view draws the entities.
    fn draw(&mut self) {
        let view = self.camera_view();
        let scene = self.doc.scene();
        self.pick.discs = scene
            .entities()
            .filter_map(|e| {
                let p = e.transform.translation;
                Some((view.project(p)?, e.id.0, p))
            })
            .collect();
    }

    fn camera_view(&self) -> View {
        View {
            camera: self.view.orbit.camera(),
            size: SIZE,
        }
    }

    fn ids(&self) -> Vec<EntityId> {
        self.doc.scene().entities().map(|e| e.id).collect()
    }

    /// One frame of pointer events.
    fn frame(&mut self, events: PointerEvents, pointer: Option<Pointer>) -> bool {
        let mut cx = ToolContext {
            doc: &mut self.doc,
            view: &mut self.view,
            prefs: &mut self.prefs,
            status: &mut self.status,
            pick: &self.pick,
            size: SIZE,
            gizmo_mode: gizmo::Mode::Translate,
            hover_point: None,
            dt: 1.0 / 60.0,
            fly: FlyKeys::default(),
            vertex_snap: self.vertex_snap,
            repaint: false,
            context_menu: None,
        };
        let cancelled = self.tools.handle(&mut cx, events, pointer);
        if let Some(menu) = cx.context_menu.take() {
            self.context_menu = Some(menu);
        }
        cancelled
    }

    /// A drag with `button` from `from` to `to` in a few frames, released unless
    /// `escape` cancels it before.
    fn drag(&mut self, button: Button, modifiers: Modifiers, from: Vec2, to: Vec2, escape: bool) {
        let steps = 4;
        let mut last = from;
        for k in 1..=steps {
            let pos = from + (to - from) * (k as f32 / steps as f32);
            let pointer = Pointer {
                pos,
                press: from,
                delta: pos - last,
                button,
                modifiers,
                click: false,
            };
            let events = PointerEvents {
                drag_started: k == 1,
                dragging: true,
                ..Default::default()
            };
            self.frame(events, Some(pointer));
            last = pos;
        }
        let end = Pointer {
            pos: to,
            press: from,
            delta: Vec2::ZERO,
            button,
            modifiers,
            click: false,
        };
        if escape {
            let cancelled = self.frame(
                PointerEvents {
                    dragging: true,
                    escape: true,
                    ..Default::default()
                },
                Some(end),
            );
            assert!(cancelled, "Esc is the active tool's");
        }
        self.frame(PointerEvents::default(), Some(end));
        assert!(!self.tools.is_active(), "released");
    }

    /// A drag pressed without modifiers and released with `release` held.
    fn drag_with_release(&mut self, button: Button, from: Vec2, to: Vec2, release: Modifiers) {
        let pointer = |pos: Vec2, modifiers| Pointer {
            pos,
            press: from,
            delta: Vec2::ZERO,
            button,
            modifiers,
            click: false,
        };
        self.frame(
            PointerEvents {
                drag_started: true,
                dragging: true,
                ..Default::default()
            },
            Some(pointer((from + to) / 2.0, Modifiers::default())),
        );
        self.frame(PointerEvents::default(), Some(pointer(to, release)));
    }

    fn click(&mut self, at: Vec2, modifiers: Modifiers) {
        let pointer = Pointer {
            pos: at,
            press: at,
            delta: Vec2::ZERO,
            button: Button::Left,
            modifiers,
            click: false,
        };
        let events = PointerEvents {
            clicked: true,
            ..Default::default()
        };
        self.frame(events, Some(pointer));
    }

    /// A pixel on the move gizmo's X arrow.
    fn gizmo_x_handle(&self) -> Vec2 {
        let view = self.camera_view();
        let pivot = self.doc.selection_pivot().expect("a selection");
        view.project(pivot + Vec3::X * view.handle_length(pivot) * 0.8)
            .expect("in view")
    }
}

const SHIFT: Modifiers = Modifiers {
    shift: true,
    ctrl: false,
    alt: false,
    command: false,
};
const CTRL: Modifiers = Modifiers {
    shift: false,
    ctrl: true,
    alt: false,
    command: true,
};

#[test]
fn clicks_select_add_and_toggle() {
    let mut w = World::new(&[Vec3::new(-2.0, 0.0, 0.0), Vec3::new(2.0, 0.0, 0.0)]);
    let ids = w.ids();
    let (a, b) = (w.pick.discs[0].0, w.pick.discs[1].0);
    w.click(a, Modifiers::default());
    assert_eq!(w.doc.scene().selection(), &ids[..1]);
    w.click(b, SHIFT);
    assert_eq!(w.doc.scene().selection(), &ids[..]);
    w.click(a, CTRL);
    assert_eq!(w.doc.scene().selection(), &ids[1..]);
    w.click(Vec2::new(5.0, 5.0), Modifiers::default());
    assert!(
        w.doc.scene().selection().is_empty(),
        "a click on nothing clears"
    );
}

#[test]
fn a_gizmo_drag_moves_and_esc_takes_it_back_without_a_trace() {
    let mut w = World::new(&[Vec3::ZERO, Vec3::new(3.0, 0.0, 0.0)]);
    let first = w.ids()[0];
    w.click(w.pick.discs[0].0, Modifiers::default());
    let before_scene = w.doc.scene().data().clone();
    let (position, undo) = (w.doc.history().position(), w.doc.history().undo_name());
    let handle = w.gizmo_x_handle();
    w.drag(
        Button::Left,
        Modifiers::default(),
        handle,
        handle + Vec2::new(80.0, 0.0),
        true,
    );
    assert_eq!(w.doc.scene().data(), &before_scene, "everything as it was");
    assert_eq!(w.doc.history().position(), position);
    assert_eq!(w.doc.history().undo_name(), undo);
    assert_eq!(w.doc.history().redo_name(), None, "no greyed Move to redo");
    assert!(w.doc.redo().is_none(), "Ctrl+Y does nothing");
    assert_eq!(w.doc.scene().data(), &before_scene);
    assert!(
        w.pick.rect_calls.borrow().is_empty(),
        "no box select under the gizmo"
    );
    w.drag(
        Button::Left,
        Modifiers::default(),
        handle,
        handle + Vec2::new(80.0, 0.0),
        false,
    );
    let moved = w
        .doc
        .scene()
        .entity(first)
        .expect("entity")
        .transform
        .translation;
    assert!(
        moved.x > 0.1 && moved.y.abs() < 1e-4 && moved.z.abs() < 1e-4,
        "{moved}"
    );
    assert_eq!(w.doc.history().position(), position + 1, "one undo step");
    assert_eq!(w.doc.history().undo_name().as_deref(), Some("Move"));
}

/// A snapped gizmo drag that moves nothing (a few pixels, under half a grid step,
/// from a place on the grid) adds no "Move" to the history.
#[test]
fn a_snapped_drag_that_moves_nothing_adds_no_step() {
    let mut w = World::new(&[Vec3::ZERO, Vec3::new(3.0, 0.0, 0.0)]);
    w.click(w.pick.discs[0].0, Modifiers::default());
    w.prefs.snap = true;
    let scene = w.doc.scene().data().clone();
    let position = w.doc.history().position();
    let handle = w.gizmo_x_handle();
    w.drag(
        Button::Left,
        Modifiers::default(),
        handle,
        handle + Vec2::new(3.0, 0.0),
        false,
    );
    assert_eq!(w.doc.scene().data(), &scene, "nothing moved");
    assert_eq!(w.doc.history().position(), position, "no Move step");
    // A drag that does move is still one step.
    w.drag(
        Button::Left,
        Modifiers::default(),
        handle,
        handle + Vec2::new(120.0, 0.0),
        false,
    );
    assert_ne!(w.doc.scene().data(), &scene);
    assert_eq!(w.doc.history().position(), position + 1);
}

#[test]
fn box_select_takes_what_is_inside_and_esc_keeps_the_selection() {
    let mut w = World::new(&[
        Vec3::new(-2.0, 0.0, 0.0),
        Vec3::new(0.0, 0.0, 0.0),
        Vec3::new(2.0, 0.0, 0.0),
    ]);
    let ids = w.ids();
    let (a, b, c) = (w.pick.discs[0].0, w.pick.discs[1].0, w.pick.discs[2].0);
    // From empty space left of the first to between the second and third.
    let from = Vec2::new(a.x - 30.0, a.y.min(b.y) - 40.0);
    let to = Vec2::new((b.x + c.x) / 2.0, a.y.max(b.y) + 40.0);
    w.drag(Button::Left, Modifiers::default(), from, to, true);
    assert!(
        w.doc.scene().selection().is_empty(),
        "cancelled: nothing selected"
    );
    w.drag(Button::Left, Modifiers::default(), from, to, false);
    assert_eq!(w.doc.scene().selection(), &ids[..2]);
    // A drag that starts on an entity is a box too (in a room every pixel is
    // floor or wall); Shift adds.
    w.drag(Button::Left, SHIFT, c, c + Vec2::new(50.0, 50.0), false);
    assert_eq!(w.doc.scene().selection(), &ids[..]);
    // Ctrl toggles what the box holds.
    w.drag(Button::Left, CTRL, from, to, false);
    assert_eq!(w.doc.scene().selection(), &ids[2..]);
}

#[test]
fn box_select_takes_markers_by_their_place_and_hidden_meshes_through_walls() {
    let mut w = World::new(&[Vec3::new(-2.0, 0.0, 0.0), Vec3::new(2.0, 0.0, 0.0)]);
    let markers = w.ids();
    // A box mesh behind everything: the ID buffer shows none of them.
    let material = {
        w.doc
            .execute(pebble_model::command::AddMaterial::new(Default::default()))
            .expect("material");
        w.doc.scene().materials().map(|(id, _)| id).next()
    };
    let mesh = pebble_core::create::entity(
        pebble_core::create::CreateItem::Box,
        Vec3::new(0.0, 0.0, -1.0),
        material,
    )
    .expect("a box");
    w.doc
        .execute(AddEntities::new("Create", vec![mesh]).without_selecting())
        .expect("add");
    let box_id = *w
        .ids()
        .iter()
        .find(|id| !markers.contains(id))
        .expect("the mesh");
    w.pick.discs.clear();
    let all = (Vec2::ZERO, SIZE);
    w.drag(Button::Left, Modifiers::default(), all.0, all.1, false);
    assert_eq!(
        w.doc.scene().selection(),
        &markers[..],
        "markers, not the hidden mesh"
    );
    // Alt at the release: through walls.
    let alt = Modifiers {
        alt: true,
        ..Modifiers::default()
    };
    w.tools = Tools::standard();
    w.drag_with_release(Button::Left, all.0, all.1, alt);
    let selected = w.doc.scene().selection().to_vec();
    assert!(
        selected.contains(&box_id) && selected.len() == 3,
        "{selected:?}"
    );
    // Or always, from the View menu; a hidden or locked entity never.
    w.prefs.box_select_occluded = true;
    let mut locked = w.doc.scene().entity(markers[0]).expect("marker").clone();
    locked.locked = true;
    w.doc
        .execute(pebble_model::command::SetEntity::new("Lock", locked))
        .expect("lock");
    w.drag(Button::Left, Modifiers::default(), all.0, all.1, false);
    let selected = w.doc.scene().selection().to_vec();
    assert!(
        selected.contains(&box_id) && !selected.contains(&markers[0]),
        "{selected:?}"
    );
}

#[test]
fn an_orbit_cancelled_with_esc_puts_the_camera_back() {
    let mut w = World::new(&[Vec3::ZERO]);
    w.prefs.navigation = pebble_core::presets::bundled_scheme("Blender").expect("bundled");
    let before = w.view.orbit;
    // Blender orbits with the middle button.
    w.drag(
        Button::Middle,
        Modifiers::default(),
        Vec2::new(400.0, 300.0),
        Vec2::new(500.0, 320.0),
        true,
    );
    assert_eq!(w.view.orbit, before);
    w.drag(
        Button::Middle,
        Modifiers::default(),
        Vec2::new(400.0, 300.0),
        Vec2::new(500.0, 320.0),
        false,
    );
    assert_ne!(w.view.orbit.yaw, before.yaw, "an orbit turns the view");
    assert!(w.status.text.is_empty(), "{}", w.status.text);
}

#[test]
fn a_pan_keeps_the_grabbed_point_under_the_cursor_from_the_first_pixel() {
    for ortho in [false, true] {
        let near = Vec3::new(0.5, 0.0, 6.0);
        let mut w = World::new(&[near, Vec3::new(-1.0, 0.0, -12.0)]);
        w.view.orbit.ortho = ortho;
        w.draw();
        // Fusion 360 pans with the middle button.
        let press = w.pick.discs[0].0;
        let to = press + Vec2::new(60.0, 25.0);
        w.drag(Button::Middle, Modifiers::default(), press, to, false);
        let now = w.camera_view().project(near).expect("in view");
        assert!(
            now.distance(to) < 0.5,
            "ortho {ortho}: the grabbed point is at {now}, the cursor at {to}"
        );
        // Over the sky a pan moves the view too (at the pivot's depth).
        let before = w.view.orbit.pivot;
        let sky = Vec2::new(10.0, 10.0);
        w.drag(
            Button::Middle,
            Modifiers::default(),
            sky,
            sky + Vec2::new(60.0, 0.0),
            false,
        );
        assert_ne!(w.view.orbit.pivot, before);
    }
}

#[test]
fn markers_reach_the_id_pass_as_quads_along_their_lines_with_their_ids() {
    use crate::picking::marker_triangles;
    let spawn = Vec3::new(0.0, 1.6, 0.0);
    let mut w = World::new(&[spawn, Vec3::new(3.0, 1.6, -2.0)]);
    let ids = w.ids();
    let view = w.camera_view();
    let triangles = marker_triangles(
        w.doc.scene(),
        &view,
        Some(&Default::default()),
        &w.doc.kinds.defs,
        &Default::default(),
    );
    assert!(!triangles.is_empty() && triangles.len().is_multiple_of(3));
    // Every marker's id, and nothing else.
    for id in &ids {
        assert!(triangles.iter().any(|v| v.id == id.0));
    }
    assert!(triangles.iter().all(|v| ids.iter().any(|id| id.0 == v.id)));
    // The spawn's post passes through its place: a quad there covers that pixel,
    // MARKER_PIXELS wide.
    let at = view.project(spawn).expect("in view");
    let covered = triangles
        .chunks_exact(3)
        .filter(|t| t[0].id == ids[0].0)
        .any(|t| {
            let p: Vec<Vec2> = t
                .iter()
                .filter_map(|v| view.project(Vec3::from(v.pos)))
                .collect();
            let sign = |a: Vec2, b: Vec2, c: Vec2| (b - a).perp_dot(c - a);
            let s = [
                sign(p[0], p[1], at),
                sign(p[1], p[2], at),
                sign(p[2], p[0], at),
            ];
            s.iter().all(|x| *x >= -1e-3) || s.iter().all(|x| *x <= 1e-3)
        });
    assert!(covered, "the spawn's place is inside its marker");
    // A locked marker cannot be picked: it is not in the ID pass.
    let mut locked = w.doc.scene().entity(ids[0]).expect("spawn").clone();
    locked.locked = true;
    w.doc
        .execute(pebble_model::command::SetEntity::new("Lock", locked))
        .expect("lock");
    let triangles = marker_triangles(
        w.doc.scene(),
        &view,
        Some(&Default::default()),
        &w.doc.kinds.defs,
        &Default::default(),
    );
    assert!(triangles.iter().all(|v| v.id != ids[0].0));
}

#[test]
fn gizmo_handles_are_quads_of_the_same_width_on_screen_near_and_far() {
    for ortho in [false, true] {
        let mut w = World::new(&[Vec3::ZERO, Vec3::new(0.0, 0.0, -30.0)]);
        w.view.orbit.ortho = ortho;
        let view = w.camera_view();
        let mut out = ToolOverlay::default();
        for (from, to) in [
            (Vec3::ZERO, Vec3::X),
            (Vec3::new(0.0, 0.0, -30.0), Vec3::new(1.0, 0.0, -30.0)),
            // Straight up the screen's middle: the shaft that used to vanish.
            (Vec3::ZERO, Vec3::Y),
        ] {
            out.thick_line(&view, (from, to), 0xFF_FF_FF_FF, 3.0);
        }
        assert_eq!(out.triangles.len(), 3 * 6);
        for quad in out.triangles.chunks_exact(6) {
            let p = |k: usize| view.project(Vec3::from(quad[k].pos)).expect("in view");
            // The quad's two short sides, across the line at each end.
            for (a, b) in [(0, 1), (5, 2)] {
                let width = p(a).distance(p(b));
                assert!((width - 3.0).abs() < 0.05, "ortho {ortho}: {width} px");
            }
        }
    }
    // The gizmo draws its handles that way.
    let mut w = World::new(&[Vec3::ZERO]);
    w.click(w.pick.discs[0].0, Modifiers::default());
    let overlay = w.tools.overlay(&OverlayContext {
        doc: &w.doc,
        prefs: &w.prefs,
        view: w.camera_view(),
        gizmo_mode: gizmo::Mode::Translate,
        cursor: None,
    });
    assert!(
        overlay.triangles.len() >= 3 * 6,
        "the three arrows at least"
    );
}

#[test]
fn shift_while_moving_stands_the_selection_on_the_surface_under_the_cursor() {
    let mut w = World::new(&[Vec3::new(0.0, 2.0, 0.0), Vec3::new(4.0, 0.0, -3.0)]);
    let moved = w.ids()[0];
    w.click(w.pick.discs[0].0, Modifiers::default());
    let handle = w.gizmo_x_handle();
    let to = handle + Vec2::new(60.0, 30.0);
    // A floor under the release point (an entity the drag does not move), and
    // the moved marker itself, which a surface snap sees through.
    let floor = Vec3::new(1.5, 0.25, 0.5);
    w.pick.discs = vec![(to, moved.0, Vec3::splat(9.0)), (to, 4242, floor)];
    w.drag(Button::Left, SHIFT, handle, to, false);
    let at = w
        .doc
        .scene()
        .entity(moved)
        .expect("moved")
        .transform
        .translation;
    let bottom = w.doc.scene().world_aabb(moved).map_or(at.y, |b| b.min.y);
    assert!(
        (at.x - floor.x).abs() < 1e-4 && (at.z - floor.z).abs() < 1e-4,
        "over the point under the cursor: {at}"
    );
    assert!(
        (bottom - floor.y).abs() < 1e-4,
        "its base on the floor: {bottom}"
    );
}

#[test]
fn v_while_moving_puts_the_nearest_vertex_onto_another_object_s() {
    let mut w = World::new(&[]);
    w.doc
        .execute(pebble_model::command::AddMaterial::new(Default::default()))
        .expect("material");
    let material = w.doc.scene().materials().map(|(id, _)| id).next();
    let boxed = |at: Vec3| {
        pebble_core::create::entity(pebble_core::create::CreateItem::Box, at, material)
            .expect("a box")
    };
    w.doc
        .execute(
            AddEntities::new(
                "Create",
                vec![boxed(Vec3::ZERO), boxed(Vec3::new(3.0, 0.0, -1.0))],
            )
            .without_selecting(),
        )
        .expect("add");
    let ids = w.ids();
    w.view = ViewState::framing(w.doc.scene().bounds());
    w.doc.select(vec![ids[0]]).expect("select");
    let vertices = |w: &World, id| {
        let scene = w.doc.scene();
        let world = scene.world_transform(id);
        match &scene.entity(id).expect("entity").kind {
            EntityKind::Mesh(m) => m
                .geometry
                .positions
                .iter()
                .map(|p| world.transform_point3(*p))
                .collect::<Vec<_>>(),
            _ => panic!("a mesh"),
        }
    };
    // Aim near one of the other box's corners.
    let target = vertices(&w, ids[1])
        .into_iter()
        .min_by(|a, b| a.x.total_cmp(&b.x).then(b.y.total_cmp(&a.y)))
        .expect("a corner");
    let aim = w.camera_view().project(target).expect("in view") + Vec2::new(6.0, 4.0);
    let handle = w.gizmo_x_handle();
    w.pick.discs.clear();
    w.vertex_snap = true;
    w.drag(Button::Left, Modifiers::default(), handle, aim, false);
    let moved = vertices(&w, ids[0]);
    assert!(
        moved.iter().any(|v| (*v - target).length() < 1e-4),
        "a corner of the moved box sits on {target}: {moved:?}"
    );
    assert_eq!(w.doc.history().undo_name().as_deref(), Some("Move"));
}

mod create;

/// A right click selects what is under it (unless it is already selected) and
/// asks for the context menu; the flight it started turned nothing. A right drag
/// is a flight, with no menu.
#[test]
fn a_right_click_selects_and_opens_the_context_menu_a_right_drag_flies() {
    let mut w = World::new(&[Vec3::ZERO, Vec3::new(2.0, 0.0, 0.0)]);
    let ids = w.ids();
    let at = w
        .camera_view()
        .project(Vec3::new(2.0, 0.0, 0.0))
        .expect("in view");
    let before = w.view.orbit;
    // The press starts the flight at once; released in place it is a click. A
    // press and release in one frame ends on the next, whose pointer names no
    // button (egui's default, the left).
    for (k, events) in [
        PointerEvents {
            drag_started: true,
            dragging: true,
            ..Default::default()
        },
        PointerEvents::default(),
    ]
    .into_iter()
    .enumerate()
    {
        let pointer = Pointer {
            pos: at + Vec2::new(1.0, 0.0),
            press: at,
            delta: Vec2::ZERO,
            button: if k == 0 { Button::Right } else { Button::Left },
            modifiers: Modifiers::default(),
            click: false,
        };
        w.frame(events, Some(pointer));
    }
    let menu = w.context_menu.take().expect("the context menu");
    let (pixel, point) = (menu.pixel, menu.point);
    assert_eq!(pixel, at + Vec2::new(1.0, 0.0));
    assert_eq!(point, Some(Vec3::new(2.0, 0.0, 0.0)), "the surface clicked");
    assert_eq!(w.doc.scene().selection(), &[ids[1]]);
    assert_eq!(w.view.orbit, before, "the pixel it moved turned nothing");

    // With both selected, a right click on one keeps both.
    w.doc.select(ids.clone()).expect("select");
    w.drag(Button::Right, Modifiers::default(), at, at, false);
    assert_eq!(w.doc.scene().selection(), &ids[..]);
    // A real drag flies: the view turns, nothing is selected anew.
    w.doc.select(vec![]).expect("select");
    w.drag(
        Button::Right,
        Modifiers::default(),
        at,
        at + Vec2::new(60.0, 0.0),
        false,
    );
    assert_ne!(w.view.orbit, before);
    assert!(w.doc.scene().selection().is_empty());
}

/// Clicking again on the same spot goes through what is under it, nearest first
/// then deeper, and round again; Alt+click lists it all in the context menu and
/// leaves the selection as it was.
#[test]
fn clicking_again_on_the_same_spot_goes_through_what_is_under_it() {
    let mut w = World::new(&[
        Vec3::ZERO,
        Vec3::new(0.02, 0.0, 0.0),
        Vec3::new(0.04, 0.0, 0.0),
        Vec3::new(20.0, 0.0, 0.0),
    ]);
    let ids = w.ids();
    let at = w
        .camera_view()
        .project(Vec3::new(0.02, 0.0, 0.0))
        .expect("in view");
    let mut seen = Vec::new();
    for _ in 0..4 {
        w.click(at, Modifiers::default());
        seen.push(w.doc.scene().selection().to_vec());
    }
    assert_eq!(
        seen,
        [vec![ids[0]], vec![ids[1]], vec![ids[2]], vec![ids[0]]],
        "one after another, then round again"
    );
    assert!(
        w.status.text.contains("under the cursor"),
        "{}",
        w.status.text
    );
    w.click(
        at,
        Modifiers {
            alt: true,
            ..Modifiers::default()
        },
    );
    let menu = w.context_menu.take().expect("Alt+click opens the list");
    assert_eq!(menu.under, [ids[0].0, ids[1].0, ids[2].0]);
    assert_eq!(w.doc.scene().selection(), &[ids[0]], "the selection stays");
}

/// The report: every "Under the cursor" list offered "Select Sky" and "Select
/// Sun", and the status bar said "1 of 6 under the cursor" after a click on
/// empty space. The sun and the sky are listed only when hit first; a click on
/// nothing says so instead of keeping the last pile's count.
#[test]
fn the_sun_and_the_sky_are_not_under_everything_and_an_empty_click_says_so() {
    use pebble_model::entity::Light;
    let mut w = World::new(&[Vec3::ZERO, Vec3::new(20.0, 0.0, 0.0)]);
    let ids = w.ids();
    // The sun and the sky stand at the origin, where a spawn is: behind it here.
    let lights = vec![
        Entity::new(
            "Sun",
            EntityKind::Light(Light::Sun {
                direction: Vec3::new(-0.4, -1.0, -0.3),
                color: [1.0; 3],
                intensity: 1.0,
                shadows: true,
            }),
        ),
        Entity::new(
            "Sky",
            EntityKind::Light(Light::Hemisphere {
                sky: [0.4, 0.5, 0.6],
                ground: [0.2; 3],
                ao_strength: 0.5,
                ao_radius: 1.0,
            }),
        ),
    ];
    w.doc
        .execute(AddEntities::new("Lights", lights).without_selecting())
        .expect("adds");
    w.doc.end_edit();
    w.draw();
    let at = w.camera_view().project(Vec3::ZERO).expect("in view");
    w.click(
        at,
        Modifiers {
            alt: true,
            ..Modifiers::default()
        },
    );
    let menu = w.context_menu.take().expect("Alt+click opens the list");
    assert_eq!(
        menu.under,
        [ids[0].0],
        "the spawn alone, not the sun and sky"
    );
    w.click(at, Modifiers::default());
    assert_eq!(w.doc.scene().selection(), &[ids[0]]);
    assert!(!w.status.text.contains(" of "), "{}", w.status.text);
    // A pile, then a click on nothing: the count goes.
    w.status
        .info("1 of 3 under the cursor (click again for the next, Alt+click for the list)");
    let nothing = w
        .camera_view()
        .project(Vec3::new(10.0, 0.0, 0.0))
        .expect("in view");
    w.click(nothing, Modifiers::default());
    assert!(w.doc.scene().selection().is_empty());
    assert_eq!(w.status.text, "nothing under the cursor");
}

/// A patrol selected alone shows a handle at each waypoint; dragging one moves
/// that waypoint level under the cursor (relative to the patrol, which it follows)
/// as one undo step named after it; Esc puts it back with no trace.
#[test]
fn a_waypoint_handle_drags_its_point_and_esc_puts_it_back() {
    use pebble_model::definitions::FieldValue;
    let mut w = World::new(&[]);
    let mut patrol = Entity::new(
        "Guard",
        EntityKind::Defined(instance(
            "Patrol",
            [(
                "waypoints",
                FieldValue::Array(vec![
                    FieldValue::Point(Vec3::ZERO),
                    FieldValue::Point(Vec3::new(4.0, 0.0, 0.0)),
                ]),
            )],
        )),
    );
    patrol.transform = Transform::from_translation(Vec3::new(1.0, 0.0, 2.0));
    w.doc
        .execute(AddEntities::new("Create", vec![patrol]))
        .expect("add");
    w.doc.end_edit();
    w.view = ViewState::framing(Some(pebble_model::Aabb {
        min: Vec3::new(-4.0, 0.0, -4.0),
        max: Vec3::new(8.0, 1.0, 8.0),
    }));
    w.draw();
    let id = w.doc.scene().selection()[0];
    let waypoints = |w: &World| match &w.doc.scene().entity(id).expect("patrol").kind {
        EntityKind::Defined(d) => pebble_model::definitions::builtin::value(d, "waypoints")
            .expect("waypoints")
            .points(),
        other => panic!("{other:?}"),
    };
    let view = w.camera_view();
    let handle = view.project(Vec3::new(5.0, 0.0, 2.0)).expect("on screen");
    let target = view.project(Vec3::new(5.0, 0.0, 5.0)).expect("on screen");
    let before = w.doc.scene().data().clone();
    let position = w.doc.history().position();
    w.drag(Button::Left, Modifiers::default(), handle, target, true);
    assert_eq!(w.doc.scene().data(), &before, "Esc: as it was");
    assert_eq!(w.doc.history().position(), position, "no step");
    w.drag(Button::Left, Modifiers::default(), handle, target, false);
    let now = waypoints(&w);
    assert_eq!(now[0], Vec3::ZERO, "the other point stays");
    assert!(
        (now[1] - Vec3::new(4.0, 0.0, 3.0)).length() < 0.05,
        "the dragged point, relative to the patrol: {now:?}"
    );
    assert_eq!(w.doc.history().position(), position + 1, "one undo step");
    assert_eq!(
        w.doc.history().undo_name().as_deref(),
        Some("Move waypoints point 2")
    );
    // The patrol itself did not move: the gizmo did not take the press.
    let at = w
        .doc
        .scene()
        .entity(id)
        .expect("patrol")
        .transform
        .translation;
    assert_eq!(at, Vec3::new(1.0, 0.0, 2.0));
}
