//! View-frustum culling of axis-aligned boxes. Conservative: a box is culled only
//! when it lies wholly outside one plane, so nothing visible is ever dropped.

use pebble_model::glam::{Mat4, Vec3, Vec4};

/// The six planes of a `clip_from_world` matrix (wgpu depth [0, 1]), each
/// `n·p + d ≥ 0` inside, normalised.
#[derive(Debug, Clone, Copy)]
pub struct Frustum {
    planes: [Vec4; 6],
}

impl Frustum {
    pub fn from_clip_from_world(m: Mat4) -> Self {
        let r = [m.row(0), m.row(1), m.row(2), m.row(3)];
        let planes = [
            r[3] + r[0],
            r[3] - r[0],
            r[3] + r[1],
            r[3] - r[1],
            r[2],
            r[3] - r[2],
        ]
        .map(|p| {
            let len = p.truncate().length();
            if len > 0.0 { p / len } else { p }
        });
        Self { planes }
    }

    /// Whether any part of the box `lo..hi` may be inside.
    pub fn intersects(&self, lo: Vec3, hi: Vec3) -> bool {
        // A small tolerance keeps boxes that touch a plane (rounding would cull
        // a vertex sitting exactly on it).
        let slack = 1e-4 * (1.0 + lo.abs().max(hi.abs()).max_element());
        self.planes.iter().all(|p| {
            let n = p.truncate();
            let far_corner = Vec3::select(n.cmpge(Vec3::ZERO), hi, lo);
            n.dot(far_corner) + p.w >= -slack
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::camera::Camera;
    use proptest::prelude::*;

    fn inside_clip(m: Mat4, p: Vec3) -> bool {
        let c = m * p.extend(1.0);
        c.w > 0.0 && c.x.abs() <= c.w && c.y.abs() <= c.w && c.z >= 0.0 && c.z <= c.w
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]
        /// Whenever any vertex of a chunk projects inside the clip volume, the chunk
        /// is drawn: the culling never drops something visible.
        #[test]
        fn no_chunk_with_a_visible_vertex_is_culled(
            eye in prop::array::uniform3(-50.0f32..50.0),
            yaw in -7.0f32..7.0,
            pitch in -1.5f32..1.5,
            fov in 20.0f32..110.0,
            aspect in 0.5f32..3.0,
            centre in prop::array::uniform3(-60.0f32..60.0),
            half in prop::array::uniform3(0.0f32..20.0),
            points in prop::collection::vec(prop::array::uniform3(-1.0f32..=1.0), 1..40),
        ) {
            let camera = Camera {
                eye: Vec3::from(eye),
                yaw,
                pitch,
                fov_y_deg: fov,
                near: 0.08,
                far: 200.0,
                ortho_height: 0.0,
            };
            let m = camera.clip_from_world(aspect);
            let (c, h) = (Vec3::from(centre), Vec3::from(half));
            let verts: Vec<Vec3> = points.iter().map(|p| c + Vec3::from(*p) * h).collect();
            let (lo, hi) = verts.iter().fold(
                (Vec3::splat(f32::INFINITY), Vec3::splat(f32::NEG_INFINITY)),
                |(lo, hi), v| (lo.min(*v), hi.max(*v)),
            );
            let frustum = Frustum::from_clip_from_world(m);
            if verts.iter().any(|v| inside_clip(m, *v)) {
                prop_assert!(frustum.intersects(lo, hi), "culled a visible chunk {lo}..{hi}");
            }
        }
    }

    #[test]
    fn boxes_behind_or_beside_the_camera_are_culled() {
        let camera = Camera::psp(Vec3::ZERO, 0.0, 0.0);
        let f = Frustum::from_clip_from_world(camera.clip_from_world(16.0 / 9.0));
        assert!(f.intersects(Vec3::new(-1.0, -1.0, -11.0), Vec3::new(1.0, 1.0, -9.0)));
        assert!(
            !f.intersects(Vec3::new(-1.0, -1.0, 9.0), Vec3::new(1.0, 1.0, 11.0)),
            "behind"
        );
        assert!(
            !f.intersects(Vec3::new(50.0, -1.0, -6.0), Vec3::new(52.0, 1.0, -4.0)),
            "right"
        );
        assert!(
            !f.intersects(Vec3::new(-1.0, -1.0, -300.0), Vec3::new(1.0, 1.0, -250.0)),
            "far"
        );
    }
}
