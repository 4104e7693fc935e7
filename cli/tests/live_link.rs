//! The Deploy menu's Live link: every save deploys to the target folder (with
//! PSPLink, the folder usbhostfs_pc serves, where the runtime watches its map and
//! reloads it; `psp_runtime.rs` shows that half in the emulator). A save while a
//! deployment runs deploys again when it ends, so the folder always ends on the
//! last save. Fails without a GPU adapter unless `PEBBLE_SKIP_GPU_TESTS=1`.

use crate::common;

use common::{harness_on, showcase_copy, wait_for};
use pebble_core::create::CreateItem;

/// The deployed map's triangle count.
fn triangles(map: &std::path::Path) -> u32 {
    let bytes = std::fs::read(map).expect("the deployed map");
    let (view, _) = pbm::MapView::parse(&bytes).expect("a valid map");
    view.meshes().map(|m| m.num_vertices / 3).sum()
}

#[test]
fn every_save_deploys_with_the_live_link_on_and_the_last_save_wins() {
    let Some(mut harness) = harness_on(showcase_copy()) else {
        return;
    };
    let target = std::env::temp_dir().join(format!("pebble-live-link-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&target);
    std::fs::create_dir_all(&target).expect("the host folder");
    let map = target.join("PSP/GAME/PEBBLE/map.pbm");
    harness.state_mut().jobs.deploy.target = target.display().to_string();
    harness.run_steps(2);

    // Off: a save deploys nothing.
    harness.state_mut().create(CreateItem::Box);
    harness.run_steps(2);
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::S);
    harness.run_steps(2);
    assert!(!harness.state().is_dirty(), "saved");
    assert!(
        harness.state().jobs.deploy.started() == 0 && !map.exists(),
        "no live link, no deployment"
    );

    // On: the save deploys.
    harness.state_mut().jobs.deploy.live_link = true;
    harness.state_mut().create(CreateItem::Box);
    harness.run_steps(2);
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::S);
    harness.run_steps(1);
    assert_eq!(
        harness.state().jobs.deploy.started(),
        1,
        "the save started a deployment"
    );
    wait_for(&mut harness, |app| !app.jobs.deploy.busy());
    let first = triangles(&map);
    assert!(
        target.join("PSP/GAME/PEBBLE/EBOOT.PBP").is_file(),
        "the runtime goes with the map"
    );

    // Two saves, the second while the first one's deployment runs: the folder
    // ends on the second.
    harness.state_mut().create(CreateItem::Box);
    harness.run_steps(2);
    // Both saves come before any frame collects the first one's deployment (a
    // frame could find it finished: a map alone is copied in milliseconds).
    assert!(harness.state_mut().save(), "the first save");
    assert_eq!(harness.state().jobs.deploy.started(), 2);
    assert!(harness.state().jobs.deploy.busy());
    harness.state_mut().create(CreateItem::Box);
    assert!(harness.state_mut().save(), "the second save");
    assert!(
        harness.state().jobs.deploy.live_pending,
        "the second save waits its turn"
    );
    wait_for(&mut harness, |app| {
        !app.jobs.deploy.busy() && !app.jobs.deploy.live_pending
    });
    assert_eq!(
        harness.state().jobs.deploy.started(),
        3,
        "the waiting save deployed once"
    );
    let last = triangles(&map);
    assert!(
        last >= first + 24,
        "two more boxes of 12 triangles each: {first} → {last}"
    );
    let app = harness.state();
    let now = pebble_core::services::export::to_bytes(
        app.scene(),
        app.project_path().parent().expect("folder").to_path_buf(),
        true,
    )
    .expect("exports");
    assert!(
        std::fs::read(&map).expect("the map") == now,
        "the folder holds the map of the last save"
    );
    let said = harness
        .state()
        .jobs
        .deploy
        .status
        .clone()
        .expect("a status");
    assert!(said.text.contains("deployed to"), "{}", said.text);
}
