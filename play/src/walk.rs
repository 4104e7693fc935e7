//! Walking: a vertical capsule (radius 0.3 m, eye 1.6 m above the feet) moved by
//! the stick, pulled by gravity, snapped to the ground below within a step, and
//! pushed out of walls (BOX sides, steep TRIMESH triangles). Movement is split into
//! sub-steps no longer than a third of the radius, so a fast frame cannot tunnel
//! through a thin wall.

use crate::level::Level;
use crate::vec::{self, V3};

pub const RADIUS: f32 = 0.3;
pub const EYE_HEIGHT: f32 = 1.6;
pub const BODY_HEIGHT: f32 = 1.75;
/// Ground this much above the feet is stepped onto (stairs, ramp joints).
pub const STEP: f32 = 0.4;
/// While on the ground, ground this far below is followed (walking down slopes).
pub const SNAP_DOWN: f32 = 0.3;
pub const GRAVITY: f32 = 9.81;
pub const WALK_SPEED: f32 = 4.5;
pub const JUMP_SPEED: f32 = 4.5;

#[derive(Debug, Clone, Copy, Default)]
pub struct WalkInput {
    /// Desired horizontal velocity direction in world XZ, length ≤ 1.
    pub move_xz: [f32; 2],
    /// Speed multiplier (run).
    pub speed: f32,
    pub jump: bool,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Walker {
    pub feet: V3,
    pub velocity: V3,
    pub on_ground: bool,
}

impl Walker {
    /// Stands at `eye` lowered to the feet, then settles on the ground below.
    pub fn at_eye(level: &Level, eye: V3) -> Self {
        let mut w = Walker {
            feet: [eye[0], eye[1] - EYE_HEIGHT, eye[2]],
            velocity: [0.0; 3],
            on_ground: false,
        };
        if let Some(g) = level.ground_at(w.feet[0], w.feet[2], w.feet[1] + STEP) {
            w.feet[1] = g;
            w.on_ground = true;
        }
        w
    }

    pub fn eye(&self) -> V3 {
        [self.feet[0], self.feet[1] + EYE_HEIGHT, self.feet[2]]
    }

    /// Advances `dt` seconds. Returns false when the walker fell out of the map
    /// (below the level's kill height); the caller respawns it.
    pub fn step(&mut self, level: &Level, input: &WalkInput, dt: f32) -> bool {
        let dt = dt.clamp(0.0, 0.1);
        let speed = WALK_SPEED * input.speed.max(0.0);
        self.velocity[0] = input.move_xz[0] * speed;
        self.velocity[2] = input.move_xz[1] * speed;
        if input.jump && self.on_ground {
            self.velocity[1] = JUMP_SPEED;
            self.on_ground = false;
        }
        let travel = vec::length(vec::scale(self.velocity, dt));
        let steps = libm::ceilf(travel / (RADIUS / 3.0)).clamp(1.0, 64.0) as u32;
        let h = dt / steps as f32;
        for _ in 0..steps {
            self.sub_step(level, h);
        }
        self.feet[1] >= level.kill_y
    }

    fn sub_step(&mut self, level: &Level, h: f32) {
        self.feet[0] += self.velocity[0] * h;
        self.feet[2] += self.velocity[2] * h;
        self.push_out(level);
        let was_on_ground = self.on_ground;
        self.velocity[1] -= GRAVITY * h;
        self.feet[1] += self.velocity[1] * h;
        // Ground: the highest surface under the feet within a step up; while walking
        // on ground, follow it down a little too.
        let reach = if was_on_ground && self.velocity[1] <= 0.0 {
            SNAP_DOWN
        } else {
            0.0
        };
        match level.ground_at(self.feet[0], self.feet[2], self.feet[1] + STEP) {
            Some(g) if self.velocity[1] <= 0.0 && self.feet[1] <= g + reach => {
                self.feet[1] = g;
                self.velocity[1] = 0.0;
                self.on_ground = true;
            }
            _ => self.on_ground = false,
        }
    }

    /// Moves the capsule horizontally out of walls it overlaps.
    fn push_out(&mut self, level: &Level) {
        // Above the step height: what the walker can step onto is not a wall.
        let (lo, hi) = (self.feet[1] + STEP, self.feet[1] + BODY_HEIGHT);
        for _ in 0..3 {
            let mut moved = false;
            for (min, max) in &level.boxes {
                if max[1] <= lo || min[1] >= hi {
                    continue;
                }
                let cx = self.feet[0].clamp(min[0], max[0]);
                let cz = self.feet[2].clamp(min[2], max[2]);
                let (dx, dz) = (self.feet[0] - cx, self.feet[2] - cz);
                let d = libm::sqrtf(dx * dx + dz * dz);
                if d >= RADIUS {
                    continue;
                }
                if d > 1e-6 {
                    let k = (RADIUS - d) / d;
                    self.feet[0] += dx * k;
                    self.feet[2] += dz * k;
                } else {
                    // Inside the box: out through the nearest side.
                    let exits = [
                        (self.feet[0] - min[0] + RADIUS, [-1.0, 0.0]),
                        (max[0] - self.feet[0] + RADIUS, [1.0, 0.0]),
                        (self.feet[2] - min[2] + RADIUS, [0.0, -1.0]),
                        (max[2] - self.feet[2] + RADIUS, [0.0, 1.0]),
                    ];
                    let (dist, dir) = exits
                        .iter()
                        .fold(exits[0], |a, b| if b.0 < a.0 { *b } else { a });
                    self.feet[0] += dir[0] * dist;
                    self.feet[2] += dir[1] * dist;
                }
                moved = true;
            }
            for t in &level.walls {
                // Spheres along the body above the step height.
                for y in [lo + RADIUS, (lo + hi) * 0.5, hi - RADIUS] {
                    let centre = [self.feet[0], y, self.feet[2]];
                    let c = vec::closest_on_triangle(centre, t);
                    let mut d = vec::sub(centre, c);
                    d[1] = 0.0;
                    let len = vec::length(d);
                    if len < RADIUS && len > 1e-6 && (c[1] - y).abs() < RADIUS {
                        let k = (RADIUS - len) / len;
                        self.feet[0] += d[0] * k;
                        self.feet[2] += d[2] * k;
                        moved = true;
                    }
                }
            }
            if !moved {
                break;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;

    fn floor(y: f32) -> [[f32; 3]; 3] {
        [[-50.0, y, -50.0], [0.0, y, 50.0], [50.0, y, -50.0]]
    }

    fn level() -> Level {
        Level {
            ground: vec![floor(0.0)],
            kill_y: -30.0,
            ..Default::default()
        }
    }

    fn walk(level: &Level, w: &mut Walker, dir: [f32; 2], seconds: f32) {
        let input = WalkInput {
            move_xz: dir,
            speed: 1.0,
            jump: false,
        };
        for _ in 0..(seconds * 60.0) as usize {
            assert!(w.step(level, &input, 1.0 / 60.0));
        }
    }

    #[test]
    fn falls_onto_the_ground_and_stays() {
        let l = level();
        let mut w = Walker {
            feet: [0.0, 3.0, 0.0],
            velocity: [0.0; 3],
            on_ground: false,
        };
        walk(&l, &mut w, [0.0, 0.0], 2.0);
        assert!(w.on_ground);
        assert!(w.feet[1].abs() < 1e-5, "{:?}", w.feet);
        assert!((w.eye()[1] - EYE_HEIGHT).abs() < 1e-5);
    }

    #[test]
    fn a_box_blocks_and_its_top_is_ground() {
        let mut l = level();
        l.boxes.push(([2.0, 0.0, -5.0], [3.0, 2.0, 5.0]));
        l.boxes.push(([-3.0, 0.0, -5.0], [-2.0, 0.3, 5.0]));
        let mut w = Walker::at_eye(&l, [0.0, EYE_HEIGHT, 0.0]);
        // Walk into the tall box: stopped a radius from its face.
        walk(&l, &mut w, [1.0, 0.0], 2.0);
        assert!((w.feet[0] - (2.0 - RADIUS)).abs() < 0.02, "{:?}", w.feet);
        // The low box (x −3..−2) is a step: walked onto, standing on its top.
        walk(&l, &mut w, [-1.0, 0.0], 0.9);
        assert!(w.feet[0] < -2.1 && w.feet[0] > -3.0, "{:?}", w.feet);
        assert!(
            (w.feet[1] - 0.3).abs() < 1e-4 && w.on_ground,
            "{:?}",
            w.feet
        );
    }

    #[test]
    fn a_steep_wall_blocks_even_a_fast_step() {
        let mut l = level();
        // A wall facing −X at x = 1 (two triangles).
        l.walls
            .push([[1.0, 0.0, -5.0], [1.0, 3.0, 5.0], [1.0, 0.0, 5.0]]);
        l.walls
            .push([[1.0, 0.0, -5.0], [1.0, 3.0, -5.0], [1.0, 3.0, 5.0]]);
        let mut w = Walker::at_eye(&l, [0.0, EYE_HEIGHT, 0.0]);
        let input = WalkInput {
            move_xz: [1.0, 0.0],
            speed: 4.0,
            jump: false,
        };
        // One 0.1 s frame at 18 m/s would cross the wall without sub-steps.
        for _ in 0..10 {
            w.step(&l, &input, 0.1);
        }
        assert!(w.feet[0] < 1.0 - RADIUS + 0.02, "{:?}", w.feet);
    }

    #[test]
    fn walks_up_a_ramp_and_down_again() {
        let mut l = level();
        // A ramp rising +X from x = 2 (y 0) to x = 6 (y 1), z −2..2, then a deck.
        l.ground
            .push([[2.0, 0.0, -2.0], [6.0, 1.0, 2.0], [6.0, 1.0, -2.0]]);
        l.ground
            .push([[2.0, 0.0, -2.0], [2.0, 0.0, 2.0], [6.0, 1.0, 2.0]]);
        let mut w = Walker::at_eye(&l, [0.0, EYE_HEIGHT, 0.0]);
        walk(&l, &mut w, [1.0, 0.0], 1.0);
        // At x ≈ 4.5 the ramp is 0.625 high.
        assert!(w.on_ground);
        let expected = ((w.feet[0] - 2.0) / 4.0).clamp(0.0, 1.0);
        assert!(
            (w.feet[1] - expected).abs() < 0.02,
            "{:?} vs {expected}",
            w.feet
        );
        walk(&l, &mut w, [-1.0, 0.0], 2.0);
        assert!(w.on_ground && w.feet[1].abs() < 1e-4, "{:?}", w.feet);
    }

    #[test]
    fn jumping_lands_again_and_falling_out_is_reported() {
        let l = level();
        let mut w = Walker::at_eye(&l, [0.0, EYE_HEIGHT, 0.0]);
        let jump = WalkInput {
            move_xz: [0.0, 0.0],
            speed: 1.0,
            jump: true,
        };
        w.step(&l, &jump, 1.0 / 60.0);
        assert!(!w.on_ground && w.velocity[1] > 0.0);
        walk(&l, &mut w, [0.0, 0.0], 2.0);
        assert!(w.on_ground && w.feet[1].abs() < 1e-4);
        let mut off = Walker {
            feet: [100.0, 0.0, 100.0],
            velocity: [0.0; 3],
            on_ground: false,
        };
        let still = WalkInput::default();
        let fell = (0..600).any(|_| !off.step(&l, &still, 1.0 / 30.0));
        assert!(fell, "a walker off the map falls out");
    }
}
