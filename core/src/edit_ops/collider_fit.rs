//! Create › Collider from selection: a collider fitted to each selected mesh — a
//! box or a ramp round its own bounds (turned, scaled and moved with it, as its
//! child), or its triangles. A mesh that gets a box or a ramp stops colliding by
//! its triangles, so the device tests one shape, not two. One undo step.

use pebble_model::command::{AddEntities, SetEntity};
use pebble_model::entity::{Collider, EntityKind};
use pebble_model::glam::Vec3;
use pebble_model::{Command, CommandGroup, Entity, Transform};

use crate::document::Document;

/// The shape a fitted collider takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ColliderFit {
    Box,
    Ramp,
    TriangleMesh,
}

impl ColliderFit {
    pub const ALL: [ColliderFit; 3] = [Self::Box, Self::Ramp, Self::TriangleMesh];

    pub fn name(self) -> &'static str {
        match self {
            Self::Box => "box",
            Self::Ramp => "ramp",
            Self::TriangleMesh => "triangle mesh",
        }
    }
}

/// A collider of `fit` for every selected mesh, selected afterwards.
pub fn collider_from_selection(doc: &mut Document, fit: ColliderFit) -> Result<(), String> {
    let scene = doc.scene();
    let meshes: Vec<_> = scene
        .selection()
        .iter()
        .filter_map(|id| scene.entity(*id))
        .filter(|e| matches!(e.kind, EntityKind::Mesh(_)))
        .collect();
    if meshes.is_empty() {
        return Err("select one or more meshes to fit a collider to".into());
    }
    let mut colliders = Vec::new();
    let mut steps: Vec<Box<dyn Command>> = Vec::new();
    for mesh in meshes {
        let (kind, transform) = match fit {
            ColliderFit::TriangleMesh => (
                EntityKind::Collider(Collider::TriMesh { mesh: mesh.id }),
                Transform::IDENTITY,
            ),
            ColliderFit::Box | ColliderFit::Ramp => {
                let Some(b) = scene.local_aabb(mesh.id) else {
                    continue;
                };
                let size = (b.max - b.min).max(Vec3::splat(0.01));
                let base = Vec3::new(
                    (b.min.x + b.max.x) * 0.5,
                    b.min.y,
                    (b.min.z + b.max.z) * 0.5,
                );
                let collider = if fit == ColliderFit::Box {
                    Collider::Box { size }
                } else {
                    Collider::Ramp { size }
                };
                (
                    EntityKind::Collider(collider),
                    Transform::from_translation(base),
                )
            }
        };
        let mut e = Entity::new(format!("{} collider", mesh.name), kind).with_transform(transform);
        e.parent = Some(mesh.id);
        colliders.push(e);
        if fit != ColliderFit::TriangleMesh
            && let EntityKind::Mesh(m) = &mesh.kind
            && m.collidable
        {
            let mut after = mesh.clone();
            if let EntityKind::Mesh(m) = &mut after.kind {
                m.collidable = false;
            }
            steps.push(Box::new(SetEntity::new("Not collidable", after)));
        }
    }
    if colliders.is_empty() {
        return Err("the selected meshes have no geometry to fit".into());
    }
    steps.insert(0, Box::new(AddEntities::new("Fit colliders", colliders)));
    doc.execute(CommandGroup::new(
        format!("Collider from selection ({})", fit.name()),
        steps,
    ))
    .map_err(|e| e.to_string())
}
