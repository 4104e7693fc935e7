//! One scene's data on the GPU: a vertex buffer per batch (so replacing one never
//! touches the rest), the textures' bind groups, the particle vertex buffer and the
//! per-draw uniform buffer, with the [`DrawScene`] they came from (textures,
//! environment, particles, spawn). Also the incremental edits [`SceneSync`]
//! makes, and the particles a camera sees.
//!
//! [`SceneSync`]: crate::SceneSync

use crate::scene::TextureSampling;
use std::collections::HashMap;
use std::num::NonZeroU64;
use std::sync::OnceLock;

use pbm::particle::{ParticleField, PreparedEmitter, Quad, ViewBasis};
use pebble_model::glam::Vec3;
use wgpu::util::DeviceExt;

use crate::camera::Camera;
use crate::context::RenderContext;
use crate::frustum::Frustum;
use crate::gpu::Gpu;
use crate::pipelines::{DRAW_STRIDE, DrawUniform};
use crate::scene::{Batch, Chunk, DrawScene, GpuVertex, SceneTexture};
use crate::textures::{Samplers, TextureGroups, upload_levels};

/// A batch on the GPU: its vertices and, on the CPU, its chunks and the vertex
/// positions occlusion culling rasterises.
#[derive(Debug)]
pub(crate) struct GpuBatch {
    key: u64,
    pub pick_id: u32,
    pub buffer: wgpu::Buffer,
    pub chunks: Vec<Chunk>,
    pub positions: Vec<Vec3>,
    /// Per chunk, each triangle's neighbours, found the first time the chunk
    /// occludes.
    pub neighbours: Vec<OnceLock<Vec<[u32; 3]>>>,
}

/// One emitter's particles in the frame's particle vertex buffer.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct ParticleBatch {
    pub emitter: usize,
    pub first: u32,
    pub count: u32,
    pub additive: bool,
}

/// Uploads a texture's levels; a texture without usable levels shows magenta.
fn upload_texture(
    gpu: &Gpu,
    layout: &wgpu::BindGroupLayout,
    samplers: &Samplers,
    t: &SceneTexture,
) -> TextureGroups {
    let levels: Vec<(u32, u32, &[u8])> = t
        .levels
        .iter()
        .filter(|l| {
            l.width > 0 && l.height > 0 && l.rgba.len() == (4 * l.width * l.height) as usize
        })
        .map(|l| (l.width, l.height, l.rgba.as_slice()))
        .collect();
    let sampling = if t.clamp {
        TextureSampling::CLAMP
    } else {
        t.sampling
    };
    if levels.is_empty() {
        upload_levels(
            gpu,
            layout,
            samplers,
            sampling,
            &[(1, 1, &[255, 0, 255, 255])],
        )
    } else {
        upload_levels(gpu, layout, samplers, sampling, &levels)
    }
}

fn upload_batch(device: &wgpu::Device, key: u64, batch: Batch) -> GpuBatch {
    let contents: &[u8] = if batch.vertices.is_empty() {
        &[0u8; std::mem::size_of::<GpuVertex>()]
    } else {
        bytemuck::cast_slice(&batch.vertices)
    };
    GpuBatch {
        key,
        pick_id: batch.pick_id,
        buffer: device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("batch vertices"),
            contents,
            usage: wgpu::BufferUsages::VERTEX | wgpu::BufferUsages::COPY_DST,
        }),
        positions: batch.vertices.iter().map(|v| Vec3::from(v.pos)).collect(),
        neighbours: batch.chunks.iter().map(|_| OnceLock::new()).collect(),
        chunks: batch.chunks,
    }
}

/// A vertex buffer for `particles`' quads (six vertices each; never empty).
fn particle_buffer(device: &wgpu::Device, particles: &ParticleField) -> wgpu::Buffer {
    let count = particles.particles.len().max(1);
    device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("particle vertices"),
        size: (count * 6 * std::mem::size_of::<GpuVertex>()) as u64,
        usage: wgpu::BufferUsages::VERTEX | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    })
}

/// The per-draw uniform buffer with `slots` slots, and its bind group.
fn draw_uniforms(context: &RenderContext, slots: usize) -> (wgpu::Buffer, wgpu::BindGroup) {
    let device = &context.gpu.device;
    let buffer = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("draw uniforms"),
        size: DRAW_STRIDE * slots as u64,
        usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    let group = device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some("draw"),
        layout: &context.layouts.draw,
        entries: &[wgpu::BindGroupEntry {
            binding: 0,
            resource: wgpu::BindingResource::Buffer(wgpu::BufferBinding {
                buffer: &buffer,
                offset: 0,
                size: NonZeroU64::new(std::mem::size_of::<DrawUniform>() as u64),
            }),
        }],
    });
    (buffer, group)
}

/// GPU resources of one scene. Draw uniform slots: one per chunk in batch order,
/// then one per emitter, then one for the solids.
#[derive(Debug)]
pub(crate) struct GpuScene {
    /// Textures, environment and particles; its batches live in `batches`.
    pub scene: DrawScene,
    pub batches: Vec<GpuBatch>,
    /// Batch key → position in `batches`.
    index: HashMap<u64, usize>,
    /// Every chunk as (batch, chunk); a chunk's position here is its uniform slot.
    flat: Vec<(u32, u32)>,
    /// Uniform slots the draw buffer holds.
    draw_capacity: usize,
    pub textures: Vec<TextureGroups>,
    pub particle_vertices: wgpu::Buffer,
    pub draw_buffer: wgpu::Buffer,
    pub draw_group: wgpu::BindGroup,
}

impl GpuScene {
    /// Uploads a scene (GPU errors go to the caller's error scope).
    pub fn new(context: &RenderContext, mut scene: DrawScene) -> Self {
        let gpu = &context.gpu;
        let batches: Vec<GpuBatch> = std::mem::take(&mut scene.batches)
            .into_iter()
            .map(|(key, b)| upload_batch(&gpu.device, key, b))
            .collect();
        let index = batches
            .iter()
            .enumerate()
            .map(|(i, b)| (b.key, i))
            .collect();
        let chunk_count: usize = batches.iter().map(|b| b.chunks.len()).sum();
        let textures = scene
            .textures
            .iter()
            .map(|t| upload_texture(gpu, &context.layouts.texture, &context.samplers, t))
            .collect();
        let particle_vertices = particle_buffer(&gpu.device, &scene.particles);
        let draw_capacity = chunk_count + scene.particles.emitters.len() + 1;
        let (draw_buffer, draw_group) = draw_uniforms(context, draw_capacity);
        let mut gpu_scene = Self {
            scene,
            batches,
            index,
            flat: Vec::new(),
            draw_capacity,
            textures,
            particle_vertices,
            draw_buffer,
            draw_group,
        };
        gpu_scene.relayout(context);
        gpu_scene
    }

    /// Recomputes the flat chunk list and grows the draw buffer to hold it.
    fn relayout(&mut self, context: &RenderContext) {
        self.flat = self
            .batches
            .iter()
            .enumerate()
            .flat_map(|(b, batch)| (0..batch.chunks.len() as u32).map(move |c| (b as u32, c)))
            .collect();
        let need = self.slot_count();
        if need > self.draw_capacity {
            let capacity = need.next_power_of_two();
            (self.draw_buffer, self.draw_group) = draw_uniforms(context, capacity);
            self.draw_capacity = capacity;
        }
    }

    /// How many chunks there are (the chunk slots come first).
    pub fn chunk_count(&self) -> usize {
        self.flat.len()
    }

    /// Every uniform slot a frame writes: chunks, emitters and the solids.
    pub fn slot_count(&self) -> usize {
        self.flat.len() + self.scene.particles.emitters.len() + 1
    }

    /// The uniform slot of emitter `k`.
    pub fn emitter_slot(&self, k: usize) -> usize {
        self.flat.len() + k
    }

    /// The uniform slot of the solids.
    pub fn solids_slot(&self) -> usize {
        self.flat.len() + self.scene.particles.emitters.len()
    }

    /// The chunk in uniform slot `slot`.
    pub fn chunk(&self, slot: usize) -> &Chunk {
        let (b, c) = self.flat[slot];
        &self.batches[b as usize].chunks[c as usize]
    }

    /// The batch (by position) and the chunk within it in uniform slot `slot`.
    pub fn chunk_place(&self, slot: usize) -> (u32, u32) {
        self.flat[slot]
    }

    pub fn batch_of(&self, slot: usize) -> &GpuBatch {
        &self.batches[self.flat[slot].0 as usize]
    }

    /// The bind group a chunk samples: its texture's surface binding, or `white`.
    pub fn surface<'a>(&'a self, chunk: &Chunk, white: &'a wgpu::BindGroup) -> &'a wgpu::BindGroup {
        chunk
            .texture
            .and_then(|t| self.textures.get(t as usize))
            .map(|t| &t.surface)
            .unwrap_or(white)
    }

    /// Adds or replaces the batch under `key` (a replaced batch keeps its place in
    /// the draw order; a new one goes last). Only that batch is uploaded.
    pub fn set_batch(&mut self, context: &RenderContext, key: u64, batch: Batch) {
        let gpu_batch = upload_batch(&context.gpu.device, key, batch);
        match self.index.get(&key) {
            Some(&i) => self.batches[i] = gpu_batch,
            None => {
                self.index.insert(key, self.batches.len());
                self.batches.push(gpu_batch);
            }
        }
        self.relayout(context);
    }

    /// Writes `vertices` over the batch under `key`'s, which must be as many and
    /// at the same places (only their UVs, colours or faces differ): the chunks,
    /// the buffer and the occlusion neighbours stay. Returns false, changing
    /// nothing, when there is no such batch or the vertices do not fit.
    pub fn rewrite_batch_vertices(
        &mut self,
        context: &RenderContext,
        key: u64,
        vertices: &[GpuVertex],
    ) -> bool {
        let Some(batch) = self.index.get(&key).map(|&i| &self.batches[i]) else {
            return false;
        };
        let fits = !vertices.is_empty()
            && batch.positions.len() == vertices.len()
            && batch
                .positions
                .iter()
                .zip(vertices)
                .all(|(p, v)| p.to_array() == v.pos);
        if fits {
            context
                .gpu
                .queue
                .write_buffer(&batch.buffer, 0, bytemuck::cast_slice(vertices));
        }
        fits
    }

    /// Removes the batch under `key`, if any.
    pub fn remove_batch(&mut self, context: &RenderContext, key: u64) {
        if let Some(i) = self.index.remove(&key) {
            self.batches.remove(i);
            for (n, b) in self.batches.iter().enumerate().skip(i) {
                self.index.insert(b.key, n);
            }
            self.relayout(context);
        }
    }

    /// Puts the batches in the order of `keys` (unknown keys are ignored; batches
    /// not named keep their relative order after the named ones).
    pub fn reorder(&mut self, context: &RenderContext, keys: &[u64]) {
        let rank: HashMap<u64, usize> = keys.iter().enumerate().map(|(i, k)| (*k, i)).collect();
        self.batches
            .sort_by_key(|b| rank.get(&b.key).copied().unwrap_or(usize::MAX));
        self.index = self
            .batches
            .iter()
            .enumerate()
            .map(|(i, b)| (b.key, i))
            .collect();
        self.relayout(context);
    }

    /// Adds a texture; chunks name it by the returned index.
    pub fn add_texture(&mut self, context: &RenderContext, texture: SceneTexture) -> u32 {
        let group = upload_texture(
            &context.gpu,
            &context.layouts.texture,
            &context.samplers,
            &texture,
        );
        self.textures.push(group);
        self.scene.textures.push(texture);
        self.scene.textures.len() as u32 - 1
    }

    /// Puts `texture` in place of texture `index` (its file changed on disk):
    /// whatever samples that index shows the new one. `false` for no such index.
    pub fn replace_texture(
        &mut self,
        context: &RenderContext,
        index: u32,
        texture: SceneTexture,
    ) -> bool {
        let i = index as usize;
        if i >= self.textures.len() {
            return false;
        }
        self.textures[i] = upload_texture(
            &context.gpu,
            &context.layouts.texture,
            &context.samplers,
            &texture,
        );
        self.scene.textures[i] = texture;
        true
    }

    /// Replaces the particle field (emitters changed); the vertex buffer only grows.
    pub fn set_particles(&mut self, context: &RenderContext, particles: ParticleField) {
        let count = particles.particles.len().max(1);
        let size = (count * 6 * std::mem::size_of::<GpuVertex>()) as u64;
        if size > self.particle_vertices.size() {
            self.particle_vertices = particle_buffer(&context.gpu.device, &particles);
        }
        self.scene.particles = particles;
        self.relayout(context);
    }

    /// The texture an emitter samples: its own, or the built-in glow.
    pub fn emitter_texture(&self, e: &PreparedEmitter) -> u32 {
        u32::try_from(e.params.texture_id)
            .ok()
            .filter(|t| (*t as usize) < self.scene.textures.len() && *t != self.scene.glow)
            .unwrap_or(self.scene.glow)
    }

    /// The particles a camera sees at time `t`, evaluated by the `pbm` crate: blended
    /// emitters first (each back to front by view depth), then additive ones
    /// (unsorted), with the runtime's culls (whole emitters by their bounding
    /// sphere; particles behind the near plane or under 1.5 px).
    pub fn particles(
        &self,
        camera: &Camera,
        frustum: &Frustum,
        t: f64,
        focal_px: f32,
    ) -> (Vec<GpuVertex>, Vec<ParticleBatch>) {
        let field = &self.scene.particles;
        let forward = camera.forward();
        let right = forward.cross(Vec3::Y).normalize_or(Vec3::X);
        let up = right.cross(forward);
        let view = ViewBasis {
            eye: camera.eye.to_array(),
            right: right.to_array(),
            up: up.to_array(),
            forward: forward.to_array(),
        };
        let mut vertices = Vec::new();
        let mut batches = Vec::new();
        for additive in [false, true] {
            for (k, e) in field.emitters.iter().enumerate() {
                let params = &e.params;
                if (params.flags & pbm::emitter::flags::ADDITIVE != 0) != additive
                    || params.count == 0
                {
                    continue;
                }
                let centre = Vec3::from(params.pos);
                let r = Vec3::splat(e.cull_radius);
                if !frustum.intersects(centre - r, centre + r) {
                    continue;
                }
                let texture = self.emitter_texture(e);
                let size = self
                    .scene
                    .textures
                    .get(texture as usize)
                    .and_then(|t| t.levels.first())
                    .filter(|_| texture != self.scene.glow)
                    .map(|l| (l.width, l.height));
                let mut quads: Vec<(f32, Quad)> = field
                    .particles_of(e)
                    .iter()
                    .filter_map(|p| {
                        let s = pbm::particle::evaluate(e, p, t, size);
                        let depth = view.depth(s.position);
                        let extent = s.height.max(s.width);
                        // On screen it spans extent · focal / depth pixels (no depth
                        // in an orthographic view).
                        let per_px = if camera.ortho_height > 0.0 {
                            1.0
                        } else {
                            depth
                        };
                        if depth + 0.75 * extent < camera.near || extent * focal_px < 1.5 * per_px {
                            return None;
                        }
                        Some((depth, pbm::particle::billboard(params.flags, &s, &view)))
                    })
                    .collect();
                if !additive {
                    quads.sort_by(|a, b| b.0.total_cmp(&a.0));
                }
                let first = vertices.len() as u32;
                for (_, q) in &quads {
                    for (pos, uv) in q.triangles() {
                        vertices.push(GpuVertex {
                            face: 0,
                            pos,
                            uv,
                            color: q.color,
                        });
                    }
                }
                let count = vertices.len() as u32 - first;
                if count > 0 {
                    batches.push(ParticleBatch {
                        emitter: k,
                        first,
                        count,
                        additive,
                    });
                }
            }
        }
        (vertices, batches)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::environment::Environment;
    use crate::scene::{Pass, glow_texture};

    /// A camera-facing square over x, y ∈ [−s, s] at depth z in one colour.
    pub(crate) fn square(pick_id: u32, z: f32, s: f32, color: u32) -> Batch {
        let v = |x: f32, y: f32| GpuVertex {
            pos: [x, y, z],
            uv: [0.0; 2],
            color,
            face: 0,
        };
        let (a, b, c, d) = (v(-s, -s), v(s, -s), v(s, s), v(-s, s));
        Batch {
            pick_id,
            vertices: vec![a, b, c, a, c, d],
            chunks: vec![Chunk {
                name: format!("square {pick_id}"),
                first: 0,
                count: 6,
                texture: None,
                pass: Pass::Opaque,
                scroll: [0.0; 2],
                lo: Vec3::new(-s, -s, z),
                hi: Vec3::new(s, s, z),
                shaded: false,
            }],
        }
    }

    /// A scene of `batches` under keys 1, 2, … with only the glow texture.
    pub(crate) fn scene_of(batches: Vec<Batch>) -> DrawScene {
        DrawScene {
            textures: vec![glow_texture()],
            batches: (1u64..).zip(batches).collect(),
            environment: Environment::preset("day"),
            spawn: (Vec3::ZERO, 0.0),
            bounds: (Vec3::splat(-1.0), Vec3::splat(1.0)),
            particles: ParticleField::default(),
            glow: 0,
        }
    }

    fn keys(scene: &GpuScene) -> Vec<u64> {
        scene.batches.iter().map(|b| b.key).collect()
    }

    #[test]
    fn batches_are_replaced_in_place_appended_removed_and_reordered_by_key() {
        let Some(gpu) = crate::gpu::test_gpu("gpu scene edits") else {
            return;
        };
        let context = RenderContext::new(&gpu).expect("context");
        let mut scene = GpuScene::new(
            &context,
            scene_of(vec![square(10, -3.0, 1.0, !0), square(20, -4.0, 1.0, !0)]),
        );
        assert_eq!(keys(&scene), [1, 2]);
        assert_eq!((scene.chunk_count(), scene.slot_count()), (2, 3));
        assert_eq!((scene.emitter_slot(0), scene.solids_slot()), (2, 2));

        let mut replacement = square(11, -3.0, 1.0, !0);
        replacement.chunks.push(replacement.chunks[0].clone());
        scene.set_batch(&context, 1, replacement);
        scene.set_batch(&context, 3, square(30, -5.0, 1.0, !0));
        assert_eq!(keys(&scene), [1, 2, 3]);
        assert_eq!(scene.batch_of(0).pick_id, 11);
        assert_eq!(scene.batch_of(1).pick_id, 11);
        assert_eq!(scene.batch_of(2).pick_id, 20);
        assert_eq!(scene.chunk_place(3), (2, 0));

        scene.remove_batch(&context, 2);
        scene.remove_batch(&context, 99);
        assert_eq!(keys(&scene), [1, 3]);
        assert_eq!(scene.chunk_count(), 3);
        scene.reorder(&context, &[3, 42]);
        assert_eq!(keys(&scene), [3, 1]);
        assert_eq!(scene.batch_of(0).pick_id, 30);
        // The index follows the order: replacing key 1 now touches the second.
        scene.set_batch(&context, 1, square(12, -3.0, 1.0, !0));
        assert_eq!(keys(&scene), [3, 1]);
        assert_eq!(scene.batch_of(1).pick_id, 12);
    }

    #[test]
    fn the_draw_buffer_grows_by_powers_of_two_and_never_shrinks() {
        let Some(gpu) = crate::gpu::test_gpu("gpu scene draw buffer") else {
            return;
        };
        let context = RenderContext::new(&gpu).expect("context");
        let mut scene = GpuScene::new(&context, scene_of(vec![square(1, -3.0, 1.0, !0)]));
        // One chunk and the solids: exactly two slots to start with.
        assert_eq!(scene.draw_buffer.size(), 2 * DRAW_STRIDE);
        for key in 2..=5 {
            scene.set_batch(&context, key, square(1, -3.0, 1.0, !0));
        }
        assert_eq!(scene.slot_count(), 6);
        assert_eq!(scene.draw_buffer.size(), 8 * DRAW_STRIDE);
        for key in 2..=5 {
            scene.remove_batch(&context, key);
        }
        assert_eq!(scene.draw_buffer.size(), 8 * DRAW_STRIDE);
    }

    #[test]
    fn a_texture_without_usable_levels_still_binds_and_gets_the_next_index() {
        let Some(gpu) = crate::gpu::test_gpu("gpu scene textures") else {
            return;
        };
        let context = RenderContext::new(&gpu).expect("context");
        let mut scene = GpuScene::new(&context, scene_of(Vec::new()));
        let broken = SceneTexture {
            name: "broken".into(),
            levels: vec![pbm::texture::MipLevel {
                width: 4,
                height: 4,
                rgba: vec![0; 3],
            }],
            clamp: false,
            alpha: pbm::AlphaMode::None,
            sampling: TextureSampling::default(),
        };
        assert_eq!(scene.add_texture(&context, broken), 1);
        assert_eq!((scene.textures.len(), scene.scene.textures.len()), (2, 2));
        let mut chunk = square(1, 0.0, 1.0, !0).chunks.remove(0);
        chunk.texture = Some(1);
        assert_eq!(
            scene.surface(&chunk, &context.white),
            &scene.textures[1].surface
        );
        chunk.texture = Some(7);
        assert_eq!(scene.surface(&chunk, &context.white), &context.white);
    }
}
