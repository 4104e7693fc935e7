//! `pebble export PROJECT -o map.pbm`: export a project, print the time per stage
//! and what the map holds.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;

use clap::Args;
use pebble_io::export::export_to_file;
use pebble_model::project;

#[derive(Debug, Args)]
pub struct ExportArgs {
    /// The project (*.pebble.ron).
    pub project: PathBuf,
    /// Output map (default: the project's export setting, relative to the project).
    #[arg(short, long)]
    pub output: Option<PathBuf>,
    /// Skip the lighting bake (vertex colours as authored).
    #[arg(long)]
    pub no_bake: bool,
    /// Ambient-occlusion rays per vertex (default: the project's setting).
    #[arg(long)]
    pub ao_rays: Option<u32>,
    /// Worker threads for baking (default: all cores).
    #[arg(long)]
    pub threads: Option<usize>,
}

pub fn run(args: ExportArgs) -> anyhow::Result<ExitCode> {
    let scene = project::load(&args.project)?;
    let project_dir = pebble_model::project::folder_of(&args.project);
    let output = args
        .output
        .clone()
        .unwrap_or_else(|| project_dir.join(&scene.settings().export.output));
    if let Some(dir) = output.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)
            .map_err(|e| anyhow::anyhow!("cannot create {}: {e}", dir.display()))?;
    }
    let mut options = pebble_core::services::export::options(&scene, project_dir);
    options.bake &= !args.no_bake;
    options.ao_rays = args.ao_rays.unwrap_or(scene.settings().export.ao_rays);
    options.threads = args.threads;
    let report = export_to_file(
        &scene,
        &options,
        &output,
        &mut |_| {},
        &AtomicBool::new(false),
    )?;

    let mut out = String::new();
    writeln!(
        out,
        "exported {} → {} ({} bytes)",
        args.project.display(),
        output.display(),
        report.bytes
    )?;
    let total: f64 = report.stages.0.iter().map(|(_, d)| d.as_secs_f64()).sum();
    writeln!(out, "  stage        time      share")?;
    for (stage, d) in &report.stages.0 {
        let share = if total > 0.0 {
            d.as_secs_f64() / total * 100.0
        } else {
            0.0
        };
        writeln!(
            out,
            "  {stage:<10} {:>8.1} ms  {share:>5.1} %",
            d.as_secs_f64() * 1e3
        )?;
    }
    writeln!(
        out,
        "  textures:  {} ({} bytes)",
        report.textures, report.texture_bytes
    )?;
    writeln!(
        out,
        "  meshes:    {} ({} vertices)",
        report.meshes, report.vertices
    )?;
    writeln!(out, "  colliders: {}", report.colliders)?;
    writeln!(out, "  lumps:     {}", report.lumps)?;
    writeln!(out, "  particles: {}", report.particles)?;
    if !report.left_out.is_empty() {
        writeln!(
            out,
            "  left out (export off): {}",
            report.left_out.join(", ")
        )?;
    }
    if !report.warnings.is_empty() {
        writeln!(out, "  warnings ({}):", report.warnings.len())?;
        for w in &report.warnings {
            writeln!(out, "    {w}")?;
        }
    }
    super::emit(&out)?;
    Ok(ExitCode::SUCCESS)
}
