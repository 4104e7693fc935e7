//! Indexed triangle geometry with per-corner UVs, optional vertex colours and a
//! material per face.

use glam::{Vec2, Vec3};
use serde::{Deserialize, Serialize};

use crate::id::MaterialId;
use crate::math::Aabb;

/// One triangle: three vertex indices (counter-clockwise seen from the front), the
/// UV of each corner (in metres for generated geometry; materials turn metres into
/// repeats) and its material.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Face {
    pub indices: [u32; 3],
    pub uvs: [Vec2; 3],
    pub material: MaterialId,
}

/// Serialised as its fields, or, inside a project save with a binary file, a big
/// one as `sidecar: (at, len)`, its span there (`crate::sidecar` owns both ways).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct MeshData {
    pub positions: Vec<Vec3>,
    /// Linear RGBA per vertex, when the source had colours.
    pub colors: Option<Vec<[f32; 4]>>,
    /// Unit normal per vertex, when the source had them (smooth shading for baking);
    /// otherwise faces are flat.
    pub normals: Option<Vec<Vec3>>,
    pub faces: Vec<Face>,
}

/// Geometry that refers to something that is not there.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum MeshError {
    #[error("face {face} uses vertex {index}, but the mesh has {vertices} vertices")]
    IndexOutOfRange {
        face: usize,
        index: u32,
        vertices: usize,
    },
    #[error("{colors} vertex colours for {vertices} vertices")]
    ColorCount { colors: usize, vertices: usize },
    #[error("{normals} normals for {vertices} vertices")]
    NormalCount { normals: usize, vertices: usize },
}

impl MeshData {
    pub fn aabb(&self) -> Option<Aabb> {
        Aabb::from_points(self.positions.iter().copied())
    }

    pub fn validate(&self) -> Result<(), MeshError> {
        let n = self.positions.len();
        for (face, f) in self.faces.iter().enumerate() {
            if let Some(&index) = f.indices.iter().find(|&&i| i as usize >= n) {
                return Err(MeshError::IndexOutOfRange {
                    face,
                    index,
                    vertices: n,
                });
            }
        }
        if let Some(c) = &self.colors
            && c.len() != n
        {
            return Err(MeshError::ColorCount {
                colors: c.len(),
                vertices: n,
            });
        }
        Ok(())
    }

    /// The corner positions of face `i`.
    pub fn triangle(&self, face: &Face) -> [Vec3; 3] {
        face.indices.map(|i| {
            self.positions
                .get(i as usize)
                .copied()
                .unwrap_or(Vec3::ZERO)
        })
    }

    /// Signed volume (positive for a closed mesh whose faces wind outward).
    pub fn signed_volume(&self) -> f32 {
        self.faces
            .iter()
            .map(|f| {
                let [a, b, c] = self.triangle(f);
                a.dot(b.cross(c)) / 6.0
            })
            .sum()
    }

    /// Materials used, each once, in first-use order.
    pub fn materials(&self) -> Vec<MaterialId> {
        let mut out = Vec::new();
        for f in &self.faces {
            if !out.contains(&f.material) {
                out.push(f.material);
            }
        }
        out
    }

    /// The flat polygon face `face` is part of, as a designer sees "a face": it and
    /// every face reached across shared edges (by vertex index) that lies in its
    /// plane — a box side's two triangles, a floor's triangulated quad. Sorted;
    /// empty for a face that does not exist.
    pub fn polygon_of(&self, face: usize) -> Vec<usize> {
        let Some(start) = self.faces.get(face) else {
            return Vec::new();
        };
        let plane = |f: &Face| {
            let [a, b, c] = self.triangle(f);
            let n = (b - a).cross(c - a).normalize_or_zero();
            (n, n.dot(a))
        };
        let (normal, distance) = plane(start);
        if normal == Vec3::ZERO {
            return vec![face];
        }
        let size = self
            .aabb()
            .map_or(1.0, |b| (b.max - b.min).max_element().max(1e-3));
        let in_plane = |f: &Face| {
            let (n, _) = plane(f);
            n.dot(normal) > 1.0 - 1e-4
                && self
                    .triangle(f)
                    .iter()
                    .all(|p| (normal.dot(*p) - distance).abs() <= 1e-4 * size)
        };
        // Faces by vertex, counted into one flat array (a click on a 10k-triangle
        // mesh pays two passes over its faces, no hashing): a neighbour across
        // edge (a, b) is a face of `a`'s that also holds `b`.
        let vertices = self.positions.len();
        let mut first = vec![0usize; vertices + 1];
        for f in &self.faces {
            for &v in &f.indices {
                if (v as usize) < vertices {
                    first[v as usize + 1] += 1;
                }
            }
        }
        for v in 0..vertices {
            first[v + 1] += first[v];
        }
        let mut next = first.clone();
        let mut faces_of = vec![0usize; first[vertices]];
        for (i, f) in self.faces.iter().enumerate() {
            for &v in &f.indices {
                if let Some(slot) = next.get_mut(v as usize)
                    && (v as usize) < vertices
                {
                    faces_of[*slot] = i;
                    *slot += 1;
                }
            }
        }
        let mut seen = vec![false; self.faces.len()];
        seen[face] = true;
        let mut todo = vec![face];
        let mut out = Vec::new();
        while let Some(i) = todo.pop() {
            out.push(i);
            let f = &self.faces[i];
            for k in 0..3 {
                let (a, b) = (f.indices[k] as usize, f.indices[(k + 1) % 3]);
                if a >= vertices {
                    continue;
                }
                for &j in &faces_of[first[a]..first[a + 1]] {
                    if !seen[j] && self.faces[j].indices.contains(&b) && in_plane(&self.faces[j]) {
                        seen[j] = true;
                        todo.push(j);
                    }
                }
            }
        }
        out.sort_unstable();
        out
    }

    pub fn set_material(&mut self, material: MaterialId) {
        for f in &mut self.faces {
            f.material = material;
        }
    }
}

/// Builds flat-shaded geometry face by face, fixing winding from an outward hint so
/// generators cannot get it wrong.
#[derive(Debug, Default)]
pub struct MeshBuilder {
    pub mesh: MeshData,
}

impl MeshBuilder {
    fn planar_uvs(points: &[Vec3], normal: Vec3) -> Vec<Vec2> {
        // Metres in the face's plane: U along the first edge, V a quarter turn
        // clockwise from it seen from the front — down the face, as a picture's
        // rows run — so a texture reads upright. Shifted to start at 0, so a face
        // no bigger than one repeat stays within it (and can share an atlas).
        let u_axis = (points[1] - points[0]).normalize_or(Vec3::X);
        let v_axis = u_axis.cross(normal).normalize_or(Vec3::NEG_Y);
        let uvs: Vec<Vec2> = points
            .iter()
            .map(|p| {
                let d = *p - points[0];
                Vec2::new(d.dot(u_axis), d.dot(v_axis))
            })
            .collect();
        let lo = uvs.iter().copied().reduce(Vec2::min).unwrap_or(Vec2::ZERO);
        uvs.into_iter().map(|uv| uv - lo).collect()
    }

    /// A convex polygon (3+ points in order) whose front faces `outward`.
    pub fn polygon(&mut self, points: &[Vec3], outward: Vec3, material: MaterialId) {
        if points.len() < 3 {
            return;
        }
        let mut pts = points.to_vec();
        let normal = (pts[1] - pts[0]).cross(pts[2] - pts[0]);
        if normal.dot(outward) < 0.0 {
            pts.reverse();
        }
        let normal = (pts[1] - pts[0])
            .cross(pts[2] - pts[0])
            .normalize_or(outward);
        let uvs = Self::planar_uvs(&pts, normal);
        let base = self.mesh.positions.len() as u32;
        self.mesh.positions.extend_from_slice(&pts);
        for k in 1..pts.len() as u32 - 1 {
            self.mesh.faces.push(Face {
                indices: [base, base + k, base + k + 1],
                uvs: [uvs[0], uvs[k as usize], uvs[k as usize + 1]],
                material,
            });
        }
    }

    /// An axis-aligned box from `min` to `max`, faces outward.
    pub fn cuboid(&mut self, min: Vec3, max: Vec3, material: MaterialId) {
        let corner = |x: bool, y: bool, z: bool| {
            Vec3::new(
                if x { max.x } else { min.x },
                if y { max.y } else { min.y },
                if z { max.z } else { min.z },
            )
        };
        let faces = [
            (
                [
                    corner(false, false, true),
                    corner(true, false, true),
                    corner(true, true, true),
                    corner(false, true, true),
                ],
                Vec3::Z,
            ),
            (
                [
                    corner(true, false, false),
                    corner(false, false, false),
                    corner(false, true, false),
                    corner(true, true, false),
                ],
                Vec3::NEG_Z,
            ),
            (
                [
                    corner(true, false, true),
                    corner(true, false, false),
                    corner(true, true, false),
                    corner(true, true, true),
                ],
                Vec3::X,
            ),
            (
                [
                    corner(false, false, false),
                    corner(false, false, true),
                    corner(false, true, true),
                    corner(false, true, false),
                ],
                Vec3::NEG_X,
            ),
            (
                [
                    corner(false, true, true),
                    corner(true, true, true),
                    corner(true, true, false),
                    corner(false, true, false),
                ],
                Vec3::Y,
            ),
            (
                [
                    corner(false, false, false),
                    corner(true, false, false),
                    corner(true, false, true),
                    corner(false, false, true),
                ],
                Vec3::NEG_Y,
            ),
        ];
        for (pts, outward) in faces {
            self.polygon(&pts, outward, material);
        }
    }

    pub fn finish(self) -> MeshData {
        self.mesh
    }
}
