//! Where a footprint's corner snaps while a shape is drawn: onto a corner of
//! what is already built, onto one of its outline edges, or onto the grid —
//! whichever the cursor is nearest — so that walls drawn against walls meet
//! without a gap. The outline is a mesh's feature edges (those between faces
//! that meet at an angle, and the border), shared with the shape preview.

use std::collections::HashMap;

use pebble_model::Scene;
use pebble_model::entity::EntityKind;
use pebble_model::glam::{Vec2, Vec3};

use crate::view::View;

/// What a footprint's corner snapped to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Snap {
    /// A vertex of existing geometry (a wall's corner).
    Vertex,
    /// A point on an edge of existing geometry (along a wall's face).
    Edge,
}

/// How near, in pixels, a corner must come to a vertex (or an edge) to snap to it;
/// within the first a vertex wins over the grid whatever, within the second when
/// it is nearer than the grid's point.
const SNAP_VERTEX_SURE_PX: f32 = 6.0;
const SNAP_VERTEX_PX: f32 = 12.0;
const SNAP_EDGE_PX: f32 = 8.0;
/// A corner this near on the footprint's plane (grid steps) snaps whatever the
/// picture, when it is within [`NEAR_CORNER_PX`] on screen: a wall drawn towards a
/// floor corner hidden behind another wall ended a step or more short of it.
const SNAP_VERTEX_STEPS: f32 = 1.5;
/// How far on screen the corners near the cursor are shown (and may snap by the
/// plane's distance), seen or hidden.
pub(super) const NEAR_CORNER_PX: f32 = 48.0;

/// The footprint's corner under `pixel` on the level plane at `base`: on a corner
/// of existing geometry within [`SNAP_VERTEX_PX`] (seen from above: its x and z),
/// else on an outline edge within [`SNAP_EDGE_PX`], else on the grid (none with
/// `free`, Ctrl). The nearest of the three to the cursor wins, a vertex before an
/// edge before the grid; a vertex within [`SNAP_VERTEX_SURE_PX`] always.
pub(super) fn snap_corner(
    scene: &Scene,
    view: &View,
    pixel: Vec2,
    on_plane: Vec3,
    base: f32,
    (step, free): (f32, bool),
) -> (Vec2, Option<(Vec3, Snap)>) {
    let grid = snap_xz(on_plane, step, free);
    if free {
        return (grid, None);
    }
    let xz = |p: Vec3| Vec2::new(p.x, p.z);
    let at = |v: Vec2| Vec3::new(v.x, base, v.y);
    let px = |v: Vec2| view.project(at(v)).map(|q| q.distance(pixel));
    let here = xz(on_plane);
    let reach = (SNAP_VERTEX_STEPS * step).max(0.3);
    let mut best_vertex: Option<(f32, Vec2, bool)> = None;
    let mut best_edge: Option<(f32, Vec2)> = None;
    for edges in outlines_near(scene, here) {
        for v in corners(&edges) {
            // Near on the plane counts as much as near on screen: the plane, not
            // the picture, says where the corner is (it may be hidden).
            let on_plane_near = xz(v).distance(here) <= reach;
            if let Some(d) = px(xz(v))
                && (d <= SNAP_VERTEX_PX || (on_plane_near && d <= NEAR_CORNER_PX))
                && best_vertex.is_none_or(|(bd, ..)| d < bd)
            {
                best_vertex = Some((d, xz(v), on_plane_near));
            }
        }
        for &(a, b) in &edges {
            let (a, ab) = (xz(a), xz(b) - xz(a));
            if ab.length_squared() < 1e-8 {
                continue;
            }
            let closest =
                |p: Vec2| a + ab * ((p - a).dot(ab) / ab.length_squared()).clamp(0.0, 1.0);
            // Near the edge: onto it, where the grid puts the corner along it.
            if let Some(d) = px(closest(here))
                && d <= SNAP_EDGE_PX
                && best_edge.is_none_or(|(bd, _)| d < bd)
            {
                best_edge = Some((d, closest(grid)));
            }
        }
    }
    let grid_px = px(grid).unwrap_or(f32::INFINITY);
    if let Some((d, v, on_plane_near)) = best_vertex
        && (on_plane_near || d <= SNAP_VERTEX_SURE_PX || d <= grid_px + 0.5)
    {
        return (v, Some((at(v), Snap::Vertex)));
    }
    if let Some((_, q)) = best_edge
        && px(q).unwrap_or(f32::INFINITY) <= grid_px + 0.5
    {
        return (q, Some((at(q), Snap::Edge)));
    }
    (grid, None)
}

/// The corners of what is built within [`NEAR_CORNER_PX`] of `pixel` on the plane
/// at `base` (seen from above: their x and z), seen or hidden behind a wall: the
/// create tool shows them, so a corner out of sight can still be aimed at.
pub(super) fn corners_near(scene: &Scene, view: &View, pixel: Vec2, base: f32) -> Vec<Vec3> {
    let mut out = Vec::new();
    let (origin, dir) = view.ray(pixel);
    let Some(here) = (dir.y.abs() > 1e-6)
        .then(|| origin + dir * ((base - origin.y) / dir.y))
        .map(|p| Vec2::new(p.x, p.z))
    else {
        return out;
    };
    for edges in outlines_near(scene, here) {
        for v in corners(&edges) {
            let at = Vec3::new(v.x, base, v.z);
            if view
                .project(at)
                .is_some_and(|q| q.distance(pixel) <= NEAR_CORNER_PX)
                && !out.iter().any(|o: &Vec3| o.distance(at) < 1e-3)
            {
                out.push(at);
            }
        }
    }
    out
}

/// The world-space outline edges of every drawn mesh within a few metres of
/// `here` (x, z): what both the snap and the corners shown look at.
fn outlines_near(scene: &Scene, here: Vec2) -> impl Iterator<Item = Vec<(Vec3, Vec3)>> + '_ {
    let xz = |p: Vec3| Vec2::new(p.x, p.z);
    scene.entities().filter_map(move |e| {
        let EntityKind::Mesh(m) = &e.kind else {
            return None;
        };
        if !scene.is_drawn(e.id) {
            return None;
        }
        // Only what is near: a few metres round the cursor.
        if let Some(b) = scene.world_aabb(e.id)
            && (here.cmplt(xz(b.min) - 4.0).any() || here.cmpgt(xz(b.max) + 4.0).any())
        {
            return None;
        }
        let world = scene.world_transform(e.id);
        Some(
            feature_edges(&m.geometry)
                .into_iter()
                .map(|(a, b)| (world.transform_point3(a), world.transform_point3(b)))
                .collect(),
        )
    })
}

/// A mesh's corners: where its outline edges in different directions meet (not
/// the points a subdivided side's border passes through).
fn corners(edges: &[(Vec3, Vec3)]) -> Vec<Vec3> {
    let key = |p: Vec3| (p * 1e4).round().as_ivec3().to_array();
    let mut directions: HashMap<[i32; 3], (Vec3, Vec<Vec3>)> = HashMap::new();
    for &(a, b) in edges {
        let d = (b - a).normalize_or_zero();
        directions
            .entry(key(a))
            .or_insert((a, Vec::new()))
            .1
            .push(d);
        directions
            .entry(key(b))
            .or_insert((b, Vec::new()))
            .1
            .push(-d);
    }
    directions
        .into_values()
        .filter(|(_, ds)| {
            ds.iter()
                .any(|d| ds.iter().any(|e| d.cross(*e).length() > 0.05))
        })
        .map(|(p, _)| p)
        .collect()
}

/// The edges that outline a mesh: those between faces that meet at an angle and
/// those on its border, not the diagonals that split a flat side in triangles.
pub(super) fn feature_edges(g: &pebble_model::MeshData) -> Vec<(Vec3, Vec3)> {
    // Positions by value (a primitive's sides have their own vertices).
    let key = |p: Vec3| (p * 1e4).round().as_ivec3().to_array();
    /// An edge's ends and the normals of the faces that share it.
    type Edge = (Vec3, Vec3, Vec<Vec3>);
    let mut edges: HashMap<([i32; 3], [i32; 3]), Edge> = HashMap::new();
    for f in &g.faces {
        let corners = g.triangle(f);
        let normal = (corners[1] - corners[0])
            .cross(corners[2] - corners[0])
            .normalize_or_zero();
        for k in 0..3 {
            let (a, b) = (corners[k], corners[(k + 1) % 3]);
            let (ka, kb) = (key(a), key(b));
            let id = if ka <= kb { (ka, kb) } else { (kb, ka) };
            edges.entry(id).or_insert((a, b, Vec::new())).2.push(normal);
        }
    }
    edges
        .into_values()
        .filter(|(_, _, normals)| {
            normals.len() == 1 || normals.iter().any(|n| n.dot(normals[0]) < 0.999)
        })
        .map(|(a, b, _)| (a, b))
        .collect()
}

/// `p`'s x and z, on the grid of `step` unless `free`.
pub(super) fn snap_xz(p: Vec3, step: f32, free: bool) -> Vec2 {
    let xz = Vec2::new(p.x, p.z);
    if free || !(step.is_finite() && step > 1e-4) {
        xz
    } else {
        (xz / step).round() * step
    }
}

#[cfg(test)]
mod tests {
    use pebble_model::Transform;

    use super::*;
    use crate::navigation::OrbitCamera;
    use pebble_core::create::{self, CreateItem};

    /// A wall (4 × 3 × 0.5 m, its base at y = 0.5 on a floor) seen from above: a
    /// corner drawn near one of its corners lands on it, near its long edge on the
    /// edge, elsewhere on the grid; with Ctrl, nowhere but under the cursor.
    /// A scene of one box of `size` standing at `at`.
    fn one_box(size: Vec3, at: Vec3) -> Scene {
        let mut scene = Scene::new();
        let mut history = pebble_model::History::default();
        history
            .execute(
                &mut scene,
                pebble_model::command::AddMaterial::new(pebble_model::Material::default()),
            )
            .expect("material");
        let material = scene.materials().map(|(id, _)| id).next().expect("one");
        let mut e = create::entity(CreateItem::Box, Vec3::ZERO, Some(material)).expect("a box");
        if let EntityKind::Mesh(m) = &mut e.kind {
            m.geometry = pebble_model::Primitive::Box { size }
                .generate(material)
                .expect("a box");
        }
        e.transform = Transform::from_translation(at);
        history
            .execute(
                &mut scene,
                pebble_model::command::AddEntities::new("Add", vec![e]),
            )
            .expect("add");
        scene
    }

    #[test]
    fn a_corner_snaps_to_a_wall_s_corner_then_its_edge_then_the_grid() {
        let scene = one_box(Vec3::new(4.0, 3.0, 0.5), Vec3::new(0.13, 0.5, 0.0));
        let view = View {
            camera: OrbitCamera {
                pivot: Vec3::new(0.0, 0.5, 0.0),
                distance: 12.0,
                yaw: 0.0,
                pitch: -1.3,
                ..OrbitCamera::default()
            }
            .camera(),
            size: Vec2::new(800.0, 600.0),
        };
        let base = 0.5;
        let corner = Vec3::new(0.13 + 2.0, base, 0.25);
        let near = corner + Vec3::new(0.04, 0.0, 0.05);
        let pixel = view.project(near).expect("in view");
        let (got, snap) = snap_corner(&scene, &view, pixel, near, base, (0.5, false));
        assert_eq!(snap.map(|(_, s)| s), Some(Snap::Vertex));
        assert!(
            (got - Vec2::new(corner.x, corner.z)).length() < 1e-5,
            "{got}"
        );
        // Beside the long edge, away from its corners.
        let by_edge = Vec3::new(0.9, base, 0.25 + 0.04);
        let pixel = view.project(by_edge).expect("in view");
        let (got, snap) = snap_corner(&scene, &view, pixel, by_edge, base, (0.5, false));
        assert_eq!(snap.map(|(_, s)| s), Some(Snap::Edge));
        // On the edge (z = 0.25), where the grid puts it along the edge.
        assert!(
            (got.y - 0.25).abs() < 1e-5 && (got.x - 1.0).abs() < 1e-5,
            "{got}"
        );
        // Far from it: the grid.
        let far = Vec3::new(-3.1, base, 2.9);
        let pixel = view.project(far).expect("in view");
        let (got, snap) = snap_corner(&scene, &view, pixel, far, base, (0.5, false));
        assert_eq!((got, snap), (Vec2::new(-3.0, 3.0), None));
        // Ctrl: free.
        let pixel = view.project(near).expect("in view");
        let (got, snap) = snap_corner(&scene, &view, pixel, near, base, (0.5, true));
        assert_eq!((got, snap), (Vec2::new(near.x, near.z), None));
    }

    /// The report: a wall drawn towards a floor corner out of sight ended a step
    /// or more short (13.75 m of 15). A corner within a step and a half on the
    /// footprint's plane takes the corner, however far it looks on screen (up to
    /// 48 px), and it is among the corners shown near the cursor.
    #[test]
    fn a_corner_near_on_the_plane_snaps_though_far_on_screen() {
        let scene = one_box(Vec3::new(15.0, 0.5, 15.0), Vec3::ZERO);
        // Close to the corner, looking across the edge: 0.3 m is many pixels.
        let view = View {
            camera: OrbitCamera {
                pivot: Vec3::new(7.0, 0.5, 7.35),
                distance: 3.0,
                yaw: std::f32::consts::FRAC_PI_2,
                pitch: -0.6,
                ..OrbitCamera::default()
            }
            .camera(),
            size: Vec2::new(800.0, 600.0),
        };
        let (base, step) = (0.5, 0.25);
        let corner = Vec3::new(7.5, base, 7.5);
        let short = Vec3::new(7.5, base, 7.2);
        let pixel = view.project(short).expect("in view");
        let far_px = view.project(corner).expect("in view").distance(pixel);
        assert!(
            far_px > SNAP_VERTEX_PX,
            "the case: {far_px} px away on screen"
        );
        let (got, snap) = snap_corner(&scene, &view, pixel, short, base, (step, false));
        assert_eq!(snap.map(|(_, s)| s), Some(Snap::Vertex), "{got}");
        assert!((got - Vec2::new(7.5, 7.5)).length() < 1e-5, "{got}");
        let shown = corners_near(&scene, &view, pixel, base);
        assert!(shown.iter().any(|c| c.distance(corner) < 1e-3), "{shown:?}");
    }
}
