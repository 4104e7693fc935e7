//! `PEBBLE_FRAME_ECHO=1`: one line a frame on stderr saying what input the editor
//! has taken so far, so that a script driving the real window (xdotool under
//! Xvfb: the window tests, a bug report's reproduction) waits for its input to
//! land rather than sleeping for a guessed time. Off unless the variable is set.
//!
//! A line reads `pebble-frame 41 pointer 620 362 down 1 presses 3 releases 2 keys 5`:
//! the frame's number, where the pointer is (in points; `- -` when outside the
//! window), whether the primary button is down, and the counts of button presses,
//! button releases and key presses since the start; then `wheel 2 2.00`: the
//! wheel events taken and the notches they came to (a line of a mouse wheel is
//! one notch, 50 points of a touchpad's smooth scroll another); last `level 1
//! psp 0`: whether the level built in the background (patrol spheres, balls) is
//! drawn as the scene is, and whether the PSP preview is on and shows the
//! scene's bake (a screenshot waits for them as kittest tests do).

use eframe::egui;

/// The environment variable that turns the echo on.
pub const VAR: &str = "PEBBLE_FRAME_ECHO";

/// What a script may wait for before it looks at the picture.
#[derive(Debug, Clone, Copy, Default)]
pub struct Ready {
    pub level: bool,
    pub psp_preview: bool,
}

#[derive(Debug, Default)]
pub struct FrameEcho {
    frame: u64,
    presses: u64,
    releases: u64,
    keys: u64,
    wheel_events: u64,
    notches: f32,
}

impl FrameEcho {
    /// The echo, when [`VAR`] is set to anything but `0` or nothing.
    pub fn from_env() -> Option<Self> {
        std::env::var_os(VAR)
            .filter(|v| !v.is_empty() && v != "0")
            .map(|_| Self::default())
    }

    /// Counts this frame's input and writes the line.
    pub fn frame(&mut self, ctx: &egui::Context, ready: Ready) {
        let (pointer, down) = ctx.input(|i| {
            // What arrived (`raw`), not what is left: a shortcut the editor took
            // was consumed from `events` (under Wine every key the editor acts on
            // went unseen so).
            for e in &i.raw.events {
                match e {
                    egui::Event::PointerButton { pressed: true, .. } => self.presses += 1,
                    egui::Event::PointerButton { pressed: false, .. } => self.releases += 1,
                    egui::Event::Key { pressed: true, .. } => self.keys += 1,
                    egui::Event::MouseWheel { unit, delta, .. } => {
                        self.wheel_events += 1;
                        self.notches += pebble_viewport::wheel_notches(*unit, *delta);
                    }
                    _ => {}
                }
            }
            (i.pointer.latest_pos(), i.pointer.primary_down())
        });
        self.frame += 1;
        let at = pointer.map_or_else(|| "- -".to_owned(), |p| format!("{:.0} {:.0}", p.x, p.y));
        eprintln!(
            "pebble-frame {} pointer {at} down {} presses {} releases {} keys {} wheel {} {:.2} level {} psp {}",
            self.frame,
            u8::from(down),
            self.presses,
            self.releases,
            self.keys,
            self.wheel_events,
            self.notches,
            u8::from(ready.level),
            u8::from(ready.psp_preview)
        );
    }
}
