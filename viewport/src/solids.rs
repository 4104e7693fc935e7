//! The patrol spheres and ball-pit balls, drawn in the viewport as `pebble render`
//! and the PSP runtime draw them: the scene exported (without a bake) into the
//! runtime's own level (`pebble-play`) on a background job once edits have settled,
//! then the spheres where the scene clock puts them, every frame.
//!
//! A scene the PSP cannot hold (a 100 k-triangle import) still shows its spheres:
//! the level is then built without the meshes (patrols move; balls fall onto the
//! colliders), and the Log says so once — not once a frame, which buried the
//! export's own error under a thousand lines. A revision that failed is not built
//! again.

use std::sync::Arc;
use std::time::{Duration, Instant};

use pebble_model::Scene;
use pebble_render::SolidVertex;

use pebble_core::jobs::Job;

/// How long the scene must stay unchanged before the level is built again (a
/// gizmo drag changes it every frame).
const SETTLE: Duration = Duration::from_millis(300);

#[derive(Debug, Default)]
pub struct Solids {
    /// The level last built, and the scene revision it was built from.
    level: Option<(u64, Arc<pebble_play::Level>)>,
    /// A build in progress, for this revision.
    job: Option<(u64, Job<Built>)>,
    /// The revision whose build failed (not tried again until the scene changes).
    failed: Option<u64>,
    /// What the Log was last told, so a problem is said once.
    said: Option<String>,
    /// Whose spheres they are, for picking: the exported patrols in the map's
    /// order, and the ball pit (taken when the build started).
    owners: Owners,
    /// The owners of the build in progress.
    pending_owners: Option<Owners>,
    /// The spheres last drawn, each with its owner's id (0: none).
    drawn: Vec<(pebble_play::Sphere, u32)>,
    /// The revision last seen, and since when.
    seen: Option<(u64, Instant)>,
    /// The ball pit as simulated so far: steps of 1/60 s taken, and the balls.
    pit: Option<(u32, pebble_play::BallPit)>,
    /// The unit sphere of each colour drawn so far (its triangles cost four
    /// sines and cosines a corner, and a frame draws dozens of spheres).
    unit_spheres: Vec<(u32, Vec<Corner>)>,
}

/// The entities the level's spheres belong to.
#[derive(Debug, Default, Clone)]
struct Owners {
    patrols: Vec<u32>,
    pit: Option<u32>,
}

impl Owners {
    /// As the exporter writes them: patrols in scene order, the first ball pit.
    fn of(scene: &Scene) -> Self {
        Self {
            patrols: scene
                .exported_described("Patrol")
                .map(|(e, _)| e.id.0)
                .collect(),
            pit: scene
                .exported_described("BallPit")
                .next()
                .map(|(e, _)| e.id.0),
        }
    }
}

/// A built level, and why it was built without the meshes if it was.
type Built = (pebble_play::Level, Option<String>);

/// The scene with its meshes left out of the export (hierarchy and transforms kept),
/// for the spheres when the whole map cannot be built.
fn without_meshes(scene: &Scene) -> Scene {
    let mut data = scene.data().clone();
    for e in data.entities.values_mut() {
        if matches!(e.kind, pebble_model::entity::EntityKind::Mesh(_)) {
            e.exported = false;
        }
    }
    Scene::from_data(data, scene.ids().clone())
}

/// A corner of a sphere's triangles: where, and its lit colour.
type Corner = ([f32; 3], u32);

/// Steps of the ball pit's simulation taken at most in one frame (a scrub far
/// ahead catches up over a few frames instead of stalling one).
const STEPS_PER_FRAME: u32 = 600;

/// Whether the scene has anything the level would draw as spheres.
fn has_spheres(scene: &Scene) -> bool {
    scene.entities_described("Patrol").next().is_some()
        || scene.entities_described("BallPit").next().is_some()
}

impl Solids {
    /// Forgets the level (another scene was opened).
    pub fn clear(&mut self) {
        *self = Self::default();
    }

    /// Takes a finished build and starts another when the scene has changed and
    /// settled; returns whether work is pending (repaint soon).
    pub fn update(&mut self, scene: &Scene, folder: std::path::PathBuf) -> bool {
        let revision = scene.revision();
        // A new selection changes nothing the level holds.
        if let Some((built, level)) = &self.level
            && *built != revision
            && self.job.is_none()
        {
            let c = scene.changes_since(*built);
            if c.entities.is_empty()
                && c.removed.is_empty()
                && c.materials.is_empty()
                && !c.hierarchy
                && !c.settings
            {
                self.level = Some((revision, level.clone()));
            }
        }
        if let Some((r, job)) = &mut self.job
            && let Some(result) = job.poll()
        {
            let r = *r;
            self.job = None;
            match result {
                Ok((level, partial)) => {
                    self.level = Some((r, Arc::new(level)));
                    self.owners = self.pending_owners.take().unwrap_or_default();
                    self.pit = None;
                    self.unit_spheres.clear();
                    if let Some(e) = partial {
                        self.say(format!(
                            "patrols and balls are shown without the map's meshes (balls fall onto the colliders only): {e}"
                        ));
                    } else {
                        self.said = None;
                    }
                }
                Err(e) => {
                    self.failed = Some(r);
                    self.say(format!("patrols and balls not shown: {e}"));
                }
            }
        }
        if !has_spheres(scene) {
            self.level = None;
            return self.job.is_some();
        }
        let now = Instant::now();
        match self.seen {
            Some((r, _)) if r == revision => {}
            _ => self.seen = Some((revision, now)),
        }
        let built = self.level.as_ref().is_some_and(|(r, _)| *r == revision)
            || self.job.as_ref().is_some_and(|(r, _)| *r == revision);
        let settled = self
            .seen
            .is_some_and(|(_, since)| now.duration_since(since) >= SETTLE || self.level.is_none());
        if !built && settled && self.job.is_none() && self.failed != Some(revision) {
            self.pending_owners = Some(Owners::of(scene));
            let scene = scene.clone();
            let job = Job::spawn(folder.clone(), "building the level", move |_| {
                let level = |scene: &Scene| {
                    let bytes =
                        pebble_core::services::export::to_bytes(scene, folder.clone(), false)
                            .map_err(|e| format!("{e:#}"))?;
                    let (view, _) = pbm::MapView::parse(&bytes)
                        .map_err(|e| format!("the exported map: {e}"))?;
                    Ok::<_, String>(pebble_play::Level::from_view(&view).0)
                };
                match level(&scene) {
                    Ok(l) => Ok((l, None)),
                    Err(e) => level(&without_meshes(&scene)).map(|l| (l, Some(e))),
                }
            });
            self.job = Some((revision, job));
        }
        self.job.is_some() || !built
    }

    /// The spheres last drawn: centre, radius, owner.
    pub fn drawn(&self) -> Vec<([f32; 3], f32, pebble_model::EntityId)> {
        self.drawn
            .iter()
            .filter(|(_, id)| *id != 0)
            .map(|(s, id)| (s.centre, s.radius, pebble_model::EntityId(*id)))
            .collect()
    }

    /// The spheres last drawn as triangles for the ID pass, each with its owner's
    /// id (a click on a ball picks the ball pit, on the guard the patrol), for the
    /// owners `pickable` says may be picked (not hidden or locked).
    pub fn pick_triangles(
        &self,
        pickable: impl Fn(u32) -> bool,
    ) -> Vec<pebble_render::PickMarkerVertex> {
        let mut out = Vec::new();
        for (s, id) in &self.drawn {
            if *id == 0 || !pickable(*id) {
                continue;
            }
            let unit = self
                .unit_spheres
                .iter()
                .find(|(c, _)| *c == s.color)
                .map(|(_, u)| u);
            let Some(unit) = unit else { continue };
            out.extend(unit.iter().map(|&(p, _)| pebble_render::PickMarkerVertex {
                pos: pebble_play::shapes::on_sphere(p, s),
                id: *id,
            }));
        }
        out
    }

    /// Tells the Log `message` unless it was the last thing said.
    fn say(&mut self, message: String) {
        if self.said.as_deref() != Some(message.as_str()) {
            tracing::warn!(target: "pebble", "{message}");
            self.said = Some(message);
        }
    }

    /// Whether the level shown is the scene's as it is (nothing being built).
    pub fn ready(&self, scene: &Scene) -> bool {
        self.job.is_none()
            && (self
                .level
                .as_ref()
                .is_some_and(|(r, _)| *r == scene.revision())
                || self.failed == Some(scene.revision())
                || !has_spheres(scene))
    }

    /// The spheres where the clock at `t` puts them, as triangles: the patrols
    /// where `t` puts them, the ball pit simulated on from the last frame in the
    /// runtime's 1/60 s steps (from its start again when the clock went back).
    /// The spheres of owners `shown` says are drawn (a hidden ball pit's balls are
    /// hidden with it), where the scene clock `t` puts them.
    pub fn at(&mut self, t: f64, shown: impl Fn(u32) -> bool) -> Vec<SolidVertex> {
        let Some((_, level)) = &self.level else {
            self.drawn.clear();
            return Vec::new();
        };
        let mut spheres: Vec<pebble_play::Sphere> = level
            .patrols
            .iter()
            .map(|p| pebble_play::Sphere {
                centre: p.position(t),
                radius: p.radius,
                color: p.color,
            })
            .collect();
        let patrols = spheres.len();
        if let Some(spec) = &level.pit {
            let target = (t * 60.0).round().clamp(0.0, 36_000.0) as u32;
            if self.pit.as_ref().is_none_or(|(done, _)| *done > target) {
                self.pit = Some((0, pebble_play::BallPit::new(spec, level)));
            }
            if let Some((done, pit)) = &mut self.pit {
                let steps = (target - *done).min(STEPS_PER_FRAME);
                for _ in 0..steps {
                    pit.step(1.0 / 60.0);
                }
                *done += steps;
                spheres.extend(pebble_play::shapes::ball_spheres(pit));
            }
        }
        self.drawn = spheres
            .iter()
            .enumerate()
            .map(|(k, s)| {
                let owner = if k < patrols {
                    self.owners.patrols.get(k).copied()
                } else {
                    self.owners.pit
                };
                (*s, owner.unwrap_or(0))
            })
            .filter(|(_, owner)| *owner == 0 || shown(*owner))
            .collect();
        let spheres: Vec<pebble_play::Sphere> = self.drawn.iter().map(|(s, _)| *s).collect();
        let mut out = Vec::new();
        for s in &spheres {
            let unit = match self.unit_spheres.iter().position(|(c, _)| *c == s.color) {
                Some(i) => &self.unit_spheres[i].1,
                None => {
                    self.unit_spheres
                        .push((s.color, pebble_play::shapes::unit_sphere(s.color)));
                    &self.unit_spheres[self.unit_spheres.len() - 1].1
                }
            };
            out.extend(unit.iter().map(|&(p, color)| SolidVertex {
                pos: pebble_play::shapes::on_sphere(p, s),
                color,
            }));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The showcase's patrol and ball pit, built in the background and then
    /// drawn frame by frame exactly where the runtime's own evaluation of a frozen
    /// clock puts them — the clock running on, and scrubbed back.
    #[test]
    fn the_spheres_are_where_the_runtime_puts_them_frame_by_frame() {
        let path = pebble_core::services::showcase::showcase_path();
        let scene = pebble_model::project::load(&path).expect("the showcase");
        let folder = pebble_model::project::folder_of(&path);
        let mut solids = Solids::default();
        let deadline = Instant::now() + Duration::from_secs(60);
        while solids.level.is_none() {
            solids.update(&scene, folder.clone());
            assert!(Instant::now() < deadline, "the level was never built");
            std::thread::sleep(Duration::from_millis(20));
        }
        let level = solids
            .level
            .as_ref()
            .map(|(_, l)| l.clone())
            .expect("built");
        assert!(
            !level.patrols.is_empty() && level.pit.is_some(),
            "the showcase has both"
        );
        let reference = |t: f64| -> Vec<SolidVertex> {
            pebble_play::shapes::entities_at(&level, t)
                .iter()
                .flat_map(pebble_play::shapes::sphere_triangles)
                .map(|(pos, color)| SolidVertex { pos, color })
                .collect()
        };
        let mut seen = Vec::new();
        for t in [0.0, 0.25, 0.5, 1.0, 2.5, 0.75] {
            let now = solids.at(t, |_| true);
            assert!(!now.is_empty());
            assert_eq!(now, reference(t), "t = {t}");
            seen.push(now);
        }
        assert_ne!(seen[0], seen[4], "things moved");
    }

    /// A map the PSP cannot hold (here a wall 5 km out, past the ±2048 m limit):
    /// the spheres are still shown, built without the meshes, and the Log is told
    /// once, naming what stops the export — not again frame after frame.
    #[test]
    fn a_scene_the_psp_cannot_hold_still_shows_its_spheres_and_says_so_once() {
        let path = pebble_core::services::showcase::showcase_path();
        let showcase = pebble_model::project::load(&path).expect("the showcase");
        let folder = pebble_model::project::folder_of(&path);
        let mut data = showcase.data().clone();
        let wall = data
            .entities
            .values_mut()
            .find(|e| e.name == "Back wall")
            .expect("the showcase's back wall");
        wall.transform.translation.x = 5000.0;
        let scene = Scene::from_data(data, showcase.ids().clone());
        assert!(pebble_core::services::export::to_bytes(&scene, folder.clone(), false).is_err());
        let mut solids = Solids::default();
        let deadline = Instant::now() + Duration::from_secs(60);
        while !solids.ready(&scene) {
            solids.update(&scene, folder.clone());
            assert!(Instant::now() < deadline, "the level was never built");
            std::thread::sleep(Duration::from_millis(20));
        }
        assert!(
            !solids.at(0.5, |_| true).is_empty(),
            "the patrol and the balls are drawn"
        );
        let said = solids.said.clone().expect("the Log was told");
        assert!(
            said.contains("without the map's meshes") && said.contains("Back wall"),
            "{said}"
        );
        for _ in 0..20 {
            solids.update(&scene, folder.clone());
            assert!(solids.job.is_none(), "the same scene was built again");
        }
        assert_eq!(solids.said.as_deref(), Some(said.as_str()));
    }
}
