//! The real editor app driven by egui_kittest on a wgpu adapter (lavapipe in CI):
//! clicking the viewport selects what is under the cursor, the gizmo moves it by a
//! simulated drag, undo restores it, the inspector's name field edits it, and hiding
//! it in the outliner makes it unpickable. A missing adapter fails the tests
//! (`PEBBLE_SKIP_GPU_TESTS=1` skips them loudly instead).

use crate::common;

use common::{click, drag_line, entity, harness, screen, visible_checkbox, wait_for};
use eframe::egui;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use pebble_core::services::showcase::showcase_path;
use pebble_editor::app::PebbleApp;
use pebble_model::glam::Vec3;

#[test]
fn click_selects_the_gizmo_moves_undo_restores() {
    let Some(mut harness) = harness() else { return };
    let id = entity(harness.state(), "Back wall");
    // A point on the back wall's front face, away from the waterfall, the torches
    // and the edges of the lookout's trigger (markers are picked by their lines).
    let target = Vec3::new(-7.0, 3.0, -10.0);
    let at = screen(harness.state(), target);
    click(&mut harness, at);
    assert_eq!(
        harness.state().scene().selection(),
        &[id],
        "the click selected the back wall"
    );
    let before = harness
        .state()
        .scene()
        .entity(id)
        .expect("entity")
        .transform
        .translation;

    // Drag the gizmo's X handle (a little way along it from the pivot) to the right.
    let pivot = before;
    let grab = screen(harness.state(), pivot + Vec3::X * 0.6);
    drag_line(&mut harness, grab, grab + egui::vec2(90.0, 0.0), 6);
    let after = harness
        .state()
        .scene()
        .entity(id)
        .expect("entity")
        .transform
        .translation;
    assert!(
        after.x > before.x + 0.5,
        "moved along +X: {before} → {after}"
    );
    assert!(
        (after.y - before.y).abs() < 1e-4 && (after.z - before.z).abs() < 1e-4,
        "only along X: {after}"
    );

    // One undo step brings it back.
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    harness.run_steps(2);
    let undone = harness
        .state()
        .scene()
        .entity(id)
        .expect("entity")
        .transform
        .translation;
    assert!((undone - before).length() < 1e-5, "{undone} vs {before}");
}

#[test]
fn the_inspector_renames_and_hiding_makes_unpickable() {
    let Some(mut harness) = harness() else { return };
    let id = entity(harness.state(), "Right wall");
    harness.get_by_label("Right wall  (mesh)").click();
    harness.run_steps(2);
    assert_eq!(harness.state().scene().selection(), &[id]);
    // Rename through the inspector's name field.
    // The inspector's name field: the text input holding the name.
    let name_field = |h: &Harness<'_, PebbleApp>| {
        h.query_all_by_role(egui::accesskit::Role::TextInput)
            .find(|n| n.value().as_deref() == Some("Right wall"))
            .map(|n| n.rect().center())
            .expect("the name field")
    };
    let field = name_field(&harness);
    click(&mut harness, field);
    harness
        .query_all_by_role(egui::accesskit::Role::TextInput)
        .find(|n| n.value().as_deref() == Some("Right wall"))
        .expect("the name field")
        .type_text(" east");
    harness.run_steps(1);
    harness.key_press(egui::Key::Enter);
    harness.run_steps(2);
    assert_eq!(
        harness.state().scene().entity(id).expect("entity").name,
        "Right wall east"
    );

    // Hide the left wall in the outliner: a click where it stands no longer picks it.
    let left = entity(harness.state(), "Left wall");
    let at = screen(harness.state(), Vec3::new(-10.0, 2.0, 2.0));
    click(&mut harness, at);
    assert_eq!(
        harness.state().scene().selection(),
        &[left],
        "visible: picked"
    );
    let checkbox = visible_checkbox(&harness, "Left wall  (mesh)");
    click(&mut harness, checkbox);
    assert!(
        !harness
            .state()
            .scene()
            .entity(left)
            .expect("entity")
            .visible,
        "hidden"
    );
    click(&mut harness, at);
    assert!(
        !harness.state().scene().selection().contains(&left),
        "a hidden wall cannot be picked: {:?}",
        harness.state().scene().selection()
    );
}

#[test]
fn a_drag_on_empty_space_box_selects_and_escape_clears() {
    let Some(mut harness) = harness() else { return };
    let app = harness.state();
    let (left, right, floor) = (
        entity(app, "Left wall"),
        entity(app, "Right wall"),
        entity(app, "Courtyard floor"),
    );
    // From the empty sky above the courtyard's left corner to the floor by the right
    // wall: the rectangle holds both side walls and the floor.
    let (_, rect) = app.view();
    let start = egui::pos2(rect.min.x + 8.0, rect.min.y + 8.0);
    let end = screen(app, Vec3::new(9.0, 0.0, 5.0));
    drag_line(&mut harness, start, end, 5);
    let selection = harness.state().scene().selection().to_vec();
    for id in [left, right, floor] {
        assert!(selection.contains(&id), "{id} in {selection:?}");
    }
    harness.key_press(egui::Key::Escape);
    harness.run_steps(2);
    assert!(harness.state().scene().selection().is_empty());
}

/// A click on an inspector checkbox leaves its edit open until the next release;
/// Esc then is still the viewport's and clears the selection (only a panel's drag,
/// a button held, keeps Esc for the panel).
#[test]
fn escape_after_an_inspector_checkbox_still_clears_the_selection() {
    let Some(mut harness) = harness() else { return };
    let wall = entity(harness.state(), "Back wall");
    harness.get_by_label("Back wall  (mesh)").click();
    harness.run_steps(2);
    assert_eq!(harness.state().scene().selection(), &[wall]);
    let before = harness.state().history_names().len();
    let checkbox = harness
        .get_by_label_contains("collidable (exported")
        .rect()
        .center();
    click(&mut harness, checkbox);
    assert_eq!(harness.state().history_names().len(), before + 1, "a step");
    assert!(
        harness.state().doc.history().open_edit().is_some(),
        "the checkbox's edit is still open"
    );
    harness.key_press(egui::Key::Escape);
    harness.run_steps(2);
    assert!(harness.state().scene().selection().is_empty());
}

/// Clicks Export & Deploy and waits (at most 5 minutes) for the outcome in the
/// status bar.
fn deploy_and_wait(harness: &mut Harness<'_, PebbleApp>) -> String {
    harness.get_by_label("Export & Deploy").click();
    harness.run_steps(2);
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(300);
    while harness.state().jobs.deploy.busy() && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(100));
        harness.run_steps(1);
    }
    harness
        .state()
        .jobs
        .deploy
        .status
        .clone()
        .map(|s| s.text)
        .unwrap_or_default()
}

/// One click: the scene exported and deployed with the runtime to the chosen folder
/// in the background, the outcome in the status bar and the Log; an unplugged
/// target is a clear error there.
#[test]
fn export_and_deploy_in_one_click() {
    let Some(mut harness) = harness() else { return };
    let stick = std::env::temp_dir().join(format!("pebble-ui-deploy-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&stick);
    std::fs::create_dir_all(&stick).expect("a fake memory stick");
    harness.state_mut().jobs.deploy.target = stick.display().to_string();
    let status = deploy_and_wait(&mut harness);
    assert!(status.starts_with("deployed to"), "{status}");
    // The Log says so too (it said nothing when a deploy went well).
    let logged = harness.state().panels.log_buffer.snapshot();
    assert!(
        logged.iter().any(|e| e.message.starts_with("deployed to")),
        "the Log: {:?}",
        logged.iter().map(|e| &e.message).collect::<Vec<_>>()
    );
    let game = stick.join("PSP/GAME/PEBBLE");
    assert!(game.join("EBOOT.PBP").is_file() && game.join("map.pbm").is_file());
    let map = std::fs::read(game.join("map.pbm")).expect("map");
    pbm::MapView::parse(&map).expect("a valid map was deployed");

    // A target that is not there.
    harness.state_mut().jobs.deploy.target = stick.join("unplugged").display().to_string();
    let status = deploy_and_wait(&mut harness);
    assert!(
        status.contains("deploy failed") && status.contains("is the PSP connected"),
        "{status}"
    );
}

/// The Compare panel: a capture (here the preview itself, rendered by `pebble
/// render` with its sidecar) loads with perfect figures, and "Move the viewport
/// here" puts the camera, clock and PSP look where the capture was taken.
#[test]
fn the_compare_panel_loads_a_capture_and_moves_the_viewport_there() {
    let Some(mut harness) = harness() else { return };
    let dir = std::env::temp_dir().join(format!("pebble-ui-compare-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("mkdir");
    let capture = dir.join("capture_000.png");
    let status = std::process::Command::new(env!("CARGO_BIN_EXE_pebble"))
        .arg("render")
        .arg(showcase_path())
        .args([
            "--cam",
            "2,1.6,6,20,-8",
            "--psp",
            "--size",
            "480x272",
            "--time",
            "0.5",
            "-o",
        ])
        .arg(&capture)
        .stdout(std::process::Stdio::null())
        .status()
        .expect("runs pebble render");
    assert!(status.success());
    std::fs::write(
        dir.join("capture_000.json"),
        format!(
            r#"{{"position": [2, 1.6, 6], "yaw": {}, "pitch": {}, "fov": 65, "time": 0.5, "environment": "day", "lod_bias": 1}}"#,
            20f32.to_radians(),
            (-8f32).to_radians()
        ),
    )
    .expect("sidecar");
    harness.state_mut().windows.compare.open = true;
    harness.state_mut().windows.compare.capture = capture.display().to_string();
    harness.run_steps(2);
    harness.get_by_label("Load").click();
    harness.run_steps(1);
    // It loads in the background, on the editor's own device.
    wait_for(&mut harness, |a| !a.windows.compare.busy());
    harness.run_steps(1);
    let state = harness.state();
    assert_eq!(state.windows.compare.error, None);
    let f = state.windows.compare.figures().expect("figures");
    assert!(f.psnr.is_infinite() && (f.ssim - 1.0).abs() < 1e-9, "{f:?}");
    harness.get_by_label("Move the viewport here").click();
    harness.run_steps(2);
    let (camera, _) = harness.state().view();
    assert!(
        (camera.eye - Vec3::new(2.0, 1.6, 6.0)).length() < 1e-3,
        "{:?}",
        camera.eye
    );
    assert!((camera.yaw - 20f32.to_radians()).abs() < 1e-5);
    for mode in [
        "Difference",
        "Heat map",
        "Flicker",
        "Slider",
        "Side by side",
    ] {
        harness.get_by_label(mode).click();
        harness.run_steps(1);
    }
}

/// The History window lists the undo steps; clicking one jumps there (undoing or
/// redoing as needed).
#[test]
fn the_history_window_jumps_through_the_undo_list() {
    let Some(mut harness) = harness() else { return };
    let right = entity(harness.state(), "Right wall");
    let left = entity(harness.state(), "Left wall");
    // "Shown" here: not locked (the outliner's lock is an undo step; hiding is a
    // view setting outside the History).
    let visible = |h: &egui_kittest::Harness<'static, pebble_editor::app::PebbleApp>, id| {
        h.state().scene().entity(id).is_some_and(|e| !e.locked)
    };
    // Selecting is not a step: the list stays empty and nothing is unsaved.
    harness.get_by_label("Right wall  (mesh)").click();
    harness.run_steps(2);
    assert_eq!(harness.state().history_position(), 0);
    assert!(!harness.state().is_dirty());
    // Two steps: the right wall locked, then the left (the outliner's locks, in
    // row order: floor, back, left, right).
    harness
        .get_all_by_label("locked")
        .nth(3)
        .expect("an eye")
        .click();
    harness.run_steps(2);
    harness
        .get_all_by_label("locked")
        .nth(2)
        .expect("an eye")
        .click();
    harness.run_steps(2);
    assert!(!visible(&harness, right) && !visible(&harness, left));
    harness
        .state_mut()
        .panels
        .raise(pebble_core::pane::Pane::History);
    harness.run_steps(2);
    harness.get_by_label("(opened)").click();
    harness.run_steps(2);
    assert!(
        visible(&harness, right) && visible(&harness, left),
        "back to the start"
    );
    assert_eq!(
        harness.state().scene().selection(),
        &[right],
        "with the selection the first step was taken with"
    );
    // The first "Lock" entry: the right wall alone.
    harness
        .get_all_by_label("Lock")
        .next()
        .expect("an entry")
        .click();
    harness.run_steps(2);
    assert!(!visible(&harness, right) && visible(&harness, left));
    harness
        .get_all_by_label("Lock")
        .nth(1)
        .expect("a second entry")
        .click();
    harness.run_steps(2);
    assert!(!visible(&harness, right) && !visible(&harness, left));
}

/// The Assets window lists the showcase's textures with thumbnails and its meshes.
#[test]
fn the_assets_window_lists_textures_and_meshes() {
    let Some(mut harness) = harness() else { return };
    harness
        .state_mut()
        .panels
        .raise(pebble_core::pane::Pane::Assets);
    harness.run_steps(3);
    let textures = pebble_panels::assets::AssetsState::textures(
        harness.state().scene(),
        &harness.state().doc.folder(),
    );
    assert!(
        textures.iter().any(|(p, _)| p.ends_with("water.png")),
        "{textures:?}"
    );
    for (path, _) in &textures {
        assert!(
            harness.query_by_label_contains(path).is_some(),
            "{path} is listed"
        );
    }
    assert!(harness.query_by_label_contains("Back wall — ").is_some());
    assert!(
        harness.query_by_label_contains("missing").is_none(),
        "every showcase texture loads"
    );
}

/// The wheel zooms towards the surface under the cursor, eased over a few frames:
/// that point stays where it is on screen while the view closes in.
#[test]
fn the_wheel_zooms_towards_the_point_under_the_cursor() {
    let Some(mut harness) = harness() else { return };
    // A point on the back wall, away from the centre of the view.
    let target = Vec3::new(-7.0, 3.0, -10.0);
    let at = screen(harness.state(), target);
    harness.hover_at(at);
    // The point under the cursor comes from the ID buffer's read-back: waited for.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while harness.state().hover_point().is_none() {
        assert!(
            std::time::Instant::now() < deadline,
            "no point under the cursor"
        );
        std::thread::sleep(std::time::Duration::from_millis(10));
        harness.run_steps(1);
    }
    let (before, _) = harness.state().view();
    harness.event(egui::Event::MouseWheel {
        unit: egui::MouseWheelUnit::Point,
        delta: egui::vec2(0.0, 150.0),
        phase: egui::TouchPhase::Move,
        source: egui::MouseWheelSource::Unknown,
        modifiers: egui::Modifiers::NONE,
    });
    harness.run_steps(30);
    let (after, _) = harness.state().view();
    let d = |c: &pebble_render::Camera| (c.eye - target).length();
    assert!(
        d(&after) < d(&before) * 0.85,
        "closer: {} → {}",
        d(&before),
        d(&after)
    );
    let moved = screen(harness.state(), target) - at;
    assert!(
        moved.length() < 3.0,
        "the point under the cursor moved {moved:?} points"
    );
}

/// The view cube: clicking a face, then a corner, turns the view to look from
/// there (eased), a drag on it orbits, Home gives the iso view of everything;
/// 7 gives an orthographic top view and orbiting returns to perspective.
#[test]
fn the_view_cube_turns_the_view() {
    use pebble_model::glam::IVec3;
    let Some(mut harness) = harness() else { return };
    let top = harness.state().view_cube_point(IVec3::Y);
    click(&mut harness, top);
    harness.run_steps(60);
    let (camera, _) = harness.state().view();
    assert!(
        camera.forward().y < -0.99,
        "looking down: {}",
        camera.forward()
    );
    // From the top the front-right-top corner is at the bottom right of the cube.
    let corner = harness.state().view_cube_point(IVec3::new(1, 1, 1));
    click(&mut harness, corner);
    harness.run_steps(60);
    let (camera, _) = harness.state().view();
    let from = -camera.forward();
    assert!(
        from.dot(Vec3::ONE.normalize()) > 0.999,
        "looking from front-right-top: {from}"
    );
    // A drag across the cube orbits (yaw changes).
    let centre = harness.state().view_cube_rect().center();
    drag_line(&mut harness, centre, centre + egui::vec2(32.0, 0.0), 4);
    let (turned, _) = harness.state().view();
    assert!(
        (turned.yaw - camera.yaw).abs() > 0.1,
        "the drag orbited: {} → {}",
        camera.yaw,
        turned.yaw
    );
    harness.get_by_label("Home").click();
    harness.run_steps(60);
    let (camera, _) = harness.state().view();
    assert!((-camera.forward()).dot(Vec3::ONE.normalize()) > 0.999);
    assert_eq!(camera.ortho_height, 0.0);
    // 7: orthographic from the top; an Alt + left drag orbits back to perspective.
    harness.key_press(egui::Key::Num7);
    harness.run_steps(60);
    let (camera, rect) = harness.state().view();
    assert!(camera.ortho_height > 0.0 && camera.forward().y < -0.99);
    let mid = rect.center();
    harness.hover_at(mid);
    harness.run_steps(1);
    harness.event(egui::Event::ModifiersChanged(egui::Modifiers::ALT));
    harness.event(egui::Event::PointerButton {
        pos: mid,
        button: egui::PointerButton::Primary,
        pressed: true,
        modifiers: egui::Modifiers::ALT,
    });
    harness.run_steps(1);
    for k in 1..=4 {
        harness.event(egui::Event::PointerMoved(
            mid + egui::vec2(10.0 * k as f32, 10.0 * k as f32),
        ));
        harness.run_steps(1);
    }
    harness.event(egui::Event::PointerButton {
        pos: mid + egui::vec2(40.0, 40.0),
        button: egui::PointerButton::Primary,
        pressed: false,
        modifiers: egui::Modifiers::ALT,
    });
    harness.event(egui::Event::ModifiersChanged(egui::Modifiers::NONE));
    harness.run_steps(2);
    let (camera, _) = harness.state().view();
    assert_eq!(camera.ortho_height, 0.0, "orbiting returns to perspective");
}

/// E gives the rotate gizmo: a drag along the Y ring turns the selected wall
/// about Y by the angle swept; R gives the scale gizmo: a drag to the right on its
/// centre grows it uniformly; each drag is one undo entry.
#[test]
fn the_rotate_and_scale_gizmos_turn_and_grow_the_selection() {
    use pebble_viewport::gizmo;
    let Some(mut harness) = harness() else { return };
    let id = entity(harness.state(), "Back wall");
    let at = screen(harness.state(), Vec3::new(-7.0, 3.0, -10.0));
    click(&mut harness, at);
    assert_eq!(harness.state().scene().selection(), &[id]);
    let start = harness
        .state()
        .scene()
        .entity(id)
        .expect("entity")
        .transform;
    let pivot = harness
        .state()
        .scene()
        .world_transform(id)
        .translation
        .into();
    harness.key_press(egui::Key::E);
    harness.run_steps(2);
    let (camera, rect) = harness.state().view();
    let view = gizmo::View {
        camera,
        size: pebble_model::glam::Vec2::new(rect.width(), rect.height()),
    };
    let len = view.handle_length(pivot);
    // The Y ring's front half: 0.6 rad round from the direction of the viewer.
    let toward = (camera.eye - pivot).with_y(0.0).normalize();
    let ring = |a: f32| pivot + pebble_model::glam::Quat::from_rotation_y(a) * toward * len;
    let grab = screen(harness.state(), ring(0.6));
    harness.hover_at(grab);
    harness.run_steps(1);
    harness.drag_at(grab);
    harness.run_steps(1);
    for k in 1..=5 {
        harness.hover_at(screen(harness.state(), ring(0.6 + 0.1 * k as f32)));
        harness.run_steps(1);
    }
    harness.drop_at(screen(harness.state(), ring(1.1)));
    harness.run_steps(2);
    let turned = harness
        .state()
        .scene()
        .entity(id)
        .expect("entity")
        .transform;
    let (axis, angle) = (turned.rotation * start.rotation.inverse()).to_axis_angle();
    assert!(
        (angle - 0.5).abs() < 0.03 && axis.y.abs() > 0.99,
        "turned {angle} rad about {axis}"
    );
    assert!(
        (turned.translation - start.translation).length() < 1e-3,
        "about its own pivot"
    );
    assert!((turned.scale - start.scale).length() < 1e-6);
    assert_eq!(
        harness.state().history_undo_name().as_deref(),
        Some("Rotate")
    );
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    harness.run_steps(2);
    let undone = harness
        .state()
        .scene()
        .entity(id)
        .expect("entity")
        .transform;
    assert!(undone.rotation.angle_between(start.rotation) < 1e-5);

    harness.key_press(egui::Key::R);
    harness.run_steps(2);
    let centre = screen(harness.state(), pivot);
    drag_line(&mut harness, centre, centre + egui::vec2(150.0, 0.0), 5);
    let grown = harness
        .state()
        .scene()
        .entity(id)
        .expect("entity")
        .transform;
    let ratio = grown.scale / start.scale;
    assert!(
        (ratio - Vec3::splat(2.0)).abs().max_element() < 0.05,
        "doubled: {ratio}"
    );
}

/// The inspector shows every field of an emitter with its unit, and an edit there
/// is one undoable step; the environment selector switches the preset (undoable).
#[test]
fn the_inspector_edits_every_emitter_field_and_the_environment_switches() {
    let Some(mut harness) = harness() else { return };
    let id = entity(harness.state(), "Campfire sparks");
    harness.get_by_label_contains("Campfire sparks").click();
    harness.run_steps(2);
    assert_eq!(harness.state().scene().selection(), &[id]);
    for field in [
        "particles",
        "spread",
        "speed",
        "life",
        "gravity",
        "damping",
        "spawn radius",
        "size",
        "knee",
        "aspect",
        "angle",
        "spin",
        "wobble",
        "colour at birth",
        "at death",
        "flipbook",
        "additive blending",
        "upright",
        "velocity",
        "phase-aligned",
        "seed",
    ] {
        assert!(
            harness.query_all_by_label_contains(field).count() > 0,
            "the inspector shows {field}"
        );
    }
    let before = harness.state().scene().entity(id).cloned().expect("entity");
    // The inspector scrolls to the checkbox first (it is low on a long panel).
    harness
        .get_by_label("aligned with the velocity")
        .scroll_to_me();
    harness.run_steps(2);
    harness
        .get_by_label("aligned with the velocity")
        .click_accesskit();
    harness.run_steps(2);
    let after = harness.state().scene().entity(id).cloned().expect("entity");
    let flag = |e: &pebble_model::Entity| match &e.kind {
        pebble_model::EntityKind::Emitter(em) => em.velocity_aligned,
        _ => panic!("an emitter"),
    };
    assert_ne!(flag(&before), flag(&after), "toggled");
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    harness.run_steps(2);
    assert_eq!(
        harness.state().scene().entity(id).cloned().expect("entity"),
        before
    );

    use pebble_model::scene::Environment;
    let env = |h: &Harness<'_, PebbleApp>| h.state().scene().settings().environment;
    assert_eq!(env(&harness), Environment::Day);
    let combo = harness
        .query_all_by_role(egui::accesskit::Role::ComboBox)
        .find(|n| format!("{n:?}").contains("day"))
        .map(|n| n.rect().center())
        .expect("the environment selector");
    click(&mut harness, combo);
    harness.get_by_label("night").click();
    harness.run_steps(2);
    assert_eq!(env(&harness), Environment::Night);
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    harness.run_steps(2);
    assert_eq!(env(&harness), Environment::Day);
}

/// Snapshots of the main window (egui_kittest, compared pixel by pixel with
/// `tests/snapshots/*.png`; `UPDATE_SNAPSHOTS=1` rewrites them after a deliberate
/// change): as it opens on the showcase, and with the campfire's sparks selected
/// (inspector, rotate gizmo) in the orthographic top view.
#[test]
fn the_main_window_matches_its_snapshots() {
    let Some(mut harness) = harness() else { return };
    harness.run_steps(4);
    // The status bar's frame rate and the project's path differ from machine to
    // machine.
    let status = egui::Rect::from_min_max(egui::pos2(0.0, 776.0), egui::pos2(1280.0, 800.0));
    harness.mask(status);
    harness.snapshot("main_window");
    harness.get_by_label_contains("Campfire sparks").click();
    harness.run_steps(2);
    harness.key_press(egui::Key::E);
    harness.key_press(egui::Key::Num7);
    harness.run_steps(60);
    harness.mask(status);
    harness.snapshot("main_window_top_rotate");
}

/// A parametric mesh's parameters are edited in the inspector: more steps make
/// more triangles, and undo brings the stairs back.
#[test]
fn the_inspector_rebuilds_a_parametric_mesh() {
    let Some(mut harness) = harness() else { return };
    let id = entity(harness.state(), "Stairs");
    harness.get_by_label("Stairs  (mesh)").click();
    harness.run_steps(2);
    assert_eq!(harness.state().scene().selection(), &[id]);
    let faces =
        |h: &Harness<'_, PebbleApp>| match &h.state().scene().entity(id).expect("entity").kind {
            pebble_model::EntityKind::Mesh(m) => m.geometry.faces.len(),
            _ => panic!("a mesh"),
        };
    let before = faces(&harness);
    harness
        .query_all_by_role(egui::accesskit::Role::SpinButton)
        .find(|n| format!("{n:?}").contains("steps"))
        .expect("the steps field")
        .set_value_accesskit(12.0);
    harness.run_steps(3);
    let after = faces(&harness);
    assert!(after > before, "{before} → {after} triangles");
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    harness.run_steps(2);
    assert_eq!(faces(&harness), before);
}

/// Help › Keyboard and mouse fits the window (laid out whole it is 1 585 points
/// tall and ran past an 800-point window): it scrolls instead.
#[test]
fn the_keyboard_help_fits_the_window_and_scrolls() {
    let Some(mut harness) = harness() else {
        return;
    };
    harness.state_mut().windows.help = true;
    harness.run_steps(4);
    let screen = harness.ctx.content_rect();
    let window = harness
        .get_by_role_and_label(egui::accesskit::Role::Window, "Keyboard and mouse")
        .rect();
    assert!(
        window.bottom() <= screen.bottom() && window.top() >= screen.top(),
        "the help window spans {window:?} in a screen of {screen:?}"
    );
}
