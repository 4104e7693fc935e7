//! The Edit menu's operations on the selection, each one command (one undo step)
//! built from the document as it is: delete, duplicate, group and ungroup, hide,
//! unhide and isolate, nudge by the grid step, turn a quarter about Y, drop to the
//! floor; and the selections (all, none, inverse, by kind, by material), which are
//! not steps.

use pebble_model::command::{Duplicate, Group, RemoveEntities, Select, Ungroup};
use pebble_model::entity::EntityKind;
use pebble_model::glam::{Quat, Vec3};
use pebble_model::{Command, CommandGroup, EntityId, Kind, Scene, Transform};

use super::document::Document;

/// What an operation did not do, for the status line.
pub type Refusal = String;

fn selected(doc: &Document) -> Result<Vec<EntityId>, Refusal> {
    let ids = doc.scene().selection().to_vec();
    if ids.is_empty() {
        return Err("nothing selected".into());
    }
    Ok(ids)
}

fn run(doc: &mut Document, command: impl Command) -> Result<(), Refusal> {
    doc.execute(command).map_err(|e| e.to_string())
}

/// Del / Backspace: the selection and what it holds.
pub fn delete(doc: &mut Document) -> Result<(), Refusal> {
    let ids = selected(doc)?;
    run(doc, RemoveEntities::new(ids))
}

/// Ctrl+D: copies of the selection (with what it holds) in the same places,
/// selected.
pub fn duplicate(doc: &mut Document) -> Result<Vec<EntityId>, Refusal> {
    let ids = doc.moved_entities();
    if ids.is_empty() {
        return Err("nothing selected".into());
    }
    run(doc, Duplicate::new(ids))?;
    // The copies come selected.
    Ok(doc.scene().selection().to_vec())
}

/// Ctrl+G: the selection into a new group.
pub fn group(doc: &mut Document) -> Result<(), Refusal> {
    let ids = doc.moved_entities();
    if ids.is_empty() {
        return Err("nothing selected".into());
    }
    run(doc, Group::new(ids, "Group"))
}

/// Ctrl+Shift+G: the selected groups dissolved, their members kept in place and
/// selected (what was grouped is what the next step works on).
pub fn ungroup(doc: &mut Document) -> Result<(), Refusal> {
    let groups: Vec<EntityId> = selected(doc)?
        .into_iter()
        .filter(|id| {
            doc.scene()
                .entity(*id)
                .is_some_and(|e| matches!(e.kind, EntityKind::Group))
        })
        .collect();
    if groups.is_empty() {
        return Err("no group selected".into());
    }
    let members: Vec<EntityId> = groups
        .iter()
        .flat_map(|g| doc.scene().children(Some(*g)))
        .collect();
    let mut steps: Vec<Box<dyn Command>> = groups
        .into_iter()
        .map(|g| Box::new(Ungroup::new(g)) as Box<dyn Command>)
        .collect();
    steps.push(Box::new(Select::new(members)));
    run(doc, CommandGroup::new("Ungroup", steps))
}

/// Sets `visible` on `ids` as one step named `name` (those already so are left);
/// with none to change, refuses with `nothing`.
fn set_visible(
    doc: &mut Document,
    ids: &[EntityId],
    visible: bool,
    (_name, nothing): (&str, &str),
) -> Result<(), Refusal> {
    // A view setting, as the selection is: no History step (Hide and Unhide
    // filled the History between real edits).
    if doc.set_visible(ids, visible) == 0 {
        return Err(nothing.into());
    }
    Ok(())
}

/// H: the selection hidden (and so no longer pickable).
pub fn hide_selected(doc: &mut Document) -> Result<(), Refusal> {
    let ids = selected(doc)?;
    set_visible(
        doc,
        &ids,
        false,
        ("Hide", "nothing to hide: the selection is hidden already"),
    )
}

/// Alt+H: everything shown again.
pub fn unhide_all(doc: &mut Document) -> Result<(), Refusal> {
    let ids: Vec<EntityId> = doc.scene().entities().map(|e| e.id).collect();
    set_visible(doc, &ids, true, ("Unhide all", "nothing is hidden"))
}

/// /: everything but the selection (its ancestors and what it holds) hidden; again,
/// with nothing else left to hide, what the isolate hid shown again (what was
/// hidden before it stays hidden).
pub fn isolate(doc: &mut Document) -> Result<(), Refusal> {
    let ids = selected(doc)?;
    let scene = doc.scene();
    let mut keep: Vec<EntityId> = Vec::new();
    for id in &ids {
        keep.extend(scene.subtree(*id));
        let mut parent = scene.entity(*id).and_then(|e| e.parent);
        while let Some(p) = parent {
            if keep.contains(&p) {
                break;
            }
            keep.push(p);
            parent = scene.entity(p).and_then(|e| e.parent);
        }
    }
    let others: Vec<EntityId> = scene
        .entities()
        .filter(|e| !keep.contains(&e.id) && e.visible)
        .map(|e| e.id)
        .collect();
    if others.is_empty() {
        let hid = std::mem::take(&mut doc.isolated);
        if hid.is_empty() {
            return unhide_all(doc);
        }
        return set_visible(doc, &hid, true, ("Leave isolate", "nothing is hidden"));
    }
    set_visible(doc, &others, false, ("Isolate", "nothing else to hide"))?;
    doc.isolated = others;
    Ok(())
}

/// An entity's local transform moved by `by` (world metres), from its placement
/// (local, world and parent's world transforms); rotation and scale untouched.
pub fn moved_by(
    (local, world, parent): (
        Transform,
        pebble_model::glam::Affine3A,
        pebble_model::glam::Affine3A,
    ),
    by: Vec3,
) -> Transform {
    let target = pebble_model::glam::Affine3A::from_translation(by) * world;
    Transform {
        translation: Transform::from_affine(parent.inverse() * target).translation,
        ..local
    }
}

/// The selection moved by `by` (world metres), one step named `name`.
fn move_selection(doc: &mut Document, by: Vec3, name: &str) -> Result<(), Refusal> {
    let moves: Vec<(EntityId, Vec3)> = doc
        .moved_entities()
        .into_iter()
        .map(|id| (id, by))
        .collect();
    if moves.is_empty() {
        return Err("nothing selected".into());
    }
    move_each(doc, &moves, name)
}

/// Arrow keys: the selection one grid `step` along a world axis.
pub fn nudge(doc: &mut Document, direction: Vec3, step: f32) -> Result<(), Refusal> {
    move_selection(doc, direction * step, "Nudge")
}

/// Ctrl+R: each selected entity a quarter turn about the world's Y axis, in place.
pub fn turn_quarter(doc: &mut Document) -> Result<(), Refusal> {
    let turned: Vec<(EntityId, Transform)> = doc
        .moved_placements()
        .into_iter()
        .map(|(id, local, _, _)| {
            let rotation =
                (Quat::from_rotation_y(std::f32::consts::FRAC_PI_2) * local.rotation).normalize();
            (id, Transform { rotation, ..local })
        })
        .collect();
    if turned.is_empty() {
        return Err("nothing selected".into());
    }
    let step = doc.set_transforms("Turn 90°", turned);
    run(doc, step)
}

/// The height of the first surface below `from` (straight down) among the drawn
/// meshes not in `skip`; else the ground (y = 0) when `from` is above it.
pub fn floor_below(scene: &Scene, from: Vec3, skip: &[EntityId]) -> Option<f32> {
    let mut best: Option<f32> = None;
    for e in scene.entities_of(Kind::Mesh) {
        if skip.contains(&e.id) || !scene.is_drawn(e.id) {
            continue;
        }
        let EntityKind::Mesh(mesh) = &e.kind else {
            continue;
        };
        let world = scene.world_transform(e.id);
        let g = &mesh.geometry;
        for f in &g.faces {
            let p = f.indices.map(|i| {
                world.transform_point3(g.positions.get(i as usize).copied().unwrap_or(Vec3::ZERO))
            });
            if let Some(y) = down_hit(from, p)
                && y <= from.y + 1e-4
                && best.is_none_or(|b| y > b)
            {
                best = Some(y);
            }
        }
    }
    best.or((from.y >= 0.0).then_some(0.0))
}

/// Where the vertical line through `from` crosses triangle `p` (its height).
fn down_hit(from: Vec3, p: [Vec3; 3]) -> Option<f32> {
    let (a, b, c) = (p[0], p[1], p[2]);
    let d = |u: Vec3, v: Vec3, w: Vec3| (v.x - u.x) * (w.z - u.z) - (v.z - u.z) * (w.x - u.x);
    let area = d(a, b, c);
    if area.abs() < 1e-9 {
        return None;
    }
    let q = Vec3::new(from.x, 0.0, from.z);
    let (w0, w1, w2) = (d(b, c, q) / area, d(c, a, q) / area, d(a, b, q) / area);
    (w0 >= -1e-6 && w1 >= -1e-6 && w2 >= -1e-6).then_some(w0 * a.y + w1 * b.y + w2 * c.y)
}

/// End: each selected entity lowered (or raised, if it sinks into one) onto the
/// first surface under its centre, by the bottom of its bounds.
pub fn drop_to_floor(doc: &mut Document) -> Result<(), Refusal> {
    let scene = doc.scene();
    let moved = doc.moved_entities();
    if moved.is_empty() {
        return Err("nothing selected".into());
    }
    let placements = doc.moved_placements();
    let mut steps: Vec<(EntityId, Transform)> = Vec::new();
    for (id, local, world, parent) in placements {
        let bounds = scene.world_aabb(id);
        let place: Vec3 = world.translation.into();
        let (centre, bottom) = match bounds {
            Some(b) => (b.center(), b.min.y),
            None => (place, place.y),
        };
        // Surfaces under the centre count, so that one sunk into the floor rises.
        let Some(floor) = floor_below(scene, centre, &moved) else {
            continue;
        };
        steps.push((
            id,
            moved_by((local, world, parent), Vec3::Y * (floor - bottom)),
        ));
    }
    if steps.is_empty() {
        return Err("no floor under the selection".into());
    }
    let step = doc.set_transforms("Drop to floor", steps);
    run(doc, step)
}

/// A world axis, for aligning and distributing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Axis {
    X,
    Y,
    Z,
}

impl Axis {
    pub const ALL: [Axis; 3] = [Axis::X, Axis::Y, Axis::Z];

    fn index(self) -> usize {
        self as usize
    }

    fn unit(self) -> Vec3 {
        Vec3::AXES[self.index()]
    }
}

/// Which side of the bounds lines up.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Edge {
    Min,
    Centre,
    Max,
}

impl Edge {
    pub const ALL: [Edge; 3] = [Edge::Min, Edge::Centre, Edge::Max];
}

/// The moved entities with their world bounds (entities without bounds: their
/// place).
fn bounded(doc: &Document) -> Vec<(EntityId, pebble_model::Aabb)> {
    let scene = doc.scene();
    doc.moved_entities()
        .into_iter()
        .map(|id| {
            let b = scene.world_aabb(id).unwrap_or_else(|| {
                let p: Vec3 = scene.world_transform(id).translation.into();
                pebble_model::Aabb { min: p, max: p }
            });
            (id, b)
        })
        .collect()
}

/// Moves each of `moves` (entity, world offset) as one step named `name`.
fn move_each(doc: &mut Document, moves: &[(EntityId, Vec3)], name: &str) -> Result<(), Refusal> {
    let placements = doc.moved_placements();
    let changed: Vec<(EntityId, Transform)> = placements
        .into_iter()
        .filter_map(|(id, local, world, parent)| {
            let by = moves.iter().find(|(m, _)| *m == id)?.1;
            Some((id, moved_by((local, world, parent), by)))
        })
        .collect();
    let step = doc.set_transforms(name, changed);
    run(doc, step)
}

/// Edit › Arrange › Align: the selection's bounds lined up on `axis` at the
/// lowest `Min`, the middle of them all (`Centre`) or the highest `Max`.
pub fn align(doc: &mut Document, axis: Axis, edge: Edge) -> Result<(), Refusal> {
    let items = bounded(doc);
    if items.len() < 2 {
        return Err("select two or more to align".into());
    }
    let k = axis.index();
    let lo = items
        .iter()
        .map(|(_, b)| b.min[k])
        .fold(f32::INFINITY, f32::min);
    let hi = items
        .iter()
        .map(|(_, b)| b.max[k])
        .fold(f32::NEG_INFINITY, f32::max);
    let target = match edge {
        Edge::Min => lo,
        Edge::Centre => (lo + hi) * 0.5,
        Edge::Max => hi,
    };
    let moves: Vec<(EntityId, Vec3)> = items
        .iter()
        .map(|(id, b)| {
            let at = match edge {
                Edge::Min => b.min[k],
                Edge::Centre => (b.min[k] + b.max[k]) * 0.5,
                Edge::Max => b.max[k],
            };
            (*id, axis.unit() * (target - at))
        })
        .collect();
    move_each(doc, &moves, "Align")
}

/// Edit › Arrange › Distribute: the selection's middles evenly spaced along
/// `axis`, the first and the last staying where they are.
pub fn distribute(doc: &mut Document, axis: Axis) -> Result<(), Refusal> {
    let mut items = bounded(doc);
    if items.len() < 3 {
        return Err("select three or more to distribute".into());
    }
    let k = axis.index();
    let centre = |b: &pebble_model::Aabb| (b.min[k] + b.max[k]) * 0.5;
    items.sort_by(|a, b| centre(&a.1).total_cmp(&centre(&b.1)));
    let (first, last) = (centre(&items[0].1), centre(&items[items.len() - 1].1));
    let step = (last - first) / (items.len() - 1) as f32;
    let moves: Vec<(EntityId, Vec3)> = items
        .iter()
        .enumerate()
        .map(|(n, (id, b))| (*id, axis.unit() * (first + step * n as f32 - centre(b))))
        .collect();
    move_each(doc, &moves, "Distribute")
}

/// Ctrl+A: every pickable entity.
pub fn select_all(doc: &mut Document) {
    let scene = doc.scene();
    let ids = scene
        .entities()
        .map(|e| e.id)
        .filter(|id| scene.is_pickable(*id))
        .collect();
    let _ = doc.select(ids);
}

/// Ctrl+I: the pickable entities not selected.
pub fn select_inverse(doc: &mut Document) {
    let scene = doc.scene();
    let ids = scene
        .entities()
        .map(|e| e.id)
        .filter(|id| scene.is_pickable(*id) && !scene.selection().contains(id))
        .collect();
    let _ = doc.select(ids);
}

/// Every pickable entity of the kinds the selection holds.
pub fn select_same_kind(doc: &mut Document) -> Result<(), Refusal> {
    let scene = doc.scene();
    let kinds: Vec<Kind> = selected(doc)?
        .iter()
        .filter_map(|id| scene.entity(*id).map(|e| e.kind.kind()))
        .collect();
    let ids = scene
        .entities()
        .filter(|e| kinds.contains(&e.kind.kind()) && scene.is_pickable(e.id))
        .map(|e| e.id)
        .collect();
    doc.select(ids).map_err(|e| e.to_string())
}

/// Every pickable mesh using a material the selected meshes use.
pub fn select_same_material(doc: &mut Document) -> Result<(), Refusal> {
    let scene = doc.scene();
    let materials = |id: EntityId| -> Vec<pebble_model::MaterialId> {
        match scene.entity(id).map(|e| &e.kind) {
            Some(EntityKind::Mesh(m)) => m.geometry.materials(),
            _ => Vec::new(),
        }
    };
    let wanted: Vec<_> = selected(doc)?.into_iter().flat_map(materials).collect();
    if wanted.is_empty() {
        return Err("no mesh selected".into());
    }
    let ids = scene
        .entities_of(Kind::Mesh)
        .filter(|e| scene.is_pickable(e.id) && materials(e.id).iter().any(|m| wanted.contains(m)))
        .map(|e| e.id)
        .collect();
    doc.select(ids).map_err(|e| e.to_string())
}

mod collider_fit;
pub use collider_fit::{ColliderFit, collider_from_selection};

#[cfg(test)]
mod tests;
