//! The pictures show each face from the side geometry says: a map whose every face
//! has its own colour (common/orientation.rs), drawn by the normal renderer and the
//! PSP look (`pebble render`), judged pixel by pixel against rays cast on the CPU.
//! The runtime in the emulator is judged the same way in psp_runtime.rs.

use crate::common::orientation;

use std::path::{Path, PathBuf};
use std::process::Command;

use orientation::{HEIGHT, PSP_ASPECT, Scene, VIEWS, WIDTH};

fn tempdir(label: &str) -> PathBuf {
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
