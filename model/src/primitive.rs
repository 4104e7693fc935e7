//! Primitives whose parameters stay editable: changing one regenerates the geometry.
//! All sit on y = 0 (their base) centred on the origin in X and Z; UVs are in metres.

use std::f32::consts::PI;

use glam::{Vec2, Vec3};
use serde::{Deserialize, Serialize};

use crate::id::MaterialId;
use crate::limit::{Limit, limits};
use crate::mesh::{MeshBuilder, MeshData};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Primitive {
    /// A box of this size (metres).
    Box { size: Vec3 },
    /// A flat rectangle facing +Y, raised by `standoff` above the surface it was
    /// drawn on (decals, water sheets).
    Plane {
        width: f32,
        depth: f32,
        standoff: f32,
    },
    /// A ramp rising from the front (+Z) to the back (−Z).
    Wedge { width: f32, height: f32, depth: f32 },
    /// A flight of `steps` steps climbing toward −Z.
    Stairs {
        steps: u32,
        width: f32,
        rise: f32,
        run: f32,
    },
    /// An upright prism with `sides` sides (a cylinder at 12+).
    Cylinder {
        radius: f32,
        height: f32,
        sides: u32,
    },
    /// A doorway: two jambs and a round arch, `thickness` wide, `depth` deep.
    Arch {
        width: f32,
        height: f32,
        depth: f32,
        thickness: f32,
        segments: u32,
    },
}

/// Parameters a primitive cannot be built from.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{primitive}: {problem}")]
pub struct PrimitiveError {
    pub primitive: &'static str,
    pub problem: String,
}

impl Primitive {
    pub fn kind_name(&self) -> &'static str {
        match self {
            Self::Box { .. } => "box",
            Self::Plane { .. } => "plane",
            Self::Wedge { .. } => "wedge",
            Self::Stairs { .. } => "stairs",
            Self::Cylinder { .. } => "cylinder",
            Self::Arch { .. } => "arch",
        }
    }

    /// Lengths: widths, heights, depths, radii, rises, runs, thicknesses.
    pub const LENGTH: Limit = limits::SIZE;
    /// How far a plane floats above the surface it was drawn on.
    pub const STANDOFF: Limit = Limit::new(0.0, 1.0, " m");
    pub const STEPS: Limit = Limit::whole(1.0, 256.0, "");
    pub const SIDES: Limit = Limit::whole(3.0, 128.0, "");
    pub const SEGMENTS: Limit = Limit::whole(2.0, 64.0, "");

    /// Every parameter finite and within its limit, and an arch that fits.
    pub fn check(&self) -> Result<(), PrimitiveError> {
        let fail = |problem: String| PrimitiveError {
            primitive: self.kind_name(),
            problem,
        };
        let len = |name: &str, v: f32| Self::LENGTH.check_named(name, f64::from(v)).map_err(fail);
        let count =
            |name: &str, limit: Limit, v: u32| limit.check_named(name, f64::from(v)).map_err(fail);
        match *self {
            Self::Box { size } => {
                len("width", size.x)?;
                len("height", size.y)?;
                len("depth", size.z)
            }
            Self::Plane {
                width,
                depth,
                standoff,
            } => {
                len("width", width)?;
                len("depth", depth)?;
                Self::STANDOFF
                    .check_named("standoff", f64::from(standoff))
                    .map_err(fail)
            }
            Self::Wedge {
                width,
                height,
                depth,
            } => {
                len("width", width)?;
                len("height", height)?;
                len("depth", depth)
            }
            Self::Stairs {
                steps,
                width,
                rise,
                run,
            } => {
                count("steps", Self::STEPS, steps)?;
                len("width", width)?;
                len("rise", rise)?;
                len("run", run)
            }
            Self::Cylinder {
                radius,
                height,
                sides,
            } => {
                count("sides", Self::SIDES, sides)?;
                len("radius", radius)?;
                len("height", height)
            }
            Self::Arch {
                width,
                height,
                depth,
                thickness,
                segments,
            } => {
                len("width", width)?;
                len("height", height)?;
                len("depth", depth)?;
                len("thickness", thickness)?;
                count("segments", Self::SEGMENTS, segments)?;
                if 2.0 * thickness >= width {
                    return Err(fail(format!(
                        "thickness {thickness} leaves no opening in a {width} m wide arch"
                    )));
                }
                if height <= width / 2.0 {
                    return Err(fail(format!(
                        "height {height} must exceed half the width ({}) to fit the arch",
                        width / 2.0
                    )));
                }
                Ok(())
            }
        }
    }

    /// The geometry, every face with `material`.
    pub fn generate(&self, material: MaterialId) -> Result<MeshData, PrimitiveError> {
        self.check()?;
        let mut b = MeshBuilder::default();
        match *self {
            Self::Box { size } => {
                let h = Vec3::new(size.x / 2.0, 0.0, size.z / 2.0);
                b.cuboid(-h, h + Vec3::Y * size.y, material);
            }
            Self::Plane {
                width,
                depth,
                standoff,
            } => {
                let (x, z) = (width / 2.0, depth / 2.0);
                let y = standoff;
                let first = b.mesh.faces.len();
                b.polygon(
                    &[
                        Vec3::new(-x, y, z),
                        Vec3::new(x, y, z),
                        Vec3::new(x, y, -z),
                        Vec3::new(-x, y, -z),
                    ],
                    Vec3::Y,
                    material,
                );
                // A picture reads upright from the front: U along +X and V along +Z
                // (towards the viewer's bottom edge seen from above with -Z ahead),
                // as images store their top row first. Generic planar UVs run V the
                // other way and showed every picture mirrored top to bottom.
                let mesh = &mut b.mesh;
                for f in &mut mesh.faces[first..] {
                    for (k, &i) in f.indices.iter().enumerate() {
                        let p = mesh.positions[i as usize];
                        f.uvs[k] = Vec2::new(p.x + x, p.z + z);
                    }
                }
            }
            Self::Wedge {
                width,
                height,
                depth,
            } => {
                let (x, z) = (width / 2.0, depth / 2.0);
                let fl = Vec3::new(-x, 0.0, z);
                let fr = Vec3::new(x, 0.0, z);
                let bl = Vec3::new(-x, 0.0, -z);
                let br = Vec3::new(x, 0.0, -z);
                let tl = Vec3::new(-x, height, -z);
                let tr = Vec3::new(x, height, -z);
                let slope_normal = Vec3::new(0.0, depth, height);
                b.polygon(&[fl, fr, tr, tl], slope_normal, material);
                b.polygon(&[bl, br, tr, tl], Vec3::NEG_Z, material);
                b.polygon(&[fl, fr, br, bl], Vec3::NEG_Y, material);
                b.polygon(&[fl, bl, tl], Vec3::NEG_X, material);
                b.polygon(&[fr, br, tr], Vec3::X, material);
            }
            Self::Stairs {
                steps,
                width,
                rise,
                run,
            } => {
                let x = width / 2.0;
                // Centred on the origin in Z like every primitive: the first step's
                // front at +Z, the top's back at −Z.
                let half = steps as f32 * run / 2.0;
                for i in 0..steps {
                    let top = (i + 1) as f32 * rise;
                    let front = half - i as f32 * run;
                    b.cuboid(
                        Vec3::new(-x, 0.0, front - run),
                        Vec3::new(x, top, front),
                        material,
                    );
                }
            }
            Self::Cylinder {
                radius,
                height,
                sides,
            } => {
                let ring: Vec<Vec3> = (0..sides)
                    .map(|k| {
                        let a = 2.0 * PI * k as f32 / sides as f32;
                        Vec3::new(radius * a.cos(), 0.0, -radius * a.sin())
                    })
                    .collect();
                for k in 0..sides as usize {
                    let (p, q) = (ring[k], ring[(k + 1) % sides as usize]);
                    let up = Vec3::Y * height;
                    b.polygon(&[p, q, q + up, p + up], (p + q) * 0.5, material);
                }
                b.polygon(&ring, Vec3::NEG_Y, material);
                let top: Vec<Vec3> = ring.iter().map(|p| *p + Vec3::Y * height).collect();
                b.polygon(&top, Vec3::Y, material);
            }
            Self::Arch {
                width,
                height,
                depth,
                thickness,
                segments,
            } => {
                let half = width / 2.0;
                let inner_r = half - thickness;
                let spring = height - half; // where the arch starts
                let z = depth / 2.0;
                // Jambs.
                b.cuboid(
                    Vec3::new(-half, 0.0, -z),
                    Vec3::new(-inner_r, spring, z),
                    material,
                );
                b.cuboid(
                    Vec3::new(inner_r, 0.0, -z),
                    Vec3::new(half, spring, z),
                    material,
                );
                // Voussoirs between the inner arc and the outer arc.
                let centre = Vec3::new(0.0, spring, 0.0);
                let point =
                    |r: f32, a: f32, zz: f32| centre + Vec3::new(r * a.cos(), r * a.sin(), zz);
                for k in 0..segments {
                    let a0 = PI * k as f32 / segments as f32;
                    let a1 = PI * (k + 1) as f32 / segments as f32;
                    let mid = (a0 + a1) / 2.0;
                    let radial = Vec3::new(mid.cos(), mid.sin(), 0.0);
                    let (i0f, i1f) = (point(inner_r, a0, z), point(inner_r, a1, z));
                    let (o0f, o1f) = (point(half, a0, z), point(half, a1, z));
                    let (i0b, i1b) = (point(inner_r, a0, -z), point(inner_r, a1, -z));
                    let (o0b, o1b) = (point(half, a0, -z), point(half, a1, -z));
                    b.polygon(&[i0f, o0f, o1f, i1f], Vec3::Z, material);
                    b.polygon(&[i0b, o0b, o1b, i1b], Vec3::NEG_Z, material);
                    b.polygon(&[o0f, o0b, o1b, o1f], radial, material);
                    b.polygon(&[i0f, i0b, i1b, i1f], -radial, material);
                }
            }
        }
        Ok(b.finish())
    }
}
