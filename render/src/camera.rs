//! Cameras with the PSP runtime's conventions: right-handed, Y up, metres; yaw 0
//! looks down −Z and +yaw turns right; forward = (sin yaw·cos pitch, sin pitch,
//! −cos yaw·cos pitch). Depth maps to wgpu's [0, 1].

use pebble_model::glam::{Mat4, Vec3, Vec4};

/// The runtime's fixed projection: 65° vertical at 16:9, near 0.08, far 200.
pub const PSP_FOV_Y_DEG: f32 = 65.0;
pub const PSP_NEAR: f32 = 0.08;
pub const PSP_FAR: f32 = 200.0;
pub const PSP_WIDTH: u32 = 480;
pub const PSP_HEIGHT: u32 = 272;
/// The aspect the runtime projects with (`sceGumPerspective`'s 16/9), not the
/// screen's 480/272: the device stretches its picture 0.7 % narrower than square
/// pixels would, and the PSP look must draw what the device draws.
pub const PSP_ASPECT: f32 = 16.0 / 9.0;
/// The runtime clamps pitch to ±1.45 rad; top views need a little more.
const PITCH_LIMIT: f32 = std::f32::consts::FRAC_PI_2 - 1e-4;

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Camera {
    pub eye: Vec3,
    /// Radians; 0 looks down −Z, positive turns right.
    pub yaw: f32,
    /// Radians; positive looks up.
    pub pitch: f32,
    pub fov_y_deg: f32,
    pub near: f32,
    pub far: f32,
    /// Orthographic when positive: the height of the view in metres (the editor's
    /// top / front / side views); 0 is perspective with `fov_y_deg`.
    pub ortho_height: f32,
}

/// A fixed orthogonal-ish view direction for `--view`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ViewAxis {
    Top,
    Front,
    Side,
}

impl Camera {
    /// A camera with the runtime's projection.
    pub fn psp(eye: Vec3, yaw: f32, pitch: f32) -> Self {
        Self {
            eye,
            yaw,
            pitch: pitch.clamp(-PITCH_LIMIT, PITCH_LIMIT),
            fov_y_deg: PSP_FOV_Y_DEG,
            near: PSP_NEAR,
            far: PSP_FAR,
            ortho_height: 0.0,
        }
    }

    pub fn forward(&self) -> Vec3 {
        let (sy, cy) = self.yaw.sin_cos();
        let (sp, cp) = self.pitch.clamp(-PITCH_LIMIT, PITCH_LIMIT).sin_cos();
        Vec3::new(sy * cp, sp, -cy * cp)
    }

    /// Right-handed look-along matrix: the camera looks down its −Z with +Y up.
    pub fn view_from_world(&self) -> Mat4 {
        let f = self.forward().normalize_or(Vec3::NEG_Z);
        let s = f.cross(Vec3::Y).normalize_or(Vec3::X);
        let u = s.cross(f);
        Mat4::from_cols(
            Vec4::new(s.x, u.x, -f.x, 0.0),
            Vec4::new(s.y, u.y, -f.y, 0.0),
            Vec4::new(s.z, u.z, -f.z, 0.0),
            Vec4::new(-s.dot(self.eye), -u.dot(self.eye), f.dot(self.eye), 1.0),
        )
    }

    /// Right-handed perspective (or orthographic when `ortho_height` > 0) with depth
    /// mapped to [0, 1] (near → 0).
    pub fn clip_from_view(&self, aspect: f32) -> Mat4 {
        let near = self.near.max(1e-4);
        let far = self.far.max(near + 1e-3);
        if self.ortho_height > 0.0 {
            let h = 2.0 / self.ortho_height;
            let w = h / aspect.max(1e-3);
            let r = 1.0 / (near - far);
            return Mat4::from_cols(
                Vec4::new(w, 0.0, 0.0, 0.0),
                Vec4::new(0.0, h, 0.0, 0.0),
                Vec4::new(0.0, 0.0, r, 0.0),
                Vec4::new(0.0, 0.0, r * near, 1.0),
            );
        }
        let h = 1.0 / (self.fov_y_deg.to_radians().clamp(1e-3, 3.1) * 0.5).tan();
        let w = h / aspect.max(1e-3);
        let r = far / (near - far);
        Mat4::from_cols(
            Vec4::new(w, 0.0, 0.0, 0.0),
            Vec4::new(0.0, h, 0.0, 0.0),
            Vec4::new(0.0, 0.0, r, -1.0),
            Vec4::new(0.0, 0.0, r * near, 0.0),
        )
    }

    pub fn clip_from_world(&self, aspect: f32) -> Mat4 {
        self.clip_from_view(aspect) * self.view_from_world()
    }

    /// A camera that frames the box `lo..hi` from `axis`, far enough to see all of it.
    pub fn framing(lo: Vec3, hi: Vec3, axis: ViewAxis, fov_y_deg: f32) -> Self {
        let centre = (lo + hi) * 0.5;
        let radius = ((hi - lo).length() * 0.5).max(0.5);
        // A sphere of this radius fits the narrower angle at radius / sin(half angle).
        let distance = radius / (fov_y_deg.to_radians() * 0.5).sin().max(0.05) * 1.05;
        let (yaw, pitch, dir) = match axis {
            ViewAxis::Top => (0.0, -PITCH_LIMIT, Vec3::Y),
            ViewAxis::Front => (0.0, 0.0, Vec3::Z),
            ViewAxis::Side => (-std::f32::consts::FRAC_PI_2, 0.0, Vec3::X),
        };
        Self {
            eye: centre + dir * distance,
            yaw,
            pitch,
            fov_y_deg,
            near: (distance - radius).max(0.05) * 0.5,
            far: distance + radius * 2.0,
            ortho_height: 0.0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn yaw_zero_looks_down_negative_z_and_positive_yaw_turns_right() {
        let c = Camera::psp(Vec3::ZERO, 0.0, 0.0);
        assert!((c.forward() - Vec3::NEG_Z).length() < 1e-6);
        let right = Camera::psp(Vec3::ZERO, std::f32::consts::FRAC_PI_2, 0.0);
        assert!((right.forward() - Vec3::X).length() < 1e-6);
        // A point ahead lands in the middle of the screen, in front of the near plane.
        let clip = c.clip_from_world(16.0 / 9.0) * Vec3::new(0.0, 0.0, -5.0).extend(1.0);
        let ndc = clip.truncate() / clip.w;
        assert!(ndc.x.abs() < 1e-6 && ndc.y.abs() < 1e-6 && (0.0..=1.0).contains(&ndc.z));
    }

    #[test]
    fn an_orthographic_camera_keeps_sizes_whatever_the_depth() {
        let c = Camera {
            ortho_height: 10.0,
            ..Camera::psp(Vec3::new(0.0, 0.0, 50.0), 0.0, 0.0)
        };
        let m = c.clip_from_world(2.0);
        for z in [-40.0, 0.0, 40.0] {
            let top = m * Vec3::new(0.0, 5.0, z).extend(1.0);
            let right = m * Vec3::new(10.0, 0.0, z).extend(1.0);
            assert!((top.y / top.w - 1.0).abs() < 1e-5 && (right.x / right.w - 1.0).abs() < 1e-5);
        }
        let depth = |z: f32| {
            let p = m * Vec3::new(0.0, 0.0, z).extend(1.0);
            p.z / p.w
        };
        assert!(depth(50.0 - PSP_NEAR).abs() < 1e-5 && (depth(50.0 - PSP_FAR) - 1.0).abs() < 1e-5);
        assert!(depth(0.0) < depth(-10.0));
    }

    #[test]
    fn a_framing_camera_sees_every_corner() {
        let (lo, hi) = (Vec3::new(-3.0, 0.0, -2.0), Vec3::new(5.0, 2.0, 4.0));
        for axis in [ViewAxis::Top, ViewAxis::Front, ViewAxis::Side] {
            let c = Camera::framing(lo, hi, axis, 60.0);
            let m = c.clip_from_world(1.0);
            for i in 0..8 {
                let p = Vec3::new(
                    if i & 1 == 0 { lo.x } else { hi.x },
                    if i & 2 == 0 { lo.y } else { hi.y },
                    if i & 4 == 0 { lo.z } else { hi.z },
                );
                let clip = m * p.extend(1.0);
                let ndc = clip.truncate() / clip.w;
                assert!(clip.w > 0.0, "{axis:?} corner {p} behind");
                assert!(
                    ndc.x.abs() <= 1.0 && ndc.y.abs() <= 1.0,
                    "{axis:?} corner {p} at {ndc}"
                );
                assert!(
                    (0.0..=1.0).contains(&ndc.z),
                    "{axis:?} corner {p} depth {}",
                    ndc.z
                );
            }
        }
    }
}
