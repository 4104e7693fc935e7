//! `pebble new DIR`: starts a project in a folder, as File › New and Save As do
//! in the window: an empty scene saved as `DIR/<name>.pebble.ron`, with the
//! `textures/` folder imports use. A folder that already holds a project is
//! refused, never overwritten.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context as _, bail};
use clap::Args;

#[derive(Debug, Args)]
pub struct NewArgs {
    /// Folder for the project (created if needed; it must hold no project yet).
    pub dir: PathBuf,
    /// The project's name (its file is NAME.pebble.ron); default: the folder's name.
    #[arg(long)]
    pub name: Option<String>,
}

pub fn run(args: NewArgs) -> anyhow::Result<ExitCode> {
    let name = match &args.name {
        Some(n) => n.clone(),
        None => args
            .dir
            .canonicalize()
            .unwrap_or_else(|_| args.dir.clone())
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .filter(|n| !n.is_empty())
            .unwrap_or_else(|| "level".to_owned()),
    };
    if name.trim().is_empty() || name.contains(['/', '\\']) {
        bail!("--name {name:?}: a project's name is a file name, without folders");
    }
    if args.dir.is_file() {
        bail!(
            "{} is a file; give a folder for the project",
            args.dir.display()
        );
    }
    if let Ok(entries) = std::fs::read_dir(&args.dir) {
        for e in entries.flatten() {
            if e.file_name().to_string_lossy().ends_with(".pebble.ron") {
                bail!(
                    "{} already holds a project ({}); open it with `pebble open {}`, or give another folder",
                    args.dir.display(),
                    e.file_name().to_string_lossy(),
                    e.path().display()
                );
            }
        }
    }
    std::fs::create_dir_all(args.dir.join("textures"))
        .with_context(|| format!("cannot create {}", args.dir.display()))?;
    let path = args.dir.join(format!("{name}.pebble.ron"));
    let mut scene = pebble_model::Scene::new();
    let mut settings = scene.settings().clone();
    settings.map_name = name.clone();
    pebble_model::History::default()
        .execute(
            &mut scene,
            pebble_model::command::SetSettings::new(settings),
        )
        .map_err(|e| anyhow::anyhow!("cannot name the map: {e}"))?;
    pebble_model::project::save(&path, &scene)
        .with_context(|| format!("cannot write {}", path.display()))?;
    super::emit(&format!(
        "started the project {} (open it with `pebble open {}`)\n",
        path.display(),
        path.display()
    ))?;
    Ok(ExitCode::SUCCESS)
}
