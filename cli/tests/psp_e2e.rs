//! End to end, in the emulator (ignored unless asked for: `-- --ignored`; CI runs it): the showcase exported
//! and deployed to a folder target, played by the bundled runtime with a capture
//! script (6 views × 2 scene times), the captures imported into the project and
//! each compared with the editor's preview by `pebble compare`. A copy of the map
//! with the scroll sign flipped must fail the comparison where the waterfall is.

use std::path::{Path, PathBuf};
use std::process::Command;

fn pebble() -> Command {
    Command::new(env!("CARGO_BIN_EXE_pebble"))
}

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("repository")
        .to_path_buf()
}

fn tempdir(label: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("pebble-e2e-{}-{label}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("creates a temporary folder");
    dir
}

/// Views (x y z yawDeg pitchDeg): the spawn, the whole room from above, the
/// waterfall sheets head on, the floor from the side (grazing: mip levels), the
/// courtyard from outside its walls (where a map drawn inside out shows the far
/// walls' inner faces), and from inside a corner at the stairs and the lookout.
const VIEWS: [(&str, &str); 6] = [
    ("spawn", "0 1.6 8.5 0 -5"),
    ("overview", "0 9 14 0 -30"),
    ("waterfall", "-5 2.5 -6.5 0 0"),
    ("side", "8 2 0 -90 -10"),
    ("outside", "14 9 14 -45 -30"),
    ("inside corner", "-8.5 2.5 8.5 45 -12"),
];
/// Every view must reach these against the emulator (issue 23; the figures
/// measured are in notes/psp.md).
const MIN_SSIM: &str = "0.97";
const MIN_PSNR: &str = "32";
const TIMES: [f64; 2] = [0.5, 1.3];
/// PPSSPP ignores the GE's LOD bias (bias 0, 1 and 4 give identical captures), so
/// the editor previews emulator captures with 0; a real PSP honours the +1 the
/// runtime sets, which the sidecar records and `pebble compare` uses by default.
const EMULATOR_LOD_BIAS: &str = "0";
/// On the waterfall sheets alone (set from measurement: the correct map measured
/// SSIM 0.977 and PSNR 37.3 dB there, the flipped scroll 0.66–0.69 and 26.4–26.9
/// dB).
const WATERFALL_SSIM: &str = "0.95";
const WATERFALL_PSNR: &str = "33";

#[test]
#[ignore = "needs the PSP emulator harness: chromium-headless-shell and `npm ci` in tools/psp-emu; run with `cargo test -p pebble-cli --test psp_e2e -- --ignored` (CI does)"]
fn showcase_deployed_played_and_compared() {
    let root = repo();
    let work = tempdir("showcase");
    let project_dir = work.join("project");
    let status = pebble()
        .arg("showcase")
        .arg(&project_dir)
        .status()
        .expect("runs pebble showcase");
    assert!(status.success());
    let project = project_dir.join("showcase.pebble.ron");
    let stick = work.join("stick");
    std::fs::create_dir_all(&stick).expect("mkdir");
    let out = pebble()
        .arg("deploy")
        .arg(&project)
        .arg("--to")
        .arg(&stick)
        .output()
        .expect("runs pebble deploy");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let game = stick.join("PSP/GAME/PEBBLE");
    // The broken variant: every scroll sign flipped.
    let (mut flipped, _) =
        pbm::Map::read(&std::fs::read(game.join("map.pbm")).expect("deployed map"))
            .expect("parses");
    let mut scrolling = 0;
    for m in &mut flipped.meshes {
        if m.uv_scroll != [0.0, 0.0] {
            m.uv_scroll = [-m.uv_scroll[0], -m.uv_scroll[1]];
            scrolling += 1;
        }
    }
    assert!(scrolling >= 2, "the showcase scrolls");
    std::fs::write(
        game.join("flipped.pbm"),
        flipped.to_bytes().expect("writes"),
    )
    .expect("saves");
    let mut script = String::from("map map.pbm\n");
    for (_, v) in VIEWS {
        for t in TIMES {
            script.push_str(&format!("capture {v} {t}\n"));
        }
    }
    script.push_str("map flipped.pbm\n");
    for t in TIMES {
        script.push_str(&format!("capture {} {t}\n", VIEWS[2].1));
    }
    std::fs::write(game.join("pebble_capture.txt"), script).expect("writes the script");
    let captures = VIEWS.len() * TIMES.len() + TIMES.len();
    let emu_out = work.join("emu");
    let status = Command::new("node")
        .arg(root.join("tools/psp-emu/run.mjs"))
        .arg("--eboot")
        .arg(game.join("EBOOT.PBP"))
        .arg("--game")
        .arg(&game)
        .arg("--out")
        .arg(&emu_out)
        .args([
            "--wait",
            &format!("captures/capture_{:03}.json", captures - 1),
            "--timeout",
            "150",
        ])
        .status()
        .expect("runs the emulator harness");
    let log = std::fs::read_to_string(emu_out.join("pebble_log.txt")).unwrap_or_default();
    assert!(status.success(), "emulator run failed:\n{log}");
    budget_matches_the_runtime(&std::fs::read(game.join("map.pbm")).expect("map"), &log);
    let out = pebble()
        .args(["capture", "import"])
        .arg(&emu_out)
        .arg("--project")
        .arg(&project)
        .output()
        .expect("runs pebble capture import");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        text.starts_with(&format!("{captures} captures imported")),
        "{text}"
    );
    let mut k = 0;
    let mut figures = Vec::new();
    for (name, _) in VIEWS {
        for t in TIMES {
            let capture = project_dir.join(format!("captures/capture_{k:03}.bmp"));
            let out = pebble()
                .arg("compare")
                .arg(&capture)
                .arg("--project")
                .arg(&project)
                .args([
                    "--lod-bias",
                    EMULATOR_LOD_BIAS,
                    "--min-ssim",
                    MIN_SSIM,
                    "--min-psnr",
                    MIN_PSNR,
                    "-o",
                ])
                .arg(work.join(format!("report_{k:03}")))
                .output()
                .expect("runs pebble compare");
            let text = String::from_utf8_lossy(&out.stdout).into_owned();
            eprintln!("{name} t={t}: {}", text.trim());
            figures.push((name, t, out.status.success(), text));
            k += 1;
        }
    }
    let report: Vec<(f64, f64)> = (0..figures.len())
        .map(|k| read_report(&work.join(format!("report_{k:03}/report.json"))))
        .collect();
    let worst_ssim = (0..report.len()).min_by(|a, b| report[*a].0.total_cmp(&report[*b].0));
    let worst_psnr = (0..report.len()).min_by(|a, b| report[*a].1.total_cmp(&report[*b].1));
    if let (Some(s), Some(p)) = (worst_ssim, worst_psnr) {
        eprintln!(
            "fidelity over {} views: worst SSIM {:.4} ({} t={}), worst PSNR {:.2} dB ({} t={})",
            report.len(),
            report[s].0,
            figures[s].0,
            figures[s].1,
            report[p].1,
            figures[p].0,
            figures[p].1
        );
    }
    for (name, t, ok, text) in &figures {
        assert!(
            ok,
            "{name} at t={t} is below SSIM {MIN_SSIM} / PSNR {MIN_PSNR} dB: {text}"
        );
    }
    // Where the waterfall sheets are in the waterfall view: their bounds projected
    // (16:9, as the runtime projects on its 480×272 screen).
    let (map, _) =
        pbm::Map::read(&std::fs::read(game.join("map.pbm")).expect("map")).expect("parses");
    let camera =
        pebble_render::Camera::psp(pebble_model::glam::Vec3::new(-5.0, 2.5, -6.5), 0.0, 0.0);
    let m = camera.clip_from_world(16.0 / 9.0);
    let (mut x0, mut y0, mut x1, mut y1) = (f32::MAX, f32::MAX, f32::MIN, f32::MIN);
    for mesh in map
        .meshes
        .iter()
        .filter(|m| m.name.as_str().starts_with("Waterfall"))
    {
        for v in &mesh.vertices {
            let c = m * pebble_model::glam::Vec3::from(v.pos).extend(1.0);
            if c.w > 0.05 {
                let (x, y) = ((c.x / c.w + 1.0) * 240.0, (1.0 - c.y / c.w) * 136.0);
                (x0, y0, x1, y1) = (x0.min(x), y0.min(y), x1.max(x), y1.max(y));
            }
        }
    }
    let (x0, y0) = (x0.clamp(0.0, 479.0) as u32, y0.clamp(0.0, 271.0) as u32);
    let (x1, y1) = (x1.clamp(0.0, 480.0) as u32, y1.clamp(0.0, 272.0) as u32);
    assert!(
        x1 > x0 + 20 && y1 > y0 + 20,
        "the waterfall is in view: {x0},{y0}..{x1},{y1}"
    );
    let region = format!("{x0},{y0},{},{}", x1 - x0, y1 - y0);
    // On the waterfall only: the correct map passes, the flipped one fails.
    let (min_ssim, min_psnr) = (WATERFALL_SSIM, WATERFALL_PSNR);
    // The waterfall view's two captures, then the flipped map's two (after all views).
    let flipped_at = VIEWS.len() * TIMES.len();
    for (k, flipped) in [
        (4, false),
        (5, false),
        (flipped_at, true),
        (flipped_at + 1, true),
    ] {
        let capture = project_dir.join(format!("captures/capture_{k:03}.bmp"));
        let out = pebble()
            .arg("compare")
            .arg(&capture)
            .arg("--project")
            .arg(&project)
            .args([
                "--region",
                &region,
                "--min-ssim",
                min_ssim,
                "--min-psnr",
                min_psnr,
                "-o",
            ])
            .arg(work.join(format!("report_region_{k:03}")))
            .output()
            .expect("runs pebble compare");
        let text = String::from_utf8_lossy(&out.stdout);
        eprintln!(
            "waterfall region {region}, {}: {}",
            if flipped { "flipped scroll" } else { "correct" },
            text.trim()
        );
        assert_eq!(out.status.success(), !flipped, "{text}");
    }
}

/// SSIM and PSNR (dB) from a `pebble compare` report.
fn read_report(path: &Path) -> (f64, f64) {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let json: serde_json::Value = serde_json::from_str(&text).expect("the report is JSON");
    let number = |key: &str| json[key].as_f64().unwrap_or(f64::NAN);
    (number("ssim"), number("psnr_db"))
}

/// The editor's PSP budget against what the runtime logged for the same map: the
/// figures it loads exactly; each frame's draw calls and triangles between the
/// chunks alone and the budget's every-particle-alive frame.
fn budget_matches_the_runtime(map: &[u8], log: &str) {
    use pebble_editor::app::budget::MapCost;
    let cost = MapCost::of_bytes(map).expect("measures");
    let loaded = log
        .lines()
        .find(|l| l.starts_with("loaded map.pbm:"))
        .unwrap_or_else(|| panic!("no load line in the log:\n{log}"));
    let number_before = |line: &str, word: &str| -> u64 {
        let at = line
            .find(&format!(" {word}"))
            .unwrap_or_else(|| panic!("no {word} in {line}"));
        line[..at]
            .rsplit([' ', '(', ','])
            .next()
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("no count before {word} in {line}"))
    };
    assert_eq!(
        number_before(loaded, "meshes") as usize,
        cost.chunks.len(),
        "{loaded}"
    );
    assert_eq!(
        number_before(loaded, "triangles"),
        cost.mesh_triangles,
        "{loaded}"
    );
    assert_eq!(
        number_before(loaded, "textures") as usize,
        cost.textures,
        "{loaded}"
    );
    assert_eq!(number_before(loaded, "emitters"), cost.emitters, "{loaded}");
    assert_eq!(
        number_before(loaded, "particles"),
        cost.particles,
        "{loaded}"
    );
    let frame = cost.frame();
    let mut frames = 0;
    for line in log
        .lines()
        .filter(|l| l.starts_with("capture ") && l.contains("draw calls"))
    {
        // A chunk wholly outside the GE's guard band is skipped (nothing of it can
        // show); every chunk is drawn or skipped.
        let draws = number_before(line, "draw calls");
        let triangles = number_before(line, "triangles");
        let skipped = number_before(line, "meshes and");
        let skipped_triangles = number_before(line, "triangles outside");
        assert!(
            draws + skipped >= cost.chunks.len() as u64 && draws <= frame.draw_calls,
            "{line}: the budget says {} chunks, at most {} draw calls",
            cost.chunks.len(),
            frame.draw_calls
        );
        assert!(
            triangles + skipped_triangles >= cost.mesh_triangles && triangles <= frame.triangles,
            "{line}: the budget says {} to {} triangles",
            cost.mesh_triangles,
            frame.triangles
        );
        frames += 1;
        // The flipped map comes after the map's own captures.
        if frames == VIEWS.len() * TIMES.len() {
            break;
        }
    }
    assert_eq!(
        frames,
        VIEWS.len() * TIMES.len(),
        "every capture of map.pbm logged"
    );
    eprintln!(
        "budget against the runtime: {} meshes, {} triangles, {} textures, {} emitters, {} particles as loaded; frames within {}..{} draw calls",
        cost.chunks.len(),
        cost.mesh_triangles,
        cost.textures,
        cost.emitters,
        cost.particles,
        cost.chunks.len(),
        frame.draw_calls
    );
}
