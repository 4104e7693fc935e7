//! The gizmo's maths checked against where things are drawn and grabbed.

use super::*;
use pebble_render::Camera;

fn view() -> View {
    View {
        camera: Camera {
            eye: Vec3::new(4.0, 3.0, 6.0),
            yaw: -0.55,
            pitch: -0.35,
            fov_y_deg: 60.0,
            near: 0.05,
            far: 500.0,
            ortho_height: 0.0,
        },
        size: Vec2::new(1000.0, 700.0),
    }
}

fn gizmo(mode: Mode, pivot: Vec3) -> Gizmo {
    Gizmo {
        mode,
        pivot,
        orientation: Quat::IDENTITY,
    }
}

#[test]
fn each_handle_is_hit_where_it_is_drawn() {
    let v = view();
    let g = gizmo(Mode::Translate, Vec3::new(0.5, 0.0, -1.0));
    let centre = v.project(g.pivot).expect("in view");
    assert_eq!(hit(&v, &g, centre), Some(Handle::Centre));
    let len = v.handle_length(g.pivot);
    for i in 0..3 {
        let tip = v.project(g.pivot + g.axis(i) * len * 0.8).expect("in view");
        assert_eq!(hit(&v, &g, tip), Some(Handle::Axis(i)), "axis {i}");
        let (a, b) = (g.axis((i + 1) % 3), g.axis((i + 2) % 3));
        let mid = v.project(g.pivot + (a + b) * len * 0.35).expect("in view");
        assert_eq!(hit(&v, &g, mid), Some(Handle::Plane(i)), "plane {i}");
    }
    assert_eq!(hit(&v, &g, centre + Vec2::new(300.0, 300.0)), None);
}

#[test]
fn the_handles_keep_their_screen_size() {
    let v = view();
    let near = Vec3::new(3.0, 2.0, 3.0);
    let far = near + v.camera.forward() * 40.0;
    let px = |p: Vec3| {
        let a = v.project(p).expect("visible");
        let b = v
            .project(p + Vec3::Y * v.handle_length(p))
            .expect("visible");
        a.distance(b)
    };
    assert!(
        (px(near) / px(far) - 1.0).abs() < 0.1,
        "{} vs {}",
        px(near),
        px(far)
    );
}

#[test]
fn an_axis_drag_moves_along_the_axis_under_the_cursor() {
    let v = view();
    let g = gizmo(Mode::Translate, Vec3::ZERO);
    let start = v.project(Vec3::X * 0.5).expect("visible");
    let drag = Drag::start(&v, g, Handle::Axis(0), start).expect("starts");
    // Move the cursor to where a point 1.5 m further along X projects.
    let target = v.project(Vec3::X * 2.0).expect("visible");
    let Change::Translate(d) = drag.change(&v, target, None) else {
        panic!("a move")
    };
    assert!((d - Vec3::X * 1.5).length() < 1e-3, "{d}");
    // Off the axis on screen, the move stays on the axis.
    let Change::Translate(d) = drag.change(&v, target + Vec2::new(0.0, 40.0), None) else {
        panic!("a move")
    };
    assert!(d.y.abs() < 1e-6 && d.z.abs() < 1e-6, "{d}");
    // Snapping rounds the move to whole steps: 0.87 m becomes 0.75 m.
    let snapped = drag.change(
        &v,
        v.project(Vec3::X * 1.37).expect("visible"),
        Some(Snap::default()),
    );
    let Change::Translate(d) = snapped else {
        panic!("a move")
    };
    assert!((d.x - 0.75).abs() < 1e-5, "{d}");
}

#[test]
fn grid_snapping_puts_the_pivot_on_the_grid_and_relative_snapping_keeps_the_offset() {
    let v = view();
    let pivot = Vec3::new(1.62, 0.3, 0.0);
    let g = gizmo(Mode::Translate, pivot);
    let start = v.project(pivot + Vec3::X * 0.5).expect("visible");
    let drag = Drag::start(&v, g, Handle::Axis(0), start).expect("starts");
    // The cursor where the grabbed point would be 1.1 m further along X.
    let to = v.project(pivot + Vec3::X * 1.6).expect("visible");
    let step = Snap {
        step: 1.0,
        ..Snap::default()
    };
    let moved = |snap: Snap| match drag.change(&v, to, Some(snap)) {
        Change::Translate(d) => pivot + d,
        other => panic!("{other:?}"),
    };
    let absolute = moved(step);
    assert!((absolute.x - 3.0).abs() < 1e-4, "on the grid: {absolute}");
    assert_eq!((absolute.y, absolute.z), (0.3, 0.0), "the other axes stay");
    let relative = moved(Snap {
        relative: true,
        ..step
    });
    assert!(
        (relative.x - 2.62).abs() < 1e-4,
        "a whole step on: {relative}"
    );
    // A plane handle snaps both of its axes, the normal's stays.
    let drag = Drag::start(
        &v,
        g,
        Handle::Plane(1),
        v.project(pivot + Vec3::new(0.3, 0.0, 0.3))
            .expect("visible"),
    )
    .expect("starts");
    let to = v
        .project(pivot + Vec3::new(0.9, 0.0, 0.8))
        .expect("visible");
    let Change::Translate(d) = drag.change(&v, to, Some(step)) else {
        panic!("a move")
    };
    let p = pivot + d;
    assert!(
        (p.x - 2.0).abs() < 1e-3 && p.z.abs() < 1e-3 && (p.y - 0.3).abs() < 1e-5,
        "{p}"
    );
}

#[test]
fn local_axes_follow_the_entity() {
    let v = view();
    let turn = Quat::from_rotation_y(0.5);
    let g = Gizmo {
        orientation: turn,
        ..gizmo(Mode::Translate, Vec3::ZERO)
    };
    let x = turn * Vec3::X;
    let start = v.project(x * 0.5).expect("visible");
    let drag = Drag::start(&v, g, Handle::Axis(0), start).expect("starts");
    let Change::Translate(d) = drag.change(&v, v.project(x * 1.5).expect("visible"), None) else {
        panic!("a move")
    };
    assert!((d - x).length() < 1e-3, "{d} vs {x}");
}

#[test]
fn plane_and_screen_drags_keep_the_point_under_the_cursor() {
    let v = view();
    let g = gizmo(Mode::Translate, Vec3::new(1.0, 0.5, -2.0));
    let start = v.project(g.pivot).expect("visible");
    let drag = Drag::start(&v, g, Handle::Centre, start).expect("starts");
    let to = start + Vec2::new(120.0, -45.0);
    let Change::Translate(d) = drag.change(&v, to, None) else {
        panic!("a move")
    };
    let at = v.project(g.pivot + d).expect("visible");
    assert!(at.distance(to) < 0.05, "{at} vs {to}");
    // The ground plane (normal Y): the move has no Y and tracks the cursor.
    let len = v.handle_length(g.pivot);
    let grab = g.pivot + (Vec3::X + Vec3::Z) * len * 0.35;
    let drag =
        Drag::start(&v, g, Handle::Plane(1), v.project(grab).expect("visible")).expect("starts");
    let to = v
        .project(grab + Vec3::new(0.7, 0.0, -0.4))
        .expect("visible");
    let Change::Translate(d) = drag.change(&v, to, None) else {
        panic!("a move")
    };
    assert!((d - Vec3::new(0.7, 0.0, -0.4)).length() < 1e-3, "{d}");
}

#[test]
fn a_ring_drag_turns_by_the_angle_swept_and_snaps() {
    let v = view();
    let g = gizmo(Mode::Rotate, Vec3::ZERO);
    // The Y ring faces this camera well (it looks down at 20°... and the ring's
    // front half is grabbed at angle 1.2 rad, where it is nearest the viewer).
    let grab = g.ring_point(&v, 1, 1.2);
    let px = v.project(grab).expect("visible");
    assert_eq!(hit(&v, &g, px), Some(Handle::Axis(1)));
    let drag = Drag::start(&v, g, Handle::Axis(1), px).expect("starts");
    assert!(!drag.screen_angle);
    let to = v.project(g.ring_point(&v, 1, 1.2 + 0.5)).expect("visible");
    let Change::Rotate(q) = drag.change(&v, to, None) else {
        panic!("a turn")
    };
    let (axis, angle) = q.to_axis_angle();
    assert!(
        (angle - 0.5).abs() < 1e-3 && (axis - Vec3::Y).length() < 1e-3,
        "{axis} {angle}"
    );
    // 0.5 rad = 28.6° snaps to 30°.
    let Change::Rotate(q) = drag.change(&v, to, Some(Snap::default())) else {
        panic!("a turn")
    };
    assert!((q.to_axis_angle().1 - 30f32.to_radians()).abs() < 1e-4);
}

#[test]
fn an_edge_on_ring_falls_back_to_the_screen_angle() {
    // Looking straight along −Z: the X ring (in the YZ plane) is edge-on.
    let v = View {
        camera: Camera {
            eye: Vec3::new(0.0, 0.0, 5.0),
            yaw: 0.0,
            pitch: 0.0,
            fov_y_deg: 60.0,
            near: 0.05,
            far: 100.0,
            ortho_height: 0.0,
        },
        size: Vec2::new(800.0, 800.0),
    };
    let g = gizmo(Mode::Rotate, Vec3::ZERO);
    let top = v.project(g.ring_point(&v, 0, 0.0)).expect("visible");
    assert_eq!(hit(&v, &g, top), Some(Handle::Axis(0)));
    let drag = Drag::start(&v, g, Handle::Axis(0), top).expect("starts");
    assert!(drag.screen_angle);
    // A quarter turn clockwise on screen about the centre.
    let c = v.project(g.pivot).expect("visible");
    let right = c + Vec2::new((top - c).length(), 0.0);
    let Change::Rotate(q) = drag.change(&v, right, None) else {
        panic!("a turn")
    };
    let angle = q.to_axis_angle().1;
    assert!(
        (angle - std::f32::consts::FRAC_PI_2).abs() < 1e-3,
        "{angle}"
    );
    assert!(q.is_finite());
}

#[test]
fn scale_along_an_axis_follows_the_cursor_and_uniform_follows_the_drag() {
    let v = view();
    let g = gizmo(Mode::Scale, Vec3::ZERO);
    let len = v.handle_length(g.pivot);
    let grab = v.project(Vec3::X * len * 0.9).expect("visible");
    assert_eq!(hit(&v, &g, grab), Some(Handle::Axis(0)));
    let drag = Drag::start(&v, g, Handle::Axis(0), grab).expect("starts");
    let to = v.project(Vec3::X * len * 1.8).expect("visible");
    let Change::Scale(f) = drag.change(&v, to, None) else {
        panic!("a scale")
    };
    assert!((f - Vec3::new(2.0, 1.0, 1.0)).length() < 1e-3, "{f}");
    let c = v.project(g.pivot).expect("visible");
    let drag = Drag::start(&v, g, Handle::Centre, c).expect("starts");
    let Change::Scale(f) = drag.change(&v, c + Vec2::new(UNIFORM_PIXELS, 0.0), None) else {
        panic!("a scale")
    };
    assert!((f - Vec3::splat(2.0)).length() < 1e-4, "{f}");
    let Change::Scale(f) = drag.change(&v, c - Vec2::new(10.0 * UNIFORM_PIXELS, 0.0), None) else {
        panic!("a scale")
    };
    assert!(f.min_element() >= 0.01, "never collapses: {f}");
}

#[test]
fn changes_apply_about_the_common_pivot() {
    let g = gizmo(Mode::Rotate, Vec3::new(1.0, 0.0, 0.0));
    let a = Affine3A::from_translation(Vec3::new(2.0, 0.0, 0.0));
    let b = Affine3A::from_translation(Vec3::new(0.0, 0.0, 0.0));
    let quarter = Change::Rotate(Quat::from_rotation_y(std::f32::consts::FRAC_PI_2));
    let a2 = apply(&quarter, &g, a);
    let b2 = apply(&quarter, &g, b);
    // +X of the pivot turns to −Z, −X to +Z; both turned a quarter themselves.
    assert!((Vec3::from(a2.translation) - Vec3::new(1.0, 0.0, -1.0)).length() < 1e-5);
    assert!((Vec3::from(b2.translation) - Vec3::new(1.0, 0.0, 1.0)).length() < 1e-5);
    assert!((a2.transform_vector3(Vec3::X) - Vec3::NEG_Z).length() < 1e-5);
    // Scale doubles the spread about the pivot and each entity's own size.
    let g = gizmo(Mode::Scale, Vec3::new(1.0, 0.0, 0.0));
    let a3 = apply(&Change::Scale(Vec3::splat(2.0)), &g, a);
    assert!((Vec3::from(a3.translation) - Vec3::new(3.0, 0.0, 0.0)).length() < 1e-5);
    assert!((a3.transform_vector3(Vec3::Y) - Vec3::Y * 2.0).length() < 1e-5);
    let t = apply(&Change::Translate(Vec3::Z), &g, a);
    assert!((Vec3::from(t.translation) - Vec3::new(2.0, 0.0, 1.0)).length() < 1e-6);
}

#[test]
fn the_back_half_of_a_ring_is_drawn_faded_and_cannot_be_grabbed() {
    let v = view();
    let g = gizmo(Mode::Rotate, Vec3::ZERO);
    let lines = lines(&v, &g);
    let y_ring: Vec<_> = lines
        .iter()
        .filter(|l| l.handle == Handle::Axis(1))
        .collect();
    let back = y_ring.iter().filter(|l| l.back).count();
    assert!(
        back > 10 && back < y_ring.len() - 10,
        "{back} of {}",
        y_ring.len()
    );
    // The point of the Y ring farthest from the viewer, where no other ring passes.
    let toward = v.towards_viewer(g.pivot);
    let far = (0..64)
        .map(|k| g.ring_point(&v, 1, k as f32 / 64.0 * std::f32::consts::TAU))
        .min_by(|a, b| a.dot(toward).total_cmp(&b.dot(toward)))
        .expect("points");
    let px = v.project(far).expect("visible");
    assert_ne!(hit(&v, &g, px), Some(Handle::Axis(1)));
}

/// The report: the gizmo swallowed clicks meant for the thing under it, away
/// from its handles. The rotate rings' back halves were drawn to the pivot for
/// the hit test, so the pivot and two spokes per ring took clicks: now only the
/// rings themselves do.
#[test]
fn the_rotate_gizmo_takes_no_click_inside_its_rings() {
    let v = view();
    let g = gizmo(Mode::Rotate, Vec3::ZERO);
    let centre = v.project(g.pivot).expect("visible");
    assert_eq!(hit(&v, &g, centre), None, "the pivot is no handle");
    // Across the inside of the rings, away from every ring, nothing is hit.
    let ring_px = v
        .project(g.screen_ring_point(&v, 0.0))
        .expect("visible")
        .distance(centre);
    let mut swallowed = Vec::new();
    for k in 0..32 {
        let a = k as f32 / 32.0 * std::f32::consts::TAU;
        for r in [0.15, 0.3, 0.45] {
            let p = centre + Vec2::new(a.cos(), a.sin()) * r * ring_px;
            let near_ring = (0..3).any(|i| {
                (0..64).any(|t| {
                    v.project(g.ring_point(&v, i, t as f32 / 64.0 * std::f32::consts::TAU))
                        .is_some_and(|q| q.distance(p) <= HIT_PIXELS * 1.5)
                })
            });
            if !near_ring && hit(&v, &g, p).is_some() {
                swallowed.push(p);
            }
        }
    }
    assert!(
        swallowed.is_empty(),
        "clicks taken away from the rings: {swallowed:?}"
    );
}
