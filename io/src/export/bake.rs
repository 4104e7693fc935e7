//! Baked vertex lighting: sun with shadows, omni lights with distance falloff and
//! shadows, hemisphere ambient by normal and ambient occlusion by cosine-weighted
//! rays, multiplied into the vertex colours.
//!
//! Shadow and AO rays are traced against every opaque and cutout triangle through a
//! BVH built once; a ray that hits a cutout texel under 50 % alpha passes through.
//! Each unique (position, normal) vertex is lit once; vertices are spread over a
//! rayon pool and every vertex's rays come from a hash of its own position, so the
//! output is identical whatever the thread count.

use std::collections::HashMap;

use pbm::{AlphaMode as PbmAlpha, Map};
use pebble_model::entity::{EntityKind, Light};
use pebble_model::glam::{Vec3, Vec3A};
use pebble_model::scene::Environment;
use pebble_model::{Kind, Scene};
use rayon::prelude::*;

use super::{ExportError, Run};

/// Lights after the environment preset filled in what the scene does not set.
#[derive(Debug, Clone)]
pub struct Lighting {
    pub suns: Vec<(Vec3, Vec3, bool)>,
    pub omnis: Vec<(Vec3, Vec3, f32, bool)>,
    pub sky: Vec3,
    pub ground: Vec3,
    pub ao_strength: f32,
    pub ao_radius: f32,
}

/// The sun and sky an environment preset supplies (direction toward the ground).
pub fn preset(env: Environment) -> (Vec3, Vec3, Vec3, Vec3) {
    match env {
        Environment::Dawn => (
            Vec3::new(0.8, -0.35, -0.2),
            Vec3::new(1.0, 0.72, 0.55),
            Vec3::new(0.35, 0.32, 0.42),
            Vec3::new(0.16, 0.13, 0.12),
        ),
        Environment::Day => (
            Vec3::new(-0.4, -1.0, -0.3),
            Vec3::new(1.0, 0.96, 0.88),
            Vec3::new(0.42, 0.5, 0.62),
            Vec3::new(0.22, 0.2, 0.18),
        ),
        Environment::Dusk => (
            Vec3::new(-0.8, -0.3, 0.3),
            Vec3::new(1.0, 0.58, 0.35),
            Vec3::new(0.3, 0.24, 0.34),
            Vec3::new(0.12, 0.1, 0.1),
        ),
        Environment::Night => (
            Vec3::new(0.2, -1.0, 0.4),
            Vec3::new(0.35, 0.42, 0.6),
            Vec3::new(0.08, 0.1, 0.16),
            Vec3::new(0.04, 0.04, 0.05),
        ),
    }
}

impl Lighting {
    pub fn of(scene: &Scene) -> Self {
        let (sun_dir, sun_color, sky, ground) = preset(scene.settings().environment);
        let mut l = Lighting {
            suns: Vec::new(),
            omnis: Vec::new(),
            sky,
            ground,
            ao_strength: 0.6,
            ao_radius: 1.5,
        };
        let mut has_sun = false;
        for e in scene.entities_of(Kind::Light) {
            if !super::geometry::drawn(scene, e.id) {
                continue;
            }
            match &e.kind {
                EntityKind::Light(Light::Sun {
                    direction,
                    color,
                    intensity,
                    shadows,
                }) => {
                    has_sun = true;
                    l.suns.push((
                        direction.normalize_or(Vec3::NEG_Y),
                        Vec3::from(*color) * *intensity,
                        *shadows,
                    ));
                }
                EntityKind::Light(Light::Omni {
                    color,
                    radius,
                    intensity,
                    shadows,
                }) => {
                    let at = Vec3::from(scene.world_transform(e.id).translation);
                    l.omnis.push((
                        at,
                        Vec3::from(*color) * *intensity,
                        radius.max(1e-3),
                        *shadows,
                    ));
                }
                EntityKind::Light(Light::Hemisphere {
                    sky,
                    ground,
                    ao_strength,
                    ao_radius,
                }) => {
                    l.sky = Vec3::from(*sky);
                    l.ground = Vec3::from(*ground);
                    l.ao_strength = ao_strength.clamp(0.0, 1.0);
                    l.ao_radius = ao_radius.max(0.0);
                }
                _ => {}
            }
        }
        if !has_sun {
            l.suns.push((sun_dir.normalize(), sun_color, true));
        }
        l
    }
}

#[derive(Debug, Clone, Copy)]
struct Tri {
    p: [Vec3A; 3],
    uv: [[f32; 2]; 3],
    /// Texture to test for cutout alpha, if any.
    cutout: Option<u32>,
}

#[derive(Debug, Clone, Copy)]
struct Node {
    lo: Vec3A,
    hi: Vec3A,
    /// Leaf: first triangle and count; inner: left child index (right = left + 1).
    start: u32,
    count: u32,
}

/// A bounding-volume hierarchy over triangles, for any-hit queries.
#[derive(Debug)]
pub struct Bvh {
    nodes: Vec<Node>,
    tris: Vec<Tri>,
    alpha: Vec<(u32, u32, Vec<u8>)>,
}

const LEAF: usize = 4;

impl Bvh {
    fn build(mut tris: Vec<Tri>, alpha: Vec<(u32, u32, Vec<u8>)>) -> Self {
        let mut nodes = vec![Node {
            lo: Vec3A::ZERO,
            hi: Vec3A::ZERO,
            start: 0,
            count: tris.len() as u32,
        }];
        let mut stack = vec![0usize];
        while let Some(n) = stack.pop() {
            let (start, count) = (nodes[n].start as usize, nodes[n].count as usize);
            let slice = &mut tris[start..start + count];
            let (mut lo, mut hi) = (Vec3A::splat(f32::INFINITY), Vec3A::splat(f32::NEG_INFINITY));
            for t in slice.iter() {
                for p in t.p {
                    lo = lo.min(p);
                    hi = hi.max(p);
                }
            }
            nodes[n].lo = lo;
            nodes[n].hi = hi;
            if count <= LEAF {
                continue;
            }
            let c = |t: &Tri| (t.p[0] + t.p[1] + t.p[2]) / 3.0;
            let e = hi - lo;
            let axis = if e.x >= e.y && e.x >= e.z {
                0
            } else if e.y >= e.z {
                1
            } else {
                2
            };
            let half = count / 2;
            // A median partition, O(n) per level (deterministic for the same input).
            slice.select_nth_unstable_by(half, |a, b| c(a)[axis].total_cmp(&c(b)[axis]));
            let left = nodes.len();
            nodes.push(Node {
                lo,
                hi,
                start: start as u32,
                count: half as u32,
            });
            nodes.push(Node {
                lo,
                hi,
                start: (start + half) as u32,
                count: (count - half) as u32,
            });
            nodes[n].start = left as u32;
            nodes[n].count = 0;
            stack.push(left);
            stack.push(left + 1);
        }
        Self { nodes, tris, alpha }
    }

    fn slab(lo: Vec3A, hi: Vec3A, o: Vec3A, inv: Vec3A, tmax: f32) -> bool {
        let t0 = (lo - o) * inv;
        let t1 = (hi - o) * inv;
        let tmin = t0.min(t1).max_element().max(0.0);
        let tfar = t0.max(t1).min_element().min(tmax);
        tmin <= tfar
    }

    /// Möller–Trumbore; the hit distance and barycentrics.
    fn hit(t: &Tri, o: Vec3A, d: Vec3A, tmax: f32) -> Option<(f32, f32, f32)> {
        let e1 = t.p[1] - t.p[0];
        let e2 = t.p[2] - t.p[0];
        let p = d.cross(e2);
        let det = e1.dot(p);
        if det.abs() < 1e-12 {
            return None;
        }
        let inv = 1.0 / det;
        let s = o - t.p[0];
        let u = s.dot(p) * inv;
        if !(0.0..=1.0).contains(&u) {
            return None;
        }
        let q = s.cross(e1);
        let v = d.dot(q) * inv;
        if v < 0.0 || u + v > 1.0 {
            return None;
        }
        let dist = e2.dot(q) * inv;
        (dist > 1e-4 && dist < tmax).then_some((dist, u, v))
    }

    fn passes_cutout(&self, t: &Tri, u: f32, v: f32) -> bool {
        let Some(tex) = t.cutout else { return false };
        let Some((w, h, alpha)) = self.alpha.get(tex as usize) else {
            return false;
        };
        let w0 = 1.0 - u - v;
        let tu = t.uv[0][0] * w0 + t.uv[1][0] * u + t.uv[2][0] * v;
        let tv = t.uv[0][1] * w0 + t.uv[1][1] * u + t.uv[2][1] * v;
        let x = ((tu - tu.floor()) * *w as f32) as usize % (*w as usize).max(1);
        let y = ((tv - tv.floor()) * *h as f32) as usize % (*h as usize).max(1);
        alpha.get(y * *w as usize + x).is_some_and(|a| *a < 128)
    }

    /// Whether anything blocks the ray from `o` along unit `d` before `tmax`.
    pub fn occluded(&self, o: Vec3, d: Vec3, tmax: f32) -> bool {
        if self.tris.is_empty() {
            return false;
        }
        let (o, d) = (Vec3A::from(o), Vec3A::from(d));
        let inv = Vec3A::ONE / d;
        let mut stack = [0u32; 64];
        let mut sp = 1;
        while sp > 0 {
            sp -= 1;
            let n = self.nodes[stack[sp] as usize];
            if !Self::slab(n.lo, n.hi, o, inv, tmax) {
                continue;
            }
            if n.count > 0 {
                for t in &self.tris[n.start as usize..(n.start + n.count) as usize] {
                    if let Some((_, u, v)) = Self::hit(t, o, d, tmax)
                        && !self.passes_cutout(t, u, v)
                    {
                        return true;
                    }
                }
            } else if sp + 2 <= stack.len() {
                stack[sp] = n.start;
                stack[sp + 1] = n.start + 1;
                sp += 2;
            }
        }
        false
    }
}

fn occluders(map: &Map) -> Bvh {
    let mut alpha = Vec::new();
    let mut cutout_index = HashMap::new();
    let mut tris = Vec::new();
    for m in &map.meshes {
        let tex = usize::try_from(m.texture_id)
            .ok()
            .and_then(|i| map.textures.get(i));
        let cutout = match tex.map(|t| t.alpha_mode) {
            Some(PbmAlpha::Blend) => continue,
            Some(PbmAlpha::Cutout) => {
                let t = tex.expect("checked above");
                let next = cutout_index.len() as u32;
                let idx = *cutout_index.entry(m.texture_id).or_insert_with(|| {
                    let rgba = pbm::texture::decode(&t.data, t.format);
                    alpha.push((
                        u32::from(t.width),
                        u32::from(t.height),
                        rgba.chunks_exact(4).map(|p| p[3]).collect(),
                    ));
                    next
                });
                Some(idx)
            }
            _ => None,
        };
        for c in m.vertices.chunks_exact(3) {
            tris.push(Tri {
                p: [0, 1, 2].map(|k| Vec3A::from(c[k].pos)),
                uv: [0, 1, 2].map(|k| c[k].uv),
                cutout,
            });
        }
    }
    Bvh::build(tris, alpha)
}

/// A fast hasher for the bit patterns of vertex keys (SipHash's DoS resistance buys
/// nothing here and costs a third of the bake's set-up).
#[derive(Default)]
struct KeyHasher(u64);

impl std::hash::Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.write_u64(u64::from(*b));
        }
    }

    fn write_u32(&mut self, v: u32) {
        self.write_u64(u64::from(v));
    }

    fn write_u64(&mut self, v: u64) {
        self.0 = (self.0.rotate_left(5) ^ v).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

/// A deterministic uniform number for vertex `key`, ray `i`, channel `c`.
fn rnd(key: u32, i: u32, c: u32) -> f32 {
    pbm::particle::rand(key, i, c)
}

/// The light reaching a point and how many rays were traced for it.
fn light_at(l: &Lighting, bvh: &Bvh, p: Vec3, n: Vec3, ao_rays: u32, key: u32) -> (Vec3, u64) {
    let o = p + n * 1e-3;
    let mut sum = Vec3::ZERO;
    let mut rays = 0u64;
    for (dir, color, shadows) in &l.suns {
        let to_light = -*dir;
        let ndl = n.dot(to_light);
        if ndl > 0.0 {
            rays += u64::from(*shadows);
            if !(*shadows && bvh.occluded(o, to_light, f32::INFINITY)) {
                sum += *color * ndl;
            }
        }
    }
    for (at, color, radius, shadows) in &l.omnis {
        let d = *at - p;
        let dist = d.length();
        if dist >= *radius || dist < 1e-6 {
            continue;
        }
        let to_light = d / dist;
        let ndl = n.dot(to_light);
        let falloff = (1.0 - dist / radius).powi(2);
        if ndl > 0.0 {
            rays += u64::from(*shadows);
            if !(*shadows && bvh.occluded(o, to_light, dist)) {
                sum += *color * ndl * falloff;
            }
        }
    }
    let mut ambient = l.ground.lerp(l.sky, 0.5 + 0.5 * n.y);
    if ao_rays > 0 && l.ao_strength > 0.0 && l.ao_radius > 0.0 {
        // Cosine-weighted hemisphere around n.
        let (t1, t2) = n.any_orthonormal_pair();
        let mut hits = 0;
        for i in 0..ao_rays {
            let (u1, u2) = (rnd(key, i, 0), rnd(key, i, 1));
            let r = u1.sqrt();
            let phi = std::f32::consts::TAU * u2;
            let d = (t1 * (r * phi.cos()) + t2 * (r * phi.sin()) + n * (1.0 - u1).max(0.0).sqrt())
                .normalize();
            if bvh.occluded(o, d, l.ao_radius) {
                hits += 1;
            }
        }
        ambient *= 1.0 - l.ao_strength * hits as f32 / ao_rays as f32;
        rays += u64::from(ao_rays);
    }
    (sum + ambient, rays)
}

fn unpack(c: u32) -> Vec3 {
    Vec3::new(
        (c & 0xFF) as f32,
        ((c >> 8) & 0xFF) as f32,
        ((c >> 16) & 0xFF) as f32,
    ) / 255.0
}

/// Multiplies baked light into every vertex colour of the map's meshes. `normals`
/// holds a world-space unit normal per vertex, mesh by mesh.
pub(crate) fn bake(
    run: &mut Run<'_>,
    map: &mut Map,
    normals: &[Vec<Vec3>],
) -> Result<u64, ExportError> {
    let lighting = Lighting::of(run.scene);
    let bvh = occluders(map);
    // Unique (position, normal) vertices.
    let mut unique: HashMap<[u32; 6], usize, std::hash::BuildHasherDefault<KeyHasher>> =
        HashMap::default();
    let mut points: Vec<(Vec3, Vec3)> = Vec::new();
    let mut slot = Vec::new();
    for (m, ns) in map.meshes.iter().zip(normals) {
        for (v, n) in m.vertices.iter().zip(ns) {
            let key = [
                v.pos[0].to_bits(),
                v.pos[1].to_bits(),
                v.pos[2].to_bits(),
                n.x.to_bits(),
                n.y.to_bits(),
                n.z.to_bits(),
            ];
            let i = *unique.entry(key).or_insert_with(|| {
                points.push((Vec3::from(v.pos), *n));
                points.len() - 1
            });
            slot.push(i);
        }
    }
    let ao_rays = run.options.ao_rays;
    let compute = |points: &[(Vec3, Vec3)]| -> Vec<(Vec3, u64)> {
        points
            .par_iter()
            .map(|(p, n)| {
                let key = pbm::particle::hash32(
                    p.x.to_bits()
                        ^ p.y.to_bits().rotate_left(11)
                        ^ p.z.to_bits().rotate_left(22)
                        ^ n.x.to_bits().rotate_left(5),
                );
                light_at(&lighting, &bvh, *p, *n, ao_rays, key)
            })
            .collect()
    };
    let light: Vec<(Vec3, u64)> = match run.options.threads {
        Some(t) => rayon::ThreadPoolBuilder::new()
            .num_threads(t.max(1))
            .build()
            .map_err(|e| ExportError::Write(format!("cannot start {t} threads: {e}")))?
            .install(|| compute(&points)),
        None => compute(&points),
    };
    run.check_cancel()?;
    let mut k = 0;
    for m in &mut map.meshes {
        for v in &mut m.vertices {
            let lit = unpack(v.color) * light[slot[k]].0;
            let b = |x: f32| (x.clamp(0.0, 1.0) * 255.0).round() as u32;
            v.color = b(lit.x) | b(lit.y) << 8 | b(lit.z) << 16 | (v.color & 0xFF00_0000);
            k += 1;
        }
    }
    Ok(light.iter().map(|(_, r)| r).sum())
}
