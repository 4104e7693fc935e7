//! Stateless particle evaluation, exactly as the format specifies, so the editor and
//! the PSP runtime show the same field: per-particle constants from `rand`, closed-form
//! position/size/colour/rotation/flipbook at scene time `t`, and billboard quads.

use alloc::vec::Vec;
use core::f32::consts::TAU;

use crate::emitter::{EmitterLump, EmitterRecord, flags, sanitize_all};
use crate::error::Warning;
use crate::vec3::{add, cross, dot, length, scale, sub};

/// The format's integer hash (u32 wrapping arithmetic).
pub fn hash32(mut x: u32) -> u32 {
    x ^= x >> 16;
    x = x.wrapping_mul(0x7feb_352d);
    x ^= x >> 15;
    x = x.wrapping_mul(0x846c_a68b);
    x ^= x >> 16;
    x
}

/// Uniform in [0, 1): channel `c` of particle `i` of an emitter seeded `seed`.
pub fn rand(seed: u32, i: u32, c: u32) -> f32 {
    let h = hash32(seed ^ i.wrapping_mul(0x9E37_79B9) ^ c.wrapping_mul(0x85EB_CA6B));
    (h >> 8) as f32 * (1.0 / 16_777_216.0)
}

/// `a` scaled to unit length, or `None` when it has (almost) none.
fn normalize(a: [f32; 3]) -> Option<[f32; 3]> {
    let l = length(a);
    (l > 1e-12 && l.is_finite()).then(|| scale(a, 1.0 / l))
}

fn lerp(a: f32, b: f32, t: f32) -> f32 {
    a + (b - a) * t
}

fn frac(x: f64) -> f64 {
    x - libm::floor(x)
}

/// The right-handed orthonormal basis (w1, w2) perpendicular to the unit axis `a`
/// used for both the emission cone and the wobble: w1 = (−a.z, 0, a.x) when
/// |a.y| < 0.9, else (0, a.z, −a.y); w2 = a × w1.
pub fn perpendicular_basis(a: [f32; 3]) -> ([f32; 3], [f32; 3]) {
    let w1 = if a[1].abs() < 0.9 {
        [-a[2], 0.0, a[0]]
    } else {
        [0.0, a[2], -a[1]]
    };
    let w1 = normalize(w1).unwrap_or([1.0, 0.0, 0.0]);
    (w1, cross(a, w1))
}

/// Per-particle constants, derived once at load.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ParticleConstants {
    pub life: f32,
    pub inv_life: f32,
    pub phase: f32,
    pub speed: f32,
    pub size: f32,
    pub spin: f32,
    pub angle0: f32,
    pub wobble_phase: f32,
    pub anim_offset: f32,
    /// Unit emission direction.
    pub dir: [f32; 3],
    /// Spawn offset from the emitter origin.
    pub spawn: [f32; 3],
}

impl ParticleConstants {
    /// Constants of particle `i` of a sanitised emitter.
    pub fn derive(e: &EmitterRecord, i: u32, basis: ([f32; 3], [f32; 3])) -> Self {
        let u = |c: u32| rand(e.seed, i, c);
        let count = f32::from(e.count.max(1));
        let life = lerp(e.life_min, e.life_max, u(0));
        let phase = if e.flags & flags::PHASE_ALIGN != 0 {
            0.0
        } else {
            let p = i as f32 / count + u(1) / count;
            p - libm::floorf(p)
        };
        let theta = e.spread * libm::sqrtf(u(7));
        let phi = TAU * u(8);
        let (t1, t2) = basis;
        let (st, ct) = (libm::sinf(theta), libm::cosf(theta));
        let (sp, cp) = (libm::sinf(phi), libm::cosf(phi));
        let dir = add(
            scale(e.dir, ct),
            scale(add(scale(t1, cp), scale(t2, sp)), st),
        );
        let r = e.spawn_radius * libm::cbrtf(u(9));
        let cos_s = 2.0 * u(10) - 1.0;
        let sin_s = libm::sqrtf((1.0 - cos_s * cos_s).max(0.0));
        let az = TAU * u(11);
        let spawn = [
            r * sin_s * libm::cosf(az),
            r * sin_s * libm::sinf(az),
            r * cos_s,
        ];
        Self {
            life,
            inv_life: 1.0 / life,
            phase,
            speed: lerp(e.speed_min, e.speed_max, u(2)),
            size: lerp(e.size_min, e.size_max, u(3)),
            spin: lerp(e.spin_min, e.spin_max, u(4)),
            angle0: lerp(e.angle_min, e.angle_max, u(12)),
            wobble_phase: TAU * u(5),
            anim_offset: u(6),
            dir,
            spawn,
        }
    }
}

/// A sanitised emitter ready to evaluate.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PreparedEmitter {
    /// The record after clamps and budgets (`count` is the particles it shows).
    pub params: EmitterRecord,
    /// Index of its first particle in [`ParticleField::particles`].
    pub first_particle: u32,
    /// Radius around `params.pos` that holds every particle, for culling.
    pub cull_radius: f32,
    /// Basis perpendicular to `params.dir` (cone and wobble).
    pub basis: ([f32; 3], [f32; 3]),
}

/// Every emitter of a map with its particles' constants.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ParticleField {
    pub emitters: Vec<PreparedEmitter>,
    pub particles: Vec<ParticleConstants>,
}

impl ParticleField {
    /// Sanitises records (with file offsets when known), applies the budgets and
    /// derives every particle's constants.
    pub fn prepare(
        records: impl ExactSizeIterator<Item = (Option<u64>, EmitterRecord)>,
        num_textures: u32,
        warn: &mut dyn FnMut(Warning),
    ) -> Self {
        let mut field = Self::default();
        sanitize_all(records, num_textures, warn, |params, first_particle| {
            let basis = perpendicular_basis(params.dir);
            for i in 0..u32::from(params.count) {
                field
                    .particles
                    .push(ParticleConstants::derive(&params, i, basis));
            }
            field.emitters.push(PreparedEmitter {
                params,
                first_particle,
                cull_radius: params.cull_radius(),
                basis,
            });
        });
        field
    }

    /// The field of an owned lump.
    pub fn from_lump(lump: &EmitterLump, num_textures: u32, warn: &mut dyn FnMut(Warning)) -> Self {
        Self::prepare(lump.records.iter().map(|r| (None, *r)), num_textures, warn)
    }

    /// The particles of emitter `e`.
    pub fn particles_of(&self, e: &PreparedEmitter) -> &[ParticleConstants] {
        let start = e.first_particle as usize;
        let end = start + usize::from(e.params.count);
        self.particles.get(start..end).unwrap_or(&[])
    }
}

/// A particle at one instant.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ParticleState {
    /// Centre, world space.
    pub position: [f32; 3],
    pub velocity: [f32; 3],
    /// Life fraction in [0, 1).
    pub age: f32,
    /// Quad height, metres.
    pub height: f32,
    /// Quad width (`height × aspect`).
    pub width: f32,
    /// 0xAABBGGRR.
    pub color: u32,
    /// In-plane rotation, radians.
    pub rotation: f32,
    /// Flipbook cell: u0, v0 (top), u1, v1 (bottom).
    pub uv_rect: [f32; 4],
}

/// Interpolates two 0xAABBGGRR colours per 8-bit channel, `t` quantised to 1/256
/// (integer arithmetic, so every platform gets the same bytes).
pub fn lerp_color(a: u32, b: u32, t: f32) -> u32 {
    let q = libm::floorf(t.clamp(0.0, 1.0) * 256.0) as i32;
    let mut out = 0u32;
    for shift in [0u32, 8, 16, 24] {
        let ca = ((a >> shift) & 0xFF) as i32;
        let cb = ((b >> shift) & 0xFF) as i32;
        let c = ca + (((cb - ca) * q) >> 8);
        out |= (c.clamp(0, 255) as u32) << shift;
    }
    out
}

/// Evaluates particle `p` of emitter `e` at scene time `t` seconds. `texture_size`
/// (width, height) insets the flipbook cell by half a texel; `None` (the built-in
/// glow) gives the full cell.
pub fn evaluate(
    e: &PreparedEmitter,
    p: &ParticleConstants,
    t: f64,
    texture_size: Option<(u32, u32)>,
) -> ParticleState {
    let params = &e.params;
    let age = frac(t * f64::from(p.inv_life) + f64::from(p.phase)) as f32;
    let tau = age * p.life;
    let g = params.gravity;
    let lambda = params.damping;
    let v0 = scale(p.dir, p.speed);
    let (mut position, velocity) = if lambda > 0.0 {
        let decay = libm::expf(-lambda * tau);
        let k1 = (1.0 - decay) / lambda;
        let k2 = (tau - k1) / lambda;
        (
            add(add(params.pos, p.spawn), add(scale(v0, k1), scale(g, k2))),
            add(scale(v0, decay), scale(g, (1.0 - decay) / lambda)),
        )
    } else {
        (
            add(
                add(params.pos, p.spawn),
                add(scale(v0, tau), scale(g, 0.5 * tau * tau)),
            ),
            add(v0, scale(g, tau)),
        )
    };
    if params.wobble_amp > 0.0 {
        let w = TAU * params.wobble_freq * tau + p.wobble_phase;
        let (w1, w2) = e.basis;
        let offset = add(scale(w1, libm::sinf(w)), scale(w2, libm::cosf(w)));
        position = add(position, scale(offset, params.wobble_amp));
    }
    let knee = params.knee;
    let (segment, s) = if age < knee {
        (0, age / knee)
    } else {
        (1, (age - knee) / (1.0 - knee))
    };
    let (grow, color) = if segment == 0 {
        (
            lerp(1.0, params.size_mid, s),
            lerp_color(params.color_start, params.color_mid, s),
        )
    } else {
        (
            lerp(params.size_mid, params.size_end, s),
            lerp_color(params.color_mid, params.color_end, s),
        )
    };
    let height = p.size * grow;

    let cols = u32::from(params.atlas_cols.max(1));
    let rows = u32::from(params.atlas_rows.max(1));
    let frames = cols * rows;
    let cycle = frac(f64::from(age) * f64::from(params.anim_loops) + f64::from(p.anim_offset));
    let frame = ((cycle * f64::from(frames)) as u32).min(frames - 1);
    let (col, row) = (frame % cols, frame / cols);
    let (du, dv) = (1.0 / cols as f32, 1.0 / rows as f32);
    let (iu, iv) = match texture_size {
        Some((w, h)) if w > 0 && h > 0 => (0.5 / w as f32, 0.5 / h as f32),
        _ => (0.0, 0.0),
    };
    let uv_rect = [
        col as f32 * du + iu,
        row as f32 * dv + iv,
        (col + 1) as f32 * du - iu,
        (row + 1) as f32 * dv - iv,
    ];

    ParticleState {
        position,
        velocity,
        age,
        height,
        width: height * params.aspect,
        color,
        rotation: p.angle0 + p.spin * tau,
        uv_rect,
    }
}

/// Where the camera is and how it is turned (unit vectors, world space).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ViewBasis {
    pub eye: [f32; 3],
    pub right: [f32; 3],
    pub up: [f32; 3],
    pub forward: [f32; 3],
}

impl ViewBasis {
    /// Depth of a point along the view direction (for back-to-front sorting).
    pub fn depth(&self, p: [f32; 3]) -> f32 {
        dot(sub(p, self.eye), self.forward)
    }
}

/// A particle quad: corners bottom-left, bottom-right, top-right, top-left.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Quad {
    pub corners: [[f32; 3]; 4],
    pub uvs: [[f32; 2]; 4],
    pub color: u32,
}

impl Quad {
    /// Two triangles, counter-clockwise as seen from the camera: (BL, BR, TR) and
    /// (BL, TR, TL).
    pub fn triangles(&self) -> [([f32; 3], [f32; 2]); 6] {
        let v = |i: usize| (self.corners[i], self.uvs[i]);
        [v(0), v(1), v(2), v(0), v(2), v(3)]
    }
}

/// The unrotated (right, up) axes of a particle's quad for the emitter's mode.
///
/// Camera-facing: the camera's right and up. Y_LOCKED: up is world +Y and right is
/// horizontal, pointing to the camera's right (never rolled). VEL_ALIGN (wins over
/// Y_LOCKED): up follows the velocity and right points to the screen's right (never
/// mirrored). Degenerate cases fall back to the camera axes.
pub fn billboard_axes(flag_bits: u16, s: &ParticleState, view: &ViewBasis) -> ([f32; 3], [f32; 3]) {
    let camera = (view.right, view.up);
    if flag_bits & flags::VEL_ALIGN != 0 {
        let Some(up) = normalize(s.velocity) else {
            return camera;
        };
        let to_particle = normalize(sub(s.position, view.eye)).unwrap_or(view.forward);
        return match normalize(cross(to_particle, up)) {
            Some(right) => (right, up),
            None => camera,
        };
    }
    if flag_bits & flags::Y_LOCKED != 0 {
        let up = [0.0, 1.0, 0.0];
        let right = normalize(cross(view.forward, up))
            .or_else(|| normalize([view.right[0], 0.0, view.right[2]]));
        return match right {
            Some(right) => (right, up),
            None => camera,
        };
    }
    camera
}

/// The quad of a particle: `width × height`, rotated by `rotation` in its plane
/// (counter-clockwise as seen from the camera), flipbook cell mapped with v0 on top.
pub fn billboard(flag_bits: u16, s: &ParticleState, view: &ViewBasis) -> Quad {
    let (r, u) = billboard_axes(flag_bits, s, view);
    let (sin, cos) = (libm::sinf(s.rotation), libm::cosf(s.rotation));
    let r2 = scale(add(scale(r, cos), scale(u, sin)), 0.5 * s.width);
    let u2 = scale(sub(scale(u, cos), scale(r, sin)), 0.5 * s.height);
    let c = s.position;
    let [u0, v0, u1, v1] = s.uv_rect;
    Quad {
        corners: [
            sub(sub(c, r2), u2),
            sub(add(c, r2), u2),
            add(add(c, r2), u2),
            add(sub(c, r2), u2),
        ],
        uvs: [[u0, v1], [u1, v1], [u1, v0], [u0, v0]],
        color: s.color,
    }
}

/// The runtime's built-in particle glow, 32×32 RGBA8 (what an emitter without a
/// texture draws): c = 15.5, d = min(1, dist / c), f = smoothstep(1 − d), each
/// colour channel round(31·f) in five bits expanded to eight, alpha always opaque.
/// The falloff is in the colour, so it suits additive emitters. Shared so the
/// editor and the PSP runtime draw the same texels.
pub fn glow_rgba() -> Vec<u8> {
    let mut rgba = Vec::with_capacity(GLOW_SIZE * GLOW_SIZE * 4);
    for y in 0..GLOW_SIZE {
        for x in 0..GLOW_SIZE {
            let (dx, dy) = (x as f32 - 15.5, y as f32 - 15.5);
            let d = (libm::sqrtf(dx * dx + dy * dy) / 15.5).min(1.0);
            let f = 1.0 - d;
            let f = f * f * (3.0 - 2.0 * f);
            let c5 = libm::roundf(31.0 * f) as u8;
            let c8 = (c5 << 3) | (c5 >> 2);
            rgba.extend([c8, c8, c8, 255]);
        }
    }
    rgba
}

/// Width and height of [`glow_rgba`].
pub const GLOW_SIZE: usize = 32;
