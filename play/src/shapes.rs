//! The shapes gameplay draws, shared so the PSP runtime and the editor's preview
//! show the same pixels: patrol spheres and balls as 6 × 8 spheres (288 vertices,
//! untextured) lit once, colour × (0.4 + 0.6·max(0, n·(0.5, 0.8, 0.3))).

use alloc::vec::Vec;

use crate::balls::BallPit;
use crate::level::Level;
use crate::vec::V3;

/// A sphere to draw.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sphere {
    pub centre: V3,
    pub radius: f32,
    /// 0xAABBGGRR.
    pub color: u32,
}

/// The colour of sound sources' markers (0xAABBGGRR), the editor's overlay's.
pub const SOUND_COLOR: u32 = 0xFF_B0_E8_20;

/// A small sphere at each sound source, for a debug view.
pub fn sound_spheres(sounds: &[crate::level::SoundPoint]) -> impl Iterator<Item = Sphere> + '_ {
    sounds.iter().map(|s| Sphere {
        centre: s.position,
        radius: 0.25,
        color: SOUND_COLOR,
    })
}

/// The game entities' markers' colours by kind index (0xAABBGGRR): magenta
/// first, then hues no other marker uses.
pub const GAME_COLORS: [u32; 4] = [0xFF_FF_40_FF, 0xFF_40_A0_FF, 0xFF_FF_C0_60, 0xFF_80_FF_C0];

/// A small sphere at each game entity, coloured by its kind, for a debug view.
pub fn game_entity_spheres(
    markers: &[crate::level::GameMarker],
) -> impl Iterator<Item = Sphere> + '_ {
    markers.iter().map(|m| Sphere {
        centre: [m.position[0], m.position[1] + 0.3, m.position[2]],
        radius: 0.3,
        color: GAME_COLORS[m.kind as usize % GAME_COLORS.len()],
    })
}

/// Ball colours, by index.
pub const BALL_COLORS: [u32; 4] = [0xff3050e0, 0xff30c0f0, 0xff60d050, 0xffe07040];

/// The unit sphere's triangles (counter-clockwise seen from outside) as (position,
/// lit 0xAABBGGRR colour).
pub fn unit_sphere(color: u32) -> Vec<(V3, u32)> {
    let (stacks, slices) = (6u32, 8u32);
    let point = |i: u32, j: u32| {
        let theta = core::f32::consts::PI * i as f32 / stacks as f32;
        let phi = core::f32::consts::TAU * j as f32 / slices as f32;
        let (st, ct) = (libm::sinf(theta), libm::cosf(theta));
        [st * libm::cosf(phi), ct, -st * libm::sinf(phi)]
    };
    let shade = |n: V3| {
        let l = 0.4 + 0.6 * (0.5 * n[0] + 0.8 * n[1] + 0.3 * n[2]).max(0.0);
        let ch = |s: u32| (((color >> s) & 0xff) as f32 * l) as u32;
        ch(0) | (ch(8) << 8) | (ch(16) << 16) | 0xff00_0000
    };
    let mut out = Vec::with_capacity((stacks * slices * 6) as usize);
    for i in 0..stacks {
        for j in 0..slices {
            let (a, b, c, d) = (
                point(i, j),
                point(i + 1, j),
                point(i + 1, j + 1),
                point(i, j + 1),
            );
            for p in [a, b, c, a, c, d] {
                out.push((p, shade(p)));
            }
        }
    }
    out
}

/// The balls of a pit, coloured by index.
pub fn ball_spheres(pit: &BallPit) -> impl Iterator<Item = Sphere> + '_ {
    pit.positions.iter().enumerate().map(|(k, p)| Sphere {
        centre: *p,
        radius: pit.spec.radius,
        color: BALL_COLORS[k % BALL_COLORS.len()],
    })
}

/// What a frozen clock at `t` shows: patrols where `t` puts them, the ball pit
/// simulated from its start in 1/60 s steps (as a scripted capture does).
pub fn entities_at(level: &Level, t: f64) -> Vec<Sphere> {
    let mut out: Vec<Sphere> = level
        .patrols
        .iter()
        .map(|p| Sphere {
            centre: p.position(t),
            radius: p.radius,
            color: p.color,
        })
        .collect();
    if let Some(spec) = &level.pit {
        let mut pit = BallPit::new(spec, level);
        for _ in 0..libm::round(t * 60.0).clamp(0.0, 36_000.0) as u32 {
            pit.step(1.0 / 60.0);
        }
        out.extend(ball_spheres(&pit));
    }
    out
}

/// A sphere's triangles in world space.
pub fn sphere_triangles(s: &Sphere) -> impl Iterator<Item = (V3, u32)> {
    let s = *s;
    unit_sphere(s.color)
        .into_iter()
        .map(move |(p, col)| (on_sphere(p, &s), col))
}

/// A point of a [`unit_sphere`] moved and scaled to `s` (a caller drawing many
/// spheres of few colours keeps one unit sphere per colour and places it).
pub fn on_sphere(p: V3, s: &Sphere) -> V3 {
    let (c, r) = (s.centre, s.radius);
    [c[0] + p[0] * r, c[1] + p[1] * r, c[2] + p[2] * r]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sphere_faces_outwards_and_is_lit_from_above() {
        let tris = unit_sphere(0xffffffff);
        assert_eq!(tris.len(), 288);
        for t in tris.chunks(3) {
            let (a, b, c) = (t[0].0, t[1].0, t[2].0);
            let n = crate::vec::cross(crate::vec::sub(b, a), crate::vec::sub(c, a));
            let centre = crate::vec::scale(crate::vec::add(crate::vec::add(a, b), c), 1.0 / 3.0);
            // Degenerate triangles at the poles have no normal.
            if crate::vec::length(n) > 1e-6 {
                assert!(crate::vec::dot(n, centre) > 0.0, "inward face {t:?}");
            }
        }
        let top = tris.iter().find(|(p, _)| p[1] > 0.99).expect("a pole").1;
        let bottom = tris.iter().find(|(p, _)| p[1] < -0.99).expect("a pole").1;
        assert!(top & 0xff > bottom & 0xff);
    }
}
