//! Collision as Godot 4 and Blender users write it into a glTF: the
//! `OMI_physics_body` / `OMI_physics_shape` extensions (Godot 4.3's export; the
//! shapes box, sphere, capsule, cylinder, convex and trimesh), the older
//! `OMI_collider` (Godot 4.1–4.2), and the node-name suffixes Godot's importer
//! reads (`-col`, `-colonly`, `-convcol`, `-convcolonly`). The glTF importer turns
//! what this finds into Pebble colliders.

use pebble_model::glam::Vec3;
use pebble_model::mesh::{Face, MeshData};
use pebble_model::{MaterialId, glam::Vec2};
use serde_json::Value;

/// A collision shape, centred on its node's origin, in the node's units.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Shape {
    Box(Vec3),
    Sphere(f32),
    /// Total height, caps included.
    Capsule {
        radius: f32,
        height: f32,
    },
    Cylinder {
        radius: f32,
        height: f32,
    },
    /// The triangles of the file's mesh of this index (a convex hull is taken
    /// as its mesh).
    Mesh(usize),
}

/// What a node's name suffix says, Godot's way.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Suffix {
    /// Drawn, and collides (`-col`, `-convcol`).
    Collides,
    /// Collides only, never drawn (`-colonly`, `-convcolonly`).
    CollisionOnly,
}

/// `name` without a Godot collision suffix, and what the suffix says.
pub(super) fn suffix(name: &str) -> Option<(&str, Suffix)> {
    let lower = name.to_ascii_lowercase();
    for (ending, what) in [
        ("-convcolonly", Suffix::CollisionOnly),
        ("-colonly", Suffix::CollisionOnly),
        ("-convcol", Suffix::Collides),
        ("-col", Suffix::Collides),
    ] {
        if lower.ends_with(ending) && name.len() > ending.len() {
            return Some((&name[..name.len() - ending.len()], what));
        }
    }
    None
}

/// The collision shape a node carries, if any: `Err` says what could not be read.
pub(super) fn shape_of(
    document: &gltf::Document,
    node: &gltf::Node,
) -> Option<Result<Shape, String>> {
    // OMI_physics_body (Godot 4.3): { motion, collider: { shape }, trigger: { shape } }.
    let body = node.extension_value("OMI_physics_body");
    let index = body
        .and_then(|b| b.get("collider"))
        .and_then(|c| c.get("shape"))
        // The draft before it kept the shape on the node itself.
        .or_else(|| {
            node.extension_value("OMI_physics_shape")
                .and_then(|s| s.get("shape"))
        })
        .and_then(Value::as_u64);
    if let Some(i) = index {
        let shape = document
            .extension_value("OMI_physics_shape")
            .and_then(|s| s.get("shapes"))
            .and_then(|s| s.get(i as usize));
        return Some(match shape {
            Some(s) => omi_shape(s),
            None => Err(format!(
                "OMI_physics_shape {i}, which the file does not hold"
            )),
        });
    }
    // OMI_collider (Godot 4.1–4.2): the node names a collider of the document's list.
    let old = node
        .extension_value("OMI_collider")
        .and_then(|c| c.get("collider"))
        .and_then(Value::as_u64)?;
    let collider = document
        .extension_value("OMI_collider")
        .and_then(|c| c.get("colliders"))
        .and_then(|c| c.get(old as usize));
    Some(match collider {
        Some(c) => old_shape(c),
        None => Err(format!("OMI_collider {old}, which the file does not hold")),
    })
}

fn number(v: Option<&Value>) -> Option<f32> {
    v.and_then(Value::as_f64)
        .map(|x| x as f32)
        .filter(|x| x.is_finite() && *x >= 0.0)
}

fn size3(v: Option<&Value>) -> Option<Vec3> {
    let a = v?.as_array()?;
    let c: Vec<f32> = a.iter().filter_map(|x| number(Some(x))).collect();
    (c.len() == 3).then(|| Vec3::new(c[0], c[1], c[2]))
}

/// A shape of `OMI_physics_shape`'s list: `{ type, box: { size }, sphere: { radius }, … }`.
fn omi_shape(s: &Value) -> Result<Shape, String> {
    let kind = s.get("type").and_then(Value::as_str).unwrap_or("");
    let body = s.get(kind);
    let field = |name: &str| body.and_then(|b| b.get(name));
    let bad = || format!("an OMI_physics_shape {kind} without its sizes");
    match kind {
        "box" => Ok(Shape::Box(size3(field("size")).unwrap_or(Vec3::ONE))),
        "sphere" => Ok(Shape::Sphere(number(field("radius")).unwrap_or(0.5))),
        "capsule" => Ok(Shape::Capsule {
            radius: number(field("radius"))
                .or_else(|| number(field("radiusBottom")))
                .unwrap_or(0.5),
            height: number(field("height")).unwrap_or(2.0),
        }),
        "cylinder" => Ok(Shape::Cylinder {
            radius: number(field("radius"))
                .or_else(|| number(field("radiusBottom")))
                .unwrap_or(0.5),
            height: number(field("height")).unwrap_or(2.0),
        }),
        "convex" | "trimesh" => field("mesh")
            .and_then(Value::as_u64)
            .map(|m| Shape::Mesh(m as usize))
            .ok_or_else(bad),
        other => Err(format!("an OMI_physics_shape of type {other:?}")),
    }
}

/// A collider of `OMI_collider`'s list: `{ type, size, radius, height, mesh }`.
fn old_shape(c: &Value) -> Result<Shape, String> {
    let kind = c.get("type").and_then(Value::as_str).unwrap_or("");
    match kind {
        "box" => Ok(Shape::Box(
            size3(c.get("size"))
                // Some writers gave half extents.
                .or_else(|| size3(c.get("extents")).map(|e| e * 2.0))
                .unwrap_or(Vec3::ONE),
        )),
        "sphere" => Ok(Shape::Sphere(number(c.get("radius")).unwrap_or(0.5))),
        "capsule" => Ok(Shape::Capsule {
            radius: number(c.get("radius")).unwrap_or(0.5),
            height: number(c.get("height")).unwrap_or(2.0),
        }),
        "cylinder" => Ok(Shape::Cylinder {
            radius: number(c.get("radius")).unwrap_or(0.5),
            height: number(c.get("height")).unwrap_or(2.0),
        }),
        "hull" | "convex" | "trimesh" | "compound" => c
            .get("mesh")
            .and_then(Value::as_u64)
            .map(|m| Shape::Mesh(m as usize))
            .ok_or_else(|| format!("an OMI_collider {kind} without a mesh")),
        other => Err(format!("an OMI_collider of type {other:?}")),
    }
}

/// The triangles of a box, sphere, capsule or cylinder centred on the origin
/// (a collider made of them: Pebble's colliders are boxes, ramps and triangle
/// meshes). Faces outward.
pub(super) fn solid(shape: &Shape) -> MeshData {
    const AROUND: u32 = 12;
    const RINGS: u32 = 8;
    let mut data = MeshData::default();
    // Rings of points from the bottom pole to the top pole; a capsule's or a
    // cylinder's straight part between them.
    let profile: Vec<(f32, f32)> = match *shape {
        Shape::Box(size) => {
            let h = size * 0.5;
            let p = |x: f32, y: f32, z: f32| Vec3::new(x * h.x, y * h.y, z * h.z);
            let corners = [
                p(-1.0, -1.0, -1.0),
                p(1.0, -1.0, -1.0),
                p(1.0, -1.0, 1.0),
                p(-1.0, -1.0, 1.0),
                p(-1.0, 1.0, -1.0),
                p(1.0, 1.0, -1.0),
                p(1.0, 1.0, 1.0),
                p(-1.0, 1.0, 1.0),
            ];
            data.positions.extend(corners);
            for [a, b, c, d] in [
                [0, 1, 2, 3],
                [4, 7, 6, 5],
                [0, 4, 5, 1],
                [1, 5, 6, 2],
                [2, 6, 7, 3],
                [3, 7, 4, 0],
            ] {
                push(&mut data, [a, b, c]);
                push(&mut data, [a, c, d]);
            }
            return data;
        }
        Shape::Sphere(r) => (0..=RINGS)
            .map(|k| {
                let a = std::f32::consts::PI * k as f32 / RINGS as f32;
                (-r * a.cos(), r * a.sin())
            })
            .collect(),
        Shape::Capsule { radius, height } => {
            let straight = (height - 2.0 * radius).max(0.0) * 0.5;
            let half = RINGS / 2;
            (0..=half)
                .map(|k| {
                    let a = std::f32::consts::FRAC_PI_2 * k as f32 / half as f32;
                    (-straight - radius * a.cos(), radius * a.sin())
                })
                .chain((0..=half).map(|k| {
                    let a = std::f32::consts::FRAC_PI_2 * k as f32 / half as f32;
                    (straight + radius * a.sin(), radius * a.cos())
                }))
                .collect()
        }
        Shape::Cylinder { radius, height } => {
            let h = height * 0.5;
            vec![(-h, 0.0), (-h, radius), (h, radius), (h, 0.0)]
        }
        Shape::Mesh(_) => return data,
    };
    let ring = |k: usize| k as u32 * AROUND;
    for &(y, r) in &profile {
        for i in 0..AROUND {
            let a = std::f32::consts::TAU * i as f32 / AROUND as f32;
            data.positions.push(Vec3::new(r * a.cos(), y, -r * a.sin()));
        }
    }
    for k in 0..profile.len() - 1 {
        for i in 0..AROUND {
            let j = (i + 1) % AROUND;
            let (a, b) = (ring(k) + i, ring(k) + j);
            let (c, d) = (ring(k + 1) + j, ring(k + 1) + i);
            // Counter-clockwise seen from outside (the ring turns toward −Z).
            push(&mut data, [a, b, c]);
            push(&mut data, [a, c, d]);
        }
    }
    // Rings of radius 0 make triangles without area: left out.
    data.faces.retain(|f| {
        let [a, b, c] = f.indices.map(|i| data.positions[i as usize]);
        (b - a).cross(c - a).length_squared() > 1e-12
    });
    data
}

fn push(data: &mut MeshData, indices: [u32; 3]) {
    data.faces.push(Face {
        indices,
        uvs: [Vec2::ZERO; 3],
        material: MaterialId(0),
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn outward(data: &MeshData) -> bool {
        data.faces.iter().all(|f| {
            let [a, b, c] = f.indices.map(|i| data.positions[i as usize]);
            let n = (b - a).cross(c - a);
            n.dot((a + b + c) / 3.0) > 0.0
        })
    }

    #[test]
    fn solids_close_round_their_shape_facing_out() {
        for shape in [
            Shape::Box(Vec3::new(1.0, 2.0, 3.0)),
            Shape::Sphere(0.5),
            Shape::Capsule {
                radius: 0.4,
                height: 1.8,
            },
            Shape::Cylinder {
                radius: 0.5,
                height: 2.0,
            },
        ] {
            let data = solid(&shape);
            assert!(data.faces.len() >= 12, "{shape:?}");
            assert!(outward(&data), "{shape:?}");
            let top = data.positions.iter().map(|p| p.y).fold(f32::MIN, f32::max);
            let want = match shape {
                Shape::Box(s) => s.y / 2.0,
                Shape::Sphere(r) => r,
                Shape::Capsule { height, .. } | Shape::Cylinder { height, .. } => height / 2.0,
                Shape::Mesh(_) => unreachable!(),
            };
            assert!((top - want).abs() < 1e-4, "{shape:?}: top {top}");
        }
    }

    #[test]
    fn godot_s_suffixes() {
        assert_eq!(suffix("Wall-col"), Some(("Wall", Suffix::Collides)));
        assert_eq!(
            suffix("Rock-convcolonly"),
            Some(("Rock", Suffix::CollisionOnly))
        );
        assert_eq!(
            suffix("Floor-ColOnly"),
            Some(("Floor", Suffix::CollisionOnly))
        );
        assert_eq!(suffix("Protocol"), None);
        assert_eq!(suffix("-col"), None);
    }
}
