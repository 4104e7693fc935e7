//! Face mode's selection and what is done with it: the faces picked in the
//! viewport (kept with the document, never an undo step), growing it (coplanar,
//! same material, neighbours), and the UV operations on it — each one
//! [`SetFaceUvs`] step — with the material put on the faces.

use std::collections::{BTreeMap, BTreeSet};

use pebble_model::command::SetFaceUvs;
use pebble_model::entity::EntityKind;
use pebble_model::glam::{Affine3A, Vec2};
use pebble_model::uv::{self, Justify, UvMapping};
use pebble_model::{EntityId, MeshData, Scene};

/// What face mode's clicks pick (Alt+1 / 2 / 3, or the inspector).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum PickMode {
    Vertices,
    Edges,
    #[default]
    Faces,
}

impl PickMode {
    pub const ALL: [PickMode; 3] = [PickMode::Vertices, PickMode::Edges, PickMode::Faces];

    pub fn label(self) -> &'static str {
        match self {
            PickMode::Vertices => "Vertices",
            PickMode::Edges => "Edges",
            PickMode::Faces => "Faces",
        }
    }
}

/// What is picked in face mode: faces, edges or vertices of meshes, by index.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FaceSelection {
    /// What a click picks; changing it lets go of what was picked.
    pub mode: PickMode,
    faces: BTreeMap<EntityId, FaceSet>,
    /// Edges as their two vertex indices, the smaller first.
    edges: BTreeMap<EntityId, BTreeSet<(u32, u32)>>,
    vertices: BTreeMap<EntityId, BTreeSet<u32>>,
}

/// What a UV operation does (face mode's buttons and the Faces menu).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum UvOp {
    /// One repeat over the faces.
    Fit,
    AlignWorld,
    AlignFace,
    /// A quarter turn, counter-clockwise (`true`) or clockwise.
    Quarter(bool),
    FlipU,
    FlipV,
    Justify(Justify),
    /// One component of the mapping set on every face.
    Set(MappingField, f32),
}

/// A component of [`UvMapping`] as the inspector edits it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MappingField {
    OffsetU,
    OffsetV,
    /// Degrees.
    Rotation,
    ScaleU,
    ScaleV,
}

impl UvOp {
    /// The undo step's name.
    pub fn label(self) -> &'static str {
        match self {
            UvOp::Fit => "Fit texture to faces",
            UvOp::AlignWorld => "Align texture to world",
            UvOp::AlignFace => "Align texture to face",
            UvOp::Quarter(true) => "Turn texture 90° left",
            UvOp::Quarter(false) => "Turn texture 90° right",
            UvOp::FlipU => "Flip texture U",
            UvOp::FlipV => "Flip texture V",
            UvOp::Justify(Justify::Left) => "Justify texture left",
            UvOp::Justify(Justify::Right) => "Justify texture right",
            UvOp::Justify(Justify::Top) => "Justify texture top",
            UvOp::Justify(Justify::Bottom) => "Justify texture bottom",
            UvOp::Justify(Justify::Centre) => "Justify texture centre",
            UvOp::Set(..) => "Edit face UVs",
        }
    }
}

/// The mesh, its world placement and its faces in `scene`.
fn mesh_of(scene: &Scene, id: EntityId) -> Option<(&MeshData, Affine3A)> {
    match &scene.entity(id)?.kind {
        EntityKind::Mesh(m) => Some((&m.geometry, scene.world_transform(id))),
        _ => None,
    }
}

/// Picked faces of one mesh, kept sorted and unique in one vector: the UV dock,
/// the inspector and the overlay go through thousands of them every frame of a
/// drag, a copy of one slice where a tree chased a pointer per face.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
struct FaceSet(Vec<usize>);

impl FaceSet {
    fn contains(&self, face: &usize) -> bool {
        self.0.binary_search(face).is_ok()
    }

    fn extend(&mut self, faces: impl IntoIterator<Item = usize>) {
        self.0.extend(faces);
        self.0.sort_unstable();
        self.0.dedup();
    }

    fn retain(&mut self, keep: impl FnMut(&usize) -> bool) {
        self.0.retain(keep);
    }

    fn len(&self) -> usize {
        self.0.len()
    }

    fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl<'a> IntoIterator for &'a FaceSet {
    type Item = &'a usize;
    type IntoIter = std::slice::Iter<'a, usize>;

    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

impl FaceSelection {
    /// Nothing is picked, of any kind.
    pub fn is_empty(&self) -> bool {
        self.faces.values().all(FaceSet::is_empty)
            && self.edges.values().all(BTreeSet::is_empty)
            && self.vertices.values().all(BTreeSet::is_empty)
    }

    /// Picks `mode` from now on, letting go of what was picked.
    pub fn set_mode(&mut self, mode: PickMode) {
        if mode != self.mode {
            self.clear();
            self.mode = mode;
        }
    }

    /// The picked faces, edges and vertices of mesh `id`.
    fn faces_of(&self, id: EntityId) -> Vec<usize> {
        self.faces.get(&id).into_iter().flatten().copied().collect()
    }

    fn edges_of(&self, id: EntityId) -> Vec<(u32, u32)> {
        self.edges.get(&id).into_iter().flatten().copied().collect()
    }

    fn vertices_of(&self, id: EntityId) -> Vec<u32> {
        self.vertices
            .get(&id)
            .into_iter()
            .flatten()
            .copied()
            .collect()
    }

    /// Picked edges, per mesh.
    pub fn edges(&self) -> impl Iterator<Item = (EntityId, Vec<(u32, u32)>)> + '_ {
        self.edges
            .iter()
            .filter(|(_, e)| !e.is_empty())
            .map(|(id, e)| (*id, e.iter().copied().collect()))
    }

    /// Picked vertices, per mesh.
    pub fn vertices(&self) -> impl Iterator<Item = (EntityId, Vec<u32>)> + '_ {
        self.vertices
            .iter()
            .filter(|(_, v)| !v.is_empty())
            .map(|(id, v)| (*id, v.iter().copied().collect()))
    }

    /// Adds (or with `toggle` flips) an edge.
    pub fn pick_edge(&mut self, entity: EntityId, (a, b): (u32, u32), toggle: bool) {
        let e = (a.min(b), a.max(b));
        let set = self.edges.entry(entity).or_default();
        if toggle && set.contains(&e) {
            set.remove(&e);
        } else {
            set.insert(e);
        }
    }

    /// Adds (or with `toggle` flips) a vertex.
    pub fn pick_vertex(&mut self, entity: EntityId, v: u32, toggle: bool) {
        let set = self.vertices.entry(entity).or_default();
        if toggle && set.contains(&v) {
            set.remove(&v);
        } else {
            set.insert(v);
        }
    }

    /// How many vertices and edges are picked.
    pub fn element_counts(&self) -> (usize, usize) {
        (
            self.vertices.values().map(BTreeSet::len).sum(),
            self.edges.values().map(BTreeSet::len).sum(),
        )
    }

    /// The vertices a move of what is picked moves, per mesh: every vertex at a
    /// corner of a picked face, an end of a picked edge or a picked vertex's place.
    pub fn moved_vertices(&self, scene: &Scene) -> Vec<(EntityId, Vec<u32>)> {
        use pebble_model::mesh_edit::{welded_vertices, welded_with};
        let mut ids: BTreeSet<EntityId> = self.faces.keys().copied().collect();
        ids.extend(self.edges.keys().copied());
        ids.extend(self.vertices.keys().copied());
        ids.into_iter()
            .filter_map(|id| {
                let (mesh, _) = mesh_of(scene, id)?;
                let faces: Vec<usize> = self.faces_of(id);
                let mut ends: Vec<u32> = self.vertices_of(id);
                for (a, b) in self.edges.get(&id).into_iter().flatten() {
                    ends.extend([*a, *b]);
                }
                let mut moved: BTreeSet<u32> = welded_vertices(mesh, &faces).into_iter().collect();
                moved.extend(welded_with(mesh, &ends));
                (!moved.is_empty()).then(|| (id, moved.into_iter().collect()))
            })
            .collect()
    }

    /// How many faces (triangles) and objects.
    pub fn counts(&self) -> (usize, usize) {
        let faces = self.faces.values().map(FaceSet::len).sum();
        (faces, self.faces.values().filter(|f| !f.is_empty()).count())
    }

    pub fn clear(&mut self) {
        self.faces.clear();
        self.edges.clear();
        self.vertices.clear();
    }

    pub fn contains(&self, entity: EntityId, face: usize) -> bool {
        self.faces.get(&entity).is_some_and(|f| f.contains(&face))
    }

    /// Every mesh with its picked faces, in id order.
    pub fn iter(&self) -> impl Iterator<Item = (EntityId, Vec<usize>)> + '_ {
        self.faces
            .iter()
            .filter(|(_, f)| !f.is_empty())
            .map(|(e, f)| (*e, f.0.clone()))
    }

    /// Adds faces.
    pub fn add(&mut self, entity: EntityId, faces: impl IntoIterator<Item = usize>) {
        self.faces.entry(entity).or_default().extend(faces);
    }

    /// Picked faces become unpicked and the others picked.
    pub fn toggle(&mut self, entity: EntityId, faces: &[usize]) {
        let set = self.faces.entry(entity).or_default();
        let mut given = faces.to_vec();
        given.sort_unstable();
        if given.iter().all(|f| set.contains(f)) {
            set.0.retain(|f| given.binary_search(f).is_err());
        } else {
            set.extend(given);
        }
    }

    /// Drops what is gone (an undo removed its mesh, faces or vertices).
    pub fn keep_valid(&mut self, scene: &Scene) {
        self.faces.retain(|id, faces| match mesh_of(scene, *id) {
            Some((m, _)) => {
                faces.retain(|f| *f < m.faces.len());
                !faces.is_empty()
            }
            None => false,
        });
        self.edges.retain(|id, edges| match mesh_of(scene, *id) {
            Some((m, _)) => {
                let n = m.positions.len() as u32;
                edges.retain(|(a, b)| *a < n && *b < n);
                !edges.is_empty()
            }
            None => false,
        });
        self.vertices
            .retain(|id, vertices| match mesh_of(scene, *id) {
                Some((m, _)) => {
                    let n = m.positions.len() as u32;
                    vertices.retain(|v| *v < n);
                    !vertices.is_empty()
                }
                None => false,
            });
    }

    /// Adds every face in the plane of a picked one, over the same mesh.
    pub fn grow_coplanar(&mut self, scene: &Scene) {
        for (id, faces) in self.iter().collect::<Vec<_>>() {
            let Some((mesh, _)) = mesh_of(scene, id) else {
                continue;
            };
            let planes: Vec<_> = faces.iter().filter_map(|&f| plane(mesh, f)).collect();
            let more: Vec<usize> = (0..mesh.faces.len())
                .filter(|&g| {
                    plane(mesh, g).is_some_and(|(n, d)| {
                        planes
                            .iter()
                            .any(|(pn, pd)| n.dot(*pn) > 1.0 - 1e-4 && (d - pd).abs() < 1e-4)
                    })
                })
                .collect();
            self.add(id, more);
        }
    }

    /// Adds every face, of any mesh, with a material a picked face has.
    pub fn grow_same_material(&mut self, scene: &Scene) {
        let mut materials = BTreeSet::new();
        for (id, faces) in self.iter() {
            if let Some((mesh, _)) = mesh_of(scene, id) {
                materials.extend(
                    faces
                        .iter()
                        .filter_map(|&f| mesh.faces.get(f))
                        .map(|f| f.material),
                );
            }
        }
        for e in scene.entities() {
            if let EntityKind::Mesh(m) = &e.kind {
                let more: Vec<usize> = (0..m.geometry.faces.len())
                    .filter(|&f| materials.contains(&m.geometry.faces[f].material))
                    .collect();
                if !more.is_empty() {
                    self.add(e.id, more);
                }
            }
        }
    }

    /// Adds the faces that share an edge with a picked one (by where the corners
    /// are, so a box's sides, which keep their own corners, count as neighbours).
    pub fn grow(&mut self, scene: &Scene) {
        for (id, faces) in self.iter().collect::<Vec<_>>() {
            let Some((mesh, _)) = mesh_of(scene, id) else {
                continue;
            };
            let edges: BTreeSet<EdgeKey> = faces
                .iter()
                .filter_map(|&f| mesh.faces.get(f))
                .flat_map(|f| edges_at(mesh, f))
                .collect();
            // Whole faces: a neighbour's triangle brings its polygon.
            let more: BTreeSet<usize> = (0..mesh.faces.len())
                .filter(|&g| {
                    edges_at(mesh, &mesh.faces[g])
                        .iter()
                        .any(|e| edges.contains(e))
                })
                .flat_map(|g| mesh.polygon_of(g))
                .collect();
            self.add(id, more);
        }
    }

    /// The first picked face's mapping (what the inspector shows), with the
    /// material it uses.
    pub fn first_mapping(&self, scene: &Scene) -> Option<(UvMapping, pebble_model::MaterialId)> {
        let (id, faces) = self.iter().next()?;
        let (mesh, world) = mesh_of(scene, id)?;
        let f = *faces.first()?;
        Some((uv::mapping_of(mesh, f, &world)?, mesh.faces[f].material))
    }

    /// The materials the picked faces use, each once.
    pub fn materials(&self, scene: &Scene) -> Vec<pebble_model::MaterialId> {
        let mut out = Vec::new();
        for (id, faces) in self.iter() {
            if let Some((mesh, _)) = mesh_of(scene, id) {
                for f in faces {
                    if let Some(face) = mesh.faces.get(f)
                        && !out.contains(&face.material)
                    {
                        out.push(face.material);
                    }
                }
            }
        }
        out
    }

    /// The step that does `op` to the picked faces, per mesh (each mesh's faces
    /// against its own placement and materials).
    pub fn uv_step(&self, scene: &Scene, op: UvOp) -> Result<SetFaceUvs, String> {
        if self.is_empty() {
            return Err("no faces picked: click faces in face mode (T) first".into());
        }
        let mut after = Vec::new();
        for (id, faces) in self.iter() {
            let Some((mesh, world)) = mesh_of(scene, id) else {
                continue;
            };
            let tiling = faces
                .first()
                .and_then(|&f| mesh.faces.get(f))
                .and_then(|f| scene.material(f.material))
                .map_or(Vec2::ONE, |m| m.tiling);
            let uvs = match op {
                UvOp::Fit => uv::fit_to_faces(mesh, &faces, &world, tiling),
                UvOp::AlignWorld => uv::align_to_world(mesh, &faces, &world),
                UvOp::AlignFace => uv::align_to_face(mesh, &faces, &world),
                UvOp::Justify(to) => uv::justify(mesh, &faces, tiling, to),
                UvOp::Quarter(left) => {
                    let turn = if left { 90f32 } else { -90f32 }.to_radians();
                    uv::remap(mesh, &faces, &world, |m| UvMapping {
                        rotation: m.rotation + turn,
                        ..m
                    })
                }
                UvOp::FlipU => uv::remap(mesh, &faces, &world, |m| UvMapping {
                    scale: m.scale * Vec2::new(-1.0, 1.0),
                    ..m
                }),
                UvOp::FlipV => uv::remap(mesh, &faces, &world, |m| UvMapping {
                    scale: m.scale * Vec2::new(1.0, -1.0),
                    ..m
                }),
                UvOp::Set(field, value) => {
                    if !value.is_finite() {
                        return Err("a UV value must be a number".into());
                    }
                    if matches!(field, MappingField::ScaleU | MappingField::ScaleV)
                        && value.abs() < 1e-3
                    {
                        return Err("a texture scale cannot be 0 (negative flips it)".into());
                    }
                    uv::remap(mesh, &faces, &world, |mut m| {
                        match field {
                            MappingField::OffsetU => m.offset.x = value,
                            MappingField::OffsetV => m.offset.y = value,
                            MappingField::Rotation => m.rotation = value.to_radians(),
                            MappingField::ScaleU => m.scale.x = value,
                            MappingField::ScaleV => m.scale.y = value,
                        }
                        m
                    })
                }
            };
            if !uvs.is_empty() {
                after.push((id, uvs));
            }
        }
        if after.is_empty() {
            return Err("the picked faces have no area to put a texture on".into());
        }
        Ok(SetFaceUvs::new(op.label(), after))
    }
}

/// An edge by where its ends are (rounded to a hundredth of a millimetre), either
/// way round.
type EdgeKey = ([i64; 3], [i64; 3]);

fn edges_at(mesh: &MeshData, f: &pebble_model::mesh::Face) -> [EdgeKey; 3] {
    let at = |i: u32| {
        let p = mesh.positions.get(i as usize).copied().unwrap_or_default();
        [p.x, p.y, p.z].map(|c| (f64::from(c) * 1e5).round() as i64)
    };
    let i = f.indices;
    [(i[0], i[1]), (i[1], i[2]), (i[2], i[0])].map(|(a, b)| {
        let (a, b) = (at(a), at(b));
        if a <= b { (a, b) } else { (b, a) }
    })
}

/// A face's plane in the mesh's space: unit normal and distance.
fn plane(mesh: &MeshData, f: usize) -> Option<(pebble_model::glam::Vec3, f32)> {
    let [a, b, c] = mesh.triangle(mesh.faces.get(f)?);
    let n = (b - a).cross(c - a).normalize_or_zero();
    (n != pebble_model::glam::Vec3::ZERO).then(|| (n, n.dot(a)))
}

/// What face mode does to the picked faces' geometry.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum MeshOp {
    /// Pushed out along their normal this far, with walls (negative: in).
    Extrude(f32),
    Flip,
    Delete,
    /// The picked edges split at their middles.
    SplitEdges,
    /// The picked vertices merged into one at their middle.
    MergeVertices,
}

impl MeshOp {
    pub fn label(self) -> &'static str {
        match self {
            MeshOp::Extrude(_) => "Extrude faces",
            MeshOp::Flip => "Flip faces",
            MeshOp::Delete => "Delete faces",
            MeshOp::SplitEdges => "Split edges",
            MeshOp::MergeVertices => "Merge vertices",
        }
    }
}

impl FaceSelection {
    /// The step that does `op` to the picked faces (one per mesh, as one step).
    /// A mesh left with no face is refused: delete the object instead.
    pub fn mesh_step(
        &self,
        scene: &Scene,
        op: MeshOp,
    ) -> Result<Box<dyn pebble_model::Command>, String> {
        use pebble_model::mesh_edit;
        if self.is_empty() {
            return Err(
                "nothing picked: click faces, edges or vertices in face mode (T) first".into(),
            );
        }
        let mut steps: Vec<Box<dyn pebble_model::Command>> = Vec::new();
        let targets: Vec<EntityId> = match op {
            MeshOp::SplitEdges => self.edges().map(|(id, _)| id).collect(),
            MeshOp::MergeVertices => self.vertices().map(|(id, _)| id).collect(),
            _ => self.iter().map(|(id, _)| id).collect(),
        };
        if targets.is_empty() {
            return Err(match op {
                MeshOp::SplitEdges => "no edges picked: pick edges (Alt+2) first",
                MeshOp::MergeVertices => "no vertices picked: pick vertices (Alt+1) first",
                _ => "no faces picked: pick faces (Alt+3) first",
            }
            .into());
        }
        for id in targets {
            let Some((mesh, _)) = mesh_of(scene, id) else {
                continue;
            };
            let faces: Vec<usize> = self.faces_of(id);
            let after = match op {
                MeshOp::SplitEdges => {
                    let edges: Vec<(u32, u32)> = self.edges_of(id);
                    mesh_edit::split_edges(mesh, &edges)
                }
                MeshOp::MergeVertices => {
                    let vertices: Vec<u32> = self.vertices_of(id);
                    let merged = mesh_edit::merged(mesh, &vertices);
                    if merged.faces.is_empty() {
                        return Err(
                            "merging those leaves no face: delete the object instead".into()
                        );
                    }
                    merged
                }
                MeshOp::Extrude(d) => mesh_edit::extruded(mesh, &faces, d).0,
                MeshOp::Flip => mesh_edit::flipped(mesh, &faces),
                MeshOp::Delete => {
                    if faces.len() >= mesh.faces.len() {
                        let name = scene.entity(id).map_or(String::new(), |e| e.name.clone());
                        return Err(format!(
                            "that is every face of {name}: delete the object instead (select it and press Delete outside face mode)"
                        ));
                    }
                    mesh_edit::without_faces(mesh, &faces)
                }
            };
            steps.push(Box::new(pebble_model::command::EditMesh::new(
                id,
                op.label(),
                after,
            )));
        }
        match steps.len() {
            0 => Err("the picked faces are gone".into()),
            1 => Ok(steps.remove(0)),
            n => Ok(Box::new(pebble_model::CommandGroup::new(
                format!("{} on {n} objects", op.label()),
                steps,
            ))),
        }
    }
}

#[cfg(test)]
mod tests;
