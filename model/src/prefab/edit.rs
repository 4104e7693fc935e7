//! The edits a designer makes with prefabs, each planned as one [`Patch`] (one
//! undo step) from the scene as it is: make a prefab of a selection (which
//! becomes its first instance), place another instance, unlink one (plain
//! entities again), apply a copy's overrides to the prefab (every copy
//! follows) or revert them (this copy follows the prefab again).

use std::collections::{BTreeMap, HashSet};

use glam::{Affine3A, Vec3};

use super::PrefabId;
use super::gather::is_under;
use super::sync::{self, content, plan_sync, plan_sync_roots, positions};
use crate::command::{CommandError, Fresh, Patch};
use crate::entity::{Entity, EntityKind};
use crate::id::EntityId;
use crate::math::Transform;
use crate::prefab_link::{Instance, Override, Source};
use crate::prefab_piece::Prefab;
use crate::scene::Scene;

fn invalid(m: impl Into<String>) -> CommandError {
    CommandError::Invalid(m.into())
}

/// Where a prefab made of `roots` has its origin: under the middle of their
/// bounds, at the bottom (so that a copy stands on what it is put down on);
/// the middle of their places when they have no size (lights, markers).
pub fn origin_of(scene: &Scene, roots: &[EntityId]) -> Vec3 {
    let bounds = roots
        .iter()
        .filter_map(|r| scene.world_aabb(*r))
        .reduce(|a, b| a.union(b));
    match bounds {
        Some(b) => {
            let c = (b.min + b.max) * 0.5;
            Vec3::new(c.x, b.min.y, c.z)
        }
        None => {
            let n = roots.len().max(1) as f32;
            roots
                .iter()
                .map(|r| scene.world_transform(*r).translation.into())
                .fold(Vec3::ZERO, |a: Vec3, b: Vec3| a + b)
                / n
        }
    }
}

/// Makes the prefab `name` (with id `id`) of `roots` and what is under them;
/// they become its first instance, a group at the prefab's origin holding
/// them, selected. Entities inside another instance are refused unless it is
/// `entered` (the one being edited in place: the new instance nests in it).
pub fn make(
    scene: &Scene,
    roots: &[EntityId],
    name: &str,
    id: PrefabId,
    local: bool,
    entered: Option<EntityId>,
) -> Result<Patch, CommandError> {
    let name = name.trim();
    if name.is_empty() {
        return Err(invalid("a prefab needs a name"));
    }
    if scene.prefabs().any(|p| p.name == name) {
        return Err(invalid(format!(
            "a prefab called {name} exists already: choose another name"
        )));
    }
    let mut top: Vec<EntityId> = Vec::new();
    for r in roots {
        let e = scene.entity(*r).ok_or(CommandError::MissingEntity(*r))?;
        if roots.iter().any(|o| o != r && is_under(scene, *r, *o)) {
            continue;
        }
        if let Some(i) = scene.instance_of(*r)
            && Some(i) != entered
        {
            let owner = scene.entity(i).map_or(String::new(), |e| e.name.clone());
            return Err(invalid(format!(
                "{} is part of the instance {owner}: make the prefab from {owner} itself, \
                 enter {owner} to nest a prefab in it, or unlink {owner} first",
                e.name
            )));
        }
        if !top.contains(r) {
            top.push(*r);
        }
    }
    if top.is_empty() {
        return Err(invalid("select what the prefab is made of"));
    }
    let pos = positions(scene);
    top.sort_by_key(|r| pos.get(r).copied().unwrap_or(usize::MAX));
    let origin = origin_of(scene, &top);
    let (mut prefab, mapped) =
        Prefab::from_entities_mapped(id, name, scene, &top, origin).map_err(invalid)?;
    prefab.local = local;
    let first = scene
        .entity(top[0])
        .ok_or(CommandError::MissingEntity(top[0]))?;
    let parent = first.parent;
    let parent_world = parent.map_or(Affine3A::IDENTITY, |p| scene.world_transform(p));
    let mut fresh = Fresh::default();
    let mut root = Entity::new(name, EntityKind::Group);
    root.id = fresh.id();
    root.parent = parent;
    root.layer = first.layer;
    root.transform =
        Transform::from_affine(parent_world.inverse() * Affine3A::from_translation(origin));
    root.instance = Some(Instance {
        prefab: id,
        overrides: Vec::new(),
    });
    let mut patch = Patch::new(format!("Make prefab {name}"));
    patch.put(root.clone());
    let by_pid: BTreeMap<EntityId, &Entity> = prefab.entities.iter().map(|e| (e.id, e)).collect();
    for (sid, pid) in &mapped {
        let Some(now) = scene.entity(*sid) else {
            continue;
        };
        let mut e = now.clone();
        e.source = Some(Source {
            instance: root.id,
            id: *pid,
        });
        if top.contains(sid) {
            e.parent = Some(root.id);
            if let Some(pe) = by_pid.get(pid) {
                e.transform = pe.transform;
            }
        }
        patch.put(e);
    }
    // The instance takes the place of the first of them in the outliner.
    let mut order = scene.data().order.clone();
    let at = order
        .iter()
        .position(|x| *x == top[0])
        .unwrap_or(order.len());
    order.insert(at, root.id);
    patch.set_order(order);
    patch.put_prefab(prefab);
    patch.select(vec![root.id]);
    Ok(patch)
}

/// Places a new instance of the map's prefab `prefab` under `parent` at
/// `transform` (in the parent's space), named after the prefab and numbered,
/// selected.
pub fn place(
    scene: &Scene,
    prefab: PrefabId,
    parent: Option<EntityId>,
    transform: Transform,
) -> Result<Patch, CommandError> {
    let p = scene
        .prefab(prefab)
        .ok_or_else(|| invalid(format!("{prefab} is not in this map")))?;
    place_prefab(scene, p, parent, transform)
}

/// As [`place`], for a prefab the map may not hold yet (one of the project's
/// files): it comes into the map with its first instance.
pub fn place_prefab(
    scene: &Scene,
    p: &Prefab,
    parent: Option<EntityId>,
    transform: Transform,
) -> Result<Patch, CommandError> {
    // The map's own copy of it, where it has one, is what its instances hold.
    let p = scene.prefab(p.id).unwrap_or(p);
    let prefab = p.id;
    p.check().map_err(|e| invalid(format!("{}: {e}", p.name)))?;
    // In a prefab opened on its own, nothing that holds that prefab.
    if let Some(own) = scene.settings().prefab
        && let Some(chain) = sync::chain_to(scene, p, own)
    {
        return Err(invalid(format!("a prefab may not contain itself: {chain}")));
    }
    if let Some(pa) = parent
        && scene.entity(pa).is_none()
    {
        return Err(CommandError::MissingEntity(pa));
    }
    let name = crate::naming::next_free(&p.name, false, |n| scene.entities().any(|e| e.name == n));
    let mut fresh = Fresh::default();
    let mut root = Entity::new(name.clone(), EntityKind::Group);
    root.id = fresh.id();
    root.parent = parent;
    root.transform = transform;
    root.instance = Some(Instance {
        prefab,
        overrides: Vec::new(),
    });
    let mut patch = Patch::new(format!("Place {name}"));
    patch.put(root.clone());
    plan_sync_roots(
        scene,
        &BTreeMap::new(),
        &[root.clone()],
        &mut patch,
        &mut fresh,
    )
    .map_err(invalid)?;
    patch.select(vec![root.id]);
    Ok(patch)
}

/// Makes `instance` a plain group of plain entities (nested instances stay
/// instances of their own prefabs).
pub fn unlink(scene: &Scene, instance: EntityId) -> Result<Patch, CommandError> {
    let root = scene
        .entity(instance)
        .ok_or(CommandError::MissingEntity(instance))?;
    if root.instance.is_none() {
        return Err(invalid(format!(
            "{} is not an instance of a prefab",
            root.name
        )));
    }
    let mut patch = Patch::new(format!("Unlink {}", root.name));
    let mut plain = root.clone();
    plain.instance = None;
    patch.put(plain);
    let c = content(scene, instance, &positions(scene));
    for id in c.by_source.values() {
        if let Some(e) = scene.entity(*id) {
            let mut e = e.clone();
            e.source = None;
            patch.put(e);
        }
    }
    Ok(patch)
}

fn link_of(
    scene: &Scene,
    instance: EntityId,
) -> Result<(&Entity, &Instance, &Prefab), CommandError> {
    let root = scene
        .entity(instance)
        .ok_or(CommandError::MissingEntity(instance))?;
    let link = root
        .instance
        .as_ref()
        .ok_or_else(|| invalid(format!("{} is not an instance of a prefab", root.name)))?;
    let prefab = scene.prefab(link.prefab).ok_or_else(|| {
        invalid(format!(
            "{}: its prefab is missing (its content is as last known); unlink it to keep it as plain entities",
            root.name
        ))
    })?;
    Ok((root, link, prefab))
}

/// Which of a copy's overrides an edit addresses.
#[derive(Debug, Clone, PartialEq)]
pub enum Which {
    All,
    /// Every override of one of the prefab's entities.
    Entity(EntityId),
    /// One field of one entity (`path` as the override has it).
    Field(EntityId, String),
}

impl Which {
    fn takes(&self, o: &Override) -> bool {
        match self {
            Self::All => true,
            Self::Entity(s) => o.source == *s,
            Self::Field(s, p) => o.source == *s && o.path == *p,
        }
    }
}

/// Gives `which` of the overrides of `instance` to its prefab: the prefab's
/// entities take those values (a removal removes the entity from the
/// prefab), the copy no longer overrides them, and every instance follows —
/// one step.
pub fn apply_to_prefab(
    scene: &Scene,
    instance: EntityId,
    which: &Which,
) -> Result<Patch, CommandError> {
    let (root, link, prefab) = link_of(scene, instance)?;
    let taken: Vec<Override> = link
        .overrides
        .iter()
        .filter(|o| which.takes(o))
        .cloned()
        .collect();
    if taken.is_empty() {
        return Err(invalid(format!("{} overrides nothing to apply", root.name)));
    }
    let mut after = prefab.clone();
    let removed: HashSet<EntityId> = taken
        .iter()
        .filter(|o| o.is_removal())
        .map(|o| o.source)
        .collect();
    let mut gone: HashSet<EntityId> = HashSet::new();
    after.entities.retain(|pe| {
        let out = removed.contains(&pe.id) || pe.parent.is_some_and(|p| gone.contains(&p));
        if out {
            gone.insert(pe.id);
        }
        !out
    });
    for pe in &mut after.entities {
        let mine: Vec<Override> = taken
            .iter()
            .filter(|o| o.source == pe.id && !o.is_removal())
            .cloned()
            .collect();
        if mine.is_empty() {
            continue;
        }
        let (changed, orphaned) = super::apply(pe, &mine).map_err(invalid)?;
        if !orphaned.is_empty() {
            return Err(invalid(format!(
                "{}: {} of its overrides no longer fit the prefab's {}; revert them instead",
                root.name,
                orphaned.len(),
                pe.name
            )));
        }
        *pe = changed;
    }
    after.check().map_err(invalid)?;
    let mut own = root.clone();
    if let Some(l) = &mut own.instance {
        l.overrides
            .retain(|o| !which.takes(o) && !gone.contains(&o.source));
    }
    let mut patch = Patch::new(format!("Apply {} to prefab {}", root.name, prefab.name));
    patch.put(own.clone());
    let overlay = BTreeMap::from([(after.id, after.clone())]);
    let mut roots: Vec<Entity> = scene
        .instances_of(prefab.id)
        .into_iter()
        .filter(|i| *i != instance)
        .filter_map(|i| scene.entity(i).cloned())
        .collect();
    roots.push(own);
    let mut fresh = Fresh::default();
    plan_sync_roots(scene, &overlay, &roots, &mut patch, &mut fresh).map_err(invalid)?;
    patch.put_prefab(after);
    Ok(patch)
}

/// Takes back `which` of the overrides of `instance`: the copy follows its
/// prefab there again (an entity it left out comes back).
pub fn revert(scene: &Scene, instance: EntityId, which: &Which) -> Result<Patch, CommandError> {
    let (root, link, _) = link_of(scene, instance)?;
    if !link.overrides.iter().any(|o| which.takes(o)) {
        return Err(invalid(format!(
            "{} overrides nothing to revert",
            root.name
        )));
    }
    let mut own = root.clone();
    if let Some(l) = &mut own.instance {
        l.overrides.retain(|o| !which.takes(o));
    }
    let mut patch = Patch::new(format!("Revert {}", root.name));
    patch.put(own.clone());
    let mut fresh = Fresh::default();
    plan_sync_roots(scene, &BTreeMap::new(), &[own], &mut patch, &mut fresh).map_err(invalid)?;
    Ok(patch)
}

/// Brings every instance of `prefab` in line with it (after its file
/// changed on disk, say).
pub fn follow(scene: &Scene, prefab: &Prefab) -> Result<Patch, CommandError> {
    let mut patch = Patch::new(format!("{} changed", prefab.name));
    let overlay = BTreeMap::from([(prefab.id, prefab.clone())]);
    let mut fresh = Fresh::default();
    plan_sync(
        scene,
        &overlay,
        &scene.instances_of(prefab.id),
        &mut patch,
        &mut fresh,
    )
    .map_err(invalid)?;
    patch.put_prefab(prefab.clone());
    Ok(patch)
}

/// The scene with every instance made plain entities, each entity inside
/// one named with it ("Doorway 2/Torch"): what export writes.
pub fn flattened(scene: &Scene) -> Scene {
    let mut data = scene.data().clone();
    data.prefabs.clear();
    for id in &scene.data().order {
        let mut owners = Vec::new();
        let mut at = scene.instance_of(*id);
        while let Some(i) = at {
            owners.push(scene.entity(i).map_or("", |e| e.name.as_str()));
            at = scene.instance_of(i);
        }
        if let Some(e) = data.entities.get_mut(id)
            && !owners.is_empty()
        {
            owners.reverse();
            e.name = format!("{}/{}", owners.join("/"), e.name);
        }
    }
    for e in data.entities.values_mut() {
        e.instance = None;
        e.source = None;
    }
    Scene::from_data(data, scene.ids().clone())
}

pub use sync::new_prefab_id;
