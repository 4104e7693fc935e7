//! Where a frame's time goes: named parts of the frame (the viewport's picking,
//! the layout, …) timed while a measurement is on (`pebble bench-editor` turns it
//! on for its measured frames), each part's median over the frames kept for the
//! report. Off, a part costs one thread-local read. Any part of the editor may
//! time itself here; nothing here knows the benchmark.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

#[derive(Default)]
struct Recorder {
    /// What the frame being drawn measures (the editor, the bare renderer), or
    /// `None` when it is not measured.
    on: Option<&'static str>,
    /// This frame's time per part so far.
    frame: BTreeMap<&'static str, Duration>,
    /// Each part's time per measured frame, by what the frame measured.
    frames: BTreeMap<(&'static str, &'static str), Vec<Duration>>,
}

thread_local! {
    static RECORDER: RefCell<Recorder> = RefCell::default();
}

/// Runs `f`, adding its time to part `name` of the frame when the bench measures it.
pub fn time<T>(name: &'static str, f: impl FnOnce() -> T) -> T {
    if RECORDER.with(|r| r.borrow().on.is_none()) {
        return f();
    }
    let start = Instant::now();
    let out = f();
    let took = start.elapsed();
    RECORDER.with(|r| *r.borrow_mut().frame.entry(name).or_default() += took);
    out
}

/// A frame begins: the last one's parts are kept (a measured frame's work ends
/// after its `ui`, as the GPU frame is prepared), and this one is measured or not.
pub fn next_frame(measured: Option<&'static str>) {
    RECORDER.with(|r| {
        let mut r = r.borrow_mut();
        let last = std::mem::take(&mut r.frame);
        if let Some(what) = r.on {
            for (name, took) in last {
                r.frames.entry((what, name)).or_default().push(took);
            }
        }
        r.on = measured;
    });
}

/// Each part's median (ms) over the frames it was in, and in how many, by what
/// the frames measured and the part's name.
pub fn medians() -> Vec<(&'static str, &'static str, f64, usize)> {
    RECORDER.with(|r| {
        r.borrow()
            .frames
            .iter()
            .map(|((what, name), times)| (*what, *name, median_ms(times), times.len()))
            .collect()
    })
}

/// The median of `times`, ms (0 for none).
pub fn median_ms(times: &[Duration]) -> f64 {
    let mut ms: Vec<f64> = times.iter().map(|d| d.as_secs_f64() * 1e3).collect();
    ms.sort_by(f64::total_cmp);
    ms.get(ms.len().saturating_sub(1) / 2)
        .copied()
        .unwrap_or(0.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parts_count_only_in_measured_frames() {
        next_frame(None);
        time("a", || std::thread::sleep(Duration::from_millis(2)));
        next_frame(Some("editor"));
        time("a", || std::thread::sleep(Duration::from_millis(2)));
        time("a", || std::thread::sleep(Duration::from_millis(2)));
        next_frame(None);
        let m = medians();
        assert_eq!(m.len(), 1, "{m:?}");
        let (what, name, ms, frames) = m[0];
        assert_eq!(
            (what, name, frames),
            ("editor", "a", 1),
            "one measured frame"
        );
        assert!(ms >= 4.0, "both calls of the frame add up: {ms}");
    }
}
