//! The UV dock: face mode's picked faces drawn over their texture, in repeats
//! (the picture is one repeat, its neighbours drawn faintly), with the PSP atlas
//! tile's border when the material shares an atlas (and a warning when the UVs
//! leave it, which keeps the texture out of the atlas). The faces are dragged
//! here: inside their bounds to move, by the round handle above to turn, by a
//! corner to scale (Shift: along one axis), snapping to texels and 15° steps
//! while Snap is on (Ctrl inverts it). Each drag is one undo step that the
//! viewport shows live; Esc puts them back. The wheel zooms, a middle or right
//! drag pans. The dock owns its view and drag; changes are intents.

use std::path::Path;

use pebble_model::command::{FaceUvs, SetFaceUvs};
use pebble_model::entity::EntityKind;
use pebble_model::glam::{Mat2, Vec2};
use pebble_model::{EditKey, Material, Scene};

mod fill;

use super::thumbnails::Thumbnails;
use fill::{FILL_CELL, FILL_TRIANGLES_UP_TO, covered_runs};
use pebble_core::faces::FaceSelection;
use pebble_core::intent::Intent;

/// Up to this many picked triangles the dock draws every edge; up to
/// [`EDGES_UP_TO`] the islands' outlines; beyond, the fill alone.
const ALL_EDGES_UP_TO: usize = 500;
const EDGES_UP_TO: usize = 4000;

/// What the dock reads.
#[derive(Debug, Clone, Copy)]
pub struct UvContext<'a> {
    pub scene: &'a Scene,
    pub faces: &'a FaceSelection,
    /// The project file (textures resolve against its folder).
    pub project: &'a Path,
    /// Face mode is on.
    pub face_mode: bool,
    /// Snap is on (Preferences, toolbar).
    pub snap: bool,
}

/// What a drag grabbed.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Handle {
    Move,
    Turn,
    /// A corner (Shift: along one axis only).
    Scale,
}

#[derive(Debug, Clone)]
struct Drag {
    handle: Handle,
    /// Where the pointer went down, in repeats.
    from: Vec2,
    /// The faces' bounds' middle then, in repeats.
    centre: Vec2,
    /// The UVs (metres) when the drag began.
    start: FaceUvs,
}

#[derive(Debug)]
pub struct UvDock {
    /// Points per repeat.
    zoom: f32,
    /// The repeat coordinate at the dock's middle.
    pan: Vec2,
    drag: Option<Drag>,
    /// The faces last shown: other faces picked are framed at once.
    shown: Vec<(pebble_model::EntityId, Vec<usize>)>,
    /// Where the picked faces' frame was drawn last, in points.
    frame_at: Option<egui::Rect>,
}

impl Default for UvDock {
    fn default() -> Self {
        Self {
            zoom: 160.0,
            pan: Vec2::splat(0.5),
            drag: None,
            shown: Vec::new(),
            frame_at: None,
        }
    }
}

/// A material's repeats from UV metres, and back.
fn to_repeats(m: &Material, uv: Vec2) -> Vec2 {
    m.repeats(uv)
}

fn from_repeats(m: &Material, r: Vec2) -> Vec2 {
    let t = Vec2::new(
        if m.tiling.x != 0.0 { m.tiling.x } else { 1.0 },
        if m.tiling.y != 0.0 { m.tiling.y } else { 1.0 },
    );
    Mat2::from_angle(-m.rotation) * (r - m.offset) * t
}

/// The last material looked up: faces side by side mostly share one, and a drag
/// looks up thousands every frame.
struct MaterialMemo<'a> {
    scene: &'a Scene,
    last: Option<(pebble_model::MaterialId, Option<&'a Material>)>,
}

impl<'a> MaterialMemo<'a> {
    fn new(scene: &'a Scene) -> Self {
        Self { scene, last: None }
    }

    fn get(&mut self, id: pebble_model::MaterialId) -> Option<&'a Material> {
        match self.last {
            Some((last, m)) if last == id => m,
            _ => {
                let m = self.scene.material(id);
                self.last = Some((id, m));
                m
            }
        }
    }
}

/// The picked faces' corners in repeats, each face with its material.
fn picked_repeats<'a>(
    scene: &'a Scene,
    faces: &FaceSelection,
) -> Vec<(pebble_model::EntityId, usize, &'a Material, [Vec2; 3])> {
    let mut out = Vec::new();
    let mut materials = MaterialMemo::new(scene);
    for (id, list) in faces.iter() {
        let Some(EntityKind::Mesh(m)) = scene.entity(id).map(|e| &e.kind) else {
            continue;
        };
        for f in list {
            let Some(face) = m.geometry.faces.get(f) else {
                continue;
            };
            let Some(material) = materials.get(face.material) else {
                continue;
            };
            out.push((id, f, material, face.uvs.map(|uv| to_repeats(material, uv))));
        }
    }
    out
}

/// `start`'s UVs moved by `by` repeats of each face's material (what a move drag
/// in the dock does; the benchmark drives it too).
pub fn moved_uvs(scene: &Scene, start: &FaceUvs, by: Vec2) -> FaceUvs {
    let mut materials = MaterialMemo::new(scene);
    start
        .iter()
        .map(|(id, faces)| {
            let mesh = match scene.entity(*id).map(|e| &e.kind) {
                Some(EntityKind::Mesh(m)) => Some(&m.geometry),
                _ => None,
            };
            let moved = faces
                .iter()
                .map(|(f, uvs)| {
                    let material = mesh
                        .and_then(|m| m.faces.get(*f))
                        .and_then(|face| materials.get(face.material));
                    let uvs = match material {
                        Some(m) => uvs.map(|uv| from_repeats(m, to_repeats(m, uv) + by)),
                        None => *uvs,
                    };
                    (*f, uvs)
                })
                .collect();
            (*id, moved)
        })
        .collect()
}

/// The faces' UVs now (metres), as a step's input.
pub fn current_uvs(scene: &Scene, faces: &FaceSelection) -> FaceUvs {
    faces
        .iter()
        .filter_map(|(id, list)| match scene.entity(id).map(|e| &e.kind) {
            Some(EntityKind::Mesh(m)) => Some((
                id,
                list.into_iter()
                    .filter_map(|f| m.geometry.faces.get(f).map(|face| (f, face.uvs)))
                    .collect(),
            )),
            _ => None,
        })
        .collect()
}

/// The bounds of the picked faces, in repeats.
fn bounds(
    corners: &[(pebble_model::EntityId, usize, &Material, [Vec2; 3])],
) -> Option<(Vec2, Vec2)> {
    let mut it = corners.iter().flat_map(|(_, _, _, c)| c.iter().copied());
    let first = it.next()?;
    Some(it.fold((first, first), |(lo, hi), p| (lo.min(p), hi.max(p))))
}

/// The edges to draw of the faces' UVs (repeats): every triangle's, or with
/// `outline_only` those only one triangle has (where the UV islands end).
fn uv_edges(
    corners: &[(pebble_model::EntityId, usize, &Material, [Vec2; 3])],
    outline_only: bool,
) -> Vec<(Vec2, Vec2)> {
    let all = corners
        .iter()
        .flat_map(|(_, _, _, c)| [(c[0], c[1]), (c[1], c[2]), (c[2], c[0])]);
    if !outline_only {
        return all.collect();
    }
    let q = |p: Vec2| [(p.x * 1e5).round() as i64, (p.y * 1e5).round() as i64];
    // Each edge by its quantised ends: how many triangles have it, and its ends.
    type Edges = std::collections::HashMap<([i64; 2], [i64; 2]), (usize, Vec2, Vec2)>;
    let mut count = Edges::new();
    for (a, b) in all {
        let (qa, qb) = (q(a), q(b));
        let key = if qa <= qb { (qa, qb) } else { (qb, qa) };
        count.entry(key).or_insert((0, a, b)).0 += 1;
    }
    count
        .into_values()
        .filter(|(n, _, _)| *n == 1)
        .map(|(_, a, b)| (a, b))
        .collect()
}

/// Turns a point about `centre`.
fn turned(p: Vec2, centre: Vec2, angle: f32) -> Vec2 {
    centre + Mat2::from_angle(angle) * (p - centre)
}

impl UvDock {
    /// The change a drag from `drag.from` to `now` (repeats) makes to one corner
    /// (repeats), with `texel` the size of a texel in repeats and snapping.
    fn change(drag: &Drag, now: Vec2, p: Vec2, texel: Vec2, snap: bool, one_axis: bool) -> Vec2 {
        match drag.handle {
            Handle::Move => {
                let mut d = now - drag.from;
                if snap {
                    d = (d / texel).round() * texel;
                }
                p + d
            }
            Handle::Turn => {
                let a0 = (drag.from - drag.centre).to_angle();
                let a1 = (now - drag.centre).to_angle();
                let mut angle = a1 - a0;
                if snap {
                    let step = 15f32.to_radians();
                    angle = (angle / step).round() * step;
                }
                turned(p, drag.centre, angle)
            }
            Handle::Scale => {
                let d0 = drag.from - drag.centre;
                let d1 = now - drag.centre;
                let ratio = |a: f32, b: f32| if a.abs() < 1e-6 { 1.0 } else { b / a };
                let mut s = if one_axis {
                    if d0.x.abs() >= d0.y.abs() {
                        Vec2::new(ratio(d0.x, d1.x), 1.0)
                    } else {
                        Vec2::new(1.0, ratio(d0.y, d1.y))
                    }
                } else {
                    let k = ratio(d0.length(), d1.length());
                    Vec2::splat(k)
                };
                if snap {
                    s = (s * 8.0).round() / 8.0;
                }
                let s = s.map(|k| if k.abs() < 1e-3 { 1e-3 } else { k });
                drag.centre + (p - drag.centre) * s
            }
        }
    }

    /// Where the picked faces' frame (drag inside to move) was drawn in the last
    /// frame, in points; `None` when no faces were shown.
    pub fn frame_rect(&self) -> Option<egui::Rect> {
        self.frame_at
    }

    pub fn ui(
        &mut self,
        ui: &mut egui::Ui,
        cx: UvContext,
        textures: &mut Thumbnails,
    ) -> Vec<Intent> {
        let mut intents = Vec::new();
        self.frame_at = None;
        if !cx.face_mode {
            ui.label("Turn on face mode (T) and pick faces to see their UVs here.");
            return intents;
        }
        let corners = picked_repeats(cx.scene, cx.faces);
        let Some(first) = corners.first().map(|c| c.2) else {
            ui.label("Face mode: pick faces in the viewport to see their UVs here.");
            return intents;
        };
        let first = first.clone();
        // Other faces picked: framed at once (a drag goes on with what it grabbed).
        let picked: Vec<(pebble_model::EntityId, Vec<usize>)> = cx.faces.iter().collect();
        let mut frame_them = picked != self.shown && self.drag.is_none();
        if frame_them {
            self.shown = picked;
        }
        ui.horizontal(|ui| {
            ui.label(format!("{} — {} triangle(s)", first.name, corners.len()));
            if ui
                .button("Frame")
                .on_hover_text("fit the picked faces in the dock")
                .clicked()
            {
                frame_them = true;
            }
        });
        let (response, painter) =
            ui.allocate_painter(ui.available_size(), egui::Sense::click_and_drag());
        let rect = response.rect;
        if frame_them && let Some((lo, hi)) = bounds(&corners) {
            self.pan = (lo + hi) * 0.5;
            let extent = (hi - lo).max(Vec2::splat(0.05));
            self.zoom = (rect.width() / extent.x).min(rect.height() / extent.y) * 0.7;
        }
        painter.rect_filled(rect, 0.0, egui::Color32::from_gray(24));
        let centre = rect.center();
        let zoom = self.zoom;
        let pan = self.pan;
        let to_screen = |r: Vec2| centre + egui::vec2((r.x - pan.x) * zoom, (r.y - pan.y) * zoom);
        let to_repeat = |p: egui::Pos2| {
            Vec2::new(
                (p.x - centre.x) / zoom + pan.x,
                (p.y - centre.y) / zoom + pan.y,
            )
        };
        // The texture: one repeat, with its neighbours faint.
        let texel = match first
            .texture
            .as_deref()
            .map(|t| textures.get(ui.ctx(), cx.project, t))
        {
            Some(Ok((t, size))) => {
                let id = t.id();
                // Every repeat in view, faint, from one repeating texture; the
                // picture itself in full.
                let (lo, hi) = (to_repeat(rect.min), to_repeat(rect.max));
                painter.image(
                    id,
                    rect,
                    egui::Rect::from_min_max(egui::pos2(lo.x, lo.y), egui::pos2(hi.x, hi.y)),
                    egui::Color32::from_gray(140),
                );
                let unit = egui::Rect::from_two_pos(to_screen(Vec2::ZERO), to_screen(Vec2::ONE));
                painter.image(
                    id,
                    unit,
                    egui::Rect::from_min_max(egui::pos2(0.0, 0.0), egui::pos2(1.0, 1.0)),
                    egui::Color32::WHITE,
                );
                Vec2::new(1.0 / size[0].max(1) as f32, 1.0 / size[1].max(1) as f32)
            }
            Some(Err(e)) => {
                painter.text(
                    rect.left_top() + egui::vec2(6.0, 6.0),
                    egui::Align2::LEFT_TOP,
                    format!("texture missing: {e}"),
                    egui::FontId::proportional(12.0),
                    egui::Color32::LIGHT_RED,
                );
                Vec2::splat(1.0 / 64.0)
            }
            None => Vec2::splat(1.0 / 64.0),
        };
        // The repeat grid, and the atlas tile.
        let grid = egui::Stroke::new(1.0, egui::Color32::from_gray(70));
        let unit = egui::Rect::from_two_pos(to_screen(Vec2::ZERO), to_screen(Vec2::ONE));
        painter.rect_stroke(unit, 0.0, grid, egui::StrokeKind::Middle);
        if first.tile {
            let leaves = corners.iter().any(|(_, _, m, c)| {
                m.tile
                    && c.iter().any(|r| {
                        r.cmplt(Vec2::splat(-1e-4)).any() || r.cmpgt(Vec2::splat(1.0 + 1e-4)).any()
                    })
            });
            let colour = if leaves {
                egui::Color32::from_rgb(240, 90, 70)
            } else {
                egui::Color32::from_rgb(80, 200, 230)
            };
            painter.rect_stroke(
                unit,
                0.0,
                egui::Stroke::new(2.0, colour),
                egui::StrokeKind::Middle,
            );
            let note = if leaves {
                "PSP atlas tile: these UVs leave it, so the export keeps this texture out of the atlas"
            } else {
                "PSP atlas tile: the device draws this one repeat from the shared atlas"
            };
            painter.text(
                unit.left_bottom() + egui::vec2(0.0, 4.0),
                egui::Align2::LEFT_TOP,
                note,
                egui::FontId::proportional(12.0),
                colour,
            );
        }
        // The faces: their fill as one mesh, their edges (with many faces only the
        // outline of what they cover, by where the corners are in the texture).
        let fill = egui::Color32::from_rgba_unmultiplied(255, 160, 40, 30);
        let stroke = egui::Stroke::new(1.5, egui::Color32::from_rgb(255, 160, 40));
        let mut mesh = egui::Mesh::default();
        if corners.len() <= FILL_TRIANGLES_UP_TO {
            for (_, _, _, c) in &corners {
                let base = mesh.vertices.len() as u32;
                for r in c {
                    mesh.colored_vertex(to_screen(*r), fill);
                }
                mesh.add_triangle(base, base + 1, base + 2);
            }
        } else {
            let on_screen: Vec<[egui::Pos2; 3]> = corners
                .iter()
                .map(|(_, _, _, c)| c.map(to_screen))
                .collect();
            for run in covered_runs(&on_screen, rect, FILL_CELL) {
                mesh.add_colored_rect(run, fill);
            }
        }
        painter.add(egui::Shape::mesh(mesh));
        // Edges: each triangle's for a few hundred, the outline of the islands
        // for a few thousand; beyond that the fill alone (the edges would be a
        // solid colour at any zoom, and cost every frame of a drag).
        if corners.len() <= EDGES_UP_TO {
            for (a, b) in uv_edges(&corners, corners.len() > ALL_EDGES_UP_TO) {
                painter.line_segment([to_screen(a), to_screen(b)], stroke);
            }
        }
        // The handles.
        let Some((lo, hi)) = bounds(&corners) else {
            return intents;
        };
        let (blo, bhi) = (to_screen(lo), to_screen(hi));
        let frame = egui::Rect::from_two_pos(blo, bhi);
        self.frame_at = Some(frame);
        painter.rect_stroke(
            frame,
            0.0,
            egui::Stroke::new(1.0, egui::Color32::WHITE),
            egui::StrokeKind::Middle,
        );
        let turn_at = egui::pos2(frame.center().x, frame.top() - 22.0);
        painter.circle_stroke(turn_at, 6.0, egui::Stroke::new(2.0, egui::Color32::WHITE));
        painter.line_segment(
            [
                turn_at + egui::vec2(0.0, 6.0),
                egui::pos2(frame.center().x, frame.top()),
            ],
            egui::Stroke::new(1.0, egui::Color32::WHITE),
        );
        let corners_at = [
            frame.left_top(),
            frame.right_top(),
            frame.left_bottom(),
            frame.right_bottom(),
        ];
        for c in corners_at {
            painter.rect_filled(
                egui::Rect::from_center_size(c, egui::vec2(8.0, 8.0)),
                1.0,
                egui::Color32::WHITE,
            );
        }

        // Wheel zoom about the pointer; middle or right drag pans.
        if response.hovered() {
            let (scroll, pointer) = ui.input(|i| (i.smooth_scroll_delta.y, i.pointer.hover_pos()));
            if scroll != 0.0
                && let Some(p) = pointer
            {
                let before = to_repeat(p);
                self.zoom = (self.zoom * (1.0 + scroll / 400.0)).clamp(8.0, 20_000.0);
                let after = Vec2::new(
                    (p.x - centre.x) / self.zoom + self.pan.x,
                    (p.y - centre.y) / self.zoom + self.pan.y,
                );
                self.pan += before - after;
            }
        }
        if response.dragged_by(egui::PointerButton::Middle)
            || response.dragged_by(egui::PointerButton::Secondary)
        {
            let d = response.drag_delta();
            self.pan -= Vec2::new(d.x, d.y) / self.zoom;
        }
        // Dragging the faces.
        let (modifiers, escape) = ui.input(|i| (i.modifiers, i.key_pressed(egui::Key::Escape)));
        let snap = cx.snap != modifiers.ctrl;
        if response.drag_started_by(egui::PointerButton::Primary)
            && let Some(p) = ui.input(|i| i.pointer.press_origin())
        {
            let handle = if (p - turn_at).length() < 10.0 {
                Some(Handle::Turn)
            } else if corners_at.iter().any(|c| (p - *c).length() < 8.0) {
                Some(Handle::Scale)
            } else if frame.expand(4.0).contains(p) {
                Some(Handle::Move)
            } else {
                None
            };
            if let Some(handle) = handle {
                self.drag = Some(Drag {
                    handle,
                    from: to_repeat(p),
                    centre: (lo + hi) * 0.5,
                    start: current_uvs(cx.scene, cx.faces),
                });
            }
        }
        if let Some(drag) = &self.drag {
            if escape {
                intents.push(Intent::CancelEdit(EditKey::Uv));
                self.drag = None;
            } else if response.dragged_by(egui::PointerButton::Primary) {
                if let Some(p) = response.interact_pointer_pos() {
                    let now = to_repeat(p);
                    let after: FaceUvs = drag
                        .start
                        .iter()
                        .map(|(id, faces)| {
                            let changed = faces
                                .iter()
                                .map(|(f, uvs)| {
                                    let material = cx
                                        .scene
                                        .entity(*id)
                                        .and_then(|e| match &e.kind {
                                            EntityKind::Mesh(m) => m.geometry.faces.get(*f),
                                            _ => None,
                                        })
                                        .and_then(|face| cx.scene.material(face.material))
                                        .cloned()
                                        .unwrap_or_default();
                                    let moved = uvs.map(|uv| {
                                        let r = to_repeats(&material, uv);
                                        from_repeats(
                                            &material,
                                            Self::change(
                                                drag,
                                                now,
                                                r,
                                                texel,
                                                snap,
                                                modifiers.shift,
                                            ),
                                        )
                                    });
                                    (*f, moved)
                                })
                                .collect();
                            (*id, changed)
                        })
                        .collect();
                    let name = match drag.handle {
                        Handle::Move => "Move UVs",
                        Handle::Turn => "Turn UVs",
                        Handle::Scale => "Scale UVs",
                    };
                    intents.push(Intent::Continue(
                        Box::new(SetFaceUvs::new(name, after)),
                        EditKey::Uv,
                    ));
                }
            } else {
                intents.push(Intent::EndEdit);
                self.drag = None;
            }
        }
        let help = if snap {
            "drag: move · round handle: turn · corner: scale (Shift: one axis) · snapping to texels and 15° (Ctrl: free)"
        } else {
            "drag: move · round handle: turn · corner: scale (Shift: one axis) · free (Ctrl: snap)"
        };
        // Wrapped to the dock: the line is wider than a dock at its usual width.
        let colour = egui::Color32::from_gray(170);
        let galley = painter.layout(
            help.to_owned(),
            egui::FontId::proportional(12.0),
            colour,
            (rect.width() - 12.0).max(40.0),
        );
        let at = rect.left_bottom() + egui::vec2(6.0, -6.0 - galley.size().y);
        painter.galley(at, galley, colour);
        intents
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repeats_and_metres_convert_both_ways() {
        let m = Material {
            tiling: Vec2::new(2.0, 0.5),
            offset: Vec2::new(0.25, -0.1),
            rotation: 0.7,
            ..Material::default()
        };
        for uv in [Vec2::ZERO, Vec2::new(3.0, -1.5), Vec2::new(-0.2, 7.0)] {
            let back = from_repeats(&m, to_repeats(&m, uv));
            assert!((back - uv).abs().max_element() < 1e-5, "{uv} -> {back}");
        }
    }

    #[test]
    fn a_move_snaps_to_texels_a_turn_to_15_degrees_a_corner_scales_about_the_middle() {
        let texel = Vec2::splat(1.0 / 64.0);
        let drag = |handle| Drag {
            handle,
            from: Vec2::new(1.0, 1.0),
            centre: Vec2::new(0.5, 0.5),
            start: Vec::new(),
        };
        let moved = UvDock::change(
            &drag(Handle::Move),
            Vec2::new(1.1, 1.0),
            Vec2::ZERO,
            texel,
            true,
            false,
        );
        assert!(
            (moved.x * 64.0 - (moved.x * 64.0).round()).abs() < 1e-4 && moved.y == 0.0,
            "{moved}"
        );
        let free = UvDock::change(
            &drag(Handle::Move),
            Vec2::new(1.1, 1.0),
            Vec2::ZERO,
            texel,
            false,
            false,
        );
        assert!((free.x - 0.1).abs() < 1e-6);
        // A turn of about 20° snaps to 15°: the middle stays.
        let now = turned(Vec2::new(1.0, 1.0), Vec2::splat(0.5), 20f32.to_radians());
        let p = UvDock::change(
            &drag(Handle::Turn),
            now,
            Vec2::new(1.0, 0.5),
            texel,
            true,
            false,
        );
        let angle = (p - Vec2::splat(0.5)).to_angle().to_degrees();
        assert!((angle - 15.0).abs() < 1e-3, "{angle}");
        // Twice as far from the middle: twice the size.
        let p = UvDock::change(
            &drag(Handle::Scale),
            Vec2::new(1.5, 1.5),
            Vec2::new(0.0, 0.5),
            texel,
            false,
            false,
        );
        assert!((p - Vec2::new(-0.5, 0.5)).abs().max_element() < 1e-5, "{p}");
        let p = UvDock::change(
            &drag(Handle::Scale),
            Vec2::new(1.5, 1.0),
            Vec2::new(0.0, 0.0),
            texel,
            false,
            true,
        );
        assert!(
            (p - Vec2::new(-0.5, 0.0)).abs().max_element() < 1e-5,
            "one axis: {p}"
        );
    }
}
