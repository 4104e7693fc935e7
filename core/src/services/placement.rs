//! Where an imported model goes and how big it comes in: a scale or a fit of its
//! longest side, which way its file's up is, where the middle of its base stands;
//! and a guess at units that look wrong (a model kilometres tall is most likely in
//! centimetres). The import window and `pebble import` share it.

use std::f32::consts::FRAC_PI_2;

use pebble_model::glam::{Affine3A, Quat, Vec3};
use pebble_model::{Aabb, Transform};

/// Which way the file's up is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Up {
    #[default]
    Y,
    Z,
}

/// How big the model comes in.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Size {
    /// The file's units times this.
    Scale(f32),
    /// The longest side this many metres.
    Fit(f32),
}

/// What the import does with the model: its size, its up, where it stands.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Placement {
    /// The model's bounds as read (before any of this).
    pub raw: Aabb,
    pub size: Size,
    pub up: Up,
    /// Where the middle of its base goes.
    pub at: Vec3,
}

impl Placement {
    pub fn scale(&self) -> f32 {
        match self.size {
            Size::Scale(s) => s,
            Size::Fit(metres) => {
                let longest = (self.raw.max - self.raw.min).max_element();
                if longest > 1e-9 {
                    metres / longest
                } else {
                    1.0
                }
            }
        }
    }

    fn turn(&self) -> Quat {
        up_turn(self.up)
    }

    /// The model's bounds once scaled and turned (not yet moved).
    pub fn bounds(&self) -> Aabb {
        let m = Affine3A::from_scale_rotation_translation(
            Vec3::splat(self.scale()),
            self.turn(),
            Vec3::ZERO,
        );
        Aabb::from_points(self.raw.corners().map(|c| m.transform_point3(c))).unwrap_or(self.raw)
    }

    /// A root's transform in the import made into its placed one.
    pub fn apply(&self, t: Transform) -> Transform {
        let b = self.bounds();
        let base = Vec3::new(
            (b.min.x + b.max.x) * 0.5,
            b.min.y,
            (b.min.z + b.max.z) * 0.5,
        );
        let whole = Affine3A::from_scale_rotation_translation(
            Vec3::splat(self.scale()),
            self.turn(),
            self.at - base,
        );
        Transform::from_affine(whole * t.to_affine())
    }
}

/// A likely fix for a model whose size as read (`raw`, with `up`) suggests other
/// units: the scale to offer and what it looks like. Level designers arrive with
/// Sketchfab models in centimetres (a 10 m house reads 1000 units tall) and CAD
/// files in millimetres; nothing a PSP map holds is a kilometre tall.
pub fn units_hint(raw: &Aabb, up: Up) -> Option<(f32, &'static str)> {
    let size = raw.max - raw.min;
    let tall = match up {
        Up::Y => size.y,
        Up::Z => size.z,
    };
    let longest = size.max_element();
    if !longest.is_finite() {
        return None;
    }
    if tall > 20_000.0 || longest > 100_000.0 {
        Some((0.001, "millimetres"))
    } else if tall > 200.0 || longest > 5_000.0 {
        Some((0.01, "centimetres"))
    } else if longest > 0.0 && longest < 0.02 {
        Some((100.0, "a model under 2 cm long"))
    } else {
        None
    }
}

/// Whether the import applies [`units_hint`]'s `scale` by itself: centimetres
/// and millimetres (a model hundreds of metres tall, which no PSP map holds)
/// are fixed and said; a tiny model is only said (it may be a detail meant so).
pub fn fixed_at_import(scale: f32) -> bool {
    scale < 1.0
}

/// What the import says when it fixed the units: the size as read, the scale,
/// and how to keep the file's size.
pub fn units_fixed_line(raw: &Aabb, up: Up, scale: f32, units: &str) -> String {
    let size = raw.max - raw.min;
    let tall = match up {
        Up::Y => size.y,
        Up::Z => size.z,
    };
    format!(
        "the model reads {tall:.0} m tall ({:.0} m at its longest), so it is most likely in {units}: scaled by {scale} to metres (import with --scale 1, or Scale 1 in the import window, to keep the file's size)",
        size.max_element()
    )
}

/// [`Placement::scale`] and the up turn applied about the origin, without moving
/// the model anywhere (the command line's import keeps where the file put it).
pub fn about_origin(scale: f32, up: Up, t: Transform) -> Transform {
    let whole =
        Affine3A::from_scale_rotation_translation(Vec3::splat(scale), up_turn(up), Vec3::ZERO);
    Transform::from_affine(whole * t.to_affine())
}

fn up_turn(up: Up) -> Quat {
    match up {
        Up::Y => Quat::IDENTITY,
        // +Z up becomes +Y up: a quarter turn about X.
        Up::Z => Quat::from_rotation_x(-FRAC_PI_2),
    }
}

/// How an imported picture stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum PictureOrientation {
    /// Lying on the floor, its top away from the view.
    OnTheFloor,
    /// Upright on the floor, facing the view across (a poster, a sign).
    #[default]
    OnAWall,
    /// Turned to face the view, up and down too.
    FacingTheCamera,
}

impl PictureOrientation {
    pub const ALL: [Self; 3] = [Self::OnTheFloor, Self::OnAWall, Self::FacingTheCamera];

    pub fn label(self) -> &'static str {
        match self {
            Self::OnTheFloor => "on the floor",
            Self::OnAWall => "on a wall (upright)",
            Self::FacingTheCamera => "facing the camera",
        }
    }
}

/// Where an imported picture goes: a plane (as the image importer makes it, flat,
/// one metre deep for the picture's height) scaled to `height` metres, turned as
/// `orientation` says towards a view looking along `yaw` and `pitch` (the editor's
/// camera: yaw 0 looks down −Z), standing on `at` (the middle of its lower edge
/// there; lying flat, its middle, a centimetre up so it never fights the floor).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PicturePlacement {
    pub height: f32,
    pub orientation: PictureOrientation,
    pub at: Vec3,
    pub yaw: f32,
    pub pitch: f32,
}

impl PicturePlacement {
    /// The plane's transform in the import made into its placed one.
    pub fn apply(&self, t: Transform) -> Transform {
        let s = if self.height.is_finite() && self.height > 1e-4 {
            self.height
        } else {
            1.0
        };
        let face = Quat::from_rotation_y(-self.yaw);
        let (turn, lift) = match self.orientation {
            PictureOrientation::OnTheFloor => (face, Vec3::Y * 0.01),
            // The plane's up (its normal) turned to face the view; its far edge
            // (the picture's top) up.
            PictureOrientation::OnAWall => {
                (face * Quat::from_rotation_x(FRAC_PI_2), Vec3::Y * s * 0.5)
            }
            PictureOrientation::FacingTheCamera => (
                face * Quat::from_rotation_x(FRAC_PI_2 + self.pitch),
                Vec3::Y * s * 0.5,
            ),
        };
        let whole = Affine3A::from_scale_rotation_translation(Vec3::splat(s), turn, self.at + lift);
        Transform::from_affine(whole * t.to_affine())
    }
}

#[cfg(test)]
mod picture_tests {
    use super::*;

    /// On a wall the picture stands upright on the point, facing the view; lying
    /// on the floor it is flat a centimetre up; facing the camera its face looks
    /// back along the view.
    #[test]
    fn a_picture_stands_lies_or_faces_the_view_as_chosen() {
        let place = |orientation, yaw: f32, pitch: f32| {
            PicturePlacement {
                height: 2.0,
                orientation,
                at: Vec3::new(3.0, 0.5, -1.0),
                yaw,
                pitch,
            }
            .apply(Transform::default())
            .to_affine()
        };
        // The view looks along +X (yaw 90°): a picture on a wall faces −X.
        let wall = place(PictureOrientation::OnAWall, FRAC_PI_2, -0.3);
        let normal = wall.transform_vector3(Vec3::Y).normalize();
        assert!(normal.abs_diff_eq(-Vec3::X, 1e-5), "{normal}");
        // Its lower edge (the plane's near side, +Z) on the point, its top 2 m up.
        let bottom = wall.transform_point3(Vec3::new(0.0, 0.0, 0.5));
        let top = wall.transform_point3(Vec3::new(0.0, 0.0, -0.5));
        assert!(
            bottom.abs_diff_eq(Vec3::new(3.0, 0.5, -1.0), 1e-5),
            "{bottom}"
        );
        assert!(top.abs_diff_eq(Vec3::new(3.0, 2.5, -1.0), 1e-5), "{top}");
        let floor = place(PictureOrientation::OnTheFloor, 0.0, -0.3);
        assert!(
            floor
                .transform_vector3(Vec3::Y)
                .normalize()
                .abs_diff_eq(Vec3::Y, 1e-5)
        );
        assert!((floor.translation.y - 0.51).abs() < 1e-5);
        // Facing a view that looks down 0.3 rad: the face looks back up at it.
        let facing = place(PictureOrientation::FacingTheCamera, 0.0, -0.3);
        let n = facing.transform_vector3(Vec3::Y).normalize();
        let forward = Vec3::new(0.0, (-0.3f32).sin(), -(-0.3f32).cos());
        assert!(n.abs_diff_eq(-forward, 1e-5), "{n} against {forward}");
    }
}
