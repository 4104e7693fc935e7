//! The PSP preview's lighting. The device draws the colours the export bakes into
//! the map (the sun with its shadows, the lights, the sky, ambient occlusion), not
//! the scene's own, so the viewport's PSP look draws the scene as exported — the
//! same bytes `pebble render --psp` and the runtime read — made in the background
//! a moment after each change. Until that map arrives (and while the scene moves
//! on) the live scene is drawn, unlit, and the viewport says the lights are being
//! baked. Without this the preview showed untextured-looking slabs where the
//! device shows lit steps: every face of a shape one flat colour.

use std::time::{Duration, Instant};

use pebble_model::Scene;
use pebble_render::DrawScene;

use pebble_core::jobs::Job;

/// How long the scene must stay unchanged before it is baked again.
pub const SETTLE: Duration = Duration::from_millis(300);

/// Follows the scene while the PSP look is on: the newest baked map, and the bake
/// in progress.
#[derive(Debug, Default)]
pub struct PspBake {
    /// A baked scene not yet handed to the GPU, and the revision it is of.
    ready: Option<(u64, DrawScene)>,
    /// The revision whose bake the GPU holds ([`Self::uploaded`]).
    shown: Option<u64>,
    job: Option<(u64, Job<DrawScene>)>,
    /// Since when the scene stands still.
    still: pebble_core::jobs::Still,
    /// Why the last bake failed (the export refused the scene), and of which
    /// revision.
    pub failed: Option<(u64, String)>,
}

impl PspBake {
    /// A moment after the scene changed, bakes it again in the background; takes
    /// a finished bake. Returns whether it waits for something (look again soon).
    pub fn update(&mut self, scene: &Scene, project_dir: &std::path::Path, now: Instant) -> bool {
        let revision = scene.revision();
        if let Some((r, job)) = &mut self.job
            && let Some(result) = job.poll()
        {
            let r = *r;
            self.job = None;
            match result {
                Ok(drawn) => {
                    self.ready = Some((r, drawn));
                    self.failed = None;
                }
                Err(e) => self.failed = Some((r, e)),
            }
        }
        let done = self.shown == Some(revision)
            || self.ready.as_ref().is_some_and(|(r, _)| *r == revision)
            || self.failed.as_ref().is_some_and(|(r, _)| *r == revision);
        if done {
            return self.ready.is_some();
        }
        let settled = self.still.for_at_least(revision, now, SETTLE);
        if settled && self.job.is_none() {
            let scene = scene.clone();
            let dir = project_dir.to_path_buf();
            let job = Job::spawn(dir.clone(), "baking the PSP preview", move |job| {
                let options = pebble_core::services::export::options(&scene, dir);
                let (bytes, _) =
                    pebble_io::export::export(&scene, &options, &mut |_| {}, job.cancel_flag())
                        .map_err(|e| e.to_string())?;
                let (map, _) = pbm::Map::read(&bytes).map_err(|e| e.to_string())?;
                Ok(DrawScene::from_map(&map))
            });
            self.job = Some((revision, job));
        }
        true
    }

    /// A finished bake for the GPU, once (its revision with it).
    pub fn take_ready(&mut self) -> Option<(u64, DrawScene)> {
        self.ready.take()
    }

    /// The GPU now holds the bake of `revision`.
    pub fn uploaded(&mut self, revision: u64) {
        self.shown = Some(revision);
    }

    /// Whether the picture shown is the bake of the scene as it is.
    pub fn is_current(&self, scene: &Scene) -> bool {
        self.shown == Some(scene.revision())
    }

    /// Another scene was opened (its revisions start again): nothing baked.
    pub fn forget(&mut self) {
        if let Some((_, job)) = self.job.take() {
            job.cancel();
        }
        *self = Self::default();
    }

    /// The line the viewport shows while its picture is not the bake yet.
    pub fn note(&self, scene: &Scene) -> Option<String> {
        if self.is_current(scene) {
            return None;
        }
        Some(match &self.failed {
            Some((r, why)) if *r == scene.revision() => format!(
                "PSP preview: unlit (the export refuses this scene: {})",
                why.lines().next().unwrap_or_default()
            ),
            _ => "PSP preview: baking the lights…".to_string(),
        })
    }
}
