//! View maths and the view's state: the camera the viewport looks through (an
//! orbit camera, eased towards where a zoom, a framing or the view cube sends it),
//! and [`View`], the camera with the viewport's size in pixels, which projects
//! world points to pixels and pixels to rays (the gizmo, picking and the tools use
//! it).

use pebble_model::Aabb;
use pebble_model::glam::{IVec3, Mat4, Vec2, Vec3};
use pebble_render::Camera;

use super::navigation::{Face, OrbitCamera, PITCH_LIMIT};

/// Easing time constants: a wheel zoom settles in ~120 ms, a framing or a view
/// change in ~220 ms (95 % of the way in three of them).
pub const ZOOM_EASE: f32 = 0.04;
pub const VIEW_EASE: f32 = 0.073;

/// A view the gizmo is drawn in: camera and viewport size in pixels.
#[derive(Debug, Clone, Copy)]
pub struct View {
    pub camera: Camera,
    pub size: Vec2,
}

impl View {
    fn clip_from_world(&self) -> Mat4 {
        self.camera
            .clip_from_world(self.size.x / self.size.y.max(1.0))
    }

    /// The pixel a world point lands on, or `None` behind the camera.
    pub fn project(&self, p: Vec3) -> Option<Vec2> {
        let c = self.clip_from_world() * p.extend(1.0);
        (c.w > 1e-6).then(|| {
            let ndc = c.truncate() / c.w;
            Vec2::new(
                (ndc.x * 0.5 + 0.5) * self.size.x,
                (0.5 - ndc.y * 0.5) * self.size.y,
            )
        })
    }

    /// The ray (origin, unit direction) under a pixel.
    pub fn ray(&self, pixel: Vec2) -> (Vec3, Vec3) {
        let inv = self.clip_from_world().inverse();
        let ndc = Vec2::new(
            pixel.x / self.size.x * 2.0 - 1.0,
            1.0 - pixel.y / self.size.y * 2.0,
        );
        let near = inv.project_point3(ndc.extend(0.0));
        let far = inv.project_point3(ndc.extend(1.0));
        (near, (far - near).normalize_or(self.camera.forward()))
    }

    /// World length of the handles at `pivot`, so they keep their size on screen.
    pub fn handle_length(&self, pivot: Vec3) -> f32 {
        if self.camera.ortho_height > 0.0 {
            return self.camera.ortho_height * 0.5 * SCREEN_SIZE;
        }
        let depth = (pivot - self.camera.eye)
            .dot(self.camera.forward())
            .max(self.camera.near);
        depth * (self.camera.fov_y_deg.to_radians() * 0.5).tan() * SCREEN_SIZE
    }

    /// Metres a pixel spans at `p`'s depth (the same everywhere when orthographic).
    pub fn metres_per_pixel(&self, p: Vec3) -> f32 {
        let camera = &self.camera;
        if camera.ortho_height > 0.0 {
            camera.ortho_height / self.size.y.max(1.0)
        } else {
            let depth = (p - camera.eye).dot(camera.forward()).max(camera.near);
            2.0 * depth * (camera.fov_y_deg.to_radians() * 0.5).tan() / self.size.y.max(1.0)
        }
    }

    /// The segment `from`–`to` as a quad (two triangles) facing the camera,
    /// `width` pixels wide on screen whatever its depth; a point (`from == to`) as
    /// a square that wide. `None` behind the camera.
    pub fn screen_quad(&self, from: Vec3, to: Vec3, width: f32) -> Option<[Vec3; 6]> {
        let (a, b) = (self.project(from)?, self.project(to)?);
        let forward = self.camera.forward();
        let right = forward.cross(Vec3::Y).normalize_or(Vec3::X);
        let up = right.cross(forward);
        let along = b - a;
        let (from, to, normal) = if along.length_squared() < 1e-6 {
            // A point: a square, its sides `width` apart.
            let half = right * self.metres_per_pixel(from) * width * 0.5;
            (from - half, to + half, Vec2::Y)
        } else {
            (from, to, along.perp().normalize())
        };
        // Screen y grows downwards.
        let side =
            |p: Vec3| (right * normal.x - up * normal.y) * self.metres_per_pixel(p) * width * 0.5;
        let (sa, sb) = (side(from), side(to));
        Some([from - sa, from + sa, to + sb, from - sa, to + sb, to - sb])
    }

    /// The unit direction from `p` towards the viewer.
    pub fn towards_viewer(&self, p: Vec3) -> Vec3 {
        if self.camera.ortho_height > 0.0 {
            -self.camera.forward()
        } else {
            (self.camera.eye - p).normalize_or(-self.camera.forward())
        }
    }
}

/// Where the viewport looks from, and where it is going.
#[derive(Debug, Clone, Copy, Default)]
pub struct ViewState {
    /// The camera as drawn this frame.
    pub orbit: OrbitCamera,
    /// Where the view is going (a wheel zoom, a framing, a view cube click) and
    /// the easing's time constant.
    pub target: Option<(OrbitCamera, f32)>,
    /// The picture's width / height, as last drawn (what F fills).
    pub aspect: f32,
}

impl ViewState {
    /// A view framing `bounds` (the default view when there is nothing).
    pub fn framing(bounds: Option<Aabb>) -> Self {
        let mut orbit = OrbitCamera::default();
        if let Some(b) = bounds {
            orbit.frame(b.min, b.max);
        }
        Self {
            orbit,
            target: None,
            aspect: 16.0 / 9.0,
        }
    }

    /// Where the view is going (or is, when it is still).
    pub fn goal(&self) -> OrbitCamera {
        self.target.map_or(self.orbit, |(t, _)| t)
    }

    /// Eases the view to `to` over ~220 ms.
    pub fn go_to(&mut self, to: OrbitCamera) {
        self.target = Some((to, VIEW_EASE));
    }

    /// Stops a transition in flight where it is (another navigation took over).
    pub fn stop(&mut self) {
        self.target = None;
    }

    /// Frames `bounds`, keeping the direction and projection.
    pub fn frame(&mut self, bounds: Option<Aabb>) {
        if let Some(b) = bounds {
            let mut to = self.goal();
            to.frame_fit(b.min, b.max, self.aspect);
            self.go_to(to);
        }
    }

    /// Looks at the pivot from `dir` (a view cube cell), keeping pivot, distance
    /// and projection.
    pub fn look_from(&mut self, dir: IVec3) {
        let mut to = self.goal();
        (to.yaw, to.pitch) = yaw_pitch_from(dir);
        self.go_to(to);
    }

    /// The view cube's home: an iso view from front-right-top framing `bounds`.
    pub fn home(&mut self, bounds: Option<Aabb>) {
        let mut to = self.goal();
        (to.yaw, to.pitch) = yaw_pitch_from(IVec3::new(1, 1, 1));
        to.ortho = false;
        if let Some(b) = bounds {
            to.frame_fit(b.min, b.max, self.aspect);
        }
        self.go_to(to);
    }

    /// Perspective ↔ orthographic, eased, keeping the view.
    pub fn toggle_projection(&mut self) {
        let mut to = self.goal();
        to.ortho = !to.ortho;
        self.go_to(to);
    }

    /// An orthographic view from `face`.
    pub fn ortho_view(&mut self, face: Face) {
        let mut to = self.goal();
        to.ortho_from(face);
        self.go_to(to);
    }

    /// Moves the view `dt` seconds further towards its target (exponential
    /// easing). Returns whether it is still moving.
    pub fn ease(&mut self, dt: f32) -> bool {
        let Some((target, ease)) = self.target else {
            return false;
        };
        let k = 1.0 - (-dt / ease).exp();
        self.orbit = self.orbit.lerp(&target, k);
        if self.orbit.close_to(&target) {
            self.orbit = target;
            self.target = None;
        }
        true
    }
}

/// The gizmo's handle length as a fraction of the viewport's half height.
pub const SCREEN_SIZE: f32 = 0.22;

/// Whether `p` lies inside the convex quad `q` (either winding).
pub(super) fn inside_quad(p: Vec2, q: [Vec2; 4]) -> bool {
    let s: [f32; 4] = std::array::from_fn(|k| (q[(k + 1) % 4] - q[k]).perp_dot(p - q[k]));
    s.iter().all(|v| *v >= 0.0) || s.iter().all(|v| *v <= 0.0)
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
    fn a_pixel_s_ray_passes_through_the_point_that_projects_to_it() {
        let orbit = OrbitCamera {
            pivot: Vec3::new(1.0, 2.0, -3.0),
            ..Default::default()
        };
        let view = View {
            camera: orbit.camera(),
            size: Vec2::new(800.0, 600.0),
        };
        let p = Vec3::new(1.5, 2.5, -2.0);
        let pixel = view.project(p).expect("in front");
        let (origin, dir) = view.ray(pixel);
        let along = (p - origin).dot(dir);
        assert!((origin + dir * along - p).length() < 1e-3);
    }

    #[test]
    fn easing_reaches_the_target_and_stops() {
        let mut v = ViewState::framing(None);
        let mut to = v.orbit;
        to.distance *= 2.0;
        v.go_to(to);
        let mut frames = 0;
        while v.ease(1.0 / 60.0) {
            frames += 1;
            assert!(frames < 600, "never settles");
        }
        assert_eq!(v.orbit.distance, to.distance);
        assert!(v.target.is_none());
        assert!(frames > 3, "eased, not a jump: {frames} frames");
    }
}
