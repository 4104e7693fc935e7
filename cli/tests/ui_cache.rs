//! The UI cache (`app::ui_cache`): the window shows exactly what egui draws without
//! it, whether a frame is copied from the cache, redrawn into it, or painted the
//! ordinary way because a menu reaches into the viewport.

use crate::common;

use common::{click, harness_with_ui_cache};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use pebble_editor::app::PebbleApp;

fn same_pixels(
    cached: &mut Harness<'_, PebbleApp>,
    plain: &mut Harness<'_, PebbleApp>,
    what: &str,
) {
    let a = cached.render().expect("renders with the cache");
    let b = plain.render().expect("renders without it");
    assert_eq!(a.dimensions(), b.dimensions());
    // The status bar's frame rate follows the wall clock, which the two apps
    // read at different moments (the snapshot tests mask it too).
    let status_top = 776;
    let differing = a
        .enumerate_pixels()
        .zip(b.pixels())
        .filter(|((_, y, p), q)| *y < status_top && p != q)
        .count();
    if differing > 0 {
        let dir = std::env::temp_dir();
        let _ = a.save(dir.join("ui_cache_with.png"));
        let _ = b.save(dir.join("ui_cache_without.png"));
    }
    assert_eq!(
        differing,
        0,
        "{what}: {differing} pixels differ (both pictures saved in {})",
        std::env::temp_dir().display()
    );
}

/// Clicks the widget labelled `label` in both apps.
fn click_both<'a>(a: &mut Harness<'a, PebbleApp>, b: &mut Harness<'a, PebbleApp>, label: &str) {
    for h in [a, b] {
        let at = h.get_by_label(label).rect().center();
        click(h, at);
    }
}

fn counts(h: &Harness<'_, PebbleApp>) -> [u64; 4] {
    h.state().ui_cache.stats().frames
}

#[test]
fn the_ui_cache_shows_exactly_what_egui_draws() {
    // Both on one copy of the showcase: the status bar names the project's path.
    let project = common::showcase_copy();
    let Some(mut cached) = harness_with_ui_cache(project.clone(), true) else {
        return;
    };
    let mut plain = harness_with_ui_cache(project, false).expect("a second harness");
    same_pixels(&mut cached, &mut plain, "the first frames");

    // Nothing changes: the next frames are copied from the cache (each painted,
    // as a window paints every frame; a frame never painted leaves the cache to
    // be redrawn).
    let before = counts(&cached);
    for h in [&mut cached, &mut plain] {
        for _ in 0..3 {
            h.run_steps(1);
            h.render().expect("renders");
        }
    }
    let after = counts(&cached);
    assert!(
        after[0] > before[0],
        "no frame came from the cache: {before:?} → {after:?}"
    );
    same_pixels(&mut cached, &mut plain, "unchanged frames");

    // Selecting in the outliner changes the panels: redrawn into the cache.
    click_both(&mut cached, &mut plain, "Back wall  (mesh)");
    let redrawn = counts(&cached);
    assert!(
        redrawn[1] + redrawn[3] > after[1] + after[3],
        "the change was not redrawn: {after:?} → {redrawn:?}"
    );
    same_pixels(&mut cached, &mut plain, "after selecting");

    // A small change (a toolbar toggle): only where it changed is redrawn, and
    // the window is still exactly what egui draws.
    click_both(&mut cached, &mut plain, "Snap");
    let patched = counts(&cached);
    assert!(
        patched[3] > redrawn[3] && patched[1] == redrawn[1],
        "the toggle was not redrawn in place: {redrawn:?} → {patched:?}"
    );
    same_pixels(&mut cached, &mut plain, "after a toolbar toggle");
    click_both(&mut cached, &mut plain, "Snap");
    same_pixels(&mut cached, &mut plain, "after toggling it back");
    let redrawn = counts(&cached);

    // An open menu hangs over the viewport: painted without the cache.
    click_both(&mut cached, &mut plain, "Deploy");
    let with_menu = counts(&cached);
    assert!(
        with_menu[2] > redrawn[2],
        "the menu frame used the cache: {redrawn:?} → {with_menu:?}"
    );
    same_pixels(&mut cached, &mut plain, "with the menu open");
}
