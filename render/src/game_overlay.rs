//! The game's own entities over the scene, drawn from the project's definitions:
//! each instance by its kind's shape and colour (a box, a sphere or a marker;
//! an unknown kind as a magenta query), its point lists as paths, its radius
//! fields as rings, and a line for each link to another entity — all, only those
//! touching the selection, or none — in the selection's colour when they touch it.

use pebble_model::definitions::{Definitions, Display, FieldValue, KindDef, Shape};
use pebble_model::entity::{DefinedEntity, EntityKind, volume_aabb};
use pebble_model::glam::{Affine3A, Vec3};
use pebble_model::{EntityId, Scene};

use crate::overlay::{Overlay, SELECTED};

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
    pub fn game_entities(&mut self, scene: &Scene, defs: &Definitions, links: LinkLines) {
        let selection = scene.selection();
        for e in scene.entities() {
            let EntityKind::Defined(d) = &e.kind else {
                continue;
            };
            if !scene.is_drawn(e.id) {
                continue;
            }
            let selected = selection.contains(&e.id);
            self.game_entity(scene, e.id, d, defs, selected);
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
    pub fn of_game_entity(scene: &Scene, id: EntityId, defs: &Definitions) -> Self {
        let mut o = Self::default();
        if let Some(EntityKind::Defined(d)) = scene.entity(id).map(|e| &e.kind) {
            let shape = defs.kind(&d.kind).map_or(Shape::Point, |k| k.shape);
            o.shape(&scene.world_transform(id), shape, UNKNOWN, PICK_SEGMENTS);
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
        self.shape(&world, kind.shape, colour, SEGMENTS);
        self.pole(at, colour);
        self.fields(kind, d, at, colour);
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
    /// radius fields as rings on the ground round the entity.
    fn fields(&mut self, kind: &KindDef, d: &DefinedEntity, at: Vec3, colour: u32) {
        for f in &kind.fields {
            let v = d
                .values
                .get(&f.name)
                .filter(|v| f.fits(v))
                .unwrap_or(&f.default);
            match (f.display, v) {
                (Display::Path, FieldValue::Array(items)) => {
                    let points: Vec<Vec3> = items
                        .iter()
                        .filter_map(|i| match i {
                            FieldValue::Point(p) if p.is_finite() => Some(*p),
                            _ => None,
                        })
                        .collect();
                    for w in points.windows(2) {
                        self.line(w[0], w[1], colour);
                    }
                    for p in &points {
                        self.cross(*p, 0.12, colour);
                    }
                    if let Some(first) = points.first() {
                        self.line(at, *first, faint(colour));
                    }
                }
                (Display::Path, FieldValue::Point(p)) if p.is_finite() => {
                    self.cross(*p, 0.12, colour);
                    self.line(at, *p, faint(colour));
                }
                (Display::Radius, FieldValue::Float(r)) if r.is_finite() && *r > 0.0 => {
                    self.ring(at, Vec3::X * *r, Vec3::Z * *r, faint(colour), SEGMENTS);
                }
                (Display::Radius, FieldValue::Int(r)) if *r > 0 => {
                    let r = *r as f32;
                    self.ring(at, Vec3::X * r, Vec3::Z * r, faint(colour), SEGMENTS);
                }
                _ => {}
            }
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
            o.game_entities(scene, &defs, links);
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
        let o = Overlay::of_game_entity(&scene, switch, &gone);
        assert!(!o.lines.is_empty() && o.lines.iter().all(|v| v.color == UNKNOWN));
        let shape = Overlay::of_game_entity(&scene, door, &defs);
        assert!(!shape.lines.is_empty());
    }
}
