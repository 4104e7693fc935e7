//! Transforms, bounds and a ray against a triangle. Names follow
//! `world_from_local` style: a transform maps points from the entity's space into
//! its parent's.

use glam::{Affine3A, Mat4, Quat, Vec3};
use serde::{Deserialize, Serialize};

/// Translation, rotation (unit quaternion) and scale, applied scale → rotate → translate.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Transform {
    pub translation: Vec3,
    pub rotation: Quat,
    pub scale: Vec3,
}

impl Default for Transform {
    fn default() -> Self {
        Self::IDENTITY
    }
}

impl Transform {
    pub const IDENTITY: Self = Self {
        translation: Vec3::ZERO,
        rotation: Quat::IDENTITY,
        scale: Vec3::ONE,
    };

    pub fn from_translation(translation: Vec3) -> Self {
        Self {
            translation,
            ..Self::IDENTITY
        }
    }

    /// `parent_from_local` as a matrix.
    pub fn to_affine(&self) -> Affine3A {
        Affine3A::from_scale_rotation_translation(self.scale, self.rotation, self.translation)
    }

    pub fn to_mat4(&self) -> Mat4 {
        Mat4::from(self.to_affine())
    }

    /// Decomposes an affine transform (shear is lost).
    pub fn from_affine(a: Affine3A) -> Self {
        let (scale, rotation, translation) = a.to_scale_rotation_translation();
        Self {
            translation,
            rotation: rotation.normalize(),
            scale,
        }
    }
}

/// An axis-aligned box.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Aabb {
    pub min: Vec3,
    pub max: Vec3,
}

impl Aabb {
    pub fn from_points(points: impl IntoIterator<Item = Vec3>) -> Option<Self> {
        let mut it = points.into_iter();
        let first = it.next()?;
        let (min, max) = it.fold((first, first), |(lo, hi), p| (lo.min(p), hi.max(p)));
        Some(Self { min, max })
    }

    pub fn union(self, other: Self) -> Self {
        Self {
            min: self.min.min(other.min),
            max: self.max.max(other.max),
        }
    }

    pub fn center(&self) -> Vec3 {
        (self.min + self.max) * 0.5
    }

    pub fn corners(&self) -> [Vec3; 8] {
        let (a, b) = (self.min, self.max);
        [
            Vec3::new(a.x, a.y, a.z),
            Vec3::new(b.x, a.y, a.z),
            Vec3::new(a.x, b.y, a.z),
            Vec3::new(b.x, b.y, a.z),
            Vec3::new(a.x, a.y, b.z),
            Vec3::new(b.x, a.y, b.z),
            Vec3::new(a.x, b.y, b.z),
            Vec3::new(b.x, b.y, b.z),
        ]
    }

    /// The bounds of this box after a transform.
    pub fn transformed(&self, world_from_local: &Affine3A) -> Self {
        let pts = self.corners().map(|c| world_from_local.transform_point3(c));
        Self::from_points(pts).unwrap_or(*self)
    }
}

/// Where the ray from `origin` along `dir` meets triangle `[p0, p1, p2]`
/// (Möller–Trumbore): its distance in `dir`'s lengths, past `min_t`, and whether
/// it meets the front (counter-clockwise) side.
pub fn ray_triangle(
    origin: Vec3,
    dir: Vec3,
    [p0, p1, p2]: [Vec3; 3],
    min_t: f32,
) -> Option<(f32, bool)> {
    let (e1, e2) = (p1 - p0, p2 - p0);
    let h = dir.cross(e2);
    let det = e1.dot(h);
    if det.abs() < 1e-12 {
        return None;
    }
    let inv = 1.0 / det;
    let s = origin - p0;
    let u = s.dot(h) * inv;
    if !(0.0..=1.0).contains(&u) {
        return None;
    }
    let q = s.cross(e1);
    let v = dir.dot(q) * inv;
    if v < 0.0 || u + v > 1.0 {
        return None;
    }
    let t = e2.dot(q) * inv;
    (t > min_t).then_some((t, det > 0.0))
}
