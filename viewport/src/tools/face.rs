//! Face mode (T, Tools › Face mode): a click picks the face under the cursor (the
//! flat polygon the triangle belongs to), Shift adds, Ctrl toggles, a click on
//! nothing lets go of them all; a left drag draws a box that picks the faces
//! facing the camera whose middle lies in it, on the meshes the ID buffer shows
//! there. The picked faces are outlined; the inspector edits their material and
//! UVs. Esc drops a box in progress; Esc again leaves face mode. It never changes
//! the scene itself.

use pebble_model::glam::{Vec2, Vec3};
use pebble_model::{EntityId, EntityKind};

use super::{OverlayContext, Pointer, Tool, ToolContext, ToolOverlay};
use crate::navigation::Button;
use pebble_core::faces::PickMode;

/// Picked faces' outline and fill (0xAABBGGRR: orange).
const OUTLINE: u32 = 0xFF_28_A0_FF;
const FILL: u32 = 0x30_28_A0_FF;

#[derive(Debug, Default)]
pub struct FaceTool {
    armed: bool,
    /// The box being drawn, in pixels.
    rect: Option<(Vec2, Vec2)>,
    /// The picked faces' fill and outline, kept while neither the faces, their
    /// meshes' corners nor their placement change (a UV drag changes none).
    cache: std::cell::RefCell<Option<PickedShape>>,
}

/// What the overlay draws for the picked faces, in world space.
#[derive(Debug)]
struct PickedShape {
    inputs: PickedInputs,
    fill: Vec<pebble_render::overlay::LineVertex>,
    /// Edges only one picked triangle has, by where their ends are (so a picked
    /// box side or a grid of quads shows one outline), and picked edges.
    outline: Vec<(Vec3, Vec3)>,
    /// Picked vertices.
    points: Vec<Vec3>,
}

/// What the picked faces' shape depends on: which faces, edges and vertices are
/// picked (a fingerprint), and each of their meshes' placement, corners and
/// triangles (copies, compared each frame: comparing is several times cheaper
/// than hashing them, and a UV drag on a 10k-triangle mesh asks every frame).
#[derive(Debug, PartialEq)]
struct PickedInputs {
    picked: u64,
    meshes: Vec<MeshInputs>,
}

#[derive(Debug, PartialEq)]
struct MeshInputs {
    id: pebble_model::EntityId,
    world: [u32; 12],
    positions: Vec<Vec3>,
    indices: Vec<[u32; 3]>,
}

/// The picked elements' fingerprint and their meshes, in id order.
///
/// An FNV-1a fold over 32-bit words: a fingerprint every frame, not a defence
/// against crafted input, so it need not be SipHash (several times slower here).
fn picked_elements(
    faces: &pebble_core::faces::FaceSelection,
) -> (u64, std::collections::BTreeSet<pebble_model::EntityId>) {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut word = |w: u32| {
        h ^= u64::from(w);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    };
    let mut meshes = std::collections::BTreeSet::new();
    for (id, list) in faces.iter() {
        meshes.insert(id);
        word(id.0);
        word(list.len() as u32);
        list.iter().for_each(|f| word(*f as u32));
    }
    for (id, vertices) in faces.vertices() {
        meshes.insert(id);
        word(id.0);
        vertices.iter().for_each(|v| word(*v));
    }
    for (id, edges) in faces.edges() {
        meshes.insert(id);
        word(id.0);
        edges.iter().for_each(|(a, b)| {
            word(*a);
            word(*b);
        });
    }
    (h, meshes)
}

fn world_bits(scene: &pebble_model::Scene, id: pebble_model::EntityId) -> [u32; 12] {
    scene.world_transform(id).to_cols_array().map(f32::to_bits)
}

impl PickedInputs {
    fn of(scene: &pebble_model::Scene, faces: &pebble_core::faces::FaceSelection) -> Self {
        let (picked, ids) = picked_elements(faces);
        let meshes = ids
            .into_iter()
            .map(|id| {
                let (positions, indices) = match scene.entity(id).map(|e| &e.kind) {
                    Some(EntityKind::Mesh(m)) => (
                        m.geometry.positions.clone(),
                        m.geometry.faces.iter().map(|f| f.indices).collect(),
                    ),
                    _ => (Vec::new(), Vec::new()),
                };
                MeshInputs {
                    id,
                    world: world_bits(scene, id),
                    positions,
                    indices,
                }
            })
            .collect();
        Self { picked, meshes }
    }

    /// Whether the scene and picks still give these inputs (nothing copied).
    fn still(
        &self,
        scene: &pebble_model::Scene,
        faces: &pebble_core::faces::FaceSelection,
    ) -> bool {
        let (picked, ids) = picked_elements(faces);
        picked == self.picked
            && ids.len() == self.meshes.len()
            && ids.iter().zip(&self.meshes).all(|(id, kept)| {
                let (positions, faces): (&[Vec3], &[pebble_model::mesh::Face]) =
                    match scene.entity(*id).map(|e| &e.kind) {
                        Some(EntityKind::Mesh(m)) => (&m.geometry.positions, &m.geometry.faces),
                        _ => (&[], &[]),
                    };
                *id == kept.id
                    && world_bits(scene, *id) == kept.world
                    && positions == kept.positions.as_slice()
                    && faces.len() == kept.indices.len()
                    && faces
                        .iter()
                        .zip(&kept.indices)
                        .all(|(f, k)| f.indices == *k)
            })
    }
}

impl PickedShape {
    fn build(
        scene: &pebble_model::Scene,
        faces: &pebble_core::faces::FaceSelection,
        inputs: PickedInputs,
    ) -> Self {
        let mut fill = Vec::new();
        let mut outline = Vec::new();
        let quantise = |p: Vec3| [p.x, p.y, p.z].map(|c| (f64::from(c) * 1e5).round() as i64);
        for (id, list) in faces.iter() {
            let Some(EntityKind::Mesh(m)) = scene.entity(id).map(|e| &e.kind) else {
                continue;
            };
            let world = scene.world_transform(id);
            // Each edge by its quantised ends: how many triangles have it, and its ends.
            type Edges = std::collections::HashMap<([i64; 3], [i64; 3]), (usize, Vec3, Vec3)>;
            let mut edges = Edges::new();
            for &f in &list {
                let Some(face) = m.geometry.faces.get(f) else {
                    continue;
                };
                let corners = m.geometry.triangle(face).map(|v| world.transform_point3(v));
                for c in corners {
                    fill.push(pebble_render::overlay::LineVertex {
                        pos: c.to_array(),
                        color: FILL,
                    });
                }
                for k in 0..3 {
                    let (a, b) = (corners[k], corners[(k + 1) % 3]);
                    let (qa, qb) = (quantise(a), quantise(b));
                    let key = if qa <= qb { (qa, qb) } else { (qb, qa) };
                    edges.entry(key).or_insert((0, a, b)).0 += 1;
                }
            }
            outline.extend(
                edges
                    .into_values()
                    .filter(|(n, _, _)| *n == 1)
                    .map(|(_, a, b)| (a, b)),
            );
        }
        let mut points = Vec::new();
        for (id, edges) in faces.edges() {
            if let Some(EntityKind::Mesh(m)) = scene.entity(id).map(|e| &e.kind) {
                let world = scene.world_transform(id);
                let at = |i: u32| {
                    world.transform_point3(
                        m.geometry
                            .positions
                            .get(i as usize)
                            .copied()
                            .unwrap_or_default(),
                    )
                };
                outline.extend(edges.into_iter().map(|(a, b)| (at(a), at(b))));
            }
        }
        for (id, vertices) in faces.vertices() {
            if let Some(EntityKind::Mesh(m)) = scene.entity(id).map(|e| &e.kind) {
                let world = scene.world_transform(id);
                points.extend(vertices.into_iter().filter_map(|v| {
                    m.geometry
                        .positions
                        .get(v as usize)
                        .map(|p| world.transform_point3(*p))
                }));
            }
        }
        Self {
            inputs,
            fill,
            outline,
            points,
        }
    }
}

impl FaceTool {
    pub fn set_armed(&mut self, on: bool) {
        self.armed = on;
        self.rect = None;
    }

    pub fn is_armed(&self) -> bool {
        self.armed
    }
}

/// Whether the triangle `t` (pixels) and the box `lo`..`hi` overlap.
fn overlaps(t: [Vec2; 3], lo: Vec2, hi: Vec2) -> bool {
    let inside_box = |p: Vec2| p.cmpge(lo).all() && p.cmple(hi).all();
    if t.iter().any(|p| inside_box(*p)) {
        return true;
    }
    let side = |a: Vec2, b: Vec2, p: Vec2| (b - a).perp_dot(p - a);
    let in_triangle = |p: Vec2| {
        let (d0, d1, d2) = (
            side(t[0], t[1], p),
            side(t[1], t[2], p),
            side(t[2], t[0], p),
        );
        (d0 >= 0.0 && d1 >= 0.0 && d2 >= 0.0) || (d0 <= 0.0 && d1 <= 0.0 && d2 <= 0.0)
    };
    let corners = [lo, Vec2::new(hi.x, lo.y), hi, Vec2::new(lo.x, hi.y)];
    if corners.iter().any(|c| in_triangle(*c)) {
        return true;
    }
    let crosses = |a: Vec2, b: Vec2, c: Vec2, d: Vec2| {
        side(a, b, c).signum() != side(a, b, d).signum()
            && side(c, d, a).signum() != side(c, d, b).signum()
    };
    (0..3).any(|i| {
        let (a, b) = (t[i], t[(i + 1) % 3]);
        (0..4).any(|k| crosses(a, b, corners[k], corners[(k + 1) % 4]))
    })
}

/// The faces a box between two pixels picks: on the meshes `drawn` names, those
/// facing the camera that reach into it.
fn faces_in_box(
    cx: &ToolContext,
    (a, b): (Vec2, Vec2),
    drawn: &[u32],
) -> Vec<(EntityId, Vec<usize>)> {
    let (lo, hi) = (a.min(b), a.max(b));
    let view = cx.camera_view();
    let eye = view.camera.eye;
    let scene = cx.doc.scene();
    let mut out = Vec::new();
    for &id in drawn {
        let id = EntityId(id);
        let Some(EntityKind::Mesh(m)) = scene.entity(id).map(|e| &e.kind) else {
            continue;
        };
        if !scene.is_pickable(id) {
            continue;
        }
        let world = scene.world_transform(id);
        let faces: Vec<usize> = (0..m.geometry.faces.len())
            .filter(|&f| {
                let [p, q, r] = m
                    .geometry
                    .triangle(&m.geometry.faces[f])
                    .map(|v| world.transform_point3(v));
                let mid = (p + q + r) / 3.0;
                let facing = (q - p).cross(r - p).dot(eye - mid) > 0.0;
                let on_screen = [p, q, r].map(|c| view.project(c));
                facing
                    && match on_screen {
                        [Some(a), Some(b), Some(c)] => overlaps([a, b, c], lo, hi),
                        _ => false,
                    }
            })
            .collect();
        if !faces.is_empty() {
            out.push((id, faces));
        }
    }
    out
}

/// The corners of face `f` of `id`'s mesh: their vertex indices and where they are
/// on screen (`None` for one behind the camera).
fn face_on_screen(
    cx: &ToolContext,
    id: EntityId,
    f: usize,
) -> Option<([u32; 3], [Option<Vec2>; 3], bool)> {
    let scene = cx.doc.scene();
    let Some(EntityKind::Mesh(m)) = scene.entity(id).map(|e| &e.kind) else {
        return None;
    };
    let face = m.geometry.faces.get(f)?;
    let world = scene.world_transform(id);
    let view = cx.camera_view();
    let corners = m.geometry.triangle(face).map(|v| world.transform_point3(v));
    let mid = (corners[0] + corners[1] + corners[2]) / 3.0;
    let facing = (corners[1] - corners[0])
        .cross(corners[2] - corners[0])
        .dot(view.camera.eye - mid)
        > 0.0;
    Some((face.indices, corners.map(|c| view.project(c)), facing))
}

/// How far `p` is from the segment `a`–`b`, pixels.
fn to_segment(p: Vec2, a: Vec2, b: Vec2) -> f32 {
    let ab = b - a;
    let t = if ab.length_squared() > 0.0 {
        ((p - a).dot(ab) / ab.length_squared()).clamp(0.0, 1.0)
    } else {
        0.0
    };
    p.distance(a + ab * t)
}

impl FaceTool {
    /// A click or box in vertex or edge mode.
    fn release_elements(&mut self, cx: &mut ToolContext, p: &Pointer) {
        let mode = cx.doc.faces.mode;
        let keep = p.modifiers.shift || p.modifiers.command;
        let toggle = p.modifiers.command && p.click;
        let mut vertices: Vec<(EntityId, u32)> = Vec::new();
        let mut edges: Vec<(EntityId, (u32, u32))> = Vec::new();
        match self.rect.take() {
            Some((start, _)) => {
                let drawn = match cx.pick.pick_rect(start, p.pos) {
                    Ok(d) => d,
                    Err(e) => {
                        cx.status.error(format!("box select failed: {e}"));
                        return;
                    }
                };
                let (lo, hi) = (start.min(p.pos), start.max(p.pos));
                let inside =
                    |s: Option<Vec2>| s.is_some_and(|s| s.cmpge(lo).all() && s.cmple(hi).all());
                for id in drawn.into_iter().map(EntityId) {
                    let faces = match cx.doc.scene().entity(id).map(|e| &e.kind) {
                        Some(EntityKind::Mesh(m)) if cx.doc.scene().is_pickable(id) => {
                            m.geometry.faces.len()
                        }
                        _ => continue,
                    };
                    for f in 0..faces {
                        let Some((ix, on, facing)) = face_on_screen(cx, id, f) else {
                            continue;
                        };
                        if !facing {
                            continue;
                        }
                        for k in 0..3 {
                            if mode == PickMode::Vertices && inside(on[k]) {
                                vertices.push((id, ix[k]));
                            }
                            if mode == PickMode::Edges && inside(on[k]) && inside(on[(k + 1) % 3]) {
                                edges.push((id, (ix[k], ix[(k + 1) % 3])));
                            }
                        }
                    }
                }
            }
            None => match cx.pick.pick(p.pos) {
                Ok(Some(hit)) => {
                    let id = EntityId(hit.id);
                    if cx.doc.scene().is_pickable(id)
                        && let Some((ix, on, _)) = face_on_screen(cx, id, hit.face as usize)
                        && let [Some(a), Some(b), Some(c)] = on
                    {
                        let s = [a, b, c];
                        if mode == PickMode::Vertices {
                            let k = (0..3)
                                .min_by(|&x, &y| {
                                    s[x].distance(p.pos).total_cmp(&s[y].distance(p.pos))
                                })
                                .unwrap_or(0);
                            vertices.push((id, ix[k]));
                        } else {
                            let k =
                                (0..3)
                                    .min_by(|&x, &y| {
                                        to_segment(p.pos, s[x], s[(x + 1) % 3])
                                            .total_cmp(&to_segment(p.pos, s[y], s[(y + 1) % 3]))
                                    })
                                    .unwrap_or(0);
                            edges.push((id, (ix[k], ix[(k + 1) % 3])));
                        }
                    }
                }
                Ok(None) => {}
                Err(e) => {
                    cx.status.error(format!("pick failed: {e}"));
                    return;
                }
            },
        }
        let picked = &mut cx.doc.faces;
        if !keep {
            picked.clear();
        }
        for (id, v) in vertices {
            picked.pick_vertex(id, v, toggle);
        }
        for (id, e) in edges {
            picked.pick_edge(id, e, toggle);
        }
        let (v, e) = picked.element_counts();
        cx.status.info(match mode {
            PickMode::Vertices => format!("{v} vertex(es) picked"),
            _ => format!("{e} edge(s) picked"),
        });
    }
}

impl Tool for FaceTool {
    fn name(&self) -> &'static str {
        "face"
    }

    fn press(&mut self, _cx: &mut ToolContext, p: &Pointer) -> bool {
        if !self.armed || p.button != Button::Left {
            return false;
        }
        if !p.click {
            self.rect = Some((p.press, p.pos));
        }
        true
    }

    fn drag(&mut self, _cx: &mut ToolContext, p: &Pointer) {
        if let Some((_, end)) = &mut self.rect {
            *end = p.pos;
        }
    }

    fn release(&mut self, cx: &mut ToolContext, p: &Pointer) {
        if cx.doc.faces.mode != PickMode::Faces {
            self.release_elements(cx, p);
            return;
        }
        let keep = p.modifiers.shift || p.modifiers.command;
        let found: Vec<(EntityId, Vec<usize>)> = match self.rect.take() {
            Some((start, _)) => match cx.pick.pick_rect(start, p.pos) {
                Ok(drawn) => faces_in_box(cx, (start, p.pos), &drawn),
                Err(e) => {
                    cx.status.error(format!("box select failed: {e}"));
                    return;
                }
            },
            None => match cx.pick.pick(p.pos) {
                Ok(Some(hit)) => {
                    let id = EntityId(hit.id);
                    let scene = cx.doc.scene();
                    match scene.entity(id).map(|e| &e.kind) {
                        Some(EntityKind::Mesh(m)) if scene.is_pickable(id) => {
                            vec![(id, m.geometry.polygon_of(hit.face as usize))]
                        }
                        _ => Vec::new(),
                    }
                }
                Ok(None) => Vec::new(),
                Err(e) => {
                    cx.status.error(format!("pick failed: {e}"));
                    return;
                }
            },
        };
        let faces = &mut cx.doc.faces;
        if !keep {
            faces.clear();
        }
        for (id, picked) in found {
            if p.modifiers.command && p.click {
                faces.toggle(id, &picked);
            } else {
                faces.add(id, picked);
            }
        }
        let (n, objects) = cx.doc.faces.counts();
        cx.status.info(match n {
            0 => "no faces picked".to_string(),
            _ => format!("{n} triangle(s) picked on {objects} object(s)"),
        });
    }

    fn cancel(&mut self, _cx: &mut ToolContext) {
        self.rect = None;
    }

    fn disarm(&mut self, cx: &mut ToolContext) -> bool {
        if !self.armed {
            return false;
        }
        if !cx.doc.faces.is_empty() {
            // The first Esc lets go of the faces, the second of face mode.
            cx.doc.faces.clear();
            return true;
        }
        self.armed = false;
        cx.status.info("face mode off");
        true
    }

    fn overlay(&self, cx: &OverlayContext, active: bool, out: &mut ToolOverlay) {
        if !self.armed {
            return;
        }
        if active {
            out.rect = self.rect;
        }
        let scene = cx.doc.scene();
        let mut cache = self.cache.borrow_mut();
        if cache
            .as_ref()
            .is_none_or(|c| !c.inputs.still(scene, &cx.doc.faces))
        {
            let inputs = PickedInputs::of(scene, &cx.doc.faces);
            *cache = Some(PickedShape::build(scene, &cx.doc.faces, inputs));
        }
        let Some(shape) = cache.as_ref() else { return };
        out.triangles.extend_from_slice(&shape.fill);
        for &(a, b) in &shape.outline {
            out.thick_line(&cx.view, (a, b), OUTLINE, 2.0);
        }
        for &p in &shape.points {
            // A small cross, a hundredth of its distance across.
            let r = (cx.view.camera.eye - p).length() * 0.01;
            for axis in [Vec3::X, Vec3::Y, Vec3::Z] {
                out.thick_line(&cx.view, (p - axis * r, p + axis * r), OUTLINE, 3.0);
            }
        }
        let shown = shape.fill.len() / 3;
        let (v, e) = cx.doc.faces.element_counts();
        let what = match cx.doc.faces.mode {
            PickMode::Faces if shown > 0 => Some(format!("{shown} triangle(s)")),
            PickMode::Edges if e > 0 => Some(format!("{e} edge(s)")),
            PickMode::Vertices if v > 0 => Some(format!("{v} vertex(es)")),
            _ => None,
        };
        let mode = cx.doc.faces.mode.label().to_lowercase();
        out.text = Some(match what {
            None => format!(
                "Face mode, picking {mode} (Alt+1/2/3): click (Shift adds, Ctrl toggles, drag a box) · Esc: leave"
            ),
            Some(what) => format!("Face mode: {what} picked · Esc: let go, Esc again: leave"),
        });
    }

    fn is_mode_on(&self) -> bool {
        self.armed
    }
}
