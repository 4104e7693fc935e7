//! The described entities over the scene — Pebble's built-in kinds and the
//! game's own — drawn from their definitions: each instance by its kind's shape
//! and colour (a box, of its size field's value when it has one, a sphere, a
//! standing figure or a marker; an unknown kind as a magenta query), its point
//! lists as paths, its corner points as a box, its radius fields as rings, its
//! heading as an arrow, and a line for each link to another entity — all, only
//! those touching the selection, or none — in the selection's colour when they
//! touch it.

use pebble_model::definitions::{Definitions, Display, FieldValue, KindDef, Shape};
use pebble_model::entity::{DefinedEntity, EntityKind, volume_aabb};
use pebble_model::glam::{Affine3A, Vec3};
use pebble_model::{EntityId, Scene};

use crate::overlay::{Overlay, SELECTED};

/// The models kinds are drawn by, by project-relative path: each one's edges in
/// its own space (read by the viewport; the renderer reads no files).
pub type ModelEdges = std::collections::HashMap<String, std::sync::Arc<Vec<(Vec3, Vec3)>>>;

/// Which described kinds are drawn: Pebble's built-in ones (the player spawn,
/// triggers…) and the game's own, each a layer of its own.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct KindsShown {
    pub builtin: bool,
    pub game: bool,
}

impl KindsShown {
    pub const ALL: Self = Self {
        builtin: true,
        game: true,
    };

    /// Whether instances of `kind` are drawn.
    pub fn shows(self, kind: &str) -> bool {
        if Definitions::is_builtin_kind(kind) {
            self.builtin
        } else {
            self.game
        }
    }
}

/// The field lines wanted: all that is drawn, or only what a click may pick
/// (paths and boxes, not rings, arrows and faint ties).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Lines {
    Drawn,
    Pick,
}

/// Which link lines are drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum LinkLines {
    #[default]
    All,
    /// Only links from or to a selected entity.
    Selected,
    None,
}

/// Segments of a drawn circle.
const SEGMENTS: usize = 16;
/// Segments of a circle in the ID pass (coarser: thousands are drawn there).
const PICK_SEGMENTS: usize = 8;

/// A kind whose definition is gone (0xAABBGGRR magenta).
pub const UNKNOWN: u32 = 0xFF_FF_40_FF;

/// `0xRRGGBB` as an overlay colour (0xAABBGGRR).
pub fn line_colour(rgb: u32) -> u32 {
    let [b, g, r, _] = rgb.to_le_bytes();
    u32::from_le_bytes([r, g, b, 0xFF])
}

fn faint(colour: u32) -> u32 {
    (colour & 0x00_FF_FF_FF) | 0x90_00_00_00
}

/// Where a link line leaves and reaches an entity: a little above its origin.
fn anchor(scene: &Scene, id: EntityId) -> Vec3 {
    Vec3::from(scene.world_transform(id).translation) + Vec3::Y * 0.5
}

impl Overlay {
    /// Every drawn game entity of `scene` under `defs`, with its links as `links`
    /// says.
    pub fn game_entities(
        &mut self,
        scene: &Scene,
        defs: &Definitions,
        links: LinkLines,
        shown: KindsShown,
        models: &ModelEdges,
    ) {
        let selection = scene.selection();
        for e in scene.entities() {
            let EntityKind::Defined(d) = &e.kind else {
                continue;
            };
            if !scene.is_drawn(e.id) || !shown.shows(&d.kind) {
                continue;
            }
            let selected = selection.contains(&e.id);
            self.game_entity(scene, e.id, d, defs, selected, models);
            if links == LinkLines::None {
                continue;
            }
            let Some(kind) = defs.kind(&d.kind) else {
                continue;
            };
            for f in kind.fields.iter().filter(|f| f.display == Display::Link) {
                let Some(v) = d.values.get(&f.name) else {
                    continue;
                };
                let mut targets = Vec::new();
                v.references(&mut targets);
                for t in targets {
                    if scene.entity(t).is_none() || !scene.is_drawn(t) {
                        continue;
                    }
                    let touches = selected || selection.contains(&t);
                    if links == LinkLines::Selected && !touches {
                        continue;
                    }
                    let colour = if touches {
                        SELECTED
                    } else {
                        line_colour(kind.colour)
                    };
                    self.arrow(anchor(scene, e.id), anchor(scene, t), colour);
                }
            }
        }
    }

    /// One game entity's shape alone, coarser (what a click on it hits: thousands
    /// of them go into the ID pass).
    pub fn of_game_entity(
        scene: &Scene,
        id: EntityId,
        defs: &Definitions,
        models: &ModelEdges,
    ) -> Self {
        let mut o = Self::default();
        if let Some(EntityKind::Defined(d)) = scene.entity(id).map(|e| &e.kind) {
            let world = scene.world_transform(id);
            let kind = defs.kind(&d.kind);
            let model = kind.and_then(|k| models.get(k.model_of(d)?));
            match model {
                Some(edges) => o.model(&world, edges, UNKNOWN),
                None => {
                    let shape = kind.map_or(Shape::Point, |k| k.shape_of(d));
                    o.shape(&world, shape, UNKNOWN, PICK_SEGMENTS);
                }
            }
            // Its route and its box are it too (a patrol is where it walks); its
            // rings and arrows are not.
            if let Some(kind) = kind {
                o.fields(kind, d, &world, UNKNOWN, Lines::Pick);
            }
        }
        o
    }

    fn game_entity(
        &mut self,
        scene: &Scene,
        id: EntityId,
        d: &DefinedEntity,
        defs: &Definitions,
        selected: bool,
        models: &ModelEdges,
    ) {
        let world = scene.world_transform(id);
        let at: Vec3 = world.translation.into();
        let Some(kind) = defs.kind(&d.kind) else {
            let colour = if selected { SELECTED } else { UNKNOWN };
            self.shape(&world, Shape::Point, colour, SEGMENTS);
            // A query mark: the definition is gone, the values are kept.
            self.line(at + Vec3::Y * 0.6, at + Vec3::Y * 0.9, colour);
            return;
        };
        let colour = if selected {
            SELECTED
        } else {
            line_colour(kind.colour)
        };
        // By its model when it has one that reads, else by its shape.
        match kind.model_of(d).and_then(|m| models.get(m)) {
            Some(edges) => self.model(&world, edges, colour),
            None => {
                let shape = kind.shape_of(d);
                self.shape(&world, shape, colour, SEGMENTS);
                if !matches!(shape, Shape::Figure(_)) {
                    self.pole(at, colour);
                }
            }
        }
        self.fields(kind, d, &world, colour, Lines::Drawn);
    }

    /// A model's edges placed by `world`.
    fn model(&mut self, world: &Affine3A, edges: &[(Vec3, Vec3)], colour: u32) {
        for (a, b) in edges {
            self.line(
                world.transform_point3(*a),
                world.transform_point3(*b),
                colour,
            );
        }
    }

    fn shape(&mut self, world: &Affine3A, shape: Shape, colour: u32, segments: usize) {
        match shape {
            Shape::Box(size) => {
                let b = volume_aabb(Vec3::from(size));
                self.boxed(world, b.min, b.max, colour);
            }
            Shape::Sphere(r) => {
                let centre: Vec3 = world.translation.into();
                // A level ring and an upright one: a sphere at a glance, in a third
                // of the lines three would take (thousands are drawn).
                for (u, v) in [(Vec3::X, Vec3::Z), (Vec3::X, Vec3::Y)] {
                    self.ring(centre, u * r, v * r, colour, segments);
                }
            }
            Shape::Figure([radius, height, eye]) => {
                // The player (or a character) as the walking rules have it: the
                // capsule from the feet up and a cross at the eye, so that "eye or
                // feet" is never a guess.
                let at: Vec3 = world.translation.into();
                let foot = at - Vec3::Y * eye;
                let top = foot + Vec3::Y * height;
                let ring = |y: Vec3, k: usize| {
                    let a = k as f32 / 12.0 * std::f32::consts::TAU;
                    y + Vec3::new(a.cos(), 0.0, a.sin()) * radius
                };
                for k in 0..12 {
                    self.line(ring(foot, k), ring(foot, k + 1), colour);
                    self.line(ring(top, k), ring(top, k + 1), colour);
                }
                for k in [0, 3, 6, 9] {
                    self.line(ring(foot, k), ring(top, k), colour);
                }
                self.line(at - Vec3::X * 0.12, at + Vec3::X * 0.12, colour);
                self.line(at - Vec3::Y * 0.12, at + Vec3::Y * 0.12, colour);
            }
            Shape::Point => {
                let h = 0.15;
                self.boxed(
                    world,
                    Vec3::new(-h, 0.0, -h),
                    Vec3::new(h, 2.0 * h, h),
                    colour,
                );
                let top = world.transform_point3(Vec3::Y * 2.0 * h);
                self.star(top + Vec3::Y * 0.2, 0.2, colour);
            }
        }
    }

    /// A circle round `centre` spanned by `u` and `v` (its radii).
    fn ring(&mut self, centre: Vec3, u: Vec3, v: Vec3, colour: u32, segments: usize) {
        let p = |k: usize| {
            let a = k as f32 / segments as f32 * std::f32::consts::TAU;
            centre + u * a.cos() + v * a.sin()
        };
        for k in 0..segments {
            self.line(p(k), p(k + 1), colour);
        }
    }

    /// A small level cross at a point of a path.
    fn cross(&mut self, at: Vec3, size: f32, colour: u32) {
        self.line(at - Vec3::X * size, at + Vec3::X * size, colour);
        self.line(at - Vec3::Z * size, at + Vec3::Z * size, colour);
    }

    /// A line with a small head at `to`.
    fn arrow(&mut self, from: Vec3, to: Vec3, colour: u32) {
        self.line(from, to, colour);
        let d = to - from;
        let length = d.length();
        if length < 1e-3 {
            return;
        }
        let dir = d / length;
        let side = dir.cross(Vec3::Y).normalize_or(Vec3::X) * 0.15;
        let back = to - dir * 0.35_f32.min(length * 0.5);
        self.line(to, back + side, colour);
        self.line(to, back - side, colour);
    }

    /// The fields drawn in the viewport: point lists as paths, points as crosses,
    /// corner points as the box between them, radius fields as rings on the
    /// ground round the entity, a heading as an arrow. Local points move and turn
    /// with the entity.
    fn fields(
        &mut self,
        kind: &KindDef,
        d: &DefinedEntity,
        world: &Affine3A,
        colour: u32,
        lines: Lines,
    ) {
        let drawn = lines == Lines::Drawn;
        let at: Vec3 = world.translation.into();
        let mut corners: Vec<Vec3> = Vec::new();
        for f in &kind.fields {
            let v = d
                .values
                .get(&f.name)
                .filter(|v| f.fits(v))
                .unwrap_or(&f.default);
            let place = |p: Vec3| {
                if f.local {
                    world.transform_point3(p)
                } else {
                    p
                }
            };
            match (f.display, v) {
                (Display::Corner, FieldValue::Point(p)) if p.is_finite() => {
                    corners.push(*p);
                }
                (Display::Heading, v) if drawn => {
                    if let Some(yaw) = v.as_f32().filter(|y| y.is_finite()) {
                        let yaw = yaw.to_radians();
                        let forward = world
                            .transform_vector3(Vec3::new(yaw.sin(), 0.0, -yaw.cos()))
                            .normalize_or(Vec3::NEG_Z);
                        self.arrow(at, at + forward * 0.8, colour);
                    }
                }
                (Display::Path, FieldValue::Array(items)) => {
                    let points: Vec<Vec3> = items
                        .iter()
                        .filter_map(|i| match i {
                            FieldValue::Point(p) if p.is_finite() => Some(place(*p)),
                            _ => None,
                        })
                        .collect();
                    for w in points.windows(2) {
                        self.line(w[0], w[1], colour);
                    }
                    for p in &points {
                        self.cross(*p, 0.12, colour);
                    }
                    // A world route is tied to its entity by a faint line; a local
                    // one starts where its entity is placed.
                    if let Some(first) = points.first().filter(|_| drawn && !f.local) {
                        self.line(at, *first, faint(colour));
                    }
                }
                (Display::Path, FieldValue::Point(p)) if p.is_finite() => {
                    let p = place(*p);
                    self.cross(p, 0.12, colour);
                    if drawn {
                        self.line(at, p, faint(colour));
                    }
                }
                (Display::Radius, FieldValue::Float(r)) if drawn && r.is_finite() && *r > 0.0 => {
                    self.ring(at, Vec3::X * *r, Vec3::Z * *r, faint(colour), SEGMENTS);
                }
                (Display::Radius, FieldValue::Int(r)) if drawn && *r > 0 => {
                    let r = *r as f32;
                    self.ring(at, Vec3::X * r, Vec3::Z * r, faint(colour), SEGMENTS);
                }
                _ => {}
            }
        }
        if corners.len() >= 2 {
            let (lo, hi) = corners
                .iter()
                .fold((corners[0], corners[0]), |(lo, hi), p| {
                    (lo.min(*p), hi.max(*p))
                });
            // Corners are local or world as their fields say; one box in the frame
            // of the first.
            let local = kind
                .fields
                .iter()
                .any(|f| f.display == Display::Corner && f.local);
            let frame = if local { *world } else { Affine3A::IDENTITY };
            self.boxed(&frame, lo, hi, colour);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pebble_model::command::AddEntities;
    use pebble_model::{Command, Entity, Transform};

    const DEFS: &str = r##"(kinds: [
        (name: "Switch", colour: "#ff0000", shape: Box((1.0, 1.0, 1.0))),
        (name: "Door", colour: "#00ff00", fields: [
            (name: "switch", type: Entity),
            (name: "reach", type: Float, default: 2.0, display: Radius),
        ]),
    ])"##;

    fn scene() -> (Scene, EntityId, EntityId) {
        let mut scene = Scene::new();
        let mut switch = Entity::new("S", EntityKind::Defined(DefinedEntity::new("Switch")))
            .with_transform(Transform::from_translation(Vec3::new(4.0, 0.0, 0.0)));
        switch.id = EntityId(7);
        let mut door = DefinedEntity::new("Door");
        door.values
            .insert("switch".into(), FieldValue::Entity(Some(EntityId(7))));
        let door = Entity::new("D", EntityKind::Defined(door));
        let mut add = AddEntities::new("add", vec![switch, door]).without_selecting();
        add.apply(&mut scene).expect("adds");
        let ids = add.created();
        (scene, ids[0], ids[1])
    }

    #[test]
    fn links_follow_the_mode_and_light_up_with_the_selection() {
        let defs = Definitions::parse(DEFS).expect("reads");
        let (mut scene, switch, _door) = scene();
        let count = |scene: &Scene, links| {
            let mut o = Overlay::default();
            o.game_entities(scene, &defs, links, KindsShown::ALL, &ModelEdges::new());
            o
        };
        let all = count(&scene, LinkLines::All);
        let none = count(&scene, LinkLines::None);
        // The link: a line and its two-stroke head.
        assert_eq!(all.lines.len() - none.lines.len(), 6);
        assert_eq!(
            count(&scene, LinkLines::Selected).lines.len(),
            none.lines.len()
        );
        scene.select(vec![switch]);
        let lit = count(&scene, LinkLines::Selected);
        assert_eq!(lit.lines.len(), all.lines.len());
        let link = &lit.lines[lit.lines.len() - 6..];
        assert!(
            link.iter().all(|v| v.color == SELECTED),
            "the link touches the selection"
        );
        // The switch's box is red, the door's ring green and faint.
        assert!(none.lines.iter().any(|v| v.color == 0xFF_00_00_FF));
        assert!(none.lines.iter().any(|v| v.color == 0x90_00_FF_00));
    }

    #[test]
    fn an_unknown_kind_is_drawn_as_such_and_picked_where_drawn() {
        let defs = Definitions::parse(DEFS).expect("reads");
        let (scene, switch, door) = scene();
        let gone = Definitions::parse("(kinds: [(name: \"Door\")])").expect("reads");
        let o = Overlay::of_game_entity(&scene, switch, &gone, &ModelEdges::new());
        assert!(!o.lines.is_empty() && o.lines.iter().all(|v| v.color == UNKNOWN));
        let shape = Overlay::of_game_entity(&scene, door, &defs, &ModelEdges::new());
        assert!(!shape.lines.is_empty());
    }

    /// The built-in kinds are drawn from their descriptors: the spawn as the
    /// player's capsule standing under its eye with an arrow along the yaw, a
    /// trigger as the box of its size field, a patrol's route moving with it, a
    /// ball pit's box between its corners; their layer hides them all.
    #[test]
    fn the_built_in_kinds_are_drawn_from_their_descriptors() {
        use pebble_model::definitions::builtin::instance;
        let mut scene = Scene::new();
        let at = |x: f32| Transform::from_translation(Vec3::new(x, 1.0, 0.0));
        let add = |scene: &mut Scene, name: &str, d: DefinedEntity, x: f32| {
            AddEntities::new(
                "add",
                vec![Entity::new(name, EntityKind::Defined(d)).with_transform(at(x))],
            )
            .without_selecting()
            .apply(scene)
            .expect("adds");
        };
        add(
            &mut scene,
            "Spawn",
            instance("PlayerSpawn", [("yaw", FieldValue::Float(90.0))]),
            -5.0,
        );
        add(
            &mut scene,
            "Zone",
            instance(
                "Trigger",
                [("size", FieldValue::Point(Vec3::new(2.0, 3.0, 4.0)))],
            ),
            5.0,
        );
        add(&mut scene, "Pit", instance("BallPit", []), 20.0);
        add(&mut scene, "Route", instance("Patrol", []), 30.0);
        let defs = Definitions::default();
        let mut o = Overlay::default();
        o.game_entities(
            &scene,
            &defs,
            LinkLines::All,
            KindsShown::ALL,
            &ModelEdges::new(),
        );
        let of = |name: &str| {
            let k = defs.kind(name).expect("built in");
            line_colour(k.colour)
        };
        let points = |colour: u32| -> Vec<Vec3> {
            o.lines
                .iter()
                .filter(|v| v.color == colour)
                .map(|v| Vec3::from(v.pos))
                .collect()
        };
        // The capsule's two rings of 12 and 4 sides, the eye's cross, the arrow.
        let spawn = points(of("PlayerSpawn"));
        assert_eq!(spawn.len() / 2, 12 + 12 + 4 + 2 + 3);
        let (lo, hi) = spawn
            .iter()
            .fold((f32::INFINITY, f32::NEG_INFINITY), |(a, b), p| {
                (a.min(p.y), b.max(p.y))
            });
        assert!(
            (lo - (1.0 - 1.6)).abs() < 1e-5 && (hi - (1.0 - 1.6 + 1.75)).abs() < 1e-5,
            "the eye at y = 1, the feet 1.6 m under it: {lo} {hi}"
        );
        // Yaw 90: the arrow points along +X from the eye.
        assert!(
            spawn
                .iter()
                .any(|p| (p.x - (-5.0 + 0.8)).abs() < 1e-4 && (p.y - 1.0).abs() < 1e-4)
        );
        // The trigger's box spans its size around its place, standing on it.
        let zone: Vec<Vec3> = points(of("Trigger"))
            .into_iter()
            .filter(|p| p.x > 2.0 && p.x < 8.0)
            .collect();
        let min = zone.iter().fold(Vec3::INFINITY, |a, p| a.min(*p));
        let max = zone.iter().fold(Vec3::NEG_INFINITY, |a, p| a.max(*p));
        assert_eq!((min.x, max.x, min.z, max.z), (4.0, 6.0, -2.0, 2.0));
        assert!(max.y >= 4.0 - 1e-5, "3 m tall over y = 1: {max}");
        // The patrol's route starts at the entity and follows it (4 m along X).
        let route = points(of("Patrol"));
        assert!(route.iter().any(|p| (p.x - 34.0).abs() < 0.2), "{route:?}");
        // The pit's box, between its corners relative to the entity.
        let pit: Vec<Vec3> = points(of("BallPit"))
            .into_iter()
            .filter(|p| p.x < 25.0)
            .collect();
        assert!(
            pit.iter()
                .any(|p| (p.x - 21.0).abs() < 1e-5 && (p.y - 3.0).abs() < 1e-5),
            "{pit:?}"
        );
        // Their layer off, none is drawn.
        let mut hidden = Overlay::default();
        hidden.game_entities(
            &scene,
            &defs,
            LinkLines::All,
            KindsShown {
                builtin: false,
                game: true,
            },
            &ModelEdges::new(),
        );
        assert!(hidden.lines.is_empty());
    }

    /// A kind with a model is drawn by the model's edges where the instance
    /// stands (and picked there); one whose model is not read keeps its shape.
    #[test]
    fn a_kind_with_a_model_is_drawn_by_it() {
        let defs = Definitions::parse(
            r##"(kinds: [(name: "Crate", colour: "#00ff00", model: Asset("models/crate.glb"))])"##,
        )
        .expect("reads");
        let mut scene = Scene::new();
        AddEntities::new(
            "add",
            vec![
                Entity::new("C", EntityKind::Defined(DefinedEntity::new("Crate")))
                    .with_transform(Transform::from_translation(Vec3::new(10.0, 0.0, 0.0))),
            ],
        )
        .apply(&mut scene)
        .expect("adds");
        let mut models = ModelEdges::new();
        models.insert(
            "models/crate.glb".into(),
            std::sync::Arc::new(vec![(Vec3::ZERO, Vec3::new(0.0, 5.0, 0.0))]),
        );
        let mut o = Overlay::default();
        o.game_entities(&scene, &defs, LinkLines::All, KindsShown::ALL, &models);
        let ends: Vec<[f32; 3]> = o.lines.iter().map(|v| v.pos).collect();
        assert_eq!(
            ends,
            vec![[10.0, 0.0, 0.0], [10.0, 5.0, 0.0]],
            "the model's edge, placed"
        );
        let id = scene.entities().next().expect("one").id;
        let picked = Overlay::of_game_entity(&scene, id, &defs, &models);
        assert_eq!(picked.lines.len(), 2);
        let mut without = Overlay::default();
        without.game_entities(
            &scene,
            &defs,
            LinkLines::All,
            KindsShown::ALL,
            &ModelEdges::new(),
        );
        assert!(without.lines.len() > 2, "the marker shape stands in");
    }
}
