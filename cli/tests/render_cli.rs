//! `pebble render` on the reference fixtures: a PNG of the asked size that is not
//! just the clear colour, the PSP look, the benchmark's report, and clear errors.
//! Fails without a GPU adapter (lavapipe will do) unless `PEBBLE_SKIP_GPU_TESTS=1`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../pbm/tests/fixtures")
        .join(name)
}

fn pebble(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_pebble"))
        .args(args)
        .env_remove("PEBBLE_BACKTRACE")
        .output()
        .expect("pebble runs")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn out_dir(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("pebble-render-cli-{test}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

#[test]
fn every_fixture_renders_to_a_picture_of_the_asked_size() {
    if pebble_render::gpu::test_gpu("every_fixture_renders_to_a_picture_of_the_asked_size")
        .is_none()
    {
        return;
    }
    let dir = out_dir("fixtures");
    for name in ["basic", "full", "full_emitters", "full_v2", "full_v1"] {
        let shot = dir.join(format!("{name}.png"));
        let input = fixture(&format!("{name}.pbm"));
        let out = pebble(&[
            "render",
            input.to_str().expect("utf-8"),
            "--size",
            "320x180",
            "-o",
            shot.to_str().expect("utf-8"),
        ]);
        assert!(out.status.success(), "{name}: {}", text(&out.stderr));
        assert!(
            text(&out.stdout).contains("chunks"),
            "{}",
            text(&out.stdout)
        );
        let img = image::open(&shot).expect("a PNG").to_rgba8();
        assert_eq!((img.width(), img.height()), (320, 180));
        let first = *img.get_pixel(0, 0);
        let drawn = img.pixels().filter(|p| **p != first).count();
        assert!(
            drawn > 320 * 180 / 20,
            "{name}: only {drawn} pixels differ from the clear colour"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_psp_look_and_the_benchmark_run_from_the_command_line() {
    if pebble_render::gpu::test_gpu("the_psp_look_and_the_benchmark_run_from_the_command_line")
        .is_none()
    {
        return;
    }
    let dir = out_dir("psp");
    let shot = dir.join("psp.png");
    let input = fixture("full.pbm");
    let input = input.to_str().expect("utf-8");
    let out = pebble(&[
        "render",
        input,
        "--psp",
        "--size",
        "480x272",
        "--cam",
        "0,2,8,0,-10",
        "-o",
        shot.to_str().expect("utf-8"),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let img = image::open(&shot).expect("a PNG").to_rgba8();
    assert_eq!((img.width(), img.height()), (480, 272));
    assert!(
        img.pixels()
            .all(|p| p.0[..3].iter().all(|c| pebble_render::psp::is_5bit(*c)))
    );
    let out = pebble(&["render", input, "--bench", "--size", "160x90"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let report = text(&out.stdout);
    assert!(
        report.contains("median") && report.contains("p95") && report.contains("draw calls"),
        "{report}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_arguments_say_what_is_wrong() {
    let input = fixture("basic.pbm");
    let input = input.to_str().expect("utf-8");
    for (args, says) in [
        (vec!["--cam", "1,2", "-o", "x.png"], "expected five numbers"),
        (
            vec!["--cam", "1,2,3,a,5", "-o", "x.png"],
            "expected five numbers",
        ),
        (vec!["--size", "100", "-o", "x.png"], "expected WxH"),
        (vec!["--size", "0x10", "-o", "x.png"], "1 to 8192"),
        (vec!["--fov", "400", "-o", "x.png"], "between 1 and 170"),
    ] {
        let mut all = vec!["render", input];
        all.extend(args.iter().copied());
        let out = pebble(&all);
        assert!(!out.status.success(), "{args:?} succeeded");
        let err = text(&out.stderr);
        assert!(err.contains(says), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
    let out = pebble(&["render", "/nonexistent/map.pbm", "-o", "x.png"]);
    assert!(!out.status.success());
    assert!(text(&out.stderr).contains("/nonexistent/map.pbm"));
}

/// An overview shows the whole map whatever its size: `--view top` of a 200 m
/// ground (far past the environment's fog, which ends at 65 m) draws the ground
/// across the picture's middle, not the sky's colour.
#[test]
fn an_overview_of_a_large_map_is_not_hidden_by_fog() {
    let dir = out_dir("overview");
    let vertex = |x: f32, z: f32| pbm::Vertex {
        uv: [0.0, 0.0],
        color: 0xFF20_C040,
        pos: [x, 0.0, z],
    };
    let (a, b, c, d) = (
        vertex(-100.0, 100.0),
        vertex(100.0, 100.0),
        vertex(100.0, -100.0),
        vertex(-100.0, -100.0),
    );
    let map = pbm::Map {
        bounds_min: [-100.0, 0.0, -100.0],
        bounds_max: [100.0, 0.0, 100.0],
        meshes: vec![pbm::Mesh {
            name: pbm::Name32::new("Ground").expect("a short name"),
            texture_id: -1,
            bounds_min: [-100.0, 0.0, -100.0],
            bounds_max: [100.0, 0.0, 100.0],
            uv_scroll: [0.0, 0.0],
            vertices: vec![a, b, c, a, c, d],
        }],
        ..Default::default()
    };
    let input = dir.join("ground.pbm");
    std::fs::write(&input, map.to_bytes().expect("encodes")).expect("writes");
    let output = dir.join("top.png");
    let out = pebble(&[
        "render",
        input.to_str().expect("utf-8"),
        "--view",
        "top",
        "--size",
        "200x120",
        "-o",
        output.to_str().expect("utf-8"),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let img = image::open(&output).expect("reads").to_rgb8();
    // The ground's colour (0x40C020 as RGB) over the picture's middle third.
    let green = (70..130)
        .flat_map(|x| (40..80).map(move |y| (x, y)))
        .filter(|&(x, y)| {
            let p = img.get_pixel(x, y).0;
            p[1] > 150 && p[0] < 100 && p[2] < 100
        })
        .count();
    assert!(
        green > 60 * 40 * 9 / 10,
        "{green} of 2400 middle pixels show the ground"
    );
}
