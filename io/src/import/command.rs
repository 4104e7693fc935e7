//! The one undoable command an import becomes: add its materials, then its entities
//! (faces refer to the import's own material numbers, mapped to real ids on the first
//! apply), then, for a new project, its scene settings.

use std::any::Any;

use pebble_model::command::{AddEntities, AddMaterial, SetSettings, Steps};
use pebble_model::entity::EntityKind;
use pebble_model::mesh::MeshData;
use pebble_model::scene::SceneSettings;
use pebble_model::{Command, CommandError, Entity, Material, Scene};

#[derive(Debug)]
pub struct ImportCommand {
    name: String,
    materials: Vec<Material>,
    /// Faces use `MaterialId(k)` for the import's k-th material (0-based).
    entities: Vec<Entity>,
    settings: Option<SceneSettings>,
    steps: Steps,
}

impl ImportCommand {
    pub fn new(
        name: impl Into<String>,
        materials: Vec<Material>,
        entities: Vec<Entity>,
        settings: Option<SceneSettings>,
    ) -> Self {
        Self {
            name: name.into(),
            materials,
            entities,
            settings,
            steps: Steps::default(),
        }
    }

    /// Drops the scene settings (when importing into an existing project).
    pub fn without_settings(mut self) -> Self {
        self.settings = None;
        self
    }

    pub fn settings(&self) -> Option<&SceneSettings> {
        self.settings.as_ref()
    }

    /// The entities to add (empty once the command has been applied).
    pub fn entities(&self) -> &[Entity] {
        &self.entities
    }

    pub fn materials(&self) -> &[Material] {
        &self.materials
    }

    /// Gives each entity without a parent in the import the transform `place`
    /// makes of its own (scaling, turning and moving the whole import), before the
    /// command is applied.
    pub fn place_roots(
        &mut self,
        place: impl Fn(pebble_model::Transform) -> pebble_model::Transform,
    ) {
        for e in &mut self.entities {
            if e.parent.is_none() {
                e.transform = place(e.transform);
            }
        }
    }

    /// Each entity's world transform within the import (parents applied).
    fn world(&self, e: &Entity) -> pebble_model::glam::Affine3A {
        let mut m = e.transform.to_affine();
        let mut parent = e.parent;
        // Bounded: a cycle in a malformed import cannot loop forever.
        for _ in 0..self.entities.len() {
            let Some(p) = parent.and_then(|id| self.entities.iter().find(|o| o.id == id)) else {
                break;
            };
            m = p.transform.to_affine() * m;
            parent = p.parent;
        }
        m
    }

    /// Adds what a level needs and the project lacks, as a level file brings
    /// none of it (call it once placed, before applying): a player start where
    /// neither the project nor the import has one ([`crate::start`], or a node
    /// named like one), and a sun and a sky light where neither has a light (an
    /// unlit level bakes black). A prop imported into a lit level with a start
    /// gets neither. Returns what was added and why, to be said.
    pub fn add_what_the_project_lacks(&mut self, scene: &Scene) -> Vec<String> {
        use pebble_model::Kind;
        use pebble_model::definitions::FieldValue;
        use pebble_model::definitions::builtin::instance;
        use pebble_model::entity::Light;
        use pebble_model::glam::Vec3;
        let mut said = Vec::new();
        let has = |kind: Kind, entities: &[Entity]| {
            scene.entities_of(kind).next().is_some()
                || entities.iter().any(|e| e.kind.kind() == kind)
        };
        let is_spawn =
            |e: &Entity| matches!(&e.kind, EntityKind::Defined(d) if d.kind == "PlayerSpawn");
        let needs_start = scene.entities_described("PlayerSpawn").next().is_none()
            && !self.entities.iter().any(is_spawn);
        // A map whose colours are final (a `.pbm`'s) bakes no light.
        let bakes = self
            .settings
            .as_ref()
            .map_or(scene.settings().export.bake_lighting, |s| {
                s.export.bake_lighting
            });
        let meshes = self.entities.iter().any(|e| e.kind.kind() == Kind::Mesh);
        let needs_light = bakes && meshes && !has(Kind::Light, &self.entities);
        if !needs_start && !needs_light {
            return said;
        }
        let triangles = self.world_triangles();
        let named = self.entities.iter().find(|e| named_like_a_start(&e.name));
        let start = match named {
            Some(e) => {
                let world = self.world(e);
                let feet = Vec3::from(world.translation);
                let forward = world.transform_vector3(Vec3::NEG_Z);
                let eye = feet + Vec3::Y * crate::start::EYE_HEIGHT;
                Some(crate::start::Start {
                    eye,
                    yaw: if forward.x.abs() + forward.z.abs() > 1e-6 {
                        crate::start::yaw_toward(Vec3::ZERO, forward)
                    } else {
                        0.0
                    },
                    why: format!("at the file's node '{}', named as a start", e.name),
                    roofed: crate::start::roofed(&triangles, eye),
                })
            }
            None => crate::start::choose(&triangles),
        };
        let indoors = start.as_ref().is_some_and(|s| s.roofed);
        if needs_start && let Some(start) = start {
            let at = start.eye;
            said.push(format!(
                "player start added at ({:.1}, {:.1}, {:.1}): {} (move it, or add your own)",
                at.x, at.y, at.z, start.why
            ));
            self.entities.push(
                Entity::new(
                    "Player spawn",
                    EntityKind::Defined(instance(
                        "PlayerSpawn",
                        [("yaw", FieldValue::Float(start.yaw.to_degrees()))],
                    )),
                )
                .with_transform(pebble_model::Transform::from_translation(at)),
            );
        }
        if needs_light {
            // Indoors (a roof over the start) the sun cannot reach through the
            // walls: it shines unshadowed, and the sky light is brighter.
            let mut sun = Light::default_sun();
            let mut sky = Light::default_sky();
            if indoors {
                if let Light::Sun { shadows, .. } = &mut sun {
                    *shadows = false;
                }
                if let Light::Hemisphere {
                    sky: s, ground: g, ..
                } = &mut sky
                {
                    *s = s.map(|c| (c * 1.6).min(1.0));
                    *g = g.map(|c| (c * 1.8).min(1.0));
                }
            }
            self.entities
                .push(Entity::new("Sun", EntityKind::Light(sun)));
            self.entities
                .push(Entity::new("Sky light", EntityKind::Light(sky)));
            said.push(if indoors {
                "no light in the file or the project: a Sun and a Sky light were added so that the level reads when baked; the level is indoors, so the sun casts no shadows and the sky light is brighter (delete them if it brings its own)".into()
            } else {
                "no light in the file or the project: a Sun and a Sky light were added so that the level reads when baked (delete them if it brings its own)".into()
            });
        }
        said
    }

    /// The import's mesh triangles in world space.
    fn world_triangles(&self) -> Vec<[pebble_model::glam::Vec3; 3]> {
        self.entities
            .iter()
            .filter_map(|e| match &e.kind {
                EntityKind::Mesh(m) => Some((self.world(e), &m.geometry)),
                _ => None,
            })
            .flat_map(|(world, g)| {
                g.faces.iter().filter_map(move |f| {
                    let p = f.indices.map(|i| g.positions.get(i as usize).copied());
                    Some([p[0]?, p[1]?, p[2]?].map(|v| world.transform_point3(v)))
                })
            })
            .collect()
    }

    fn plan(&mut self, scene: &mut Scene) -> Result<(), CommandError> {
        // Check the references before anything changes, so a refused import keeps
        // its entities for another try.
        let count = self.materials.len();
        let faces = self
            .entities
            .iter()
            .filter_map(|e| geometry(&e.kind))
            .flat_map(|g| &g.faces);
        if let Some(f) = faces.into_iter().find(|f| f.material.0 as usize >= count) {
            return Err(CommandError::Invalid(format!(
                "import refers to material {} of {count}",
                f.material.0
            )));
        }
        let mut ids = Vec::with_capacity(count);
        for m in &self.materials {
            let mut add = AddMaterial::new(m.clone());
            add.apply(scene)?;
            ids.push(
                add.created()
                    .ok_or_else(|| CommandError::Invalid("material not created".into()))?,
            );
            self.steps.push_applied(Box::new(add));
        }
        // The AddEntities step keeps them for redo; no second copy is needed.
        let mut entities = std::mem::take(&mut self.entities);
        for e in &mut entities {
            if let Some(g) = geometry_mut(&mut e.kind) {
                for f in &mut g.faces {
                    f.material = ids[f.material.0 as usize];
                }
            }
        }
        self.steps
            .push(Box::new(AddEntities::new(self.name.clone(), entities)));
        if let Some(s) = &self.settings {
            self.steps.push(Box::new(SetSettings::new(s.clone())));
        }
        Ok(())
    }
}

/// Whether a node's name says it is where the player starts: `spawn`,
/// `PlayerStart`, `player_start`, `Player`, or Godot's `Marker3D`.
fn named_like_a_start(name: &str) -> bool {
    let n = name.to_ascii_lowercase();
    n.contains("spawn")
        || n.contains("playerstart")
        || n.contains("player_start")
        || n.contains("player start")
        || n == "player"
        || n.starts_with("marker3d")
}

fn geometry(kind: &EntityKind) -> Option<&MeshData> {
    match kind {
        EntityKind::Mesh(m) => Some(&m.geometry),
        EntityKind::Walkable(g) => Some(g),
        _ => None,
    }
}

fn geometry_mut(kind: &mut EntityKind) -> Option<&mut MeshData> {
    match kind {
        EntityKind::Mesh(m) => Some(&mut m.geometry),
        EntityKind::Walkable(g) => Some(g),
        _ => None,
    }
}

impl Command for ImportCommand {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn apply(&mut self, scene: &mut Scene) -> Result<(), CommandError> {
        if !self.steps.is_planned()
            && let Err(e) = self.plan(scene)
        {
            self.steps.abandon(scene);
            return Err(e);
        }
        self.steps.apply(scene)
    }

    fn revert(&mut self, scene: &mut Scene) {
        self.steps.revert(scene);
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}
