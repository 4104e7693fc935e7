//! The pictures show each face from the side geometry says: a map whose every face
//! has its own colour (common/orientation.rs), drawn by the normal renderer and the
//! PSP look (`pebble render`), judged pixel by pixel against rays cast on the CPU.
//! The runtime in the emulator is judged the same way in psp_runtime.rs.

use crate::common::orientation;

use std::path::{Path, PathBuf};
use std::process::Command;

use orientation::{HEIGHT, PSP_ASPECT, Scene, VIEWS, WIDTH};

pub(crate) fn tempdir(label: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("pebble-orientation-{label}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("makes a scratch folder");
    dir
}

fn render(map: &Path, cam: &str, psp: bool, out: &Path) -> Vec<[u8; 3]> {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_pebble"));
    cmd.arg("render")
        .arg(map)
        .args(["--cam", cam, "--size", &format!("{WIDTH}x{HEIGHT}")]);
    if psp {
        cmd.args(["--psp", "--lod-bias", "0"]);
    } else {
        cmd.arg("--no-fog");
    }
    let output = cmd.arg("-o").arg(out).output().expect("runs pebble render");
    assert!(
        output.status.success(),
        "pebble render failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let img = image::open(out).expect("reads the picture").to_rgb8();
    assert_eq!(img.dimensions(), (WIDTH, HEIGHT));
    img.pixels().map(|p| p.0).collect()
}

#[test]
fn the_renderer_and_the_psp_look_show_the_faces_geometry_predicts() {
    let scene = Scene::new();
    let dir = tempdir("render");
    let map = dir.join("orientation.pbm");
    std::fs::write(&map, scene.map().to_bytes().expect("encodes the map")).expect("writes the map");
    let mut failures = Vec::new();
    for (i, view) in VIEWS.iter().enumerate() {
        for psp in [false, true] {
            let aspect = if psp {
                PSP_ASPECT
            } else {
                WIDTH as f32 / HEIGHT as f32
            };
            let predicted = scene.predict(view, WIDTH, HEIGHT, aspect);
            let look = if psp { "PSP look" } else { "normal" };
            let out = dir.join(format!(
                "view{i}_{}.png",
                if psp { "psp" } else { "normal" }
            ));
            let drawn = render(&map, &view.cam_arg(), psp, &out);
            let judged = orientation::judge(&scene, &drawn, &predicted, WIDTH as usize, 40);
            println!(
                "{:<36} {look:<9} agreement {:.4}, {} faces in view, missing {:?}, unexpected {:?}",
                view.name, judged.agreement, judged.visible, judged.missing, judged.unexpected
            );
            assert!(
                judged.visible >= 4,
                "{}: the view shows too little to judge",
                view.name
            );
            if !judged.ok() {
                failures.push(format!(
                    "{} ({look}, {}): {judged:?}",
                    view.name,
                    out.display()
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "faces drawn against geometry:\n{}",
        failures.join("\n")
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The orientation map as a project the editor opens: the `.pbm` imported as a
/// designer would (File › Import), saved beside it.
pub(crate) fn orientation_project(scene: &Scene, dir: &Path) -> PathBuf {
    let map = dir.join("orientation.pbm");
    std::fs::write(&map, scene.map().to_bytes().expect("encodes the map")).expect("writes the map");
    let options = pebble_io::import::ImportOptions::new(dir.to_path_buf());
    let imported =
        pebble_io::import::import_file(&map, &options, &mut |_| {}).expect("imports the map");
    let mut project = pebble_model::Scene::new();
    let mut history = pebble_model::History::default();
    history
        .execute(&mut project, imported.command)
        .expect("applies the import");
    // The map's colours are final (the faces' own): its export bakes no light, so
    // the PSP preview shows them as the runtime does from the `.pbm`.
    let mut settings = project.settings().clone();
    settings.export.bake_lighting = false;
    history
        .execute(
            &mut project,
            pebble_model::command::SetSettings::new(settings),
        )
        .expect("settings");
    let path = dir.join("orientation.pebble.ron");
    pebble_model::project::save(&path, &project).expect("saves the project");
    path
}

/// The viewport's picture sampled on a `WIDTH`×`HEIGHT` grid (pixel centres of
/// its rectangle in the window's rendering), as RGB.
pub(crate) fn viewport_picture(
    image: &image::RgbaImage,
    rect: eframe::egui::Rect,
    ppp: f32,
) -> Vec<[u8; 3]> {
    let mut out = Vec::with_capacity((WIDTH * HEIGHT) as usize);
    for y in 0..HEIGHT {
        for x in 0..WIDTH {
            let px = (rect.min.x + (x as f32 + 0.5) / WIDTH as f32 * rect.width()) * ppp;
            let py = (rect.min.y + (y as f32 + 0.5) / HEIGHT as f32 * rect.height()) * ppp;
            let p = image.get_pixel(
                (px as u32).min(image.width() - 1),
                (py as u32).min(image.height() - 1),
            );
            out.push([p[0], p[1], p[2]]);
        }
    }
    out
}

/// The view cube and its buttons are egui's, drawn over the picture: the
/// pixels of `picture` (sampled as [`viewport_picture`] does) under `cube` are
/// set to `fill`'s.
pub(crate) fn mask_view_cube(
    picture: &mut [[u8; 3]],
    rect: eframe::egui::Rect,
    cube: eframe::egui::Rect,
    fill: impl Fn(usize) -> [u8; 3],
) {
    for y in 0..HEIGHT as usize {
        for x in 0..WIDTH as usize {
            let at = rect.min
                + eframe::egui::vec2(
                    (x as f32 + 0.5) / WIDTH as f32 * rect.width(),
                    (y as f32 + 0.5) / HEIGHT as f32 * rect.height(),
                );
            if cube.contains(at) {
                let i = y * WIDTH as usize + x;
                picture[i] = fill(i);
            }
        }
    }
}

/// The report: the viewport's own PSP preview drew the stairs as their underside
/// and the ramp without its side, while `pebble render --psp` was right. The
/// editor's viewport (kittest, the real app and its GPU path) is judged against
/// geometry from every view, in its working look and its PSP preview.
#[test]
fn the_viewport_and_its_psp_preview_show_the_faces_geometry_predicts() {
    use pebble_viewport::navigation::OrbitCamera;
    let scene = Scene::new();
    let dir = tempdir("viewport");
    let path = orientation_project(&scene, &dir);
    let Some(mut harness) = crate::common::harness_on(path) else {
        return;
    };
    {
        let app = harness.state_mut();
        // The picture alone: no grid, no markers, no faint back faces.
        app.viewport.looks.overlays = false;
        app.viewport.looks.back_faces = false;
        app.viewport.looks.fog = false;
    }
    let mut failures = Vec::new();
    for (i, view) in VIEWS.iter().enumerate() {
        for psp in [false, true] {
            {
                let app = harness.state_mut();
                app.viewport.looks.psp = psp;
                let mut orbit = OrbitCamera {
                    yaw: view.yaw_deg.to_radians(),
                    pitch: view.pitch_deg.to_radians(),
                    distance: 2.0,
                    fov_y_deg: orientation::FOV_Y_DEG,
                    ortho: false,
                    ..OrbitCamera::default()
                };
                orbit.pivot = pebble_model::glam::Vec3::from(view.eye) + orbit.forward() * 2.0;
                app.viewport.view.orbit = orbit;
                app.viewport.view.target = None;
            }
            harness.run_steps(3);
            if psp {
                crate::common::wait_for(&mut harness, |app| {
                    app.viewport.psp_preview_baked(app.scene())
                });
                harness.run_steps(2);
            }
            let rect = harness.state().viewport.rect;
            let aspect = if psp {
                PSP_ASPECT
            } else {
                rect.width() / rect.height()
            };
            let image = harness.render().expect("renders the window");
            let ppp = image.width() as f32 / 1280.0;
            let mut drawn = viewport_picture(&image, rect, ppp);
            let predicted = scene.predict(view, WIDTH, HEIGHT, aspect);
            // The view cube and its buttons are egui's, over the picture.
            let cube = harness
                .state()
                .viewport
                .view_cube_rect()
                .expand2(eframe::egui::vec2(30.0, 40.0));
            mask_view_cube(&mut drawn, rect, cube, |i| {
                predicted[i].unwrap_or(orientation::SKY)
            });
            let judged = orientation::judge(&scene, &drawn, &predicted, WIDTH as usize, 40);
            let look = if psp { "PSP preview" } else { "working view" };
            println!(
                "viewport {:<36} {look:<12} agreement {:.4}, {} faces in view, missing {:?}, unexpected {:?}",
                view.name, judged.agreement, judged.visible, judged.missing, judged.unexpected
            );
            let out = dir.join(format!(
                "viewport{i}_{}.png",
                if psp { "psp" } else { "normal" }
            ));
            image.save(&out).expect("writes the picture");
            assert!(
                judged.visible >= 4,
                "{}: the view shows too little to judge",
                view.name
            );
            if !judged.ok() {
                failures.push(format!(
                    "{} ({look}, {}): {judged:?}",
                    view.name,
                    out.display()
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "the viewport drew faces against geometry:\n{}",
        failures.join("\n")
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Peak signal-to-noise ratio of two RGB pictures of the same size, dB.
fn psnr(a: &[[u8; 3]], b: &[[u8; 3]]) -> f64 {
    let sum: f64 = a
        .iter()
        .zip(b)
        .flat_map(|(p, q)| (0..3).map(move |c| (f64::from(p[c]) - f64::from(q[c])).powi(2)))
        .sum();
    let mse = sum / (a.len() * 3) as f64;
    if mse == 0.0 {
        return f64::INFINITY;
    }
    10.0 * (255.0f64 * 255.0 / mse).log10()
}

/// The report's camera (front view, back to perspective, seven wheel notches over
/// the stairs): the viewport's PSP preview showed the stairs as one flat slab and
/// the ramp without its side, where `pebble render --psp` showed them lit. The
/// preview now draws the map as exported and baked, so at the same camera and
/// time it is the command line's picture.
#[test]
fn the_viewport_s_psp_preview_is_what_pebble_render_psp_draws() {
    use eframe::egui;
    let Some(mut harness) = crate::common::harness() else {
        return;
    };
    harness.state_mut().viewport.looks.overlays = false;
    harness.key_press(egui::Key::Num1);
    harness.run_steps(60);
    harness.key_press(egui::Key::Num5);
    harness.run_steps(60);
    let stairs = crate::common::entity(harness.state(), "Stairs");
    let at = harness
        .state()
        .scene()
        .entity(stairs)
        .expect("the stairs")
        .transform
        .translation;
    let pos = crate::common::screen(harness.state(), at + pebble_model::glam::Vec3::Y * 0.5);
    harness.hover_at(pos);
    harness.run_steps(30);
    for _ in 0..7 {
        harness.event(egui::Event::MouseWheel {
            unit: egui::MouseWheelUnit::Line,
            delta: egui::vec2(0.0, 1.0),
            phase: egui::TouchPhase::Move,
            source: egui::MouseWheelSource::Wheel,
            modifiers: egui::Modifiers::NONE,
        });
        harness.run_steps(4);
    }
    harness.run_steps(60);
    // Away from the picture, so that nothing is hovered.
    harness.hover_at(egui::pos2(1270.0, 790.0));
    harness.state_mut().viewport.looks.psp = true;
    harness.run_steps(3);
    crate::common::wait_for(&mut harness, |app| {
        app.viewport.psp_preview_baked(app.scene())
    });
    harness.run_steps(3);
    let (camera, rect) = harness.state().view();
    let image = harness.render().expect("renders the window");
    let ppp = image.width() as f32 / 1280.0;
    let mut preview = viewport_picture(&image, rect, ppp);
    let dir = tempdir("showcase");
    image.save(dir.join("window.png")).expect("writes");
    let cube = harness
        .state()
        .viewport
        .view_cube_rect()
        .expand2(egui::vec2(30.0, 40.0));

    let out = dir.join("cli.png");
    let cam = format!(
        "{},{},{},{},{}",
        camera.eye.x,
        camera.eye.y,
        camera.eye.z,
        camera.yaw.to_degrees(),
        camera.pitch.to_degrees()
    );
    let output = Command::new(env!("CARGO_BIN_EXE_pebble"))
        .arg("render")
        .arg(harness.state().project_path())
        .args([
            "--psp",
            "--cam",
            &cam,
            "--size",
            &format!("{WIDTH}x{HEIGHT}"),
        ])
        .args(["--fov", &camera.fov_y_deg.to_string()])
        .args(["--time", &harness.state().clock.time.to_string()])
        .arg("-o")
        .arg(&out)
        .output()
        .expect("runs pebble render");
    assert!(
        output.status.success(),
        "pebble render failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let cli = image::open(&out).expect("reads the picture").to_rgb8();
    let mut cli: Vec<[u8; 3]> = cli.pixels().map(|p| p.0).collect();
    // The view cube is egui's, over the picture: the same pixels in both.
    mask_view_cube(&mut preview, rect, cube, |_| [0; 3]);
    mask_view_cube(&mut cli, rect, cube, |_| [0; 3]);
    let db = psnr(&preview, &cli);
    println!("viewport PSP preview against pebble render --psp: PSNR {db:.1} dB");
    assert!(
        db >= 30.0,
        "the PSP preview differs from pebble render --psp (PSNR {db:.1} dB; pictures in {})",
        dir.display()
    );
    let _ = std::fs::remove_dir_all(&dir);
}
