//! `pebble import FILE [--into PROJECT]`: import into a new or existing project as
//! one undoable step, save atomically, and report what came in.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context as _;
use clap::Args;
use pebble_io::import::{ImportOptions, Progress, import_file};
use pebble_model::{History, Kind, Scene, project};

use pebble_core::services::placement::{self, Placement, Size, Up};

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
    /// Scale the model by this (any model kind: 0.01 brings centimetres to metres).
    /// Without it, a model clearly in centimetres or millimetres (hundreds of
    /// metres tall) is scaled to metres, and the import says so; --scale 1 keeps
    /// the file's size.
    #[arg(long, conflicts_with = "fit", allow_hyphen_values = true)]
    pub scale: Option<f32>,
    /// Scale the model so that its longest side is this many metres.
    #[arg(long, value_name = "METRES", allow_hyphen_values = true)]
    pub fit: Option<f32>,
    /// Which way is up in the file: y (glTF's) or z (many exporters and CAD tools).
    #[arg(long, value_enum, default_value_t = UpArg::Y)]
    pub up: UpArg,
}

/// `--up`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum UpArg {
    Y,
    Z,
}

/// `FILE`'s help, built from the importer's own list so that it cannot fall behind.
fn import_file_help() -> String {
    format!(
        "The file to import: {} (glTF 2.0, PlayStation TMD with its TIM, a Pebble map, or an image)",
        pebble_io::import::supported_extensions()
    )
}

/// The bounds of the meshes `command` brings in, as the file has them (read from
/// the command's entities in place: a copy of a million-triangle import would
/// double its memory).
fn raw_bounds(command: &pebble_io::import::ImportCommand) -> Option<pebble_model::Aabb> {
    use pebble_model::entity::EntityKind;
    let entities = command.entities();
    let by_id: std::collections::HashMap<pebble_model::EntityId, &pebble_model::Entity> =
        entities.iter().map(|e| (e.id, e)).collect();
    let world = |e: &pebble_model::Entity| {
        let mut m = e.transform.to_affine();
        let mut parent = e.parent;
        // Bounded: a cycle in a malformed import cannot loop forever.
        for _ in 0..entities.len() {
            let Some(p) = parent.and_then(|id| by_id.get(&id)) else {
                break;
            };
            m = p.transform.to_affine() * m;
            parent = p.parent;
        }
        m
    };
    let points = entities.iter().flat_map(|e| {
        let m = world(e);
        let positions: &[pebble_model::glam::Vec3] = match &e.kind {
            EntityKind::Mesh(mesh) => &mesh.geometry.positions,
            _ => &[],
        };
        positions.iter().map(move |p| m.transform_point3(*p))
    });
    pebble_model::Aabb::from_points(points)
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
    // `--into new/folder/map.pebble.ron`: the folder is made, as a save dialog's
    // "new folder" would (textures and big meshes go beside the project).
    if !existing {
        std::fs::create_dir_all(&project_dir).with_context(|| {
            format!(
                "cannot make the folder {} for the new project",
                project_dir.display()
            )
        })?;
    }
    let mut options = ImportOptions::new(project_dir.clone());
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
    let up = match args.up {
        UpArg::Y => Up::Y,
        UpArg::Z => Up::Z,
    };
    let raw = raw_bounds(&command);
    // Units that look wrong: centimetres or millimetres are fixed at once (said,
    // with the flag that keeps the file's size); other doubts are said only.
    let hint = raw
        .filter(|_| args.scale.is_none() && args.fit.is_none())
        .and_then(|raw| placement::units_hint(&raw, up).map(|h| (raw, h)));
    let mut units_said = None;
    let scale = match (args.scale, args.fit) {
        (Some(s), _) => {
            anyhow::ensure!(
                s.is_finite() && s > 0.0,
                "--scale must be a positive number, got {s}"
            );
            s
        }
        (None, Some(metres)) => {
            anyhow::ensure!(
                metres.is_finite() && metres > 0.0,
                "--fit must be a positive number of metres, got {metres}"
            );
            let raw = raw.context("--fit needs a model with geometry; the file holds none")?;
            Placement {
                raw,
                size: Size::Fit(metres),
                up,
                at: Default::default(),
            }
            .scale()
        }
        (None, None) => match hint {
            Some((raw, (scale, units))) if placement::fixed_at_import(scale) => {
                units_said = Some(placement::units_fixed_line(&raw, up, scale, units));
                scale
            }
            Some((_, (scale, units))) => {
                units_said = Some(format!(
                    "this looks like {units}: import again with --scale {scale}"
                ));
                1.0
            }
            None => 1.0,
        },
    };
    if scale != 1.0 || up != Up::Y {
        command.place_roots(|t| placement::about_origin(scale, up, t));
    }
    let review = pebble_core::services::import_review::warnings(
        command.entities(),
        command.materials(),
        &project_dir,
    );
    if existing && !scene.is_empty() {
        // Appending: the project's own name and environment stay.
        command = command.without_settings();
    }
    let added = command.add_what_the_project_lacks(&scene);
    let mut history = History::default();
    history.execute(&mut scene, command).with_context(|| {
        format!(
            "cannot add {} to {}",
            args.file.display(),
            project_path.display()
        )
    })?;
    project::save(&project_path, &scene)?;

    let mut said = report(
        &args.file,
        &project_path,
        existing,
        &imported.report,
        &review,
    );
    for line in units_said.into_iter().chain(added) {
        let _ = writeln!(said, "  {line}");
    }
    super::emit(&said)?;
    Ok(ExitCode::SUCCESS)
}

fn report(
    file: &Path,
    project_path: &Path,
    existing: bool,
    r: &pebble_io::import::ImportReport,
    review: &[String],
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
    let warnings: Vec<&String> = r.warnings.iter().chain(review).collect();
    if !warnings.is_empty() {
        let _ = writeln!(out, "  warnings ({}):", warnings.len());
        for w in warnings {
            let _ = writeln!(out, "    {w}");
        }
    }
    out
}
