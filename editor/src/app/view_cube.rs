//! The view cube's maths, free of UI: a unit cube split into 54 cells (per side a
//! centre = the face, four edge strips, four corners), turned with the view and
//! projected orthographically; which cell is under a point; and the view that
//! looks from a cell's direction.

use pebble_model::glam::{IVec3, Vec2, Vec3};

use super::navigation::PITCH_LIMIT;

/// The corner cells' share of a side (each edge strip is as wide).
const BORDER: f32 = 0.22;

/// One cell of the cube's surface.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Cell {
    /// Where the view comes from when the cell is clicked: one non-zero component
    /// for a face, two for an edge, three for a corner.
    pub dir: IVec3,
    /// The side it lies on.
    pub normal: Vec3,
    /// Its corners on the cube [−1, 1]³, counter-clockwise seen from outside.
    pub corners: [Vec3; 4],
}

impl Cell {
    pub fn is_face(&self) -> bool {
        self.dir.abs().element_sum() == 1
    }
}

/// The side labels, by outward normal.
pub fn face_name(normal: Vec3) -> &'static str {
    match (normal.x as i32, normal.y as i32, normal.z as i32) {
        (1, _, _) => "Right",
        (-1, _, _) => "Left",
        (_, 1, _) => "Top",
        (_, -1, _) => "Bottom",
        (_, _, 1) => "Front",
        _ => "Back",
    }
}

/// All 54 cells.
pub fn cells() -> Vec<Cell> {
    let mut out = Vec::with_capacity(54);
    let bands = [
        (-1.0, -1.0 + 2.0 * BORDER, -1),
        (-1.0 + 2.0 * BORDER, 1.0 - 2.0 * BORDER, 0),
        (1.0 - 2.0 * BORDER, 1.0, 1),
    ];
    for axis in 0..3 {
        for sign in [-1i32, 1] {
            let mut normal = Vec3::ZERO;
            normal[axis] = sign as f32;
            // Two in-plane axes forming a right-handed frame with the normal.
            let (u, v) = ((axis + 1) % 3, (axis + 2) % 3);
            for (u0, u1, du) in bands {
                for (v0, v1, dv) in bands {
                    let at = |a: f32, b: f32| {
                        let mut p = normal;
                        p[u] = a;
                        p[v] = b;
                        p
                    };
                    let mut corners = [at(u0, v0), at(u1, v0), at(u1, v1), at(u0, v1)];
                    if sign < 0 {
                        corners.reverse();
                    }
                    let mut dir = IVec3::ZERO;
                    dir[axis] = sign;
                    dir[u] = du;
                    dir[v] = dv;
                    out.push(Cell {
                        dir,
                        normal,
                        corners,
                    });
                }
            }
        }
    }
    out
}

/// The view's basis for a yaw and pitch: (right, up, towards the viewer).
fn basis(yaw: f32, pitch: f32) -> (Vec3, Vec3, Vec3) {
    let (sy, cy) = yaw.sin_cos();
    let (sp, cp) = pitch.sin_cos();
    let forward = Vec3::new(sy * cp, sp, -cy * cp);
    let right = forward.cross(Vec3::Y).normalize_or(Vec3::X);
    let up = right.cross(forward);
    (right, up, -forward)
}

/// Where a point of the cube lands, in cube radii from the centre, y down.
pub fn project(yaw: f32, pitch: f32, p: Vec3) -> Vec2 {
    let (r, u, _) = basis(yaw, pitch);
    Vec2::new(p.dot(r), -p.dot(u))
}

/// The cells facing the viewer, with their projected corners.
pub fn visible(yaw: f32, pitch: f32) -> Vec<(Cell, [Vec2; 4])> {
    let (_, _, toward) = basis(yaw, pitch);
    cells()
        .into_iter()
        .filter(|c| c.normal.dot(toward) > 1e-3)
        .map(|c| (c, c.corners.map(|p| project(yaw, pitch, p))))
        .collect()
}

/// The cell under `p` (in cube radii from the centre, y down).
pub fn hit(yaw: f32, pitch: f32, p: Vec2) -> Option<Cell> {
    visible(yaw, pitch)
        .into_iter()
        .find(|(_, q)| super::gizmo::inside_quad(p, *q))
        .map(|(c, _)| c)
}

/// The yaw and pitch that look at the centre from `dir` (pitch within the
/// navigation's ±89°).
pub fn yaw_pitch_from(dir: IVec3) -> (f32, f32) {
    let forward = -dir.as_vec3().normalize_or(Vec3::Z);
    let pitch = forward
        .y
        .clamp(-1.0, 1.0)
        .asin()
        .clamp(-PITCH_LIMIT, PITCH_LIMIT);
    // Straight up or down: keep looking "north" (yaw 0).
    let yaw = if forward.x.abs() + forward.z.abs() < 1e-6 {
        0.0
    } else {
        forward.x.atan2(-forward.z)
    };
    (yaw, pitch)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cells_cover_each_side_once() {
        let all = cells();
        assert_eq!(all.len(), 54);
        assert_eq!(all.iter().filter(|c| c.is_face()).count(), 6);
        // 12 edges and 8 corners, each reachable from every side it touches.
        let mut dirs: Vec<IVec3> = all.iter().map(|c| c.dir).collect();
        dirs.sort_by_key(|d| (d.x, d.y, d.z));
        dirs.dedup();
        assert_eq!(dirs.len(), 26);
        // Cells face outwards: counter-clockwise seen from outside.
        for c in &all {
            let n = (c.corners[1] - c.corners[0]).cross(c.corners[2] - c.corners[1]);
            assert!(n.dot(c.normal) > 0.0, "{c:?}");
        }
    }

    #[test]
    fn the_cell_in_the_middle_is_the_face_the_view_looks_at() {
        let (yaw, pitch) = yaw_pitch_from(IVec3::Z);
        let c = hit(yaw, pitch, Vec2::ZERO).expect("a cell");
        assert_eq!(face_name(c.normal), "Front");
        assert!(c.is_face());
        // From the top: the middle is Top, and the strip towards the screen's bottom
        // is the top-front edge (the view is "north up").
        let (yaw, pitch) = yaw_pitch_from(IVec3::Y);
        assert!(pitch < -1.5);
        let c = hit(yaw, pitch, Vec2::ZERO).expect("a cell");
        assert_eq!(face_name(c.normal), "Top");
        let c = hit(yaw, pitch, Vec2::new(0.0, 0.85)).expect("a cell");
        assert_eq!(c.dir, IVec3::new(0, 1, 1));
    }

    #[test]
    fn clicking_a_corner_looks_from_that_corner() {
        // An iso view from front-right-top: the middle of the cube is that corner.
        let (yaw, pitch) = yaw_pitch_from(IVec3::new(1, 1, 1));
        let c = hit(yaw, pitch, Vec2::ZERO).expect("a cell");
        assert_eq!(c.dir, IVec3::new(1, 1, 1));
        let forward = Vec3::new(
            yaw.sin() * pitch.cos(),
            pitch.sin(),
            -yaw.cos() * pitch.cos(),
        );
        assert!(forward.dot(-Vec3::ONE.normalize()) > 0.9999, "{forward}");
        // Three sides show, and a point outside the cube hits nothing.
        let sides: std::collections::BTreeSet<&str> = visible(yaw, pitch)
            .iter()
            .map(|(c, _)| face_name(c.normal))
            .collect();
        assert_eq!(sides.len(), 3);
        assert!(hit(yaw, pitch, Vec2::new(3.0, 0.0)).is_none());
    }

    #[test]
    fn every_cell_clicked_turns_the_view_to_look_from_its_direction() {
        for c in cells() {
            let (yaw, pitch) = yaw_pitch_from(c.dir);
            let (_, _, toward) = basis(yaw, pitch);
            let d = c.dir.as_vec3().normalize();
            // Straight up and down are limited to 89°.
            assert!(toward.dot(d) > 0.9998, "{:?}: {toward}", c.dir);
        }
    }
}
