//! `pebble project bench MODEL`: a model's way into a project and a map, timed.
//! Each run imports the model as `pebble import` does (a player start and lights
//! added where the file has none), exports the scene as `pebble export` does,
//! light baked (`--no-bake` leaves it out; GLB to PBM, end to end, in this
//! process), saves the project and opens it again. It prints each
//! figure's median and p95, the project's size against the model's, the triangles
//! the map draws against the model's, and the process's peak memory.
//!
//! With `PEBBLE_REFERENCE_CONVERTER` naming the reference converter (PoiBuilder's
//! `retro_engine/pbm_conv.py`, a public repository; its code is not part of
//! Pebble), the same runs time `python3 CONVERTER MODEL OUT.pbm` too. Then it
//! prints the ratios, both maps' vertex counts and the converter's peak memory
//! (Linux: the largest resident size of the children waited for). Without the
//! variable it prints Pebble's figures alone and says so.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::Context as _;
use pebble_io::import::{ImportOptions, import_file};
use pebble_model::{History, Scene, project};

/// The variable naming the reference converter's script.
pub const CONVERTER_VAR: &str = "PEBBLE_REFERENCE_CONVERTER";

#[derive(Debug, clap::Args)]
pub struct BenchArgs {
    /// The model (glTF or GLB) to import and export.
    pub model: PathBuf,
    /// Runs measured (each figure's median and p95 over them).
    #[arg(long, default_value_t = 5)]
    pub runs: usize,
    /// Export without baking the light (the bake is most of a lit level's export).
    #[arg(long)]
    pub no_bake: bool,
}

/// Median and p95 in milliseconds.
pub fn stats(times: &[Duration]) -> (f64, f64) {
    let mut ms: Vec<f64> = times.iter().map(|t| t.as_secs_f64() * 1e3).collect();
    ms.sort_by(f64::total_cmp);
    let at = |q: f64| ms[((ms.len() - 1) as f64 * q).round() as usize];
    (at(0.5), at(0.95))
}

/// The largest resident size this process has had, in KiB (Linux; None elsewhere).
fn peak_self_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
}

/// The largest resident size of the child processes waited for, in KiB.
#[cfg(target_os = "linux")]
#[allow(unsafe_code)]
fn peak_children_kib() -> Option<u64> {
    let mut usage = std::mem::MaybeUninit::<libc::rusage>::zeroed();
    // SAFETY: getrusage fills the one `rusage` it is given and reads nothing else.
    let r = unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, usage.as_mut_ptr()) };
    // SAFETY: zeroed is a valid rusage, and getrusage succeeded or left it so.
    let usage = unsafe { usage.assume_init() };
    (r == 0).then(|| u64::try_from(usage.ru_maxrss).unwrap_or(0))
}

#[cfg(not(target_os = "linux"))]
fn peak_children_kib() -> Option<u64> {
    None
}

fn mib(kib: Option<u64>) -> String {
    kib.map_or_else(|| "n/a".into(), |k| format!("{:.1} MiB", k as f64 / 1024.0))
}

/// A map's vertices, all meshes together.
fn vertices(map: &[u8]) -> anyhow::Result<u64> {
    let (view, _) = pbm::MapView::parse(map).map_err(|e| anyhow::anyhow!("{e}"))?;
    Ok(view.meshes().map(|m| u64::from(m.num_vertices)).sum())
}

pub fn run(args: BenchArgs) -> anyhow::Result<ExitCode> {
    anyhow::ensure!(args.runs >= 1, "--runs must be 1 or more");
    let model_bytes = std::fs::metadata(&args.model)
        .with_context(|| format!("cannot read {}", args.model.display()))?
        .len();
    let work = std::env::temp_dir().join(format!("pebble-convert-bench-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&work);
    std::fs::create_dir_all(&work).with_context(|| format!("cannot make {}", work.display()))?;
    let project_path = work.join("bench.pebble.ron");
    let (mut convert, mut save, mut open) = (Vec::new(), Vec::new(), Vec::new());
    let mut map = Vec::new();
    let mut source_triangles = 0usize;
    for _ in 0..args.runs {
        let start = Instant::now();
        let options = ImportOptions::new(work.clone());
        let imported = import_file(&args.model, &options, &mut |_| {})?;
        let mut scene = Scene::new();
        let mut command = imported.command;
        command.add_what_the_project_lacks(&scene);
        History::default().execute(&mut scene, command)?;
        // The drawn meshes (a collision shape's hidden mesh is not drawn).
        source_triangles = scene
            .exported_entities()
            .filter_map(|e| match &e.kind {
                pebble_model::entity::EntityKind::Mesh(m) => Some(m.geometry.faces.len()),
                _ => None,
            })
            .sum();
        map = pebble_core::services::export::to_bytes(&scene, work.clone(), !args.no_bake)?;
        convert.push(start.elapsed());
        let start = Instant::now();
        project::save(&project_path, &scene)?;
        save.push(start.elapsed());
        let start = Instant::now();
        let reopened = project::load(&project_path)?;
        open.push(start.elapsed());
        anyhow::ensure!(
            reopened.entities().count() == scene.entities().count(),
            "the project reopened with other entities"
        );
    }
    let project_bytes: u64 = std::fs::read_dir(&work)?
        .flatten()
        .filter(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            name.starts_with("bench.") && !name.ends_with(".tmp")
        })
        .filter_map(|e| e.metadata().ok().map(|m| m.len()))
        .sum();
    let ours = vertices(&map)?;
    let peak = peak_self_kib();
    let (c50, c95) = stats(&convert);
    let (s50, s95) = stats(&save);
    let (o50, o95) = stats(&open);
    println!(
        "{}: {model_bytes} bytes, {} runs",
        args.model.display(),
        args.runs
    );
    let bake = if args.no_bake {
        "no bake"
    } else {
        "light baked"
    };
    println!(
        "  pebble import + export ({bake}): median {c50:.1} ms  p95 {c95:.1} ms  ({ours} vertices in the map)"
    );
    println!(
        "  triangles: {source_triangles} in the model, {} in the map ({:.3}×); peak memory {}",
        ours / 3,
        (ours / 3) as f64 / source_triangles.max(1) as f64,
        mib(peak)
    );
    println!(
        "  the project: {project_bytes} bytes ({:.2}× the model); saved in median {s50:.1} ms (p95 {s95:.1}), opened in median {o50:.1} ms (p95 {o95:.1})",
        project_bytes as f64 / model_bytes.max(1) as f64
    );
    match std::env::var_os(CONVERTER_VAR) {
        None => println!(
            "  {CONVERTER_VAR} is not set: Pebble's figures alone (set it to the reference converter's pbm_conv.py to compare)"
        ),
        Some(script) => reference(Path::new(&script), &args, &work, (c50, o50), ours, peak)?,
    }
    let _ = std::fs::remove_dir_all(&work);
    Ok(ExitCode::SUCCESS)
}

/// Times the reference converter on the same model and prints the ratios.
fn reference(
    script: &Path,
    args: &BenchArgs,
    work: &Path,
    (convert_ms, open_ms): (f64, f64),
    ours: u64,
    our_peak: Option<u64>,
) -> anyhow::Result<()> {
    let out = work.join("reference.pbm");
    let mut times = Vec::new();
    for _ in 0..args.runs {
        let start = Instant::now();
        let run = std::process::Command::new("python3")
            .arg(script)
            .arg(&args.model)
            .arg(&out)
            .stdout(std::process::Stdio::null())
            .output()
            .with_context(|| format!("cannot run python3 {}", script.display()))?;
        times.push(start.elapsed());
        anyhow::ensure!(
            run.status.success(),
            "the reference converter failed on {}: {}",
            args.model.display(),
            String::from_utf8_lossy(&run.stderr).trim()
        );
    }
    let (r50, r95) = stats(&times);
    let theirs = std::fs::read(&out)
        .map_err(anyhow::Error::from)
        .and_then(|m| vertices(&m))
        .with_context(|| format!("cannot read the reference converter's {}", out.display()))?;
    let their_peak = peak_children_kib();
    println!(
        "  reference converter ({}): median {r50:.1} ms  p95 {r95:.1} ms  ({theirs} vertices in its map); peak memory {}",
        script.display(),
        mib(their_peak)
    );
    println!(
        "  import + export: Pebble {:.1}× faster; opening the project takes {:.3} of the converter's time; Pebble's map has {:.2}× its vertices",
        r50 / convert_ms.max(1e-3),
        open_ms / r50.max(1e-3),
        ours as f64 / theirs.max(1) as f64
    );
    if let (Some(a), Some(b)) = (our_peak, their_peak) {
        println!(
            "  peak memory: Pebble {:.2}× the converter's",
            a as f64 / b.max(1) as f64
        );
    }
    Ok(())
}
