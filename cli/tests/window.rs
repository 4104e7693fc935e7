//! The real editor window under Xvfb: `pebble bench-editor` opens the showcase in
//! a winit window on the software GPU, repaints it, saves a screenshot (how the
//! README's picture is made) and reports frame times against the bare renderer
//! and its resident memory. Fails without `xvfb-run` or a GPU adapter (the
//! README's packages give both), unless `PEBBLE_SKIP_GPU_TESTS=1` opts out.

use std::process::Command;

/// A fresh folder for a window test named `name`, or `None` (a loud skip) when the
/// user opted out of GPU tests and this machine cannot run one. Without the opt-out
/// a missing `xvfb-run` or adapter fails the test.
fn window_test_dir(name: &str) -> Option<std::path::PathBuf> {
    if Command::new("xvfb-run").arg("--help").output().is_err() {
        if pebble_render::gpu::gpu_tests_skipped() {
            eprintln!("*** {name} not run: no xvfb-run and PEBBLE_SKIP_GPU_TESTS=1 ***");
            return None;
        }
        panic!(
            "{name}: xvfb-run is missing (apt-get install xvfb xauth), or set PEBBLE_SKIP_GPU_TESTS=1"
        );
    }
    pebble_render::gpu::test_gpu(name)?;
    let dir = std::env::temp_dir().join(format!("pebble-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    Some(dir)
}

#[test]
fn the_editor_window_runs_under_xvfb_and_reports_its_frames() {
    let Some(dir) = window_test_dir("window") else {
        return;
    };
    let (stdout, img, report) = bench_window(&dir, "editor", &["--frames", "20", "--warmup", "10"]);
    assert!(stdout.contains("whole editor (UI + viewport)"), "{stdout}");

    assert_eq!(report["frames"], 20);
    for key in ["editor_median_ms", "renderer_median_ms", "ratio"] {
        let v = report[key].as_f64().unwrap_or(-1.0);
        assert!(v > 0.0 && v.is_finite(), "{key} = {v}");
    }
    assert!(report["resident_mb"].as_f64().unwrap_or(0.0) > 10.0);
    assert!(
        report["triangles"].as_u64().unwrap_or(0) > 0,
        "the bare renderer drew the scene"
    );

    // The screenshot is the whole window, and its viewport shows the scene: many
    // colours, not one flat clear colour.
    assert_eq!((img.width(), img.height()), (1280, 800));
    let mut colours = std::collections::HashSet::new();
    for y in (200..600).step_by(4) {
        for x in (400..900).step_by(4) {
            let p = img.get_pixel(x, y).0;
            colours.insert([p[0] / 16, p[1] / 16, p[2] / 16]);
        }
    }
    assert!(
        colours.len() > 40,
        "{} colours in the viewport",
        colours.len()
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Runs `pebble bench-editor` under Xvfb with `args`, its screenshot and report
/// in `dir`; returns stdout, the screenshot and the report.
fn bench_window(
    dir: &std::path::Path,
    name: &str,
    args: &[&str],
) -> (String, image::RgbaImage, serde_json::Value) {
    let (shot, json) = (
        dir.join(format!("{name}.png")),
        dir.join(format!("{name}.json")),
    );
    let out = Command::new("xvfb-run")
        .args(["-a", "-s", "-screen 0 1280x800x24"])
        .arg(env!("CARGO_BIN_EXE_pebble"))
        .arg("bench-editor")
        .args(args)
        .arg("--screenshot")
        .arg(&shot)
        .arg("--json")
        .arg(&json)
        // Keep the user's saved layout and preferences out of it.
        .env("XDG_DATA_HOME", dir.join("data"))
        .env("HOME", dir)
        .output()
        .expect("runs xvfb-run");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "stdout:\n{stdout}\nstderr:\n{stderr}");
    let report: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&json).expect("the JSON report")).expect("JSON");
    let img = image::open(&shot).expect("the screenshot").to_rgba8();
    (stdout, img, report)
}

/// In the real window the UI cache is copied to the frame after egui's pass, as
/// transfers (the kittest harness, which cannot, draws the copy in the pass: see
/// `tests/ui_cache.rs`). The window must look exactly as when every frame is
/// painted afresh, the viewport's edges included.
#[test]
fn the_window_through_the_ui_cache_matches_the_window_painted_afresh() {
    let Some(dir) = window_test_dir("window-cache") else {
        return;
    };
    // The clock stopped, so that both viewports show the same instant; an
    // entity selected, so that the gizmo and the inspector are in the picture.
    let common = [
        "--frames",
        "5",
        "--warmup",
        "30",
        "--paused",
        "--select",
        "Campfire sparks",
    ];
    let (cached_out, cached, report) = bench_window(&dir, "cached", &common);
    let mut afresh_args = common.to_vec();
    afresh_args.push("--no-ui-cache");
    let (_, afresh, _) = bench_window(&dir, "afresh", &afresh_args);

    let transfers: u64 = cached_out
        .split_once(" copied to the window as transfers")
        .and_then(|(before, _)| before.rsplit(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no transfer count in:\n{cached_out}"));
    let adapter = report["adapter"]
        .as_str()
        .unwrap_or_default()
        .to_lowercase();
    if adapter.contains("llvmpipe") || adapter.contains("lavapipe") {
        // Mesa's software swapchain takes copies: the path under test was used.
        assert!(transfers > 0, "{cached_out}");
    }

    assert_eq!(cached.dimensions(), afresh.dimensions());
    let (w, h) = cached.dimensions();
    // The status bar's frame rate is the wall clock's: left out.
    let status_bar_top = h - 24;
    let mut differing = Vec::new();
    for y in 0..status_bar_top {
        for x in 0..w {
            if cached.get_pixel(x, y) != afresh.get_pixel(x, y) {
                differing.push((x, y));
            }
        }
    }
    assert!(
        differing.is_empty(),
        "{} pixels differ, first {:?} ({transfers} frames copied as transfers)",
        differing.len(),
        &differing[..differing.len().min(10)]
    );
    let _ = std::fs::remove_dir_all(&dir);
}
