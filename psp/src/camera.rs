//! The camera with the runtime's conventions (runtime facts §2): right-handed, Y up,
//! metres; yaw 0 looks down −Z, +yaw turns right; forward = (sin yaw·cos pitch,
//! sin pitch, −cos yaw·cos pitch); pitch clamped to ±1.45. Matrices are built here
//! (column-major, as the GE takes them) rather than with the gum helpers, whose
//! matrix stack is broken in psp 0.3.12.

use psp::sys::{ScePspFMatrix4, ScePspFVector4};

pub const NEAR: f32 = 0.08;
pub const FAR: f32 = 200.0;
pub const ASPECT: f32 = 16.0 / 9.0;
pub const PITCH_LIMIT: f32 = 1.45;

#[derive(Clone, Copy, Debug)]
pub struct Camera {
    pub eye: [f32; 3],
    pub yaw: f32,
    pub pitch: f32,
    pub fov_deg: f32,
}

fn cross(a: [f32; 3], b: [f32; 3]) -> [f32; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

fn dot(a: [f32; 3], b: [f32; 3]) -> f32 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

pub fn normalize(a: [f32; 3]) -> [f32; 3] {
    let l = libm::sqrtf(dot(a, a));
    if l > 1e-12 {
        [a[0] / l, a[1] / l, a[2] / l]
    } else {
        a
    }
}

/// A GE matrix from four columns.
pub fn columns(c: [[f32; 4]; 4]) -> ScePspFMatrix4 {
    let v = |k: usize| ScePspFVector4 {
        x: c[k][0],
        y: c[k][1],
        z: c[k][2],
        w: c[k][3],
    };
    ScePspFMatrix4 {
        x: v(0),
        y: v(1),
        z: v(2),
        w: v(3),
    }
}

pub fn identity() -> ScePspFMatrix4 {
    columns([
        [1.0, 0.0, 0.0, 0.0],
        [0.0, 1.0, 0.0, 0.0],
        [0.0, 0.0, 1.0, 0.0],
        [0.0, 0.0, 0.0, 1.0],
    ])
}

impl Camera {
    pub fn forward(&self) -> [f32; 3] {
        let pitch = self.pitch.clamp(-PITCH_LIMIT, PITCH_LIMIT);
        let (sy, cy) = (libm::sinf(self.yaw), libm::cosf(self.yaw));
        let (sp, cp) = (libm::sinf(pitch), libm::cosf(pitch));
        [sy * cp, sp, -cy * cp]
    }

    /// Camera right and up (right = norm(forward × Y), up = right × forward).
    pub fn basis(&self) -> ([f32; 3], [f32; 3], [f32; 3]) {
        let f = self.forward();
        let r = normalize(cross(f, [0.0, 1.0, 0.0]));
        let u = cross(r, f);
        (r, u, f)
    }

    /// Look-along view matrix (the camera looks down its −Z, +Y up).
    pub fn view(&self) -> ScePspFMatrix4 {
        let (s, u, f) = self.basis();
        let e = self.eye;
        columns([
            [s[0], u[0], -f[0], 0.0],
            [s[1], u[1], -f[1], 0.0],
            [s[2], u[2], -f[2], 0.0],
            [-dot(s, e), -dot(u, e), dot(f, e), 1.0],
        ])
    }

    /// OpenGL-style perspective, as `sceGumPerspective` builds it.
    pub fn projection(&self) -> ScePspFMatrix4 {
        let h = 1.0 / libm::tanf(self.fov_deg.clamp(10.0, 170.0).to_radians() * 0.5);
        let w = h / ASPECT;
        let (n, f) = (NEAR, FAR);
        columns([
            [w, 0.0, 0.0, 0.0],
            [0.0, h, 0.0, 0.0],
            [0.0, 0.0, (f + n) / (n - f), -1.0],
            [0.0, 0.0, 2.0 * f * n / (n - f), 0.0],
        ])
    }

    /// Focal length in pixels on the 272-pixel-high screen.
    pub fn focal_px(&self) -> f32 {
        136.0 / libm::tanf(self.fov_deg.clamp(10.0, 170.0).to_radians() * 0.5)
    }
}
