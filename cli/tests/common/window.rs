//! The real editor window under Xvfb, driven by xdotool: a display of the test's
//! own, the xdotool command, and the wait for the window to show (then the
//! keyboard focus a desktop would give it; there is no window manager).

use std::io::{BufRead as _, BufReader};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use eframe::egui;

/// A display of our own, ours until dropped (the server is killed then, so a
/// failing test leaves no Xvfb behind).
pub struct Xvfb {
    server: Child,
    /// The server's own messages (`Xvfb` writes them to stderr).
    log: PathBuf,
}

impl Xvfb {
    pub fn kill(&mut self) -> std::io::Result<()> {
        self.server.kill()
    }

    pub fn wait(&mut self) -> std::io::Result<std::process::ExitStatus> {
        self.server.wait()
    }

    /// What the server said, and whether it still runs: for a failure's message.
    pub fn report(&mut self) -> String {
        let state = match self.server.try_wait() {
            Ok(Some(status)) => format!("Xvfb ended ({status})"),
            Ok(None) => "Xvfb still runs".to_owned(),
            Err(e) => format!("Xvfb cannot be polled: {e}"),
        };
        let said = std::fs::read_to_string(&self.log).unwrap_or_default();
        format!("{state}; it said:\n{said}")
    }
}

impl Drop for Xvfb {
    fn drop(&mut self) {
        let _ = self.server.kill();
        let _ = self.server.wait();
        let _ = std::fs::remove_file(&self.log);
    }
}

/// How many servers [`start_xvfb`] starts before it gives up.
const XVFB_TRIES: usize = 3;

/// A display of our own: `Xvfb -displayfd` says which number it took, and the
/// display is ours once a client (xdotool) has been served on it. A server that
/// ends first, or never serves, is reported on stderr and replaced.
///
/// `-noreset`: by default Xvfb resets when its last client leaves, and a client
/// that connects during the reset is refused ("Failed to open connection to X
/// server"). Here the last client leaves all the time (each xdotool call, each
/// editor closed between runs), and the next one comes at once: two loops of
/// 300 `xdotool getdisplaygeometry` on one server lost 46–65 each without
/// `-noreset`, none with it. CI twice lost an editor so. A desktop's server
/// does not reset either: its session holds it.
pub fn start_xvfb() -> (Xvfb, String) {
    let mut failures = Vec::new();
    for attempt in 1..=XVFB_TRIES {
        match try_xvfb() {
            Ok(started) => return started,
            Err(failure) => {
                eprintln!("Xvfb, try {attempt} of {XVFB_TRIES}: {failure}");
                failures.push(failure);
            }
        }
    }
    panic!(
        "no usable Xvfb display in {XVFB_TRIES} tries:\n{}",
        failures.join("\n")
    );
}

fn try_xvfb() -> Result<(Xvfb, String), String> {
    static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let k = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let log = std::env::temp_dir().join(format!("pebble-xvfb-{}-{k}.log", std::process::id()));
    let log_file = std::fs::File::create(&log).map_err(|e| format!("{}: {e}", log.display()))?;
    let mut server = Command::new("Xvfb")
        .args([
            "-displayfd",
            "1",
            "-screen",
            "0",
            "1280x800x24",
            "-nolisten",
            "tcp",
            "-noreset",
        ])
        .stdout(Stdio::piped())
        .stderr(log_file)
        .spawn()
        .expect("Xvfb starts (apt-get install xvfb)");
    let stdout = server.stdout.take().expect("stdout");
    let mut xvfb = Xvfb { server, log };
    let mut line = String::new();
    let read = BufReader::new(stdout).read_line(&mut line);
    let number = line.trim();
    if read.is_err() || number.is_empty() || number.parse::<u32>().is_err() {
        return Err(format!("it named no display ({line:?}); {}", xvfb.report()));
    }
    let display = format!(":{number}");
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let served = ask_geometry(&display)
            .map_err(|e| format!("xdotool does not run ({e}); apt-get install xdotool"))?;
        if served.status.success() {
            return Ok((xvfb, display));
        }
        if matches!(xvfb.server.try_wait(), Ok(Some(_))) || Instant::now() > deadline {
            return Err(format!(
                "{display} serves no client ({}); {}",
                String::from_utf8_lossy(&served.stderr).trim(),
                xvfb.report()
            ));
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

pub fn xdotool(display: &str, args: &[String]) {
    let status = Command::new("xdotool")
        .args(args)
        .env("DISPLAY", display)
        .status()
        .expect("xdotool runs (apt-get install xdotool)");
    assert!(status.success(), "xdotool {args:?} failed");
}

/// A point as xdotool's two whole-pixel arguments.
pub fn xy(p: egui::Pos2) -> [String; 2] {
    [format!("{}", p.x.round()), format!("{}", p.y.round())]
}

/// Waits for the editor's window to be mapped (at most 90 s), then gives it the
/// keyboard focus. `Err` with the editor's exit status when it ended first.
pub fn wait_for_window(display: &str, editor: &mut Child) -> Result<(), String> {
    let started = Instant::now();
    loop {
        let found = Command::new("xdotool")
            // Mapped (viewable), or the focus below fails with BadMatch.
            .args(["search", "--onlyvisible", "--name", "Pebble"])
            .env("DISPLAY", display)
            .output()
            .is_ok_and(|o| o.status.success() && !o.stdout.is_empty());
        if found {
            xdotool(
                display,
                &[
                    "search".into(),
                    "--onlyvisible".into(),
                    "--name".into(),
                    "Pebble".into(),
                    "windowfocus".into(),
                ],
            );
            return Ok(());
        }
        if let Some(status) = editor.try_wait().expect("polls") {
            return Err(status.to_string());
        }
        assert!(
            started.elapsed() < Duration::from_secs(90),
            "no editor window after 90 s"
        );
        std::thread::sleep(Duration::from_millis(250));
    }
}

/// What the editor said in its last `pebble-frame` line (`PEBBLE_FRAME_ECHO`).
#[derive(Debug, Default, Clone, Copy, PartialEq)]
pub struct Echo {
    pub frame: u64,
    pub pointer: Option<(i32, i32)>,
    pub down: bool,
    pub presses: u64,
    pub releases: u64,
    pub keys: u64,
    /// Wheel events taken, and the notches they came to.
    pub wheel_events: u64,
    pub notches: f32,
    /// The level built in the background drawn as the scene is.
    pub level: bool,
    /// The PSP preview on, showing the scene's bake.
    pub psp_preview: bool,
}

impl Echo {
    fn parse(line: &str) -> Option<Self> {
        let w: Vec<&str> = line.split_whitespace().collect();
        if w.len() != 20 || w[0] != "pebble-frame" {
            return None;
        }
        let num = |k: usize| w[k].parse::<u64>().ok();
        Some(Self {
            frame: num(1)?,
            pointer: w[3].parse().ok().zip(w[4].parse().ok()),
            down: w[6] == "1",
            presses: num(8)?,
            releases: num(10)?,
            keys: num(12)?,
            wheel_events: num(14)?,
            notches: w[15].parse().ok()?,
            level: w[17] == "1",
            psp_preview: w[19] == "1",
        })
    }
}

/// The real editor driven by xdotool, each input waited for until the editor's
/// frame echo shows it taken (never a fixed sleep). Its stderr is kept, less the
/// echo, for the test's checks.
pub struct Driver {
    pub display: String,
    lines: std::sync::mpsc::Receiver<String>,
    pub last: Echo,
    pub stderr: String,
    /// Where the window's inside starts on the screen: X puts Pebble's window at
    /// the corner, Wine lower (its own frame); positions given are the window's.
    pub origin: egui::Vec2,
}

/// How long one input may take to land before the test calls it a hang.
const INPUT_CEILING: Duration = Duration::from_secs(60);

impl Driver {
    /// Reads `editor`'s stderr (started with `PEBBLE_FRAME_ECHO=1` and a piped
    /// stderr) on a thread of its own.
    pub fn new(display: &str, editor: &mut Child) -> Self {
        let (tx, lines) = std::sync::mpsc::channel();
        let stderr = editor.stderr.take().expect("the editor's stderr is piped");
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Self {
            display: display.to_owned(),
            lines,
            last: Echo::default(),
            stderr: String::new(),
            origin: egui::Vec2::ZERO,
        }
    }

    /// Waits until a frame's echo satisfies `done` (the last one seen may
    /// already); panics after [`INPUT_CEILING`] or when the editor's stderr ends.
    pub fn wait_for(&mut self, what: &str, done: impl Fn(&Echo) -> bool) {
        let deadline = Instant::now() + INPUT_CEILING;
        while !done(&self.last) {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => match Echo::parse(&line) {
                    Some(echo) => self.last = echo,
                    None => {
                        self.stderr.push_str(&line);
                        self.stderr.push('\n');
                    }
                },
                Err(std::sync::mpsc::RecvTimeoutError::Timeout) => panic!(
                    "the editor never showed {what} (last frame: {:?}); its stderr:\n{}",
                    self.last, self.stderr
                ),
                Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => panic!(
                    "the editor ended before {what}; its stderr:\n{}",
                    self.stderr
                ),
            }
        }
    }

    /// Waits for `frames` more frames to be drawn.
    pub fn frames(&mut self, frames: u64) {
        let until = self.last.frame + frames;
        self.wait_for(&format!("frame {until}"), |e| e.frame >= until);
    }

    /// Takes what is left on the editor's stderr (after it ended).
    pub fn finish(&mut self) -> String {
        while let Ok(line) = self.lines.recv_timeout(Duration::from_secs(5)) {
            if Echo::parse(&line).is_none() {
                self.stderr.push_str(&line);
                self.stderr.push('\n');
            }
        }
        std::mem::take(&mut self.stderr)
    }

    fn xdotool(&self, args: &[&str]) {
        let args: Vec<String> = args.iter().map(|a| (*a).to_owned()).collect();
        xdotool(&self.display, &args);
    }

    /// The pointer moved to `at` (in the window), and seen there.
    pub fn move_to(&mut self, at: egui::Pos2) {
        let [x, y] = xy(at + self.origin);
        self.xdotool(&["mousemove", &x, &y]);
        let [x, y] = xy(at);
        let want = (x.parse::<i32>().unwrap_or(0), y.parse::<i32>().unwrap_or(0));
        self.wait_for(&format!("the pointer at {want:?}"), |e| {
            e.pointer
                .is_some_and(|(px, py)| (px - want.0).abs() <= 1 && (py - want.1).abs() <= 1)
        });
    }

    /// The left button pressed where the pointer is, and seen down.
    pub fn press(&mut self) {
        let before = self.last.presses;
        self.xdotool(&["mousedown", "1"]);
        self.wait_for("the press", |e| e.presses > before);
    }

    /// The left button let go, and seen released.
    pub fn release(&mut self) {
        let before = self.last.releases;
        self.xdotool(&["mouseup", "1"]);
        self.wait_for("the release", |e| e.releases > before);
    }

    /// A click at `at`: the move, the press and the release, each seen.
    pub fn click(&mut self, at: egui::Pos2) {
        self.move_to(at);
        self.press();
        self.release();
        self.frames(1);
    }

    /// A left drag from `from` to `to` in `moves` moves, each seen.
    pub fn drag(&mut self, from: egui::Pos2, to: egui::Pos2, moves: usize) {
        self.move_to(from);
        self.press();
        for k in 1..=moves {
            self.move_to(from + (to - from) * (k as f32 / moves as f32));
        }
        self.release();
        self.frames(1);
    }

    /// A key (xdotool's name for it, with modifiers: `ctrl+s`), seen pressed.
    pub fn key(&mut self, key: &str) {
        let before = self.last.keys;
        self.xdotool(&["key", key]);
        self.wait_for(&format!("the key {key}"), |e| e.keys > before);
        self.frames(1);
    }
}

/// The editor on `project` in `xvfb`'s display, with `home` as its home and data
/// folders, echoing its frames: started, its window up and focused, three frames
/// drawn. Panics with its stderr and the server's when it ends before its window
/// shows.
pub fn start_editor(
    xvfb: &mut Xvfb,
    display: &str,
    home: &std::path::Path,
    project: &std::path::Path,
) -> (Child, Driver) {
    start_editor_with(xvfb, display, home, project, &[])
}

/// [`start_editor`], with more arguments to `pebble open` (`--cam …`).
pub fn start_editor_with(
    xvfb: &mut Xvfb,
    display: &str,
    home: &std::path::Path,
    project: &std::path::Path,
    args: &[&str],
) -> (Child, Driver) {
    start_window(xvfb, display, editor_command(home, project, args))
}

/// `command` (this build's `pebble`, or pebble.exe under Wine) started in `xvfb`'s
/// display with its frame echo read by a [`Driver`]: its window up and focused,
/// three frames drawn. Panics with its stderr and the server's when it ends before
/// its window shows.
pub fn start_window(xvfb: &mut Xvfb, display: &str, mut command: Command) -> (Child, Driver) {
    let mut editor = command
        .env("DISPLAY", display)
        .env("PEBBLE_FRAME_ECHO", "1")
        .env_remove("WAYLAND_DISPLAY")
        .stdout(Stdio::null())
        // Read all along by the driver (a full pipe would stall the editor).
        .stderr(Stdio::piped())
        .spawn()
        .expect("the editor starts");
    let mut driver = Driver::new(display, &mut editor);
    // Its window is up once xdotool finds it; it takes the keyboard as a desktop
    // would give it (no window manager here).
    if let Err(status) = wait_for_window(display, &mut editor) {
        let serves = if display_serves(display) {
            "serves"
        } else {
            "does not serve"
        };
        panic!(
            "the editor exited ({status}) before its window showed; {display} {serves} \
             xdotool now. The editor said:\n{}\n{}",
            driver.finish(),
            xvfb.report()
        );
    }
    // The first frames laid out (the toolbar where the layout has it).
    driver.frames(3);
    (editor, driver)
}

/// Whether a client (xdotool) is served on `display`.
pub fn display_serves(display: &str) -> bool {
    ask_geometry(display).is_ok_and(|o| o.status.success())
}

/// One client's visit to `display`: xdotool asks for the screen's size.
fn ask_geometry(display: &str) -> std::io::Result<std::process::Output> {
    Command::new("xdotool")
        .arg("getdisplaygeometry")
        .env("DISPLAY", display)
        .output()
}

/// `pebble open project args…` with `home` as its home and data folders.
fn editor_command(home: &std::path::Path, project: &std::path::Path, args: &[&str]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_pebble"));
    command
        .arg("open")
        .arg(project)
        .args(args)
        .env("HOME", home)
        .env("XDG_DATA_HOME", home.join("data"))
        .env("PEBBLE_DATA_DIR", home.join("pebble-data"));
    command
}

/// A fresh copy of the showcase (`pebble showcase`) in `home/showcase`; returns
/// its project file.
pub fn showcase_in(home: &std::path::Path) -> std::path::PathBuf {
    let _ = std::fs::remove_dir_all(home);
    std::fs::create_dir_all(home).expect("a home");
    let dir = home.join("showcase");
    let status = Command::new(env!("CARGO_BIN_EXE_pebble"))
        .arg("showcase")
        .arg(&dir)
        .stdout(Stdio::null())
        .status()
        .expect("pebble showcase runs");
    assert!(status.success(), "pebble showcase {}", dir.display());
    dir.join("showcase.pebble.ron")
}

/// The screen as X has it, a PNG by ImageMagick's `import` (what a person's
/// screenshot tool takes).
pub fn screenshot(display: &str, out: &std::path::Path) -> image::RgbaImage {
    let status = Command::new("import")
        .args(["-display", display, "-window", "root"])
        .arg(out)
        .status()
        .expect("ImageMagick's import runs (apt-get install imagemagick)");
    assert!(status.success(), "import took no screenshot");
    image::open(out).expect("reads the screenshot").to_rgba8()
}
