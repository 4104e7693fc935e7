//! Editing a mesh's faces as a modeller does: which vertices move with picked
//! faces (every vertex at one of their corners, so a box side pulled out keeps
//! the box closed), moving them, extruding faces along their normal with side
//! walls, flipping and deleting faces. Each returns new geometry; the
//! [`crate::command::EditMesh`] step puts it in place.

use std::collections::{BTreeSet, HashMap};

use glam::{Affine3A, Vec2, Vec3};

use crate::mesh::{Face, MeshData};

/// A position rounded to a hundredth of a millimetre: corners closer than that
/// are one corner.
fn key(p: Vec3) -> [i64; 3] {
    [p.x, p.y, p.z].map(|c| (f64::from(c) * 1e5).round() as i64)
}

/// Every vertex at a corner of one of `faces` (by where it is, not only by
/// index), sorted.
pub fn welded_vertices(mesh: &MeshData, faces: &[usize]) -> Vec<u32> {
    let corners: BTreeSet<[i64; 3]> = faces
        .iter()
        .filter_map(|&f| mesh.faces.get(f))
        .flat_map(|f| mesh.triangle(f))
        .map(key)
        .collect();
    (0..mesh.positions.len() as u32)
        .filter(|&i| corners.contains(&key(mesh.positions[i as usize])))
        .collect()
}

/// `mesh` with `vertices` moved by `change` (in the mesh's space: the caller
/// turns a world-space move into it).
pub fn moved(mesh: &MeshData, vertices: &[u32], change: impl Fn(Vec3) -> Vec3) -> MeshData {
    let mut out = mesh.clone();
    for &v in vertices {
        if let Some(p) = out.positions.get_mut(v as usize) {
            *p = change(*p);
        }
    }
    out
}

/// The world-space change `world_change` applied in the space of a mesh placed
/// by `world`.
pub fn in_mesh_space(world: Affine3A, world_change: Affine3A) -> impl Fn(Vec3) -> Vec3 {
    let inverse = world.inverse();
    move |p| inverse.transform_point3(world_change.transform_point3(world.transform_point3(p)))
}

/// `faces` turned to face the other way.
pub fn flipped(mesh: &MeshData, faces: &[usize]) -> MeshData {
    let mut out = mesh.clone();
    for &f in faces {
        if let Some(face) = out.faces.get_mut(f) {
            face.indices.swap(1, 2);
            face.uvs.swap(1, 2);
        }
    }
    out
}

/// `mesh` without `faces`, and without the vertices no face uses any more.
pub fn without_faces(mesh: &MeshData, faces: &[usize]) -> MeshData {
    let gone: BTreeSet<usize> = faces.iter().copied().collect();
    let kept: Vec<Face> = mesh
        .faces
        .iter()
        .enumerate()
        .filter(|(i, _)| !gone.contains(i))
        .map(|(_, f)| *f)
        .collect();
    let mut used = vec![false; mesh.positions.len()];
    for f in &kept {
        for &i in &f.indices {
            if let Some(u) = used.get_mut(i as usize) {
                *u = true;
            }
        }
    }
    let mut remap = vec![u32::MAX; mesh.positions.len()];
    let mut out = MeshData {
        positions: Vec::new(),
        colors: mesh.colors.as_ref().map(|_| Vec::new()),
        normals: mesh.normals.as_ref().map(|_| Vec::new()),
        faces: Vec::new(),
    };
    for (i, u) in used.iter().enumerate() {
        if *u {
            remap[i] = out.positions.len() as u32;
            out.positions.push(mesh.positions[i]);
            if let (Some(dst), Some(src)) = (&mut out.colors, &mesh.colors) {
                dst.push(src[i]);
            }
            if let (Some(dst), Some(src)) = (&mut out.normals, &mesh.normals) {
                dst.push(src[i]);
            }
        }
    }
    out.faces = kept
        .into_iter()
        .map(|f| Face {
            indices: f.indices.map(|i| remap[i as usize]),
            ..f
        })
        .collect();
    out
}

/// The unit normal of face `f` in the mesh's space.
fn normal(mesh: &MeshData, f: &Face) -> Vec3 {
    let [a, b, c] = mesh.triangle(f);
    (b - a).cross(c - a).normalize_or_zero()
}

/// `faces` pushed `distance` along their mean normal, with a wall of two
/// triangles along each edge of their outline joining them to where they were
/// (the walls take the material of the face they rise from, UVs in metres). The
/// moved faces keep their material and UVs. Returns the new geometry and the
/// moved faces' indices (the same faces: they are moved, the walls are new).
pub fn extruded(mesh: &MeshData, faces: &[usize], distance: f32) -> (MeshData, Vec<usize>) {
    let picked: Vec<usize> = faces
        .iter()
        .copied()
        .filter(|&f| f < mesh.faces.len())
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    let mut out = mesh.clone();
    if picked.is_empty() {
        return (out, picked);
    }
    let mean = picked
        .iter()
        .map(|&f| normal(mesh, &mesh.faces[f]))
        .sum::<Vec3>()
        .normalize_or_zero();
    let offset = mean * distance;
    // The outline: edges (by position) only one picked face has, in its winding.
    // Each edge by its ends: how many picked faces have it, the first one's
    // index and its corners in that face's winding.
    type Edges = HashMap<([i64; 3], [i64; 3]), (usize, usize, u32, u32)>;
    let mut edges = Edges::new();
    for &f in &picked {
        let face = mesh.faces[f];
        for k in 0..3 {
            let (a, b) = (face.indices[k], face.indices[(k + 1) % 3]);
            let (ka, kb) = (
                key(mesh.positions[a as usize]),
                key(mesh.positions[b as usize]),
            );
            let e = if ka <= kb { (ka, kb) } else { (kb, ka) };
            edges.entry(e).or_insert((0, f, a, b)).0 += 1;
        }
    }
    // New corners for the moved faces, one per old corner position.
    let mut new_vertex: HashMap<[i64; 3], u32> = HashMap::new();
    let mut corner = |out: &mut MeshData, i: u32| -> u32 {
        let p = mesh.positions[i as usize];
        *new_vertex.entry(key(p)).or_insert_with(|| {
            out.positions.push(p + offset);
            if let Some(c) = &mut out.colors {
                c.push(mesh.colors.as_ref().map_or([1.0; 4], |src| src[i as usize]));
            }
            if let Some(n) = &mut out.normals {
                n.push(mesh.normals.as_ref().map_or(Vec3::Y, |src| src[i as usize]));
            }
            (out.positions.len() - 1) as u32
        })
    };
    for &f in &picked {
        let indices = mesh.faces[f].indices;
        let moved = indices.map(|i| corner(&mut out, i));
        out.faces[f].indices = moved;
    }
    let mut outline: Vec<(usize, u32, u32)> = edges
        .into_values()
        .filter(|(n, ..)| *n == 1)
        .map(|(_, f, a, b)| (f, a, b))
        .collect();
    outline.sort_unstable();
    for (f, a, b) in outline {
        let (a2, b2) = (corner(&mut out, a), corner(&mut out, b));
        let material = mesh.faces[f].material;
        let (pa, pb) = (mesh.positions[a as usize], mesh.positions[b as usize]);
        let along = (pb - pa).length();
        let up = offset.length();
        // The wall runs a → b along the old edge and b' → a' along the moved one:
        // each of its edges meets its neighbour's the other way round, so the
        // surface stays closed whichever way the faces went. Its texture reads
        // from the moved edge down (V in metres, a picture's rows run down).
        let uv = [
            Vec2::new(0.0, up),
            Vec2::new(along, up),
            Vec2::new(along, 0.0),
            Vec2::ZERO,
        ];
        out.faces.push(Face {
            indices: [a, b, b2],
            uvs: [uv[0], uv[1], uv[2]],
            material,
        });
        out.faces.push(Face {
            indices: [a, b2, a2],
            uvs: [uv[0], uv[2], uv[3]],
            material,
        });
    }
    (out, picked)
}

/// Every vertex at the place of one of `vertices`, sorted.
pub fn welded_with(mesh: &MeshData, vertices: &[u32]) -> Vec<u32> {
    let places: BTreeSet<[i64; 3]> = vertices
        .iter()
        .filter_map(|&v| mesh.positions.get(v as usize))
        .map(|p| key(*p))
        .collect();
    (0..mesh.positions.len() as u32)
        .filter(|&i| places.contains(&key(mesh.positions[i as usize])))
        .collect()
}

/// `vertices` (with every vertex at their places) merged into one corner at their
/// middle; faces left without an area go, and vertices no face uses. The faces
/// it reshapes keep their textures in place ([`crate::uv::follow_reshape`]).
pub fn merged(mesh: &MeshData, vertices: &[u32]) -> MeshData {
    let all = welded_with(mesh, vertices);
    if all.is_empty() {
        return mesh.clone();
    }
    let places: BTreeSet<[i64; 3]> = all
        .iter()
        .map(|&v| key(mesh.positions[v as usize]))
        .collect();
    // The middle of the distinct places (a corner shared by three sides counts once).
    let mut seen = BTreeSet::new();
    let mut sum = Vec3::ZERO;
    for &v in &all {
        let p = mesh.positions[v as usize];
        if seen.insert(key(p)) {
            sum += p;
        }
    }
    let middle = sum / places.len() as f32;
    let mut out = moved(mesh, &all, |_| middle);
    // The faces the merge reshapes keep their textures in place (in the mesh's
    // space: a reshape within a face's plane maps the same in any).
    for (f, uvs) in crate::uv::follow_reshape(mesh, &out, &all, &Affine3A::IDENTITY, true) {
        out.faces[f].uvs = uvs;
    }
    let flat: Vec<usize> = (0..out.faces.len())
        .filter(|&f| {
            let [a, b, c] = out.triangle(&out.faces[f]).map(key);
            a == b || b == c || c == a
        })
        .collect();
    out = without_faces(&out, &flat);
    out
}

/// `edges` (pairs of vertex indices, matched by where their ends are) split at
/// their middles: each face along one becomes two, its UVs (and colours)
/// interpolated, so neighbouring faces stay joined.
pub fn split_edges(mesh: &MeshData, edges: &[(u32, u32)]) -> MeshData {
    let mut out = mesh.clone();
    for &(a, b) in edges {
        let (Some(&pa), Some(&pb)) = (
            mesh.positions.get(a as usize),
            mesh.positions.get(b as usize),
        ) else {
            continue;
        };
        let (ka, kb) = (key(pa), key(pb));
        if ka == kb {
            continue;
        }
        // A new middle vertex per pair of vertex indices along the edge.
        let mut middles: HashMap<(u32, u32), u32> = HashMap::new();
        let mut k = 0;
        while k < out.faces.len() {
            let face = out.faces[k];
            let corners = face.indices.map(|i| key(out.positions[i as usize]));
            let side = (0..3).find(|&s| {
                let (x, y) = (corners[s], corners[(s + 1) % 3]);
                (x == ka && y == kb) || (x == kb && y == ka)
            });
            let Some(s) = side else {
                k += 1;
                continue;
            };
            let (i, j, l) = (
                face.indices[s],
                face.indices[(s + 1) % 3],
                face.indices[(s + 2) % 3],
            );
            let m = *middles.entry((i.min(j), i.max(j))).or_insert_with(|| {
                let p = (out.positions[i as usize] + out.positions[j as usize]) * 0.5;
                out.positions.push(p);
                if let Some(c) = &mut out.colors {
                    let (ci, cj) = (c[i as usize], c[j as usize]);
                    c.push([0, 1, 2, 3].map(|n| (ci[n] + cj[n]) * 0.5));
                }
                if let Some(n) = &mut out.normals {
                    let nm = (n[i as usize] + n[j as usize]).normalize_or(n[i as usize]);
                    n.push(nm);
                }
                (out.positions.len() - 1) as u32
            });
            let (ui, uj, ul) = (face.uvs[s], face.uvs[(s + 1) % 3], face.uvs[(s + 2) % 3]);
            let um = (ui + uj) * 0.5;
            out.faces[k] = Face {
                indices: [i, m, l],
                uvs: [ui, um, ul],
                material: face.material,
            };
            out.faces.insert(
                k + 1,
                Face {
                    indices: [m, j, l],
                    uvs: [um, uj, ul],
                    material: face.material,
                },
            );
            k += 2;
        }
    }
    out
}
