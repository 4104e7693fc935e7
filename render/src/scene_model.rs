//! A scene model drawn live. [`SceneSync`] builds one batch per drawn mesh entity
//! (world transform applied, faces grouped by material, spatial chunks for culling,
//! double-sided faces in both windings) and then follows the model's change
//! journal: moving one entity re-uploads that entity's batch (and its children's),
//! never the world, and a change to the UVs alone of a mesh just rebuilt (a UV
//! drag, frame after frame) rewrites that batch's vertices in place. Textures load through a caller's loader, once per image and
//! alpha mode; emitters become the same particle field the device evaluates.

use std::collections::{BTreeSet, HashMap};
use std::sync::Arc;

use image::RgbaImage;
use pbm::AlphaMode as PbmAlpha;
use pbm::particle::ParticleField;
use pbm::texture::{MipLevel, is_pot, mip_chain};
use pebble_model::entity::EntityKind;
use pebble_model::glam::{Affine3A, Vec2, Vec3};
use pebble_model::material::AlphaMode;
use pebble_model::mesh::MeshData;
use pebble_model::{EntityId, Kind, Material, MaterialId, Scene};

use crate::context::RenderContext;
use crate::environment::Environment;
use crate::renderer::Renderer;
use crate::scene::{
    Batch, Chunk, DrawScene, GpuVertex, Pass, REVERSED, SceneTexture, TextureSampling, glow_texture,
};
use crate::{Gpu, RenderError};

/// Loads a project-relative image path.
pub type TextureLoader<'a> = dyn Fn(&str) -> Result<RgbaImage, String> + 'a;

/// Triangles per chunk: small enough for culling to matter, big enough to keep
/// draw calls few.
pub const CHUNK_TRIANGLES: usize = 2048;

/// How many of the meshes rebuilt last are kept for [`KeptBatch`]'s fast path.
const KEPT_BATCHES: usize = 4;

/// Meshes with more triangles than this are not kept (their copy would cost more
/// memory than an edit of them saves time).
const KEPT_TRIANGLES_UP_TO: usize = 250_000;

/// A mesh batch as it was last built, with what it was built from except the
/// faces' UVs: while only those change, the batch's vertices get new UVs and are
/// written over the old ones, with no regrouping, splitting or new buffer (and
/// the occlusion neighbours found for the old triangles still hold).
struct KeptBatch {
    id: EntityId,
    name: String,
    pick_id: u32,
    world: Affine3A,
    positions: Vec<Vec3>,
    colors: Option<Vec<[f32; 4]>>,
    /// Per face: its corners and its material.
    faces: Vec<([u32; 3], MaterialId)>,
    /// The materials the faces use, as they were.
    materials: Vec<(MaterialId, Material)>,
    mirrored: bool,
    vertices: Vec<GpuVertex>,
}

impl std::fmt::Debug for KeptBatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("KeptBatch")
            .field("id", &self.id)
            .field("vertices", &self.vertices.len())
            .finish_non_exhaustive()
    }
}

/// `a` and `b` draw the same but for where their UVs land (tiling, offset and
/// rotation only move UVs; the name and the atlas flag are not drawn).
fn same_but_uvs(a: &Material, b: &Material) -> bool {
    a.texture == b.texture
        && a.alpha == b.alpha
        && a.uv_scroll == b.uv_scroll
        && a.double_sided == b.double_sided
        && a.color == b.color
}

impl KeptBatch {
    /// Whether `mesh`, placed at `world` in `scene`, differs from what this batch
    /// was built from in its UVs alone.
    fn differs_in_uvs_alone(
        &self,
        scene: &Scene,
        name: &str,
        pick_id: u32,
        world: &Affine3A,
        g: &MeshData,
    ) -> bool {
        self.name == name
            && self.pick_id == pick_id
            && self.world == *world
            && self.positions == g.positions
            && self.colors == g.colors
            && self.faces.len() == g.faces.len()
            && self
                .faces
                .iter()
                .zip(&g.faces)
                .all(|((c, m), f)| *c == f.indices && *m == f.material)
            && self.materials.iter().all(|(id, was)| {
                let fallback = Material::default();
                same_but_uvs(was, scene.material(*id).unwrap_or(&fallback))
            })
    }

    /// The batch's vertices with the UVs of `g`'s faces now.
    fn with_new_uvs(&mut self, scene: &Scene, g: &MeshData) {
        let fallback = Material::default();
        let materials: Vec<(MaterialId, &Material)> = self
            .materials
            .iter()
            .map(|(id, _)| (*id, scene.material(*id).unwrap_or(&fallback)))
            .collect();
        for (id, m) in &materials {
            if let Some(kept) = self.materials.iter_mut().find(|(k, _)| k == id) {
                kept.1 = (*m).clone();
            }
        }
        // The corner each of a triangle's three vertices came from (see
        // `SceneSync::mesh_batch`: mirrored worlds and reversed copies swap two).
        let order = |reversed: bool| match (self.mirrored, reversed) {
            (false, false) => [0, 1, 2],
            (false, true) => [0, 2, 1],
            (true, false) => [0, 2, 1],
            (true, true) => [0, 1, 2],
        };
        for tri in self.vertices.chunks_exact_mut(3) {
            let reversed = tri[0].face & REVERSED != 0;
            let Some(face) = g.faces.get((tri[0].face & !REVERSED) as usize) else {
                continue;
            };
            let Some(material) = materials
                .iter()
                .find(|(id, _)| *id == face.material)
                .map(|(_, m)| *m)
            else {
                continue;
            };
            for (v, k) in tri.iter_mut().zip(order(reversed)) {
                v.uv = material.repeats(face.uvs[k]).to_array();
            }
        }
    }
}

/// Keeps a renderer in step with a scene.
#[derive(Debug, Default)]
pub struct SceneSync {
    /// The scene revision last applied; `None` before the first sync (a scene
    /// as loaded is at revision 0 too, so 0 cannot mean "never").
    revision: Option<u64>,
    /// Renderer texture per (image path, alpha mode).
    textures: HashMap<(String, PbmAlpha, TextureSampling), u32>,
    glow: u32,
    /// What could not be loaded, once per image.
    pub warnings: Vec<String>,
    /// The meshes rebuilt last, newest first.
    kept: Vec<KeptBatch>,
    /// Batches whose vertices were rewritten in place (for tests and benches).
    pub rewritten: u64,
}

fn pbm_alpha(a: AlphaMode) -> PbmAlpha {
    match a {
        AlphaMode::None => PbmAlpha::None,
        AlphaMode::Cutout => PbmAlpha::Cutout,
        AlphaMode::Blend => PbmAlpha::Blend,
    }
}

fn pack_color(c: [f32; 4]) -> u32 {
    let b = |x: f32| (x.clamp(0.0, 1.0) * 255.0).round() as u32;
    b(c[0]) | b(c[1]) << 8 | b(c[2]) << 16 | b(c[3]) << 24
}

/// A scene texture from an image: a mip chain when its sides are powers of two.
/// A material's wrap and filter, as the renderer samples them.
fn sampling(material: &Material) -> TextureSampling {
    let s = material.sampling;
    TextureSampling {
        clamp_u: s.clamp_u,
        clamp_v: s.clamp_v,
        nearest: s.nearest,
    }
}

pub fn scene_texture(name: &str, image: &RgbaImage, alpha: PbmAlpha) -> SceneTexture {
    let (w, h) = image.dimensions();
    let levels = if is_pot(w, h) && w >= 16 && h >= 8 {
        mip_chain(image.as_raw(), w, h, alpha)
    } else {
        vec![MipLevel {
            width: w,
            height: h,
            rgba: image.as_raw().clone(),
        }]
    };
    SceneTexture {
        name: name.to_string(),
        levels,
        clamp: false,
        alpha,
        sampling: TextureSampling::default(),
    }
}

/// A magenta and black checker that says "this texture is missing".
fn missing_texture(name: &str) -> SceneTexture {
    let image = RgbaImage::from_fn(16, 16, |x, y| {
        if (x / 4 + y / 4) % 2 == 0 {
            image::Rgba([255, 0, 255, 255])
        } else {
            image::Rgba([0, 0, 0, 255])
        }
    });
    scene_texture(name, &image, PbmAlpha::None)
}

impl SceneSync {
    /// A renderer showing `scene`, and the sync that keeps it current.
    pub fn renderer(
        gpu: &Gpu,
        scene: &Scene,
        loader: &TextureLoader<'_>,
    ) -> Result<(Renderer, Self), RenderError> {
        Self::renderer_with(RenderContext::new(gpu)?, scene, loader)
    }

    /// [`SceneSync::renderer`] drawing with `context`, e.g. the one the renderer of
    /// the scene opened before holds: opening another scene builds no pipelines.
    pub fn renderer_with(
        context: Arc<RenderContext>,
        scene: &Scene,
        loader: &TextureLoader<'_>,
    ) -> Result<(Renderer, Self), RenderError> {
        let empty = DrawScene {
            textures: vec![glow_texture()],
            batches: Vec::new(),
            environment: Environment::preset(scene.settings().environment.preset_name()),
            spawn: (Vec3::new(0.0, 1.6, 0.0), 0.0),
            bounds: (Vec3::ZERO, Vec3::ZERO),
            particles: ParticleField::default(),
            glow: 0,
        };
        let mut renderer = Renderer::with_context(context, empty)?;
        let mut sync = Self {
            glow: 0,
            ..Self::default()
        };
        sync.sync(&mut renderer, scene, loader);
        Ok((renderer, sync))
    }

    /// The renderer texture for an image path, alpha mode and sampling, loaded on
    /// first use.
    fn texture(
        &mut self,
        renderer: &mut Renderer,
        path: &str,
        alpha: PbmAlpha,
        sampling: TextureSampling,
        loader: &TextureLoader<'_>,
    ) -> u32 {
        let key = (path.to_string(), alpha, sampling);
        if let Some(t) = self.textures.get(&key) {
            return *t;
        }
        let mut texture = match loader(path) {
            Ok(image) => scene_texture(path, &image, alpha),
            Err(e) => {
                self.warnings.push(format!(
                    "texture {path} cannot be loaded ({e}); shown as a magenta checker"
                ));
                missing_texture(path)
            }
        };
        texture.sampling = sampling;
        let index = renderer.add_texture(texture);
        self.textures.insert(key, index);
        index
    }

    /// The image at `path` changed on disk: every texture made from it is loaded
    /// again in place (a deleted or broken file shows as the magenta checker).
    /// Returns how many textures were replaced and what could not be loaded.
    pub fn reload_texture(
        &mut self,
        renderer: &mut Renderer,
        path: &str,
        loader: &TextureLoader<'_>,
    ) -> (usize, Option<String>) {
        let loaded = loader(path);
        let problem = loaded.as_ref().err().cloned();
        let mut replaced = 0;
        for ((p, alpha, sampling), index) in &self.textures {
            if p != path {
                continue;
            }
            let mut texture = match &loaded {
                Ok(image) => scene_texture(path, image, *alpha),
                Err(_) => missing_texture(path),
            };
            texture.sampling = *sampling;
            if renderer.replace_texture(*index, texture) {
                replaced += 1;
            }
        }
        (replaced, problem)
    }

    /// Applies what changed in `scene` since the last sync. Returns the number of
    /// batches built and uploaded afresh (those whose vertices were rewritten in
    /// place count in [`Self::rewritten`] instead).
    pub fn sync(
        &mut self,
        renderer: &mut Renderer,
        scene: &Scene,
        loader: &TextureLoader<'_>,
    ) -> usize {
        if self.revision == Some(scene.revision()) {
            // Nothing changed since the last sync.
            return 0;
        }
        let first = self.revision.is_none();
        let changes = scene.changes_since(self.revision.unwrap_or(0));
        self.revision = Some(changes.revision);
        if first || changes.settings {
            renderer.set_environment(Environment::preset(
                scene.settings().environment.preset_name(),
            ));
        }
        let mut rebuild: BTreeSet<EntityId> = BTreeSet::new();
        // Changed in themselves (not through a material they use): these may have
        // changed in their UVs alone.
        let mut uvs_maybe: BTreeSet<EntityId> = BTreeSet::new();
        if first || changes.hierarchy || changes.settings {
            // Visibility through parents and layers may have changed anywhere.
            rebuild.extend(scene.entities().map(|e| e.id));
            self.kept.clear();
        } else {
            uvs_maybe.extend(changes.entities.iter().copied());
            for id in &changes.entities {
                rebuild.extend(scene.subtree(*id));
            }
            for m in &changes.materials {
                // A changed material may point at a new image: forget its textures.
                if let Some(mat) = scene.material(*m)
                    && let Some(path) = &mat.texture
                {
                    self.textures.retain(|(p, _, _), _| p != path);
                }
                let users = scene.material_users(*m);
                for (e, _) in &users {
                    uvs_maybe.remove(e);
                }
                rebuild.extend(users.into_iter().map(|(e, _)| e));
            }
        }
        for id in &changes.removed {
            renderer.remove_batch(u64::from(id.0));
            self.kept.retain(|k| k.id != *id);
        }
        let mut uploaded = 0;
        let mut emitters_changed = first || !changes.removed.is_empty();
        for id in rebuild {
            let Some(e) = scene.entity(id) else { continue };
            match &e.kind {
                EntityKind::Mesh(mesh) => {
                    let key = u64::from(id.0);
                    if uvs_maybe.contains(&id)
                        && self.rewrite_uvs(renderer, scene, id, &e.name, &mesh.geometry)
                    {
                        self.rewritten += 1;
                        continue;
                    }
                    self.kept.retain(|k| k.id != id);
                    match self.mesh_batch(renderer, scene, id, loader) {
                        Some(batch) => {
                            self.keep(scene, id, &e.name, &mesh.geometry, &batch);
                            renderer.set_batch(key, batch);
                        }
                        None => renderer.remove_batch(key),
                    }
                    uploaded += 1;
                }
                EntityKind::Emitter(_) => emitters_changed = true,
                EntityKind::Defined(d) if d.kind == "PlayerSpawn" => {
                    // As the exporter writes the header: the position and the yaw.
                    let yaw = pebble_model::definitions::builtin::value(d, "yaw")
                        .and_then(|v| v.as_f32())
                        .unwrap_or(0.0);
                    renderer.set_spawn(
                        scene.world_transform(id).translation.into(),
                        yaw.to_radians(),
                    );
                }
                // Drawn by the overlay and the solids, not as batches.
                EntityKind::Group
                | EntityKind::Light(_)
                | EntityKind::Walkable(_)
                | EntityKind::Collider(_)
                | EntityKind::Custom(_)
                | EntityKind::Defined(_) => {}
            }
        }
        if emitters_changed {
            let field = self.particle_field(renderer, scene, loader);
            renderer.set_particles(field);
        }
        if uploaded > 0 {
            let order: Vec<u64> = scene.entities().map(|e| u64::from(e.id.0)).collect();
            renderer.reorder(&order);
        }
        uploaded
    }

    /// Rewrites the UVs of `id`'s batch in place when it was kept and has changed
    /// in its UVs alone. Returns whether it did.
    fn rewrite_uvs(
        &mut self,
        renderer: &mut Renderer,
        scene: &Scene,
        id: EntityId,
        name: &str,
        g: &MeshData,
    ) -> bool {
        let Some(at) = self.kept.iter().position(|k| k.id == id) else {
            return false;
        };
        if !scene.is_drawn(id) {
            return false;
        }
        let world = scene.world_transform(id);
        let pick_id = if scene.is_pickable(id) { id.0 } else { 0 };
        let kept = &mut self.kept[at];
        if !kept.differs_in_uvs_alone(scene, name, pick_id, &world, g) {
            return false;
        }
        kept.with_new_uvs(scene, g);
        if !renderer.rewrite_batch_vertices(u64::from(id.0), &kept.vertices) {
            return false;
        }
        let kept = self.kept.remove(at);
        self.kept.insert(0, kept);
        true
    }

    /// Keeps what `batch` was built from, for [`Self::rewrite_uvs`].
    fn keep(&mut self, scene: &Scene, id: EntityId, name: &str, g: &MeshData, batch: &Batch) {
        if g.faces.len() > KEPT_TRIANGLES_UP_TO {
            return;
        }
        let mut materials: Vec<(MaterialId, Material)> = Vec::new();
        for f in &g.faces {
            if !materials.iter().any(|(m, _)| *m == f.material) {
                let fallback = Material::default();
                materials.push((
                    f.material,
                    scene.material(f.material).unwrap_or(&fallback).clone(),
                ));
            }
        }
        let world = scene.world_transform(id);
        self.kept.insert(
            0,
            KeptBatch {
                id,
                name: name.to_string(),
                pick_id: batch.pick_id,
                world,
                positions: g.positions.clone(),
                colors: g.colors.clone(),
                faces: g.faces.iter().map(|f| (f.indices, f.material)).collect(),
                materials,
                mirrored: world.matrix3.determinant() < 0.0,
                vertices: batch.vertices.clone(),
            },
        );
        self.kept.truncate(KEPT_BATCHES);
    }

    /// The particle field of every drawn emitter entity, budgets applied as the
    /// device applies them.
    fn particle_field(
        &mut self,
        renderer: &mut Renderer,
        scene: &Scene,
        loader: &TextureLoader<'_>,
    ) -> ParticleField {
        let mut records = Vec::new();
        for e in scene.entities_of(Kind::Emitter) {
            let EntityKind::Emitter(em) = &e.kind else {
                continue;
            };
            if !scene.is_drawn(e.id) {
                continue;
            }
            let texture = match &em.texture {
                Some(path) => self.texture(
                    renderer,
                    path,
                    PbmAlpha::None,
                    TextureSampling::default(),
                    loader,
                ) as i32,
                None => self.glow as i32,
            };
            let pos: Vec3 = scene.world_transform(e.id).translation.into();
            records.push((None, em.to_record(&e.name, pos, texture)));
        }
        let count = renderer.scene().textures.len() as u32;
        ParticleField::prepare(records.into_iter(), count, &mut |_| {})
    }

    /// The batch of one mesh entity, or `None` when it is not drawn.
    fn mesh_batch(
        &mut self,
        renderer: &mut Renderer,
        scene: &Scene,
        id: EntityId,
        loader: &TextureLoader<'_>,
    ) -> Option<Batch> {
        let e = scene.entity(id)?;
        let EntityKind::Mesh(mesh) = &e.kind else {
            return None;
        };
        if !scene.is_drawn(id) {
            return None;
        }
        let g = &mesh.geometry;
        let world: Affine3A = scene.world_transform(id);
        let mirrored = world.matrix3.determinant() < 0.0;
        let positions: Vec<Vec3> = g
            .positions
            .iter()
            .map(|p| world.transform_point3(*p))
            .collect();
        if positions.iter().any(|p| !p.is_finite()) {
            return None;
        }
        // Faces by material, in first-use order.
        let mut groups: Vec<(MaterialId, Vec<usize>)> = Vec::new();
        for (i, f) in g.faces.iter().enumerate() {
            match groups.iter_mut().find(|(m, _)| *m == f.material) {
                Some((_, faces)) => faces.push(i),
                None => groups.push((f.material, vec![i])),
            }
        }
        let mut vertices = Vec::new();
        let mut chunks = Vec::new();
        for (material_id, faces) in groups {
            let fallback = Material::default();
            let material = scene.material(material_id).unwrap_or(&fallback);
            let alpha = pbm_alpha(material.alpha);
            let texture = material
                .texture
                .clone()
                .map(|path| self.texture(renderer, &path, alpha, sampling(material), loader));
            let pass = match material.alpha {
                AlphaMode::None => Pass::Opaque,
                AlphaMode::Cutout => Pass::Cutout,
                AlphaMode::Blend => Pass::Blend,
            };
            let scroll = if texture.is_some() {
                material.uv_scroll.to_array()
            } else {
                [0.0; 2]
            };
            let mut tris: Vec<[GpuVertex; 3]> = Vec::with_capacity(faces.len());
            for fi in faces {
                let f = &g.faces[fi];
                let corner = |k: usize| {
                    let i = f.indices[k] as usize;
                    let base = g
                        .colors
                        .as_ref()
                        .and_then(|c| c.get(i))
                        .copied()
                        .unwrap_or([1.0; 4]);
                    let color = [0, 1, 2, 3].map(|c| base[c] * material.color[c]);
                    let uv: Vec2 = material.repeats(f.uvs[k]);
                    GpuVertex {
                        pos: positions.get(i).copied().unwrap_or(Vec3::ZERO).to_array(),
                        uv: uv.to_array(),
                        color: pack_color(color),
                        face: fi as u32,
                    }
                };
                let order = if mirrored { [0, 2, 1] } else { [0, 1, 2] };
                let tri = order.map(corner);
                tris.push(tri);
                // Cutouts and blends are drawn without culling (as the runtime
                // draws them): a reversed copy would blend the face twice.
                if material.double_sided && pass == Pass::Opaque {
                    let [a, b, c] = tri;
                    let flip = |mut v: GpuVertex| {
                        v.face |= REVERSED;
                        v
                    };
                    tris.push([flip(a), flip(c), flip(b)]);
                }
            }
            let mut pieces = Vec::new();
            split_spatially(tris, &mut pieces);
            for piece in pieces {
                let first = vertices.len() as u32;
                let (mut lo, mut hi) = (Vec3::splat(f32::INFINITY), Vec3::splat(f32::NEG_INFINITY));
                for v in piece.iter().flatten() {
                    lo = lo.min(Vec3::from(v.pos));
                    hi = hi.max(Vec3::from(v.pos));
                }
                vertices.extend(piece.into_iter().flatten());
                chunks.push(Chunk {
                    name: format!("{}_{}", e.name, chunks.len()),
                    first,
                    count: vertices.len() as u32 - first,
                    texture,
                    pass,
                    scroll,
                    lo,
                    hi,
                    shaded: g.colors.is_none(),
                });
            }
        }
        Some(Batch {
            pick_id: if scene.is_pickable(id) { id.0 } else { 0 },
            vertices,
            chunks,
        })
    }
}

/// Splits triangles into neighbourhoods of at most [`CHUNK_TRIANGLES`] by halving
/// along the longest axis of their centroids.
fn split_spatially(mut tris: Vec<[GpuVertex; 3]>, out: &mut Vec<Vec<[GpuVertex; 3]>>) {
    if tris.len() <= CHUNK_TRIANGLES {
        if !tris.is_empty() {
            out.push(tris);
        }
        return;
    }
    let centroid = |t: &[GpuVertex; 3]| {
        (Vec3::from(t[0].pos) + Vec3::from(t[1].pos) + Vec3::from(t[2].pos)) / 3.0
    };
    let (lo, hi) = tris.iter().map(centroid).fold(
        (Vec3::splat(f32::INFINITY), Vec3::splat(f32::NEG_INFINITY)),
        |(lo, hi), c| (lo.min(c), hi.max(c)),
    );
    let e = hi - lo;
    let axis = if e.x >= e.y && e.x >= e.z {
        0
    } else if e.y >= e.z {
        1
    } else {
        2
    };
    let mid = tris.len() / 2;
    tris.select_nth_unstable_by(mid, |a, b| centroid(a)[axis].total_cmp(&centroid(b)[axis]));
    let right = tris.split_off(mid);
    split_spatially(tris, out);
    split_spatially(right, out);
}
