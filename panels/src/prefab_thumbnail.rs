//! A prefab's thumbnail for the Assets panel: its meshes seen from above and
//! to the side, flat-shaded in their materials' colours, lights as dots of
//! their colour — drawn with egui's own triangles (the panels know nothing of
//! the renderer), made once per version of the prefab and kept.
//! Hand-written rather than rendered offscreen: a few hundred triangles sorted
//! back to front need no GPU round trip, and the panel stays testable headless.

use std::collections::HashMap;

use egui::epaint::{Mesh, Vertex};
use egui::{Color32, Pos2, Sense, Vec2};
use pebble_model::entity::{EntityKind, Light};
use pebble_model::glam::{Affine3A, Mat3, Vec3};
use pebble_model::prefab::{Prefab, PrefabId};

/// Most triangles drawn (the rest are left out of the picture, not of the prefab).
const MOST_TRIANGLES: usize = 4000;

/// A prefab drawn in a unit square (0..1, y down), back to front.
#[derive(Debug, Clone, Default)]
struct Picture {
    triangles: Vec<([Pos2; 3], Color32)>,
    dots: Vec<(Pos2, Color32)>,
}

#[derive(Debug, Default)]
pub struct PrefabThumbnails {
    by_prefab: HashMap<PrefabId, (u64, Picture)>,
}

/// The prefab's entities' world transforms from its origin.
fn worlds(p: &Prefab) -> HashMap<pebble_model::EntityId, Affine3A> {
    let mut out: HashMap<pebble_model::EntityId, Affine3A> = HashMap::new();
    for e in &p.entities {
        let parent = e
            .parent
            .and_then(|q| out.get(&q).copied())
            .unwrap_or(Affine3A::IDENTITY);
        out.insert(e.id, parent * e.transform.to_affine());
    }
    out
}

fn colour(c: [f32; 3], light: f32) -> Color32 {
    let to = |v: f32| ((v * light).clamp(0.0, 1.0).powf(1.0 / 2.2) * 255.0) as u8;
    Color32::from_rgb(to(c[0]), to(c[1]), to(c[2]))
}

fn picture(p: &Prefab) -> Picture {
    // Seen from the front right, a little above: x right, y up after turning.
    let view = Mat3::from_rotation_x(0.5) * Mat3::from_rotation_y(-0.6);
    let sun = Vec3::new(0.4, 0.8, 0.5).normalize();
    let worlds = worlds(p);
    let mut tris: Vec<([Vec3; 3], Color32)> = Vec::new();
    let mut dots: Vec<(Vec3, Color32)> = Vec::new();
    for e in &p.entities {
        let world = worlds[&e.id];
        match &e.kind {
            EntityKind::Mesh(m) => {
                for f in &m.geometry.faces {
                    if tris.len() >= MOST_TRIANGLES {
                        break;
                    }
                    let Some(v) = f
                        .indices
                        .iter()
                        .map(|i| m.geometry.positions.get(*i as usize).copied())
                        .collect::<Option<Vec<Vec3>>>()
                    else {
                        continue;
                    };
                    let w: Vec<Vec3> = v.iter().map(|x| world.transform_point3(*x)).collect();
                    let n = (w[1] - w[0]).cross(w[2] - w[0]).normalize_or_zero();
                    let tint = p
                        .materials
                        .iter()
                        .find(|(id, _)| *id == f.material)
                        .map_or([0.8; 3], |(_, m)| [m.color[0], m.color[1], m.color[2]]);
                    let light = 0.35 + 0.65 * n.dot(sun).abs();
                    tris.push(([view * w[0], view * w[1], view * w[2]], colour(tint, light)));
                }
            }
            EntityKind::Light(Light::Omni { color, .. }) => {
                dots.push((view * Vec3::from(world.translation), colour(*color, 1.2)));
            }
            EntityKind::Emitter(_) => {
                dots.push((
                    view * Vec3::from(world.translation),
                    Color32::from_rgb(255, 200, 80),
                ));
            }
            _ => {}
        }
    }
    let points = tris
        .iter()
        .flat_map(|(t, _)| t.iter().copied())
        .chain(dots.iter().map(|(d, _)| *d));
    let (mut lo, mut hi) = (Vec3::splat(f32::MAX), Vec3::splat(f32::MIN));
    for q in points {
        lo = lo.min(q);
        hi = hi.max(q);
    }
    if lo.x > hi.x {
        return Picture::default();
    }
    let size = (hi - lo).truncate().max_element().max(1e-3) * 1.1;
    let middle = (lo + hi) * 0.5;
    let to_unit = |q: Vec3| Pos2::new(0.5 + (q.x - middle.x) / size, 0.5 - (q.y - middle.y) / size);
    // Back to front: the view looks down −Z.
    tris.sort_by(|a, b| {
        let za = a.0.iter().map(|q| q.z).sum::<f32>();
        let zb = b.0.iter().map(|q| q.z).sum::<f32>();
        za.total_cmp(&zb)
    });
    Picture {
        triangles: tris
            .into_iter()
            .map(|(t, c)| ([to_unit(t[0]), to_unit(t[1]), to_unit(t[2])], c))
            .collect(),
        dots: dots.into_iter().map(|(d, c)| (to_unit(d), c)).collect(),
    }
}

impl PrefabThumbnails {
    /// Draws `prefab`'s thumbnail, `side` points square; `version` changes
    /// whenever the prefab may have (the scene's prefab revision).
    pub fn show(
        &mut self,
        ui: &mut egui::Ui,
        prefab: &Prefab,
        version: u64,
        side: f32,
    ) -> egui::Response {
        let entry = self
            .by_prefab
            .entry(prefab.id)
            .or_insert_with(|| (u64::MAX, Picture::default()));
        if entry.0 != version {
            *entry = (version, picture(prefab));
        }
        let (rect, response) = ui.allocate_exact_size(Vec2::splat(side), Sense::hover());
        let painter = ui.painter_at(rect);
        painter.rect_filled(rect, 3.0, ui.visuals().extreme_bg_color);
        let at = |q: Pos2| rect.min + (q.to_vec2() * side);
        let mut mesh = Mesh::default();
        for (t, c) in &entry.1.triangles {
            let base = mesh.vertices.len() as u32;
            for q in t {
                mesh.vertices.push(Vertex {
                    pos: at(*q),
                    uv: egui::epaint::WHITE_UV,
                    color: *c,
                });
            }
            mesh.indices.extend([base, base + 1, base + 2]);
        }
        painter.add(mesh);
        for (d, c) in &entry.1.dots {
            painter.circle_filled(at(*d), 2.5, *c);
        }
        response
    }

    /// How many triangles the kept picture of `prefab` has (tests).
    pub fn triangles(&self, prefab: PrefabId) -> usize {
        self.by_prefab
            .get(&prefab)
            .map_or(0, |(_, p)| p.triangles.len())
    }
}
