//! The Edit menu's prefab operations, each one undo step built from the
//! document as it is: make a prefab of the selection, a linked copy, enter or
//! leave an instance, apply or revert its overrides, unlink it; and placing a
//! prefab dragged from the Assets panel onto a surface.

use pebble_model::glam::{Affine3A, Vec3};
use pebble_model::prefab::edit::{self, Which};
use pebble_model::prefab::{Prefab, sync};
use pebble_model::{EntityId, Scene, Transform};

use super::document::Document;
use super::edit_ops::Refusal;

/// How far, in metres, a dropped point may be from the surface it is on.
const SURFACE_SNAP: f32 = 0.01;

/// The instance the selection is about: the first selected entity that is an
/// instance, else the instance holding the first selected entity; with the
/// selected entity's prefab-local id when it is inside it.
pub fn selected_instance(scene: &Scene) -> Option<(EntityId, Option<EntityId>)> {
    let sel = scene.selection();
    if let Some(i) = sel
        .iter()
        .find(|id| scene.entity(**id).is_some_and(|e| e.instance.is_some()))
    {
        return Some((*i, None));
    }
    let first = *sel.first()?;
    let inside = scene.instance_of(first)?;
    Some((
        inside,
        scene
            .entity(first)
            .and_then(|e| e.source)
            .filter(|s| s.instance == inside)
            .map(|s| s.id),
    ))
}

/// A prefab name no prefab of the map or the project has: `base`, else
/// `base 2`, …
fn free_name(doc: &Document, base: &str) -> String {
    let placeable = doc.prefabs.placeable(doc.scene());
    pebble_model::naming::next_free(base, false, |n| placeable.iter().any(|p| p.name == n))
}

/// Ctrl+Shift+P: the selection made a prefab, named after its first entity,
/// shared by the project (a file in `prefabs/` when saved); it becomes the
/// prefab's first instance. Returns the prefab's name.
pub fn make_prefab(doc: &mut Document) -> Result<String, Refusal> {
    let roots = doc.moved_entities();
    let first = roots.first().ok_or("nothing selected")?;
    let base = doc
        .scene()
        .entity(*first)
        .map_or("Prefab".to_owned(), |e| e.name.clone());
    let name = free_name(doc, &base);
    let id = sync::new_prefab_id(doc.scene());
    let patch = edit::make(doc.scene(), &roots, &name, id, false, doc.entered())
        .map_err(|e| e.to_string())?;
    doc.execute(patch).map_err(|e| e.to_string())?;
    Ok(name)
}

/// Ctrl+Shift+D, first half: the selection as one instance — itself when it is
/// one, else a new map-local prefab made of it (then `true`: a step was
/// taken). Returns the instance (to be duplicated: a duplicate of an instance
/// is a linked copy).
pub fn as_linked(doc: &mut Document) -> Result<(EntityId, bool), Refusal> {
    let roots = doc.moved_entities();
    if let [one] = roots.as_slice()
        && doc
            .scene()
            .entity(*one)
            .is_some_and(|e| e.instance.is_some())
    {
        return Ok((*one, false));
    }
    let first = roots.first().ok_or("nothing selected")?;
    let base = doc
        .scene()
        .entity(*first)
        .map_or("Linked".to_owned(), |e| format!("{} (linked)", e.name));
    let name = free_name(doc, &base);
    let id = sync::new_prefab_id(doc.scene());
    let patch = edit::make(doc.scene(), &roots, &name, id, true, doc.entered())
        .map_err(|e| e.to_string())?;
    doc.execute(patch).map_err(|e| e.to_string())?;
    doc.scene()
        .selection()
        .first()
        .map(|id| (*id, true))
        .ok_or_else(|| "the linked copy's instance was not made".into())
}

/// Ctrl+Enter: enters the selected instance (its prefab edited in place), or
/// leaves the one entered. Returns what the status line says.
pub fn enter_or_leave(doc: &mut Document) -> Result<String, Refusal> {
    let target = selected_instance(doc.scene()).map(|(i, _)| i);
    if let Some(now) = doc.entered()
        && (target.is_none()
            || target == Some(now)
            || target.is_some_and(|t| doc.scene().is_ancestor(now, t)))
    {
        let name = doc
            .scene()
            .entity(now)
            .map_or(String::new(), |e| e.name.clone());
        doc.enter(None);
        return Ok(format!(
            "left {name}: edits inside an instance are its own overrides again"
        ));
    }
    let Some(instance) = target else {
        return Err("select a prefab instance (or something inside one) to enter it".into());
    };
    let scene = doc.scene();
    let (name, prefab, copies) = scene
        .entity(instance)
        .and_then(|e| {
            let p = e.instance.as_ref()?.prefab;
            let copies = scene.instances_of(p).len();
            Some((e.name.clone(), scene.prefab(p)?.name.clone(), copies))
        })
        .ok_or("its prefab is missing: unlink it to edit it as plain entities")?;
    doc.enter(Some(instance));
    Ok(format!(
        "editing the prefab {prefab} in {name}: each edit reaches all {copies} instances when it is done; Ctrl+Enter leaves"
    ))
}

fn which(scene: &Scene) -> Result<(EntityId, Which), Refusal> {
    let (instance, inside) =
        selected_instance(scene).ok_or("select a prefab instance or something inside one")?;
    Ok((instance, inside.map_or(Which::All, Which::Entity)))
}

/// The selected instance's overrides (or those of the entity selected in it)
/// given to the prefab.
pub fn apply_to_prefab(doc: &mut Document) -> Result<(), Refusal> {
    let (instance, which) = which(doc.scene())?;
    let patch = edit::apply_to_prefab(doc.scene(), instance, &which).map_err(|e| e.to_string())?;
    doc.execute(patch).map_err(|e| e.to_string())
}

/// The selected instance's overrides (or those of the entity selected in it)
/// taken back.
pub fn revert_overrides(doc: &mut Document) -> Result<(), Refusal> {
    let (instance, which) = which(doc.scene())?;
    let patch = edit::revert(doc.scene(), instance, &which).map_err(|e| e.to_string())?;
    doc.execute(patch).map_err(|e| e.to_string())
}

/// Ctrl+Shift+U: the selected instances made plain entities.
pub fn unlink(doc: &mut Document) -> Result<(), Refusal> {
    let (instance, _) =
        selected_instance(doc.scene()).ok_or("select a prefab instance to unlink it")?;
    if doc.entered() == Some(instance) {
        doc.enter(None);
    }
    let patch = edit::unlink(doc.scene(), instance).map_err(|e| e.to_string())?;
    doc.execute(patch).map_err(|e| e.to_string())
}

/// A prefab dropped in the viewport: a new instance standing at `at` (a
/// surface point), inside the instance entered if any.
pub fn place(doc: &mut Document, prefab: &Prefab, at: Vec3) -> Result<EntityId, Refusal> {
    // The point comes from the depth buffer, a hair off the surface: the copy
    // stands on the surface itself.
    let mut at = at;
    if let Some(surface) =
        super::edit_ops::floor_below(doc.scene(), at + Vec3::Y * SURFACE_SNAP, &[])
        && (surface - at.y).abs() <= SURFACE_SNAP
    {
        at.y = surface;
    }
    let parent = doc.entered();
    let parent_world = parent.map_or(Affine3A::IDENTITY, |p| doc.scene().world_transform(p));
    let transform = Transform::from_affine(parent_world.inverse() * Affine3A::from_translation(at));
    let patch =
        edit::place_prefab(doc.scene(), prefab, parent, transform).map_err(|e| e.to_string())?;
    doc.execute(patch).map_err(|e| e.to_string())?;
    doc.scene()
        .selection()
        .first()
        .copied()
        .ok_or_else(|| "the instance was not placed".into())
}
