//! Face mode in the whole app, with faces picked from the GPU's ID buffer: T turns
//! it on; a click picks the face under the cursor, Shift adds, Ctrl toggles, a box
//! picks the faces facing the camera; the inspector's buttons and typed values
//! change the picked faces' UVs, one undo step each; Esc lets go, Esc again leaves.
//! The texture lock decides whether a moved wall takes its texture along. The UV
//! panel's drag: Esc half-way takes it back, a finished one is one undo step.

use crate::common;

use egui_kittest::kittest::Queryable as _;
use pebble_editor::app::PebbleApp;
use pebble_model::EntityKind;
use pebble_model::glam::{Vec2, Vec3};
use pebble_viewport::navigation::OrbitCamera;

use common::room::{WALLS, room_project};
use common::{entity, harness_on, screen};

type Harness = egui_kittest::Harness<'static, PebbleApp>;

/// Looks into the room from its south side, from above.
fn overlook(harness: &mut Harness) {
    let view = &mut harness.state_mut().viewport.view;
    view.orbit = OrbitCamera {
        pivot: Vec3::new(0.0, 1.5, -1.0),
        distance: 13.0,
        yaw: 0.0,
        pitch: -0.5,
        ..OrbitCamera::default()
    };
    view.target = None;
    harness.run_steps(3);
}

/// A click at `at` with `modifiers` held.
fn click_with(harness: &mut Harness, at: egui::Pos2, modifiers: egui::Modifiers) {
    harness.hover_at(at);
    harness.run_steps(1);
    harness.event(egui::Event::ModifiersChanged(modifiers));
    for pressed in [true, false] {
        harness.event(egui::Event::PointerButton {
            pos: at,
            button: egui::PointerButton::Primary,
            pressed,
            modifiers,
        });
        harness.run_steps(1);
    }
    harness.event(egui::Event::ModifiersChanged(egui::Modifiers::NONE));
    harness.run_steps(2);
}

/// The picked faces of `name`.
fn picked(app: &PebbleApp, name: &str) -> Vec<usize> {
    let id = entity(app, name);
    app.doc
        .faces
        .iter()
        .find(|(e, _)| *e == id)
        .map(|(_, f)| f)
        .unwrap_or_default()
}

/// The middle of a wall's inner face.
fn inner(k: usize) -> Vec3 {
    let (_, at, size, inward) = WALLS[k];
    let (at, size, inward) = (Vec3::from(at), Vec3::from(size), Vec3::from(inward));
    let thickness = (size * inward).abs().max_element();
    at + Vec3::Y * (size.y * 0.5) + inward * (thickness * 0.5)
}

fn uvs(app: &PebbleApp, name: &str) -> Vec<[Vec2; 3]> {
    match &app.scene().entity(entity(app, name)).expect("wall").kind {
        EntityKind::Mesh(m) => m.geometry.faces.iter().map(|f| f.uvs).collect(),
        _ => panic!("not a mesh"),
    }
}

#[test]
fn faces_are_picked_changed_and_let_go_of_in_face_mode() {
    let Some(mut harness) = harness_on(room_project()) else {
        return;
    };
    overlook(&mut harness);
    harness.key_press(egui::Key::T);
    harness.run_steps(2);
    assert!(
        harness.state().viewport.tools.face_mode(),
        "T turns face mode on"
    );

    // A click picks the north wall's inner face: its two triangles.
    let north = screen(harness.state(), inner(0));
    click_with(&mut harness, north, egui::Modifiers::NONE);
    assert_eq!(picked(harness.state(), "North wall").len(), 2);
    assert!(
        harness
            .query_by_label_contains("2 triangle(s) on 1 object(s)")
            .is_some(),
        "the inspector shows the picked faces"
    );
    // Shift adds the east wall's; Ctrl takes the north wall's away again.
    let east = screen(harness.state(), inner(1));
    click_with(&mut harness, east, egui::Modifiers::SHIFT);
    assert_eq!(harness.state().doc.faces.counts(), (4, 2));
    // Every row of the inspector fits its pane, which ends at the window's edge: one
    // row wider than the pane once widened all below it, cut off at that edge.
    let edge = harness.ctx.content_rect().right();
    for label in ["Flip V", "Align face", "Bottom", "Centre"] {
        let rect = harness.get_by_label(label).rect();
        assert!(
            rect.right() <= edge,
            "\"{label}\" ends at x = {} past the inspector's edge at {edge}",
            rect.right()
        );
    }
    for note in ["twice as large", "m per repeat"] {
        let rects: Vec<egui::Rect> = harness
            .query_all_by_label_contains(note)
            .map(|node| node.rect())
            .collect();
        assert!(!rects.is_empty(), "a label with \"{note}\"");
        for rect in rects {
            assert!(rect.right() <= edge, "\"{note}\": {rect:?}");
        }
    }
    click_with(&mut harness, north, egui::Modifiers::COMMAND);
    assert_eq!(harness.state().doc.faces.counts(), (2, 1));
    assert_eq!(picked(harness.state(), "East wall").len(), 2);

    // The inspector: a typed rotation reaches the picked faces as one step.
    let before = uvs(harness.state(), "East wall");
    let steps = harness.state().history_names().len();
    // The faces' rotation comes first; the material's own is further down.
    let faces_rotation = |h: &Harness| {
        h.query_all_by_role_and_label(egui::accesskit::Role::SpinButton, "rotation")
            .next()
            .expect("the faces' rotation field")
            .rect()
            .center()
    };
    let at = faces_rotation(&harness);
    common::click(&mut harness, at);
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    harness
        .query_all_by_role_and_label(egui::accesskit::Role::SpinButton, "rotation")
        .next()
        .expect("the field")
        .type_text("30");
    harness.key_press(egui::Key::Enter);
    harness.run_steps(3);
    let (m, _) = harness
        .state()
        .doc
        .faces
        .first_mapping(harness.state().scene())
        .expect("a mapping");
    assert!((m.rotation.to_degrees() - 30.0).abs() < 1e-3, "{m:?}");
    assert_eq!(harness.state().history_names().len(), steps + 1);
    // Fit, then the world's alignment; undo takes each back.
    harness.get_by_label("Fit").click();
    harness.run_steps(2);
    harness.get_by_label("Align world").click();
    harness.run_steps(2);
    let names = harness.state().history_names();
    assert!(
        names.ends_with(&[
            "Fit texture to faces".into(),
            "Align texture to world".into()
        ]),
        "{names:?}"
    );
    for _ in 0..3 {
        harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
        harness.run_steps(2);
    }
    assert_eq!(
        uvs(harness.state(), "East wall"),
        before,
        "three undos, three steps"
    );
    // The faces' material, chosen from the project's: the floor's, on them alone.
    harness
        .get_by_role_and_label(egui::accesskit::Role::ComboBox, "material")
        .click();
    harness.run_steps(2);
    harness.get_by_label("Floor").click();
    harness.run_steps(2);
    let scene = harness.state().scene();
    let floor = scene
        .materials()
        .find(|(_, m)| m.name == "Floor")
        .map(|(id, _)| id)
        .expect("the floor's material");
    let east = entity(harness.state(), "East wall");
    let EntityKind::Mesh(m) = &scene.entity(east).expect("wall").kind else {
        panic!("a mesh")
    };
    let on_floor: Vec<usize> = (0..m.geometry.faces.len())
        .filter(|&f| m.geometry.faces[f].material == floor)
        .collect();
    assert_eq!(
        on_floor,
        picked(harness.state(), "East wall"),
        "the picked faces alone"
    );
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    harness.run_steps(2);

    // A box over the middle of the view picks the faces turned towards it.
    let (_, rect) = harness.state().view();
    let (a, b) = (
        rect.center() + egui::vec2(-60.0, -40.0),
        rect.center() + egui::vec2(60.0, 40.0),
    );
    common::drag_line(&mut harness, a, b, 6);
    let (n, _) = harness.state().doc.faces.counts();
    assert!(
        n >= 2,
        "the floor's top at least: {n} ({})",
        harness.state().status().text
    );
    let floor = picked(harness.state(), "Floor");
    assert!(!floor.is_empty(), "the floor is in the box");

    // Esc lets go of the faces, Esc again leaves face mode.
    harness.key_press(egui::Key::Escape);
    harness.run_steps(2);
    assert!(harness.state().doc.faces.is_empty());
    assert!(harness.state().viewport.tools.face_mode());
    harness.key_press(egui::Key::Escape);
    harness.run_steps(2);
    assert!(!harness.state().viewport.tools.face_mode());
}

#[test]
fn the_texture_lock_decides_whether_a_moved_wall_takes_its_texture_along() {
    let Some(mut harness) = harness_on(room_project()) else {
        return;
    };
    overlook(&mut harness);
    let wall = entity(harness.state(), "North wall");
    harness.state_mut().doc.select(vec![wall]).expect("selects");
    harness.run_steps(2);
    let before = uvs(harness.state(), "North wall");
    // Locked (the default): a nudge leaves the UVs as they are.
    assert!(harness.state().prefs.texture_lock);
    harness.key_press(egui::Key::ArrowRight);
    harness.run_steps(2);
    let moved = harness
        .state()
        .scene()
        .entity(wall)
        .expect("wall")
        .transform
        .translation;
    assert!(moved.x.abs() > 1e-4, "the nudge moved it: {moved}");
    assert_eq!(uvs(harness.state(), "North wall"), before);
    // Unlocked (Shift+T): a nudge back slides the wall under its texture, so the
    // UVs change; another nudge back to where it was gives the first UVs again.
    harness.key_press_modifiers(egui::Modifiers::SHIFT, egui::Key::T);
    harness.run_steps(2);
    assert!(!harness.state().prefs.texture_lock);
    harness.key_press(egui::Key::ArrowLeft);
    harness.run_steps(2);
    let slid = uvs(harness.state(), "North wall");
    assert_ne!(slid, before, "the texture stayed in the world");
    harness.key_press(egui::Key::ArrowRight);
    harness.run_steps(2);
    for (a, b) in uvs(harness.state(), "North wall").iter().zip(&before) {
        for k in 0..3 {
            let d = a[k] - b[k];
            assert!((d - d.round()).abs().max_element() < 1e-4, "{a:?} vs {b:?}");
        }
    }
}

/// The top of a wall (its middle, in the world).
fn top(k: usize) -> Vec3 {
    let (_, at, size, _) = WALLS[k];
    Vec3::from(at) + Vec3::Y * size[1]
}

fn mesh_of(app: &PebbleApp, name: &str) -> pebble_model::entity::MeshEntity {
    match &app.scene().entity(entity(app, name)).expect("wall").kind {
        EntityKind::Mesh(m) => m.clone(),
        _ => panic!("not a mesh"),
    }
}

#[test]
fn picked_faces_are_moved_by_the_gizmo_extruded_flipped_and_deleted() {
    let Some(mut harness) = harness_on(room_project()) else {
        return;
    };
    overlook(&mut harness);
    harness.key_press(egui::Key::T);
    harness.run_steps(2);
    // The north wall's top face.
    let at = screen(harness.state(), top(0));
    click_with(&mut harness, at, egui::Modifiers::NONE);
    assert_eq!(picked(harness.state(), "North wall").len(), 2);
    let before = mesh_of(harness.state(), "North wall");

    // The gizmo stands on the face: its Y arrow dragged up raises the top, and
    // the sides come with it (the wall stays closed, one step).
    let grab = screen(harness.state(), top(0) + Vec3::Y * 0.6);
    common::drag_line(&mut harness, grab, grab - egui::vec2(0.0, 60.0), 6);
    let raised = mesh_of(harness.state(), "North wall");
    let height =
        |m: &pebble_model::entity::MeshEntity| m.geometry.aabb().map_or(0.0, |b| b.max.y - b.min.y);
    assert!(
        height(&raised) > height(&before) + 0.2,
        "{} → {}",
        height(&before),
        height(&raised)
    );
    assert_eq!(raised.geometry.faces.len(), 12);
    assert!(
        (raised.geometry.signed_volume() - 10.0 * 0.4 * height(&raised)).abs() < 1e-2,
        "closed, a box still"
    );
    assert_eq!(
        raised.source,
        pebble_model::entity::GeometrySource::Authored
    );
    // The sides the pull made taller show more of their texture, at the same
    // size and place in the world, rather than their old UVs stretched.
    let world = harness
        .state()
        .scene()
        .world_transform(entity(harness.state(), "North wall"));
    for f in 0..raised.geometry.faces.len() {
        let was = pebble_model::uv::mapping_of(&before.geometry, f, &world).expect("an area");
        let now = pebble_model::uv::mapping_of(&raised.geometry, f, &world).expect("an area");
        assert!(
            (was.offset - now.offset).abs().max_element() < 1e-3
                && (was.scale - now.scale).abs().max_element() < 1e-3,
            "face {f}: {was:?} became {now:?}"
        );
    }
    let names = harness.state().history_names();
    assert_eq!(
        names.last().map(String::as_str),
        Some("Move faces (the box becomes an editable mesh)")
    );
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    harness.run_steps(2);
    assert_eq!(
        mesh_of(harness.state(), "North wall"),
        before,
        "undo: the primitive again"
    );

    // Alt+E extrudes the picked top by a grid step, with four walls' worth of sides.
    harness.key_press_modifiers(egui::Modifiers::ALT, egui::Key::E);
    harness.run_steps(2);
    let extruded = mesh_of(harness.state(), "North wall");
    assert_eq!(extruded.geometry.faces.len(), 20);
    assert!(height(&extruded) > height(&before));
    // Alt+F flips them; Delete takes them away and lets go of them.
    harness.key_press_modifiers(egui::Modifiers::ALT, egui::Key::F);
    harness.run_steps(2);
    harness.key_press(egui::Key::Delete);
    harness.run_steps(2);
    assert_eq!(
        mesh_of(harness.state(), "North wall").geometry.faces.len(),
        18
    );
    assert!(harness.state().doc.faces.is_empty());
    let names = harness.state().history_names();
    assert!(
        names.ends_with(&[
            "Extrude faces (the box becomes an editable mesh)".into(),
            "Flip faces".into(),
            "Delete faces".into(),
        ]),
        "{names:?}"
    );
    for _ in 0..3 {
        harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
        harness.run_steps(2);
    }
    assert_eq!(mesh_of(harness.state(), "North wall"), before);
}

#[test]
fn vertices_and_edges_are_picked_moved_split_and_merged() {
    let Some(mut harness) = harness_on(room_project()) else {
        return;
    };
    overlook(&mut harness);
    let before = mesh_of(harness.state(), "North wall");
    // Alt+1: vertices (face mode comes on with it). The north wall's top corner
    // at the west end, on the room's side.
    harness.key_press_modifiers(egui::Modifiers::ALT, egui::Key::Num1);
    harness.run_steps(2);
    assert!(harness.state().viewport.tools.face_mode());
    let (_, at, size, inward) = WALLS[0];
    let (at, size, inward) = (Vec3::from(at), Vec3::from(size), Vec3::from(inward));
    // On the top's inner edge a metre from the west end (clear of the west
    // wall, which stands in the corner): the nearest corner is the west one.
    let corner = at + Vec3::new(-size.x * 0.5 + 1.0, size.y, 0.0) + inward * (size.z * 0.5);
    let near_corner = screen(harness.state(), corner);
    click_with(&mut harness, near_corner, egui::Modifiers::NONE);
    assert_eq!(harness.state().doc.faces.element_counts(), (1, 0));
    // The gizmo's Y arrow raises that corner, and the sides meeting there with it.
    let moved = harness
        .state()
        .doc
        .faces
        .moved_vertices(harness.state().scene());
    assert_eq!(moved[0].1.len(), 3, "a box corner is in three sides");
    assert_eq!(moved[0].0, entity(harness.state(), "North wall"));
    let corner_at = {
        let m = mesh_of(harness.state(), "North wall");
        let world = harness
            .state()
            .scene()
            .world_transform(entity(harness.state(), "North wall"));
        world.transform_point3(m.geometry.positions[moved[0].1[0] as usize])
    };
    assert!(
        (corner_at.y - 3.5).abs() < 1e-4,
        "a top corner: {corner_at}"
    );
    // The gizmo stands on it: its Y arrow, two thirds of the way up.
    let g = pebble_viewport::tools::gizmo_on_faces(
        &harness.state().doc,
        pebble_viewport::gizmo::Mode::Translate,
    )
    .expect("a gizmo on the vertex");
    assert!(
        (g.pivot - corner_at).length() < 1e-4,
        "{} {corner_at}",
        g.pivot
    );
    let (camera, rect) = harness.state().view();
    let view = pebble_viewport::gizmo::View {
        camera,
        size: pebble_model::glam::Vec2::new(rect.width(), rect.height()),
    };
    let grab = screen(
        harness.state(),
        corner_at + Vec3::Y * view.handle_length(corner_at) * 0.7,
    );
    common::drag_line(&mut harness, grab, grab - egui::vec2(0.0, 50.0), 6);
    let raised = mesh_of(harness.state(), "North wall");
    assert!(
        raised.geometry.aabb().expect("bounds").max.y
            > before.geometry.aabb().expect("bounds").max.y + 0.1,
        "the corner rose: {:?}",
        raised.geometry.aabb()
    );
    assert!(raised.geometry.signed_volume() > before.geometry.signed_volume());
    assert_eq!(
        harness.state().history_names().last().map(String::as_str),
        Some("Move vertices (the box becomes an editable mesh)")
    );
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    harness.run_steps(2);
    assert_eq!(mesh_of(harness.state(), "North wall"), before);

    // Alt+2: edges. The wall's top inner edge, clicked near its middle, split.
    harness.key_press_modifiers(egui::Modifiers::ALT, egui::Key::Num2);
    harness.run_steps(2);
    let edge = at + Vec3::Y * size.y + inward * (size.z * 0.5) + Vec3::X * 1.3;
    let near_edge = screen(harness.state(), edge);
    click_with(&mut harness, near_edge, egui::Modifiers::NONE);
    assert_eq!(harness.state().doc.faces.element_counts(), (0, 1));
    harness.get_by_label("Split").click();
    harness.run_steps(2);
    let split = mesh_of(harness.state(), "North wall");
    assert_eq!(
        split.geometry.faces.len(),
        14,
        "the two faces along it became four"
    );
    assert!((split.geometry.signed_volume() - before.geometry.signed_volume()).abs() < 1e-4);

    // Alt+1 again: two top corners of the inner side picked (Shift adds) and
    // merged (Alt+M): the wall loses volume, no face is flat.
    harness.key_press_modifiers(egui::Modifiers::ALT, egui::Key::Num1);
    harness.run_steps(2);
    let other = at + Vec3::new(size.x * 0.5 - 1.0, size.y, 0.0) + inward * (size.z * 0.5);
    click_with(&mut harness, near_corner, egui::Modifiers::NONE);
    let far = screen(harness.state(), other);
    click_with(&mut harness, far, egui::Modifiers::SHIFT);
    assert_eq!(harness.state().doc.faces.element_counts(), (2, 0));
    harness.key_press_modifiers(egui::Modifiers::ALT, egui::Key::M);
    harness.run_steps(2);
    let merged = mesh_of(harness.state(), "North wall");
    assert!(merged.geometry.signed_volume() < split.geometry.signed_volume());
    assert!(merged.geometry.validate().is_ok());
    let names = harness.state().history_names();
    assert!(
        names.ends_with(&[
            "Split edges (the box becomes an editable mesh)".into(),
            "Merge vertices".into()
        ]),
        "{names:?}"
    );
}

/// The UV panel's drag in the whole app: Esc half-way puts the UVs back and the
/// faces stay picked (the viewport does not take the same Esc to let go of them);
/// a drag let go of is one "Move UVs" step, which undo takes back.
#[test]
fn a_uv_panel_drag_is_taken_back_by_esc_and_a_finished_one_is_one_step() {
    let Some(mut harness) = harness_on(room_project()) else {
        return;
    };
    overlook(&mut harness);
    harness.key_press(egui::Key::T);
    harness.run_steps(2);
    let north = screen(harness.state(), inner(0));
    click_with(&mut harness, north, egui::Modifiers::NONE);
    assert_eq!(picked(harness.state(), "North wall").len(), 2);
    harness.get_by_label("UV").click();
    harness.run_steps(3);
    let frame = harness
        .state()
        .panels
        .uv_dock
        .frame_rect()
        .expect("the UV panel shows the picked faces");
    let before = uvs(harness.state(), "North wall");
    let steps = harness.state().history_names().len();

    // Half a drag inside the faces' frame, then Esc with the button still down.
    let from = frame.center();
    let to = from + egui::vec2(30.0, 20.0);
    common::press_and_move(&mut harness, from, to, 4);
    assert_ne!(
        uvs(harness.state(), "North wall"),
        before,
        "the drag moves the UVs live"
    );
    harness.key_press(egui::Key::Escape);
    harness.run_steps(2);
    assert_eq!(
        uvs(harness.state(), "North wall"),
        before,
        "Esc puts them back"
    );
    assert_eq!(
        picked(harness.state(), "North wall").len(),
        2,
        "and the faces stay picked"
    );
    harness.drop_at(to);
    harness.run_steps(2);
    assert_eq!(uvs(harness.state(), "North wall"), before);
    assert_eq!(harness.state().history_names().len(), steps, "no step");

    // A whole drag: one step, and undo takes it back.
    common::drag_line(&mut harness, from, to, 4);
    assert_ne!(uvs(harness.state(), "North wall"), before);
    let names = harness.state().history_names();
    assert_eq!(names.len(), steps + 1, "{names:?}");
    assert_eq!(names.last().map(String::as_str), Some("Move UVs"));
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    harness.run_steps(2);
    assert_eq!(uvs(harness.state(), "North wall"), before, "undone");
}
