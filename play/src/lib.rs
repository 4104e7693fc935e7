//! # pebble-play — gameplay rules of a `.pbm` map
//!
//! What happens when a map is played, shared by the PSP runtime and (later) the
//! editor's play preview, `no_std` + `alloc` so the runtime can use it: walking
//! with gravity and ground snapping on `walkable_mesh` and on colliders, collision
//! with BOX / TRIMESH / RAMP colliders ([`walk`]), trigger volumes with their events
//! ([`level::Trigger`], [`TriggerState`]), patrol spheres ([`level::Patrol`]) and the
//! ball pit ([`balls`]). Plain data and functions; the caller owns time and input.

#![no_std]

extern crate alloc;
#[cfg(test)]
extern crate std;

pub mod balls;
pub mod json;
pub mod level;
pub mod shapes;
pub mod vec;
pub mod walk;

pub use balls::BallPit;
pub use level::{Level, Patrol, SoundPoint, Trigger};
pub use shapes::Sphere;
pub use walk::{WalkInput, Walker};

use alloc::vec::Vec;

/// Which triggers the player is inside and which have fired; reports entries.
#[derive(Debug, Clone, Default)]
pub struct TriggerState {
    inside: Vec<bool>,
    fired: Vec<bool>,
}

impl TriggerState {
    /// The triggers entered at `point` since the last call (a oneshot trigger
    /// reports its first entry only), as indices into `triggers`.
    pub fn update(&mut self, triggers: &[Trigger], point: [f32; 3]) -> Vec<usize> {
        self.inside.resize(triggers.len(), false);
        self.fired.resize(triggers.len(), false);
        let mut entered = Vec::new();
        for (k, t) in triggers.iter().enumerate() {
            let now = (0..3).all(|i| point[i] >= t.min[i] && point[i] <= t.max[i]);
            if now && !self.inside[k] && !(t.oneshot && self.fired[k]) {
                entered.push(k);
                self.fired[k] = true;
            }
            self.inside[k] = now;
        }
        entered
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::String;

    #[test]
    fn triggers_fire_on_entry_and_oneshots_once() {
        let t = |oneshot| Trigger {
            id: String::from("t"),
            event: String::from("e"),
            min: [0.0; 3],
            max: [1.0; 3],
            oneshot,
        };
        let triggers = [t(true), t(false)];
        let mut s = TriggerState::default();
        assert!(s.update(&triggers, [2.0; 3]).is_empty());
        assert_eq!(s.update(&triggers, [0.5; 3]), [0, 1]);
        // Staying inside does not fire again.
        assert!(s.update(&triggers, [0.6; 3]).is_empty());
        assert!(s.update(&triggers, [2.0; 3]).is_empty());
        // Re-entering: only the repeatable one.
        assert_eq!(s.update(&triggers, [0.5; 3]), [1]);
    }
}
