//! The scene: entities in outliner order, materials, layers, settings and the
//! selection, plus the id counters and the change journal. Reading is public; every
//! change goes through a command (the mutators are crate-private).

use std::collections::{BTreeMap, BTreeSet, HashMap};

use glam::{Affine3A, Vec3};
use serde::{Deserialize, Serialize};

use crate::entity::{Entity, EntityKind, Kind};
use crate::id::{EntityId, IdAllocator, LayerId, MaterialId};
use crate::material::Material;
use crate::math::Aabb;
use crate::prefab_link::PrefabId;
use crate::prefab_piece::Prefab;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
pub enum Environment {
    Dawn,
    #[default]
    Day,
    Dusk,
    Night,
}

impl Environment {
    pub const ALL: [Environment; 4] = [Self::Dawn, Self::Day, Self::Dusk, Self::Night];

    /// The `env_preset` string of the map format.
    pub fn preset_name(self) -> &'static str {
        match self {
            Self::Dawn => "dawn",
            Self::Day => "day",
            Self::Dusk => "dusk",
            Self::Night => "night",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ExportSettings {
    /// Output file, project-relative.
    pub output: String,
    /// Largest texture side after resizing (power of two).
    pub max_texture_size: u32,
    /// Bake lighting into vertex colours.
    pub bake_lighting: bool,
    /// Ambient-occlusion rays per vertex.
    pub ao_rays: u32,
    /// Most vertices per exported mesh chunk.
    pub chunk_vertices: u32,
    /// The PSP runtime's `pebble_render.txt` (`key=value` lines: bias, filter, mips,
    /// …; psp/README.md), deployed beside the map; empty: none.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub runtime_tunables: String,
}

impl Default for ExportSettings {
    fn default() -> Self {
        Self {
            output: "export/map.pbm".into(),
            max_texture_size: 512,
            bake_lighting: true,
            ao_rays: 32,
            chunk_vertices: 384,
            runtime_tunables: String::new(),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SceneSettings {
    pub map_name: String,
    pub environment: Environment,
    pub export: ExportSettings,
    /// Set when the scene is a prefab opened on its own: the prefab's id,
    /// kept when it is saved back to its file.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prefab: Option<PrefabId>,
}

impl Default for SceneSettings {
    fn default() -> Self {
        Self {
            map_name: "Untitled".into(),
            environment: Environment::Day,
            export: ExportSettings::default(),
            prefab: None,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Layer {
    pub id: LayerId,
    pub name: String,
    pub visible: bool,
    pub locked: bool,
}

/// Everything a project holds that undo restores exactly.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SceneData {
    pub entities: BTreeMap<EntityId, Entity>,
    /// Outliner order of all entities (children follow their parent's position).
    pub order: Vec<EntityId>,
    pub materials: BTreeMap<MaterialId, Material>,
    pub layers: Vec<Layer>,
    pub settings: SceneSettings,
    /// The prefabs its instances are copies of, as last known (a project's
    /// shared prefab is also a file in `prefabs/`; a map-local one only here).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub prefabs: BTreeMap<PrefabId, Prefab>,
    /// Editor state, restored by undo but not saved.
    #[serde(skip)]
    pub selection: Vec<EntityId>,
}

impl Default for SceneData {
    fn default() -> Self {
        Self {
            entities: BTreeMap::new(),
            order: Vec::new(),
            materials: BTreeMap::new(),
            layers: vec![Layer {
                id: LayerId(0),
                name: "Default".into(),
                visible: true,
                locked: false,
            }],
            settings: SceneSettings::default(),
            prefabs: BTreeMap::new(),
            selection: Vec::new(),
        }
    }
}

/// What changed since a revision, for consumers that update incrementally.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Changes {
    /// The revision these changes lead up to.
    pub revision: u64,
    /// Entities added or changed (world transform included) that still exist.
    pub entities: Vec<EntityId>,
    /// Entities that no longer exist.
    pub removed: Vec<EntityId>,
    pub materials: Vec<MaterialId>,
    pub hierarchy: bool,
    pub settings: bool,
    pub selection: bool,
    pub prefabs: bool,
}

#[derive(Debug, Clone, Default)]
struct Journal {
    revision: u64,
    entities: HashMap<EntityId, u64>,
    removed: HashMap<EntityId, u64>,
    materials: HashMap<MaterialId, u64>,
    hierarchy: u64,
    settings: u64,
    selection: u64,
    prefabs: u64,
}

#[derive(Debug, Clone, Default)]
pub struct Scene {
    data: SceneData,
    pub(crate) ids: IdAllocator,
    journal: Journal,
    /// parent → children, derived from `data` (kept in step by the mutators) so that
    /// touching a subtree costs its size, not the scene's.
    children_index: HashMap<EntityId, Vec<EntityId>>,
}

impl PartialEq for Scene {
    /// Scenes are equal when their data is; counters and journal are bookkeeping.
    fn eq(&self, other: &Self) -> bool {
        self.data == other.data
    }
}

impl Scene {
    pub fn new() -> Self {
        Self::default()
    }

    /// A scene from loaded data; id counters start past every id in it.
    pub fn from_data(data: SceneData, ids: IdAllocator) -> Self {
        let mut ids = ids;
        ids.reserve_past(
            data.entities.keys().next_back().copied(),
            data.materials.keys().next_back().copied(),
        );
        let mut children_index: HashMap<EntityId, Vec<EntityId>> = HashMap::new();
        for id in &data.order {
            if let Some(p) = data.entities.get(id).and_then(|e| e.parent) {
                children_index.entry(p).or_default().push(*id);
            }
        }
        Self {
            data,
            ids,
            journal: Journal::default(),
            children_index,
        }
    }

    pub fn data(&self) -> &SceneData {
        &self.data
    }

    pub fn ids(&self) -> &IdAllocator {
        &self.ids
    }

    pub fn settings(&self) -> &SceneSettings {
        &self.data.settings
    }

    pub fn selection(&self) -> &[EntityId] {
        &self.data.selection
    }

    pub fn prefab(&self, id: PrefabId) -> Option<&Prefab> {
        self.data.prefabs.get(&id)
    }

    pub fn prefabs(&self) -> impl Iterator<Item = &Prefab> {
        self.data.prefabs.values()
    }

    /// The instance `id` is part of: its nearest ancestor that is a copy of a
    /// prefab (an instance is not part of itself; a nested instance is part of
    /// the one around it).
    pub fn instance_of(&self, id: EntityId) -> Option<EntityId> {
        let mut at = self.entity(id)?.parent;
        let mut steps = 0usize;
        while let Some(p) = at {
            let e = self.entity(p)?;
            if e.instance.is_some() {
                return Some(p);
            }
            at = e.parent;
            steps += 1;
            if steps > self.data.entities.len() {
                return None;
            }
        }
        None
    }

    /// The instances of `prefab` in the scene, in outliner order.
    pub fn instances_of(&self, prefab: PrefabId) -> Vec<EntityId> {
        self.data
            .order
            .iter()
            .filter(|id| {
                self.data.entities[id]
                    .instance
                    .as_ref()
                    .is_some_and(|i| i.prefab == prefab)
            })
            .copied()
            .collect()
    }

    pub fn entity(&self, id: EntityId) -> Option<&Entity> {
        self.data.entities.get(&id)
    }

    pub fn material(&self, id: MaterialId) -> Option<&Material> {
        self.data.materials.get(&id)
    }

    pub fn materials(&self) -> impl Iterator<Item = (MaterialId, &Material)> {
        self.data.materials.iter().map(|(k, v)| (*k, v))
    }

    /// Entities in outliner order.
    pub fn entities(&self) -> impl Iterator<Item = &Entity> {
        self.data
            .order
            .iter()
            .filter_map(|id| self.data.entities.get(id))
    }

    pub fn len(&self) -> usize {
        self.data.entities.len()
    }

    pub fn is_empty(&self) -> bool {
        self.data.entities.is_empty()
    }

    /// Entities of one kind, in outliner order.
    pub fn entities_of(&self, kind: Kind) -> impl Iterator<Item = &Entity> {
        self.entities().filter(move |e| e.kind.kind() == kind)
    }

    /// The entities written to the map (see [`Scene::is_exported`]), in outliner
    /// order.
    pub fn exported_entities(&self) -> impl Iterator<Item = &Entity> {
        self.entities().filter(|e| self.is_exported(e.id))
    }

    /// Every instance of the described kind `kind`, exported or not.
    pub fn entities_described<'a>(
        &'a self,
        kind: &'a str,
    ) -> impl Iterator<Item = (&'a Entity, &'a crate::entity::DefinedEntity)> + 'a {
        self.entities().filter_map(move |e| match &e.kind {
            EntityKind::Defined(d) if d.kind == kind => Some((e, d)),
            _ => None,
        })
    }

    /// The exported instances of the described kind `kind` (built in or the
    /// game's), in outliner order.
    pub fn exported_described<'a>(
        &'a self,
        kind: &'a str,
    ) -> impl Iterator<Item = (&'a Entity, &'a crate::entity::DefinedEntity)> + 'a {
        self.entities_described(kind)
            .filter(|(e, _)| self.is_exported(e.id))
    }

    /// The exported entities of one kind.
    pub fn exported_of(&self, kind: Kind) -> impl Iterator<Item = &Entity> {
        self.exported_entities()
            .filter(move |e| e.kind.kind() == kind)
    }

    /// The meshes an exported triangle-mesh collider names (they collide through
    /// it, not on their own).
    pub fn trimesh_collider_meshes(&self) -> std::collections::HashSet<EntityId> {
        self.exported_entities()
            .filter_map(|e| match e.kind {
                EntityKind::Collider(crate::entity::Collider::TriMesh { mesh }) => Some(mesh),
                _ => None,
            })
            .collect()
    }

    /// A name no material has: `base`, else `base 2`, `base 3`…
    pub fn free_material_name(&self, base: &str) -> String {
        let taken = |n: &str| self.materials().any(|(_, m)| m.name == n);
        if !taken(base) {
            return base.to_string();
        }
        (2..)
            .map(|n| format!("{base} {n}"))
            .find(|n| !taken(n))
            .unwrap_or_else(|| base.to_string())
    }

    /// Counts per kind.
    pub fn counts(&self) -> BTreeMap<Kind, usize> {
        let mut out = BTreeMap::new();
        for e in self.data.entities.values() {
            *out.entry(e.kind.kind()).or_insert(0) += 1;
        }
        out
    }

    /// Direct children in outliner order.
    pub fn children(&self, id: Option<EntityId>) -> Vec<EntityId> {
        self.entities()
            .filter(|e| e.parent == id)
            .map(|e| e.id)
            .collect()
    }

    /// Direct children through the child index: fast, in no promised order.
    pub fn child_ids(&self, id: EntityId) -> &[EntityId] {
        self.children_index.get(&id).map_or(&[], Vec::as_slice)
    }

    /// `id` and all its descendants, parents before children, in outliner order.
    pub fn subtree(&self, id: EntityId) -> Vec<EntityId> {
        let mut set = BTreeSet::from([id]);
        let mut out = Vec::new();
        // Outliner order keeps parents before children, but be robust to any order.
        loop {
            let before = set.len();
            for e in self.data.entities.values() {
                if let Some(p) = e.parent
                    && set.contains(&p)
                {
                    set.insert(e.id);
                }
            }
            if set.len() == before {
                break;
            }
        }
        for oid in &self.data.order {
            if set.contains(oid) {
                out.push(*oid);
            }
        }
        out
    }

    pub fn is_ancestor(&self, ancestor: EntityId, mut of: EntityId) -> bool {
        let mut guard = 0;
        while let Some(p) = self.entity(of).and_then(|e| e.parent) {
            if p == ancestor {
                return true;
            }
            of = p;
            guard += 1;
            if guard > self.data.entities.len() {
                return false;
            }
        }
        false
    }

    /// `world_from_local` of an entity (its transform composed with its parents').
    pub fn world_transform(&self, id: EntityId) -> Affine3A {
        let mut m = Affine3A::IDENTITY;
        let mut cur = self.entity(id);
        let mut guard = 0;
        while let Some(e) = cur {
            m = e.transform.to_affine() * m;
            cur = e.parent.and_then(|p| self.entity(p));
            guard += 1;
            if guard > self.data.entities.len() {
                break;
            }
        }
        m
    }

    /// Local bounds of what an entity shows or occupies.
    pub fn local_aabb(&self, id: EntityId) -> Option<Aabb> {
        let e = self.entity(id)?;
        let half = |s: Vec3| {
            Some(Aabb {
                min: -s * 0.5,
                max: s * 0.5,
            })
        };
        match &e.kind {
            EntityKind::Mesh(m) => m.geometry.aabb(),
            EntityKind::Walkable(g) => g.aabb(),
            EntityKind::Collider(
                crate::entity::Collider::Box { size } | crate::entity::Collider::Ramp { size },
            ) => Some(crate::entity::volume_aabb(*size)),
            EntityKind::Collider(crate::entity::Collider::TriMesh { mesh }) => {
                let m = self.entity(*mesh)?;
                let world = self.world_transform(*mesh);
                let local_from_world = self.world_transform(id).inverse();
                match &m.kind {
                    EntityKind::Mesh(mesh) => mesh
                        .geometry
                        .aabb()
                        .map(|b| b.transformed(&(local_from_world * world))),
                    _ => None,
                }
            }
            EntityKind::Defined(d) => match crate::definitions::builtin::kinds().kind(&d.kind) {
                Some(kind) => Some(described_bounds(kind, d)),
                None => half(Vec3::splat(0.5)),
            },
            EntityKind::Group => None,
            // Markers: a metre's box around their place.
            EntityKind::Light(_) | EntityKind::Emitter(_) | EntityKind::Custom(_) => {
                half(Vec3::splat(0.5))
            }
        }
    }

    /// World bounds of an entity (and, for groups, of its subtree).
    pub fn world_aabb(&self, id: EntityId) -> Option<Aabb> {
        let own = self
            .local_aabb(id)
            .map(|b| b.transformed(&self.world_transform(id)));
        let children = self
            .children(Some(id))
            .into_iter()
            .filter_map(|c| self.world_aabb(c));
        children.fold(own, |acc, b| Some(acc.map_or(b, |a| a.union(b))))
    }

    /// Bounds of everything visible.
    pub fn bounds(&self) -> Option<Aabb> {
        self.entities()
            .filter(|e| e.visible)
            .filter_map(|e| {
                self.local_aabb(e.id)
                    .map(|b| b.transformed(&self.world_transform(e.id)))
            })
            .reduce(Aabb::union)
    }

    /// The entity behind an ID-buffer value (0 = nothing).
    pub fn entity_by_pick_id(&self, pick: u32) -> Option<&Entity> {
        (pick != 0).then(|| self.entity(EntityId(pick))).flatten()
    }

    /// Whether an entity is drawn in the editor: it, its layer and every ancestor
    /// (and theirs) visible.
    pub fn is_drawn(&self, id: EntityId) -> bool {
        self.ancestry_all(id, |e, layer| e.visible && layer.is_none_or(|l| l.visible))
    }

    /// Whether an entity is written to the map: it and every ancestor exported
    /// (hiding, in the editor, is a view setting and changes nothing here).
    pub fn is_exported(&self, id: EntityId) -> bool {
        self.ancestry_all(id, |e, _| e.exported)
    }

    /// Whether an entity can be picked: visible and unlocked, with its layer and
    /// every ancestor visible and unlocked.
    pub fn is_pickable(&self, id: EntityId) -> bool {
        self.ancestry_all(id, |e, layer| {
            e.visible && !e.locked && layer.is_none_or(|l| l.visible && !l.locked)
        })
    }

    /// Whether `ok` holds for the entity and every ancestor, each with its layer.
    fn ancestry_all(&self, id: EntityId, ok: impl Fn(&Entity, Option<&Layer>) -> bool) -> bool {
        let mut cur = self.entity(id);
        while let Some(e) = cur {
            let layer = self.data.layers.iter().find(|x| x.id == e.layer);
            if !ok(e, layer) {
                return false;
            }
            cur = e.parent.and_then(|p| self.entity(p));
        }
        true
    }

    /// Faces using a material, over all meshes: (entity, face index).
    pub fn material_users(&self, material: MaterialId) -> Vec<(EntityId, usize)> {
        let mut out = Vec::new();
        for e in self.entities() {
            if let EntityKind::Mesh(m) = &e.kind {
                for (i, f) in m.geometry.faces.iter().enumerate() {
                    if f.material == material {
                        out.push((e.id, i));
                    }
                }
            }
        }
        out
    }

    /// How many objects and faces use a material (the Materials panel's count and
    /// the warning before an edit that changes them all).
    pub fn material_use(&self, material: MaterialId) -> (usize, usize) {
        let mut objects = 0;
        let mut faces = 0;
        for e in self.entities() {
            if let EntityKind::Mesh(m) = &e.kind {
                let n = m
                    .geometry
                    .faces
                    .iter()
                    .filter(|f| f.material == material)
                    .count();
                if n > 0 {
                    objects += 1;
                    faces += n;
                }
            }
        }
        (objects, faces)
    }

    /// Checks the scene's internal invariants (tests and debug builds): every entity
    /// listed once in the order, parents present, the derived child index current.
    pub fn check_consistency(&self) -> Result<(), String> {
        let d = &self.data;
        if d.order.len() != d.entities.len()
            || d.order.iter().any(|id| !d.entities.contains_key(id))
            || d.order.iter().collect::<BTreeSet<_>>().len() != d.order.len()
        {
            return Err("order and entities disagree".into());
        }
        let mut expected: HashMap<EntityId, BTreeSet<EntityId>> = HashMap::new();
        for e in d.entities.values() {
            if let Some(p) = e.parent {
                if !d.entities.contains_key(&p) {
                    return Err(format!("{} has a missing parent {p}", e.id));
                }
                expected.entry(p).or_default().insert(e.id);
            }
        }
        for (p, children) in &self.children_index {
            let have: BTreeSet<EntityId> = children.iter().copied().collect();
            let want = expected.remove(p).unwrap_or_default();
            if have != want || have.len() != children.len() {
                return Err(format!("child index of {p} is {have:?}, expected {want:?}"));
            }
        }
        if let Some((p, _)) = expected.iter().find(|(_, c)| !c.is_empty()) {
            return Err(format!("child index misses the children of {p}"));
        }
        Ok(())
    }

    pub fn revision(&self) -> u64 {
        self.journal.revision
    }

    /// The revision of the last change to the map's prefabs.
    pub fn prefabs_revision(&self) -> u64 {
        self.journal.prefabs
    }

    /// What changed after `revision` (pass 0 for everything).
    pub fn changes_since(&self, revision: u64) -> Changes {
        let j = &self.journal;
        let mut entities: Vec<EntityId> = j
            .entities
            .iter()
            .filter(|(id, r)| **r > revision && self.data.entities.contains_key(id))
            .map(|(id, _)| *id)
            .collect();
        if revision == 0 {
            entities = self.data.entities.keys().copied().collect();
        }
        entities.sort();
        let mut removed: Vec<EntityId> = j
            .removed
            .iter()
            .filter(|(id, r)| **r > revision && !self.data.entities.contains_key(id))
            .map(|(id, _)| *id)
            .collect();
        removed.sort();
        let mut materials: Vec<MaterialId> = j
            .materials
            .iter()
            .filter(|(_, r)| **r > revision)
            .map(|(id, _)| *id)
            .collect();
        materials.sort();
        Changes {
            revision: j.revision,
            entities,
            removed,
            materials,
            hierarchy: j.hierarchy > revision,
            settings: j.settings > revision,
            selection: j.selection > revision,
            prefabs: j.prefabs > revision,
        }
    }

    // ---- crate-private mutators: every one records itself in the journal ----

    fn bump(&mut self) -> u64 {
        self.journal.revision += 1;
        self.journal.revision
    }

    /// Marks an entity and its descendants (their world transforms depend on it).
    fn touch_subtree(&mut self, id: EntityId) {
        let r = self.bump();
        let mut stack = vec![id];
        let mut visited = 0usize;
        while let Some(e) = stack.pop() {
            self.journal.entities.insert(e, r);
            visited += 1;
            if visited > self.data.entities.len() {
                break; // a cycle would be a bug elsewhere; never loop forever
            }
            if let Some(children) = self.children_index.get(&e) {
                stack.extend(children.iter().copied());
            }
        }
    }

    fn index_add(&mut self, parent: Option<EntityId>, child: EntityId) {
        if let Some(p) = parent {
            self.children_index.entry(p).or_default().push(child);
        }
    }

    fn index_remove(&mut self, parent: Option<EntityId>, child: EntityId) {
        if let Some(list) = parent.and_then(|p| self.children_index.get_mut(&p)) {
            list.retain(|c| *c != child);
        }
    }

    pub(crate) fn entity_mut(&mut self, id: EntityId) -> Option<&mut Entity> {
        if !self.data.entities.contains_key(&id) {
            return None;
        }
        self.touch_subtree(id);
        self.data.entities.get_mut(&id)
    }

    /// Inserts an entity at `index` of the outliner order.
    pub(crate) fn insert_entity(&mut self, entity: Entity, index: usize) {
        let id = entity.id;
        let r = self.bump();
        self.index_add(entity.parent, id);
        self.data.entities.insert(id, entity);
        let at = index.min(self.data.order.len());
        self.data.order.insert(at, id);
        self.journal.entities.insert(id, r);
        self.journal.removed.remove(&id);
        self.journal.hierarchy = r;
    }

    /// Removes one entity (not its children); returns it and its order index.
    pub(crate) fn take_entity(&mut self, id: EntityId) -> Option<(Entity, usize)> {
        let e = self.data.entities.remove(&id)?;
        self.index_remove(e.parent, id);
        let r = self.bump();
        let index = self
            .data
            .order
            .iter()
            .position(|x| *x == id)
            .unwrap_or(self.data.order.len());
        if index < self.data.order.len() {
            self.data.order.remove(index);
        }
        self.journal.entities.remove(&id);
        self.journal.removed.insert(id, r);
        self.journal.hierarchy = r;
        Some((e, index))
    }

    pub(crate) fn order_index(&self, id: EntityId) -> Option<usize> {
        self.data.order.iter().position(|x| *x == id)
    }

    pub(crate) fn set_parent(&mut self, id: EntityId, parent: Option<EntityId>) {
        let old = self.entity(id).and_then(|e| e.parent);
        if let Some(e) = self.entity_mut(id) {
            e.parent = parent;
            self.index_remove(old, id);
            self.index_add(parent, id);
        }
        let r = self.bump();
        self.journal.hierarchy = r;
    }

    /// Puts `prefab` in place of the one with its id (`None`: removes it);
    /// returns what was there.
    pub(crate) fn put_prefab(&mut self, id: PrefabId, prefab: Option<Prefab>) -> Option<Prefab> {
        let r = self.bump();
        self.journal.prefabs = r;
        match prefab {
            Some(p) => self.data.prefabs.insert(id, p),
            None => self.data.prefabs.remove(&id),
        }
    }

    /// Replaces an entity whole (its parent may change; the child index
    /// follows); returns what was there.
    pub(crate) fn put_entity(&mut self, entity: Entity) -> Option<Entity> {
        let id = entity.id;
        let old_parent = self.entity(id)?.parent;
        let new_parent = entity.parent;
        let slot = self.entity_mut(id)?;
        let before = std::mem::replace(slot, entity);
        if old_parent != new_parent {
            self.index_remove(old_parent, id);
            self.index_add(new_parent, id);
            let r = self.bump();
            self.journal.hierarchy = r;
        }
        Some(before)
    }

    /// Sets the outliner order to `order`, which lists the same entities.
    pub(crate) fn set_order(&mut self, order: Vec<EntityId>) {
        let r = self.bump();
        self.journal.hierarchy = r;
        self.data.order = order;
        self.children_index.clear();
        for id in &self.data.order {
            if let Some(p) = self.data.entities.get(id).and_then(|e| e.parent) {
                self.children_index.entry(p).or_default().push(*id);
            }
        }
    }

    pub(crate) fn insert_material(&mut self, id: MaterialId, material: Material) {
        let r = self.bump();
        self.data.materials.insert(id, material);
        self.journal.materials.insert(id, r);
    }

    pub(crate) fn take_material(&mut self, id: MaterialId) -> Option<Material> {
        let r = self.bump();
        self.journal.materials.insert(id, r);
        self.data.materials.remove(&id)
    }

    pub(crate) fn material_mut(&mut self, id: MaterialId) -> Option<&mut Material> {
        let r = self.bump();
        self.journal.materials.insert(id, r);
        self.data.materials.get_mut(&id)
    }

    pub(crate) fn settings_mut(&mut self) -> &mut SceneSettings {
        let r = self.bump();
        self.journal.settings = r;
        &mut self.data.settings
    }

    pub(crate) fn layers_mut(&mut self) -> &mut Vec<Layer> {
        let r = self.bump();
        self.journal.settings = r;
        &mut self.data.layers
    }

    /// Selects `ids` (those that exist, each once, in order). Selecting is not an
    /// edit: no command, no undo step, the project stays as saved; undo and redo
    /// give back the selection that went with each step.
    /// Shows or hides entities: a view setting like the selection, saved with the
    /// project but never an undo step (and no edit keeps or restores it).
    /// Returns how many changed.
    pub fn set_visible(&mut self, ids: &[EntityId], visible: bool) -> usize {
        let mut changed = 0;
        for id in ids {
            if self.entity(*id).is_some_and(|e| e.visible != visible)
                && let Some(e) = self.entity_mut(*id)
            {
                e.visible = visible;
                changed += 1;
            }
        }
        changed
    }

    pub fn select(&mut self, ids: Vec<EntityId>) {
        let mut seen = Vec::with_capacity(ids.len());
        for id in ids {
            if self.entity(id).is_some() && !seen.contains(&id) {
                seen.push(id);
            }
        }
        if seen != self.data.selection {
            self.set_selection(seen);
        }
    }

    /// Puts back a selection exactly as it was (undo, redo), unless it is so.
    pub(crate) fn restore_selection(&mut self, selection: &[EntityId]) {
        if self.data.selection != selection {
            self.set_selection(selection.to_vec());
        }
    }

    pub(crate) fn set_selection(&mut self, selection: Vec<EntityId>) {
        let r = self.bump();
        self.journal.selection = r;
        self.data.selection = selection;
    }
}

/// The local bounds of an instance of a described kind: its shape (a box of its
/// size field's value, a sphere, a figure, a marker) and its local points (a path
/// padded by the kind's radius, a box's corners).
pub fn described_bounds(
    kind: &crate::definitions::KindDef,
    d: &crate::entity::DefinedEntity,
) -> Aabb {
    use crate::definitions::{Display, Shape};
    let mut b = match kind.shape_of(d) {
        Shape::Box(size) => crate::entity::volume_aabb(Vec3::from(size)),
        Shape::Sphere(r) => Aabb {
            min: Vec3::splat(-r),
            max: Vec3::splat(r),
        },
        Shape::Point => Aabb {
            min: Vec3::splat(-0.25),
            max: Vec3::splat(0.25),
        },
        Shape::Figure([r, h, eye]) => Aabb {
            min: Vec3::new(-r, -eye, -r),
            max: Vec3::new(r, h - eye, r),
        },
    };
    let pad = kind
        .fields
        .iter()
        .find(|f| f.display == Display::Radius)
        .and_then(|f| d.value(kind, &f.name)?.as_f32())
        .unwrap_or(0.0);
    for f in kind.fields.iter().filter(|f| f.local) {
        let Some(v) = d.value(kind, &f.name) else {
            continue;
        };
        let pad = if f.display == Display::Path { pad } else { 0.0 };
        for p in v.points().into_iter().filter(|p| p.is_finite()) {
            b = b.union(Aabb {
                min: p - Vec3::splat(pad),
                max: p + Vec3::splat(pad),
            });
        }
    }
    b
}
