//! `pebble project info`: what a project holds and what is wrong with it.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Subcommand;
use pebble_model::Kind;
use pebble_model::entity::{EntityKind, Light};
use pebble_model::project::{self, resolve_asset};

#[derive(Debug, Subcommand)]
pub enum ProjectCommand {
    /// Entity counts by kind, materials, lights, bounds and warnings.
    Info { file: PathBuf },
    /// Time a model's import and export (no bake) and its project's save and open,
    /// against the reference converter when PEBBLE_REFERENCE_CONVERTER names it.
    Bench(super::convert_bench::BenchArgs),
}

pub fn run(cmd: ProjectCommand) -> anyhow::Result<ExitCode> {
    match cmd {
        ProjectCommand::Info { file } => info(&file),
        ProjectCommand::Bench(args) => super::convert_bench::run(args),
    }
}

fn v3(v: pebble_model::glam::Vec3) -> String {
    format!("({}, {}, {})", v.x, v.y, v.z)
}

fn info(path: &Path) -> anyhow::Result<ExitCode> {
    let (scene, recovery) = project::open(path)?;
    let mut out = String::new();
    let s = scene.settings();
    writeln!(
        out,
        "{}: Pebble project (format {}), map \"{}\", environment {}",
        path.display(),
        project::FORMAT_VERSION,
        s.map_name,
        s.environment.preset_name()
    )?;
    let counts = scene.counts();
    // Described entities by their kind ("1 trigger, 3 enemy"), in first-seen order.
    let mut described: Vec<(String, usize)> = Vec::new();
    for e in scene.entities() {
        if e.kind.kind() == Kind::Defined {
            let label = e.kind.label();
            match described.iter_mut().find(|(l, _)| *l == label) {
                Some((_, n)) => *n += 1,
                None => described.push((label, 1)),
            }
        }
    }
    let listed: Vec<String> = Kind::ALL
        .iter()
        .filter(|k| **k != Kind::Defined)
        .filter_map(|k| counts.get(k).map(|n| format!("{n} {}", k.name())))
        .chain(described.iter().map(|(l, n)| format!("{n} {l}")))
        .collect();
    writeln!(
        out,
        "\nentities ({}): {}",
        scene.len(),
        if listed.is_empty() {
            "none".into()
        } else {
            listed.join(", ")
        }
    )?;
    let triangles: usize = scene
        .entities_of(Kind::Mesh)
        .filter_map(|e| match &e.kind {
            EntityKind::Mesh(m) => Some(m.geometry.faces.len()),
            _ => None,
        })
        .sum();
    writeln!(out, "triangles: {triangles}")?;
    match scene.bounds() {
        Some(b) => writeln!(out, "bounds: {} .. {}", v3(b.min), v3(b.max))?,
        None => writeln!(out, "bounds: empty scene")?,
    }

    writeln!(out, "\nmaterials ({}):", scene.materials().count())?;
    for (id, m) in scene.materials() {
        let texture = match &m.texture {
            Some(t) if resolve_asset(path, t).is_file() => t.clone(),
            Some(t) => format!("{t} (missing)"),
            None => "vertex colour".into(),
        };
        let users = scene.material_users(id).len();
        let scroll = if m.scrolls() {
            let mps = m.scroll_metres_per_second();
            format!(
                "  scroll ({}, {}) rep/s = ({}, {}) m/s",
                m.uv_scroll.x, m.uv_scroll.y, mps.x, mps.y
            )
        } else {
            String::new()
        };
        writeln!(
            out,
            "  #{:<3} {:<20} {texture:<28} {:<7} {} × {} m/repeat  {users} faces{scroll}",
            id.0,
            m.name,
            format!("{:?}", m.alpha),
            m.tiling.x,
            m.tiling.y
        )?;
    }

    let lights: Vec<_> = scene.entities_of(Kind::Light).collect();
    writeln!(out, "\nlights ({}):", lights.len())?;
    for e in lights {
        let at = scene.world_transform(e.id).translation;
        let line = match &e.kind {
            EntityKind::Light(Light::Sun {
                direction,
                intensity,
                shadows,
                ..
            }) => {
                format!(
                    "sun  direction {}  intensity {intensity}  shadows {shadows}",
                    v3(*direction)
                )
            }
            EntityKind::Light(Light::Omni {
                radius,
                intensity,
                shadows,
                ..
            }) => {
                format!(
                    "omni at {}  radius {radius} m  intensity {intensity}  shadows {shadows}",
                    v3(at.into())
                )
            }
            EntityKind::Light(Light::Hemisphere {
                ao_strength,
                ao_radius,
                ..
            }) => {
                format!("hemisphere ambient  AO {ao_strength} within {ao_radius} m")
            }
            _ => continue,
        };
        writeln!(out, "  {:<20} {line}", e.name)?;
    }

    let diagnostics = pebble_model::diagnostics::diagnose(&scene, Some(path));
    if !diagnostics.is_empty() || recovery.is_some() {
        writeln!(
            out,
            "\nwarnings ({}):",
            diagnostics.len() + usize::from(recovery.is_some())
        )?;
        for d in &diagnostics {
            writeln!(out, "  {}", d.message)?;
        }
        if let Some(r) = &recovery {
            writeln!(
                out,
                "  unsaved work from an earlier session is in {} (newer than the project)",
                r.path.display()
            )?;
        }
    }
    super::emit(&out)?;
    Ok(ExitCode::SUCCESS)
}
