//! The view cube in the viewport's top-right corner. Its maths: a unit cube split
//! into 54 cells (per side a centre = the face, four edge strips, four corners),
//! turned with the view and projected orthographically; which cell is under a
//! point; and the view that looks from a cell's direction. Its UI ([`ui`]): a click
//! on a cell looks from there, a drag orbits, Home and Persp/Ortho below it.

use pebble_model::Aabb;
use pebble_model::glam::{IVec3, Vec2, Vec3};

use super::view::ViewState;

/// The cube's size in points, and how far its projection reaches (in cube
/// radii: a corner seen head-on is √3 from the centre).
const SIZE: f32 = 120.0;
const REACH: f32 = 1.8;

/// The corner cells' share of a side (each edge strip is as wide).
const BORDER: f32 = 0.22;

/// One cell of the cube's surface.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Cell {
    /// Where the view comes from when the cell is clicked: one non-zero component
    /// for a face, two for an edge, three for a corner.
    pub dir: IVec3,
    /// The side it lies on.
    pub normal: Vec3,
    /// Its corners on the cube [−1, 1]³, counter-clockwise seen from outside.
    pub corners: [Vec3; 4],
}

impl Cell {
    pub fn is_face(&self) -> bool {
        self.dir.abs().element_sum() == 1
    }
}

/// The side labels, by outward normal.
pub fn face_name(normal: Vec3) -> &'static str {
    match (normal.x as i32, normal.y as i32, normal.z as i32) {
        (1, _, _) => "Right",
        (-1, _, _) => "Left",
        (_, 1, _) => "Top",
        (_, -1, _) => "Bottom",
        (_, _, 1) => "Front",
        _ => "Back",
    }
}

/// All 54 cells.
pub fn cells() -> Vec<Cell> {
    let mut out = Vec::with_capacity(54);
    let bands = [
        (-1.0, -1.0 + 2.0 * BORDER, -1),
        (-1.0 + 2.0 * BORDER, 1.0 - 2.0 * BORDER, 0),
        (1.0 - 2.0 * BORDER, 1.0, 1),
    ];
    for axis in 0..3 {
        for sign in [-1i32, 1] {
            let mut normal = Vec3::ZERO;
            normal[axis] = sign as f32;
            // Two in-plane axes forming a right-handed frame with the normal.
            let (u, v) = ((axis + 1) % 3, (axis + 2) % 3);
            for (u0, u1, du) in bands {
                for (v0, v1, dv) in bands {
                    let at = |a: f32, b: f32| {
                        let mut p = normal;
                        p[u] = a;
                        p[v] = b;
                        p
                    };
                    let mut corners = [at(u0, v0), at(u1, v0), at(u1, v1), at(u0, v1)];
                    if sign < 0 {
                        corners.reverse();
                    }
                    let mut dir = IVec3::ZERO;
                    dir[axis] = sign;
                    dir[u] = du;
                    dir[v] = dv;
                    out.push(Cell {
                        dir,
                        normal,
                        corners,
                    });
                }
            }
        }
    }
    out
}

/// The view's basis for a yaw and pitch: (right, up, towards the viewer).
fn basis(yaw: f32, pitch: f32) -> (Vec3, Vec3, Vec3) {
    let (sy, cy) = yaw.sin_cos();
    let (sp, cp) = pitch.sin_cos();
    let forward = Vec3::new(sy * cp, sp, -cy * cp);
    let right = forward.cross(Vec3::Y).normalize_or(Vec3::X);
    let up = right.cross(forward);
    (right, up, -forward)
}

/// Where a point of the cube lands, in cube radii from the centre, y down.
pub fn project(yaw: f32, pitch: f32, p: Vec3) -> Vec2 {
    let (r, u, _) = basis(yaw, pitch);
    Vec2::new(p.dot(r), -p.dot(u))
}

/// The cells facing the viewer, with their projected corners.
pub fn visible(yaw: f32, pitch: f32) -> Vec<(Cell, [Vec2; 4])> {
    let (_, _, toward) = basis(yaw, pitch);
    cells()
        .into_iter()
        .filter(|c| c.normal.dot(toward) > 1e-3)
        .map(|c| (c, c.corners.map(|p| project(yaw, pitch, p))))
        .collect()
}

/// Whether a face's name fits on its centre cell as projected (`quad`): a face
/// seen nearly edge-on is a sliver, and its name would spill over its neighbours.
pub fn label_fits(quad: &[Vec2; 4]) -> bool {
    let area = |q: &[Vec2; 4]| {
        (0..4)
            .map(|k| q[k].perp_dot(q[(k + 1) % 4]))
            .sum::<f32>()
            .abs()
            * 0.5
    };
    let size = |q: &[Vec2; 4]| {
        let (lo, hi) = q.iter().fold(
            (Vec2::splat(f32::INFINITY), Vec2::splat(f32::NEG_INFINITY)),
            |(lo, hi), p| (lo.min(*p), hi.max(*p)),
        );
        hi - lo
    };
    // The centre cell seen head-on.
    let head_on = 2.0 * (1.0 - 2.0 * BORDER);
    let extent = size(quad);
    area(quad) >= 0.3 * head_on * head_on && extent.min_element() >= 0.45 * head_on
}

/// The cell under `p` (in cube radii from the centre, y down).
pub fn hit(yaw: f32, pitch: f32, p: Vec2) -> Option<Cell> {
    visible(yaw, pitch)
        .into_iter()
        .find(|(_, q)| super::view::inside_quad(p, *q))
        .map(|(c, _)| c)
}

pub use super::view::yaw_pitch_from;

/// Where the view cube is drawn in a viewport at `viewport`, in points.
pub fn rect(viewport: egui::Rect) -> egui::Rect {
    egui::Rect::from_min_size(
        viewport.right_top() + egui::vec2(-SIZE - 12.0, 12.0),
        egui::vec2(SIZE, SIZE),
    )
}

/// The point of the cube that shows `dir` (a face's centre, an edge's or a
/// corner's middle), in points, seen with `yaw` and `pitch`.
pub fn point(viewport: egui::Rect, yaw: f32, pitch: f32, dir: IVec3) -> egui::Pos2 {
    let rect = rect(viewport);
    let p = project(
        yaw,
        pitch,
        dir.as_vec3() * 0.85 / dir.abs().max_element().max(1) as f32,
    );
    rect.center() + egui::vec2(p.x, p.y) * (SIZE / 2.0 / REACH)
}

/// Draws the cube over the viewport at `viewport`, turned with the view: a click
/// on a face, edge or corner looks from there (eased, pivot and projection kept),
/// a drag orbits, and Home below it gives the iso view framing `bounds`.
pub fn ui(ui: &mut egui::Ui, viewport: egui::Rect, view: &mut ViewState, bounds: Option<Aabb>) {
    let rect = rect(viewport);
    let scale = SIZE / 2.0 / REACH;
    let response = ui.interact(
        rect,
        egui::Id::unique("pebble view cube"),
        egui::Sense::click_and_drag(),
    );
    let (yaw, pitch) = (view.orbit.yaw, view.orbit.pitch);
    let to_cube = |p: egui::Pos2| {
        let d = (p - rect.center()) / scale;
        Vec2::new(d.x, d.y)
    };
    let hovered = response
        .hover_pos()
        .and_then(|p| hit(yaw, pitch, to_cube(p)));
    if response.clicked()
        && let Some(cell) = response
            .interact_pointer_pos()
            .and_then(|p| hit(yaw, pitch, to_cube(p)))
    {
        view.look_from(cell.dir);
    }
    if response.dragged() {
        let d = response.drag_delta() * ui.ctx().pixels_per_point();
        view.stop();
        view.orbit.orbit(Vec2::new(d.x, d.y) * 2.0);
    }
    let painter = ui.painter_at(rect.expand(2.0));
    let light = Vec3::new(0.3, 0.8, 0.5).normalize();
    let mut cells = visible(yaw, pitch);
    // Draw the sides lit by their facing, edges and corners a shade darker.
    cells.sort_by_key(|(c, _)| !c.is_face());
    for (cell, quad) in &cells {
        let shade = 0.55 + 0.35 * cell.normal.dot(light).max(0.0);
        let base = if cell.is_face() { 150.0 } else { 120.0 };
        let v = (base * shade) as u8;
        let hot = hovered.is_some_and(|h| h.dir == cell.dir);
        let fill = if hot {
            egui::Color32::from_rgb(255, 170, 40)
        } else {
            egui::Color32::from_rgb(v, v, v.saturating_add(12))
        };
        let points: Vec<egui::Pos2> = quad
            .iter()
            .map(|p| rect.center() + egui::vec2(p.x, p.y) * scale)
            .collect();
        painter.add(egui::Shape::convex_polygon(
            points,
            fill,
            egui::Stroke::new(0.5, egui::Color32::from_gray(40)),
        ));
    }
    for (cell, quad) in &cells {
        if cell.is_face() && label_fits(quad) {
            let centre = quad.iter().fold(Vec2::ZERO, |a, p| a + *p) / 4.0;
            painter.text(
                rect.center() + egui::vec2(centre.x, centre.y) * scale,
                egui::Align2::CENTER_CENTER,
                face_name(cell.normal),
                egui::FontId::proportional(11.0),
                egui::Color32::from_gray(15),
            );
        }
    }
    let below = egui::Rect::from_min_size(
        rect.left_bottom() + egui::vec2(0.0, 4.0),
        egui::vec2(SIZE, 20.0),
    );
    ui.scope_builder(egui::UiBuilder::new().max_rect(below), |ui| {
        ui.horizontal(|ui| {
            if ui
                .small_button("Home")
                .on_hover_text("iso view, frame all")
                .clicked()
            {
                view.home(bounds);
            }
            let label = if view.orbit.ortho { "Ortho" } else { "Persp" };
            if ui
                .small_button(label)
                .on_hover_text("toggle the projection (Numpad 5)")
                .clicked()
            {
                view.toggle_projection();
            }
        });
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_faces_seen_enough_of_carry_their_name() {
        let fitting = |yaw: f32, pitch: f32| -> Vec<&'static str> {
            visible(yaw, pitch)
                .into_iter()
                .filter(|(c, q)| c.is_face() && label_fits(q))
                .map(|(c, _)| face_name(c.normal))
                .collect()
        };
        // Head-on: the front alone; the top, seen edge-on, has no name to spill.
        let (yaw, pitch) = yaw_pitch_from(IVec3::new(0, 0, 1));
        assert_eq!(fitting(yaw, pitch - 0.05), vec!["Front"]);
        // The iso view: three faces, each named.
        let (yaw, pitch) = yaw_pitch_from(IVec3::new(1, 1, 1));
        assert_eq!(fitting(yaw, pitch).len(), 3, "{:?}", fitting(yaw, pitch));
    }

    #[test]
    fn the_cells_cover_each_side_once() {
        let all = cells();
        assert_eq!(all.len(), 54);
        assert_eq!(all.iter().filter(|c| c.is_face()).count(), 6);
        // 12 edges and 8 corners, each reachable from every side it touches.
        let mut dirs: Vec<IVec3> = all.iter().map(|c| c.dir).collect();
        dirs.sort_by_key(|d| (d.x, d.y, d.z));
        dirs.dedup();
        assert_eq!(dirs.len(), 26);
        // Cells face outwards: counter-clockwise seen from outside.
        for c in &all {
            let n = (c.corners[1] - c.corners[0]).cross(c.corners[2] - c.corners[1]);
            assert!(n.dot(c.normal) > 0.0, "{c:?}");
        }
    }

    #[test]
    fn the_cell_in_the_middle_is_the_face_the_view_looks_at() {
        let (yaw, pitch) = yaw_pitch_from(IVec3::Z);
        let c = hit(yaw, pitch, Vec2::ZERO).expect("a cell");
        assert_eq!(face_name(c.normal), "Front");
        assert!(c.is_face());
        // From the top: the middle is Top, and the strip towards the screen's bottom
        // is the top-front edge (the view is "north up").
        let (yaw, pitch) = yaw_pitch_from(IVec3::Y);
        assert!(pitch < -1.5);
        let c = hit(yaw, pitch, Vec2::ZERO).expect("a cell");
        assert_eq!(face_name(c.normal), "Top");
        let c = hit(yaw, pitch, Vec2::new(0.0, 0.85)).expect("a cell");
        assert_eq!(c.dir, IVec3::new(0, 1, 1));
    }

    #[test]
    fn clicking_a_corner_looks_from_that_corner() {
        // An iso view from front-right-top: the middle of the cube is that corner.
        let (yaw, pitch) = yaw_pitch_from(IVec3::new(1, 1, 1));
        let c = hit(yaw, pitch, Vec2::ZERO).expect("a cell");
        assert_eq!(c.dir, IVec3::new(1, 1, 1));
        let forward = Vec3::new(
            yaw.sin() * pitch.cos(),
            pitch.sin(),
            -yaw.cos() * pitch.cos(),
        );
        assert!(forward.dot(-Vec3::ONE.normalize()) > 0.9999, "{forward}");
        // Three sides show, and a point outside the cube hits nothing.
        let sides: std::collections::BTreeSet<&str> = visible(yaw, pitch)
            .iter()
            .map(|(c, _)| face_name(c.normal))
            .collect();
        assert_eq!(sides.len(), 3);
        assert!(hit(yaw, pitch, Vec2::new(3.0, 0.0)).is_none());
    }

    #[test]
    fn every_cell_clicked_turns_the_view_to_look_from_its_direction() {
        for c in cells() {
            let (yaw, pitch) = yaw_pitch_from(c.dir);
            let (_, _, toward) = basis(yaw, pitch);
            let d = c.dir.as_vec3().normalize();
            // Straight up and down are limited to 89°.
            assert!(toward.dot(d) > 0.9998, "{:?}: {toward}", c.dir);
        }
    }
}
