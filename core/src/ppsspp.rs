//! Play in PPSSPP from the editor: one background job exports the scene (with its
//! bake), stages the memory stick (`services::ppsspp`), starts PPSSPP on it and
//! waits for it to close, then brings the captures taken into the project's
//! `captures/`. The status bar follows each stage; Stop (the same action again)
//! closes PPSSPP. Nothing here knows the UI beyond its status line.

use std::io::Read as _;
use std::path::PathBuf;
use std::process::Stdio;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use pebble_model::Scene;

use super::jobs::Job;
use super::status::{Level, Status};
use crate::services::ppsspp::{self, Stick};

/// How much of PPSSPP's error output a failure quotes (its end).
const STDERR_TAIL: usize = 2000;

/// The running launch, if any, and what the last one said.
#[derive(Debug, Default)]
pub struct PpssppState {
    job: Option<Job<String>>,
    pub status: Option<Status>,
}

/// What a launch needs from the editor.
#[derive(Debug, Clone)]
pub struct Launch {
    /// Preferences › PPSSPP: the program, and PPSSPP's memory stick (empty:
    /// find it, and a stick of the project's own).
    pub program: String,
    pub stick: String,
    /// The project's folder (its textures, its `captures/`, its stick).
    pub project_dir: PathBuf,
}

impl PpssppState {
    pub fn busy(&self) -> bool {
        self.job.is_some()
    }

    /// The stage shown while running (`None`: not running).
    pub fn stage(&self) -> Option<&str> {
        self.job.as_ref().map(|j| j.stage.as_str())
    }

    /// Asks PPSSPP to close (the launch then ends, with the captures brought in).
    pub fn stop(&self) {
        if let Some(job) = &self.job {
            job.cancel();
        }
    }

    /// Starts the launch. Refused at once, with why, when PPSSPP cannot be
    /// found or no memory stick can be used, or one runs already.
    pub fn start(&mut self, scene: &Scene, launch: Launch) -> Result<(), String> {
        if self.busy() {
            return Err("PPSSPP is already running (Stop closes it)".into());
        }
        let program = ppsspp::find_program(&launch.program, std::env::var_os("PATH"))?;
        let stick = ppsspp::stick_for(&launch.project_dir, &launch.stick)?;
        let scene = scene.clone();
        let job = Job::spawn(program.clone(), "exporting for PPSSPP…", move |job| {
            job.progress("exporting for PPSSPP…", None);
            let bytes = crate::services::export::to_bytes(&scene, launch.project_dir.clone(), true)
                .map_err(|e| format!("export failed: {e:#}"))?;
            let plan = crate::services::deploy::plan(
                ppsspp::GAME_FOLDER,
                bytes,
                &scene.settings().export.runtime_tunables,
            );
            let user = ppsspp::user_stick();
            ppsspp::stage(&stick, &plan, user.as_deref(), &mut |done, total| {
                let f = done as f64 / total.max(1) as f64;
                job.progress(
                    format!("staging the memory stick {:.0} %", 100.0 * f),
                    Some(f as f32),
                );
            })?;
            job.progress(
                "PPSSPP running (Esc in PPSSPP, or Stop, returns here)",
                None,
            );
            let outcome = run(&program, &stick, job.cancel_flag());
            // The captures come home whatever became of PPSSPP.
            let captures = ppsspp::collect_captures(&stick, &launch.project_dir)?;
            let brought = match captures.iter().filter(|c| c.ends_with(".bmp")).count() {
                0 => String::new(),
                n => format!("; {n} capture(s) brought into captures/"),
            };
            outcome.map(|how| format!("{how}{brought}"))
        });
        self.job = Some(job);
        self.status = Some(Status::quiet(Level::Info, "starting PPSSPP…"));
        Ok(())
    }

    /// Takes what the job reported; `Some` when it finished.
    pub fn poll(&mut self) -> Option<Result<String, String>> {
        Status::follow(&mut self.job, &mut self.status, "Play in PPSSPP: ")
    }
}

/// Runs PPSSPP on the stick until it closes, or until `stop` is set (then closes
/// it). Its output is not kept (PPSSPP logs a lot); the end of its error output
/// is quoted when it fails.
fn run(
    program: &std::path::Path,
    stick: &Stick,
    stop: &std::sync::atomic::AtomicBool,
) -> Result<String, String> {
    let mut child = ppsspp::command(program, stick)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start {}: {e}", program.display()))?;
    let tail = Arc::new(Mutex::new(Vec::<u8>::new()));
    let reader = child.stderr.take().map(|mut err| {
        let tail = tail.clone();
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n) = err.read(&mut buf) {
                if n == 0 {
                    break;
                }
                let mut t = tail.lock().unwrap_or_else(|e| e.into_inner());
                t.extend_from_slice(&buf[..n]);
                let excess = t.len().saturating_sub(STDERR_TAIL);
                t.drain(..excess);
            }
        })
    });
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break Ok(status),
            Ok(None) if stop.load(Ordering::Relaxed) => {
                let _ = child.kill();
                let _ = child.wait();
                break Err(());
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(100)),
            Err(e) => return Err(format!("lost track of PPSSPP: {e}")),
        }
    };
    if let Some(r) = reader {
        let _ = r.join();
    }
    let said = String::from_utf8_lossy(&tail.lock().unwrap_or_else(|e| e.into_inner()))
        .trim()
        .to_string();
    match status {
        Err(()) => Ok("PPSSPP closed (Stop)".into()),
        Ok(s) if s.success() => Ok("PPSSPP closed".into()),
        Ok(s) => Err(format!(
            "PPSSPP ended with {s}{}",
            if said.is_empty() {
                String::new()
            } else {
                format!(": {said}")
            }
        )),
    }
}
