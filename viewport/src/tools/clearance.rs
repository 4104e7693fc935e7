//! Room on the floor for what is put down with a click. A patrol's route and a
//! ball pit's box reach away from the point clicked: put down as they are made
//! (a route 4 m along +X, a 2 m box), a route ran through a wall and ended
//! outside the room, and a ball pit stuck out of a wall's side. Here the route
//! turns (and shortens) until its far end stands on the same floor with nothing
//! between, and the box moves off the wall until every corner does.

use pebble_model::entity::EntityKind;
use pebble_model::glam::Vec3;
use pebble_model::{Kind, Scene};

use pebble_core::create::CreateItem;

/// How high above the floor the way between two points is looked along (a
/// kerb or a rug does not block it; a wall does).
const KNEE: f32 = 0.3;
/// How much the floor may differ between two ends and still be one floor.
const SAME_FLOOR: f32 = 0.05;

/// Where `item`, clicked at `place` (on a floor), goes, and the patrol's
/// waypoints (offsets) when it is one: unchanged where there is room.
pub fn fit(scene: &Scene, item: CreateItem, place: Vec3) -> (Vec3, Option<Vec<Vec3>>) {
    match item {
        CreateItem::Builtin("Patrol") => (place, route(scene, place)),
        CreateItem::Builtin("BallPit") => (pit_place(scene, place), None),
        _ => (place, None),
    }
}

/// The eight directions on the floor, +X first (the route's usual way).
fn directions() -> impl Iterator<Item = Vec3> {
    (0..8).map(|k| {
        let a = k as f32 * std::f32::consts::FRAC_PI_4;
        Vec3::new(a.cos(), 0.0, -a.sin())
    })
}

/// A patrol's two waypoints from `place`: the longest of 4, 3, 2 and 1 m, in the
/// first direction where the far end is on the same floor with nothing between.
fn route(scene: &Scene, place: Vec3) -> Option<Vec<Vec3>> {
    for length in [4.0, 3.0, 2.0, 1.0] {
        for d in directions() {
            if reachable(scene, place, place + d * length) {
                return Some(vec![Vec3::ZERO, d * length]);
            }
        }
    }
    None
}

/// A ball pit's place near `place` where its box's corners (2 m across, as made)
/// all stand on the clicked floor with nothing between them and the middle.
fn pit_place(scene: &Scene, place: Vec3) -> Vec3 {
    let corners = [
        Vec3::new(-1.0, 0.0, -1.0),
        Vec3::new(1.0, 0.0, -1.0),
        Vec3::new(1.0, 0.0, 1.0),
        Vec3::new(-1.0, 0.0, 1.0),
    ];
    let fits = |at: Vec3| {
        floor_at(scene, at).is_some_and(|y| (y - place.y).abs() <= SAME_FLOOR)
            && corners.iter().all(|c| reachable(scene, at, at + *c))
    };
    if fits(place) {
        return place;
    }
    for step in [0.5, 1.0, 1.5, 2.0, 2.5] {
        for d in directions() {
            let at = place + d * step;
            if fits(at) {
                return at;
            }
        }
    }
    place
}

/// The floor under a point (from a little above it).
fn floor_at(scene: &Scene, p: Vec3) -> Option<f32> {
    pebble_core::edit_ops::floor_below(scene, p + Vec3::Y * KNEE, &[])
}

/// Whether `to` stands on the floor `from` stands on and the way between them,
/// at knee height, crosses no mesh.
pub fn reachable(scene: &Scene, from: Vec3, to: Vec3) -> bool {
    let same_floor = floor_at(scene, to).is_some_and(|y| (y - from.y).abs() <= SAME_FLOOR);
    same_floor && !blocked(scene, from + Vec3::Y * KNEE, to + Vec3::Y * KNEE)
}

/// Whether the segment `a`–`b` passes through a drawn mesh's triangle.
fn blocked(scene: &Scene, a: Vec3, b: Vec3) -> bool {
    let (lo, hi) = (a.min(b), a.max(b));
    for e in scene.entities_of(Kind::Mesh) {
        if !scene.is_drawn(e.id) {
            continue;
        }
        let EntityKind::Mesh(mesh) = &e.kind else {
            continue;
        };
        if let Some(bounds) = scene.world_aabb(e.id)
            && (bounds.max.cmplt(lo).any() || bounds.min.cmpgt(hi).any())
        {
            continue;
        }
        let world = scene.world_transform(e.id);
        for f in &mesh.geometry.faces {
            let t = mesh.geometry.triangle(f).map(|p| world.transform_point3(p));
            if segment_hits(a, b, t) {
                return true;
            }
        }
    }
    false
}

/// Whether the segment `a`–`b` meets the triangle (either side).
fn segment_hits(a: Vec3, b: Vec3, triangle: [Vec3; 3]) -> bool {
    let length = a.distance(b);
    length > 1e-6 && ray_distance(a, (b - a) / length, triangle).is_some_and(|t| t <= length)
}

/// The first drawn mesh surface along the ray from `origin` in the unit
/// direction `dir`, within `max` metres: the point and the face's normal turned
/// towards the ray's origin.
pub fn first_hit(scene: &Scene, origin: Vec3, dir: Vec3, max: f32) -> Option<(Vec3, Vec3)> {
    let mut best: Option<(f32, Vec3)> = None;
    for e in scene.entities_of(Kind::Mesh) {
        if !scene.is_drawn(e.id) {
            continue;
        }
        let EntityKind::Mesh(mesh) = &e.kind else {
            continue;
        };
        let world = scene.world_transform(e.id);
        for f in &mesh.geometry.faces {
            let t = mesh.geometry.triangle(f).map(|p| world.transform_point3(p));
            if let Some(d) = ray_distance(origin, dir, t)
                && d <= max
                && best.is_none_or(|(b, _)| d < b)
            {
                let n = (t[1] - t[0]).cross(t[2] - t[0]).normalize_or_zero();
                best = Some((d, if n.dot(dir) > 0.0 { -n } else { n }));
            }
        }
    }
    best.map(|(d, n)| (origin + dir * d, n))
}

/// How far along the ray the triangle is hit (either side), if it is.
fn ray_distance(origin: Vec3, dir: Vec3, tri: [Vec3; 3]) -> Option<f32> {
    pebble_model::math::ray_triangle(origin, dir, tri, 1e-4).map(|(t, _)| t)
}
