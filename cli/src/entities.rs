//! `pebble entities`: the game's own entity kinds (`entities.ron`): check a
//! definitions file (and a project's instances against it), and generate the code
//! a game reads its maps' entities with.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context as _;
use clap::{Args, Subcommand};
use pebble_model::definitions::{self, Definitions};

#[derive(Debug, Subcommand)]
pub enum EntitiesCommand {
    /// Check a definitions file; given a project, also its instances (the Problems list).
    Check(CheckArgs),
    /// Write the code a game reads a map's entities with (Rust on `pbm`, or C99).
    Codegen(CodegenArgs),
    /// Measure game entities at scale: the showcase with thousands of the sample
    /// kinds, linked (export, codegen, a multi-edit; median and p95), and write
    /// the projects `pebble bench-editor` compares.
    Bench(BenchArgs),
}

#[derive(Debug, Args)]
pub struct BenchArgs {
    /// Game entities to add to the showcase.
    #[arg(long, default_value_t = 5000)]
    pub count: usize,
    /// Entities one multi-edit sets a field on.
    #[arg(long, default_value_t = 1000)]
    pub edit: usize,
    /// Runs measured (each figure's median and p95 over them).
    #[arg(long, default_value_t = 7)]
    pub runs: usize,
    /// Also write `with/scale.pebble.ron` (and its entities.ron) and
    /// `without/scale.pebble.ron` here, for `pebble bench-editor`.
    #[arg(long, value_name = "DIR")]
    pub write: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct CheckArgs {
    /// A project (*.pebble.ron), its folder, or a definitions file.
    pub input: PathBuf,
}

#[derive(Debug, Args)]
#[command(group = clap::ArgGroup::new("language").required(true).multiple(true))]
pub struct CodegenArgs {
    /// A project (*.pebble.ron), its folder, or a definitions file.
    pub input: PathBuf,
    /// Write a Rust module (on the `pbm` crate) to this file.
    #[arg(long, value_name = "FILE.rs", group = "language")]
    pub rust: Option<PathBuf>,
    /// Write `pebble_entities.h` and `pebble_entities.c` (C99) into this folder.
    #[arg(long, value_name = "DIR", group = "language")]
    pub c: Option<PathBuf>,
}

pub fn run(cmd: EntitiesCommand) -> anyhow::Result<ExitCode> {
    match cmd {
        EntitiesCommand::Check(args) => check(args),
        EntitiesCommand::Codegen(args) => codegen(args),
        EntitiesCommand::Bench(args) => bench(args),
    }
}

/// The showcase with `count` game entities of its sample kinds on a grid over
/// the courtyard and beyond: enemies on three-point paths, doors each linked to
/// a switch, pickups.
pub fn scale_scene(count: usize) -> anyhow::Result<pebble_model::Scene> {
    use pebble_model::EntityId;
    use pebble_model::definitions::FieldValue;
    use pebble_model::glam::Vec3;
    let mut scene = pebble_core::services::showcase::scene()?;
    let side = (count as f32).sqrt().ceil().max(1.0) as usize;
    let mut entities = Vec::with_capacity(count);
    for k in 0..count {
        let at = Vec3::new(
            (k % side) as f32 * 1.5 - side as f32 * 0.75,
            0.0,
            (k / side) as f32 * 1.5 - side as f32 * 0.75,
        );
        let local = EntityId(1_000_000 + k as u32);
        let mut e = match k % 4 {
            0 => pebble_core::create::defined_entity("Switch", at),
            1 => {
                let mut e = pebble_core::create::defined_entity("Door", at);
                if let pebble_model::EntityKind::Defined(d) = &mut e.kind {
                    // The switch just made before it.
                    d.values.insert(
                        "switch".into(),
                        FieldValue::Entity(Some(EntityId(local.0 - 1))),
                    );
                }
                e
            }
            2 => {
                let mut e = pebble_core::create::defined_entity("Enemy", at);
                if let pebble_model::EntityKind::Defined(d) = &mut e.kind {
                    let p = |dx: f32, dz: f32| FieldValue::Point(at + Vec3::new(dx, 0.0, dz));
                    d.values.insert(
                        "path".into(),
                        FieldValue::Array(vec![p(0.0, 0.0), p(1.0, 0.0), p(1.0, 1.0)]),
                    );
                    d.values
                        .insert("title".into(), FieldValue::Text(format!("Guard {k}")));
                }
                e
            }
            _ => pebble_core::create::defined_entity("Pickup", at),
        };
        e.id = local;
        e.name = format!("{} {k}", e.name);
        entities.push(e);
    }
    pebble_model::Command::apply(
        &mut pebble_model::command::AddEntities::new("Place", entities).without_selecting(),
        &mut scene,
    )?;
    Ok(scene)
}

fn timed<T>(
    runs: usize,
    mut f: impl FnMut() -> anyhow::Result<T>,
) -> anyhow::Result<(f64, f64, T)> {
    let mut times = Vec::with_capacity(runs);
    let mut last = None;
    for _ in 0..runs.max(1) {
        let t = std::time::Instant::now();
        last = Some(f()?);
        times.push(t.elapsed());
    }
    let (median, p95) = super::convert_bench::stats(&times);
    Ok((median, p95, last.ok_or_else(|| anyhow::anyhow!("no run"))?))
}

fn bench(args: BenchArgs) -> anyhow::Result<ExitCode> {
    use pebble_model::command::SetFieldValues;
    use pebble_model::definitions::FieldValue;
    let defs = std::sync::Arc::new(Definitions::parse(
        pebble_core::services::showcase::DEFINITIONS,
    )?);
    let plain = pebble_core::services::showcase::scene()?;
    let scene = scale_scene(args.count)?;
    let dir = std::env::temp_dir().join(format!("pebble-entities-bench-{}", std::process::id()));
    // The showcase's textures, which the export reads.
    pebble_core::services::showcase::write(&dir)?;
    let export = |scene: &pebble_model::Scene| -> anyhow::Result<usize> {
        let mut options = pebble_io::export::ExportOptions::new(&dir);
        options.bake = false;
        options.definitions = Some(defs.clone());
        let (bytes, _) = pebble_io::export::export(
            scene,
            &options,
            &mut |_| {},
            &std::sync::atomic::AtomicBool::new(false),
        )?;
        Ok(bytes.len())
    };
    let mut out = format!(
        "game entities at scale: the showcase and {} game entities ({} links), {} runs each\n",
        args.count,
        args.count / 4,
        args.runs
    );
    let (b50, b95, base_bytes) = timed(args.runs, || export(&plain))?;
    let (e50, e95, bytes) = timed(args.runs, || export(&scene))?;
    out += &format!(
        "  export without them: median {b50:.1} ms  p95 {b95:.1} ms  ({base_bytes} bytes)\n  export with them:    median {e50:.1} ms  p95 {e95:.1} ms  ({bytes} bytes; {:.2}× the time)\n",
        e50 / b50.max(1e-9)
    );
    let (l50, l95, lump) = timed(args.runs, || {
        let mut warnings = Vec::new();
        let lump = pebble_io::export::game_entities::build(&scene, &defs, &mut warnings)
            .ok_or_else(|| anyhow::anyhow!("no game entities"))?;
        Ok(lump.encode()?.len())
    })?;
    out += &format!(
        "  the game_entities lump alone: median {l50:.1} ms  p95 {l95:.1} ms  ({lump} bytes)\n"
    );
    let (c50, c95, code) = timed(args.runs, || {
        let rust = pebble_io::codegen::rust::generate(&defs);
        let (h, c) = pebble_io::codegen::c::generate(&defs, "pebble_entities.h");
        Ok(rust.len() + h.len() + c.len())
    })?;
    out +=
        &format!("  codegen (Rust and C): median {c50:.3} ms  p95 {c95:.3} ms  ({code} bytes)\n");
    let ids: Vec<pebble_model::EntityId> = definitions::problems::instances(&scene)
        .filter(|(_, d)| d.kind == "Pickup" || d.kind == "Switch")
        .map(|(id, _)| id)
        .take(args.edit)
        .collect();
    let mut edited = scene.clone();
    let mut history = pebble_model::History::new(100);
    let mut times = Vec::new();
    for run in 0..args.runs.max(1) {
        let t = std::time::Instant::now();
        history.execute(
            &mut edited,
            SetFieldValues::new(
                "Edit",
                ids.clone(),
                "title",
                Some(FieldValue::Text(format!("run {run}"))),
            ),
        )?;
        times.push(t.elapsed());
        history.undo(&mut edited);
    }
    let (m50, m95) = super::convert_bench::stats(&times);
    out += &format!(
        "  a field set on {} at once (one undo step): median {m50:.2} ms  p95 {m95:.2} ms\n",
        ids.len()
    );
    let (p50, p95, found) = timed(args.runs, || {
        Ok(definitions::problems::problems(&scene, &defs).len())
    })?;
    out +=
        &format!("  the Problems list: median {p50:.2} ms  p95 {p95:.2} ms  ({found} problems)\n");
    if let Some(to) = &args.write {
        let with = to.join("with");
        let without = to.join("without");
        std::fs::create_dir_all(&with)?;
        std::fs::create_dir_all(&without)?;
        for d in [&with, &without] {
            pebble_core::services::showcase::write(d)?;
            std::fs::remove_file(d.join(pebble_core::services::showcase::PROJECT_FILE)).ok();
        }
        std::fs::remove_file(without.join(definitions::FILE_NAME)).ok();
        pebble_model::project::save(&with.join("scale.pebble.ron"), &scene)?;
        pebble_model::project::save(&without.join("scale.pebble.ron"), &plain)?;
        out += &format!(
            "  wrote {} and {} (pebble bench-editor PROJECT on each)\n",
            with.join("scale.pebble.ron").display(),
            without.join("scale.pebble.ron").display()
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
    super::emit(&out)?;
    Ok(ExitCode::SUCCESS)
}

/// The definitions file an input names: a project's or a folder's `entities.ron`,
/// or the file itself.
pub fn definitions_path(input: &Path) -> PathBuf {
    let name = input.file_name().map(|n| n.to_string_lossy().into_owned());
    if input.is_dir() {
        input.join(definitions::FILE_NAME)
    } else if name.is_some_and(|n| n.ends_with(".pebble.ron")) {
        input
            .parent()
            .unwrap_or(Path::new("."))
            .join(definitions::FILE_NAME)
    } else {
        input.to_path_buf()
    }
}

fn load(input: &Path) -> anyhow::Result<(PathBuf, Definitions)> {
    let path = definitions_path(input);
    let text = std::fs::read_to_string(&path).with_context(|| {
        format!(
            "cannot read the definitions {} (a project's kinds live in entities.ron beside it)",
            path.display()
        )
    })?;
    let defs = Definitions::parse(&text).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
    Ok((path, defs))
}

fn check(args: CheckArgs) -> anyhow::Result<ExitCode> {
    let (path, defs) = load(&args.input)?;
    let mut out = format!(
        "{}: {} kinds, {} enums, {} flag sets; hash {:#018x}\n",
        path.display(),
        defs.kinds.len(),
        defs.enums.len(),
        defs.flags.len(),
        defs.hash()
    );
    for k in &defs.kinds {
        let fields: Vec<String> = k
            .fields
            .iter()
            .map(|f| {
                format!(
                    "{}: {}{}",
                    f.name,
                    f.ty.word(),
                    if f.array { "[]" } else { "" }
                )
            })
            .collect();
        out += &format!("  {} ({})\n", k.name, fields.join(", "));
    }
    let mut code = ExitCode::SUCCESS;
    let is_project = args
        .input
        .file_name()
        .is_some_and(|n| n.to_string_lossy().ends_with(".pebble.ron"));
    if is_project {
        let scene = pebble_model::project::load(&args.input)
            .with_context(|| format!("cannot open the project {}", args.input.display()))?;
        let problems = definitions::problems::problems(&scene, &defs);
        let count = definitions::problems::instances(&scene).count();
        out += &format!("{count} game entities, {} problems\n", problems.len());
        for p in &problems {
            out += &format!("  {}\n", p.message);
        }
        if !problems.is_empty() {
            code = ExitCode::FAILURE;
        }
    }
    super::emit(&out)?;
    Ok(code)
}

fn codegen(args: CodegenArgs) -> anyhow::Result<ExitCode> {
    let (path, defs) = load(&args.input)?;
    let mut out = String::new();
    if let Some(file) = &args.rust {
        let code = pebble_io::codegen::rust::generate(&defs);
        if let Some(parent) = file.parent().filter(|p| !p.as_os_str().is_empty()) {
            std::fs::create_dir_all(parent)
                .with_context(|| format!("cannot create {}", parent.display()))?;
        }
        pbm::file::write_atomic(file, code.as_bytes())
            .with_context(|| format!("cannot write {}", file.display()))?;
        out += &format!("wrote {} ({} bytes)\n", file.display(), code.len());
    }
    if let Some(dir) = &args.c {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
        let (header, source) = pebble_io::codegen::c::generate(&defs, "pebble_entities.h");
        for (name, text) in [("pebble_entities.h", header), ("pebble_entities.c", source)] {
            let file = dir.join(name);
            pbm::file::write_atomic(&file, text.as_bytes())
                .with_context(|| format!("cannot write {}", file.display()))?;
            out += &format!("wrote {} ({} bytes)\n", file.display(), text.len());
        }
    }
    out += &format!(
        "from {} ({} kinds, hash {:#018x})\n",
        path.display(),
        defs.kinds.len(),
        defs.hash()
    );
    super::emit(&out)?;
    Ok(ExitCode::SUCCESS)
}
