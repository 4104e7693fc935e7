//! Export & Deploy from the editor: the scene is exported (with its bake) and copied
//! with the bundled runtime to the chosen memory stick or folder on a background
//! thread, so the editor never stalls; progress and the outcome (or a clear error —
//! a pulled cable included) show in the status bar. The copy is
//! `pebble_io::deploy`: staged, verified, safe to interrupt.

use std::path::PathBuf;
use std::sync::mpsc::{Receiver, TryRecvError, channel};

use eframe::egui;
use pebble_io::deploy::{self, DirVolume, Target};
use pebble_model::Scene;

enum Event {
    Progress(String),
    Done(Result<String, String>),
}

/// The Deploy menu's state and the running job, if any.
#[derive(Default)]
pub struct DeployState {
    /// The target folder (a stick's root or any folder).
    pub target: String,
    /// Sticks found when the menu last opened.
    pub found: Vec<Target>,
    job: Option<Receiver<Event>>,
    /// What the last job said (progress while running).
    pub status: Option<String>,
}

impl std::fmt::Debug for DeployState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DeployState")
            .field("target", &self.target)
            .field("busy", &self.busy())
            .field("status", &self.status)
            .finish()
    }
}

impl DeployState {
    pub fn busy(&self) -> bool {
        self.job.is_some()
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
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            let send = |e: Event| {
                let _ = tx.send(e);
            };
            let result = (|| -> Result<String, String> {
                send(Event::Progress("exporting…".into()));
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
                    send(Event::Progress(format!(
                        "copying {:.0} %",
                        100.0 * done as f64 / total.max(1) as f64
                    )));
                })
                .map_err(|e| e.to_string())?;
                Ok(format!(
                    "deployed to {}: {} written, {} unchanged (map {hash:016x})",
                    report.folder.display(),
                    if report.written.is_empty() {
                        "nothing".into()
                    } else {
                        report.written.join(", ")
                    },
                    report.skipped.len()
                ))
            })();
            send(Event::Done(result));
        });
        self.job = Some(rx);
        self.status = Some("deploying…".into());
        Ok(())
    }

    /// Takes what the job reported since the last call; `Some` when it finished
    /// (Ok: what was done; Err: why not).
    pub fn poll(&mut self) -> Option<Result<String, String>> {
        let rx = self.job.as_ref()?;
        loop {
            match rx.try_recv() {
                Ok(Event::Progress(p)) => self.status = Some(p),
                Ok(Event::Done(r)) => {
                    self.job = None;
                    self.status = Some(match &r {
                        Ok(s) => s.clone(),
                        Err(e) => format!("deploy failed: {e}"),
                    });
                    return Some(r);
                }
                Err(TryRecvError::Empty) => return None,
                Err(TryRecvError::Disconnected) => {
                    self.job = None;
                    let e = "the deployment stopped unexpectedly".to_string();
                    self.status = Some(e.clone());
                    return Some(Err(e));
                }
            }
        }
    }

    /// The Deploy menu: sticks found, the target folder, Export & Deploy.
    pub fn menu_ui(&mut self, ui: &mut egui::Ui) -> bool {
        if ui.button("Find memory sticks").clicked()
            || self.found.is_empty() && self.target.is_empty()
        {
            self.found = deploy::find_targets(crate::services::deploy::DEFAULT_FOLDER);
        }
        if self.found.is_empty() {
            ui.label("No PSP found (USB Connection mode shows its memory stick).");
        }
        for t in self.found.clone() {
            let label = format!("{} — {}", t.label, t.root.display());
            if ui
                .selectable_label(self.target == t.root.display().to_string(), label)
                .clicked()
            {
                self.target = t.root.display().to_string();
            }
        }
        ui.horizontal(|ui| {
            let label = ui.label("Folder:");
            ui.add(
                egui::TextEdit::singleline(&mut self.target)
                    .hint_text("the memory stick's root, e.g. /media/PSP")
                    .desired_width(260.0),
            )
            .labelled_by(label.id);
        });
        ui.add_enabled(!self.busy(), egui::Button::new("Export & Deploy"))
            .clicked()
    }
}
