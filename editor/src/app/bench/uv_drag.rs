//! `pebble bench-editor --uv-drag`: a UV drag measured in the whole editor. A
//! 10 082-triangle grid stands where the view looks, face mode is on with all its
//! faces picked and the UV dock open, and every editor frame moves their UVs by a
//! texel and back, as a drag in the dock does (one merged step).

use pebble_model::command::{AddEntities, SetFaceUvs};
use pebble_model::entity::{EntityKind, GeometrySource, MeshEntity};
use pebble_model::glam::{Vec2, Vec3};
use pebble_model::mesh::MeshBuilder;
use pebble_model::{EditKey, Entity, Transform};

use crate::app::PebbleApp;
use pebble_core::document::Document;
use pebble_core::profiling::time;
use pebble_panels::Pane;
use pebble_panels::uv_dock::{current_uvs, moved_uvs};

/// Quads along each side of the grid: 71² quads, 10 082 triangles.
const SIDE: usize = 71;

/// Puts the grid in the scene where the view looks, picks all its faces in face
/// mode and opens the UV dock.
pub fn prepare(app: &mut PebbleApp) -> Result<(), String> {
    let material = app
        .doc
        .scene()
        .materials()
        .find(|(_, m)| m.texture.is_some())
        .map(|(id, _)| id)
        .ok_or("the project has no textured material")?;
    let mut b = MeshBuilder::default();
    let cell = 4.0 / SIDE as f32;
    for z in 0..SIDE {
        for x in 0..SIDE {
            let (x0, z0) = (x as f32 * cell - 2.0, z as f32 * cell - 2.0);
            b.polygon(
                &[
                    Vec3::new(x0, 0.0, z0 + cell),
                    Vec3::new(x0 + cell, 0.0, z0 + cell),
                    Vec3::new(x0 + cell, 0.0, z0),
                    Vec3::new(x0, 0.0, z0),
                ],
                Vec3::Y,
                material,
            );
        }
    }
    let pivot = app.viewport.view.goal().pivot;
    let grid = Entity::new(
        "UV drag grid",
        EntityKind::Mesh(MeshEntity {
            source: GeometrySource::Authored,
            geometry: b.mesh,
            collidable: false,
        }),
    )
    .with_transform(Transform::from_translation(pivot + Vec3::Y * 0.6));
    app.doc
        .execute(AddEntities::new("Add the grid", vec![grid]).without_selecting())
        .map_err(|e| e.to_string())?;
    let id = app
        .doc
        .scene()
        .entities()
        .find(|e| e.name == "UV drag grid")
        .map(|e| e.id)
        .ok_or("the grid did not arrive")?;
    app.viewport.tools.set_face_mode(true);
    app.doc.faces.add(id, 0..SIDE * SIDE * 2);
    app.panels.raise(Pane::Uv);
    Ok(())
}

/// Frame `k` of the drag: a texel one way on even frames, back on odd ones.
pub fn step(doc: &mut Document, k: usize) {
    let by = Vec2::splat(if k.is_multiple_of(2) { 1.0 } else { -1.0 } / 64.0);
    let start = time("UV drag step: the UVs now", || {
        current_uvs(doc.scene(), &doc.faces)
    });
    let after = time("UV drag step: moved", || moved_uvs(doc.scene(), &start, by));
    let done = time("UV drag step: the command", || {
        doc.execute_continuous(SetFaceUvs::new("Move UVs", after), EditKey::Uv)
    });
    if let Err(e) = done {
        tracing::warn!(target: "pebble", "the UV drag step failed: {e}");
    }
}
