//! The UI cache's parts tested alone: splitting shapes, the pixels copied and
//! redrawn.

use super::gpu::copy_rects;
use super::plugin::*;
use super::*;
use egui::epaint::ClippedShape;
use egui::{Color32, Shape, pos2, vec2};

fn rect_shape(r: Rect) -> ClippedShape {
    ClippedShape::new(Rect::EVERYTHING, Shape::rect_filled(r, 0.0, Color32::RED))
}

/// A stand-in for the viewport's picture: a paint callback filling `rect`.
fn picture(rect: Rect) -> ClippedShape {
    ClippedShape::new(
        Rect::EVERYTHING,
        Shape::Callback(egui::epaint::PaintCallback {
            rect,
            callback: Arc::new(()),
        }),
    )
}

#[test]
fn shapes_split_into_live_viewport_and_cached_ui() {
    let viewport = Rect::from_min_size(pos2(100.0, 50.0), vec2(400.0, 300.0));
    let shapes = vec![
        // The window's background, beneath the picture.
        rect_shape(Rect::from_min_size(pos2(0.0, 0.0), vec2(800.0, 600.0))),
        picture(viewport),
        rect_shape(Rect::from_min_size(pos2(0.0, 0.0), vec2(100.0, 400.0))),
        rect_shape(Rect::from_min_size(pos2(450.0, 60.0), vec2(40.0, 40.0))),
        rect_shape(Rect::from_min_size(pos2(500.0, 0.0), vec2(50.0, 50.0))),
    ];
    assert_eq!(
        split(&shapes, Some(viewport)),
        Split::Cache {
            ui: vec![0, 2, 4],
            live: vec![1, 3],
            picture: Some(1),
        }
    );
    // Without a viewport every shape is UI, and a paint callback among them
    // (here the picture) cannot be cached.
    assert_eq!(
        split(&shapes[2..], None),
        Split::Cache {
            ui: vec![0, 1, 2],
            live: vec![],
            picture: None,
        }
    );
    assert_eq!(split(&shapes, None), Split::Ordinary);
    // A menu over the picture: an ordinary frame.
    let mut with_menu = shapes.clone();
    with_menu.push(rect_shape(Rect::from_min_size(
        pos2(80.0, 30.0),
        vec2(100.0, 200.0),
    )));
    assert_eq!(split(&with_menu, Some(viewport)), Split::Ordinary);
    // Clipped to outside the viewport, it is UI again.
    with_menu[5].clip_rect = Rect::from_min_max(pos2(0.0, 0.0), pos2(100.0, 800.0));
    assert!(matches!(
        split(&with_menu, Some(viewport)),
        Split::Cache { .. }
    ));
    // A shape painting nothing (an empty frame's placeholder) is neither.
    let mut with_noop = vec![ClippedShape::new(Rect::EVERYTHING, Shape::Noop)];
    with_noop.extend(shapes.iter().cloned());
    assert_eq!(
        split(&with_noop, Some(viewport)),
        Split::Cache {
            ui: vec![1, 3, 5],
            live: vec![2, 4],
            picture: Some(2),
        }
    );
    // Touching the viewport's edge (a tab's underline) is not reaching in.
    let mut underline = shapes.clone();
    underline.push(rect_shape(Rect::from_min_max(
        pos2(100.0, 49.0),
        pos2(200.0, 51.0),
    )));
    assert!(matches!(
        split(&underline, Some(viewport)),
        Split::Cache { .. }
    ));
}

fn coverage(rects: &[PixelRect], x: u32, y: u32) -> usize {
    rects
        .iter()
        .filter(|r| (r.x0..r.x1).contains(&x) && (r.y0..r.y1).contains(&y))
        .count()
}

#[test]
fn the_copy_covers_the_window_except_the_pictures_pixels() {
    let size = [200, 100];
    let viewport = Rect::from_min_max(pos2(50.4, 20.6), pos2(150.5, 80.0));
    // Rounded as egui rounds a paint callback's viewport.
    let hole = picture_pixels(&picture(viewport), 1.0, size);
    assert_eq!(hole, Some(PixelRect::new(50, 21, 151, 80)));
    // The clear colour unknown: every pixel but the picture's is copied, once.
    let rects = copy_rects(&[], size, 1.0, hole, None);
    for y in 0..100 {
        for x in 0..200 {
            let in_hole = (50..151).contains(&x) && (21..80).contains(&y);
            assert_eq!(
                coverage(&rects, x, y),
                usize::from(!in_hole),
                "pixel {x},{y}"
            );
        }
    }
    // Rows of the same run merge: the window around the hole is four pieces.
    assert_eq!(rects.len(), 4, "{rects:?}");
    // At twice the pixels per point the hole scales with the viewport.
    let hole = picture_pixels(&picture(viewport), 2.0, [400, 200]);
    assert_eq!(hole, Some(PixelRect::new(101, 41, 301, 160)));
    // A picture clipped (a panel narrower than the viewport): the clip's
    // pixels; clipped away entirely: no hole.
    let mut clipped = picture(viewport);
    clipped.clip_rect = Rect::from_min_max(pos2(0.0, 0.0), pos2(100.2, 60.0));
    assert_eq!(
        picture_pixels(&clipped, 1.0, size),
        Some(PixelRect::new(50, 21, 100, 60))
    );
    clipped.clip_rect = Rect::from_min_max(pos2(0.0, 0.0), pos2(40.0, 60.0));
    assert_eq!(picture_pixels(&clipped, 1.0, size), None);
    // Off the window's edge: clamped to it.
    let beyond = Rect::from_min_max(pos2(-10.0, 50.0), pos2(260.0, 130.0));
    assert_eq!(
        picture_pixels(&picture(beyond), 1.0, size),
        Some(PixelRect::new(0, 50, 200, 100))
    );
}

#[test]
fn the_copy_goes_after_the_pass_only_when_nothing_live_is_under_it() {
    let viewport = Rect::from_min_max(pos2(100.0, 50.0), pos2(500.0, 350.0));
    let mut shapes = vec![
        picture(viewport),
        // The view cube, well inside.
        rect_shape(Rect::from_min_size(pos2(420.0, 60.0), vec2(60.0, 60.0))),
    ];
    let hole = picture_pixels(&shapes[0], 1.0, [800, 600]);
    assert!(live_inside(&shapes, &[0, 1], Some(0), 1.0, hole));
    // A live shape touching the picture's edge: its fringe would lie under
    // the copy, which must then be drawn beneath it, in the pass.
    shapes.push(rect_shape(Rect::from_min_max(
        pos2(100.0, 340.0),
        pos2(140.0, 350.0),
    )));
    assert!(!live_inside(&shapes, &[0, 1, 2], Some(0), 1.0, hole));
    // At twice the pixels per point the fringe is a smaller part of a point.
    let hole2 = picture_pixels(&shapes[0], 2.0, [1600, 1200]);
    assert!(live_inside(&shapes, &[0, 1], Some(0), 2.0, hole2));
    assert!(!live_inside(&shapes, &[0, 1, 2], Some(0), 2.0, hole2));
    // No picture: only frames without live shapes qualify.
    assert!(live_inside(&shapes, &[], None, 1.0, None));
    assert!(!live_inside(&shapes, &[1], None, 1.0, None));
}

#[test]
fn only_the_pixels_of_changed_shapes_are_redrawn() {
    let size = [800, 600];
    let at = |x: f32, y: f32| rect_shape(Rect::from_min_size(pos2(x, y), vec2(20.0, 10.0)));
    let old = vec![at(0.0, 0.0), at(100.0, 100.0), at(400.0, 500.0)];
    // Unchanged: nothing to redraw.
    assert_eq!(changed_pixels(&old, &old, 1.0, size), Some(vec![]));
    // One shape moved: where it was and where it is (its fringe included),
    // separately when far apart.
    let mut moved = old.clone();
    moved[1] = at(300.0, 100.0);
    let regions = changed_pixels(&old, &moved, 1.0, size).expect("small");
    assert_eq!(regions.len(), 2, "{regions:?}");
    assert!(
        regions.contains(&PixelRect::new(99, 99, 121, 111)),
        "{regions:?}"
    );
    assert!(
        regions.contains(&PixelRect::new(299, 99, 321, 111)),
        "{regions:?}"
    );
    // A shape inserted: the differing middle of the two lists; the shapes
    // of their common start and end stay.
    let mut inserted = old.clone();
    inserted.insert(1, at(600.0, 20.0));
    let regions = changed_pixels(&old, &inserted, 1.0, size).expect("small");
    assert_eq!(regions, vec![PixelRect::new(599, 19, 621, 31)]);
    // Near regions merge into one; overlapping ones too.
    let mut near = old.clone();
    near[0] = at(0.0, 12.0);
    let regions = changed_pixels(&old, &near, 1.0, size).expect("small");
    assert_eq!(regions, vec![PixelRect::new(0, 0, 21, 23)]);
    // Most of the window changed: redraw it whole.
    let big = vec![rect_shape(Rect::from_min_size(
        pos2(0.0, 0.0),
        vec2(700.0, 500.0),
    ))];
    assert_eq!(changed_pixels(&old[..1], &big, 1.0, size), None);
}

#[test]
fn a_redraw_of_regions_clears_them_and_paints_what_touches_them() {
    let background = Color32::from_gray(27);
    let shapes = vec![
        rect_shape(Rect::from_min_size(pos2(0.0, 0.0), vec2(50.0, 50.0))),
        rect_shape(Rect::from_min_size(pos2(200.0, 200.0), vec2(10.0, 10.0))),
    ];
    let out = redraw_shapes(&shapes, &[PixelRect::new(40, 40, 60, 60)], 2.0, background);
    // The fill, then only the shape touching the region, clipped to it (in
    // points: pixels / 2).
    assert_eq!(out.len(), 2);
    let region = Rect::from_min_max(pos2(20.0, 20.0), pos2(30.0, 30.0));
    assert_eq!(out[0].clip_rect, region);
    assert!(
        matches!(&out[0].shape, Shape::Rect(r) if r.fill == background && r.rect.contains_rect(region))
    );
    assert_eq!(out[1].clip_rect, region);
    assert_eq!(out[1].shape, shapes[0].shape);
}

#[test]
fn tiles_showing_only_the_clear_colour_are_not_copied() {
    let clear = Color32::from_gray(27);
    let size = [256, 128];
    let window = Rect::from_min_size(pos2(0.0, 0.0), vec2(256.0, 128.0));
    let shapes = vec![
        ClippedShape::new(Rect::EVERYTHING, Shape::rect_filled(window, 0.0, clear)),
        // A label in the tile at (96..128, 32..64).
        rect_shape(Rect::from_min_size(pos2(100.0, 40.0), vec2(10.0, 10.0))),
    ];
    let rects = copy_rects(&shapes, size, 1.0, None, Some(clear));
    assert_eq!(coverage(&rects, 105, 45), 1, "the label's tile");
    assert_eq!(coverage(&rects, 96, 33), 1, "the whole tile");
    assert_eq!(coverage(&rects, 180, 80), 0, "the background's inside");
    assert_eq!(coverage(&rects, 0, 64), 1, "the background's edge");
    // Another colour, rounded corners or an unknown clear: all copied.
    let other = vec![ClippedShape::new(
        Rect::EVERYTHING,
        Shape::rect_filled(window, 0.0, Color32::from_gray(28)),
    )];
    let rounded = vec![ClippedShape::new(
        Rect::EVERYTHING,
        Shape::rect_filled(window, 4.0, clear),
    )];
    for (shapes, clear) in [
        (&other, Some(clear)),
        (&rounded, Some(clear)),
        (&shapes, None),
    ] {
        let rects = copy_rects(shapes, size, 1.0, None, clear);
        assert_eq!(coverage(&rects, 180, 80), 1);
    }
    // The copy rectangles never overlap.
    for y in (0..128).step_by(3) {
        for x in (0..256).step_by(3) {
            assert!(coverage(&rects, x, y) <= 1);
        }
    }
}

#[test]
fn a_pixel_rect_minus_a_hole_is_the_rest_in_disjoint_pieces() {
    let r = PixelRect::new(0, 0, 10, 10);
    let pieces = r.minus(PixelRect::new(3, 4, 6, 8));
    assert_eq!(pieces.len(), 4);
    assert_eq!(pieces.iter().map(PixelRect::area).sum::<u64>(), 100 - 12);
    for (k, a) in pieces.iter().enumerate() {
        for b in &pieces[k + 1..] {
            assert_eq!(a.intersect(*b), None, "{a:?} and {b:?} overlap");
        }
    }
    assert_eq!(
        r.minus(PixelRect::new(20, 20, 30, 30)),
        vec![r],
        "no overlap"
    );
    assert!(
        r.minus(PixelRect::new(0, 0, 10, 10)).is_empty(),
        "all of it"
    );
    assert_eq!(PixelRect::new(2, 3, 7, 9).xywh(), [2, 3, 5, 6]);
    assert!(r.within(&PixelRect::new(15, 0, 20, 5), 8));
    assert!(!r.within(&PixelRect::new(19, 0, 25, 5), 8));
}
