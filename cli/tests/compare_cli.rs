//! `pebble compare`: a picture compared with the preview it came from is perfect;
//! a damaged one falls below the thresholds (exit 1); the report is written; a
//! missing sidecar is a clear error. Needs a GPU adapter (lavapipe in CI).

use std::path::{Path, PathBuf};
use std::process::Command;

fn pebble() -> Command {
    Command::new(env!("CARGO_BIN_EXE_pebble"))
}

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../pbm/tests/fixtures")
        .join(name)
}

fn tempdir(label: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("pebble-compare-{}-{label}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("creates a temporary folder");
    dir
}

fn gpu_available() -> bool {
    pebble_render::gpu::test_gpu("compare_cli").is_some()
}

#[test]
fn a_preview_compared_with_itself_is_perfect_and_damage_fails() {
    if !gpu_available() {
        return;
    }
    let dir = tempdir("self");
    let map = fixture("full.pbm");
    let shot = dir.join("capture_000.png");
    let status = pebble()
        .arg("render")
        .arg(&map)
        .args([
            "--cam",
            "0,1.6,4.2,0,-10",
            "--psp",
            "--size",
            "480x272",
            "--time",
            "0.6",
            "-o",
        ])
        .arg(&shot)
        .status()
        .expect("runs pebble render");
    assert!(status.success());
    std::fs::write(
        dir.join("capture_000.json"),
        format!(
            r#"{{"capture": 0, "position": [0, 1.6, 4.2], "yaw": 0, "pitch": {}, "fov": 65, "time": 0.6, "environment": "day", "display_mode": "textured"}}"#,
            (-10f32).to_radians()
        ),
    )
    .expect("writes the sidecar");
    let report = dir.join("report");
    let out = pebble()
        .arg("compare")
        .arg(&shot)
        .arg("--project")
        .arg(&map)
        .args(["--min-ssim", "0.999", "-o"])
        .arg(&report)
        .output()
        .expect("runs pebble compare");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains("PSNR inf dB, SSIM 1.0000"), "{text}");
    for f in [
        "index.html",
        "device.png",
        "editor.png",
        "difference.png",
        "heatmap.png",
        "report.json",
    ] {
        assert!(report.join(f).is_file(), "{f} missing");
    }

    // Damage a band of the picture: below the threshold, exit 1, and the masked run
    // that leaves the band out passes again.
    let mut img = image::open(&shot).expect("reads").to_rgba8();
    for y in 100..140 {
        for x in 0..480 {
            img.put_pixel(x, y, image::Rgba([255, 0, 255, 255]));
        }
    }
    img.save(&shot).expect("saves");
    let out = pebble()
        .arg("compare")
        .arg(&shot)
        .arg("--project")
        .arg(&map)
        .args(["--min-ssim", "0.95", "-o"])
        .arg(&report)
        .output()
        .expect("runs pebble compare");
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.contains("below the thresholds: SSIM"), "{text}");
    let out = pebble()
        .arg("compare")
        .arg(&shot)
        .arg("--project")
        .arg(&map)
        .args(["--min-ssim", "0.999", "--mask", "0,95,480,50", "-o"])
        .arg(&report)
        .output()
        .expect("runs pebble compare");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}

#[test]
fn a_capture_without_its_sidecar_is_a_clear_error() {
    let dir = tempdir("nosidecar");
    let shot = dir.join("capture_007.png");
    image::RgbaImage::new(8, 8).save(&shot).expect("saves");
    let out = pebble()
        .arg("compare")
        .arg(&shot)
        .arg("--project")
        .arg(fixture("full.pbm"))
        .arg("-o")
        .arg(dir.join("r"))
        .output()
        .expect("runs pebble compare");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        err.contains("capture_007.json") && err.contains("sidecar"),
        "{err}"
    );
}
