//! The real editor window under Xvfb, driven by xdotool: a display of the test's
//! own, the xdotool command, and the wait for the window to show (then the
//! keyboard focus a desktop would give it; there is no window manager).

use std::io::{BufRead as _, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use eframe::egui;

/// A display of our own: `Xvfb -displayfd` says which number it took.
pub fn start_xvfb() -> (Child, String) {
    let mut xvfb = Command::new("Xvfb")
        .args([
            "-displayfd",
            "1",
            "-screen",
            "0",
            "1280x800x24",
            "-nolisten",
            "tcp",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("Xvfb starts (apt-get install xvfb)");
    let mut line = String::new();
    BufReader::new(xvfb.stdout.take().expect("stdout"))
        .read_line(&mut line)
        .expect("Xvfb says its display");
    let display = format!(":{}", line.trim());
    assert!(display.len() > 1, "Xvfb gave no display number");
    (xvfb, display)
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
