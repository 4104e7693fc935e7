//! Create by dragging. Chosen from the Create menu or the toolbar, the tool is
//! armed for one item: a left drag draws the footprint on the surface under the
//! press (a floor, a table top) or on the grid plane, the release starts the
//! height, which follows the mouse until a click finishes the shape (a plane has
//! no height: the release finishes it). Sizes snap to the grid step (Ctrl: free);
//! the overlay shows the shape and its width × depth × height. A click without a
//! drag puts the item down at its usual size on the surface under the cursor.
//! The new entity is one undo step and selected; Shift at the finish keeps the
//! tool armed for the next one. One Esc takes back one thing: the shape in
//! progress (the tool stays armed for the next drag), then the tool itself;
//! nothing is left in the scene.

use pebble_model::definitions::FieldValue;
use pebble_model::entity::{EntityKind, volume_aabb};
use pebble_model::glam::{Vec2, Vec3};
use pebble_model::{Entity, Scene};
use pebble_render::PickHit;

use super::snap::{Snap, feature_edges, snap_corner, snap_xz};
use super::{OverlayContext, Pointer, Tool, ToolContext, ToolOverlay};
use crate::navigation::Button;
use crate::view::View;
use pebble_core::create::{self, CreateItem, Drawn};

/// The shape's lines in the overlay (0xAABBGGRR: orange).
const PREVIEW: u32 = 0xFF_30_A0_FF;
/// The snap marker (0xAABBGGRR: cyan).
const SNAP_MARK: u32 = 0xFF_FF_E0_30;
/// The corners within reach (0xAABBGGRR: a light grey).
const NEAR_MARK: u32 = 0xC0_D0_D0_D0;
/// A surface whose normal points this much up is one to build on.
const LEVEL_ENOUGH: f32 = 0.7;
/// The largest footprint or height, metres (an entity's size limit).
const MAX_SIZE: f32 = 500.0;

/// Where a shape is in the making.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
enum Stage {
    /// Armed, waiting for a press.
    #[default]
    Waiting,
    /// The button is down: the footprint follows the pointer.
    Footprint(Drawn),
    /// Released: the height follows the pointer until a click. `from` is where
    /// the height step began on screen, `corner` the footprint's corner whose
    /// vertical the height is read along.
    Height {
        drawn: Drawn,
        from: Vec2,
        corner: Vec3,
    },
}

#[derive(Debug, Default)]
pub struct CreateTool {
    armed: Option<CreateItem>,
    stage: Stage,
    /// What to put down instead of the item's usual kind: a preset's emitter, or
    /// an instance of one of the project's own kinds.
    kind: Option<EntityKind>,
    /// The game's kind a drag sizes (it has a size field or corners).
    drawn_as: Option<pebble_model::definitions::KindDef>,
    /// Where the footprint's corner last snapped to existing geometry, and to
    /// what (drawn as a marker, so the designer sees the walls will meet).
    snapped: Option<(Vec3, Snap)>,
    /// The height matched to the top of something built nearby: the shape's
    /// corner at that height, and the top it matches (a line joins them).
    height_snap: Option<(Vec3, Vec3)>,
    /// The corners of what is built near the footprint's moving corner, seen or
    /// hidden (drawn over everything, to aim at).
    near_corners: Vec<Vec3>,
}

impl CreateTool {
    /// Arms the tool for `item` (any shape in progress is dropped).
    pub fn arm(&mut self, item: CreateItem) {
        self.armed = Some(item);
        self.stage = Stage::Waiting;
        self.kind = None;
        self.drawn_as = None;
        self.snapped = None;
        self.near_corners.clear();
    }

    /// Arms the tool for an emitter made from `emitter` (a preset).
    pub fn arm_emitter(&mut self, emitter: pebble_model::entity::Emitter) {
        self.arm(CreateItem::Emitter);
        self.kind = Some(EntityKind::Emitter(emitter));
    }

    /// Arms the tool for an instance of the project's kind `kind` (of `defs`): a
    /// kind with a size field (or two corners) is dragged out like a trigger (a
    /// ball pit), the others are put down with a click.
    pub fn arm_defined(&mut self, kind: String, defs: &pebble_model::definitions::Definitions) {
        let def = defs.kind(&kind);
        match def.and_then(create::drawn_like) {
            Some(like) => self.arm(like),
            None => self.arm(CreateItem::GameEntity),
        }
        self.drawn_as = def.filter(|k| create::drawn_like(k).is_some()).cloned();
        self.kind = Some(create::defined_entity(&kind, Vec3::ZERO).kind);
    }

    /// `item`'s shape drawn as `drawn`, made the armed kind when a game's kind
    /// is dragged out.
    fn drawn_entity(
        &self,
        item: CreateItem,
        drawn: Drawn,
        material: Option<pebble_model::MaterialId>,
    ) -> Result<Entity, String> {
        let e = create::drawn_entity(item, drawn, material)?;
        Ok(match &self.drawn_as {
            Some(kind) => create::drawn_as(e, item, kind),
            None => e,
        })
    }

    /// The project's kind the tool is armed for, if any.
    pub fn armed_kind(&self) -> Option<&str> {
        match (&self.armed, &self.kind) {
            (Some(_), Some(EntityKind::Defined(d))) => Some(&d.kind),
            _ => None,
        }
    }

    /// What the status line calls the thing made: the project's kind, or the
    /// item's label.
    fn what(&self, item: CreateItem) -> String {
        self.armed_kind()
            .map_or_else(|| item.label().to_lowercase(), str::to_owned)
    }

    /// `item`'s entity at `at` (meshes in `material`), of the kind the tool was
    /// armed with if any (a game entity named after its kind).
    fn made(
        kind: Option<EntityKind>,
        item: CreateItem,
        at: Vec3,
        material: Option<pebble_model::MaterialId>,
    ) -> Result<Entity, String> {
        let mut e = create::entity(item, at, material)?;
        if let Some(kind) = kind {
            if let EntityKind::Defined(d) = &kind {
                e.name = d.kind.clone();
            }
            e.kind = kind;
        }
        Ok(e)
    }

    /// What the tool is armed for.
    pub fn armed(&self) -> Option<CreateItem> {
        self.armed
    }

    /// The shape in progress as it would be created now.
    fn preview(&self, scene: &Scene) -> Option<Entity> {
        let item = self.armed?;
        let drawn = match self.stage {
            Stage::Waiting => return None,
            Stage::Footprint(d) => Drawn {
                // Before the height step the shape is flat.
                height: if item.has_height() { 0.0 } else { d.height },
                ..d
            },
            Stage::Height { drawn, .. } => drawn,
        };
        let material = scene.materials().next().map(|(id, _)| id);
        self.drawn_entity(item, drawn, material.or(Some(pebble_model::MaterialId(0))))
            .ok()
    }

    fn finish(&mut self, cx: &mut ToolContext, item: CreateItem, drawn: Drawn, keep: bool) {
        match create::create_in(cx.doc, item, |m| self.drawn_entity(item, drawn, m)) {
            Ok(()) => cx.status.info(format!(
                "created {} ({})",
                item.label().to_lowercase(),
                readout(item, drawn)
            )),
            Err(e) => cx.status.error(e),
        }
        self.stage = Stage::Waiting;
        if !keep {
            self.armed = None;
        }
    }
}

impl Tool for CreateTool {
    fn name(&self) -> &'static str {
        "create"
    }

    fn press(&mut self, cx: &mut ToolContext, p: &Pointer) -> bool {
        let Some(item) = self.armed else {
            return false;
        };
        if p.button != Button::Left {
            return false;
        }
        let view = cx.camera_view();
        // A click on a wall or a slope puts the item on it, standing along its
        // normal (it used to land on the ground behind the wall).
        if (p.click || !item.is_drawn())
            && let Some(placed) = on_a_wall(cx.doc.scene(), cx.pick, &view, p.press, item)
        {
            let kind = self.kind.clone();
            let made = create::create_in(cx.doc, item, |m| {
                let mut e = Self::made(kind, item, placed.translation, m)?;
                e.transform.rotation = placed.rotation;
                Ok(e)
            });
            match made {
                Ok(()) => cx
                    .status
                    .info(format!("created {} on the wall", self.what(item))),
                Err(e) => cx.status.error(e),
            }
            if !p.modifiers.shift {
                self.armed = None;
            }
            self.stage = Stage::Waiting;
            return true;
        }
        let Some(ground) = ground_under(cx.doc.scene(), cx.pick, &view, p.press) else {
            cx.status
                .warn("nothing to build on there: point at a surface or the grid");
            return true;
        };
        let free = p.modifiers.ctrl;
        let step = cx.prefs.snap_steps.step;
        let (at, snapped) = if item.is_drawn() {
            snap_corner(
                cx.doc.scene(),
                &view,
                p.press,
                ground.point,
                ground.point.y,
                (step, free),
            )
        } else {
            (snap_xz(ground.point, step, free), None)
        };
        self.snapped = snapped;
        if p.click || !item.is_drawn() {
            let place = Vec3::new(at.x, ground.point.y + item.lift(), at.y);
            // A route or a ball pit's box fits on the floor clicked, clear of walls.
            let (place, route) = super::clearance::fit(cx.doc.scene(), item, place);
            let kind = self.kind.clone();
            let made = create::create_in(cx.doc, item, |m| {
                let mut e = Self::made(kind, item, place, m)?;
                if let (Some(route), EntityKind::Defined(d)) = (route, &mut e.kind) {
                    let points = route.into_iter().map(FieldValue::Point).collect();
                    d.values
                        .insert("waypoints".into(), FieldValue::Array(points));
                }
                Ok(e)
            });
            match made {
                Ok(()) => cx.status.info(format!("created {}", self.what(item))),
                Err(e) => cx.status.error(e),
            }
            if !p.modifiers.shift {
                self.armed = None;
            }
            self.stage = Stage::Waiting;
            // A click is done; a drag of a point item has nothing more to do.
            return true;
        }
        self.stage = Stage::Footprint(Drawn {
            start: at,
            end: at,
            base: ground.point.y,
            height: 0.0,
            on_surface: ground.on_surface,
        });
        true
    }

    fn drag(&mut self, cx: &mut ToolContext, p: &Pointer) {
        let Stage::Footprint(drawn) = &mut self.stage else {
            return;
        };
        let view = cx.camera_view();
        let Some(on_plane) = level_point(&view, p.pos, drawn.base) else {
            return;
        };
        let step = cx.prefs.snap_steps.step;
        let free = p.modifiers.ctrl;
        let (mut end, snapped) = snap_corner(
            cx.doc.scene(),
            &view,
            p.pos,
            on_plane,
            drawn.base,
            (step, free),
        );
        self.snapped = snapped;
        self.near_corners = if free {
            Vec::new()
        } else {
            super::snap::corners_near(cx.doc.scene(), &view, p.pos, drawn.base)
        };
        end =
            drawn.start + (end - drawn.start).clamp(Vec2::splat(-MAX_SIZE), Vec2::splat(MAX_SIZE));
        // Never narrower than one step: a drag along a line still makes a wall.
        let least = if free { 0.01 } else { step.max(0.01) };
        for k in 0..2 {
            let d = end[k] - drawn.start[k];
            if d.abs() < least {
                end[k] = drawn.start[k] + if d < 0.0 { -least } else { least };
            }
        }
        drawn.end = end;
    }

    fn release(&mut self, cx: &mut ToolContext, p: &Pointer) {
        let (Some(item), Stage::Footprint(drawn)) = (self.armed, self.stage) else {
            return;
        };
        if !item.has_height() {
            self.finish(cx, item, drawn, p.modifiers.shift);
            return;
        }
        let step = cx.prefs.snap_steps.step.max(0.01);
        self.height_snap = None;
        self.stage = Stage::Height {
            drawn: Drawn {
                height: step,
                ..drawn
            },
            from: p.pos,
            corner: Vec3::new(drawn.end.x, drawn.base, drawn.end.y),
        };
    }

    /// Takes back the shape in progress and stays armed (Esc again lets go of
    /// the tool: [`Tool::disarm`]); with none in progress, lets go.
    fn cancel(&mut self, cx: &mut ToolContext) {
        if self.stage != Stage::Waiting {
            self.stage = Stage::Waiting;
            self.snapped = None;
            self.near_corners.clear();
            if let Some(item) = self.armed {
                cx.status.info(format!(
                    "{} cancelled: drag to draw another, Esc to stop creating",
                    item.label().to_lowercase()
                ));
            }
            return;
        }
        if self.armed.take().is_some() {
            cx.status.info("creation cancelled");
        }
    }

    fn follows_pointer(&self) -> bool {
        matches!(self.stage, Stage::Height { .. })
    }

    fn hover(&mut self, cx: &mut ToolContext, p: &Pointer) {
        let (
            Some(item),
            Stage::Height {
                drawn,
                from,
                corner,
            },
        ) = (self.armed, &mut self.stage)
        else {
            return;
        };
        let view = cx.camera_view();
        let raw = height_along(&view, p.pos, *corner).unwrap_or_else(|| {
            // Looking straight down the vertical: the mouse's rise on screen.
            (from.y - p.pos.y) * view.metres_per_pixel(*corner)
        });
        let step = cx.prefs.snap_steps.step.max(0.01);
        let mut h = if p.modifiers.ctrl {
            raw
        } else {
            (raw / step).round() * step
        };
        self.height_snap = None;
        if !p.modifiers.ctrl
            && let Some((top, from)) = matching_top(cx.doc.scene(), &view, *drawn, *corner, raw)
        {
            h = top;
            self.height_snap = Some((*corner + Vec3::Y * top, from));
        }
        let least = if p.modifiers.ctrl { 0.01 } else { step };
        if !item.may_go_down() || h.abs() < least {
            h = if item.may_go_down() && h < 0.0 {
                -least
            } else {
                h.max(least)
            };
        }
        drawn.height = h.clamp(-MAX_SIZE, MAX_SIZE);
    }

    fn complete(&mut self, cx: &mut ToolContext, p: &Pointer) {
        self.hover(cx, p);
        if let (Some(item), Stage::Height { drawn, .. }) = (self.armed, self.stage) {
            self.finish(cx, item, drawn, p.modifiers.shift);
        }
    }

    /// Another action came while the height follows the mouse: the shape in
    /// progress is dropped (nothing of it is in the scene yet).
    fn settle(&mut self, _doc: &mut pebble_core::document::Document) {
        if matches!(self.stage, Stage::Height { .. }) {
            self.stage = Stage::Waiting;
            self.armed = None;
        }
    }

    fn disarm(&mut self, cx: &mut ToolContext) -> bool {
        self.stage = Stage::Waiting;
        self.snapped = None;
        self.near_corners.clear();
        if self.armed.take().is_none() {
            return false;
        }
        cx.status.info("creation cancelled");
        true
    }

    fn overlay(&self, cx: &OverlayContext, _active: bool, out: &mut ToolOverlay) {
        let Some(item) = self.armed else {
            return;
        };
        let drawn = match self.stage {
            Stage::Waiting => {
                out.text = Some(item.prompt());
                return;
            }
            Stage::Footprint(d) => d,
            Stage::Height { drawn, .. } => drawn,
        };
        if let Some(e) = self.preview(cx.doc.scene()) {
            shape_lines(&e, out);
        }
        // The corners within reach, seen or hidden: small squares to aim at.
        if let Stage::Footprint(_) = self.stage {
            let r = 0.08;
            for c in &self.near_corners {
                let (a, b, cc, d) = (
                    *c + Vec3::new(r, 0.0, r),
                    *c + Vec3::new(-r, 0.0, r),
                    *c + Vec3::new(-r, 0.0, -r),
                    *c + Vec3::new(r, 0.0, -r),
                );
                for (from, to) in [(a, b), (b, cc), (cc, d), (d, a)] {
                    out.line(from, to, NEAR_MARK);
                }
            }
        }
        // The snap marker: a diamond on a vertex, a cross on an edge.
        if let (Stage::Footprint(_), Some((p, snap))) = (self.stage, self.snapped) {
            let r = 0.15;
            let (a, b, c, d) = (
                p + Vec3::X * r,
                p + Vec3::Z * r,
                p - Vec3::X * r,
                p - Vec3::Z * r,
            );
            match snap {
                Snap::Vertex => {
                    for (from, to) in [(a, b), (b, c), (c, d), (d, a)] {
                        out.line(from, to, SNAP_MARK);
                    }
                }
                Snap::Edge => {
                    out.line(a, c, SNAP_MARK);
                    out.line(b, d, SNAP_MARK);
                }
            }
        }
        if let (Stage::Height { .. }, Some((at, top))) = (self.stage, self.height_snap) {
            out.line(at, top, SNAP_MARK);
            let r = 0.15;
            for (a, b) in [
                (top + Vec3::X * r, top + Vec3::Z * r),
                (top + Vec3::Z * r, top - Vec3::X * r),
                (top - Vec3::X * r, top - Vec3::Z * r),
                (top - Vec3::Z * r, top + Vec3::X * r),
            ] {
                out.line(a, b, SNAP_MARK);
            }
        }
        let size = readout(item, drawn);
        out.text = Some(match self.stage {
            Stage::Footprint(_) if item.has_height() => {
                format!("{size} · release, then move for the height")
            }
            Stage::Height { .. } => {
                format!("{size} · click to finish · Shift: draw another · Esc: cancel")
            }
            _ => size.clone(),
        });
        if let Some(cursor) = cx.cursor {
            out.label = Some((cursor + Vec2::new(16.0, -18.0), size));
        }
    }
}

/// Width × depth × height of a drawn shape, metres.
fn readout(item: CreateItem, drawn: Drawn) -> String {
    let (lo, hi) = item.footprint(drawn.start, drawn.end);
    let size = hi - lo;
    if item.has_height() {
        format!(
            "{:.2} × {:.2} × {:.2} m",
            size.x,
            size.y,
            drawn.height.abs()
        )
    } else {
        format!("{:.2} × {:.2} m", size.x, size.y)
    }
}

/// The new shape's outline: a volume's box, a mesh's triangle edges.
fn shape_lines(e: &Entity, out: &mut ToolOverlay) {
    let world = e.transform.to_affine();
    let bounds = match &e.kind {
        EntityKind::Mesh(m) => {
            for (a, b) in feature_edges(&m.geometry) {
                out.line(
                    world.transform_point3(a),
                    world.transform_point3(b),
                    PREVIEW,
                );
            }
            return;
        }
        EntityKind::Collider(
            pebble_model::entity::Collider::Box { size }
            | pebble_model::entity::Collider::Ramp { size },
        ) => volume_aabb(*size),
        EntityKind::Defined(d) => match pebble_model::definitions::builtin::kinds().kind(&d.kind) {
            Some(kind) => pebble_model::scene::described_bounds(kind, d),
            None => return,
        },
        _ => return,
    };
    let corners = bounds.corners().map(|c| world.transform_point3(c));
    for (a, b) in pebble_render::overlay::BOX_EDGES {
        out.line(corners[a], corners[b], PREVIEW);
    }
}

/// Where a shape is built: a point and whether it is on a surface.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Ground {
    point: Vec3,
    on_surface: bool,
}

/// The level surface under `pixel` (a mesh face whose normal points up, the
/// point exact on its plane), or else where the ray meets the grid plane y = 0.
fn ground_under(scene: &Scene, pick: &dyn super::Pick, view: &View, pixel: Vec2) -> Option<Ground> {
    let (origin, dir) = view.ray(pixel);
    if let Ok(Some(hit)) = pick.pick(pixel) {
        if let Some(point) = level_face_point(scene, &hit, origin, dir) {
            return Some(Ground {
                point,
                on_surface: true,
            });
        }
        // A slab's side just under its top (a press on the edge of a floor): its
        // top. A wall's face (a press where a wall meets the floor): the floor the
        // wall stands on. Not the grid far below or behind either.
        if let Some(b) = scene.world_aabb(pebble_model::EntityId(hit.id))
            && (0.0..=0.1).contains(&(b.max.y - hit.world.y))
            && let Some(point) = plane_hit(origin, dir, b.max.y)
        {
            return Some(Ground {
                point,
                on_surface: true,
            });
        }
        if let Some(y) = pebble_core::edit_ops::floor_below(
            scene,
            hit.world + Vec3::Y * 0.01,
            &[pebble_model::EntityId(hit.id)],
        ) && let Some(point) = plane_hit(origin, dir, y)
        {
            return Some(Ground {
                point,
                on_surface: true,
            });
        }
    }
    plane_hit(origin, dir, 0.0).map(|point| Ground {
        point,
        on_surface: false,
    })
}

/// Where an item clicked onto a face that is not level (a wall, a slope) goes:
/// at the point under the cursor; a mesh turned so that its up is the face's
/// normal (a plane lies flat on the wall, a box stands out of it), anything else
/// upright and held off the face along the normal by its usual lift (at least
/// 0.3 m: a patrol or a light in front of the wall, not inside it). `None` on a
/// level face or nothing (the ground rules apply).
fn on_a_wall(
    scene: &Scene,
    pick: &dyn super::Pick,
    view: &View,
    pixel: Vec2,
    item: CreateItem,
) -> Option<pebble_model::Transform> {
    let (origin, dir) = view.ray(pixel);
    let hit = pick.pick(pixel).ok()??;
    let (corner, normal) = picked_face(scene, &hit)?;
    if normal.y >= LEVEL_ENOUGH || normal == Vec3::ZERO {
        return None;
    }
    let point = on_plane((corner, normal), origin, dir, hit.world);
    let mut t = pebble_model::Transform::from_translation(point);
    if item.needs_material() {
        t.rotation = pebble_model::glam::Quat::from_rotation_arc(Vec3::Y, normal);
        if item == CreateItem::Plane {
            t.translation += normal * create::PLANE_STANDOFF;
        }
    } else {
        t.translation += normal * item.lift().max(0.3);
    }
    Some(t)
}

/// The picked face of a mesh in the world: a corner and its normal toward the
/// viewer's side.
pub(super) fn picked_face(scene: &Scene, hit: &PickHit) -> Option<(Vec3, Vec3)> {
    let e = scene.entity(pebble_model::EntityId(hit.id))?;
    let EntityKind::Mesh(m) = &e.kind else {
        return None;
    };
    let face = m.geometry.faces.get(hit.face as usize)?;
    let world = scene.world_transform(e.id);
    let [a, b, c] = m.geometry.triangle(face).map(|p| world.transform_point3(p));
    let normal = (b - a).cross(c - a).normalize_or_zero();
    Some((a, if hit.back_face { -normal } else { normal }))
}

/// Where the ray meets the plane through `corner` with `normal` (the depth
/// buffer's `fallback` when it runs along the plane or behind the eye).
pub(super) fn on_plane(
    (corner, normal): (Vec3, Vec3),
    origin: Vec3,
    dir: Vec3,
    fallback: Vec3,
) -> Vec3 {
    let denom = normal.dot(dir);
    if denom.abs() < 1e-6 {
        return fallback;
    }
    let t = normal.dot(corner - origin) / denom;
    if t > 0.0 { origin + dir * t } else { fallback }
}

/// Where the ray meets the plane of the picked face, when that face is a mesh's
/// and points up enough to build on (the depth buffer's point is only close).
fn level_face_point(scene: &Scene, hit: &PickHit, origin: Vec3, dir: Vec3) -> Option<Vec3> {
    let (a, normal) = picked_face(scene, hit)?;
    if normal.y < LEVEL_ENOUGH {
        return None;
    }
    let p = on_plane((a, normal), origin, dir, hit.world);
    // The height from the plane's equation at that x, z: exactly the face's
    // height on a level face (the ray's step leaves a few ulps of error).
    let y = a.y - (normal.x * (p.x - a.x) + normal.z * (p.z - a.z)) / normal.y;
    Some(Vec3::new(p.x, y, p.z))
}

/// Where a ray meets the level plane at height `y`, in front of the camera.
pub(super) fn plane_hit(origin: Vec3, dir: Vec3, y: f32) -> Option<Vec3> {
    if dir.y.abs() < 1e-5 {
        return None;
    }
    let t = (y - origin.y) / dir.y;
    (t > 0.0).then(|| origin + dir * t)
}

/// The point of the level plane at height `y` under `pixel`.
/// How near, in pixels, the height must come to the top of something built
/// nearby to match it.
const HEIGHT_SNAP_PX: f32 = 10.0;
/// How far round the footprint, in metres, tops are matched.
const HEIGHT_SNAP_REACH: f32 = 6.0;

/// The height (above the footprint's base) of the top of something built near
/// the footprint that the height `raw` comes within [`HEIGHT_SNAP_PX`] of on
/// screen, read along the vertical through `corner`; with the point of that
/// top nearest the footprint. Matching a 2.75 m wall took pixel-hunting on the
/// 0.25 m grid.
fn matching_top(
    scene: &Scene,
    view: &View,
    drawn: Drawn,
    corner: Vec3,
    raw: f32,
) -> Option<(f32, Vec3)> {
    let (lo, hi) = (drawn.start.min(drawn.end), drawn.start.max(drawn.end));
    let at = view.project(corner + Vec3::Y * raw)?;
    let mut best: Option<(f32, f32, Vec3)> = None;
    for e in scene.entities() {
        if !matches!(e.kind, EntityKind::Mesh(_)) || !scene.is_drawn(e.id) {
            continue;
        }
        let Some(b) = scene.world_aabb(e.id) else {
            continue;
        };
        let (bx, bz) = (Vec2::new(b.min.x, b.min.z), Vec2::new(b.max.x, b.max.z));
        if bx.x > hi.x + HEIGHT_SNAP_REACH
            || bz.x < lo.x - HEIGHT_SNAP_REACH
            || bx.y > hi.y + HEIGHT_SNAP_REACH
            || bz.y < lo.y - HEIGHT_SNAP_REACH
        {
            continue;
        }
        let top = b.max.y - drawn.base;
        if top.abs() < 0.05 {
            continue;
        }
        let Some(q) = view.project(corner + Vec3::Y * top) else {
            continue;
        };
        let d = q.distance(at);
        if d <= HEIGHT_SNAP_PX && best.is_none_or(|(bd, ..)| d < bd) {
            let middle = Vec2::new(corner.x, corner.z).clamp(bx, bz);
            best = Some((d, top, Vec3::new(middle.x, b.max.y, middle.y)));
        }
    }
    best.map(|(_, top, from)| (top, from))
}

fn level_point(view: &View, pixel: Vec2, y: f32) -> Option<Vec3> {
    let (origin, dir) = view.ray(pixel);
    plane_hit(origin, dir, y)
}

/// The height above `corner` of the point of its vertical nearest the ray under
/// `pixel`; `None` when the ray runs almost along the vertical (a top view).
fn height_along(view: &View, pixel: Vec2, corner: Vec3) -> Option<f32> {
    let (origin, dir) = view.ray(pixel);
    let b = dir.y;
    let denom = 1.0 - b * b;
    if denom < 0.05 {
        return None;
    }
    let w = corner - origin;
    Some((b * dir.dot(w) - w.y) / denom)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_vertical_nearest_the_ray_gives_the_height() {
        let camera = pebble_render::Camera::psp(Vec3::new(0.0, 4.0, 10.0), 0.2, -0.4);
        let view = View {
            camera,
            size: Vec2::new(800.0, 600.0),
        };
        let corner = Vec3::new(1.0, 0.0, 0.0);
        for h in [0.5f32, 2.0, -1.0] {
            let pixel = view.project(corner + Vec3::Y * h).expect("in view");
            let got = height_along(&view, pixel, corner).expect("not along the ray");
            assert!((got - h).abs() < 1e-3, "{h}: {got}");
        }
    }

    #[test]
    fn a_box_is_outlined_by_its_twelve_edges_not_its_diagonals() {
        let g = pebble_model::Primitive::Box { size: Vec3::ONE }
            .generate(pebble_model::MaterialId(1))
            .expect("a box");
        assert_eq!(g.faces.len(), 12);
        assert_eq!(feature_edges(&g).len(), 12);
    }

    #[test]
    fn snapping_puts_corners_on_the_grid_unless_free() {
        let p = Vec3::new(1.13, 4.0, -2.62);
        assert_eq!(snap_xz(p, 0.25, false), Vec2::new(1.25, -2.5));
        assert_eq!(snap_xz(p, 0.25, true), Vec2::new(1.13, -2.62));
        assert_eq!(
            plane_hit(Vec3::new(0.0, 5.0, 0.0), Vec3::NEG_Y, 1.0),
            Some(Vec3::Y)
        );
        assert_eq!(plane_hit(Vec3::new(0.0, 5.0, 0.0), Vec3::Y, 1.0), None);
    }
}
