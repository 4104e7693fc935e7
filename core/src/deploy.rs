//! Export & Deploy from the editor: the scene is exported (with its bake) and copied
//! with the bundled runtime to the chosen memory stick or folder on a background
//! thread, so the editor never stalls; progress and the outcome (or a clear error —
//! a pulled cable included) show in the status bar. The copy is
//! `pebble_io::deploy`: staged, verified, safe to interrupt.

use std::path::PathBuf;

use pebble_io::deploy::{self, DirVolume, Target};
use pebble_model::Scene;

use super::jobs::Job;
use super::status::{Level, Status};

/// The Deploy menu's state and the running job, if any.
#[derive(Default)]
pub struct DeployState {
    /// The target folder (a stick's root or any folder).
    pub target: String,
    /// Sticks found when the menu last opened.
    pub found: Vec<Target>,
    job: Option<Job<String>>,
    /// What the last job said (progress while running), with its level.
    pub status: Option<Status>,
    /// Live link: every save deploys to the target (a PSPLink host folder, which
    /// the runtime watches and reloads from).
    pub live_link: bool,
    /// A save came while a deployment ran: deploy again when it ends.
    pub live_pending: bool,
    /// Deployments started so far (a quick one may have ended by the next look).
    started: u64,
}

impl std::fmt::Debug for DeployState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DeployState")
            .field("target", &self.target)
            .field("busy", &self.busy())
            .field("status", &self.status)
            .field("live_link", &self.live_link)
            .finish()
    }
}

impl DeployState {
    pub fn busy(&self) -> bool {
        self.job.is_some()
    }

    /// How many deployments have started.
    pub fn started(&self) -> u64 {
        self.started
    }

    /// Starts exporting `scene` (its assets under `project_dir`) and copying it to
    /// the target. Refused while a job runs or without a target.
    pub fn start(&mut self, scene: &Scene, project_dir: PathBuf) -> Result<(), String> {
        if self.busy() {
            return Err("a deployment is already running".into());
        }
        let target = PathBuf::from(self.target.trim());
        if self.target.trim().is_empty() {
            return Err("choose where to deploy first (Deploy menu)".into());
        }
        let scene = scene.clone();
        let job = Job::spawn(target.clone(), "deploying…", move |job| {
            job.progress("exporting…", None);
            let bytes = crate::services::export::to_bytes(&scene, project_dir, true)
                .map_err(|e| format!("export failed: {e:#}"))?;
            let hash = pbm::fnv::fnv1a64(&bytes);
            let plan = crate::services::deploy::plan(
                crate::services::deploy::DEFAULT_FOLDER,
                bytes,
                &scene.settings().export.runtime_tunables,
            );
            let volume = DirVolume { root: target };
            let report = deploy::deploy(&volume, &plan, &mut |done, total| {
                let f = done as f64 / total.max(1) as f64;
                job.progress(format!("copying {:.0} %", 100.0 * f), Some(f as f32));
            })
            .map_err(|e| e.to_string())?;
            Ok(format!(
                "deployed to {}: {} written, {} unchanged (map {hash:016x}){}",
                report.folder.display(),
                if report.written.is_empty() {
                    "nothing".into()
                } else {
                    report.written.join(", ")
                },
                report.skipped.len(),
                if report.free_space_unknown {
                    "; the drive's free space is unknown, so it was not checked first"
                } else {
                    ""
                }
            ))
        });
        self.job = Some(job);
        self.started += 1;
        self.status = Some(Status::quiet(Level::Info, "deploying…"));
        Ok(())
    }

    /// Takes what the job reported since the last call; `Some` when it finished
    /// (Ok: what was done; Err: why not).
    pub fn poll(&mut self) -> Option<Result<String, String>> {
        Status::follow(&mut self.job, &mut self.status, "deploy failed: ")
    }
}
