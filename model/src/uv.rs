//! Per-face texture mapping: how a face's UVs (metres on the face, which its
//! material turns into repeats) relate to the world, and the operations the
//! editor's face mode offers on them — offset, rotation, scale, flips, fit to the
//! face, align to the world's axes or to the face, justify — and the texture
//! lock's counterpart, keeping a texture still in the world while its object
//! moves.
//!
//! A face's mapping is read against its *world axes*: the two world axes of the
//! plane its normal is closest to (as Quake and TrenchBroom project textures),
//! signed so that the texture reads the right way round and upright seen from the
//! front (a picture's first row, v = 0, at the top of a wall).
//! When a vertex edit reshapes faces, [`follow_reshape`] keeps their textures
//! still in the world, so a wall pulled taller shows more of its texture instead
//! of a smear.
//! UVs are always stored per corner; a mapping is found from them (an affine fit,
//! exact for a triangle) and written back to them, so nothing new is stored.

use glam::{Affine3A, DMat2, DVec2, DVec3, Mat2, Vec2, Vec3};

use crate::mesh::MeshData;

/// The world axes (U, V) a face with this normal is projected along: U to the
/// right seen from the front, V down the face (a picture's rows run down), as the
/// primitives' own UVs are made — so a texture reads upright on a wall.
pub fn world_axes(normal: Vec3) -> (Vec3, Vec3) {
    let a = normal.abs();
    let (axis, u) = if a.y >= a.x && a.y >= a.z {
        (Vec3::Y * normal.y.signum(), Vec3::X)
    } else if a.x >= a.z {
        let axis = Vec3::X * normal.x.signum();
        (axis, if normal.x > 0.0 { Vec3::NEG_Z } else { Vec3::Z })
    } else {
        let axis = Vec3::Z * normal.z.signum();
        (axis, if normal.z > 0.0 { Vec3::X } else { Vec3::NEG_X })
    };
    (u, u.cross(axis))
}

/// A face's texture placement against its world axes: `uv = R(rotation) ·
/// diag(1 / scale) · (world point on the axes) + offset`. A scale of 2 shows the
/// texture twice as large; a negative one flips it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct UvMapping {
    /// Where the texture starts, in UV metres.
    pub offset: Vec2,
    /// Radians, counter-clockwise seen from the front.
    pub rotation: f32,
    pub scale: Vec2,
}

impl Default for UvMapping {
    fn default() -> Self {
        Self {
            offset: Vec2::ZERO,
            rotation: 0.0,
            scale: Vec2::ONE,
        }
    }
}

impl UvMapping {
    fn matrix(&self) -> Mat2 {
        let s = Vec2::new(safe_inverse(self.scale.x), safe_inverse(self.scale.y));
        Mat2::from_angle(self.rotation) * Mat2::from_diagonal(s)
    }

    /// The mapping whose matrix is closest to `m` without shear: the rotation of
    /// its first column, the scales along and across it. A mirrored mapping reads
    /// as a flip along U (a negative U scale), not as a half turn.
    fn from_affine(m: Mat2, offset: Vec2) -> Self {
        let c0 = m.x_axis;
        let len0 = c0.length();
        if len0 < 1e-12 {
            return Self {
                offset,
                ..Self::default()
            };
        }
        let det = m.determinant();
        let (rotation, along) = if det < 0.0 {
            ((-c0.y).atan2(-c0.x), -len0)
        } else {
            (c0.y.atan2(c0.x), len0)
        };
        Self {
            offset,
            rotation,
            scale: Vec2::new(safe_inverse(along), safe_inverse(det.abs() / len0)),
        }
    }
}

fn safe_inverse(x: f32) -> f32 {
    if x.abs() < 1e-12 { 1.0 } else { 1.0 / x }
}

/// The corners of face `face` in the world, and its unit normal there.
fn world_corners(mesh: &MeshData, face: usize, world: &Affine3A) -> Option<([Vec3; 3], Vec3)> {
    let f = mesh.faces.get(face)?;
    let corners = mesh.triangle(f).map(|p| world.transform_point3(p));
    let normal = (corners[1] - corners[0])
        .cross(corners[2] - corners[0])
        .normalize_or_zero();
    (normal != Vec3::ZERO).then_some((corners, normal))
}

/// The world points on a face's world axes.
fn on_axes(corners: &[Vec3; 3], normal: Vec3) -> [Vec2; 3] {
    let (u, v) = world_axes(normal);
    corners.map(|p| Vec2::new(p.dot(u), p.dot(v)))
}

/// The world points on a face's world axes, in double precision (a fit over a
/// small face far from the origin needs it).
fn on_axes_dvec(corners: &[DVec3; 3], normal: Vec3) -> [DVec2; 3] {
    let (u, v) = world_axes(normal);
    let (u, v) = (u.as_dvec3(), v.as_dvec3());
    corners.map(|p| DVec2::new(p.dot(u), p.dot(v)))
}

/// A face's world corners transformed in double precision (the texture lock's
/// round trips through skinny, scaled faces far from the origin lost 1e-4 of a
/// repeat in single precision), and its unit normal.
fn world_corners_f64(mesh: &MeshData, face: usize, world: &Affine3A) -> Option<([DVec3; 3], Vec3)> {
    let f = mesh.faces.get(face)?;
    let m = glam::Mat4::from(*world).as_dmat4();
    let corners = mesh.triangle(f).map(|p| m.transform_point3(p.as_dvec3()));
    let normal = (corners[1] - corners[0])
        .cross(corners[2] - corners[0])
        .normalize_or_zero()
        .as_vec3();
    (normal != Vec3::ZERO).then_some((corners, normal))
}

/// The affine map from points on the axes to UVs through three corners.
fn fit_f64(points: &[DVec2; 3], uvs: &[Vec2; 3]) -> Option<(DMat2, DVec2)> {
    let dp = DMat2::from_cols(points[1] - points[0], points[2] - points[0]);
    if dp.determinant().abs() < 1e-18 {
        return None;
    }
    let uvs = uvs.map(|u| u.as_dvec2());
    let du = DMat2::from_cols(uvs[1] - uvs[0], uvs[2] - uvs[0]);
    let m = du * dp.inverse();
    Some((m, uvs[0] - m * points[0]))
}

fn fit(points: &[Vec2; 3], uvs: &[Vec2; 3]) -> Option<(Mat2, Vec2)> {
    fit_f64(&points.map(|p| p.as_dvec2()), uvs).map(|(m, t)| (m.as_mat2(), t.as_vec2()))
}

/// Face `face`'s mapping, placed in the world by `world`.
pub fn mapping_of(mesh: &MeshData, face: usize, world: &Affine3A) -> Option<UvMapping> {
    let (corners, normal) = world_corners(mesh, face, world)?;
    let (m, t) = fit(&on_axes(&corners, normal), &mesh.faces[face].uvs)?;
    Some(UvMapping::from_affine(m, t))
}

/// The UVs `mapping` gives face `face`.
pub fn uvs_for(
    mesh: &MeshData,
    face: usize,
    world: &Affine3A,
    mapping: &UvMapping,
) -> Option<[Vec2; 3]> {
    let (corners, normal) = world_corners(mesh, face, world)?;
    let m = mapping.matrix();
    Some(on_axes(&corners, normal).map(|p| m * p + mapping.offset))
}

/// New UVs for `faces`, each face's mapping changed by `change` (faces without
/// an area are left out).
pub fn remap(
    mesh: &MeshData,
    faces: &[usize],
    world: &Affine3A,
    mut change: impl FnMut(UvMapping) -> UvMapping,
) -> Vec<(usize, [Vec2; 3])> {
    faces
        .iter()
        .filter_map(|&f| {
            let now = mapping_of(mesh, f, world)?;
            uvs_for(mesh, f, world, &change(now)).map(|uvs| (f, uvs))
        })
        .collect()
}

/// The bounds of `uvs` over the faces.
fn uv_bounds(uvs: &[(usize, [Vec2; 3])]) -> Option<(Vec2, Vec2)> {
    let mut it = uvs.iter().flat_map(|(_, c)| c.iter().copied());
    let first = it.next()?;
    Some(it.fold((first, first), |(lo, hi), p| (lo.min(p), hi.max(p))))
}

/// Shifts every UV of `uvs` by `d`.
fn shifted(mut uvs: Vec<(usize, [Vec2; 3])>, d: Vec2) -> Vec<(usize, [Vec2; 3])> {
    for (_, c) in &mut uvs {
        for p in c {
            *p += d;
        }
    }
    uvs
}

/// Aligned to the world's axes: textures run on across neighbouring faces.
pub fn align_to_world(
    mesh: &MeshData,
    faces: &[usize],
    world: &Affine3A,
) -> Vec<(usize, [Vec2; 3])> {
    remap(mesh, faces, world, |_| UvMapping::default())
}

/// Aligned to the face: U along the faces' outline edge that is most level in
/// the world (the longest of those), from its first corner, at the texture's own
/// size — a wall's bottom edge, a ramp's width.
pub fn align_to_face(
    mesh: &MeshData,
    faces: &[usize],
    world: &Affine3A,
) -> Vec<(usize, [Vec2; 3])> {
    let mut uses: std::collections::HashMap<(u32, u32), usize> = std::collections::HashMap::new();
    for &f in faces {
        if let Some(face) = mesh.faces.get(f) {
            for k in 0..3 {
                let (a, b) = (face.indices[k], face.indices[(k + 1) % 3]);
                *uses.entry((a.min(b), a.max(b))).or_default() += 1;
            }
        }
    }
    let corner = |i: u32| {
        world.transform_point3(
            mesh.positions
                .get(i as usize)
                .copied()
                .unwrap_or(Vec3::ZERO),
        )
    };
    // Outline edges, in the winding of the face they belong to.
    let mut best: Option<(usize, Vec3, Vec3, f32, f32)> = None;
    for &f in faces {
        let Some(face) = mesh.faces.get(f) else {
            continue;
        };
        for k in 0..3 {
            let (a, b) = (face.indices[k], face.indices[(k + 1) % 3]);
            if uses.get(&(a.min(b), a.max(b))).copied().unwrap_or(0) != 1 {
                continue;
            }
            let (pa, pb) = (corner(a), corner(b));
            let d = pb - pa;
            let len = d.length();
            if len < 1e-9 {
                continue;
            }
            let slope = (d.y / len).abs();
            let better = match best {
                None => true,
                Some((_, _, _, s, l)) => slope < s - 1e-4 || (slope <= s + 1e-4 && len > l + 1e-6),
            };
            if better {
                best = Some((f, pa, pb, slope, len));
            }
        }
    }
    let Some((f, pa, pb, _, _)) = best else {
        return Vec::new();
    };
    let Some((_, normal)) = world_corners(mesh, f, world) else {
        return Vec::new();
    };
    let (u, v) = world_axes(normal);
    let edge = Vec2::new((pb - pa).dot(u), (pb - pa).dot(v));
    let rotation = -edge.y.atan2(edge.x);
    let start = Mat2::from_angle(rotation) * Vec2::new(pa.dot(u), pa.dot(v));
    remap(mesh, faces, world, |_| UvMapping {
        offset: -start,
        rotation,
        scale: Vec2::ONE,
    })
}

/// One repeat of the texture over the faces' extent (`tiling`: the material's
/// metres per repeat), keeping their rotation.
pub fn fit_to_faces(
    mesh: &MeshData,
    faces: &[usize],
    world: &Affine3A,
    tiling: Vec2,
) -> Vec<(usize, [Vec2; 3])> {
    let Some(rotation) = faces
        .iter()
        .find_map(|&f| mapping_of(mesh, f, world))
        .map(|m| m.rotation)
    else {
        return Vec::new();
    };
    let unit = remap(mesh, faces, world, |_| UvMapping {
        rotation,
        ..UvMapping::default()
    });
    let Some((lo, hi)) = uv_bounds(&unit) else {
        return unit;
    };
    let extent = (hi - lo).max(Vec2::splat(1e-6));
    let scale = extent / tiling.max(Vec2::splat(1e-6));
    let fitted = remap(mesh, faces, world, |_| UvMapping {
        rotation,
        scale,
        offset: Vec2::ZERO,
    });
    match uv_bounds(&fitted) {
        Some((lo, _)) => shifted(fitted, -lo),
        None => fitted,
    }
}

/// Where [`justify`] puts the texture's edge.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Justify {
    Left,
    Right,
    Top,
    Bottom,
    Centre,
}

/// Moves the texture so that a repeat's edge (or its middle) meets the faces'
/// edge, keeping its size and rotation. `uv` metres per repeat: `tiling`.
pub fn justify(
    mesh: &MeshData,
    faces: &[usize],
    tiling: Vec2,
    to: Justify,
) -> Vec<(usize, [Vec2; 3])> {
    let now: Vec<(usize, [Vec2; 3])> = faces
        .iter()
        .filter_map(|&f| mesh.faces.get(f).map(|face| (f, face.uvs)))
        .collect();
    let Some((lo, hi)) = uv_bounds(&now) else {
        return now;
    };
    let snap = |x: f32, t: f32| x - (x / t).floor() * t;
    let t = tiling.max(Vec2::splat(1e-6));
    let d = match to {
        Justify::Left => Vec2::new(-snap(lo.x, t.x), 0.0),
        Justify::Right => Vec2::new(t.x - snap(hi.x, t.x), 0.0)
            .map(|x| if (x - t.x).abs() < 1e-6 { 0.0 } else { x }),
        Justify::Bottom => Vec2::new(0.0, -snap(lo.y, t.y)),
        Justify::Top => Vec2::new(0.0, t.y - snap(hi.y, t.y))
            .map(|x| if (x - t.y).abs() < 1e-6 { 0.0 } else { x }),
        Justify::Centre => {
            let mid = (lo + hi) * 0.5;
            Vec2::new(t.x * 0.5 - snap(mid.x, t.x), t.y * 0.5 - snap(mid.y, t.y))
        }
    };
    shifted(now, d)
}

/// The UVs that keep a face's texture where it is in the world as its corners
/// go from `was` to `now` (world corners and unit normal): the mapping fitted to
/// `uvs` at `was`, read at `now`. The axes depend only on the plane a normal is
/// closest to, so a face that stays closest to it keeps the very same
/// projection (corners that did not move keep their UVs exactly); one turned
/// past 45° takes the new plane's, which does not flatten it. `None` for a face
/// without an area at `was`.
fn still_in_world(
    uvs: &[Vec2; 3],
    (c0, n0): ([DVec3; 3], Vec3),
    (c1, n1): ([DVec3; 3], Vec3),
) -> Option<[DVec2; 3]> {
    let (m, t) = fit_f64(&on_axes_dvec(&c0, n0), uvs)?;
    Some(on_axes_dvec(&c1, n1).map(|p| m * p + t))
}

/// Texture lock off: the UVs that keep each face's texture where it is in the
/// world when its mesh moves from `before` to `after` (a move slides the face
/// under a still texture; a scale keeps its texel size). Each face's UVs are then
/// moved by whole repeats (`repeat`: its material's metres per repeat) so that
/// they stay near the origin, which looks the same and keeps their precision.
pub fn keep_in_world(
    mesh: &MeshData,
    before: &Affine3A,
    after: &Affine3A,
    repeat: impl Fn(crate::id::MaterialId) -> Vec2,
) -> Vec<(usize, [Vec2; 3])> {
    (0..mesh.faces.len())
        .filter_map(|f| {
            let uvs = still_in_world(
                &mesh.faces[f].uvs,
                world_corners_f64(mesh, f, before)?,
                world_corners_f64(mesh, f, after)?,
            )?;
            let centre = (uvs[0] + uvs[1] + uvs[2]) / 3.0;
            let r = repeat(mesh.faces[f].material)
                .as_dvec2()
                .max(DVec2::splat(1e-6));
            let whole = (centre / r).floor() * r;
            Some((f, uvs.map(|p| (p - whole).as_vec2())))
        })
        .collect()
}

/// After a vertex edit moved `moved` (vertex indices) of a mesh from `before` to
/// `after` (the same faces, corners moved): new UVs that keep each *reshaped*
/// face's texture where it was in the world, at the same texel size — a side
/// pulled taller shows more of its texture rather than the old UVs stretched over
/// it. A face some of whose corners moved is reshaped. A face all of whose
/// corners moved goes along as a whole: with `lock` (the texture lock) it keeps
/// its UVs, as an object moved with the lock on does; without, it too keeps its
/// texture still in the world. The corners that did not move keep their UVs.
/// Faces without an area before or after are left as they are.
pub fn follow_reshape(
    before: &MeshData,
    after: &MeshData,
    moved: &[u32],
    world: &Affine3A,
    lock: bool,
) -> Vec<(usize, [Vec2; 3])> {
    let moved: std::collections::HashSet<u32> = moved.iter().copied().collect();
    (0..before.faces.len().min(after.faces.len()))
        .filter_map(|f| {
            let indices = before.faces[f].indices;
            let n = indices.iter().filter(|i| moved.contains(i)).count();
            if n == 0 || (n == 3 && lock) {
                return None;
            }
            let uvs = still_in_world(
                &before.faces[f].uvs,
                world_corners_f64(before, f, world)?,
                world_corners_f64(after, f, world)?,
            )?;
            Some((f, uvs.map(|p| p.as_vec2())))
        })
        .collect()
}
