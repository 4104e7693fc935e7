//! The capture script, `pebble_capture.txt` beside the maps. When it is there the
//! runtime renders each listed view with a frozen clock, writes each capture, and
//! exits. Format (one directive per line, `#` comments, angles in degrees):
//!
//! ```text
//! map showcase.pbm                     # which map the following captures show
//! capture X Y Z YAW PITCH TIME [FOV]   # eye, yaw/pitch (deg), scene time (s), fov (deg)
//! mode untextured                      # the captures after it: textured (the
//!                                      # default), untextured or wireframe
//! ```
//!
//! The debug modes (untextured, wireframe) also mark the sound sources, as when
//! playing by hand.
//!
//! `map` may appear several times (one emulator run can compare two maps); captures
//! before the first `map` show the map the runtime would choose anyway. Captures
//! are numbered in file order across maps.
//!
//! `reload` waits (up to a minute) for the map file to be replaced, as the live
//! link replaces it, and loads it again: the captures after it show the new map.
//! It tests the live reload in the emulator.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use crate::camera::Camera;
use crate::gfx::DisplayMode;
use crate::world::FOV_DEG;

pub struct Shot {
    pub camera: Camera,
    pub time: f64,
    pub mode: DisplayMode,
}

/// Captures of one map (`None`: the map the runtime chooses).
pub struct Run {
    pub map: Option<String>,
    /// Wait for the map file to change before loading it (a `reload` line).
    pub reload: bool,
    pub shots: Vec<Shot>,
}

pub struct Script {
    pub runs: Vec<Run>,
}

pub fn parse(text: &str) -> Result<Script, String> {
    let mut script = Script {
        runs: Vec::from([Run {
            map: None,
            reload: false,
            shots: Vec::new(),
        }]),
    };
    let mut mode = DisplayMode::Textured;
    for (n, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        let mut words = line.split_whitespace();
        match words.next() {
            None => {}
            Some("map") => {
                let name = words.next().ok_or(format!("line {}: map needs a file name", n + 1))?;
                script.runs.push(Run {
                    map: Some(name.to_string()),
                    reload: false,
                    shots: Vec::new(),
                });
            }
            Some("reload") => {
                let map = script.runs.last().and_then(|r| r.map.clone());
                script.runs.push(Run {
                    map,
                    reload: true,
                    shots: Vec::new(),
                });
            }
            Some("capture") => {
                let v: Vec<f64> = words
                    .map(|w| w.parse::<f64>().map_err(|_| format!("line {}: {w:?} is not a number", n + 1)))
                    .collect::<Result<_, _>>()?;
                if !(6..=7).contains(&v.len()) {
                    return Err(format!(
                        "line {}: capture takes X Y Z YAW PITCH TIME [FOV], found {} numbers",
                        n + 1,
                        v.len()
                    ));
                }
                let run = script.runs.last_mut().ok_or("no run")?;
                run.shots.push(Shot {
                    camera: Camera {
                        eye: [v[0] as f32, v[1] as f32, v[2] as f32],
                        yaw: (v[3] as f32).to_radians(),
                        pitch: (v[4] as f32).to_radians(),
                        fov_deg: v.get(6).map(|f| *f as f32).unwrap_or(FOV_DEG),
                    },
                    time: v[5],
                    mode,
                });
            }
            Some("mode") => {
                mode = match words.next() {
                    Some("textured") => DisplayMode::Textured,
                    Some("untextured") => DisplayMode::Untextured,
                    Some("wireframe") => DisplayMode::Wireframe,
                    other => {
                        return Err(format!(
                            "line {}: mode takes textured, untextured or wireframe, found {other:?}",
                            n + 1
                        ))
                    }
                };
            }
            Some(other) => return Err(format!("line {}: unknown directive {other:?} (map, capture, mode, reload)", n + 1)),
        }
    }
    script.runs.retain(|r| r.map.is_some() || r.reload || !r.shots.is_empty());
    Ok(script)
}
