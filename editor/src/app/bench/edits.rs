//! The benchmark's edit timings: duplicating 500 entities at once and pasting a
//! 10 000-triangle selection from clipboard text, each on a document of its own
//! (so the scene being drawn is not touched), as the median of several runs.

use std::time::{Duration, Instant};

use pebble_model::command::{AddEntities, AddMaterial};
use pebble_model::glam::Vec3;
use pebble_model::{Primitive, Scene};

use pebble_core::clipboard::{self, Place};
use pebble_core::create::{self, CreateItem};
use pebble_core::document::Document;
use pebble_core::edit_ops;

/// How many times each edit is timed.
const RUNS: usize = 9;

/// Median milliseconds of: duplicating 500 entities (one step), and pasting
/// clipboard text holding 10 080 triangles (one step, parsing included); and the
/// triangles pasted.
pub fn edit_times() -> Result<(f64, f64, usize), String> {
    let mut doc = Document::new(
        Scene::new(),
        std::env::temp_dir().join("pebble-bench-edits.pebble.ron"),
        Duration::from_secs(3600),
    );
    doc.execute(AddMaterial::new(Default::default()))
        .map_err(|e| e.to_string())?;
    let material = doc.scene().materials().map(|(id, _)| id).next();
    let boxes: Result<Vec<_>, String> = (0..500)
        .map(|k| {
            let at = Vec3::new((k % 25) as f32 * 2.0, 0.0, (k / 25) as f32 * 2.0);
            create::entity(CreateItem::Box, at, material)
        })
        .collect();
    doc.execute(AddEntities::new("Boxes", boxes?))
        .map_err(|e| e.to_string())?;
    let mut duplicate = Vec::new();
    for _ in 0..RUNS {
        let t = Instant::now();
        let copies = edit_ops::duplicate(&mut doc)?;
        duplicate.push(t.elapsed());
        if copies.len() != 500 {
            return Err(format!("duplicated {} entities, not 500", copies.len()));
        }
        doc.undo();
    }

    // Four flights of 210 steps: 4 × 210 × 12 triangles.
    let flight = |k: usize| -> Result<pebble_model::Entity, String> {
        let material = material.ok_or("no material")?;
        let p = Primitive::Stairs {
            steps: 210,
            width: 2.0,
            rise: 0.02,
            run: 0.05,
        };
        let geometry = p.generate(material).map_err(|e| e.to_string())?;
        Ok(pebble_model::Entity::new(
            "Flight",
            pebble_model::EntityKind::Mesh(pebble_model::entity::MeshEntity {
                source: pebble_model::entity::GeometrySource::Primitive(p),
                geometry,
                collidable: true,
            }),
        )
        .with_transform(pebble_model::Transform::from_translation(Vec3::new(
            k as f32 * 3.0,
            0.0,
            -20.0,
        ))))
    };
    let flights: Result<Vec<_>, String> = (0..4).map(flight).collect();
    doc.execute(AddEntities::new("Flights", flights?))
        .map_err(|e| e.to_string())?;
    let triangles: usize = doc
        .scene()
        .selection()
        .iter()
        .filter_map(|id| match &doc.scene().entity(*id)?.kind {
            pebble_model::EntityKind::Mesh(m) => Some(m.geometry.faces.len()),
            _ => None,
        })
        .sum();
    let text = clipboard::copy(&doc).ok_or("nothing to copy")?;
    let mut paste = Vec::new();
    for _ in 0..RUNS {
        let t = Instant::now();
        let n = clipboard::paste(&mut doc, &text, Place::At(Vec3::new(0.0, 0.0, 30.0)))?;
        paste.push(t.elapsed());
        if n != 4 {
            return Err(format!("pasted {n} entities, not 4"));
        }
        doc.undo();
    }
    let (dup_ms, _) = super::stats(&duplicate);
    let (paste_ms, _) = super::stats(&paste);
    Ok((dup_ms, paste_ms, triangles))
}

/// Median milliseconds of one frame's PSP budget readout: following the scene
/// (already measured), the status bar's summary and the window's lines.
pub fn readout_time(
    budget: &mut crate::app::budget::Budget,
    scene: &Scene,
    project_dir: &std::path::Path,
    camera: &pebble_render::Camera,
) -> Result<f64, String> {
    use crate::app::budget::{MapCost, rows};
    if budget.cost.as_ref().map(|(r, _)| *r) != Some(scene.revision()) {
        let bytes =
            pebble_core::services::export::to_bytes(scene, project_dir.to_path_buf(), false)
                .map_err(|e| e.to_string())?;
        budget.cost = Some((scene.revision(), MapCost::of_bytes(&bytes)?));
    }
    let mut times = Vec::new();
    for _ in 0..200 {
        let t = Instant::now();
        budget.update(scene, project_dir, Instant::now());
        let summary = budget.summary();
        let worst = budget.worst();
        let lines = budget
            .cost
            .as_ref()
            .map(|(_, c)| rows(c, camera))
            .unwrap_or_default();
        std::hint::black_box((summary, worst, lines));
        times.push(t.elapsed());
    }
    Ok(super::stats(&times).0)
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_edits_measured_are_the_sizes_the_issue_names() {
        let (dup, paste, triangles) = super::edit_times().expect("runs");
        assert_eq!(triangles, 10_080);
        assert!(dup > 0.0 && paste > 0.0);
    }
}
