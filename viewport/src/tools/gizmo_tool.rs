//! The transform gizmo as a tool: a left press on one of its handles starts a
//! move, turn or scale of the selection (one continuous edit, one undo step),
//! snapped when snapping is on (Ctrl inverts it); Shift while moving stands the
//! selection on the surface under the cursor, V puts its vertex nearest the grab
//! onto another object's nearest the cursor; Esc takes the whole drag back.
//! Its handles are drawn whenever something is selected, the one under the cursor
//! (or being dragged) highlighted. In face mode, with faces picked, the gizmo
//! stands on them instead and moves, turns or scales their corners — with every
//! vertex at those corners, so the mesh stays closed — as one [`EditMesh`] step
//! per drag (a primitive becomes an editable mesh, and the step says so).

use pebble_model::command::EditMesh;
use pebble_model::glam::{Affine3A, Quat, Vec3};
use pebble_model::{Command, CommandGroup, EditKey, EntityId, MeshData, Transform};

use super::{OverlayContext, Pointer, Tool, ToolContext, ToolOverlay};
use crate::gizmo::{self, Gizmo};
use crate::navigation::Button;
use pebble_core::document::Document;

/// How wide the gizmo's handles are drawn, pixels (one more when lit).
const HANDLE_PIXELS: f32 = 3.0;

/// The gizmo on the selection: at its pivot, with world axes, or with the active
/// (last selected) entity's axes in local space and for scaling.
pub fn gizmo_on_selection(doc: &Document, mode: gizmo::Mode, space: gizmo::Space) -> Option<Gizmo> {
    let pivot = doc.selection_pivot()?;
    let scene = doc.scene();
    let orientation = if space == gizmo::Space::Local || mode == gizmo::Mode::Scale {
        scene
            .selection()
            .iter()
            .rev()
            .find(|id| scene.is_pickable(**id))
            .map(|id| {
                scene
                    .world_transform(*id)
                    .to_scale_rotation_translation()
                    .1
                    .normalize()
            })
            .unwrap_or(Quat::IDENTITY)
    } else {
        Quat::IDENTITY
    };
    Some(Gizmo {
        mode,
        pivot,
        orientation,
    })
}

/// The gizmo on what face mode picked (faces, edges or vertices): at the middle of
/// the corners that move, with the world's axes.
pub fn gizmo_on_faces(doc: &Document, mode: gizmo::Mode) -> Option<Gizmo> {
    if doc.faces.is_empty() {
        return None;
    }
    let scene = doc.scene();
    let mut sum = Vec3::ZERO;
    let mut n = 0usize;
    // The picked corners as they are (not welded: that is the drag's work, and
    // this runs every frame).
    // Summed in the mesh's space and placed once: the mean of placed corners is
    // the placed mean (placement is affine), for a fraction of the work.
    let mut add = |id: EntityId, corners: &mut dyn Iterator<Item = u32>| {
        if let Some(pebble_model::EntityKind::Mesh(m)) = scene.entity(id).map(|e| &e.kind) {
            let (mut local, mut count) = (Vec3::ZERO, 0usize);
            for v in corners {
                if let Some(p) = m.geometry.positions.get(v as usize) {
                    local += *p;
                    count += 1;
                }
            }
            if count > 0 {
                let world = scene.world_transform(id);
                sum += world.transform_point3(local / count as f32) * count as f32;
                n += count;
            }
        }
    };
    for (id, faces) in doc.faces.iter() {
        if let Some(pebble_model::EntityKind::Mesh(m)) = scene.entity(id).map(|e| &e.kind) {
            add(
                id,
                &mut faces
                    .iter()
                    .filter_map(|f| m.geometry.faces.get(*f))
                    .flat_map(|f| f.indices),
            );
        }
    }
    for (id, edges) in doc.faces.edges() {
        add(id, &mut edges.into_iter().flat_map(|(a, b)| [a, b]));
    }
    for (id, vertices) in doc.faces.vertices() {
        add(id, &mut vertices.into_iter());
    }
    (n > 0).then(|| Gizmo {
        mode,
        pivot: sum / n as f32,
        orientation: Quat::IDENTITY,
    })
}

/// A drag of picked faces: per mesh, its placement, its geometry when the drag
/// began and the vertices that move.
#[derive(Debug, Clone)]
struct FaceDrag {
    drag: gizmo::Drag,
    meshes: Vec<(EntityId, Affine3A, MeshData, Vec<u32>)>,
    /// The step's name ("Move faces", with the primitives it turns into meshes).
    name: String,
}

/// Where a point goes under a gizmo change.
fn moved_point(change: &gizmo::Change, g: &Gizmo, p: Vec3) -> Vec3 {
    gizmo::apply(change, g, Affine3A::from_translation(p))
        .translation
        .into()
}

/// A drag in progress: its maths and, per moved entity, its local transform,
/// world transform and parent's world transform when the drag started.
#[derive(Debug, Clone)]
struct GizmoDrag {
    drag: gizmo::Drag,
    start: Vec<(EntityId, Transform, Affine3A, Affine3A)>,
    /// The point of the moved entities that surface snapping puts onto the
    /// surface: under the pivot, at their lowest.
    base: Vec3,
    /// The moved entities' vertices (world, at the start), for vertex snapping.
    vertices: Vec<Vec3>,
}

/// How near the cursor another object's vertex must be for V to snap to it, pixels.
const VERTEX_PIXELS: f32 = 30.0;

/// An entity's vertices in the world (its place, for one without a mesh).
fn world_vertices(scene: &pebble_model::Scene, id: EntityId) -> Vec<Vec3> {
    let world = scene.world_transform(id);
    match scene.entity(id).map(|e| &e.kind) {
        Some(pebble_model::EntityKind::Mesh(m)) => m
            .geometry
            .positions
            .iter()
            .map(|p| world.transform_point3(*p))
            .collect(),
        _ => vec![world.translation.into()],
    }
}

/// The vertex of another pickable mesh nearest the cursor on screen, within
/// [`VERTEX_PIXELS`].
pub(super) fn vertex_near(
    scene: &pebble_model::Scene,
    view: &crate::view::View,
    cursor: pebble_model::glam::Vec2,
    moved: &[EntityId],
) -> Option<Vec3> {
    let mut best: Option<(f32, Vec3)> = None;
    for e in scene.entities_of(pebble_model::Kind::Mesh) {
        if moved.contains(&e.id) || !scene.is_pickable(e.id) {
            continue;
        }
        // Meshes whose bounds are nowhere near the cursor are skipped whole.
        if let Some(b) = scene.world_aabb(e.id) {
            let corners: Vec<_> = b
                .corners()
                .iter()
                .filter_map(|c| view.project(*c))
                .collect();
            let lo = corners
                .iter()
                .copied()
                .reduce(pebble_model::glam::Vec2::min);
            let hi = corners
                .iter()
                .copied()
                .reduce(pebble_model::glam::Vec2::max);
            if let (Some(lo), Some(hi)) = (lo, hi)
                && (cursor.cmplt(lo - VERTEX_PIXELS).any()
                    || cursor.cmpgt(hi + VERTEX_PIXELS).any())
            {
                continue;
            }
        }
        for v in world_vertices(scene, e.id) {
            if let Some(p) = view.project(v) {
                let d = p.distance(cursor);
                if d <= VERTEX_PIXELS && best.is_none_or(|(bd, _)| d < bd) {
                    best = Some((d, v));
                }
            }
        }
    }
    best.map(|(_, v)| v)
}

/// Where the moved entities stand: under the gizmo's pivot, at the bottom of their
/// bounds (their place, for markers without bounds).
fn base_of(doc: &Document, pivot: Vec3, moved: &[EntityId]) -> Vec3 {
    let scene = doc.scene();
    let bottom = moved
        .iter()
        .map(|id| {
            scene
                .world_aabb(*id)
                .map_or(scene.world_transform(*id).translation.y, |b| b.min.y)
        })
        .fold(f32::INFINITY, f32::min);
    Vec3::new(
        pivot.x,
        if bottom.is_finite() { bottom } else { pivot.y },
        pivot.z,
    )
}

#[derive(Debug, Default)]
pub struct GizmoTool {
    drag: Option<GizmoDrag>,
    faces: Option<FaceDrag>,
}

impl GizmoTool {
    /// A press on the faces' gizmo: the drag begins.
    fn press_faces(&mut self, cx: &mut ToolContext, p: &Pointer, g: Gizmo) -> bool {
        let view = cx.camera_view();
        let Some(handle) = gizmo::hit(&view, &g, p.press) else {
            return false;
        };
        if !p.click
            && let Some(drag) = gizmo::Drag::start(&view, g, handle, p.press)
        {
            let scene = cx.doc.scene();
            let mut converted = Vec::new();
            let meshes = cx
                .doc
                .faces
                .moved_vertices(scene)
                .into_iter()
                .filter_map(|(id, welded)| {
                    let e = scene.entity(id)?;
                    let pebble_model::EntityKind::Mesh(m) = &e.kind else {
                        return None;
                    };
                    if let pebble_model::entity::GeometrySource::Primitive(p) = &m.source {
                        converted.push(p.kind_name());
                    }
                    Some((id, scene.world_transform(id), m.geometry.clone(), welded))
                })
                .collect();
            let what = match cx.doc.faces.mode {
                pebble_core::faces::PickMode::Faces => "faces",
                pebble_core::faces::PickMode::Edges => "edges",
                pebble_core::faces::PickMode::Vertices => "vertices",
            };
            let verb = match g.mode {
                gizmo::Mode::Translate => format!("Move {what}"),
                gizmo::Mode::Rotate => format!("Turn {what}"),
                gizmo::Mode::Scale => format!("Scale {what}"),
            };
            let name = match converted.as_slice() {
                [] => verb.clone(),
                [one] => format!("{verb} (the {one} becomes an editable mesh)"),
                many => format!("{verb} ({} primitives become editable meshes)", many.len()),
            };
            self.faces = Some(FaceDrag { drag, meshes, name });
        }
        true
    }

    fn drag_faces(&mut self, cx: &mut ToolContext, p: &Pointer) {
        let Some(FaceDrag { drag, meshes, name }) = &self.faces else {
            return;
        };
        let view = cx.camera_view();
        let snap = cx.prefs.snap != p.modifiers.ctrl;
        let change = drag.change(&view, p.pos, snap.then_some(cx.prefs.snap_steps));
        let lock = cx.doc.texture_lock;
        let steps: Vec<Box<dyn Command>> = meshes
            .iter()
            .map(|(id, world, start, welded)| {
                let inverse = world.inverse();
                let mut mesh = pebble_model::mesh_edit::moved(start, welded, |v| {
                    inverse.transform_point3(moved_point(
                        &change,
                        &drag.gizmo,
                        world.transform_point3(v),
                    ))
                });
                // The faces the move reshapes keep their textures still in the
                // world rather than stretching their old UVs.
                for (f, uvs) in pebble_model::uv::follow_reshape(start, &mesh, welded, world, lock)
                {
                    mesh.faces[f].uvs = uvs;
                }
                Box::new(EditMesh::new(*id, name.clone(), mesh)) as Box<dyn Command>
            })
            .collect();
        let step = CommandGroup::new(name.clone(), steps);
        if let Err(e) = cx.doc.execute_continuous(step, EditKey::Gizmo) {
            cx.status.error(e.to_string());
        }
    }
}

impl Tool for GizmoTool {
    fn name(&self) -> &'static str {
        "gizmo"
    }

    fn press(&mut self, cx: &mut ToolContext, p: &Pointer) -> bool {
        if p.button != Button::Left || p.modifiers.alt {
            return false;
        }
        if let Some(g) = gizmo_on_faces(cx.doc, cx.gizmo_mode) {
            return self.press_faces(cx, p, g);
        }
        let Some(g) = gizmo_on_selection(cx.doc, cx.gizmo_mode, cx.prefs.gizmo_space) else {
            return false;
        };
        let view = cx.camera_view();
        let Some(handle) = gizmo::hit(&view, &g, p.press) else {
            return false;
        };
        // A click on a handle is the gizmo's too (it selects nothing behind it).
        if !p.click
            && let Some(drag) = gizmo::Drag::start(&view, g, handle, p.press)
        {
            let start = cx.doc.moved_placements();
            let moved: Vec<EntityId> = start.iter().map(|(id, ..)| *id).collect();
            let scene = cx.doc.scene();
            self.drag = Some(GizmoDrag {
                base: base_of(cx.doc, g.pivot, &moved),
                vertices: moved
                    .iter()
                    .flat_map(|id| world_vertices(scene, *id))
                    .collect(),
                drag,
                start,
            });
        }
        true
    }

    fn drag(&mut self, cx: &mut ToolContext, p: &Pointer) {
        if self.faces.is_some() {
            self.drag_faces(cx, p);
            return;
        }
        let Some(GizmoDrag {
            drag,
            start,
            base,
            vertices,
        }) = &self.drag
        else {
            return;
        };
        let view = cx.camera_view();
        let snap = cx.prefs.snap != p.modifiers.ctrl;
        let mut change = drag.change(&view, p.pos, snap.then_some(cx.prefs.snap_steps));
        // Shift while moving: the entities stand on the surface under the cursor
        // (what they hide themselves is seen through).
        if drag.gizmo.mode == gizmo::Mode::Translate && p.modifiers.shift {
            let exclude: Vec<u32> = start.iter().map(|(id, ..)| id.0).collect();
            if let Ok(Some(hit)) = cx.pick.pick_excluding(p.pos, &exclude) {
                change = gizmo::Change::Translate(hit.world - *base);
            }
        }
        // V while moving: the moved vertex nearest where the drag began onto the
        // vertex of something else nearest the cursor.
        if drag.gizmo.mode == gizmo::Mode::Translate && cx.vertex_snap {
            let moved: Vec<EntityId> = start.iter().map(|(id, ..)| *id).collect();
            let source = vertices
                .iter()
                .filter_map(|v| view.project(*v).map(|s| (s.distance(p.press), *v)))
                .min_by(|a, b| a.0.total_cmp(&b.0))
                .map(|(_, v)| v);
            if let (Some(source), Some(target)) =
                (source, vertex_near(cx.doc.scene(), &view, p.pos, &moved))
            {
                change = gizmo::Change::Translate(target - source);
            }
        }
        let moved: Vec<(EntityId, Transform)> = start
            .iter()
            .map(|(id, local, world, parent)| {
                (
                    *id,
                    moved_transform(&change, &drag.gizmo, *local, *world, *parent),
                )
            })
            .collect();
        let name = drag.gizmo.mode.name();
        let step = cx.doc.set_transforms(name, moved);
        if let Err(e) = cx.doc.execute_continuous(step, EditKey::Gizmo) {
            cx.status.error(e.to_string());
        }
    }

    fn release(&mut self, cx: &mut ToolContext, _p: &Pointer) {
        if let Some(drag) = self.drag.take() {
            // A drag that ends where it began (snapped back, or never past half a
            // grid step) leaves no "Move" in the history.
            let unmoved = drag.start.iter().all(|(id, local, ..)| {
                cx.doc
                    .scene()
                    .entity(*id)
                    .is_some_and(|e| same_transform(&e.transform, local))
            });
            if unmoved {
                cx.doc.cancel_edit(EditKey::Gizmo);
            } else {
                cx.doc.end_edit();
            }
        } else if self.faces.take().is_some() {
            cx.doc.end_edit();
        }
    }

    fn cancel(&mut self, cx: &mut ToolContext) {
        // Back to exactly where the drag began (a drag that has not moved yet
        // leaves the history alone).
        if self.drag.take().is_some() || self.faces.take().is_some() {
            cx.doc.cancel_edit(EditKey::Gizmo);
        }
    }

    fn overlay(&self, cx: &OverlayContext, _active: bool, out: &mut ToolOverlay) {
        let Some(g) = gizmo_on_faces(cx.doc, cx.gizmo_mode)
            .or_else(|| gizmo_on_selection(cx.doc, cx.gizmo_mode, cx.prefs.gizmo_space))
        else {
            return;
        };
        let highlighted = self
            .drag
            .as_ref()
            .map(|d| d.drag.handle)
            .or_else(|| self.faces.as_ref().map(|d| d.drag.handle))
            .or_else(|| cx.cursor.and_then(|c| gizmo::hit(&cx.view, &g, c)));
        for line in gizmo::lines(&cx.view, &g) {
            let mut color: u32 = if highlighted == Some(line.handle) {
                0xFF_20_E0_FF
            } else {
                match line.axis {
                    Some(0) => 0xFF_30_30_F0,
                    Some(1) => 0xFF_30_E0_30,
                    Some(2) => 0xFF_F0_60_30,
                    _ => 0xFF_E0_E0_E0,
                }
            };
            if line.back {
                // The far half of a ring: a third as bright, and thin.
                let c = color.to_le_bytes().map(|v| v / 3);
                color = u32::from_le_bytes([c[0], c[1], c[2], 0xFF]);
                out.line(line.from, line.to, color);
                continue;
            }
            let width = if highlighted == Some(line.handle) {
                HANDLE_PIXELS + 1.0
            } else {
                HANDLE_PIXELS
            };
            out.thick_line(&cx.view, (line.from, line.to), color, width);
        }
    }
}

/// An entity's new local transform after a gizmo change, from its local, world and
/// parent's world transforms at the drag's start. A move keeps rotation and scale
/// bit for bit; a turn keeps the scale; a scale keeps the rotation.
/// Equal but for float noise: a drag back to the start goes through world and
/// parent spaces and may not land on the very same bits.
fn same_transform(a: &Transform, b: &Transform) -> bool {
    a.translation.abs_diff_eq(b.translation, 1e-6)
        && a.rotation.abs_diff_eq(b.rotation, 1e-6)
        && a.scale.abs_diff_eq(b.scale, 1e-6)
}

fn moved_transform(
    change: &gizmo::Change,
    g: &Gizmo,
    local: Transform,
    world: Affine3A,
    parent: Affine3A,
) -> Transform {
    if change.is_identity() {
        return local;
    }
    let new_local = Transform::from_affine(parent.inverse() * gizmo::apply(change, g, world));
    match change {
        gizmo::Change::Translate(_) => Transform {
            translation: new_local.translation,
            ..local
        },
        gizmo::Change::Rotate(_) => Transform {
            scale: local.scale,
            ..new_local
        },
        gizmo::Change::Scale(_) => Transform {
            rotation: local.rotation,
            ..new_local
        },
    }
}
