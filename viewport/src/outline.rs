//! The selection's and the hover's outlines: a mesh's feature edges (where its
//! surface folds by more than a few degrees, and its open borders; never the
//! diagonals of flat faces), drawn bright where they are seen and as a faint ghost
//! through whatever hides them; the hovered mesh's pale. Worked out on the CPU
//! once per entity and scene change, kept while nothing changes.

use std::collections::HashMap;
use std::sync::Arc;

use pebble_model::entity::EntityKind;
use pebble_model::glam::{Affine3A, Vec3};
use pebble_model::{EntityId, MeshData, Scene};
use pebble_render::overlay::LineVertex;

/// Faces meeting at more than this angle make an edge (cosine of 20°).
const FOLD_COS: f32 = 0.94;
/// Meshes larger than this are outlined by their bounding box instead.
const MAX_TRIANGLES: usize = 200_000;

pub const SELECTED: u32 = 0xFF_28_AA_FF;
/// The selection seen through what hides it.
pub const GHOST: u32 = 0x50_28_AA_FF;
pub const HOVERED: u32 = 0x90_FF_FF_FF;

/// A line segment in a mesh's own space.
type Edge = (Vec3, Vec3);
/// An edge found by its ends' rounded positions: its ends and the normals of the
/// faces that meet there.
type EdgeFaces = HashMap<([i32; 3], [i32; 3]), (Vec3, Vec3, Vec<Vec3>)>;

/// The feature edges of `mesh`, in its own space.
pub fn feature_edges(mesh: &MeshData) -> Vec<Edge> {
    if mesh.faces.len() > MAX_TRIANGLES {
        return box_edges(mesh);
    }
    // Vertices are often repeated per face (for UVs): edges meet by position.
    let key = |p: Vec3| (p * 1e4).round().as_ivec3().to_array();
    let mut edges: EdgeFaces = HashMap::new();
    for f in &mesh.faces {
        let p = f.indices.map(|i| {
            mesh.positions
                .get(i as usize)
                .copied()
                .unwrap_or(Vec3::ZERO)
        });
        let normal = (p[1] - p[0]).cross(p[2] - p[0]).normalize_or_zero();
        if normal == Vec3::ZERO {
            continue;
        }
        for (a, b) in [(p[0], p[1]), (p[1], p[2]), (p[2], p[0])] {
            let (ka, kb) = (key(a), key(b));
            let k = if ka <= kb { (ka, kb) } else { (kb, ka) };
            edges
                .entry(k)
                .or_insert_with(|| (a, b, Vec::new()))
                .2
                .push(normal);
        }
    }
    let mut out: Vec<Edge> = edges
        .into_values()
        .filter(|(_, _, normals)| {
            normals.len() == 1
                || normals
                    .iter()
                    .any(|n| normals.iter().any(|m| n.dot(*m) < FOLD_COS))
        })
        .map(|(a, b, _)| (a, b))
        .collect();
    // A stable order: the same picture every frame.
    out.sort_by(|x, y| {
        (x.0.to_array(), x.1.to_array())
            .partial_cmp(&(y.0.to_array(), y.1.to_array()))
            .unwrap_or(std::cmp::Ordering::Equal)
    });
    out
}

/// The twelve edges of a mesh's bounding box.
fn box_edges(mesh: &MeshData) -> Vec<Edge> {
    let Some(b) = pebble_model::Aabb::from_points(mesh.positions.iter().copied()) else {
        return Vec::new();
    };
    let c = b.corners();
    pebble_render::overlay::BOX_EDGES
        .map(|(i, j)| (c[i], c[j]))
        .to_vec()
}

/// This frame's outline lines: depth-tested (seen) and on top (the ghost).
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Outline {
    pub lines: Vec<LineVertex>,
    pub on_top: Vec<LineVertex>,
}

/// Feature edges per mesh entity, kept for the scene revision they were found at.
#[derive(Debug, Default)]
pub struct OutlineCache {
    edges: HashMap<EntityId, (u64, Arc<Vec<Edge>>)>,
}

impl OutlineCache {
    fn edges_of(&mut self, scene: &Scene, id: EntityId) -> Option<Arc<Vec<Edge>>> {
        let revision = scene.revision();
        if let Some((r, e)) = self.edges.get(&id)
            && *r == revision
        {
            return Some(e.clone());
        }
        let EntityKind::Mesh(mesh) = &scene.entity(id)?.kind else {
            return None;
        };
        let edges = Arc::new(feature_edges(&mesh.geometry));
        if self.edges.len() > 64 {
            self.edges.retain(|_, (r, _)| *r == revision);
        }
        self.edges.insert(id, (revision, edges.clone()));
        Some(edges)
    }

    /// The outline of the selected meshes and of the hovered one, seen from `eye`
    /// (lines are pulled a hair towards it, so they win over the faces they lie on).
    pub fn frame(&mut self, scene: &Scene, hovered: Option<EntityId>, eye: Vec3) -> Outline {
        let mut out = Outline::default();
        let mut add = |world: Affine3A, edges: &[Edge], color, ghost: Option<u32>| {
            for (a, b) in edges {
                for p in [*a, *b] {
                    let p = world.transform_point3(p);
                    let toward =
                        (eye - p).normalize_or_zero() * ((eye - p).length() * 0.002).max(0.005);
                    let pos = (p + toward).to_array();
                    out.lines.push(LineVertex { pos, color });
                    if let Some(ghost) = ghost {
                        out.on_top.push(LineVertex { pos, color: ghost });
                    }
                }
            }
        };
        for &id in scene.selection() {
            if !scene.is_drawn(id) {
                continue;
            }
            if let Some(edges) = self.edges_of(scene, id) {
                add(scene.world_transform(id), &edges, SELECTED, Some(GHOST));
            }
        }
        if let Some(id) = hovered.filter(|id| !scene.selection().contains(id))
            && scene.is_drawn(id)
            && let Some(edges) = self.edges_of(scene, id)
        {
            add(scene.world_transform(id), &edges, HOVERED, None);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pebble_model::{MaterialId, Primitive};

    #[test]
    fn a_box_has_twelve_edges_and_a_plane_its_four_borders() {
        let cube = Primitive::Box { size: Vec3::ONE }
            .generate(MaterialId(1))
            .expect("a box");
        assert_eq!(feature_edges(&cube).len(), 12, "no face diagonals");
        let plane = Primitive::Plane {
            width: 2.0,
            depth: 2.0,
            standoff: 0.0,
        }
        .generate(MaterialId(1))
        .expect("a plane");
        assert_eq!(feature_edges(&plane).len(), 4);
    }
}

#[cfg(test)]
mod frame_tests {
    use super::*;
    use pebble_model::command::{AddEntities, AddMaterial};
    use pebble_model::entity::{GeometrySource, MeshEntity};
    use pebble_model::{Command, Entity, Primitive, Transform};

    #[test]
    fn the_selection_is_outlined_with_a_ghost_and_the_hover_pale() {
        let mut scene = Scene::new();
        let mut material = AddMaterial::new(Default::default());
        material.apply(&mut scene).expect("material");
        let m = material.created().expect("id");
        let boxed = |x: f32| {
            let geometry = Primitive::Box { size: Vec3::ONE }
                .generate(m)
                .expect("a box");
            Entity::new(
                "Box",
                EntityKind::Mesh(MeshEntity {
                    source: GeometrySource::Authored,
                    geometry,
                    collidable: false,
                }),
            )
            .with_transform(Transform::from_translation(Vec3::new(x, 0.0, 0.0)))
        };
        let mut add = AddEntities::new("Add", vec![boxed(0.0), boxed(3.0)]);
        add.apply(&mut scene).expect("add");
        let ids = add.created();
        scene.select(vec![ids[0]]);
        let mut cache = OutlineCache::default();
        let eye = Vec3::new(0.0, 5.0, 10.0);
        let only_selected = cache.frame(&scene, None, eye);
        assert_eq!(only_selected.lines.len(), 12 * 2, "a box's twelve edges");
        assert_eq!(only_selected.on_top.len(), 12 * 2, "and their ghost");
        assert!(only_selected.lines.iter().all(|v| v.color == SELECTED));
        assert!(only_selected.on_top.iter().all(|v| v.color == GHOST));
        let with_hover = cache.frame(&scene, Some(ids[1]), eye);
        let pale = with_hover
            .lines
            .iter()
            .filter(|v| v.color == HOVERED)
            .count();
        assert_eq!(pale, 12 * 2, "the hovered box outlined pale, no ghost");
        assert_eq!(with_hover.on_top.len(), 12 * 2);
        // Each line is pulled towards the eye a hair, so it wins over its faces.
        let first = Vec3::from(only_selected.lines[0].pos);
        assert!(first.distance(eye) < 20.0);
    }
}
