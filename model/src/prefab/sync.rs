//! Instances and their prefab kept in step. An instance's content is real
//! entities (drawn, picked, exported like any other), each knowing the prefab-
//! local id it came from; this file works out
//! - what an instance should hold from its prefab and its overrides, keeping
//!   the scene ids of what it already holds (`expand`, `plan_sync`);
//! - what an edit inside an instance means: overrides of that copy
//!   (`plan_overrides`), or — in the instance being edited in place — a change
//!   to the prefab that every copy then follows (`plan_push`);
//! - after each step, which instances the step touched ([`follow_up`], run by
//!   the history when a step is committed, never in the middle of a drag).

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

use super::PrefabId;
use super::overrides::{apply, diff};
use crate::command::{Command, CommandError, CommandGroup, Fresh, Patch};
use crate::entity::Entity;
use crate::id::EntityId;
use crate::prefab_link::{Instance, Override, Source};
use crate::prefab_piece::{Prefab, used_materials};
use crate::scene::Scene;

/// How deep instances may sit inside instances' prefabs.
pub const MAX_DEPTH: usize = 8;

/// What an instance holds directly (not what nested instances hold).
#[derive(Debug, Default)]
pub struct Content {
    /// Scene id by prefab-local id.
    pub by_source: HashMap<EntityId, EntityId>,
    /// Entities under the instance that are not from its prefab (added to this
    /// copy, or a second entity claiming a source already taken).
    pub additions: Vec<EntityId>,
    /// Everything it holds directly, in outliner order.
    pub all: Vec<EntityId>,
}

/// Outliner positions, worked out once per plan.
pub(crate) fn positions(scene: &Scene) -> HashMap<EntityId, usize> {
    scene
        .data()
        .order
        .iter()
        .enumerate()
        .map(|(k, id)| (*id, k))
        .collect()
}

fn sorted_children(scene: &Scene, id: EntityId, pos: &HashMap<EntityId, usize>) -> Vec<EntityId> {
    let mut c = scene.child_ids(id).to_vec();
    c.sort_by_key(|c| pos.get(c).copied().unwrap_or(usize::MAX));
    c
}

/// What `instance` holds directly: down its tree, but not into nested
/// instances (their content is theirs).
pub fn content(scene: &Scene, instance: EntityId, pos: &HashMap<EntityId, usize>) -> Content {
    let mut out = Content::default();
    let mut stack: Vec<EntityId> = sorted_children(scene, instance, pos);
    stack.reverse();
    while let Some(id) = stack.pop() {
        let Some(e) = scene.entity(id) else { continue };
        out.all.push(id);
        match e.source {
            Some(s) if s.instance == instance && !out.by_source.contains_key(&s.id) => {
                out.by_source.insert(s.id, id);
            }
            _ => out.additions.push(id),
        }
        if e.instance.is_none() {
            let mut c = sorted_children(scene, id, pos);
            c.reverse();
            stack.extend(c);
        }
    }
    out
}

/// Every entity under `instance` that comes from a prefab (its content and
/// nested instances' content), by scene id.
fn derived(scene: &Scene, instance: EntityId, pos: &HashMap<EntityId, usize>) -> Vec<EntityId> {
    let mut out = Vec::new();
    let c = content(scene, instance, pos);
    for id in c.by_source.values() {
        out.push(*id);
        if scene.entity(*id).is_some_and(|e| e.instance.is_some()) {
            out.extend(derived(scene, *id, pos));
        }
    }
    out
}

fn overrides_of(link: &Instance, source: EntityId) -> Vec<Override> {
    link.overrides
        .iter()
        .filter(|o| o.source == source && !o.is_removal())
        .cloned()
        .collect()
}

/// The prefab's entity with this copy's overrides; the ones with no place.
fn overridden(pe: &Entity, link: &Instance) -> (Entity, Vec<Override>) {
    let mine = overrides_of(link, pe.id);
    if mine.is_empty() {
        return (pe.clone(), Vec::new());
    }
    match apply(pe, &mine) {
        Ok(x) => x,
        Err(_) => (pe.clone(), mine),
    }
}

/// The prefab's entities a copy leaves out: those removed by an override and
/// everything under them.
fn left_out(prefab: &Prefab, link: &Instance) -> HashSet<EntityId> {
    let mut out = HashSet::new();
    for pe in &prefab.entities {
        let removed = link
            .overrides
            .iter()
            .any(|o| o.source == pe.id && o.is_removal());
        if removed || pe.parent.is_some_and(|p| out.contains(&p)) {
            out.insert(pe.id);
        }
    }
    out
}

/// A prefab, from `overlay` (prefabs a plan is changing) or the scene.
fn prefab_of<'a>(
    scene: &'a Scene,
    overlay: &'a BTreeMap<PrefabId, Prefab>,
    id: PrefabId,
) -> Option<&'a Prefab> {
    overlay.get(&id).or_else(|| scene.prefab(id))
}

/// The names of a chain of prefabs, for a message.
fn chain_names(scene: &Scene, chain: &[PrefabId]) -> String {
    chain
        .iter()
        .map(|p| {
            scene
                .prefab(*p)
                .map_or_else(|| p.to_string(), |p| p.name.clone())
        })
        .collect::<Vec<_>>()
        .join(" › ")
}

/// What instance `root` (with link `link`) should hold, appended to `out`
/// parents first: the prefab's entities with the overrides, under the scene
/// ids it already gave them (else fresh ones), nested instances expanded.
#[allow(clippy::too_many_arguments)]
pub(crate) fn expand(
    scene: &Scene,
    overlay: &BTreeMap<PrefabId, Prefab>,
    root: &Entity,
    link: &Instance,
    pos: &HashMap<EntityId, usize>,
    fresh: &mut Fresh,
    chain: &mut Vec<PrefabId>,
    out: &mut Vec<Entity>,
) -> Result<(), String> {
    if chain.contains(&link.prefab) || chain.len() >= MAX_DEPTH {
        chain.push(link.prefab);
        return Err(format!(
            "a prefab may not contain itself: {}",
            chain_names(scene, chain)
        ));
    }
    let Some(prefab) = prefab_of(scene, overlay, link.prefab) else {
        // Unknown prefab: the copy keeps what it holds.
        return Ok(());
    };
    chain.push(link.prefab);
    let existing = if scene.entity(root.id).is_some() {
        content(scene, root.id, pos)
    } else {
        Content::default()
    };
    let skip = left_out(prefab, link);
    let mut ids: HashMap<EntityId, EntityId> = HashMap::new();
    for pe in prefab.entities.iter().filter(|pe| !skip.contains(&pe.id)) {
        let id = existing
            .by_source
            .get(&pe.id)
            .copied()
            .unwrap_or_else(|| fresh.id());
        ids.insert(pe.id, id);
    }
    for pe in prefab.entities.iter().filter(|pe| !skip.contains(&pe.id)) {
        let (mut e, _orphaned) = overridden(pe, link);
        e.id = ids[&pe.id];
        e.parent = Some(
            pe.parent
                .and_then(|p| ids.get(&p).copied())
                .unwrap_or(root.id),
        );
        // Links within the prefab name prefab-local ids: they follow to this
        // copy's (before the source is set: it names a scene id already).
        e.source = None;
        e.map_links(&mut |r| ids.get(&r).copied().unwrap_or(r));
        e.source = Some(Source {
            instance: root.id,
            id: pe.id,
        });
        if let Some(now) = scene.entity(e.id) {
            e.visible = now.visible;
        }
        if !scene.data().layers.iter().any(|l| l.id == e.layer) {
            e.layer = root.layer;
        }
        let nested = e.instance.clone();
        out.push(e);
        if let Some(nested) = nested {
            let me = out.last().cloned().unwrap_or_else(|| root.clone());
            expand(scene, overlay, &me, &nested, pos, fresh, chain, out)?;
        }
    }
    chain.pop();
    Ok(())
}

/// Plans bringing `instances` (scene ids) in line with their prefabs
/// (`overlay` first, then the scene's).
pub fn plan_sync(
    scene: &Scene,
    overlay: &BTreeMap<PrefabId, Prefab>,
    instances: &[EntityId],
    patch: &mut Patch,
    fresh: &mut Fresh,
) -> Result<(), String> {
    let roots: Vec<Entity> = instances
        .iter()
        .filter_map(|id| scene.entity(*id).cloned())
        .collect();
    plan_sync_roots(scene, overlay, &roots, patch, fresh)
}

/// Plans bringing instances in line with their prefabs, each as `roots` has
/// it (its link perhaps about to change in the same patch): changed entities
/// replaced, missing ones added, ones the prefab no longer has removed (what
/// was added under those moves up to the instance), the outliner order
/// rebuilt where the structure changed.
pub fn plan_sync_roots(
    scene: &Scene,
    overlay: &BTreeMap<PrefabId, Prefab>,
    roots: &[Entity],
    patch: &mut Patch,
    fresh: &mut Fresh,
) -> Result<(), String> {
    let pos = positions(scene);
    let mut rank: HashMap<EntityId, usize> = HashMap::new();
    let mut structural = false;
    let mut materials_added = BTreeSet::new();
    for root in roots {
        let root_id = root.id;
        let Some(link) = root.instance.clone() else {
            continue;
        };
        if let Some(p) = prefab_of(scene, overlay, link.prefab) {
            for (m, mat) in &p.materials {
                if scene.material(*m).is_none() && materials_added.insert(*m) {
                    patch.add_material(*m, mat.clone());
                }
            }
        }
        let mut desired = Vec::new();
        expand(
            scene,
            overlay,
            root,
            &link,
            &pos,
            fresh,
            &mut Vec::new(),
            &mut desired,
        )?;
        let desired_ids: HashSet<EntityId> = desired.iter().map(|e| e.id).collect();
        for (k, e) in desired.iter().enumerate() {
            rank.insert(e.id, k);
            match scene.entity(e.id) {
                Some(now) if now == e => {}
                Some(now) => {
                    structural |= now.parent != e.parent;
                    patch.put(e.clone());
                }
                None => {
                    structural = true;
                    patch.put(e.clone());
                }
            }
        }
        if scene.entity(root_id).is_none() {
            continue;
        }
        let gone: HashSet<EntityId> = derived(scene, root_id, &pos)
            .into_iter()
            .filter(|id| !desired_ids.contains(id))
            .collect();
        if gone.is_empty() {
            continue;
        }
        structural = true;
        for id in &gone {
            patch.remove(*id);
        }
        // What was added under an entity that goes moves up to the instance.
        for id in scene.subtree(root_id) {
            if id == root_id || gone.contains(&id) || desired_ids.contains(&id) {
                continue;
            }
            let Some(e) = scene.entity(id) else { continue };
            if e.parent.is_some_and(|p| gone.contains(&p)) {
                let mut moved = patch
                    .planned()
                    .iter()
                    .rev()
                    .find(|(k, _)| *k == id)
                    .and_then(|(_, e)| e.clone())
                    .unwrap_or_else(|| e.clone());
                moved.parent = Some(root_id);
                patch.put(moved);
            }
        }
    }
    if structural {
        patch.set_order(order_after(scene, patch, &rank, &pos));
    }
    Ok(())
}

/// The outliner order once `patch` is applied: every entity after its parent,
/// brothers in the order `rank` gives (an instance's entities in its prefab's
/// order), everything else as it was, new entities last.
fn order_after(
    scene: &Scene,
    patch: &Patch,
    rank: &HashMap<EntityId, usize>,
    pos: &HashMap<EntityId, usize>,
) -> Vec<EntityId> {
    let mut planned: HashMap<EntityId, Option<&Entity>> = HashMap::new();
    let mut new: Vec<EntityId> = Vec::new();
    for (id, e) in patch.planned() {
        if scene.entity(*id).is_none() && !planned.contains_key(id) {
            new.push(*id);
        }
        planned.insert(*id, e.as_ref());
    }
    let old_len = scene.data().order.len();
    let key = |id: &EntityId| -> (usize, usize) {
        match rank.get(id) {
            Some(r) => (0, *r),
            None => (
                1,
                pos.get(id)
                    .copied()
                    .unwrap_or_else(|| old_len + new.iter().position(|n| n == id).unwrap_or(0)),
            ),
        }
    };
    let parent_of = |id: &EntityId| -> Option<EntityId> {
        match planned.get(id) {
            Some(Some(e)) => e.parent,
            Some(None) => None,
            None => scene.entity(*id).and_then(|e| e.parent),
        }
    };
    let alive: Vec<EntityId> = scene
        .data()
        .order
        .iter()
        .chain(new.iter())
        .filter(|id| !matches!(planned.get(*id), Some(None)))
        .copied()
        .collect();
    let mut children: HashMap<Option<EntityId>, Vec<EntityId>> = HashMap::new();
    for id in &alive {
        children.entry(parent_of(id)).or_default().push(*id);
    }
    for list in children.values_mut() {
        list.sort_by_key(key);
    }
    let mut order = Vec::with_capacity(alive.len());
    let mut stack: Vec<EntityId> = children.get(&None).cloned().unwrap_or_default();
    stack.reverse();
    while let Some(id) = stack.pop() {
        order.push(id);
        if let Some(c) = children.get(&Some(id)) {
            stack.extend(c.iter().rev());
        }
    }
    order
}

/// The entity as its prefab would hold it: its prefab-local id, its parent
/// and links by prefab-local ids (`local`: scene id → prefab id), no source.
fn as_in_prefab(
    e: &Entity,
    instance: EntityId,
    local: &HashMap<EntityId, EntityId>,
    id: EntityId,
) -> Entity {
    let mut out = e.clone();
    out.id = id;
    out.parent = e
        .parent
        .filter(|p| *p != instance)
        .and_then(|p| local.get(&p).copied());
    out.source = None;
    out.map_links(&mut |r| local.get(&r).copied().unwrap_or(r));
    out
}

/// Plans the overrides instance `id` keeps after an edit of its content: each
/// field of each entity that differs from the prefab, an entity gone from
/// it as a removal; overrides that lost their place are kept. A second entity
/// claiming a source already held becomes this copy's own. Moving content
/// within the copy is the prefab's structure: refused.
pub fn plan_overrides(
    scene: &Scene,
    id: EntityId,
    pos: &HashMap<EntityId, usize>,
    patch: &mut Patch,
) -> Result<(), CommandError> {
    let Some(root) = scene.entity(id) else {
        return Ok(());
    };
    let Some(link) = &root.instance else {
        return Ok(());
    };
    let Some(prefab) = scene.prefab(link.prefab) else {
        return Ok(());
    };
    let c = content(scene, id, pos);
    let local: HashMap<EntityId, EntityId> = c.by_source.iter().map(|(s, i)| (*i, *s)).collect();
    let mut overrides = Vec::new();
    let mut removed: HashSet<EntityId> = HashSet::new();
    for pe in &prefab.entities {
        if pe.parent.is_some_and(|p| removed.contains(&p)) {
            removed.insert(pe.id);
            continue;
        }
        let Some(sid) = c.by_source.get(&pe.id) else {
            overrides.push(Override::removal(pe.id));
            removed.insert(pe.id);
            continue;
        };
        let Some(now) = scene.entity(*sid) else {
            continue;
        };
        let expected_parent = pe
            .parent
            .and_then(|p| c.by_source.get(&p).copied())
            .unwrap_or(id);
        if now.parent != Some(expected_parent) {
            return Err(CommandError::Invalid(format!(
                "{} is part of the prefab {}: to move it within the prefab, enter {} \
                 (Edit › Prefab › Enter, Ctrl+Enter) and move it there; to make this copy plain \
                 entities, unlink it",
                now.name, prefab.name, root.name
            )));
        }
        let mine = as_in_prefab(now, id, &local, pe.id);
        let (expected, orphaned) = overridden(pe, link);
        let mut expected = expected;
        expected.parent = mine.parent;
        expected.visible = mine.visible;
        if expected == mine {
            // As it was: the overrides it had stand.
            overrides.extend(link.overrides.iter().filter(|o| o.source == pe.id).cloned());
            continue;
        }
        overrides.extend(orphaned);
        overrides.extend(diff(pe, &mine).map_err(CommandError::Invalid)?);
    }
    for a in &c.additions {
        if let Some(e) = scene.entity(*a)
            && e.source.is_some()
        {
            let mut own = e.clone();
            own.source = None;
            patch.put(own);
        }
    }
    if overrides != link.overrides {
        let mut e = root.clone();
        if let Some(l) = &mut e.instance {
            l.overrides = overrides;
        }
        patch.put(e);
    }
    Ok(())
}

/// The prefab `prefab` contains an instance of `of`, at any depth; the chain.
fn contains(scene: &Scene, prefab: &Prefab, of: PrefabId, chain: &mut Vec<PrefabId>) -> bool {
    if chain.len() > MAX_DEPTH {
        return false;
    }
    chain.push(prefab.id);
    for e in &prefab.entities {
        if let Some(l) = &e.instance {
            if l.prefab == of {
                chain.push(of);
                return true;
            }
            if let Some(inner) = scene.prefab(l.prefab)
                && contains(scene, inner, of, chain)
            {
                return true;
            }
        }
    }
    chain.pop();
    false
}

/// The chain of names from `prefab` down to an instance of `of` inside it
/// (`prefab` itself when it is `of`), if there is one: "Room › Doorway".
pub fn chain_to(scene: &Scene, prefab: &Prefab, of: PrefabId) -> Option<String> {
    let mut chain = Vec::new();
    if prefab.id == of || contains(scene, prefab, of, &mut chain) {
        if chain.is_empty() {
            chain = vec![of, of];
        }
        let own_name = scene
            .settings()
            .prefab
            .filter(|p| *p == of)
            .map(|_| scene.settings().map_name.clone());
        let names: Vec<String> = chain
            .iter()
            .map(|p| {
                scene
                    .prefab(*p)
                    .map(|x| x.name.clone())
                    .or_else(|| (*p == prefab.id).then(|| prefab.name.clone()))
                    .or_else(|| (*p == of).then(|| own_name.clone()).flatten())
                    .unwrap_or_else(|| p.to_string())
            })
            .collect();
        return Some(names.join(" › "));
    }
    None
}

/// Plans turning the edit made inside instance `id` — the one being edited in
/// place — into its prefab: each field changed on a held entity goes to the
/// prefab's entity (and leaves this copy's overrides), entities added become
/// the prefab's, entities deleted leave it, moves within it are its
/// structure. Returns the prefab as it becomes; `patch` gives the added
/// entities their sources and the copy its overrides.
pub fn plan_push(
    scene: &Scene,
    id: EntityId,
    pos: &HashMap<EntityId, usize>,
    patch: &mut Patch,
) -> Result<Option<Prefab>, CommandError> {
    let Some(root) = scene.entity(id) else {
        return Ok(None);
    };
    let Some(link) = &root.instance else {
        return Ok(None);
    };
    let Some(prefab) = scene.prefab(link.prefab) else {
        return Err(CommandError::Invalid(format!(
            "{}: its prefab is missing, so there is nothing to change; unlink it to edit it as plain entities",
            root.name
        )));
    };
    let c = content(scene, id, pos);
    let next = prefab.entities.iter().map(|e| e.id.0).max().unwrap_or(0) + 1;
    let mut local: HashMap<EntityId, EntityId> =
        c.by_source.iter().map(|(s, i)| (*i, *s)).collect();
    // What was added gets the prefab's next ids, never one it had.
    let added: Vec<(EntityId, EntityId)> = c
        .additions
        .iter()
        .zip(next..)
        .map(|(a, n)| (*a, EntityId(n)))
        .collect();
    local.extend(added.iter().copied());
    let by_id: HashMap<EntityId, &Entity> = prefab.entities.iter().map(|e| (e.id, e)).collect();
    let mut edited: HashSet<(EntityId, String)> = HashSet::new();
    let mut entities = Vec::new();
    for sid in &c.all {
        let Some(now) = scene.entity(*sid) else {
            continue;
        };
        let pid = local[sid];
        let mine = as_in_prefab(now, id, &local, pid);
        let pe = match by_id.get(&pid) {
            Some(pe) if now.source.map(|s| s.id) == Some(pid) => pe,
            _ => {
                let mut fresh_entity = mine;
                fresh_entity.visible = true;
                entities.push(fresh_entity);
                continue;
            }
        };
        let (mut expected, _orphaned) = overridden(pe, link);
        expected.parent = mine.parent;
        expected.visible = mine.visible;
        let mut after = if expected == mine {
            (*pe).clone()
        } else {
            let edits = diff(&expected, &mine).map_err(CommandError::Invalid)?;
            for o in &edits {
                edited.insert((pid, o.path.clone()));
            }
            apply(pe, &edits).map_err(CommandError::Invalid)?.0
        };
        after.parent = mine.parent;
        entities.push(after);
    }
    // What this copy leaves out stays in the prefab; what was deleted goes.
    let skip = left_out(prefab, link);
    let held: HashSet<EntityId> = entities.iter().map(|e| e.id).collect();
    for pe in &prefab.entities {
        if skip.contains(&pe.id) && !held.contains(&pe.id) {
            entities.push(pe.clone());
        }
    }
    let mut materials = prefab.materials.clone();
    for e in &entities {
        for m in used_materials(e) {
            if !materials.iter().any(|(k, _)| *k == m)
                && let Some(mat) = scene.material(m)
            {
                materials.push((m, mat.clone()));
            }
        }
        if let Some(l) = &e.instance {
            let mut chain = vec![prefab.id];
            let inner = scene.prefab(l.prefab);
            if l.prefab == prefab.id
                || inner.is_some_and(|p| contains(scene, p, prefab.id, &mut chain))
            {
                if l.prefab == prefab.id {
                    chain.push(prefab.id);
                }
                return Err(CommandError::Invalid(format!(
                    "a prefab may not contain itself: {}",
                    chain_names(scene, &chain)
                )));
            }
        }
    }
    let after = Prefab {
        entities,
        materials,
        ..prefab.clone()
    };
    after
        .check()
        .map_err(|e| CommandError::Invalid(format!("{}: {e}", prefab.name)))?;
    for (sid, pid) in added {
        if let Some(e) = scene.entity(sid) {
            let mut e = e.clone();
            e.source = Some(Source {
                instance: id,
                id: pid,
            });
            patch.put(e);
        }
    }
    let kept: Vec<Override> = link
        .overrides
        .iter()
        .filter(|o| !edited.contains(&(o.source, o.path.clone())))
        .filter(|o| held.contains(&o.source) || o.is_removal())
        .cloned()
        .collect();
    if kept != link.overrides {
        let mut e = root.clone();
        if let Some(l) = &mut e.instance {
            l.overrides = kept;
        }
        patch.put(e);
    }
    Ok(Some(after))
}

/// How deep `id` sits (instances inside instances first).
fn depth(scene: &Scene, id: EntityId) -> usize {
    let mut d = 0;
    let mut at = scene.entity(id).and_then(|e| e.parent);
    while let Some(p) = at {
        d += 1;
        if d > scene.len() {
            break;
        }
        at = scene.entity(p).and_then(|e| e.parent);
    }
    d
}

fn run(
    patch: Patch,
    scene: &mut Scene,
    done: &mut Vec<Box<dyn Command>>,
) -> Result<(), CommandError> {
    if patch.is_empty() {
        return Ok(());
    }
    let mut patch = patch;
    patch.apply(scene)?;
    done.push(Box::new(patch));
    Ok(())
}

/// After a step that changed the scene since `since`: the instances it
/// touched take the change as overrides — or, for `entered` (the instance
/// being edited in place), as a change to its prefab that every instance of
/// it follows — and entities that left every instance stop claiming a
/// source. Applies what it plans and returns it as one command (to join the
/// step's undo entry); an edit the prefabs refuse is an error, with nothing
/// of the follow-up left applied.
pub fn follow_up(
    scene: &mut Scene,
    since: u64,
    entered: Option<EntityId>,
) -> Result<Option<Box<dyn Command>>, CommandError> {
    if scene.data().prefabs.is_empty() {
        return Ok(None);
    }
    let changes = scene.changes_since(since);
    if changes.entities.is_empty() && changes.removed.is_empty() {
        return Ok(None);
    }
    let mut touched: BTreeSet<(std::cmp::Reverse<usize>, EntityId)> = BTreeSet::new();
    let mut loose = Patch::new("Follow prefabs");
    for id in &changes.entities {
        let Some(e) = scene.entity(*id) else { continue };
        // Moved out of the instance it names: that one lost it.
        if let Some(s) = e.source
            && scene.instance_of(*id) != Some(s.instance)
            && scene
                .entity(s.instance)
                .is_some_and(|i| i.instance.is_some())
        {
            touched.insert((std::cmp::Reverse(depth(scene, s.instance)), s.instance));
        }
        match scene.instance_of(*id) {
            Some(i) => {
                touched.insert((std::cmp::Reverse(depth(scene, i)), i));
            }
            // Left every instance (ungrouped, moved out, pasted elsewhere).
            None if e.source.is_some() => {
                let mut own = e.clone();
                own.source = None;
                loose.put(own);
            }
            None => {}
        }
    }
    let mut pos = positions(scene);
    if !changes.removed.is_empty() {
        for id in &scene.data().order {
            let e = &scene.data().entities[id];
            let Some(link) = &e.instance else { continue };
            let Some(prefab) = scene.prefab(link.prefab) else {
                continue;
            };
            let c = content(scene, *id, &pos);
            let skip = left_out(prefab, link);
            if prefab
                .entities
                .iter()
                .any(|pe| !skip.contains(&pe.id) && !c.by_source.contains_key(&pe.id))
            {
                touched.insert((std::cmp::Reverse(depth(scene, *id)), *id));
            }
        }
    }
    let mut done: Vec<Box<dyn Command>> = Vec::new();
    let result = (|| -> Result<(), CommandError> {
        run(loose, scene, &mut done)?;
        while let Some(next) = touched.pop_first() {
            let id = next.1;
            let outer = scene.instance_of(id);
            if Some(id) == entered {
                let mut patch = Patch::new("Change the prefab");
                let Some(after) = plan_push(scene, id, &pos, &mut patch)? else {
                    continue;
                };
                let prefab = after.id;
                patch.put_prefab(after);
                run(patch, scene, &mut done)?;
                let mut follow = Patch::new("Instances follow their prefab");
                let mut fresh = Fresh::default();
                plan_sync(
                    scene,
                    &BTreeMap::new(),
                    &scene.instances_of(prefab),
                    &mut follow,
                    &mut fresh,
                )
                .map_err(CommandError::Invalid)?;
                run(follow, scene, &mut done)?;
                // The prefab's change may have reordered the outliner; an
                // instance's overrides never do, so the positions stand
                // through those (a drag of 200 copies measures them once).
                pos = positions(scene);
            } else {
                let mut patch = Patch::new("Overrides");
                plan_overrides(scene, id, &pos, &mut patch)?;
                run(patch, scene, &mut done)?;
            }
            if let Some(o) = outer {
                touched.insert((std::cmp::Reverse(depth(scene, o)), o));
            }
        }
        Ok(())
    })();
    if let Err(e) = result {
        for c in done.iter_mut().rev() {
            c.revert(scene);
        }
        return Err(e);
    }
    Ok(match done.len() {
        0 => None,
        1 => done.pop(),
        _ => Some(Box::new(CommandGroup::new("Follow prefabs", done))),
    })
}

/// The prefab's id for a new one: random, never one the scene has.
pub fn new_prefab_id(scene: &Scene) -> PrefabId {
    use std::hash::{BuildHasher, Hasher};
    loop {
        let mut h = std::collections::hash_map::RandomState::new().build_hasher();
        h.write_usize(scene.len());
        let id = PrefabId(h.finish());
        if scene.prefab(id).is_none() && id.0 != 0 {
            return id;
        }
    }
}
