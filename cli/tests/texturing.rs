//! Texturing by drag and drop in the whole app, as a level designer does it: the
//! four walls of a room get textures face by face, dragged from the Assets panel
//! onto the face under the pointer (picked from the GPU's ID buffer); Shift
//! reaches the whole object, Alt every face with the material the face had; a
//! material dragged from the Materials panel goes the same way. Each drop is one
//! undo step, and the map exports every face's texture, strictly valid.

use crate::common;

use egui_kittest::kittest::Queryable as _;
use pebble_core::pane::Pane;
use pebble_editor::app::PebbleApp;
use pebble_model::entity::EntityKind;
use pebble_model::glam::Vec3;
use pebble_model::{Material, MaterialId};
use pebble_viewport::navigation::OrbitCamera;

use common::room::{WALLS, room_project};
use common::{harness_on, screen};

type Harness = egui_kittest::Harness<'static, PebbleApp>;

fn wall(app: &PebbleApp, name: &str) -> pebble_model::EntityId {
    common::entity(app, name)
}

/// The texture of each face of `name`'s mesh (`None`: a plain material).
fn face_textures(app: &PebbleApp, name: &str) -> Vec<Option<String>> {
    let scene = app.scene();
    match &scene.entity(wall(app, name)).expect("the entity").kind {
        EntityKind::Mesh(m) => m
            .geometry
            .faces
            .iter()
            .map(|f| scene.material(f.material).and_then(|m| m.texture.clone()))
            .collect(),
        _ => panic!("{name} is not a mesh"),
    }
}

/// The faces of `name` whose outward normal is `normal`, by index.
fn faces_facing(app: &PebbleApp, name: &str, normal: Vec3) -> Vec<usize> {
    match &app.scene().entity(wall(app, name)).expect("entity").kind {
        EntityKind::Mesh(m) => (0..m.geometry.faces.len())
            .filter(|&i| {
                let [a, b, c] = m.geometry.triangle(&m.geometry.faces[i]);
                (b - a).cross(c - a).normalize().dot(normal) > 0.99
            })
            .collect(),
        _ => panic!("{name} is not a mesh"),
    }
}

/// Looks at `point` from inside the room along `forward`'s heading, from above.
fn look_at(harness: &mut Harness, point: Vec3, yaw: f32) {
    let view = &mut harness.state_mut().viewport.view;
    view.orbit = OrbitCamera {
        pivot: point,
        distance: 6.0,
        yaw,
        pitch: -0.8,
        ..OrbitCamera::default()
    };
    view.target = None;
    harness.run_steps(3);
}

/// Where the Assets panel lists `texture`.
fn asset_row(harness: &Harness, texture: &str) -> egui::Pos2 {
    harness.get_by_label_contains(texture).rect().center()
}

/// Drags from `from` to `to` with the left button, releasing with `modifiers`
/// held.
fn drag_and_drop(
    harness: &mut Harness,
    from: egui::Pos2,
    to: egui::Pos2,
    modifiers: egui::Modifiers,
) {
    common::press_and_move(harness, from, to, 10);
    harness.event(egui::Event::ModifiersChanged(modifiers));
    harness.run_steps(1);
    harness.event(egui::Event::PointerButton {
        pos: to,
        button: egui::PointerButton::Primary,
        pressed: false,
        modifiers,
    });
    harness.run_steps(1);
    harness.event(egui::Event::ModifiersChanged(egui::Modifiers::NONE));
    harness.run_steps(2);
}

fn yaw_into(direction: Vec3) -> f32 {
    // forward = (sin yaw, _, -cos yaw): the heading that looks along `direction`.
    direction.x.atan2(-direction.z)
}

#[test]
fn the_four_walls_are_textured_face_by_face_by_drag_and_drop_alone() {
    let Some(mut harness) = harness_on(room_project()) else {
        return;
    };
    harness.state_mut().panels.raise(Pane::Assets);
    harness.run_steps(3);
    let steps_before = harness.state().history_names().len();
    // Each wall: its inner face brick or stone, its top wood; the rest stays.
    for (k, (name, at, size, inward)) in WALLS.iter().enumerate() {
        let (at, size, inward) = (Vec3::from(*at), Vec3::from(*size), Vec3::from(*inward));
        let thickness = (size * inward).abs().max_element();
        let inner = at + Vec3::Y * (size.y * 0.5) + inward * (thickness * 0.5);
        look_at(&mut harness, inner, yaw_into(-inward));
        let inner_texture = if k % 2 == 0 { "brick" } else { "stone" };
        let from = asset_row(&harness, &format!("textures/{inner_texture}.png"));
        let to = screen(harness.state(), inner);
        drag_and_drop(&mut harness, from, to, egui::Modifiers::NONE);
        let top = at + Vec3::Y * size.y;
        let from = asset_row(&harness, "textures/wood.png");
        let to = screen(harness.state(), top);
        drag_and_drop(&mut harness, from, to, egui::Modifiers::NONE);

        let textures = face_textures(harness.state(), name);
        let inner_faces = faces_facing(harness.state(), name, inward);
        let top_faces = faces_facing(harness.state(), name, Vec3::Y);
        assert_eq!((inner_faces.len(), top_faces.len()), (2, 2));
        for (i, t) in textures.iter().enumerate() {
            let want = if inner_faces.contains(&i) {
                Some(format!("textures/{inner_texture}.png"))
            } else if top_faces.contains(&i) {
                Some("textures/wood.png".to_string())
            } else {
                None
            };
            assert_eq!(t, &want, "{name}, face {i}: {textures:?}");
        }
    }
    let steps = harness.state().history_names();
    assert_eq!(
        steps.len() - steps_before,
        8,
        "one step per drop: {steps:?}"
    );
    assert!(
        steps
            .iter()
            .any(|s| s == "Apply new material brick to North wall (2 of 12 triangles)"),
        "{steps:?}"
    );
    // Three textures, three materials made for them, reused by later drops.
    let scene = harness.state().scene();
    let textured: Vec<_> = scene
        .materials()
        .filter(|(_, m)| m.texture.is_some())
        .map(|(_, m)| m.name.clone())
        .collect();
    assert_eq!(textured.len(), 3, "{textured:?}");

    // Shift: the whole floor takes stone.
    look_at(&mut harness, Vec3::new(0.0, 0.5, 0.0), 0.0);
    let from = asset_row(&harness, "textures/stone.png");
    let to = screen(harness.state(), Vec3::new(0.0, 0.5, 1.0));
    drag_and_drop(&mut harness, from, to, egui::Modifiers::SHIFT);
    assert!(
        face_textures(harness.state(), "Floor")
            .iter()
            .all(|t| t.as_deref() == Some("textures/stone.png")),
        "Shift reaches every face of the floor"
    );
    // Alt: every stone face, of any object, turns brick.
    let from = asset_row(&harness, "textures/brick.png");
    drag_and_drop(&mut harness, from, to, egui::Modifiers::ALT);
    for name in ["Floor", "East wall", "West wall"] {
        assert!(
            !face_textures(harness.state(), name)
                .iter()
                .any(|t| t.as_deref() == Some("textures/stone.png")),
            "{name} has no stone left"
        );
    }
    let east_inner = faces_facing(harness.state(), "East wall", Vec3::NEG_X);
    assert_eq!(
        face_textures(harness.state(), "East wall")[east_inner[0]].as_deref(),
        Some("textures/brick.png")
    );
    // One undo takes the Alt drop back whole.
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    harness.run_steps(2);
    assert_eq!(
        face_textures(harness.state(), "East wall")[east_inner[0]].as_deref(),
        Some("textures/stone.png")
    );
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Y);
    harness.run_steps(2);

    // The map: every face's texture, strictly valid.
    let scene = harness.state().scene().clone();
    let folder = harness
        .state()
        .project_path()
        .parent()
        .expect("a folder")
        .to_path_buf();
    let bytes = pebble_core::services::export::to_bytes(&scene, folder, false).expect("exports");
    let (view, warnings) = pbm::MapView::parse(&bytes).expect("a valid map");
    assert!(warnings.is_empty(), "{warnings:?}");
    let issues = pbm::compliance::check(&pbm::Map::from_view(&view));
    assert!(issues.is_empty(), "{issues:?}");
    let names: Vec<String> = view
        .textures()
        .map(|t| t.name.as_str().to_string())
        .collect();
    for want in ["brick", "wood"] {
        assert!(
            names.iter().any(|n| n.contains(want)),
            "{want} is in the map: {names:?}"
        );
    }
    let textured_meshes = view.meshes().filter(|m| m.texture_id >= 0).count();
    assert!(
        textured_meshes >= 2,
        "meshes draw with their textures: {textured_meshes}"
    );
}

#[test]
fn a_material_dragged_from_the_materials_panel_reaches_the_face_under_it() {
    let Some(mut harness) = harness_on(room_project()) else {
        return;
    };
    harness.state_mut().panels.raise(Pane::Materials);
    harness.run_steps(3);
    let (name, at, size, inward) = WALLS[0];
    let (at, size, inward) = (Vec3::from(at), Vec3::from(size), Vec3::from(inward));
    let inner = at + Vec3::Y * (size.y * 0.5) + inward * 0.2;
    look_at(&mut harness, inner, yaw_into(-inward));
    // "Floor" is the floor's material: its row in the panel.
    let from = harness
        .get_by_label_contains("Floor  ·  1 object")
        .rect()
        .center();
    let to = screen(harness.state(), inner);
    drag_and_drop(&mut harness, from, to, egui::Modifiers::NONE);
    let scene = harness.state().scene();
    let floor_material = scene
        .materials()
        .find(|(_, m)| m.name == "Floor")
        .map(|(id, _)| id)
        .expect("the floor's material");
    assert_eq!(
        scene.material_use(floor_material),
        (2, 14),
        "12 floor faces and 2 of the wall's"
    );
    let wall_id = wall(harness.state(), name);
    let inner_faces = faces_facing(harness.state(), name, inward);
    let EntityKind::Mesh(m) = &scene.entity(wall_id).expect("wall").kind else {
        panic!("a mesh")
    };
    for f in inner_faces {
        assert_eq!(m.geometry.faces[f].material, floor_material);
    }
    // The panel now says the material is shared.
    harness.get_by_label_contains("Floor  ·  2 objects").click();
    harness.run_steps(3);
    assert!(
        harness
            .query_by_label_contains("a change here changes all 2")
            .is_some(),
        "the editor warns that an edit reaches both"
    );
}

fn material_named<'a>(app: &'a PebbleApp, name: &str) -> Option<(MaterialId, &'a Material)> {
    app.scene().materials().find(|(_, m)| m.name == name)
}

#[test]
fn every_button_of_the_materials_panel_does_what_it_says_and_undoes() {
    let Some(mut harness) = harness_on(room_project()) else {
        return;
    };
    harness.state_mut().panels.raise(Pane::Materials);
    harness.run_steps(3);
    let count = |h: &Harness| h.state().scene().materials().count();
    let before = count(&harness);

    // New material: added, chosen, edited below.
    harness.get_by_label("New material").click();
    harness.run_steps(3);
    let (id, _) = material_named(harness.state(), "Material").expect("a new material");
    assert_eq!(harness.state().panels.materials.selected, Some(id));
    assert!(
        harness
            .query_by_label_contains("not used by any object")
            .is_some()
    );
    // The editor below fits the panel, narrower than the inspector: its rows wrap
    // rather than run under the viewport.
    let edge = harness.get_by_label("Viewport").rect().left();
    for label in ["nearest texels", "Save as preset", "clamp V"] {
        let rect = harness.get_by_label(label).rect();
        assert!(
            rect.right() <= edge,
            "\"{label}\" ends at x = {} past the panel's edge at {edge}",
            rect.right()
        );
    }

    // Its texture from the project's list.
    choose_texture(&mut harness, "textures/wood.png");
    harness.run_steps(3);
    assert_eq!(
        material_named(harness.state(), "Material").and_then(|(_, m)| m.texture.clone()),
        Some("textures/wood.png".into())
    );

    // Duplicate: a copy, chosen.
    harness.get_by_label("Duplicate").click();
    harness.run_steps(3);
    let (copy, _) = material_named(harness.state(), "Material copy").expect("the copy");
    assert_eq!(harness.state().panels.materials.selected, Some(copy));

    // Renamed by typing in its name field.
    harness
        .get_by_role_and_label(egui::accesskit::Role::TextInput, "material")
        .click();
    harness.run_steps(1);
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    harness
        .get_by_role_and_label(egui::accesskit::Role::TextInput, "material")
        .type_text("Moss");
    harness.run_steps(1);
    harness.key_press(egui::Key::Enter);
    harness.run_steps(3);
    assert!(material_named(harness.state(), "Moss").is_some(), "renamed");

    // New from texture: a material showing that texture, named after it.
    harness.get_by_label("New from texture").click();
    harness.run_steps(2);
    harness.get_by_label("textures/brick.png").click();
    harness.run_steps(3);
    let (_, brick) = material_named(harness.state(), "brick").expect("from the texture");
    assert_eq!(brick.texture.as_deref(), Some("textures/brick.png"));
    assert_eq!(count(&harness), before + 3);

    // Delete unused: the three unused go as one step; one undo brings them back.
    harness.get_by_label("Delete unused").click();
    harness.run_steps(3);
    assert_eq!(count(&harness), before, "the room's own materials stay");
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    harness.run_steps(3);
    assert_eq!(count(&harness), before + 3);
    assert!(material_named(harness.state(), "Moss").is_some());
}

/// A picture of `scene` at `camera` in the PSP look, as the editor's preview draws
/// it (the scene model, textures from the project folder).
fn preview(
    gpu: &pebble_render::gpu::Gpu,
    scene: &pebble_model::Scene,
    folder: &std::path::Path,
    camera: &pebble_render::Camera,
    options: &pebble_render::RenderOptions,
) -> image::RgbImage {
    let loader = |path: &str| {
        image::open(folder.join(path))
            .map(|i| i.to_rgba8())
            .map_err(|e| e.to_string())
    };
    let (renderer, _) =
        pebble_render::SceneSync::renderer(gpu, scene, &loader).expect("the scene draws");
    let (img, _) = renderer.render(camera, options).expect("renders");
    image::DynamicImage::ImageRgba8(img).to_rgb8()
}

#[test]
fn a_room_textured_per_face_exports_strictly_and_draws_on_the_psp_as_in_the_editor() {
    use pebble_core::faces::{FaceSelection, UvOp};
    use pebble_model::command::{ApplyMaterial, MaterialChoice};
    let Some(gpu) = pebble_render::gpu::test_gpu("texturing") else {
        return;
    };
    let path = room_project();
    let folder = path.parent().expect("a folder").to_path_buf();
    let mut scene = pebble_model::project::load(&path).expect("loads");
    let mut history = pebble_model::History::new(50);
    let id_of = |scene: &pebble_model::Scene, name: &str| {
        scene
            .entities()
            .find(|e| e.name == name)
            .map(|e| e.id)
            .expect("the entity")
    };
    // Each wall's inner face its own texture, fitted; the floor's top tiled stone.
    for (k, (name, _, _, inward)) in WALLS.iter().enumerate() {
        let id = id_of(&scene, name);
        let EntityKind::Mesh(m) = &scene.entity(id).expect("wall").kind else {
            unreachable!()
        };
        let inner: Vec<usize> = (0..m.geometry.faces.len())
            .filter(|&f| {
                let [a, b, c] = m.geometry.triangle(&m.geometry.faces[f]);
                (b - a).cross(c - a).normalize().dot(Vec3::from(*inward)) > 0.99
            })
            .collect();
        let texture = ["brick", "wood", "brick", "stone"][k];
        let material = Material {
            name: format!("{name} {texture}"),
            texture: Some(format!("textures/{texture}.png")),
            tiling: pebble_model::glam::Vec2::new(2.0, 1.5),
            ..Material::default()
        };
        history
            .execute(
                &mut scene,
                ApplyMaterial::new(vec![(id, inner.clone())], MaterialChoice::New(material)),
            )
            .expect("applies");
        let mut faces = FaceSelection::default();
        faces.add(id, inner);
        let fit = faces.uv_step(&scene, UvOp::Fit).expect("fit");
        history.execute(&mut scene, fit).expect("fits");
    }
    pebble_model::project::save(&path, &scene).expect("saves");

    // `pebble export`, then the strict validator on what it wrote.
    let map = folder.join("room.pbm");
    let run = |args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_pebble"))
            .args(args)
            .output()
            .expect("pebble runs")
    };
    let out = run(&[
        "export",
        path.to_str().expect("utf-8"),
        "-o",
        map.to_str().expect("utf-8"),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = run(&["pbm", "validate", "--strict", map.to_str().expect("utf-8")]);
    assert!(
        out.status.success(),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let bytes = std::fs::read(&map).expect("the map");
    let (view, _) = pbm::MapView::parse(&bytes).expect("parses");
    let names: Vec<String> = view
        .textures()
        .map(|t| t.name.as_str().to_string())
        .collect();
    for want in ["brick", "wood", "stone"] {
        assert!(names.iter().any(|n| n.contains(want)), "{want}: {names:?}");
    }

    // The PSP look from inside the room: the exported map (unbaked, as the
    // editor shows it) against the editor's preview of the scene.
    let camera = pebble_render::Camera::psp(Vec3::new(0.0, 2.2, 3.5), 0.4, -0.15);
    let options = pebble_render::RenderOptions {
        width: pebble_render::camera::PSP_WIDTH,
        height: pebble_render::camera::PSP_HEIGHT,
        psp: true,
        back_faces: 0.0,
        ..Default::default()
    };
    let editor = preview(&gpu, &scene, &folder, &camera, &options);
    let unbaked =
        pebble_core::services::export::to_bytes(&scene, folder.clone(), false).expect("exports");
    let (map, _) = pbm::Map::read(&unbaked).expect("reads");
    let renderer = pebble_render::Renderer::new(&gpu, pebble_render::DrawScene::from_map(&map))
        .expect("draws");
    let (device, _) = renderer.render(&camera, &options).expect("renders");
    let device = image::DynamicImage::ImageRgba8(device).to_rgb8();
    // Kept beside the project for a look when this fails.
    editor.save(folder.join("editor.png")).expect("writes");
    device.save(folder.join("device.png")).expect("writes");
    let c = pebble_render::compare::compare(&editor, &device, &[], 24).expect("same size");
    // A picture of the walls, not of the sky: most of it is the textured room.
    let sky = editor.get_pixel(0, 0);
    let room = editor.pixels().filter(|p| *p != sky).count();
    assert!(
        room > editor.pixels().count() / 2,
        "the room fills the view ({})",
        folder.display()
    );
    eprintln!(
        "the textured room, editor preview against the exported map: SSIM {:.4}, PSNR {:.1} dB",
        c.ssim, c.psnr
    );
    assert!(c.ssim >= 0.95, "{c:?}");
}

/// A file dropped on the window from the desktop, as winit hands it to egui.
#[derive(Debug)]
struct DesktopFile(std::path::PathBuf);

impl egui::DroppedFile for DesktopFile {
    fn path(&self) -> &std::path::Path {
        &self.0
    }
    fn bytes(&self) -> Result<Vec<u8>, String> {
        std::fs::read(&self.0).map_err(|e| e.to_string())
    }
}

/// Drops `file` on the window with the pointer at `at`.
fn drop_file(harness: &mut Harness, file: &std::path::Path, at: egui::Pos2) {
    harness.hover_at(at);
    harness.run_steps(1);
    harness
        .input_mut()
        .dropped_files
        .push(std::sync::Arc::new(DesktopFile(file.to_path_buf())));
    harness.run_steps(3);
}

#[test]
fn pictures_and_models_dropped_from_the_desktop_come_in_where_they_are_dropped() {
    let Some(mut harness) = harness_on(room_project()) else {
        return;
    };
    let outside = std::env::temp_dir().join(format!("pebble-desktop-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&outside);
    std::fs::create_dir_all(&outside).expect("a folder");
    let picture = outside.join("poster.png");
    image::RgbImage::from_fn(16, 32, |_, y| {
        image::Rgb(if y < 16 { [200, 40, 40] } else { [40, 40, 200] })
    })
    .save(&picture)
    .expect("writes");
    let (name, at, size, inward) = WALLS[0];
    let (at, size, inward) = (Vec3::from(at), Vec3::from(size), Vec3::from(inward));
    let inner = at + Vec3::Y * (size.y * 0.5) + inward * (size.z * 0.5);
    look_at(&mut harness, inner, yaw_into(-inward));

    // A picture dropped on the wall's inner face: copied into the project and on
    // that face, one step.
    let steps = harness.state().history_names().len();
    let on_wall = screen(harness.state(), inner);
    drop_file(&mut harness, &picture, on_wall);
    let folder = harness
        .state()
        .project_path()
        .parent()
        .expect("folder")
        .to_path_buf();
    assert!(
        folder.join("textures/poster.png").is_file(),
        "copied into the project"
    );
    let textures = face_textures(harness.state(), name);
    let inner_faces = faces_facing(harness.state(), name, inward);
    for f in &inner_faces {
        assert_eq!(textures[*f].as_deref(), Some("textures/poster.png"));
    }
    assert_eq!(harness.state().history_names().len(), steps + 1);

    // Dropped on the sky: a new material to use, chosen in the Materials panel.
    let sky = screen(harness.state(), inner + Vec3::Y * 6.0);
    drop_file(&mut harness, &picture, sky);
    let chosen = harness
        .state()
        .panels
        .materials
        .selected
        .expect("a material chosen");
    assert_eq!(
        harness
            .state()
            .scene()
            .material(chosen)
            .and_then(|m| m.texture.clone()),
        Some("textures/poster.png".into())
    );

    // A model dropped on the floor: the import window, to stand it where it fell.
    let model = common::post_gltf(&outside);
    let floor = Vec3::new(1.0, 0.5, -2.0);
    let on_floor = screen(harness.state(), floor);
    drop_file(&mut harness, &model, on_floor);
    let window = harness
        .state()
        .windows
        .import
        .as_ref()
        .expect("the import window");
    assert_eq!(window.path, model);
    assert!(
        (window.at() - floor).length() < 0.15,
        "it stands where it was dropped: {}",
        window.at()
    );
    // Something Pebble does not read says so.
    let notes = outside.join("notes.txt");
    std::fs::write(&notes, "hello").expect("writes");
    harness.state_mut().windows.import = None;
    drop_file(&mut harness, &notes, on_floor);
    assert!(
        harness.state().status().text.contains("Pebble reads"),
        "{}",
        harness.state().status().text
    );
}

#[test]
fn a_materials_texture_comes_from_a_picture_chosen_in_the_file_dialog() {
    let Some(mut harness) = harness_on(room_project()) else {
        return;
    };
    common::wait_for(&mut harness, |_| {
        pebble_editor::app::files::system_dialog_known().is_some()
    });
    let outside = std::env::temp_dir().join(format!("pebble-pick-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&outside);
    std::fs::create_dir_all(&outside).expect("a folder");
    let picture = outside.join("moss.png");
    image::RgbaImage::from_fn(8, 8, |x, _| {
        image::Rgba([40, 140, 40, if x < 4 { 255 } else { 0 }])
    })
    .save(&picture)
    .expect("writes");
    harness.state_mut().panels.raise(Pane::Materials);
    harness.run_steps(2);
    harness.get_by_label_contains("Floor  ·  1 object").click();
    harness.run_steps(2);
    choose_texture(&mut harness, "From a file…");
    harness.run_steps(3);
    assert!(
        harness.query_by_label("Choose a texture").is_some(),
        "the dialog opened"
    );
    harness.get_by_label("File name:").focus();
    harness.run_steps(1);
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    harness
        .get_by_label("File name:")
        .type_text(&picture.display().to_string());
    harness.run_steps(1);
    harness.get_by_label("Use").click();
    harness.run_steps(3);
    let (_, floor) = material_named(harness.state(), "Floor").expect("the floor's material");
    assert_eq!(floor.texture.as_deref(), Some("textures/moss.png"));
    assert_eq!(
        floor.alpha,
        pebble_model::material::AlphaMode::Cutout,
        "a picture with holes is cut out"
    );
    let folder = harness
        .state()
        .project_path()
        .parent()
        .expect("folder")
        .to_path_buf();
    assert!(folder.join("textures/moss.png").is_file());
    // One undo gives the floor its plain look back.
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    harness.run_steps(2);
    let (_, floor) = material_named(harness.state(), "Floor").expect("the floor's material");
    assert_eq!(floor.texture, None);
}

/// The material editor's glow: a strength typed into its field is one undoable
/// edit, and the export's bake gives the floor at least that light at night.
#[test]
fn a_glow_typed_in_the_material_editor_lights_the_floor_in_the_bake() {
    use egui::accesskit::Role;
    let Some(mut harness) = harness_on(room_project()) else {
        return;
    };
    open_floor_material(&mut harness);
    harness
        .get_by_role_and_label(Role::SpinButton, "glow")
        .focus();
    harness.run_steps(2);
    harness
        .get_by_role_and_label(Role::SpinButton, "glow")
        .type_text("2");
    harness.run_steps(1);
    harness.key_press(egui::Key::Enter);
    harness.run_steps(2);
    let (_, floor) = material_named(harness.state(), "Floor").expect("the floor's material");
    assert_eq!(floor.emissive, [2.0; 3], "white, strength 2");
    let glowing = harness.state().scene().clone();
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    harness.run_steps(2);
    let (_, floor) = material_named(harness.state(), "Floor").expect("the floor's material");
    assert!(!floor.glows(), "one undo takes it back");
    // Baked at night: the glowing floor's vertices are white, the plain one's not.
    let floor_brightness = |scene: &pebble_model::Scene| {
        let mut scene = scene.clone();
        let mut settings = scene.settings().clone();
        settings.environment = pebble_model::scene::Environment::Night;
        use pebble_model::Command as _;
        pebble_model::command::SetSettings::new(settings)
            .apply(&mut scene)
            .expect("night");
        let dir = harness
            .state()
            .project_path()
            .parent()
            .expect("folder")
            .to_path_buf();
        let bytes = pebble_core::services::export::to_bytes(&scene, dir, true).expect("exports");
        let map = pbm::Map::read(&bytes).expect("reads").0;
        let colours: Vec<u32> = map
            .meshes
            .iter()
            .filter(|m| m.name.as_str().starts_with("Floor"))
            .flat_map(|m| m.vertices.iter().map(|v| v.color))
            .collect();
        colours
            .iter()
            .map(|c| (c & 0xFF) + (c >> 8 & 0xFF) + (c >> 16 & 0xFF))
            .sum::<u32>() as f32
            / (3 * colours.len().max(1)) as f32
    };
    let (lit, plain) = (
        floor_brightness(&glowing),
        floor_brightness(harness.state().scene()),
    );
    assert!(lit > 250.0 && plain < 200.0, "glowing {lit}, plain {plain}");
}

/// The Materials panel raised and the floor's material open in its editor.
fn open_floor_material(harness: &mut egui_kittest::Harness<'_, pebble_editor::app::PebbleApp>) {
    harness.state_mut().panels.raise(Pane::Materials);
    harness.run_steps(2);
    harness.get_by_label_contains("Floor  ·  1 object").click();
    harness.run_steps(2);
}

/// Opens the material editor's texture list and clicks `entry` in it.
fn choose_texture(
    harness: &mut egui_kittest::Harness<'_, pebble_editor::app::PebbleApp>,
    entry: &str,
) {
    harness
        .get_by_role_and_label(egui::accesskit::Role::ComboBox, "texture")
        .click();
    harness.run_steps(2);
    harness.get_by_label(entry).click();
}

/// The material editor's wrap and filter: each box is one undoable edit of the
/// material, and the export's map samples the texture as ticked.
#[test]
fn clamp_and_nearest_are_ticked_in_the_material_editor_undone_and_exported() {
    let Some(mut harness) = harness_on(room_project()) else {
        return;
    };
    open_floor_material(&mut harness);
    harness.get_by_label("clamp U").click();
    harness.run_steps(2);
    harness.get_by_label("nearest texels").click();
    harness.run_steps(2);
    let (_, floor) = material_named(harness.state(), "Floor").expect("the floor's material");
    assert!(floor.sampling.clamp_u && floor.sampling.nearest && !floor.sampling.clamp_v);
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    harness.run_steps(2);
    let (_, floor) = material_named(harness.state(), "Floor").expect("the floor's material");
    assert!(
        floor.sampling.clamp_u && !floor.sampling.nearest,
        "one undo, one box"
    );
    harness.get_by_label("nearest texels").click();
    harness.run_steps(2);
    // With a texture (the room's floor has none), the map samples it as ticked.
    let mut scene = harness.state().scene().clone();
    let (floor_id, floor) = material_named(harness.state(), "Floor").expect("the floor's material");
    let textured = Material {
        texture: Some("textures/stone.png".into()),
        ..floor.clone()
    };
    use pebble_model::Command as _;
    pebble_model::command::SetMaterial::new(floor_id, textured)
        .apply(&mut scene)
        .expect("textures the floor");
    let dir = harness
        .state()
        .project_path()
        .parent()
        .expect("folder")
        .to_path_buf();
    let mut options = pebble_io::export::ExportOptions::new(&dir);
    options.bake = false;
    let (bytes, _) = pebble_io::export::export(
        &scene,
        &options,
        &mut |_| {},
        &std::sync::atomic::AtomicBool::new(false),
    )
    .expect("exports");
    let (map, _) = pbm::Map::read(&bytes).expect("reads");
    let lump = map
        .metadata_by_tag(pbm::sampler::SAMPLERS_TAG)
        .expect("a samplers lump");
    let records = pbm::sampler::decode_samplers(&lump.payload);
    assert!(
        records.iter().any(|r| r.clamp_u && r.nearest),
        "{records:?}"
    );
}

/// The report: dragging a material's thumbnail (not its name) from the Materials
/// panel onto a face did nothing. The picture is a handle like the name.
#[test]
fn a_material_dragged_by_its_thumbnail_reaches_the_face_under_it() {
    let Some(mut harness) = harness_on(room_project()) else {
        return;
    };
    harness.state_mut().panels.raise(Pane::Materials);
    harness.run_steps(3);
    let (_, at, size, inward) = WALLS[0];
    let (at, size, inward) = (Vec3::from(at), Vec3::from(size), Vec3::from(inward));
    let inner = at + Vec3::Y * (size.y * 0.5) + inward * 0.2;
    look_at(&mut harness, inner, yaw_into(-inward));
    let label = harness.get_by_label_contains("Floor  ·  1 object").rect();
    // The thumbnail sits just left of the name.
    let half = pebble_panels::thumbnails::SIDE as f32 * 0.66 * 0.5;
    let from = egui::pos2(label.left() - 4.0 - half, label.center().y);
    let to = screen(harness.state(), inner);
    drag_and_drop(&mut harness, from, to, egui::Modifiers::NONE);
    let scene = harness.state().scene();
    let floor_material = scene
        .materials()
        .find(|(_, m)| m.name == "Floor")
        .map(|(id, _)| id)
        .expect("the floor's material");
    assert_eq!(
        scene.material_use(floor_material),
        (2, 14),
        "the wall's face took it"
    );
}
