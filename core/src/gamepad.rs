//! Gamepads for Play mode. On Linux they are read straight from the kernel's event
//! devices (`/dev/input/event*`, found by the keys and axes they report, re-scanned
//! every two seconds for pads plugged in later): no libudev, so building Pebble
//! needs no system headers (gilrs links libudev, which a fresh machine often lacks
//! the development files of). On Windows (XInput) and macOS (IOKit) gilrs reads
//! them, which needs nothing installed there.
//!
//! The runtime's controls: the left stick (or the D-pad) walks, the right stick
//! turns and looks, the south button (A / ✕) jumps, the east button (B / ○), a
//! shoulder or a stick's click runs.

use std::collections::HashMap;

/// What the pads hold now, all pads together.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct PadState {
    /// Left stick, each −1..1: right, down (as the device reports it).
    pub left: [f32; 2],
    /// Right stick.
    pub right: [f32; 2],
    /// D-pad, −1, 0 or 1: right, down.
    pub hat: [f32; 2],
    pub south: bool,
    pub east: bool,
    pub shoulder: bool,
    pub stick_click: bool,
}

impl PadState {
    /// Forward, strafe, turn and look, each −1..1, then jump and run.
    pub fn controls(&self) -> ([f32; 4], bool, bool) {
        let forward = (-self.left[1] - self.hat[1]).clamp(-1.0, 1.0);
        let strafe = (self.left[0] + self.hat[0]).clamp(-1.0, 1.0);
        (
            [forward, strafe, self.right[0], -self.right[1]],
            self.south,
            self.east || self.shoulder || self.stick_click,
        )
    }
}

/// An absolute axis's range as the device reports it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AxisRange {
    pub min: i32,
    pub max: i32,
    /// The dead zone around the centre, in the device's units.
    pub flat: i32,
}

impl AxisRange {
    /// `value` as −1..1, 0 within the dead zone (at least 8 % of the half range,
    /// since many pads report none and rest a little off centre).
    pub fn normalise(&self, value: i32) -> f32 {
        let half = (f64::from(self.max) - f64::from(self.min)) / 2.0;
        if half <= 0.0 {
            return 0.0;
        }
        let centre = (f64::from(self.max) + f64::from(self.min)) / 2.0;
        let off = f64::from(value) - centre;
        let dead = f64::from(self.flat).max(half * 0.08);
        if off.abs() <= dead {
            return 0.0;
        }
        let v = (off.abs() - dead) / (half - dead).max(1e-9);
        (v.min(1.0) * off.signum()) as f32
    }
}

// The kernel's event types and codes (linux/input-event-codes.h).
const EV_KEY: u16 = 0x01;
const EV_ABS: u16 = 0x03;
const ABS_X: u16 = 0x00;
const ABS_Y: u16 = 0x01;
const ABS_RX: u16 = 0x03;
const ABS_RY: u16 = 0x04;
const ABS_HAT0X: u16 = 0x10;
const ABS_HAT0Y: u16 = 0x11;
const BTN_SOUTH: u16 = 0x130;
const BTN_EAST: u16 = 0x131;
const BTN_TL: u16 = 0x136;
const BTN_TR: u16 = 0x137;
const BTN_THUMBL: u16 = 0x13d;
const BTN_THUMBR: u16 = 0x13e;

/// The axes a pad is read by.
pub const AXES: [u16; 6] = [ABS_X, ABS_Y, ABS_RX, ABS_RY, ABS_HAT0X, ABS_HAT0Y];

/// One `struct input_event`: the time (two longs), type, code, value.
pub const EVENT_SIZE: usize = 2 * std::mem::size_of::<std::ffi::c_long>() + 8;

/// One event as the kernel writes it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RawEvent {
    pub kind: u16,
    pub code: u16,
    pub value: i32,
}

/// The whole events in `bytes` (native byte order, as read from the device).
pub fn parse_events(bytes: &[u8]) -> impl Iterator<Item = RawEvent> + '_ {
    bytes.chunks_exact(EVENT_SIZE).map(|e| {
        let t = EVENT_SIZE - 8;
        RawEvent {
            kind: u16::from_ne_bytes([e[t], e[t + 1]]),
            code: u16::from_ne_bytes([e[t + 2], e[t + 3]]),
            value: i32::from_ne_bytes([e[t + 4], e[t + 5], e[t + 6], e[t + 7]]),
        }
    })
}

/// One pad's held state, updated event by event.
#[derive(Debug, Clone, Default)]
pub struct Pad {
    pub ranges: HashMap<u16, AxisRange>,
    pub state: PadState,
}

impl Pad {
    pub fn apply(&mut self, e: RawEvent) {
        let s = &mut self.state;
        match e.kind {
            EV_KEY => {
                let down = e.value != 0;
                match e.code {
                    BTN_SOUTH => s.south = down,
                    BTN_EAST => s.east = down,
                    BTN_TL | BTN_TR => s.shoulder = down,
                    BTN_THUMBL | BTN_THUMBR => s.stick_click = down,
                    _ => {}
                }
            }
            EV_ABS => {
                let v = match self.ranges.get(&e.code) {
                    Some(r) => r.normalise(e.value),
                    None => 0.0,
                };
                match e.code {
                    ABS_X => s.left[0] = v,
                    ABS_Y => s.left[1] = v,
                    ABS_RX => s.right[0] = v,
                    ABS_RY => s.right[1] = v,
                    ABS_HAT0X => s.hat[0] = e.value.signum() as f32,
                    ABS_HAT0Y => s.hat[1] = e.value.signum() as f32,
                    _ => {}
                }
            }
            _ => {}
        }
    }
}

/// All pads together: sticks add up (clamped), buttons are held if any holds them.
pub fn combine(pads: impl IntoIterator<Item = PadState>) -> PadState {
    let mut out = PadState::default();
    for p in pads {
        for k in 0..2 {
            out.left[k] = (out.left[k] + p.left[k]).clamp(-1.0, 1.0);
            out.right[k] = (out.right[k] + p.right[k]).clamp(-1.0, 1.0);
            out.hat[k] = (out.hat[k] + p.hat[k]).clamp(-1.0, 1.0);
        }
        out.south |= p.south;
        out.east |= p.east;
        out.shoulder |= p.shoulder;
        out.stick_click |= p.stick_click;
    }
    out
}

/// The pads connected, read without blocking once a frame.
#[derive(Default)]
pub struct Gamepads {
    #[cfg(target_os = "linux")]
    linux: linux::Devices,
    #[cfg(any(target_os = "windows", target_os = "macos"))]
    gilrs: with_gilrs::Pads,
}

impl std::fmt::Debug for Gamepads {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Gamepads")
            .field("connected", &self.connected())
            .finish()
    }
}

impl Gamepads {
    /// Reads what arrived since the last poll and returns the held state.
    pub fn poll(&mut self) -> PadState {
        #[cfg(target_os = "linux")]
        {
            self.linux.poll()
        }
        #[cfg(any(target_os = "windows", target_os = "macos"))]
        {
            self.gilrs.poll()
        }
        #[cfg(not(any(target_os = "linux", target_os = "windows", target_os = "macos")))]
        {
            PadState::default()
        }
    }

    /// How many pads are being read.
    pub fn connected(&self) -> usize {
        #[cfg(target_os = "linux")]
        {
            self.linux.len()
        }
        #[cfg(any(target_os = "windows", target_os = "macos"))]
        {
            self.gilrs.len()
        }
        #[cfg(not(any(target_os = "linux", target_os = "windows", target_os = "macos")))]
        {
            0
        }
    }
}

#[cfg(any(target_os = "windows", target_os = "macos"))]
mod with_gilrs {
    //! Windows and macOS: gilrs's pads, in the same `PadState` (its Y axes point up;
    //! the state's, as the kernel's, down).

    use crate::gamepad::PadState;

    #[derive(Default)]
    pub struct Pads {
        /// Made on the first poll; `None` after gilrs failed to start (said once).
        gilrs: Option<gilrs::Gilrs>,
        started: bool,
    }

    impl Pads {
        pub fn len(&self) -> usize {
            self.gilrs.as_ref().map_or(0, |g| g.gamepads().count())
        }

        pub fn poll(&mut self) -> PadState {
            if !self.started {
                self.started = true;
                match gilrs::Gilrs::new() {
                    Ok(g) => self.gilrs = Some(g),
                    Err(e) => tracing::info!(target: "pebble", "gamepads: not read ({e})"),
                }
            }
            let Some(g) = &mut self.gilrs else {
                return PadState::default();
            };
            while g.next_event().is_some() {}
            let pads = g.gamepads().map(|(_, pad)| {
                use gilrs::{Axis, Button};
                let held = |b: Button| pad.is_pressed(b);
                let hat = |minus: Button, plus: Button| {
                    f32::from(u8::from(held(plus))) - f32::from(u8::from(held(minus)))
                };
                PadState {
                    left: [pad.value(Axis::LeftStickX), -pad.value(Axis::LeftStickY)],
                    right: [pad.value(Axis::RightStickX), -pad.value(Axis::RightStickY)],
                    hat: [
                        hat(Button::DPadLeft, Button::DPadRight),
                        hat(Button::DPadUp, Button::DPadDown),
                    ],
                    south: held(Button::South),
                    east: held(Button::East),
                    shoulder: held(Button::LeftTrigger) || held(Button::RightTrigger),
                    stick_click: held(Button::LeftThumb) || held(Button::RightThumb),
                }
            });
            crate::gamepad::combine(pads.collect::<Vec<_>>())
        }
    }
}

#[cfg(target_os = "linux")]
mod linux {
    //! The event devices: which are pads (the kernel's key and axis bitmaps), their
    //! axis ranges (`EVIOCGABS`), and non-blocking reads.

    use std::fs::File;
    use std::io::Read;
    use std::os::fd::AsRawFd;
    use std::os::unix::fs::OpenOptionsExt;
    use std::path::{Path, PathBuf};
    use std::time::{Duration, Instant};

    use crate::gamepad::{AXES, AxisRange, BTN_SOUTH, EV_ABS, EV_KEY, EVENT_SIZE, Pad, PadState};

    const RESCAN: Duration = Duration::from_secs(2);

    pub struct Device {
        pub path: PathBuf,
        pub file: File,
        pub pad: Pad,
        /// Bytes of an event split across reads.
        pub partial: Vec<u8>,
    }

    #[derive(Default)]
    pub struct Devices {
        devices: Vec<Device>,
        scanned: Option<Instant>,
    }

    // ioctl numbers: _IOC(READ, 'E', nr, size).
    fn ioc_read(nr: u32, size: usize) -> u64 {
        (2u64 << 30) | ((size as u64) << 16) | (u64::from(b'E') << 8) | u64::from(nr)
    }

    /// The event codes of type `ev` the device reports, as a bitmap.
    // One of the editor's three unsafe places (the others: getrusage in
    // cli/convert_bench.rs, the console let go on Windows in cli/main.rs): two
    // ioctls the kernel defines for event devices (nothing in std asks them);
    // each writes into a buffer of the size its request number encodes.
    #[allow(unsafe_code)]
    fn bits(file: &File, ev: u16, out: &mut [u8]) -> bool {
        let request = ioc_read(0x20 + u32::from(ev), out.len());
        // SAFETY: EVIOCGBIT writes at most `out.len()` bytes into `out`, which
        // stays borrowed for the call.
        let r = unsafe { libc::ioctl(file.as_raw_fd(), request as _, out.as_mut_ptr()) };
        r >= 0
    }

    fn has(bitmap: &[u8], code: u16) -> bool {
        bitmap
            .get(usize::from(code / 8))
            .is_some_and(|b| b & (1 << (code % 8)) != 0)
    }

    #[allow(unsafe_code)]
    fn range(file: &File, axis: u16) -> Option<AxisRange> {
        // struct input_absinfo: value, minimum, maximum, fuzz, flat, resolution.
        let mut info = [0i32; 6];
        let request = ioc_read(0x40 + u32::from(axis), std::mem::size_of_val(&info));
        // SAFETY: EVIOCGABS fills one input_absinfo (six i32s), which `info` is.
        let r = unsafe { libc::ioctl(file.as_raw_fd(), request as _, info.as_mut_ptr()) };
        (r >= 0).then_some(AxisRange {
            min: info[1],
            max: info[2],
            flat: info[4],
        })
    }

    /// Opens `path` if it is a pad: a south button and X and Y axes.
    fn open(path: &Path) -> Option<Device> {
        let file = std::fs::OpenOptions::new()
            .read(true)
            .custom_flags(libc::O_NONBLOCK)
            .open(path)
            .ok()?;
        let mut keys = [0u8; 0x300 / 8];
        let mut abs = [0u8; 0x40 / 8];
        if !bits(&file, EV_KEY, &mut keys) || !bits(&file, EV_ABS, &mut abs) {
            return None;
        }
        if !(has(&keys, BTN_SOUTH) && has(&abs, AXES[0]) && has(&abs, AXES[1])) {
            return None;
        }
        let mut pad = Pad::default();
        for axis in AXES {
            if has(&abs, axis)
                && let Some(r) = range(&file, axis)
            {
                pad.ranges.insert(axis, r);
            }
        }
        tracing::info!(target: "pebble", "gamepad: reading {}", path.display());
        Some(Device {
            path: path.to_path_buf(),
            file,
            pad,
            partial: Vec::new(),
        })
    }

    impl Devices {
        pub fn len(&self) -> usize {
            self.devices.len()
        }

        fn scan(&mut self) {
            let Ok(entries) = std::fs::read_dir("/dev/input") else {
                return;
            };
            for entry in entries.flatten() {
                let path = entry.path();
                let is_event = path
                    .file_name()
                    .and_then(|n| n.to_str())
                    .is_some_and(|n| n.starts_with("event"));
                if is_event
                    && !self.devices.iter().any(|d| d.path == path)
                    && let Some(d) = open(&path)
                {
                    self.devices.push(d);
                }
            }
        }

        pub fn poll(&mut self) -> PadState {
            if self.scanned.is_none_or(|t| t.elapsed() >= RESCAN) {
                self.scanned = Some(Instant::now());
                self.scan();
            }
            // A pad whose read fails (unplugged) is dropped; a later scan finds it
            // again if it comes back.
            self.devices.retain_mut(read_available);
            crate::gamepad::combine(self.devices.iter().map(|d| d.pad.state))
        }
    }

    /// Applies every whole event waiting on the device; false once it is gone.
    pub fn read_available(d: &mut Device) -> bool {
        let mut buf = [0u8; EVENT_SIZE * 64];
        loop {
            match d.file.read(&mut buf) {
                Ok(0) => return true,
                Ok(n) => {
                    d.partial.extend_from_slice(&buf[..n]);
                    let whole = d.partial.len() / EVENT_SIZE * EVENT_SIZE;
                    for e in crate::gamepad::parse_events(&d.partial[..whole]) {
                        d.pad.apply(e);
                    }
                    d.partial.drain(..whole);
                }
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => return true,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => {
                    tracing::info!(target: "pebble", "gamepad: {} gone ({e})", d.path.display());
                    return false;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An event as the kernel writes it: time, type, code, value.
    fn event(kind: u16, code: u16, value: i32) -> Vec<u8> {
        let mut out = vec![0u8; EVENT_SIZE - 8];
        out[0] = 7; // a timestamp, which is skipped
        out.extend_from_slice(&kind.to_ne_bytes());
        out.extend_from_slice(&code.to_ne_bytes());
        out.extend_from_slice(&value.to_ne_bytes());
        out
    }

    #[test]
    fn axes_normalise_with_a_dead_zone_for_signed_and_unsigned_ranges() {
        // An Xbox pad's stick, and a DualShock 4's (0..255, no flat reported).
        let xbox = AxisRange {
            min: -32768,
            max: 32767,
            flat: 128,
        };
        let ds4 = AxisRange {
            min: 0,
            max: 255,
            flat: 0,
        };
        assert_eq!(xbox.normalise(0), 0.0);
        assert_eq!(xbox.normalise(2000), 0.0, "within 8 % of centre");
        assert_eq!(xbox.normalise(32767), 1.0);
        assert_eq!(xbox.normalise(-32768), -1.0);
        let half = xbox.normalise(16384);
        assert!((0.4..0.6).contains(&half), "{half}");
        assert_eq!(ds4.normalise(128), 0.0);
        assert_eq!(ds4.normalise(255), 1.0);
        assert_eq!(ds4.normalise(0), -1.0);
        let broken = AxisRange {
            min: 5,
            max: 5,
            flat: 0,
        };
        assert_eq!(broken.normalise(9), 0.0);
    }

    #[test]
    fn events_as_the_kernel_writes_them_drive_the_controls() {
        let mut pad = Pad::default();
        let stick = AxisRange {
            min: -32768,
            max: 32767,
            flat: 128,
        };
        for axis in [ABS_X, ABS_Y, ABS_RX, ABS_RY] {
            pad.ranges.insert(axis, stick);
        }
        let mut bytes = Vec::new();
        for (kind, code, value) in [
            (EV_ABS, ABS_Y, -32768), // left stick pushed up: forward
            (EV_ABS, ABS_RX, 32767), // right stick right: turn right
            (EV_KEY, BTN_SOUTH, 1),  // A held: jump
            (0, 0, 0),               // SYN_REPORT
            (EV_KEY, BTN_TL, 1),     // a shoulder: run
            (EV_ABS, 0x02, 200),     // a trigger: not read
        ] {
            bytes.extend(event(kind, code, value));
        }
        // A half event at the end is left for the next read.
        bytes.extend(&event(EV_KEY, BTN_EAST, 1)[..5]);
        let events: Vec<RawEvent> = parse_events(&bytes).collect();
        assert_eq!(events.len(), 6);
        for e in events {
            pad.apply(e);
        }
        let (axes, jump, run) = pad.state.controls();
        assert_eq!(axes, [1.0, 0.0, 1.0, 0.0]);
        assert!(jump && run);
        pad.apply(RawEvent {
            kind: EV_KEY,
            code: BTN_SOUTH,
            value: 0,
        });
        pad.apply(RawEvent {
            kind: EV_ABS,
            code: ABS_RY,
            value: -32768,
        });
        let (axes, jump, _) = pad.state.controls();
        assert!(!jump);
        assert_eq!(axes[3], 1.0, "right stick up looks up");
    }

    /// A device read as the runtime's pad would be: events arriving split across
    /// reads through a pipe, then the pad unplugged (a read error) drops it.
    #[cfg(target_os = "linux")]
    #[test]
    fn a_device_applies_what_arrives_and_is_dropped_when_its_read_fails() {
        use std::io::Write;
        let (reader, mut writer) = std::io::pipe().expect("a pipe");
        let mut d = linux::Device {
            path: "pipe".into(),
            file: std::fs::File::from(std::os::fd::OwnedFd::from(reader)),
            pad: Pad::default(),
            partial: Vec::new(),
        };
        let press = event(EV_KEY, BTN_SOUTH, 1);
        writer.write_all(&press[..10]).expect("writes");
        writer.write_all(&press[10..]).expect("writes");
        drop(writer);
        assert!(linux::read_available(&mut d));
        assert!(d.pad.state.south);
        assert!(d.partial.is_empty());
        let mut gone = linux::Device {
            path: "/".into(),
            file: std::fs::File::open("/").expect("opens the root folder"),
            pad: Pad::default(),
            partial: Vec::new(),
        };
        assert!(!linux::read_available(&mut gone), "reading a folder fails");
    }

    #[test]
    fn a_pad_adds_to_the_keys() {
        let keys = crate::play::PlayKeys {
            forward: 1.0,
            strafe: 0.0,
            turn: -1.0,
            look: 0.0,
            jump: false,
            run: true,
        };
        let pad = PadState {
            left: [0.5, -1.0],
            right: [1.0, 0.0],
            south: true,
            ..PadState::default()
        };
        let both = keys.with_pad(&pad);
        assert_eq!(
            (both.forward, both.strafe, both.turn, both.look),
            (1.0, 0.5, 0.0, 0.0)
        );
        assert!(both.jump && both.run);
        assert_eq!(keys.with_pad(&PadState::default()), keys);
    }

    #[test]
    fn the_d_pad_walks_and_two_pads_add_up() {
        let mut a = Pad::default();
        a.apply(RawEvent {
            kind: EV_ABS,
            code: ABS_HAT0X,
            value: -1,
        });
        a.apply(RawEvent {
            kind: EV_ABS,
            code: ABS_HAT0Y,
            value: 1,
        });
        assert_eq!(a.state.controls().0[..2], [-1.0, -1.0]);
        let b = PadState {
            left: [0.5, -1.0],
            east: true,
            ..PadState::default()
        };
        let both = combine([a.state, b]);
        assert_eq!(both.controls().0[..2], [0.0, -0.5]);
        assert!(both.controls().2);
    }
}
