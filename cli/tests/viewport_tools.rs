//! The viewport's tools in the whole app, driven with egui events as a person's
//! mouse makes them (the tools' own logic is unit-tested in
//! `app/viewport/tools/tests.rs`).

use crate::common;

use eframe::egui;
use pebble_core::services::showcase::showcase_path;

use common::harness_on;

fn right(
    harness: &mut egui_kittest::Harness<'static, pebble_editor::app::PebbleApp>,
    pos: egui::Pos2,
    pressed: bool,
) {
    harness.event(egui::Event::PointerButton {
        pos,
        button: egui::PointerButton::Secondary,
        pressed,
        modifiers: egui::Modifiers::NONE,
    });
}

/// A flight starts on the right press: two pixels of movement (below egui's drag
/// threshold) already turn the view, and Esc puts it back.
#[test]
fn a_flight_starts_on_the_right_press_and_esc_puts_the_view_back() {
    let Some(mut harness) = harness_on(showcase_path()) else {
        return;
    };
    let (before, rect) = harness.state().view();
    let mid = rect.center();
    harness.hover_at(mid);
    harness.run_steps(1);
    right(&mut harness, mid, true);
    harness.run_steps(1);
    for k in 1..=2 {
        harness.event(egui::Event::PointerMoved(mid + egui::vec2(k as f32, 0.0)));
        harness.run_steps(1);
    }
    let (flying, _) = harness.state().view();
    assert_ne!(flying.yaw, before.yaw, "the look turned after two pixels");
    assert_eq!(harness.state().viewport.tools.active(), Some("navigate"));
    harness.key_press(egui::Key::Escape);
    harness.run_steps(1);
    right(&mut harness, mid + egui::vec2(2.0, 0.0), false);
    harness.run_steps(2);
    let (after, _) = harness.state().view();
    assert_eq!(after.yaw, before.yaw, "Esc put the view back");
    assert_eq!(after.eye, before.eye);
    assert!(!harness.state().viewport.tools.is_active());
    assert!(
        harness.state().scene().selection().is_empty(),
        "Esc was the flight's, not the selection's"
    );
}

/// From under the courtyard floor its single-sided top is seen from behind: drawn
/// faintly and named "(back side)" under the cursor; with View › Show back faces
/// off it is culled, as on the device, and not picked.
#[test]
fn a_back_face_is_named_as_such_and_not_picked_when_hidden() {
    let Some(mut harness) = harness_on(showcase_path()) else {
        return;
    };
    {
        let orbit = &mut harness.state_mut().viewport.view.orbit;
        // Under an empty corner of the courtyard (the campfire is at the centre).
        orbit.pivot = pebble_model::glam::Vec3::new(-6.0, -3.0, 5.0);
        orbit.distance = 2.0;
        // Looking straight up.
        orbit.pitch = 1.4;
    }
    let (_, rect) = harness.state().view();
    let shown = |h: &egui_kittest::Harness<'static, pebble_editor::app::PebbleApp>, text: &str| {
        use egui_kittest::kittest::Queryable as _;
        h.query_by_label_contains(text).is_some()
    };
    harness.hover_at(rect.center());
    harness.run_steps(8);
    assert!(shown(
        &harness,
        "under the cursor: Courtyard floor  (back side)"
    ));
    harness.state_mut().viewport.looks.back_faces = false;
    harness.hover_at(rect.center() + egui::vec2(3.0, 0.0));
    harness.run_steps(8);
    assert!(!shown(&harness, "under the cursor: Courtyard floor"));
}

/// A light is named under the cursor and selected by a click on its icon, which
/// draws in the selection colour then; View's fog and layer toggles switch.
#[test]
fn a_light_icon_is_named_and_picked_and_the_view_menu_switches_layers() {
    use egui_kittest::kittest::Queryable as _;
    let Some(mut harness) = harness_on(showcase_path()) else {
        return;
    };
    let scene = harness.state().scene();
    let (id, at) = scene
        .entities()
        .find(|e| e.name == "Torch light left")
        .map(|e| (e.id, e.transform.translation))
        .expect("the torch's light");
    let point = common::screen(harness.state(), at);
    harness.hover_at(point);
    harness.run_steps(8);
    assert!(
        harness
            .query_by_label_contains("under the cursor: Torch light left")
            .is_some()
    );
    common::click(&mut harness, point);
    assert_eq!(harness.state().scene().selection(), &[id]);
    type Flag = fn(&pebble_editor::app::PebbleApp) -> bool;
    let fog: Flag = |a| a.viewport.looks.fog;
    let back_faces: Flag = |a| a.viewport.looks.back_faces;
    for (label, on) in [
        ("Fog in the viewport", fog),
        ("Show back faces", back_faces),
    ] {
        assert!(on(harness.state()));
        harness.get_by_label("View").click();
        harness.run_steps(2);
        harness.get_by_label(label).click();
        harness.run_steps(2);
        assert!(!on(harness.state()), "{label} switched off");
        harness.key_press(egui::Key::Escape);
        harness.run_steps(2);
    }
    harness.get_by_label("View").click();
    harness.run_steps(2);
    harness.get_by_label("Overlay layers").hover();
    harness.run_steps(3);
    harness.get_by_label("Grid").click();
    harness.run_steps(2);
    assert!(!harness.state().viewport.looks.layers.grid);
}

/// The Edit operations from the keyboard, on the real app: Ctrl+D duplicates the
/// selection, Delete removes it, H hides, Alt+H unhides, and each is one undo step.
#[test]
fn edit_operations_from_the_keyboard_are_one_step_each() {
    use egui_kittest::kittest::Queryable as _;
    let Some(mut harness) = harness_on(showcase_path()) else {
        return;
    };
    let count =
        |h: &egui_kittest::Harness<'static, pebble_editor::app::PebbleApp>| h.state().scene().len();
    let n = count(&harness);
    harness.get_by_label("Stairs  (mesh)").click();
    harness.run_steps(2);
    let stairs = harness.state().scene().selection().to_vec();
    assert_eq!(stairs.len(), 1);
    // The pointer over the viewport, so that the keys are not a panel's.
    let (_, rect) = harness.state().view();
    harness.hover_at(rect.center());
    harness.run_steps(1);
    let steps = |h: &egui_kittest::Harness<'static, pebble_editor::app::PebbleApp>| {
        h.state().history_position()
    };
    let start = steps(&harness);
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::D);
    harness.run_steps(2);
    assert_eq!(count(&harness), n + 1, "a copy");
    assert_ne!(
        harness.state().scene().selection(),
        &stairs[..],
        "the copy is selected"
    );
    harness.key_press(egui::Key::Delete);
    harness.run_steps(2);
    assert_eq!(count(&harness), n, "the copy deleted");
    harness
        .state_mut()
        .doc
        .select(stairs.clone())
        .expect("select");
    harness.key_press(egui::Key::H);
    harness.run_steps(2);
    let visible = |h: &egui_kittest::Harness<'static, pebble_editor::app::PebbleApp>| {
        h.state()
            .scene()
            .entity(stairs[0])
            .is_some_and(|e| e.visible)
    };
    assert!(!visible(&harness));
    harness.key_press_modifiers(egui::Modifiers::ALT, egui::Key::H);
    harness.run_steps(2);
    assert!(visible(&harness));
    // Hiding and showing are the view's, as the selection is: no steps.
    assert_eq!(steps(&harness), start + 2, "two steps");
    assert_ne!(
        harness.state().history_undo_name().as_deref(),
        Some("Unhide all")
    );
}

/// Ctrl+C and Ctrl+V as egui delivers them (clipboard events): the copy reaches
/// the system clipboard's text, the paste is one step that adds the copy.
#[test]
fn copy_and_paste_go_through_the_clipboard_as_text() {
    use egui_kittest::kittest::Queryable as _;
    let Some(mut harness) = harness_on(showcase_path()) else {
        return;
    };
    let n = harness.state().scene().len();
    harness.get_by_label("Stairs  (mesh)").click();
    harness.run_steps(2);
    let (_, rect) = harness.state().view();
    harness.hover_at(rect.center());
    harness.run_steps(1);
    harness.event(egui::Event::Copy);
    harness.run_steps(2);
    let text = harness.state().clipboard.clone().expect("copied");
    assert!(text.contains("pebble_clipboard") && text.contains("Stairs"));
    let before = harness.state().history_position();
    harness.event(egui::Event::Paste(text));
    harness.run_steps(2);
    assert_eq!(harness.state().scene().len(), n + 1);
    assert_eq!(harness.state().history_position(), before + 1);
    assert_eq!(
        harness.state().history_undo_name().as_deref(),
        Some("Paste")
    );
    assert_eq!(harness.state().status().text, "pasted 1 entity");
    // Ctrl+Shift+V arrives as a plain key (egui-winit makes a paste event of
    // Ctrl+V alone): the copy lands under the cursor, another step.
    let under = harness
        .state()
        .hover_point()
        .expect("the cursor is over the map");
    harness.event(egui::Event::Key {
        key: egui::Key::V,
        physical_key: None,
        pressed: true,
        repeat: false,
        modifiers: egui::Modifiers::COMMAND | egui::Modifiers::SHIFT,
    });
    harness.run_steps(2);
    assert_eq!(
        harness.state().scene().len(),
        n + 2,
        "{}",
        harness.state().status().text
    );
    assert_eq!(harness.state().history_position(), before + 2);
    let landed = harness.state().scene().selection().to_vec();
    assert_eq!(landed.len(), 1, "the copy comes selected");
    let at = harness
        .state()
        .scene()
        .world_transform(landed[0])
        .translation;
    assert!(
        (at.x - under.x).abs() < 0.6 && (at.z - under.z).abs() < 0.6,
        "pasted at {at:?}, the cursor over {under:?}"
    );
    // Something else on the clipboard: a clear refusal, nothing changed.
    harness.event(egui::Event::Paste("a shopping list".into()));
    harness.run_steps(2);
    assert_eq!(harness.state().scene().len(), n + 2);
    assert!(harness.state().status().text.contains("no Pebble entities"));
}

/// A right click on the courtyard floor selects it and opens the viewport's
/// menu; its Duplicate makes a copy that follows the mouse, a click puts it down,
/// one "Duplicate" step; Esc closes a menu opened again, choosing nothing.
#[test]
fn the_viewport_s_right_click_menu_acts_on_what_was_clicked() {
    use egui_kittest::kittest::Queryable as _;
    let Some(mut harness) = harness_on(showcase_path()) else {
        return;
    };
    let floor = common::entity(harness.state(), "Courtyard floor");
    let at = common::screen(
        harness.state(),
        pebble_model::glam::Vec3::new(-5.0, 0.0, 4.0),
    );
    let steps = harness.state().history_position();
    harness.hover_at(at);
    harness.run_steps(2);
    right(&mut harness, at, true);
    harness.run_steps(1);
    right(&mut harness, at, false);
    harness.run_steps(3);
    assert_eq!(
        harness.state().scene().selection(),
        &[floor],
        "what was clicked"
    );
    assert!(
        harness.state().viewport.context_menu.is_some(),
        "the menu is open"
    );
    let n = harness.state().scene().len();
    harness.get_by_label("Duplicate  (Ctrl+D)").click();
    harness.run_steps(2);
    assert!(
        harness.state().viewport.context_menu.is_none(),
        "chosen: closed"
    );
    assert_eq!(harness.state().scene().len(), n + 1, "a copy");
    assert_eq!(
        harness.state().viewport.tools.active(),
        Some("place copies")
    );
    // The copy follows the mouse a little, then a click puts it down.
    let to = at + egui::vec2(40.0, 10.0);
    for k in 1..=4 {
        harness.hover_at(at + (to - at) * (k as f32 / 4.0));
        harness.run_steps(1);
    }
    common::click(&mut harness, to);
    assert!(!harness.state().viewport.tools.is_active());
    assert_eq!(harness.state().history_position(), steps + 1, "one step");
    assert_eq!(
        harness.state().history_undo_name().as_deref(),
        Some("Duplicate")
    );
    let copy = harness.state().scene().selection()[0];
    assert_ne!(copy, floor);
    let moved = harness
        .state()
        .scene()
        .entity(copy)
        .expect("the copy")
        .transform
        .translation;
    assert_ne!(
        moved,
        pebble_model::glam::Vec3::ZERO,
        "it went with the mouse"
    );
    // Opened again, Esc closes it and nothing happens.
    right(&mut harness, at, true);
    harness.run_steps(1);
    right(&mut harness, at, false);
    harness.run_steps(3);
    assert!(harness.state().viewport.context_menu.is_some());
    harness.key_press(egui::Key::Escape);
    harness.run_steps(2);
    assert!(harness.state().viewport.context_menu.is_none());
    assert_eq!(harness.state().history_position(), steps + 1);
}

/// The PSP preview shows the device's frame at the aspect it projects with
/// (letterboxed, never stretched), and a click picks what is drawn there: the map
/// spans the columns its bounds project to, the sky beside it picks nothing, and a
/// wall picks the wall.
#[test]
fn the_psp_preview_keeps_its_aspect_and_picks_what_it_draws() {
    let Some(mut harness) = harness_on(showcase_path()) else {
        return;
    };
    harness.state_mut().viewport.looks.overlays = false;
    harness.run_steps(4);
    let (_, normal) = harness.state().view();
    harness.state_mut().viewport.looks.psp = true;
    harness.run_steps(4);
    let (_, rect) = harness.state().view();
    let aspect = rect.width() / rect.height();
    assert!(
        (aspect - pebble_render::camera::PSP_ASPECT).abs() < 0.01,
        "the PSP frame is {rect:?} in a viewport of {normal:?}"
    );
    assert!(normal.contains_rect(rect));
    // Where the map's bounds project, and where the picture shows it.
    let bounds = harness
        .state()
        .scene()
        .bounds()
        .expect("the showcase has bounds");
    let xs: Vec<f32> = bounds
        .corners()
        .iter()
        .map(|&c| common::screen(harness.state(), c).x)
        .collect();
    let (lo, hi) = xs
        .iter()
        .fold((f32::MAX, f32::MIN), |(a, b), &x| (a.min(x), b.max(x)));
    let image = harness.render().expect("renders the window");
    let ppp = harness.ctx.pixels_per_point();
    let px = |p: f32| (p * ppp).round() as u32;
    let (top, bottom) = (px(rect.top()) + 3, px(rect.bottom()) - 3);
    let sky = image.get_pixel(px(rect.left()) + 3, top).0;
    // Below the view cube and the view buttons in the frame's top right.
    let top = px(rect.top() + 0.4 * rect.height());
    let differs = |x: u32| {
        (top..bottom).any(|y| {
            let p = image.get_pixel(x, y).0;
            (0..3).any(|c| p[c].abs_diff(sky[c]) > 30)
        })
    };
    let columns: Vec<u32> = (px(rect.left()) + 3..px(rect.right()) - 3)
        .filter(|&x| differs(x))
        .collect();
    let (first, last) = (
        columns[0] as f32 / ppp,
        columns[columns.len() - 1] as f32 / ppp,
    );
    let (want_lo, want_hi) = (lo.max(rect.left()), hi.min(rect.right()));
    println!(
        "PSP frame {rect:?}; map drawn over x {first:.0}..{last:.0}, its bounds project to {lo:.0}..{hi:.0}"
    );
    let width = want_hi - want_lo;
    assert!(
        (last - first) / width > 0.8 && (last - first) / width < 1.05,
        "the map is drawn {:.0} points wide where its bounds span {width:.0}",
        last - first
    );
    // The sky left of the map picks nothing; the back wall picks the back wall.
    let sky_at = egui::pos2((first - 15.0).max(rect.left() + 2.0), rect.center().y);
    assert!(first - 15.0 > rect.left(), "the map leaves sky at its left");
    common::click(&mut harness, sky_at);
    assert!(
        harness.state().scene().selection().is_empty(),
        "a click on the sky selected {:?}",
        harness.state().scene().selection()
    );
    let wall = common::entity(harness.state(), "Back wall");
    let wall_top = harness
        .state()
        .scene()
        .entity(wall)
        .map(|e| e.transform.translation + pebble_model::glam::Vec3::new(-7.5, 4.5, 0.5))
        .expect("the wall");
    let at = common::screen(harness.state(), wall_top);
    let before = harness.render().expect("renders the window");
    common::click(&mut harness, at);
    assert_eq!(
        harness.state().scene().selection(),
        &[wall],
        "a click on the back wall at {at:?}"
    );
    // The selection's outline and the gizmo are drawn over the device's picture.
    harness.hover_at(rect.left_top() + egui::vec2(2.0, 2.0));
    harness.run_steps(4);
    let after = harness.render().expect("renders the window");
    let changed = (px(rect.left())..px(rect.right()))
        .flat_map(|x| (px(rect.top())..px(rect.bottom())).map(move |y| (x, y)))
        .filter(|&(x, y)| {
            let (a, b) = (before.get_pixel(x, y).0, after.get_pixel(x, y).0);
            (0..3).any(|c| a[c].abs_diff(b[c]) > 40)
        })
        .count();
    println!("selecting the wall changed {changed} pixels of the PSP frame");
    assert!(
        changed > 500,
        "selecting the wall changed {changed} pixels of the PSP frame"
    );
}

/// The editor never fogs the map it edits: a 200 m ground (the day's fog ends at
/// 65 m) opened and framed shows the ground over the viewport's middle, not the
/// fog's colour; the PSP preview still shows the device's fog.
#[test]
fn a_large_map_opened_is_not_hidden_by_fog() {
    let Some(mut harness) = harness_on(common::room::ground_project(200.0)) else {
        return;
    };
    harness.state_mut().viewport.looks.overlays = false;
    harness.run_steps(6);
    let (_, rect) = harness.state().view();
    let ground_share =
        |harness: &mut egui_kittest::Harness<'static, pebble_editor::app::PebbleApp>| {
            let (_, rect) = harness.state().view();
            let image = harness.render().expect("renders the window");
            let ppp = harness.ctx.pixels_per_point();
            let px = |p: f32| (p * ppp).round() as u32;
            let centre = rect.center();
            let (mut ground, mut all) = (0, 0);
            for x in px(centre.x - 60.0)..px(centre.x + 60.0) {
                for y in px(centre.y - 40.0)..px(centre.y + 40.0) {
                    let p = image.get_pixel(x, y).0;
                    all += 1;
                    if p[1] > p[2] + 30 && p[1] > p[0] + 30 {
                        ground += 1;
                    }
                }
            }
            ground as f64 / all as f64
        };
    let shown = ground_share(&mut harness);
    println!(
        "viewport {rect:?}: the ground fills {:.0} % of its middle",
        shown * 100.0
    );
    assert!(
        shown > 0.9,
        "the ground fills {:.0} % of the viewport's middle",
        shown * 100.0
    );
    harness.state_mut().viewport.looks.psp = true;
    harness.run_steps(4);
    let fogged = ground_share(&mut harness);
    println!(
        "in the PSP preview, with the device's fog: {:.0} %",
        fogged * 100.0
    );
    assert!(
        fogged < 0.5,
        "the PSP preview keeps the device's fog: {:.0} %",
        fogged * 100.0
    );
}

/// A marker not drawn is not picked: a click on the player spawn picks it while
/// its layer is shown, and picks what lies behind it (never the spawn) with the
/// spawn layer hidden or Overlays off.
#[test]
fn hidden_markers_are_not_picked() {
    let Some(mut harness) = harness_on(showcase_path()) else {
        return;
    };
    harness.run_steps(2);
    let spawn = common::entity(harness.state(), "Player spawn");
    let place = harness
        .state()
        .scene()
        .world_transform(spawn)
        .translation
        .into();
    let at = common::screen(harness.state(), place);
    common::click(&mut harness, at);
    assert_eq!(
        harness.state().scene().selection(),
        &[spawn],
        "shown: picked"
    );
    // Nothing selected (the selection's gizmo would take the next click there).
    harness.key_press(egui::Key::Escape);
    harness.run_steps(2);
    assert!(harness.state().scene().selection().is_empty());
    harness.state_mut().viewport.looks.layers.markers = false;
    harness.run_steps(2);
    common::click(&mut harness, at);
    assert!(
        !harness.state().scene().selection().contains(&spawn),
        "the spawn layer hidden: the spawn was picked"
    );
    harness.key_press(egui::Key::Escape);
    harness.run_steps(2);
    harness.state_mut().viewport.looks.layers.markers = true;
    harness.state_mut().viewport.looks.overlays = false;
    harness.run_steps(2);
    common::click(&mut harness, at);
    assert!(
        !harness.state().scene().selection().contains(&spawn),
        "Overlays off: the spawn was picked"
    );
}

/// The guard (a patrol's sphere) and the ball pit's balls are picked where they
/// are drawn: a click on the guard selects the patrol, on a ball the ball pit
/// (the click used to pick the floor behind them).
#[test]
fn the_guard_and_the_balls_are_picked_where_they_are_drawn() {
    let Some(mut harness) = harness_on(showcase_path()) else {
        return;
    };
    harness.state_mut().pause();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    let (guard, pit) = (
        common::entity(harness.state(), "Guard"),
        common::entity(harness.state(), "Ball pit"),
    );
    loop {
        harness.run_steps(2);
        let spheres = harness.state().viewport.spheres();
        if spheres.iter().any(|s| s.2 == guard) && spheres.iter().any(|s| s.2 == pit) {
            break;
        }
        assert!(std::time::Instant::now() < deadline, "no spheres drawn");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    for (who, name) in [(guard, "the guard"), (pit, "a ball")] {
        // The nearest of its spheres to the camera, where nothing else is in front.
        let eye = harness.state().view().0.eye;
        let (centre, _, _) = harness
            .state()
            .viewport
            .spheres()
            .into_iter()
            .filter(|s| s.2 == who)
            .min_by(|a, b| {
                let d = |c: [f32; 3]| eye.distance(c.into());
                d(a.0).total_cmp(&d(b.0))
            })
            .expect("drawn");
        let at = common::screen(harness.state(), centre.into());
        common::click(&mut harness, at);
        assert_eq!(
            harness.state().scene().selection(),
            &[who],
            "a click on {name} selects it"
        );
        harness.key_press(egui::Key::Escape);
        harness.run_steps(2);
    }
}
