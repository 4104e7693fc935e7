//! The ball pit: `count` balls dropped from random points of the spawn box, with
//! gravity, bounces on the ground below (or the box's floor) with the restitution
//! and a little friction, the spawn box's sides as walls, and sphere–sphere
//! collisions (overlap split in half, impulse (1 + e)·v_n·m₁m₂/(m₁ + m₂)). Explicit
//! Euler in fixed sub-steps of at most 1/240 s, so it behaves the same at any frame
//! rate.

use alloc::vec::Vec;

use crate::level::{Level, PitSpec};
use crate::vec::{self, V3};

pub use crate::level::MAX_BALLS;
const SUB_STEP: f32 = 1.0 / 240.0;

#[derive(Debug, Clone, PartialEq)]
pub struct BallPit {
    pub spec: PitSpec,
    pub positions: Vec<V3>,
    pub velocities: Vec<V3>,
    floor: f32,
}

impl BallPit {
    pub fn new(spec: &PitSpec, level: &Level) -> Self {
        let (min, max) = (spec.min, spec.max);
        let r = spec.radius;
        let positions: Vec<V3> = (0..spec.count.min(MAX_BALLS as u32))
            .map(|k| {
                // The particle system's hash: deterministic on every platform.
                let c = |ch: u32, lo: f32, hi: f32| {
                    let span = (hi - lo - 2.0 * r).max(0.0);
                    lo + r + span * pbm::particle::rand(0xBA11, k, ch)
                };
                [
                    c(0, min[0], max[0]),
                    c(1, min[1], max[1]),
                    c(2, min[2], max[2]),
                ]
            })
            .collect();
        let centre = [(min[0] + max[0]) * 0.5, (min[2] + max[2]) * 0.5];
        let floor = level
            .ground_at(centre[0], centre[1], max[1])
            .unwrap_or(min[1]);
        Self {
            velocities: alloc::vec![[0.0; 3]; positions.len()],
            positions,
            spec: spec.clone(),
            floor,
        }
    }

    pub fn step(&mut self, dt: f32) {
        let steps = libm::ceilf(dt.clamp(0.0, 0.1) / SUB_STEP).max(1.0) as u32;
        let h = dt.clamp(0.0, 0.1) / steps as f32;
        for _ in 0..steps {
            self.sub_step(h);
        }
    }

    fn sub_step(&mut self, h: f32) {
        let (r, e) = (self.spec.radius, self.spec.restitution);
        let (min, max) = (self.spec.min, self.spec.max);
        for (p, v) in self.positions.iter_mut().zip(&mut self.velocities) {
            v[1] -= crate::walk::GRAVITY * h;
            *p = vec::add(*p, vec::scale(*v, h));
            if p[1] - r < self.floor {
                p[1] = self.floor + r;
                if v[1] < 0.0 {
                    v[1] = -v[1] * e;
                    v[0] *= 0.98;
                    v[2] *= 0.98;
                }
            }
            for axis in [0, 2] {
                if p[axis] - r < min[axis] {
                    p[axis] = min[axis] + r;
                    v[axis] = v[axis].abs() * e;
                } else if p[axis] + r > max[axis] {
                    p[axis] = max[axis] - r;
                    v[axis] = -v[axis].abs() * e;
                }
            }
        }
        let n = self.positions.len();
        let m = self.spec.mass;
        for i in 0..n {
            for j in i + 1..n {
                let d = vec::sub(self.positions[j], self.positions[i]);
                let dist = vec::length(d);
                if dist >= 2.0 * r || dist < 1e-6 {
                    continue;
                }
                let normal = vec::scale(d, 1.0 / dist);
                let push = vec::scale(normal, (2.0 * r - dist) * 0.5);
                self.positions[i] = vec::sub(self.positions[i], push);
                self.positions[j] = vec::add(self.positions[j], push);
                let closing = vec::dot(vec::sub(self.velocities[i], self.velocities[j]), normal);
                if closing > 0.0 {
                    // Equal or given masses: impulse (1 + e)·closing·m₁m₂/(m₁ + m₂).
                    let impulse = (1.0 + e) * closing * m * m / (m + m);
                    self.velocities[i] =
                        vec::sub(self.velocities[i], vec::scale(normal, impulse / m));
                    self.velocities[j] =
                        vec::add(self.velocities[j], vec::scale(normal, impulse / m));
                }
            }
        }
    }

    /// Kinetic plus potential energy (above the floor), for tests.
    pub fn energy(&self) -> f32 {
        let m = self.spec.mass;
        self.positions
            .iter()
            .zip(&self.velocities)
            .map(|(p, v)| {
                0.5 * m * vec::dot(*v, *v)
                    + m * crate::walk::GRAVITY * (p[1] - self.floor - self.spec.radius)
            })
            .sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pit(restitution: f32) -> BallPit {
        let spec = PitSpec {
            count: 16,
            radius: 0.22,
            mass: 1.0,
            restitution,
            min: [-1.2, 0.0, -1.2],
            max: [1.2, 2.0, 1.2],
        };
        BallPit::new(&spec, &Level::default())
    }

    #[test]
    fn balls_settle_inside_the_pit_without_overlapping() {
        let mut p = pit(0.75);
        let e0 = p.energy();
        for _ in 0..60 * 20 {
            p.step(1.0 / 60.0);
        }
        assert!(p.energy() < e0 * 0.05, "energy {} of {e0}", p.energy());
        let r = p.spec.radius;
        for (i, a) in p.positions.iter().enumerate() {
            assert!(a[1] >= r - 1e-3, "ball {i} below the floor: {a:?}");
            assert!(
                a[0].abs() <= 1.2 - r + 1e-3 && a[2].abs() <= 1.2 - r + 1e-3,
                "ball {i} out: {a:?}"
            );
            for b in &p.positions[i + 1..] {
                assert!(
                    vec::length(vec::sub(*a, *b)) > 2.0 * r * 0.9,
                    "balls overlap: {a:?} {b:?}"
                );
            }
        }
    }

    #[test]
    fn same_start_same_result_at_any_frame_rate_split() {
        let (mut a, mut b) = (pit(0.75), pit(0.75));
        for _ in 0..120 {
            a.step(1.0 / 60.0);
        }
        for _ in 0..60 {
            b.step(1.0 / 30.0);
        }
        // Sub-steps are fixed-size-ish: close, not bit-equal (1/30 splits into 8 of
        // 1/240, 1/60 into 4 — the same steps).
        for (p, q) in a.positions.iter().zip(&b.positions) {
            assert!(vec::length(vec::sub(*p, *q)) < 1e-3, "{p:?} {q:?}");
        }
    }

    #[test]
    fn a_perfectly_elastic_ball_keeps_bouncing() {
        let mut p = pit(1.0);
        p.positions.truncate(1);
        p.velocities.truncate(1);
        let e0 = p.energy();
        for _ in 0..600 {
            p.step(1.0 / 60.0);
        }
        assert!(
            (p.energy() - e0).abs() < e0 * 0.05,
            "{} vs {e0}",
            p.energy()
        );
    }
}
