//! Particle evaluation behaves as the format says: motion integrates the physics,
//! curves are continuous, cones and spawn spheres hold, flipbooks cover their cells,
//! and billboards are neither rolled nor mirrored.
// Index loops over x, y, z read closer to the maths than iterator chains.
#![allow(clippy::needless_range_loop)]

use pbm::emitter::{EmitterRecord, flags};
use pbm::particle::{ParticleField, ViewBasis, billboard, evaluate, hash32, lerp_color, rand};
use proptest::prelude::*;

fn field_of(record: EmitterRecord) -> ParticleField {
    let mut warnings = Vec::new();
    let field = ParticleField::prepare([(None, record)].into_iter(), 4, &mut |w| warnings.push(w));
    assert!(warnings.is_empty(), "{warnings:?}");
    field
}

fn sub(a: [f32; 3], b: [f32; 3]) -> [f32; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

fn dot(a: [f32; 3], b: [f32; 3]) -> f32 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

fn cross(a: [f32; 3], b: [f32; 3]) -> [f32; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

fn len(a: [f32; 3]) -> f32 {
    dot(a, a).sqrt()
}

#[test]
fn hash_and_rand_follow_the_spec() {
    // Reference values of the integer hash (computed by hand from the spec's steps).
    let manual = |mut x: u32| {
        x ^= x >> 16;
        x = x.wrapping_mul(0x7feb352d);
        x ^= x >> 15;
        x = x.wrapping_mul(0x846ca68b);
        x ^ (x >> 16)
    };
    for x in [0u32, 1, 42, 0xDEAD_BEEF, u32::MAX] {
        assert_eq!(hash32(x), manual(x));
    }
    let mut sum = 0.0f64;
    for i in 0..10_000 {
        let r = rand(7, i, 3);
        assert!((0.0..1.0).contains(&r));
        sum += f64::from(r);
    }
    assert!(
        (sum / 10_000.0 - 0.5).abs() < 0.02,
        "mean {}",
        sum / 10_000.0
    );
    assert_ne!(rand(7, 1, 3), rand(7, 1, 4), "channels differ");
}

#[test]
fn velocity_is_the_derivative_of_position_with_and_without_damping() {
    for damping in [0.0, 0.7, 3.0] {
        let field = field_of(EmitterRecord {
            damping,
            gravity: [0.3, -9.8, 0.1],
            count: 8,
            ..EmitterRecord::default()
        });
        let e = &field.emitters[0];
        for p in field.particles_of(e) {
            // Stay inside one life so that age does not wrap between samples.
            let t = f64::from(p.life) * (0.5 - f64::from(p.phase)).rem_euclid(1.0);
            let h = 1e-3;
            let a = evaluate(e, p, t - h, None);
            let b = evaluate(e, p, t + h, None);
            let mid = evaluate(e, p, t, None);
            for k in 0..3 {
                let numeric = (b.position[k] - a.position[k]) / (2.0 * h as f32);
                assert!(
                    (numeric - mid.velocity[k]).abs() < 0.02 + 0.01 * numeric.abs(),
                    "λ={damping} axis {k}: {numeric} vs {}",
                    mid.velocity[k]
                );
            }
        }
    }
}

#[test]
fn damped_motion_matches_a_numeric_integration() {
    let record = EmitterRecord {
        damping: 1.5,
        gravity: [0.0, -4.0, 0.0],
        spread: 0.0,
        count: 1,
        flags: flags::PHASE_ALIGN,
        ..EmitterRecord::default()
    };
    let field = field_of(record);
    let (e, p) = (&field.emitters[0], &field.particles[0]);
    // Euler on v' = g − λv from the particle's birth.
    let (mut pos, mut vel) = (p.spawn, p.dir.map(|d| d * p.speed));
    let steps = 100_000;
    let tau = 0.6 * p.life;
    let dt = tau / steps as f32;
    for _ in 0..steps {
        for k in 0..3 {
            pos[k] += vel[k] * dt;
            vel[k] += (record.gravity[k] - record.damping * vel[k]) * dt;
        }
    }
    let s = evaluate(e, p, f64::from(tau), None);
    for k in 0..3 {
        assert!(
            (s.position[k] - pos[k]).abs() < 1e-3,
            "axis {k}: {} vs {}",
            s.position[k],
            pos[k]
        );
    }
}

#[test]
fn size_and_colour_are_continuous_at_the_knee_and_hit_their_keys() {
    let record = EmitterRecord {
        size_mid: 2.0,
        size_end: 0.25,
        knee: 0.3,
        color_start: 0xFF00_00FF,
        color_mid: 0x8000_FF00,
        color_end: 0x00FF_0000,
        flags: flags::PHASE_ALIGN,
        count: 1,
        ..EmitterRecord::default()
    };
    let field = field_of(record);
    let (e, p) = (&field.emitters[0], &field.particles[0]);
    let at = |age: f32| evaluate(e, p, f64::from(age * p.life), None);
    assert_eq!(at(0.0).height, p.size);
    assert_eq!(at(0.0).color, 0xFF00_00FF);
    let before = at(0.3 - 1e-4);
    let after = at(0.3 + 1e-4);
    assert!(
        (before.height - 2.0 * p.size).abs() < 1e-3 && (after.height - 2.0 * p.size).abs() < 1e-3
    );
    assert_eq!(after.color, 0x8000_FF00);
    assert!((at(0.9999).height - 0.25 * p.size).abs() < 1e-3);
    assert_eq!(lerp_color(0x0000_0000, 0xFFFF_FFFF, 0.5), 0x7F7F_7F7F);
    assert_eq!(lerp_color(0x1020_3040, 0x1020_3040, 0.77), 0x1020_3040);
}

#[test]
fn phases_spread_evenly_and_phase_align_starts_together() {
    let field = field_of(EmitterRecord {
        count: 32,
        ..EmitterRecord::default()
    });
    for (i, p) in field.particles.iter().enumerate() {
        let lo = i as f32 / 32.0;
        assert!(
            p.phase >= lo - 1e-6 && p.phase < lo + 1.0 / 32.0 + 1e-6,
            "{i}: {}",
            p.phase
        );
    }
    let field = field_of(EmitterRecord {
        count: 32,
        flags: flags::PHASE_ALIGN,
        ..EmitterRecord::default()
    });
    assert!(field.particles.iter().all(|p| p.phase == 0.0));
}

#[test]
fn flipbook_visits_every_cell_with_a_half_texel_inset() {
    let field = field_of(EmitterRecord {
        atlas_cols: 4,
        atlas_rows: 2,
        anim_loops: 1,
        count: 1,
        flags: flags::PHASE_ALIGN,
        ..EmitterRecord::default()
    });
    let (e, p) = (&field.emitters[0], &field.particles[0]);
    let mut seen = std::collections::BTreeSet::new();
    for k in 0..400 {
        let s = evaluate(
            e,
            p,
            f64::from(p.life) * f64::from(k) / 400.0,
            Some((64, 32)),
        );
        let [u0, v0, u1, v1] = s.uv_rect;
        let col = (u0 * 4.0).floor() as u32;
        let row = (v0 * 2.0).floor() as u32;
        assert!((u0 - (col as f32 / 4.0 + 0.5 / 64.0)).abs() < 1e-6);
        assert!((u1 - ((col + 1) as f32 / 4.0 - 0.5 / 64.0)).abs() < 1e-6);
        assert!((v0 - (row as f32 / 2.0 + 0.5 / 32.0)).abs() < 1e-6);
        assert!((v1 - ((row + 1) as f32 / 2.0 - 0.5 / 32.0)).abs() < 1e-6);
        seen.insert((col, row));
    }
    assert_eq!(seen.len(), 8);
}

fn camera(pitch: f32) -> ViewBasis {
    // Looking down −Z, pitched by `pitch` (negative = looking down).
    let forward = [0.0, pitch.sin(), -pitch.cos()];
    let right = [1.0, 0.0, 0.0];
    ViewBasis {
        eye: [0.0, 0.0, 5.0],
        right,
        up: cross(right, forward),
        forward,
    }
}

fn quad_axes(
    flags: u16,
    velocity: [f32; 3],
    view: &ViewBasis,
) -> ([f32; 3], [f32; 3], pbm::particle::Quad) {
    let field = field_of(EmitterRecord {
        count: 1,
        ..EmitterRecord::default()
    });
    let mut s = evaluate(&field.emitters[0], &field.particles[0], 0.1, None);
    s.position = [0.0, 0.0, 0.0];
    s.velocity = velocity;
    s.rotation = 0.0;
    let q = billboard(flags, &s, view);
    let right = sub(q.corners[1], q.corners[0]); // BR − BL
    let up = sub(q.corners[3], q.corners[0]); // TL − BL
    (right, up, q)
}

#[test]
fn camera_facing_quads_follow_the_camera() {
    let view = camera(-0.5);
    let (r, u, _) = quad_axes(0, [0.0, 1.0, 0.0], &view);
    assert!(dot(r, view.right) > 0.99 * len(r));
    assert!(dot(u, view.up) > 0.99 * len(u));
}

#[test]
fn y_locked_quads_stand_upright_without_rolling() {
    let view = camera(-0.6);
    let (r, u, _) = quad_axes(flags::Y_LOCKED, [0.0, 1.0, 0.0], &view);
    assert!(
        (u[1] - len(u)).abs() < 1e-5 && u[0].abs() < 1e-6 && u[2].abs() < 1e-6,
        "up stays world up: {u:?}"
    );
    assert!(
        dot(r, view.right) > 0.99 * len(r),
        "right agrees with the screen's right: {r:?}"
    );
    // Looking straight down still gives a horizontal right axis.
    let down = camera(-std::f32::consts::FRAC_PI_2);
    let (r, _, _) = quad_axes(flags::Y_LOCKED, [0.0, 1.0, 0.0], &down);
    assert!(r[1].abs() < 1e-6 && len(r) > 0.0);
}

#[test]
fn velocity_aligned_quads_are_not_mirrored() {
    let view = camera(0.0);
    let (r, u, _) = quad_axes(flags::VEL_ALIGN | flags::Y_LOCKED, [0.0, 3.0, 0.0], &view);
    assert!(u[1] > 0.99 * len(u), "up follows the velocity");
    assert!(
        dot(r, view.right) > 0.99 * len(r),
        "right is the screen's right, not its left: {r:?}"
    );
    let (_, u, _) = quad_axes(flags::VEL_ALIGN, [2.0, 0.0, 0.0], &view);
    assert!(u[0] > 0.99 * len(u));
}

#[test]
fn quad_triangles_face_the_camera_and_rotation_turns_counter_clockwise() {
    let view = camera(-0.3);
    let (_, _, q) = quad_axes(0, [0.0, 1.0, 0.0], &view);
    let tris = q.triangles();
    for t in tris.chunks(3) {
        let n = cross(sub(t[1].0, t[0].0), sub(t[2].0, t[0].0));
        assert!(
            dot(n, sub(view.eye, t[0].0)) > 0.0,
            "counter-clockwise seen from the camera"
        );
    }
    let field = field_of(EmitterRecord {
        count: 1,
        ..EmitterRecord::default()
    });
    let mut s = evaluate(&field.emitters[0], &field.particles[0], 0.1, None);
    s.rotation = 0.3;
    let q = billboard(0, &s, &view);
    let up = sub(q.corners[3], q.corners[0]);
    // Turning counter-clockwise on screen leans the up edge to the left.
    assert!(dot(up, view.right) < 0.0);
}

proptest! {
    #[test]
    fn cone_and_spawn_sphere_hold(
        dir in [-1.0f32..1.0, -1.0f32..1.0, -1.0f32..1.0],
        spread in 0.0f32..std::f32::consts::PI,
        radius in 0.0f32..5.0,
        seed in any::<u32>(),
    ) {
        prop_assume!(len(dir) > 0.1);
        let field = field_of(EmitterRecord { dir, spread, spawn_radius: radius, seed, count: 64, ..EmitterRecord::default() });
        let axis = field.emitters[0].params.dir;
        for p in &field.particles {
            prop_assert!((len(p.dir) - 1.0).abs() < 1e-4);
            let angle = dot(p.dir, axis).clamp(-1.0, 1.0).acos();
            prop_assert!(angle <= spread + 1e-3, "angle {} > spread {}", angle, spread);
            prop_assert!(len(p.spawn) <= radius * 1.0001 + 1e-6);
        }
    }
}
