//! File › Import of a model in the whole app: the import window reads the model's
//! size, the designer fits it to 2 m and stands it up from Z, and it arrives as
//! one step standing on the courtyard floor where the view looks.

use crate::common;

use egui_kittest::kittest::Queryable as _;
use pebble_core::services::showcase::showcase_path;
use pebble_model::glam::Vec3;

use common::{harness_on, wait_for};

#[test]
fn a_model_comes_in_fitted_turned_and_on_the_floor_where_the_view_looks() {
    let dir = std::env::temp_dir().join(format!("pebble-import-window-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("dir");
    let path = common::post_gltf(&dir);

    let Some(mut harness) = harness_on(showcase_path()) else {
        return;
    };
    // The view looks at an empty stretch of the courtyard floor (its top at y = 0).
    harness.state_mut().viewport.view.orbit.pivot = Vec3::new(-5.0, 1.0, 4.0);
    harness.state_mut().viewport.view.target = None;
    let steps = harness.state().history_position();
    harness.state_mut().chose_import(path);
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while harness
        .query_by_label_contains("as read: 1.00 × 0.00 × 4.00 m")
        .is_none()
    {
        assert!(
            std::time::Instant::now() < deadline,
            "the size was never read"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
        harness.run_steps(1);
    }
    harness
        .get_by_role_and_label(
            egui::accesskit::Role::RadioButton,
            "fit the longest side to",
        )
        .click();
    harness.run_steps(1);
    harness.get_by_label("Z up (many exporters, CAD)").click();
    harness.run_steps(2);
    harness.get_by_label("Import").click();
    harness.run_steps(2);
    wait_for(&mut harness, |app| {
        app.scene().entities().any(|e| e.name == "Post")
    });
    assert_eq!(harness.state().history_position(), steps + 1, "one step");
    let scene = harness.state().scene();
    let post = scene
        .entities()
        .find(|e| e.name == "Post")
        .expect("the post");
    let b = scene.world_aabb(post.id).expect("bounds");
    let size = b.max - b.min;
    assert!(
        (size - Vec3::new(0.5, 2.0, 0.0)).abs().max_element() < 1e-4,
        "2 m tall, stood up: {size}"
    );
    assert!(b.min.y.abs() < 1e-4, "on the floor: {b:?}");
    let middle = (b.min + b.max) * 0.5;
    assert!(
        (middle.x + 5.0).abs() < 1e-4 && (middle.z - 4.0).abs() < 1e-4,
        "where the view looks: {middle}"
    );
}

/// File › Import of a picture: a window asks its height and how it stands; "on a
/// wall" it comes in upright where the view looks, facing the view, its lower
/// edge on the floor (it came in flat at the origin, under the floor).
#[test]
fn a_picture_comes_in_upright_where_the_view_looks_facing_it() {
    let dir = std::env::temp_dir().join(format!("pebble-import-picture-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("dir");
    let path = dir.join("exit_sign.png");
    image::RgbaImage::from_pixel(64, 32, image::Rgba([20, 160, 40, 255]))
        .save(&path)
        .expect("a picture, as a paint program saves it");

    let Some(mut harness) = harness_on(showcase_path()) else {
        return;
    };
    harness.state_mut().viewport.view.orbit.pivot = Vec3::new(-5.0, 1.0, 4.0);
    harness.state_mut().viewport.view.orbit.yaw = 0.4;
    harness.state_mut().viewport.view.target = None;
    harness.run_steps(2);
    let steps = harness.state().history_position();
    harness.state_mut().chose_import(path);
    harness.run_steps(2);
    assert!(
        harness
            .query_by_label_contains("Import exit_sign.png")
            .is_some()
    );
    harness.get_by_label("on a wall (upright)").click();
    harness.run_steps(1);
    harness.get_by_label("Import").click();
    harness.run_steps(2);
    wait_for(&mut harness, |app| {
        app.scene().entities().any(|e| e.name == "exit_sign")
    });
    assert_eq!(harness.state().history_position(), steps + 1, "one step");
    let scene = harness.state().scene();
    let sign = scene
        .entities()
        .find(|e| e.name == "exit_sign")
        .expect("the sign");
    let b = scene.world_aabb(sign.id).expect("bounds");
    assert!(
        b.min.y.abs() < 1e-3 && (b.max.y - 1.0).abs() < 1e-3,
        "1 m tall on the floor: {b:?}"
    );
    let t = scene.world_transform(sign.id);
    let normal = t.transform_vector3(Vec3::Y).normalize();
    let back = Vec3::new(-(0.4f32).sin(), 0.0, (0.4f32).cos());
    assert!(
        normal.abs_diff_eq(back, 1e-4),
        "facing the view: {normal} against {back}"
    );
    let middle = (b.min + b.max) * 0.5;
    assert!(
        (middle.x + 5.0).abs() < 1e-3 && (middle.z - 4.0).abs() < 1e-3,
        "where the view looks: {middle}"
    );
}
