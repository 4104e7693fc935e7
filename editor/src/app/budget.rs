//! The PSP budget: what the exported map costs on the device, kept current while
//! the scene is edited. The scene is exported in the background (no light bake:
//! the bake changes colours, not the cost) a moment after each change, and the
//! map it makes is measured as the runtime loads it (`psp/src/world.rs`): its
//! meshes, triangles, textures, emitters and particles, the file's size; and as
//! the runtime draws it each frame (`psp/src/gfx.rs`): every non-empty mesh, each
//! patrol sphere and ball, one draw per emitter. Each figure is shown against the
//! device's limit, amber from 80 % of it, red past it — and red with the reason
//! when the export itself refuses the scene.
//!
//! What is in front of the camera is counted too (the PSP's projection at the
//! editor's eye): the runtime draws every chunk whatever the view, so that figure
//! says how much of the frame's work is on screen, not what it costs.

use std::time::{Duration, Instant};

use pebble_model::Scene;
use pebble_render::Camera;
use pebble_render::frustum::Frustum;

use pebble_core::jobs::Job;

/// How long the scene must stay unchanged before it is measured again.
pub const SETTLE: Duration = Duration::from_millis(400);

/// The device's limits (the exporter's and the format's).
pub const MAX_TRIANGLES: u64 = pebble_io::export::MAX_TRIANGLES;
pub const MAX_MAP_BYTES: u64 = pebble_io::export::MAX_MAP_BYTES;
pub const MAX_PARTICLES: u64 = pbm::emitter::MAX_PARTICLES_PER_MAP as u64;
pub const MAX_EMITTERS: u64 = pbm::emitter::MAX_EMITTERS as u64;
/// Triangles of a patrol sphere or a ball (6 × 8 segments).
const SPHERE_TRIANGLES: u64 = 96;

/// A drawn chunk: its bounds and triangles.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Chunk {
    pub lo: [f32; 3],
    pub hi: [f32; 3],
    pub triangles: u32,
}

/// What an exported map costs.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct MapCost {
    pub bytes: u64,
    pub chunks: Vec<Chunk>,
    /// Drawn triangles of the meshes (what the exporter's limit counts).
    pub mesh_triangles: u64,
    pub textures: usize,
    /// Texels of the textures as stored, and with the mip levels the runtime
    /// builds for power-of-two sides (about a third more).
    pub texture_bytes: u64,
    pub texture_bytes_with_mips: u64,
    pub emitters: u64,
    pub particles: u64,
    /// Patrol spheres and balls.
    pub spheres: u64,
}

/// A frame on the device: every non-empty chunk, each sphere, one draw per
/// emitter; particles as two triangles each.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FrameCost {
    pub draw_calls: u64,
    pub triangles: u64,
}

/// What is in front of a camera.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct InView {
    pub chunks: u64,
    pub triangles: u64,
}

impl MapCost {
    /// Measures a map's bytes as the runtime reads them.
    pub fn of_bytes(bytes: &[u8]) -> Result<Self, String> {
        let (view, _) = pbm::MapView::parse(bytes).map_err(|e| e.to_string())?;
        let map = pbm::Map::from_view(&view);
        let chunks: Vec<Chunk> = map
            .meshes
            .iter()
            .filter(|m| m.vertices.len() >= 3)
            .map(|m| Chunk {
                lo: m.bounds_min,
                hi: m.bounds_max,
                triangles: (m.vertices.len() / 3) as u32,
            })
            .collect();
        let texture_bytes: u64 = map.textures.iter().map(|t| t.data.len() as u64).sum();
        let texture_bytes_with_mips = map
            .textures
            .iter()
            .map(|t| {
                let base = t.data.len() as u64;
                if t.width.is_power_of_two() && t.height.is_power_of_two() {
                    base + base / 3
                } else {
                    base
                }
            })
            .sum();
        let field = map.particle_field(&mut |_| {});
        let (level, _) = pebble_play::Level::from_view(&view);
        let spheres = level.patrols.len() as u64 + level.pit.map_or(0, |p| u64::from(p.count));
        Ok(Self {
            bytes: bytes.len() as u64,
            mesh_triangles: chunks.iter().map(|c| u64::from(c.triangles)).sum(),
            chunks,
            textures: map.textures.len(),
            texture_bytes,
            texture_bytes_with_mips,
            emitters: field.emitters.len() as u64,
            particles: field.particles.len() as u64,
            spheres,
        })
    }

    pub fn frame(&self) -> FrameCost {
        FrameCost {
            draw_calls: self.chunks.len() as u64 + self.spheres + self.emitters,
            triangles: self.mesh_triangles + self.spheres * SPHERE_TRIANGLES + self.particles * 2,
        }
    }

    /// The chunks in front of the device's camera at the editor's eye.
    pub fn in_view(&self, camera: &Camera) -> InView {
        let psp = Camera::psp(camera.eye, camera.yaw, camera.pitch);
        let frustum =
            Frustum::from_clip_from_world(psp.clip_from_world(pebble_render::camera::PSP_ASPECT));
        let mut out = InView {
            chunks: 0,
            triangles: 0,
        };
        for c in &self.chunks {
            if frustum.intersects(c.lo.into(), c.hi.into()) {
                out.chunks += 1;
                out.triangles += u64::from(c.triangles);
            }
        }
        out
    }
}

/// How close a figure is to its limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Level {
    Fine,
    /// 80 % of the limit or more.
    Near,
    /// Past the limit: the export or the device would fail.
    Over,
}

pub fn level(value: u64, limit: u64) -> Level {
    if value > limit {
        Level::Over
    } else if value * 5 >= limit * 4 {
        Level::Near
    } else {
        Level::Fine
    }
}

/// One line of the readout.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    pub what: &'static str,
    pub value: String,
    /// The limit and the level, for a figure that has one.
    pub limit: Option<(String, Level)>,
    pub note: &'static str,
}

use pebble_core::services::import_review::count;

fn bytes(n: u64) -> String {
    let mib = n as f64 / (1024.0 * 1024.0);
    if mib >= 1.0 {
        format!("{mib:.2} MiB")
    } else {
        format!("{} KiB", n.div_ceil(1024))
    }
}

/// The readout's lines for `cost` seen from `camera`.
pub fn rows(cost: &MapCost, camera: &Camera) -> Vec<Row> {
    let frame = cost.frame();
    let view = cost.in_view(camera);
    vec![
        Row {
            what: "triangles in the map",
            value: format!(
                "{} ({} vertices)",
                count(cost.mesh_triangles),
                count(cost.mesh_triangles * 3)
            ),
            limit: Some((
                count(MAX_TRIANGLES),
                level(cost.mesh_triangles, MAX_TRIANGLES),
            )),
            note: "drawn triangles after cutting for the GE; vertices are never shared",
        },
        Row {
            what: "drawn each frame",
            value: format!(
                "{} draw calls, {} triangles",
                frame.draw_calls,
                count(frame.triangles)
            ),
            limit: None,
            note: "the runtime draws every chunk, sphere and emitter whatever the view",
        },
        Row {
            what: "in front of the camera",
            value: format!(
                "{} of {} chunks, {} triangles",
                view.chunks,
                cost.chunks.len(),
                count(view.triangles)
            ),
            limit: None,
            note: "the PSP's projection at the editor's eye",
        },
        Row {
            what: "map file",
            value: bytes(cost.bytes),
            limit: Some((bytes(MAX_MAP_BYTES), level(cost.bytes, MAX_MAP_BYTES))),
            note: "the runtime holds it about twice while it loads",
        },
        Row {
            what: "textures",
            value: format!(
                "{}: {} ({} with mips, in RAM)",
                cost.textures,
                bytes(cost.texture_bytes),
                bytes(cost.texture_bytes_with_mips)
            ),
            limit: None,
            note: "part of the map file; VRAM holds only the frame buffers",
        },
        Row {
            what: "particles",
            value: count(cost.particles),
            limit: Some((count(MAX_PARTICLES), level(cost.particles, MAX_PARTICLES))),
            note: "every emitter's particles together",
        },
        Row {
            what: "emitters",
            value: count(cost.emitters),
            limit: Some((count(MAX_EMITTERS), level(cost.emitters, MAX_EMITTERS))),
            note: "",
        },
    ]
}

pub use pebble_core::services::import_review::{HUGE_TEXTURE_SIDE, warnings as import_warnings};

/// The live readout: the newest measurement and the one in progress.
#[derive(Debug, Default)]
pub struct Budget {
    /// The scene revision measured, and what it costs.
    pub cost: Option<(u64, MapCost)>,
    /// Why the export refuses the scene as it is (red in the readout).
    pub refused: Option<(u64, String)>,
    job: Option<(u64, Job<MapCost>)>,
    /// Since when the scene stands still.
    still: pebble_core::jobs::Still,
    pub window_open: bool,
}

impl Budget {
    /// Follows the scene: a moment after it changed, measures it again in the
    /// background. Returns whether a measurement waits (look again soon).
    pub fn update(&mut self, scene: &Scene, project_dir: &std::path::Path, now: Instant) -> bool {
        let revision = scene.revision();
        if let Some((r, job)) = &mut self.job
            && let Some(result) = job.poll()
        {
            let r = *r;
            self.job = None;
            match result {
                Ok(cost) => {
                    self.cost = Some((r, cost));
                    self.refused = None;
                }
                Err(e) => self.refused = Some((r, e)),
            }
        }
        let measured = self.cost.as_ref().map(|(r, _)| *r) == Some(revision)
            || self.refused.as_ref().map(|(r, _)| *r) == Some(revision);
        if measured {
            return false;
        }
        let settled = self.still.for_at_least(revision, now, SETTLE);
        if settled && self.job.is_none() {
            let scene = scene.clone();
            let dir = project_dir.to_path_buf();
            let job = Job::spawn(dir.clone(), "measuring", move |job| {
                let mut options = pebble_core::services::export::options(&scene, dir);
                options.bake = false;
                let (bytes, _) =
                    pebble_io::export::export(&scene, &options, &mut |_| {}, job.cancel_flag())
                        .map_err(|e| e.to_string())?;
                MapCost::of_bytes(&bytes)
            });
            self.job = Some((revision, job));
        }
        true
    }

    /// Forgets the figures of the scene that was in place: another was opened (New,
    /// Open, a restore), whose revisions start again and would match the old
    /// figures until its first edit. The readout measures the new scene at once.
    pub fn forget(&mut self) {
        if let Some((_, job)) = self.job.take() {
            job.cancel();
        }
        self.cost = None;
        self.refused = None;
        self.still = pebble_core::jobs::Still::default();
    }

    /// The worst level of the figures with a limit (red when refused).
    pub fn worst(&self) -> Level {
        if self.refused.is_some() {
            return Level::Over;
        }
        let Some((_, c)) = &self.cost else {
            return Level::Fine;
        };
        [
            level(c.mesh_triangles, MAX_TRIANGLES),
            level(c.bytes, MAX_MAP_BYTES),
            level(c.particles, MAX_PARTICLES),
            level(c.emitters, MAX_EMITTERS),
        ]
        .into_iter()
        .max()
        .unwrap_or(Level::Fine)
    }

    /// The status bar's short form.
    pub fn summary(&self) -> String {
        if let Some((_, why)) = &self.refused {
            let first = why.lines().next().unwrap_or_default();
            return format!("PSP: the export refuses this scene ({first})");
        }
        match &self.cost {
            Some((_, c)) => format!(
                "PSP: {} / {} triangles · {} / {} · {} / {} particles",
                count(c.mesh_triangles),
                count(MAX_TRIANGLES),
                bytes(c.bytes),
                bytes(MAX_MAP_BYTES),
                c.particles,
                MAX_PARTICLES
            ),
            None => "PSP: measuring…".into(),
        }
    }
}

#[cfg(test)]
mod tests;
