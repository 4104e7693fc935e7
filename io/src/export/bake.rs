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
use pebble_model::glam::Vec3;
use pebble_model::scene::Environment;
use pebble_model::{Kind, Scene};
use rayon::prelude::*;

use super::bvh::{Bvh, Triangle, Walk};
use super::{ExportError, Run};

/// An omni light in the world: place, colour, radius, shadows, and for a spot
/// light its axis and cone.
pub type Omni = (
    Vec3,
    Vec3,
    f32,
    bool,
    Option<(Vec3, pebble_model::entity::Cone)>,
);

/// Lights after the environment preset filled in what the scene does not set.
#[derive(Debug, Clone)]
pub struct Lighting {
    pub suns: Vec<(Vec3, Vec3, bool)>,
    pub omnis: Vec<Omni>,
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
        for e in scene.exported_of(Kind::Light) {
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
                    cone,
                }) => {
                    let world = scene.world_transform(e.id);
                    let at = Vec3::from(world.translation);
                    let aim = cone.map(|c| {
                        (
                            world
                                .transform_vector3(Vec3::NEG_Z)
                                .normalize_or(Vec3::NEG_Y),
                            c,
                        )
                    });
                    l.omnis.push((
                        at,
                        Vec3::from(*color) * *intensity,
                        radius.max(1e-3),
                        *shadows,
                        aim,
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

fn occluders(map: &Map) -> Bvh {
    let mut alpha = Vec::new();
    let mut cutout_index = HashMap::new();
    // Per mesh: whether it occludes and its cutout map (numbered in mesh order).
    let kinds: Vec<Option<Option<u32>>> = map
        .meshes
        .iter()
        .map(|m| {
            let tex = usize::try_from(m.texture_id)
                .ok()
                .and_then(|i| map.textures.get(i));
            match tex.map(|t| t.alpha_mode) {
                Some(PbmAlpha::Blend) => None,
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
                    Some(Some(idx))
                }
                _ => Some(None),
            }
        })
        .collect();
    // Each mesh fills its own stretch of the list, in parallel.
    let total = map
        .meshes
        .iter()
        .zip(&kinds)
        .filter(|(_, kind)| kind.is_some())
        .map(|(m, _)| m.vertices.len() / 3)
        .sum();
    let blank = Triangle {
        p: [Vec3::ZERO; 3],
        uv: [[0.0; 2]; 3],
        cutout: None,
    };
    let mut tris = vec![blank; total];
    let mut parts = Vec::with_capacity(map.meshes.len());
    let mut rest = &mut tris[..];
    for (m, kind) in map.meshes.iter().zip(&kinds) {
        if let Some(cutout) = kind {
            let (part, tail) = rest.split_at_mut(m.vertices.len() / 3);
            parts.push((m, *cutout, part));
            rest = tail;
        }
    }
    parts.into_par_iter().for_each(|(m, cutout, part)| {
        for (t, c) in part.iter_mut().zip(m.vertices.chunks_exact(3)) {
            *t = Triangle {
                p: [0, 1, 2].map(|k| Vec3::from(c[k].pos)),
                uv: [0, 1, 2].map(|k| c[k].uv),
                cutout,
            };
        }
    });
    Bvh::build(&tris, alpha)
}

/// A fast hasher for the bit patterns of vertex keys (SipHash's DoS resistance buys
/// nothing here and costs a third of the bake's set-up): a folded multiply per
/// 64-bit word, which mixes every input bit into the low bits (the table's index)
/// and the high ones (its tags and the shard).
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

    fn write_u64(&mut self, v: u64) {
        let x = u128::from(self.0 ^ v) * 0x5851_f42d_4c95_7f2d_u128;
        self.0 = (x as u64) ^ (x >> 64) as u64 ^ 0x2d35_8dcc_aa6c_78a5;
    }
}

/// A deterministic uniform number for vertex `key`, ray `i`, channel `c`.
fn rnd(key: u32, i: u32, c: u32) -> f32 {
    pbm::particle::rand(key, i, c)
}

/// The light reaching a point and how many rays were traced for it.
fn light_at(
    l: &Lighting,
    bvh: &Bvh,
    walk: &mut Walk,
    p: Vec3,
    n: Vec3,
    ao_rays: u32,
    key: u32,
) -> (Vec3, u64) {
    let o = p + n * 1e-3;
    let ao = ao_rays > 0 && l.ao_strength > 0.0 && l.ao_radius > 0.0;
    // Every ray starts at `o`: with AO on, the walks start at the subtrees around
    // it (rays that leave the scene's box within the AO radius — AO rays, and
    // shadow rays from low ground — skip the upper levels of the tree).
    if ao {
        bvh.focus(walk, o, l.ao_radius);
    }
    let occluded = |walk: &mut Walk, d: Vec3, tmax: f32| {
        if ao {
            bvh.occluded_near(walk, d, tmax)
        } else {
            bvh.occluded_by(walk, o, d, tmax)
        }
    };
    let mut sum = Vec3::ZERO;
    let mut rays = 0u64;
    for (dir, color, shadows) in &l.suns {
        let to_light = -*dir;
        let ndl = n.dot(to_light);
        if ndl > 0.0 {
            rays += u64::from(*shadows);
            if !(*shadows && occluded(walk, to_light, f32::INFINITY)) {
                sum += *color * ndl;
            }
        }
    }
    for (at, color, radius, shadows, aim) in &l.omnis {
        let d = *at - p;
        let dist = d.length();
        if dist >= *radius || dist < 1e-6 {
            continue;
        }
        let to_light = d / dist;
        let ndl = n.dot(to_light);
        let cone = aim.map_or(1.0, |(axis, cone)| cone.factor(axis, -to_light));
        if cone <= 0.0 {
            continue;
        }
        let falloff = (1.0 - dist / radius).powi(2) * cone;
        if ndl > 0.0 {
            rays += u64::from(*shadows);
            if !(*shadows && occluded(walk, to_light, dist)) {
                sum += *color * ndl * falloff;
            }
        }
    }
    let mut ambient = l.ground.lerp(l.sky, 0.5 + 0.5 * n.y);
    if ao_rays > 0 && l.ao_strength > 0.0 && l.ao_radius > 0.0 {
        // Cosine-weighted hemisphere around n.
        let (t1, t2) = n.any_orthonormal_pair();
        let mut hits = 0;
        let mut cast = 0;
        // Directions a batch at a time, apart from the walks: their square roots
        // and divisions then overlap instead of waiting on one another.
        const BATCH: u32 = 16;
        // The first few rays decide for most points: all free (open ground, the
        // top of a wall) or all blocked (deep in a corner), the rest would agree;
        // a point they disagree on gets every ray.
        const FIRST: u32 = 8;
        let mut dirs = [Vec3::ZERO; BATCH as usize];
        let mut first = 0;
        while first < ao_rays {
            let len = if first == 0 {
                FIRST.min(ao_rays)
            } else {
                BATCH.min(ao_rays - first)
            };
            let batch = &mut dirs[..len as usize];
            for (i, d) in (first..).zip(batch.iter_mut()) {
                let (u1, u2) = (rnd(key, i, 0), rnd(key, i, 1));
                let r = u1.sqrt();
                let phi = std::f32::consts::TAU * u2;
                *d = (t1 * (r * phi.cos()) + t2 * (r * phi.sin()) + n * (1.0 - u1).max(0.0).sqrt())
                    .normalize();
            }
            for d in batch {
                if occluded(walk, *d, l.ao_radius) {
                    hits += 1;
                }
            }
            first += len;
            cast = first;
            if cast == FIRST && (hits == 0 || hits == FIRST) {
                break;
            }
        }
        ambient *= 1.0 - l.ao_strength * hits as f32 / cast.max(1) as f32;
        rays += u64::from(cast);
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
    emissive: &[Vec3],
) -> Result<u64, ExportError> {
    let lighting = Lighting::of(run.scene);
    let ao_rays = run.options.ao_rays;
    let cancel = run.cancel;
    let work = |map: &mut Map| {
        // The tree and the unique points need each other's inputs only: build them
        // side by side (each has serial stretches the other fills).
        let shared: &Map = map;
        let (bvh, (points, slots)) =
            rayon::join(|| occluders(shared), || unique_points(shared, normals));
        let light: Vec<(Vec3, u64)> = points
            .par_iter()
            .map_init(Walk::new, |walk, (p, n)| {
                if cancel.load(std::sync::atomic::Ordering::Relaxed) {
                    return (Vec3::ZERO, 0);
                }
                let key = pbm::particle::hash32(
                    p.x.to_bits()
                        ^ p.y.to_bits().rotate_left(11)
                        ^ p.z.to_bits().rotate_left(22)
                        ^ n.x.to_bits().rotate_left(5),
                );
                light_at(&lighting, &bvh, walk, *p, *n, ao_rays, key)
            })
            .collect();
        map.meshes
            .par_iter_mut()
            .zip(slots.par_iter())
            .enumerate()
            .for_each(|(k, (m, slots))| {
                // What the surface gives off, whatever the lights: never darker
                // than its glow.
                let glow = emissive.get(k).copied().unwrap_or(Vec3::ZERO);
                for (v, s) in m.vertices.iter_mut().zip(slots) {
                    let lit = unpack(v.color) * light[*s as usize].0 + glow;
                    let b = |x: f32| (x.clamp(0.0, 1.0) * 255.0).round() as u32;
                    v.color = b(lit.x) | b(lit.y) << 8 | b(lit.z) << 16 | (v.color & 0xFF00_0000);
                }
            });
        light.iter().map(|(_, r)| r).sum()
    };
    // Every parallel step (the tree's build included) runs in the requested pool.
    let rays = match run.options.threads {
        Some(t) => rayon::ThreadPoolBuilder::new()
            .num_threads(t.max(1))
            .build()
            .map_err(|e| ExportError::Write(format!("cannot start {t} threads: {e}")))?
            .install(|| work(map)),
        None => work(map),
    };
    run.check_cancel()?;
    Ok(rays)
}

/// A vertex's position and normal, bit for bit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct VertexKey([u32; 6]);

impl std::hash::Hash for VertexKey {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        for pair in self.0.chunks_exact(2) {
            state.write_u64(u64::from(pair[0]) | u64::from(pair[1]) << 32);
        }
    }
}

type KeyMap<V> = HashMap<VertexKey, V, std::hash::BuildHasherDefault<KeyHasher>>;

/// The unique (position, normal) points of the map's vertices and, mesh by mesh,
/// each vertex's point. Meshes are deduplicated in parallel first, so the shared
/// map only sees each mesh's distinct points.
fn unique_points(map: &Map, normals: &[Vec<Vec3>]) -> (Vec<(Vec3, Vec3)>, Vec<Vec<u32>>) {
    let key = |p: [f32; 3], n: Vec3| -> VertexKey {
        VertexKey([
            p[0].to_bits(),
            p[1].to_bits(),
            p[2].to_bits(),
            n.x.to_bits(),
            n.y.to_bits(),
            n.z.to_bits(),
        ])
    };
    // Per mesh: its distinct (key, position, normal) and each vertex's index there.
    type Distinct = Vec<(VertexKey, Vec3, Vec3)>;
    let local: Vec<(Distinct, Vec<u32>)> = map
        .meshes
        .par_iter()
        .zip(normals.par_iter())
        .map(|(m, ns)| {
            let mut seen = KeyMap::default();
            seen.reserve(m.vertices.len());
            let mut distinct = Vec::new();
            let slots = m
                .vertices
                .iter()
                .zip(ns)
                .map(|(v, n)| {
                    *seen.entry(key(v.pos, *n)).or_insert_with(|| {
                        distinct.push((key(v.pos, *n), Vec3::from(v.pos), *n));
                        distinct.len() as u32 - 1
                    })
                })
                .collect();
            (distinct, slots)
        })
        .collect();
    // The shared step, sharded by hash: each shard's map is small enough to stay in
    // cache and the shards run in parallel; the result does not depend on the
    // thread count.
    const SHARDS: usize = 64;
    let shard_of = |k: &VertexKey| {
        use std::hash::{BuildHasher, BuildHasherDefault};
        (BuildHasherDefault::<KeyHasher>::default().hash_one(k) >> 32) as usize & (SHARDS - 1)
    };
    let mut buckets: Vec<Vec<(u32, u32)>> = vec![Vec::new(); SHARDS];
    for (m, (distinct, _)) in local.iter().enumerate() {
        for (i, (k, _, _)) in distinct.iter().enumerate() {
            buckets[shard_of(k)].push((m as u32, i as u32));
        }
    }
    // Per shard: its points, and each bucket entry's index among them.
    type Shard = (Vec<(Vec3, Vec3)>, Vec<u32>);
    let shards: Vec<Shard> = buckets
        .par_iter()
        .map(|bucket| {
            let mut seen = KeyMap::default();
            let mut points = Vec::new();
            // Per bucket entry: its point's index in this shard.
            let placed = bucket
                .iter()
                .map(|&(m, i)| {
                    let (k, p, n) = &local[m as usize].0[i as usize];
                    *seen.entry(*k).or_insert_with(|| {
                        points.push((*p, *n));
                        points.len() as u32 - 1
                    })
                })
                .collect();
            (points, placed)
        })
        .collect();
    // Number the points in order of first use, mesh by mesh: neighbouring vertices
    // then trace one after another, which keeps the walk's nodes in cache.
    let mut to_shard: Vec<Vec<u32>> = local.iter().map(|(d, _)| vec![0; d.len()]).collect();
    let mut shard_points = Vec::with_capacity(shards.iter().map(|(p, _)| p.len()).sum());
    for ((points, placed), bucket) in shards.into_iter().zip(&buckets) {
        let base = shard_points.len() as u32;
        for (&(m, i), at) in bucket.iter().zip(placed) {
            to_shard[m as usize][i as usize] = base + at;
        }
        shard_points.extend(points);
    }
    let mut numbered = vec![u32::MAX; shard_points.len()];
    let mut points = Vec::with_capacity(shard_points.len());
    let to_global: Vec<Vec<u32>> = to_shard
        .into_iter()
        .map(|ids| {
            ids.into_iter()
                .map(|id| {
                    let slot = &mut numbered[id as usize];
                    if *slot == u32::MAX {
                        *slot = points.len() as u32;
                        points.push(shard_points[id as usize]);
                    }
                    *slot
                })
                .collect()
        })
        .collect();
    let slots = local
        .into_par_iter()
        .zip(to_global.par_iter())
        .map(|((_, slots), to_global)| slots.into_iter().map(|s| to_global[s as usize]).collect())
        .collect();
    (points, slots)
}
