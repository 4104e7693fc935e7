//! `pebble import FILE [--into PROJECT]`: import into a new or existing project as
//! one undoable step, save atomically, and report what came in.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context as _;
use clap::Args;
use pebble_io::import::{ImportOptions, Progress, import_file};
use pebble_model::{History, Kind, Scene, project};

#[derive(Debug, Args)]
pub struct ImportArgs {
    /// The file to import; the help lists every extension the importer takes.
    #[arg(help = import_file_help())]
    pub file: PathBuf,
    /// Project to add to; created when it does not exist (default: FILE's name with
    /// .pebble.ron in the current folder).
    #[arg(long)]
    pub into: Option<PathBuf>,
    /// The TIM texture file of a TMD (default: the TMD's name with .tim).
    #[arg(long)]
    pub tim: Option<PathBuf>,
    /// Metres per TMD unit (default 0.01).
    #[arg(long)]
    pub tmd_scale: Option<f32>,
}

/// `FILE`'s help, built from the importer's own list so that it cannot fall behind.
fn import_file_help() -> String {
    format!(
        "The file to import: {} (glTF 2.0, PlayStation TMD with its TIM, a Pebble map, or an image)",
        pebble_io::import::supported_extensions()
    )
}

/// Files larger than this get a progress bar.
const PROGRESS_BAR_BYTES: u64 = 4 << 20;

pub fn run(args: ImportArgs) -> anyhow::Result<ExitCode> {
    let project_path = match &args.into {
        Some(p) => p.clone(),
        None => {
            let stem = args
                .file
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_else(|| "imported".into());
            PathBuf::from(format!("{stem}.{}", project::EXTENSION))
        }
    };
    let existing = project_path.exists();
    let mut scene = if existing {
        project::load(&project_path)?
    } else {
        Scene::new()
    };
    let project_dir = pebble_model::project::folder_of(&project_path);
    let mut options = ImportOptions::new(project_dir);
    options.tim = args.tim.clone();
    if let Some(s) = args.tmd_scale {
        anyhow::ensure!(
            s.is_finite() && s > 0.0,
            "--tmd-scale must be a positive number of metres per unit, got {s}"
        );
        options.tmd_metres_per_unit = s;
    }

    let size = std::fs::metadata(&args.file).map(|m| m.len()).unwrap_or(0);
    let bar = (size >= PROGRESS_BAR_BYTES).then(|| {
        let bar = indicatif::ProgressBar::new(0);
        bar.set_style(
            indicatif::ProgressStyle::with_template("{msg:>10} [{bar:40}] {pos}/{len}")
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        bar
    });
    let mut on_progress = |p: Progress| {
        if let Some(bar) = &bar {
            bar.set_length(p.total);
            bar.set_position(p.done);
            bar.set_message(p.stage);
        }
    };
    let imported = import_file(&args.file, &options, &mut on_progress)?;
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }

    let mut command = imported.command;
    if existing && !scene.is_empty() {
        // Appending: the project's own name and environment stay.
        command = command.without_settings();
    }
    let mut history = History::default();
    history.execute(&mut scene, command).with_context(|| {
        format!(
            "cannot add {} to {}",
            args.file.display(),
            project_path.display()
        )
    })?;
    project::save(&project_path, &scene)?;

    super::emit(&report(
        &args.file,
        &project_path,
        existing,
        &imported.report,
    ))?;
    Ok(ExitCode::SUCCESS)
}

fn report(
    file: &Path,
    project_path: &Path,
    existing: bool,
    r: &pebble_io::import::ImportReport,
) -> String {
    let mut out = String::new();
    let verb = if existing { "added to" } else { "created" };
    let _ = writeln!(
        out,
        "imported {} → {} ({verb})",
        file.display(),
        project_path.display()
    );
    let kinds: Vec<String> = Kind::ALL
        .iter()
        .filter_map(|k| r.entities.get(k).map(|n| format!("{n} {}", k.name())))
        .collect();
    let _ = writeln!(
        out,
        "  entities: {} ({})",
        r.entity_count(),
        kinds.join(", ")
    );
    let _ = writeln!(out, "  materials: {}", r.materials);
    let _ = writeln!(out, "  textures written: {}", r.textures_written.len());
    for t in &r.textures_written {
        let _ = writeln!(out, "    {t}");
    }
    if !r.dropped.is_empty() {
        let _ = writeln!(out, "  left out ({}):", r.dropped.len());
        for d in &r.dropped {
            let _ = writeln!(out, "    {d}");
        }
    }
    if !r.warnings.is_empty() {
        let _ = writeln!(out, "  warnings ({}):", r.warnings.len());
        for w in &r.warnings {
            let _ = writeln!(out, "    {w}");
        }
    }
    out
}
