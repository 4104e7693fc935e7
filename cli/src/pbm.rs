//! `pebble pbm info | validate | dump`: look inside a `.pbm` map and check it.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context as _;
use clap::Subcommand;
use pbm::fnv::fnv1a64_reference;
use pbm::particle::ParticleField;
use pbm::{Map, MapView, Warning};
use serde_json::{Value, json};

#[derive(Debug, Subcommand)]
pub enum PbmCommand {
    /// Print a readable summary: header, textures, meshes, colliders, metadata, emitters.
    Info { file: PathBuf },
    /// Check a map: exit 0 if valid, 1 on errors (warnings are listed).
    Validate {
        file: PathBuf,
        /// Fail on warnings and compliance issues too.
        #[arg(long)]
        strict: bool,
    },
    /// Print the whole structure; bulk data as counts and FNV-1a 64 digests.
    Dump {
        file: PathBuf,
        /// Write JSON (the only dump format).
        #[arg(long, required = true)]
        json: bool,
    },
}

pub fn run(cmd: PbmCommand) -> anyhow::Result<ExitCode> {
    match cmd {
        PbmCommand::Info { file } => info(&file),
        PbmCommand::Validate { file, strict } => validate(&file, strict),
        PbmCommand::Dump { file, json: _ } => dump(&file),
    }
}

fn read(path: &Path) -> anyhow::Result<Vec<u8>> {
    std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))
}

/// Parses the file; a format error becomes a message naming the file and offset.
fn parse<'a>(path: &Path, bytes: &'a [u8]) -> anyhow::Result<(MapView<'a>, Vec<Warning>)> {
    MapView::parse(bytes).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))
}

fn field_of(view: &MapView<'_>) -> ParticleField {
    match view.emitter_lump() {
        Some(lump) => {
            ParticleField::prepare(lump.records(), view.header().num_textures, &mut |_| {})
        }
        None => ParticleField::default(),
    }
}

fn v3(v: [f32; 3]) -> String {
    format!("({}, {}, {})", v[0], v[1], v[2])
}

fn preview(text: &str) -> String {
    let flat: String = text
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    if flat.chars().count() > 60 {
        format!("{}…", flat.chars().take(60).collect::<String>())
    } else {
        flat
    }
}

fn info(path: &Path) -> anyhow::Result<ExitCode> {
    let bytes = read(path)?;
    let (view, warnings) = parse(path, &bytes)?;
    let h = view.header();
    let mut out = String::new();
    let magic = String::from_utf8_lossy(&h.magic.to_le_bytes()).into_owned();
    writeln!(
        out,
        "{}: PBM {} (magic \"{magic}\"), {} bytes",
        path.display(),
        h.version,
        bytes.len()
    )?;
    writeln!(out, "spawn {} yaw {} rad", v3(h.spawn_pos), h.spawn_rot)?;
    writeln!(out, "bounds {} .. {}", v3(h.bounds_min), v3(h.bounds_max))?;

    writeln!(out, "\ntextures ({}):", h.num_textures)?;
    for t in view.textures() {
        let atlas = if pbm::format::is_atlas_name(t.name.as_str()) {
            "  atlas"
        } else {
            ""
        };
        writeln!(
            out,
            "  {:>3} {:<24} {:>4}×{:<4} {:<8} {:<7} {:>8} bytes{atlas}",
            t.index,
            t.name.as_str(),
            t.width,
            t.height,
            t.format.name(),
            t.alpha_mode.name(),
            t.data.len()
        )?;
    }
    let total = view.total_vertices();
    writeln!(
        out,
        "\nmeshes ({}, {} vertices, {} triangles):",
        h.num_meshes,
        total,
        total / 3
    )?;
    for m in view.meshes() {
        let scroll = if m.uv_scroll != [0.0, 0.0] {
            format!("  scroll ({}, {}) rep/s", m.uv_scroll[0], m.uv_scroll[1])
        } else {
            String::new()
        };
        writeln!(
            out,
            "  {:>3} {:<24} tex {:>3} {:>5} verts  {} .. {}{scroll}",
            m.index,
            m.name.as_str(),
            m.texture_id,
            m.num_vertices,
            v3(m.bounds_min),
            v3(m.bounds_max)
        )?;
    }
    writeln!(out, "\ncolliders ({}):", h.num_colliders)?;
    for c in view.colliders() {
        writeln!(
            out,
            "  {:>3} {:<24} {:<7} {:>5} tris  {} .. {}",
            c.index,
            c.name.as_str(),
            c.kind.name(),
            c.num_triangles,
            v3(c.bounds_min),
            v3(c.bounds_max)
        )?;
    }
    writeln!(out, "\nmetadata ({}):", h.num_metadata)?;
    for m in view.metadata() {
        let text = match m.text() {
            Some(t) if m.kind.is_text() => format!("  \"{}\"", preview(t)),
            _ => String::new(),
        };
        writeln!(
            out,
            "  {:>3} {:<24} {:<7} {:>6} bytes{text}",
            m.index,
            m.tag.as_str(),
            m.kind.name(),
            m.payload.len()
        )?;
    }
    let field = field_of(&view);
    if view.emitter_lump().is_some() {
        writeln!(
            out,
            "\nemitters ({} shown, {} particles):",
            field.emitters.len(),
            field.particles.len()
        )?;
        for e in &field.emitters {
            let p = &e.params;
            let mode = if p.is_additive() {
                "additive"
            } else {
                "blended"
            };
            writeln!(
                out,
                "  {:<24} {:>3} particles  {mode:<8} tex {:>3}  at {}  life {}..{} s",
                p.name.as_str(),
                p.count,
                p.texture_id,
                v3(p.pos),
                p.life_min,
                p.life_max
            )?;
        }
    }
    if !warnings.is_empty() {
        writeln!(out, "\nwarnings ({}):", warnings.len())?;
        for w in &warnings {
            writeln!(out, "  {w}")?;
        }
    }
    super::emit(&out)?;
    Ok(ExitCode::SUCCESS)
}

fn validate(path: &Path, strict: bool) -> anyhow::Result<ExitCode> {
    let bytes = read(path)?;
    let (view, warnings) = match MapView::parse(&bytes) {
        Ok(parsed) => parsed,
        Err(e) => {
            eprintln!("{}: invalid: {e}", path.display());
            return Ok(ExitCode::FAILURE);
        }
    };
    let issues = pbm::compliance::check(&Map::from_view(&view));
    for w in &warnings {
        eprintln!("{}: warning: {w}", path.display());
    }
    for i in &issues {
        eprintln!("{}: compliance: {i}", path.display());
    }
    let findings = warnings.len() + issues.len();
    if strict && findings > 0 {
        super::emit(&format!(
            "{}: {findings} warnings or compliance issues (--strict)\n",
            path.display()
        ))?;
        return Ok(ExitCode::FAILURE);
    }
    super::emit(&format!(
        "{}: valid PBM {} ({} warnings, {} compliance issues)\n",
        path.display(),
        view.version(),
        warnings.len(),
        issues.len()
    ))?;
    Ok(ExitCode::SUCCESS)
}

fn hex(data: &[u8]) -> String {
    format!("{:016x}", fnv1a64_reference(data))
}

fn f(v: f32) -> Value {
    json!(v)
}

fn dump(path: &Path) -> anyhow::Result<ExitCode> {
    let bytes = read(path)?;
    let (view, warnings) = parse(path, &bytes)?;
    let h = view.header();
    let textures: Vec<Value> = view
        .textures()
        .map(|t| {
            json!({
                "offset": t.offset, "name": t.name.as_str(), "width": t.width, "height": t.height,
                "format": t.format.code(), "format_name": t.format.name(),
                "alpha_mode": t.alpha_mode.code(), "alpha_mode_name": t.alpha_mode.name(),
                "data_size": t.data.len(), "fnv1a64": hex(t.data),
            })
        })
        .collect();
    let meshes: Vec<Value> = view
        .meshes()
        .map(|m| {
            let first = m.vertices().next().unwrap_or_default();
            json!({
                "offset": m.offset, "name": m.name.as_str(), "texture_id": m.texture_id,
                "num_vertices": m.num_vertices, "bounds_min": m.bounds_min, "bounds_max": m.bounds_max,
                "uv_scroll": m.uv_scroll, "vertices_fnv1a64": hex(m.vertex_bytes),
                "first_vertex": { "u": f(first.uv[0]), "v": f(first.uv[1]), "color": first.color, "xyz": first.pos },
            })
        })
        .collect();
    let colliders: Vec<Value> = view
        .colliders()
        .map(|c| {
            json!({
                "offset": c.offset, "name": c.name.as_str(), "type": c.kind.code(), "type_name": c.kind.name(),
                "bounds_min": c.bounds_min, "bounds_max": c.bounds_max, "num_triangles": c.num_triangles,
                "triangles_fnv1a64": hex(c.triangle_bytes),
            })
        })
        .collect();
    let metadata: Vec<Value> = view
        .metadata()
        .map(|m| {
            let mut v = json!({
                "offset": m.offset, "tag": m.tag.as_str(), "type": m.kind.code(), "type_name": m.kind.name(),
                "data_size": m.payload.len(), "fnv1a64": hex(m.payload),
            });
            if let (true, Some(text)) = (m.kind.is_text(), m.text()) {
                v["text"] = json!(text);
            }
            v
        })
        .collect();
    let field = field_of(&view);
    let emitters: Vec<Value> = field
        .emitters
        .iter()
        .map(|e| {
            let p = &e.params;
            json!({
                "name": p.name.as_str(), "pos": p.pos, "dir": p.dir, "spread": f(p.spread),
                "speed_min": f(p.speed_min), "speed_max": f(p.speed_max),
                "life_min": f(p.life_min), "life_max": f(p.life_max), "gravity": p.gravity,
                "damping": f(p.damping), "size_min": f(p.size_min), "size_max": f(p.size_max),
                "size_mid": f(p.size_mid), "size_end": f(p.size_end), "aspect": f(p.aspect),
                "angle_min": f(p.angle_min), "angle_max": f(p.angle_max),
                "spin_min": f(p.spin_min), "spin_max": f(p.spin_max),
                "wobble_amp": f(p.wobble_amp), "wobble_freq": f(p.wobble_freq),
                "spawn_radius": f(p.spawn_radius), "knee": f(p.knee),
                "color_start": p.color_start, "color_mid": p.color_mid, "color_end": p.color_end,
                "texture_id": p.texture_id, "count": p.count, "flags": p.flags,
                "atlas_cols": p.atlas_cols, "atlas_rows": p.atlas_rows, "anim_loops": p.anim_loops,
                "seed": p.seed, "first_particle": e.first_particle, "cull_radius": f(e.cull_radius),
            })
        })
        .collect();
    let particles: Vec<Value> = field
        .particles
        .iter()
        .map(|p| {
            json!({
                "life": f(p.life), "inv_life": f(p.inv_life), "phase": f(p.phase), "speed": f(p.speed),
                "size": f(p.size), "spin": f(p.spin), "angle0": f(p.angle0),
                "wobble_phase": f(p.wobble_phase), "anim_offset": f(p.anim_offset),
                "dir": p.dir, "spawn": p.spawn,
            })
        })
        .collect();
    let compliance: Vec<String> = pbm::compliance::check(&Map::from_view(&view))
        .iter()
        .map(ToString::to_string)
        .collect();
    let doc = json!({
        "file": path.display().to_string(),
        "size": bytes.len(),
        "hash": "FNV-1a 64 with the reference tools' offset basis 1469598103934665603, as in the fixtures' expected files",
        "header": {
            "magic": h.magic, "version": h.version.number(), "num_textures": h.num_textures,
            "num_meshes": h.num_meshes, "num_colliders": h.num_colliders, "num_metadata": h.num_metadata,
            "spawn_pos": h.spawn_pos, "spawn_rot": f(h.spawn_rot),
            "bounds_min": h.bounds_min, "bounds_max": h.bounds_max,
        },
        "total_vertices": view.total_vertices(),
        "textures": textures,
        "meshes": meshes,
        "colliders": colliders,
        "metadata": metadata,
        "num_emitters": field.emitters.len(),
        "num_particles": field.particles.len(),
        "emitters": emitters,
        "particles": particles,
        "warnings": warnings.iter().map(|w| json!({ "offset": w.offset, "message": w.to_string() })).collect::<Vec<_>>(),
        "compliance": compliance,
    });
    let mut text = serde_json::to_string_pretty(&doc)?;
    text.push('\n');
    super::emit(&text)?;
    Ok(ExitCode::SUCCESS)
}
