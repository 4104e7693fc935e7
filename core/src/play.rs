//! Play in the editor (F5 from the spawn, Shift+F5 from the camera): the map the
//! export writes, walked by the shared gameplay rules (`pebble_play`: the capsule,
//! the colliders, triggers), with the runtime's controls on the keyboard. The
//! session is plain data stepped by [`PlaySession::step`]; the viewport's play
//! tool (`viewport/tools/play.rs`) feeds it keys and puts the camera at its eye.

use std::sync::Arc;

use pebble_model::Scene;
use pebble_model::glam::Vec3;
use pebble_play::{Level, TriggerState, WalkInput, Walker};

/// How fast the view turns and looks, radians per second (the runtime's L/R and
/// Triangle + stick).
pub const TURN_SPEED: f32 = 2.4;
pub const LOOK_SPEED: f32 = 2.2;
/// The steepest look up or down.
pub const PITCH_LIMIT: f32 = 1.4;

/// The keys of one frame: each axis −1, 0 or 1.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct PlayKeys {
    /// W / S.
    pub forward: f32,
    /// D / A.
    pub strafe: f32,
    /// E / Q or → / ←: to the right.
    pub turn: f32,
    /// ↑ / ↓: up.
    pub look: f32,
    pub jump: bool,
    /// Shift: twice the walking speed.
    pub run: bool,
}

impl PlayKeys {
    /// The keys with a gamepad's sticks added (clamped) and its buttons held too.
    pub fn with_pad(self, pad: &crate::gamepad::PadState) -> Self {
        let ([forward, strafe, turn, look], jump, run) = pad.controls();
        let add = |a: f32, b: f32| (a + b).clamp(-1.0, 1.0);
        Self {
            forward: add(self.forward, forward),
            strafe: add(self.strafe, strafe),
            turn: add(self.turn, turn),
            look: add(self.look, look),
            jump: self.jump || jump,
            run: self.run || run,
        }
    }
}

/// A game in progress.
#[derive(Debug, Clone)]
pub struct PlaySession {
    pub level: Arc<Level>,
    walker: Walker,
    pub yaw: f32,
    pub pitch: f32,
    triggers: TriggerState,
    /// Seconds played.
    pub time: f64,
    /// Every trigger event so far, in order ("on_enter_archway").
    pub events: Vec<String>,
    /// The last event and when it fired (the HUD shows it for a while).
    pub last_event: Option<(String, f64)>,
}

/// Seconds the HUD shows a trigger's event, as the runtime does.
pub const EVENT_SHOWN_FOR: f64 = 3.0;

/// What the runtime's HUD shows, the editor's way: frame figures, the map and
/// how it is shown, where the eye is, the keys, and the last trigger's event
/// for [`EVENT_SHOWN_FOR`] seconds.
#[derive(Debug, Clone, Copy)]
pub struct HudFigures<'a> {
    pub fps: f32,
    pub triangles: usize,
    pub draws: usize,
    pub particles: usize,
    pub map: &'a str,
    pub environment: &'a str,
    /// The PSP look (480×272, 5551, dithered) or the editor's.
    pub psp_look: bool,
}

/// The level of `scene` as the device plays it: exported (unbaked; the light does
/// not change where one can walk) and read back.
pub fn build_level(scene: &Scene, folder: std::path::PathBuf) -> Result<Level, String> {
    let bytes = crate::services::export::to_bytes(scene, folder, false)
        .map_err(|e| format!("cannot export the map to play it: {e:#}"))?;
    let (view, _) =
        pbm::MapView::parse(&bytes).map_err(|e| format!("the exported map does not read: {e}"))?;
    Ok(Level::from_view(&view).0)
}

impl PlaySession {
    /// Starts at the spawn, or (`from`) at that eye looking that way.
    pub fn start(level: Arc<Level>, from: Option<(Vec3, f32, f32)>) -> Self {
        let (eye, yaw, pitch) = from.unwrap_or((Vec3::from(level.spawn), level.spawn_yaw, 0.0));
        Self {
            walker: Walker::at_eye(&level, eye.to_array()),
            level,
            yaw,
            pitch,
            triggers: TriggerState::default(),
            time: 0.0,
            events: Vec::new(),
            last_event: None,
        }
    }

    /// The HUD's lines, as the runtime lays them out.
    pub fn hud(&self, f: HudFigures<'_>) -> Vec<String> {
        let eye = self.eye();
        let (_, on_ground) = self.feet();
        let mut lines = vec![
            format!(
                "FPS {:.0}  Tris {}  Draws {}  Parts {}",
                f.fps, f.triangles, f.draws, f.particles
            ),
            format!(
                "{}  env {}  {}  walk{}",
                f.map,
                f.environment,
                if f.psp_look {
                    "psp look"
                } else {
                    "editor look"
                },
                if on_ground { "" } else { " (in the air)" }
            ),
            format!("pos {:.1} {:.1} {:.1}", eye.x, eye.y, eye.z),
            "W/S/A/D move  Space jump  Shift run  arrows or drag look  Q/E turn".to_string(),
            "H HUD  Esc or F5 back to editing".to_string(),
        ];
        if let Some((event, at)) = &self.last_event
            && self.time - at <= EVENT_SHOWN_FOR
        {
            lines.push(String::new());
            lines.push(event.clone());
        }
        lines
    }

    /// Turns the view right by `yaw` and up by `pitch`, radians (a mouse drag).
    pub fn look_by(&mut self, yaw: f32, pitch: f32) {
        if yaw.is_finite() && pitch.is_finite() {
            self.yaw += yaw;
            self.pitch = (self.pitch + pitch).clamp(-PITCH_LIMIT, PITCH_LIMIT);
        }
    }

    pub fn eye(&self) -> Vec3 {
        Vec3::from(self.walker.eye())
    }

    /// The feet, and whether they stand on something.
    pub fn feet(&self) -> (Vec3, bool) {
        (Vec3::from(self.walker.feet), self.walker.on_ground)
    }

    /// Plays `dt` seconds with `keys` held; returns the trigger events it fired.
    pub fn step(&mut self, keys: PlayKeys, dt: f32) -> Vec<String> {
        let dt = dt.clamp(0.0, 0.1);
        self.yaw += keys.turn * TURN_SPEED * dt;
        self.pitch = (self.pitch + keys.look * LOOK_SPEED * dt).clamp(-PITCH_LIMIT, PITCH_LIMIT);
        let (s, c) = self.yaw.sin_cos();
        // Ahead is (sin yaw, −cos yaw) on the ground, right (cos yaw, sin yaw).
        let mut dir = [
            s * keys.forward + c * keys.strafe,
            -c * keys.forward + s * keys.strafe,
        ];
        let len = (dir[0] * dir[0] + dir[1] * dir[1]).sqrt();
        if len > 1.0 {
            dir = [dir[0] / len, dir[1] / len];
        }
        let input = WalkInput {
            move_xz: dir,
            speed: if keys.run { 2.0 } else { 1.0 },
            jump: keys.jump,
        };
        if !self.walker.step(&self.level, &input, dt) {
            // Fell out of the map: back to the spawn.
            self.walker = Walker::at_eye(&self.level, self.level.spawn);
        }
        self.time += f64::from(dt);
        let entered = self
            .triggers
            .update(&self.level.triggers, self.walker.eye());
        let fired: Vec<String> = entered
            .into_iter()
            .filter_map(|k| self.level.triggers.get(k))
            .map(|t| {
                if t.event.is_empty() {
                    t.id.clone()
                } else {
                    t.event.clone()
                }
            })
            .collect();
        self.events.extend(fired.iter().cloned());
        if let Some(last) = fired.last() {
            self.last_event = Some((last.clone(), self.time));
        }
        fired
    }
}
