//! One kind of background job for everything the editor does off the UI thread
//! (export, import, deploy, compare): a thread running the work, which reports its
//! stage and share done, looks at a Cancel flag, and ends in one result or one
//! failure message. The UI polls it once a frame; nothing here knows egui.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, Sender, TryRecvError, channel};

enum Message<T> {
    Progress(String, Option<f32>),
    Done(Result<T, String>),
}

/// What the work sees of its job: where to report progress and whether the user
/// asked it to stop.
#[derive(Debug)]
pub struct JobContext<T> {
    tx: Sender<Message<T>>,
    cancel: Arc<AtomicBool>,
}

impl<T> JobContext<T> {
    /// Reports the stage running and its share done (0..1; `None`: not known).
    pub fn progress(&self, stage: impl Into<String>, fraction: Option<f32>) {
        let _ = self.tx.send(Message::Progress(stage.into(), fraction));
    }

    /// The Cancel flag, for work that looks at it itself (the export does).
    pub fn cancel_flag(&self) -> &AtomicBool {
        &self.cancel
    }
}

/// A job running on its own thread.
pub struct Job<T> {
    /// What it works on (the file exported to, the capture compared…).
    pub path: PathBuf,
    rx: Receiver<Message<T>>,
    cancel: Arc<AtomicBool>,
    /// The stage running, as last reported.
    pub stage: String,
    /// Its share done (0..1), when known.
    pub fraction: Option<f32>,
}

impl<T> std::fmt::Debug for Job<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Job")
            .field("path", &self.path)
            .field("stage", &self.stage)
            .field("fraction", &self.fraction)
            .finish()
    }
}

impl<T: Send + 'static> Job<T> {
    /// Runs `work` on a new thread; `stage` is what it shows until it reports.
    pub fn spawn(
        path: PathBuf,
        stage: &str,
        work: impl FnOnce(&JobContext<T>) -> Result<T, String> + Send + 'static,
    ) -> Self {
        let (tx, rx) = channel();
        let cancel = Arc::new(AtomicBool::new(false));
        let context = JobContext {
            tx,
            cancel: cancel.clone(),
        };
        std::thread::spawn(move || {
            let result = work(&context);
            let _ = context.tx.send(Message::Done(result));
        });
        Self {
            path,
            rx,
            cancel,
            stage: stage.to_string(),
            fraction: None,
        }
    }
}

impl<T> Job<T> {
    /// Asks the work to stop (it ends with its own "cancelled" failure).
    pub fn cancel(&self) {
        self.cancel.store(true, Ordering::Relaxed);
    }

    /// Takes what the work reported since the last call: `Some` once it finished,
    /// with its result or why it failed (a thread that died says so).
    pub fn poll(&mut self) -> Option<Result<T, String>> {
        loop {
            match self.rx.try_recv() {
                Ok(Message::Progress(stage, fraction)) => {
                    self.stage = stage;
                    self.fraction = fraction;
                }
                Ok(Message::Done(r)) => return Some(r),
                Err(TryRecvError::Empty) => return None,
                Err(TryRecvError::Disconnected) => {
                    return Some(Err(format!(
                        "the background job stopped unexpectedly (during “{}”)",
                        self.stage
                    )));
                }
            }
        }
    }
}

/// How long the scene has stood still: the revision last seen and since when,
/// for work that follows the scene (the PSP budget, the PSP preview's bake) and
/// waits until the scene has stopped changing (a drag changes it every frame).
#[derive(Debug, Default)]
pub struct Still {
    seen: Option<(u64, std::time::Instant)>,
}

impl Still {
    /// Whether `revision` has been the scene's for at least `settle` (counted from
    /// the first time it is seen here).
    pub fn for_at_least(
        &mut self,
        revision: u64,
        now: std::time::Instant,
        settle: std::time::Duration,
    ) -> bool {
        match self.seen {
            Some((r, _)) if r == revision => {}
            _ => self.seen = Some((revision, now)),
        }
        self.seen
            .is_some_and(|(_, since)| now.duration_since(since) >= settle)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wait<T>(job: &mut Job<T>) -> Result<T, String> {
        for _ in 0..2000 {
            if let Some(r) = job.poll() {
                return r;
            }
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        panic!("the job never finished");
    }

    #[test]
    fn reports_progress_then_its_result() {
        let (go, wait_go) = channel::<()>();
        let mut job = Job::spawn(PathBuf::from("x"), "starting", move |ctx| {
            ctx.progress("half", Some(0.5));
            let _ = wait_go.recv();
            Ok(42)
        });
        assert_eq!(job.stage, "starting");
        for _ in 0..2000 {
            assert!(job.poll().is_none());
            if job.stage == "half" {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
        assert_eq!((job.stage.as_str(), job.fraction), ("half", Some(0.5)));
        go.send(()).expect("the job waits");
        assert_eq!(wait(&mut job), Ok(42));
    }

    #[test]
    fn cancel_reaches_the_work_and_a_dead_thread_is_a_failure() {
        let mut job = Job::<()>::spawn(PathBuf::new(), "looping", |ctx| {
            while !ctx.cancel_flag().load(Ordering::Relaxed) {
                std::thread::sleep(std::time::Duration::from_millis(1));
            }
            Err("cancelled".into())
        });
        job.cancel();
        assert_eq!(wait(&mut job), Err("cancelled".into()));

        let mut dead = Job::<()>::spawn(PathBuf::new(), "import", |_| panic!("a bug"));
        let e = wait(&mut dead).expect_err("fails");
        assert!(e.contains("stopped unexpectedly"), "{e}");
    }
}
