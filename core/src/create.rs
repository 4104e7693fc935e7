//! The Create menu: every kind of entity, built with sensible sizes where it is
//! put ([`entity`]) or with the footprint and height drawn in the viewport
//! ([`drawn_entity`]), added by one undoable command ([`creation`]) in the
//! project's default material, and selected.
//! Everything with a size stands on its origin (the middle of its base), meshes
//! and volumes alike.

use std::f32::consts::{FRAC_PI_2, PI};

use pebble_model::command::{AddEntities, Paste};
use pebble_model::definitions::FieldValue;
use pebble_model::entity::{
    Collider, CustomEntity, DefinedEntity, EntityKind, GeometrySource, Light, MeshEntity,
};
use pebble_model::glam::{Quat, Vec2, Vec3};
use pebble_model::{Command, Entity, Material, MaterialId, Primitive, Scene, Transform};

/// Everything the Create menu makes, one variant each (the menu, the action table
/// and the tests all use these; nothing dispatches on a label).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CreateItem {
    Box,
    Plane,
    Ramp,
    Stairs,
    Cylinder,
    Arch,
    OmniLight,
    Sun,
    Sky,
    Emitter,
    BoxCollider,
    RampCollider,
    Custom,
    Group,
    /// One of Pebble's built-in kinds described as data, by name
    /// ([`pebble_model::definitions::builtin`]): [`groups`] puts each under its
    /// first tag.
    Builtin(&'static str),
    /// One of the project's own kinds (`entities.ron`): the Create menu lists them
    /// by tag, and the create tool holds which one ([`defined_entity`]). Not in
    /// [`GROUPS`]: the kinds are the project's, not the editor's.
    GameEntity,
}

impl CreateItem {
    /// The menu's label, which is also the new entity's name.
    pub fn label(self) -> &'static str {
        match self {
            Self::Box => "Box",
            Self::Plane => "Plane",
            Self::Ramp => "Ramp",
            Self::Stairs => "Stairs",
            Self::Cylinder => "Cylinder",
            Self::Arch => "Arch",
            Self::OmniLight => "Omni light",
            Self::Sun => "Sun",
            Self::Sky => "Sky (hemisphere)",
            Self::Emitter => "Particle emitter",
            Self::BoxCollider => "Box collider",
            Self::RampCollider => "Ramp collider",
            Self::Builtin(kind) => builtin(kind).map_or(kind, |k| k.title.as_str()),
            Self::Custom => "Custom entity",
            Self::GameEntity => "Game entity",
            Self::Group => "Group",
        }
    }

    /// Whether the item needs a material (meshes do).
    pub fn needs_material(self) -> bool {
        GROUPS[0].1.contains(&self)
    }

    /// Whether it is drawn by dragging its footprint (meshes and volumes); the
    /// others are put down with a click.
    pub fn is_drawn(self) -> bool {
        self.needs_material()
            || matches!(self, Self::BoxCollider | Self::RampCollider)
            || self.builtin().is_some_and(|k| drawn_fields(k).is_some())
    }

    /// Whether it is put in the viewport with the pointer at all (a sun, a sky and
    /// a group have no place that matters: they are made at once).
    pub fn placed_by_pointer(self) -> bool {
        !matches!(self, Self::Sun | Self::Sky | Self::Group)
    }

    /// What to do once it is chosen (the status line and the viewport say it).
    pub fn prompt(self) -> String {
        let name = self.label().to_lowercase();
        if self.is_drawn() {
            format!(
                "Create {name}: drag its footprint on a surface or the grid, or click for the usual size · Ctrl: no snapping · Esc: stop"
            )
        } else {
            format!("Create {name}: click where it goes · Esc: stop")
        }
    }

    /// Whether drawing it has a height step after the footprint (a plane is flat).
    pub fn has_height(self) -> bool {
        self.is_drawn() && self != Self::Plane
    }

    /// Whether its height may go below the surface (a box sunk into a floor).
    pub fn may_go_down(self) -> bool {
        matches!(self, Self::Box | Self::BoxCollider)
            || self
                .builtin()
                .is_some_and(|k| matches!(drawn_fields(k), Some(Sized::Size(_))))
    }

    /// How far above the surface it is put: a light hangs, the spawn is the eye.
    pub fn lift(self) -> f32 {
        match self {
            Self::OmniLight => 2.5,
            Self::Builtin(kind) => builtin(kind).map_or(0.0, |k| k.lift),
            _ => 0.0,
        }
    }

    /// The footprint a drag from `start` to `end` (x, z on the plane) makes: the
    /// rectangle between them, a square toward `end` for a cylinder.
    pub fn footprint(self, start: Vec2, end: Vec2) -> (Vec2, Vec2) {
        if self == Self::Cylinder {
            let d = end - start;
            let side = d.abs().max_element();
            let sign = Vec2::new(
                if d.x < 0.0 { -1.0 } else { 1.0 },
                if d.y < 0.0 { -1.0 } else { 1.0 },
            );
            let far = start + sign * side;
            return (start.min(far), start.max(far));
        }
        (start.min(end), start.max(end))
    }
}

/// A collidable mesh of `primitive`'s geometry in `material`.
fn primitive_mesh(
    primitive: Primitive,
    material: Option<MaterialId>,
) -> Result<EntityKind, String> {
    let material = material.ok_or("a mesh needs a material")?;
    let geometry = primitive.generate(material).map_err(|e| e.to_string())?;
    Ok(EntityKind::Mesh(MeshEntity {
        source: GeometrySource::Primitive(primitive),
        geometry,
        collidable: true,
    }))
}

/// A shape drawn in the viewport: a footprint on a level plane and a height.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Drawn {
    /// Where the drag began and ended on the plane (world x, z).
    pub start: Vec2,
    pub end: Vec2,
    /// The plane's height (world y).
    pub base: f32,
    /// Height above the base; below it when negative (for [`CreateItem::may_go_down`]).
    pub height: f32,
    /// Drawn on a surface, not on the grid (a plane then floats just above it).
    pub on_surface: bool,
}

/// A plane drawn on a surface floats this far above it, so that it never fights
/// the surface for depth.
pub const PLANE_STANDOFF: f32 = 0.01;

/// The entity for a shape drawn in the viewport: its sizes from the footprint and
/// the height, standing on the middle of the footprint. A ramp and stairs climb
/// the way the drag went (along its longer side), an arch spans the longer side.
pub fn drawn_entity(
    item: CreateItem,
    drawn: Drawn,
    material: Option<MaterialId>,
) -> Result<Entity, String> {
    let (lo, hi) = item.footprint(drawn.start, drawn.end);
    let (w, d) = ((hi.x - lo.x).max(0.01), (hi.y - lo.y).max(0.01));
    let centre = (lo + hi) * 0.5;
    let (mut base, mut h) = (drawn.base, drawn.height);
    if h < 0.0 && item.may_go_down() {
        base += h;
        h = -h;
    }
    let h = h.max(0.01);
    let drag = drawn.end - drawn.start;
    // Climbing: toward −Z unturned; a quarter turn for a drag along X.
    let (turn, across, along) = if drag.y.abs() >= drag.x.abs() {
        (if drag.y <= 0.0 { 0.0 } else { PI }, w, d)
    } else {
        (if drag.x > 0.0 { -FRAC_PI_2 } else { FRAC_PI_2 }, d, w)
    };
    let mesh = |primitive: Primitive| primitive_mesh(primitive, material);
    let (kind, yaw) = match item {
        CreateItem::Box => (
            mesh(Primitive::Box {
                size: Vec3::new(w, h, d),
            })?,
            0.0,
        ),
        CreateItem::Plane => (
            mesh(Primitive::Plane {
                width: w,
                depth: d,
                standoff: if drawn.on_surface {
                    PLANE_STANDOFF
                } else {
                    0.0
                },
            })?,
            0.0,
        ),
        CreateItem::Ramp => (
            mesh(Primitive::Wedge {
                width: across,
                height: h,
                depth: along,
            })?,
            turn,
        ),
        CreateItem::Stairs => {
            let steps = (h / 0.2).round().clamp(1.0, Primitive::STEPS.max as f32) as u32;
            (
                mesh(Primitive::Stairs {
                    steps,
                    width: across,
                    rise: h / steps as f32,
                    run: along / steps as f32,
                })?,
                turn,
            )
        }
        CreateItem::Cylinder => (
            mesh(Primitive::Cylinder {
                radius: w * 0.5,
                height: h,
                sides: 16,
            })?,
            0.0,
        ),
        CreateItem::Arch => {
            let (width, depth, yaw) = if w >= d {
                (w, d, 0.0)
            } else {
                (d, w, FRAC_PI_2)
            };
            (
                mesh(Primitive::Arch {
                    width,
                    // The round top needs the opening's half width above the jambs.
                    height: h.max(width * 0.5 + 0.05),
                    depth,
                    thickness: (width * 0.2).min(0.5),
                    segments: 8,
                })?,
                yaw,
            )
        }
        CreateItem::BoxCollider => (
            EntityKind::Collider(Collider::Box {
                size: Vec3::new(w, h, d),
            }),
            0.0,
        ),
        CreateItem::RampCollider => (
            EntityKind::Collider(Collider::Ramp {
                size: Vec3::new(across, h, along),
            }),
            turn,
        ),
        CreateItem::Builtin(name) if item.is_drawn() => {
            let mut inst = DefinedEntity::new(name);
            match builtin(name).and_then(drawn_fields) {
                Some(Sized::Size(f)) => {
                    inst.values
                        .insert(f.to_owned(), FieldValue::Point(Vec3::new(w, h, d)));
                }
                Some(Sized::Corners(lo, hi)) => {
                    let (a, b) = (
                        Vec3::new(-w * 0.5, 0.0, -d * 0.5),
                        Vec3::new(w * 0.5, h, d * 0.5),
                    );
                    inst.values.insert(lo.to_owned(), FieldValue::Point(a));
                    inst.values.insert(hi.to_owned(), FieldValue::Point(b));
                }
                None => {}
            }
            (EntityKind::Defined(inst), 0.0)
        }
        other => return entity(other, Vec3::new(centre.x, base, centre.y), material),
    };
    let name = match item {
        CreateItem::Box => box_name(Vec3::new(w, h, d), base),
        // A plane is drawn on a level surface: a floor, or a platform when raised.
        CreateItem::Plane if base > 0.3 => "Platform".to_owned(),
        CreateItem::Plane => "Floor".to_owned(),
        _ => item.label().to_owned(),
    };
    Ok(Entity::new(name, kind).with_transform(Transform {
        translation: Vec3::new(centre.x, base, centre.y),
        rotation: Quat::from_rotation_y(yaw),
        scale: Vec3::ONE,
    }))
}

/// What a drawn box is, by its shape, for its name in the outliner ("Box" for
/// every wall made the outliner a list of identical rows): a thin upright slab is
/// a wall, a thin flat one a floor (a platform when raised), a low small one a step.
fn box_name(size: Vec3, base: f32) -> String {
    let thin = 0.6;
    let (across, up) = (size.x.min(size.z), size.y);
    let long = size.x.max(size.z);
    let name = if up <= thin && long >= 2.0 {
        if base > 0.3 { "Platform" } else { "Floor" }
    } else if across <= thin && up >= 1.5 && long >= 1.5 {
        "Wall"
    } else if up <= 0.4 && long < 2.0 {
        "Step"
    } else {
        "Box"
    };
    name.to_owned()
}

/// The name of the project's default material, which new shapes use.
pub const DEFAULT_MATERIAL: &str = "Default";

/// The material a new mesh in `scene` gets: the project's default (the material
/// named [`DEFAULT_MATERIAL`]), shared by every shape made, or a plain one of that
/// name made with the first shape (`Some`: to be added in the same step, so an undo
/// takes it away again). Never a copy of the last mesh's material (a box made after
/// a cutout sign came out a cutout), and never one material per shape ("Box 2 …
/// 0 objects" left behind in the Materials panel).
fn material_for_new_mesh(scene: &Scene) -> (MaterialId, Option<Material>) {
    match scene.materials().find(|(_, m)| m.name == DEFAULT_MATERIAL) {
        Some((id, _)) => (id, None),
        // The id is local to the step: the paste gives it the scene's next one.
        None => (
            MaterialId(1),
            Some(Material {
                name: DEFAULT_MATERIAL.into(),
                ..Material::default()
            }),
        ),
    }
}

/// One undoable step that adds the entity `build` makes for `item` (given the
/// material a mesh should use) and selects it: "Create Box".
pub fn creation(
    scene: &Scene,
    item: CreateItem,
    build: impl FnOnce(Option<MaterialId>) -> Result<Entity, String>,
) -> Result<Box<dyn Command>, String> {
    let mut name = format!("Create {}", item.label());
    // The second wall is "Wall 2": rows in the outliner that say which is which.
    let numbered = |mut e: Entity| {
        e.name = pebble_model::naming::next_free(&e.name, false, |n| {
            scene.entities().any(|other| other.name == n)
        });
        e
    };
    if !item.needs_material() {
        let entity = numbered(build(None)?);
        // A game entity's step says which kind: "Create Crate".
        if let pebble_model::EntityKind::Defined(d) = &entity.kind {
            name = format!("Create {}", pebble_model::definitions::title_of(&d.kind));
        }
        return Ok(Box::new(AddEntities::new(name, vec![entity])));
    }
    let (material, new) = material_for_new_mesh(scene);
    let entity = numbered(build(Some(material))?);
    Ok(match new {
        Some(new) => Box::new(Paste::new(vec![(material, new)], vec![entity]).named(name)),
        None => Box::new(AddEntities::new(name, vec![entity])),
    })
}

/// [`creation`] carried out on `doc`; the refusal says what could not be made.
pub fn create_in(
    doc: &mut super::document::Document,
    item: CreateItem,
    build: impl FnOnce(Option<MaterialId>) -> Result<Entity, String>,
) -> Result<(), String> {
    creation(doc.scene(), item, build)
        .and_then(|c| doc.execute_boxed(c, None).map_err(|e| e.to_string()))
        .map_err(|e| format!("cannot create {}: {e}", item.label()))
}

/// What the Create menu offers, in its order (a separator before each group).
pub const GROUPS: &[(&str, &[CreateItem])] = &[
    (
        "Mesh",
        &[
            CreateItem::Box,
            CreateItem::Plane,
            CreateItem::Ramp,
            CreateItem::Stairs,
            CreateItem::Cylinder,
            CreateItem::Arch,
        ],
    ),
    (
        "Light",
        &[CreateItem::OmniLight, CreateItem::Sun, CreateItem::Sky],
    ),
    ("Effects", &[CreateItem::Emitter]),
    (
        "Gameplay",
        &[
            CreateItem::BoxCollider,
            CreateItem::RampCollider,
            CreateItem::Custom,
        ],
    ),
    ("Organise", &[CreateItem::Group]),
];

/// How dragging out a built-in kind sizes it: its size field (the box it
/// fills), or its two corner fields (a box relative to it).
enum Sized<'a> {
    Size(&'a str),
    Corners(&'a str, &'a str),
}

fn drawn_fields(kind: &pebble_model::definitions::KindDef) -> Option<Sized<'_>> {
    use pebble_model::definitions::Display;
    if let Some(f) = kind.size_field() {
        return Some(Sized::Size(&f.name));
    }
    let mut corners = kind
        .fields
        .iter()
        .filter(|f| f.display == Display::Corner && f.local);
    match (corners.next(), corners.next()) {
        (Some(a), Some(b)) => Some(Sized::Corners(&a.name, &b.name)),
        _ => None,
    }
}

/// The built-in item whose drag sizes an instance of `kind` (a game's kind with
/// a size field drags like a trigger, with two corner fields like a ball pit);
/// `None`: it is put down with a click.
pub fn drawn_like(kind: &pebble_model::definitions::KindDef) -> Option<CreateItem> {
    match drawn_fields(kind)? {
        Sized::Size(_) => Some(CreateItem::Builtin("Trigger")),
        Sized::Corners(..) => Some(CreateItem::Builtin("BallPit")),
    }
}

/// An entity drawn as `like` ([`drawn_like`]) made an instance of `kind`: the
/// drawn size (or corners) carried into `kind`'s own fields, named after it.
pub fn drawn_as(
    mut e: Entity,
    like: CreateItem,
    kind: &pebble_model::definitions::KindDef,
) -> Entity {
    let EntityKind::Defined(from) = &e.kind else {
        return e;
    };
    let mut d = DefinedEntity::new(&kind.name);
    let source = like.builtin().and_then(drawn_fields);
    match (source, drawn_fields(kind)) {
        (Some(Sized::Size(a)), Some(Sized::Size(b))) => {
            if let Some(v) = from.values.get(a) {
                d.values.insert(b.to_owned(), v.clone());
            }
        }
        (Some(Sized::Corners(a0, a1)), Some(Sized::Corners(b0, b1))) => {
            for (a, b) in [(a0, b0), (a1, b1)] {
                if let Some(v) = from.values.get(a) {
                    d.values.insert(b.to_owned(), v.clone());
                }
            }
        }
        _ => {}
    }
    e.name = kind.name.clone();
    e.kind = EntityKind::Defined(d);
    e
}

impl CreateItem {
    fn builtin(self) -> Option<&'static pebble_model::definitions::KindDef> {
        match self {
            Self::Builtin(kind) => builtin(kind),
            _ => None,
        }
    }
}

/// The built-in kind described as data named `kind`.
fn builtin(kind: &str) -> Option<&'static pebble_model::definitions::KindDef> {
    pebble_model::definitions::builtin::kinds()
        .kinds
        .iter()
        .find(|k| k.name == kind)
}

/// The Create menu: [`GROUPS`] with each built-in kind described as data after
/// the items of the group its first tag names (a tag naming no group makes one,
/// before "Organise").
pub fn groups() -> Vec<(&'static str, Vec<CreateItem>)> {
    let mut out: Vec<(&'static str, Vec<CreateItem>)> = GROUPS
        .iter()
        .map(|(n, items)| (*n, items.to_vec()))
        .collect();
    for k in &pebble_model::definitions::builtin::kinds().kinds {
        let tag: &'static str = k.tags.first().map_or("Gameplay", String::as_str);
        let item = CreateItem::Builtin(k.name.as_str());
        match out.iter_mut().find(|(n, _)| *n == tag) {
            // Before the custom entity, the catch-all, which stays last.
            Some((_, items)) => match items.iter().position(|i| *i == CreateItem::Custom) {
                Some(at) => items.insert(at, item),
                None => items.push(item),
            },
            None => {
                let at = out.len().saturating_sub(1);
                out.insert(at, (tag, vec![item]));
            }
        }
    }
    out
}

/// Every item, in the menu's order.
pub fn all() -> impl Iterator<Item = CreateItem> {
    groups().into_iter().flat_map(|(_, items)| items)
}

/// A new instance of the project's kind `kind` at `at` (its values at their
/// defaults), named after the kind (the outliner numbers the second one).
pub fn defined_entity(kind: &str, at: Vec3) -> Entity {
    Entity::new(kind, EntityKind::Defined(DefinedEntity::new(kind)))
        .with_transform(Transform::from_translation(at))
}

/// The entity for a menu item at `at`; meshes use `material`.
pub fn entity(item: CreateItem, at: Vec3, material: Option<MaterialId>) -> Result<Entity, String> {
    let mesh = |primitive: Primitive| primitive_mesh(primitive, material);
    let kind = match item {
        CreateItem::Box => mesh(Primitive::Box { size: Vec3::ONE })?,
        CreateItem::Plane => mesh(Primitive::Plane {
            width: 4.0,
            depth: 4.0,
            standoff: 0.0,
        })?,
        CreateItem::Ramp => mesh(Primitive::Wedge {
            width: 2.0,
            height: 1.0,
            depth: 3.0,
        })?,
        CreateItem::Stairs => mesh(Primitive::Stairs {
            steps: 6,
            width: 2.0,
            rise: 0.2,
            run: 0.3,
        })?,
        CreateItem::Cylinder => mesh(Primitive::Cylinder {
            radius: 0.5,
            height: 2.0,
            sides: 16,
        })?,
        CreateItem::Arch => mesh(Primitive::Arch {
            width: 2.0,
            height: 3.0,
            depth: 0.5,
            thickness: 0.4,
            segments: 8,
        })?,
        CreateItem::OmniLight => EntityKind::Light(Light::Omni {
            color: [1.0, 0.9, 0.7],
            radius: 6.0,
            intensity: 1.0,
            shadows: true,
            cone: None,
        }),
        CreateItem::Sun => EntityKind::Light(Light::default_sun()),
        CreateItem::Sky => EntityKind::Light(Light::default_sky()),
        CreateItem::Emitter => EntityKind::Emitter(super::presets::default_emitter()),
        CreateItem::BoxCollider => EntityKind::Collider(Collider::Box { size: Vec3::ONE }),
        CreateItem::RampCollider => EntityKind::Collider(Collider::Ramp {
            size: Vec3::new(2.0, 1.0, 3.0),
        }),
        CreateItem::Builtin(kind) => EntityKind::Defined(DefinedEntity::new(kind)),
        CreateItem::Custom => EntityKind::Custom(CustomEntity {
            tag: "custom".into(),
            json: "{}".into(),
        }),
        CreateItem::Group => EntityKind::Group,
        CreateItem::GameEntity => EntityKind::Defined(DefinedEntity::new("Entity")),
    };
    Ok(Entity::new(item.label(), kind).with_transform(Transform::from_translation(at)))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Shapes share the project's default material: the first shape makes it (an
    /// undo takes it away again), later ones use it, whatever the last mesh's
    /// material was (a cutout sign's did not make the next box a cutout).
    /// Drawn boxes are named by what they look like, not all "Box".
    #[test]
    fn drawn_boxes_are_named_by_their_shape() {
        let named = |size: [f32; 3], base: f32| box_name(Vec3::from(size), base);
        assert_eq!(named([8.0, 3.0, 0.3], 0.0), "Wall");
        assert_eq!(named([0.3, 3.0, 8.0], 0.0), "Wall");
        assert_eq!(named([10.0, 0.2, 10.0], 0.0), "Floor");
        assert_eq!(named([4.0, 0.3, 4.0], 2.0), "Platform");
        assert_eq!(named([1.0, 0.25, 0.4], 0.5), "Step");
        assert_eq!(named([1.0, 1.0, 1.0], 0.0), "Box");
        let drawn = Drawn {
            start: Vec2::new(0.0, 0.0),
            end: Vec2::new(6.0, 0.2),
            base: 0.0,
            height: 3.0,
            on_surface: false,
        };
        let wall = drawn_entity(CreateItem::Box, drawn, Some(MaterialId(0))).expect("a wall");
        assert_eq!(wall.name, "Wall");
        // A plane is a floor (a platform when raised), never "Plane".
        let floor = drawn_entity(CreateItem::Plane, drawn, Some(MaterialId(0))).expect("a plane");
        assert_eq!(floor.name, "Floor");
        let raised = Drawn { base: 2.0, ..drawn };
        let platform =
            drawn_entity(CreateItem::Plane, raised, Some(MaterialId(0))).expect("a plane");
        assert_eq!(platform.name, "Platform");
    }

    /// The report: every new wall was "Wall". The second is "Wall 2", the third
    /// "Wall 3": the outliner's rows say which is which.
    #[test]
    fn new_shapes_of_one_kind_are_numbered() {
        let mut scene = Scene::new();
        let mut history = pebble_model::History::default();
        let drawn = Drawn {
            start: Vec2::new(0.0, 0.0),
            end: Vec2::new(6.0, 0.2),
            base: 0.0,
            height: 3.0,
            on_surface: false,
        };
        for _ in 0..3 {
            let step = creation(&scene, CreateItem::Box, |m| {
                drawn_entity(CreateItem::Box, drawn, m)
            })
            .expect("a step");
            history.execute_boxed(&mut scene, step, None).expect("adds");
        }
        let names: Vec<&str> = scene.entities().map(|e| e.name.as_str()).collect();
        assert_eq!(names, ["Wall", "Wall 2", "Wall 3"]);
    }

    #[test]
    fn new_shapes_share_the_default_material_and_leave_none_behind() {
        use pebble_model::material::AlphaMode;
        let mut scene = Scene::new();
        let mut history = pebble_model::History::default();
        let make = |scene: &Scene, item: CreateItem| {
            creation(scene, item, |m| entity(item, Vec3::ZERO, m)).expect("a step")
        };
        let step = make(&scene, CreateItem::Box);
        history
            .execute_boxed(&mut scene, step, None)
            .expect("first");
        let names: Vec<String> = scene.materials().map(|(_, m)| m.name.clone()).collect();
        assert_eq!(names, [DEFAULT_MATERIAL]);
        history.undo(&mut scene);
        assert_eq!(
            scene.materials().count(),
            0,
            "the undo takes the material too"
        );
        history.redo(&mut scene);
        // A sign in a cutout material of its own, then two more shapes.
        let (default, _) = scene
            .materials()
            .next()
            .map(|(id, m)| (id, m.clone()))
            .expect("one");
        history
            .execute(
                &mut scene,
                pebble_model::command::AddMaterial::new(Material {
                    name: "EXIT sign".into(),
                    alpha: AlphaMode::Cutout,
                    ..Material::default()
                }),
            )
            .expect("the sign's material");
        for item in [CreateItem::Plane, CreateItem::Box] {
            let step = make(&scene, item);
            history
                .execute_boxed(&mut scene, step, None)
                .expect("a shape");
        }
        assert_eq!(scene.materials().count(), 2, "no material per shape");
        for e in scene.entities() {
            let EntityKind::Mesh(m) = &e.kind else {
                continue;
            };
            assert!(
                m.geometry.faces.iter().all(|f| f.material == default),
                "{}",
                e.name
            );
        }
        assert_eq!(
            history.undo_name().as_deref(),
            Some("Create Box"),
            "one step"
        );
    }

    #[test]
    fn every_item_builds_an_entity_of_its_kind_where_asked() {
        let at = Vec3::new(1.0, 0.0, -2.0);
        assert_eq!(all().count(), 19);
        for item in all() {
            let e =
                entity(item, at, Some(MaterialId(1))).unwrap_or_else(|e| panic!("{item:?}: {e}"));
            assert_eq!(e.transform.translation, at, "{item:?}");
            assert_eq!(e.name, item.label());
            if item.needs_material() {
                assert!(matches!(e.kind, EntityKind::Mesh(_)), "{item:?}");
                assert!(
                    entity(item, at, None).is_err(),
                    "{item:?} without a material"
                );
            }
        }
    }
}
