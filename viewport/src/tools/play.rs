//! Play mode as a viewport tool: while a [`PlaySession`] runs, the viewport is the
//! game — every frame ([`Tool::tick`]) the keys walk the player by the shared
//! rules and the camera is put at the player's eye; trigger events go to the Log
//! and the status line; a drag looks around, and a gamepad plays as on the device
//! (`app/gamepad.rs`). Esc (or F5 again) ends it: the camera goes back where it
//! was, and the scene was never touched.

use super::{OverlayContext, Pointer, Tool, ToolContext, ToolOverlay};
use crate::navigation::OrbitCamera;
use pebble_core::gamepad::Gamepads;
use pebble_core::play::{PlayKeys, PlaySession};

/// Radians a pixel of mouse drag turns the view.
const MOUSE_TURN: f32 = 0.004;

#[derive(Debug)]
pub struct PlayTool {
    session: Option<(PlaySession, OrbitCamera)>,
    /// The runtime's HUD over the game (H turns it off and on).
    pub hud: bool,
    gamepads: Gamepads,
}

impl Default for PlayTool {
    fn default() -> Self {
        Self {
            session: None,
            hud: true,
            gamepads: Gamepads::default(),
        }
    }
}

impl PlayTool {
    /// Starts `session`; the view `editing` is where the camera goes back to.
    pub fn start(&mut self, session: PlaySession, editing: OrbitCamera) {
        self.session = Some((session, editing));
    }

    pub fn session(&self) -> Option<&PlaySession> {
        self.session.as_ref().map(|(s, _)| s)
    }

    /// Ends the game; returns the view it started from.
    pub fn stop(&mut self) -> Option<OrbitCamera> {
        self.session.take().map(|(_, view)| view)
    }
}

impl Tool for PlayTool {
    fn name(&self) -> &'static str {
        "play"
    }

    /// A press while playing belongs to the game (it does nothing yet).
    fn press(&mut self, _cx: &mut ToolContext, _p: &Pointer) -> bool {
        self.session.is_some()
    }

    fn drag(&mut self, _cx: &mut ToolContext, _p: &Pointer) {}

    fn release(&mut self, _cx: &mut ToolContext, _p: &Pointer) {}

    fn cancel(&mut self, cx: &mut ToolContext) {
        if let Some(view) = self.stop() {
            cx.view.orbit = view;
            cx.view.target = None;
            cx.status.info("back to editing");
        }
    }

    fn follows_pointer(&self) -> bool {
        self.session.is_some()
    }

    /// A drag with the left button held looks around, as a mouse does in a game.
    fn hover(&mut self, _cx: &mut ToolContext, p: &Pointer) {
        if let Some((session, _)) = &mut self.session {
            session.look_by(p.delta.x * MOUSE_TURN, -p.delta.y * MOUSE_TURN);
        }
    }

    fn tick(&mut self, cx: &mut ToolContext) {
        let Some((session, _)) = &mut self.session else {
            return;
        };
        let k = cx.fly;
        if k.hud {
            self.hud = !self.hud;
        }
        let keys = PlayKeys {
            forward: k.direction.z,
            strafe: k.direction.x,
            turn: k.turn,
            look: k.look,
            jump: k.jump,
            run: k.fast,
        }
        .with_pad(&self.gamepads.poll());
        for event in session.step(keys, cx.dt) {
            tracing::info!(target: "pebble", "play: trigger event {event}");
            cx.status.info(format!("trigger: {event}"));
        }
        let eye = session.eye();
        let orbit = &mut cx.view.orbit;
        orbit.yaw = session.yaw;
        orbit.pitch = session.pitch;
        orbit.distance = 1.0;
        orbit.ortho = false;
        orbit.pivot = eye + orbit.forward() * orbit.distance;
        cx.view.target = None;
        cx.repaint = true;
    }

    fn overlay(&self, _cx: &OverlayContext, _active: bool, out: &mut ToolOverlay) {
        if self.hud {
            // The HUD says it all (the viewport draws it).
            return;
        }
        if let Some((session, _)) = &self.session {
            let (feet, on_ground) = session.feet();
            out.text = Some(format!(
                "Playing {:.1} s, feet at {:.2}, {:.2}, {:.2}{} · W/S/A/D walk, Q/E or left/right turn, up/down look, Space jumps, Shift runs · H: HUD · Esc or F5: back to editing",
                session.time,
                feet.x,
                feet.y,
                feet.z,
                if on_ground { "" } else { " (in the air)" }
            ));
        }
    }

    fn is_mode_on(&self) -> bool {
        self.session.is_some()
    }
}
