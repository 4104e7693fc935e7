//! The import window's placement: a model's size fitted, its Z up turned to Y,
//! standing on the point the view looks at; and the window driven as a person
//! would.

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;

use super::*;
use pebble_model::Transform;

fn near(a: Vec3, b: Vec3) -> bool {
    (a - b).abs().max_element() < 1e-4
}

/// A model 10 units tall along Z (a Z-up exporter's), 1 × 2 across.
const RAW: Aabb = Aabb {
    min: Vec3::new(0.0, 0.0, 0.0),
    max: Vec3::new(1.0, 2.0, 10.0),
};

#[test]
fn a_z_up_model_fitted_to_2_m_stands_upright_on_the_point() {
    let p = Placement {
        raw: RAW,
        size: Size::Fit(2.0),
        up: Up::Z,
        at: Vec3::new(5.0, 1.0, 5.0),
    };
    assert!((p.scale() - 0.2).abs() < 1e-6);
    let b = p.bounds();
    assert!(near(b.max - b.min, Vec3::new(0.2, 2.0, 0.4)), "{b:?}");
    // The root placed: the raw box's corners land in a box standing on the point.
    let t = p.apply(Transform::IDENTITY).to_affine();
    let placed = Aabb::from_points(RAW.corners().map(|c| t.transform_point3(c))).expect("box");
    assert!(near(placed.min, Vec3::new(4.9, 1.0, 4.8)), "{placed:?}");
    assert!(near(placed.max, Vec3::new(5.1, 3.0, 5.2)), "{placed:?}");
    // A plain scale keeps the file's units times it.
    let p = Placement {
        size: Size::Scale(0.01),
        up: Up::Y,
        ..p
    };
    let b = p.bounds();
    assert!(near(b.max - b.min, Vec3::new(0.01, 0.02, 0.1)));
}

#[path = "../../../../cli/tests/common/post_gltf.rs"]
mod post_gltf;
use post_gltf::{post_gltf as write_gltf, post_gltf_long, post_gltf_tall};

/// The window in a harness, keeping what it asks for.
fn window(dialog: ImportDialog) -> Harness<'static, (ImportDialog, Option<Outcome>)> {
    Harness::new_ui_state(
        |ui, (dialog, out): &mut (ImportDialog, Option<Outcome>)| {
            if let Some(o) = dialog.ui(ui.ctx()) {
                *out = Some(o);
            }
        },
        (dialog, None),
    )
}

/// The window's "it comes in at …" lines.
fn comes_in_at(h: &Harness<'static, (ImportDialog, Option<Outcome>)>) -> Vec<String> {
    h.query_all_by_label_contains("comes in at")
        .map(|n| format!("{n:?}"))
        .collect()
}

#[test]
fn the_window_reads_the_size_and_imports_fitted_and_turned() {
    let dir = std::env::temp_dir().join(format!("pebble-import-dialog-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("dir");
    let path = write_gltf(&dir);
    assert!(is_model(&path) && !is_model(&dir.join("map.pbm")));
    let mut dialog = ImportDialog::open(path.clone(), Vec3::new(1.0, 0.5, 0.0));
    dialog.wait();
    assert_eq!(
        dialog
            .raw
            .as_ref()
            .and_then(|r| r.as_ref().ok())
            .map(|b| b.max - b.min),
        Some(Vec3::new(1.0, 0.0, 4.0))
    );
    assert!(
        !dir.join("textures").exists(),
        "reading the size writes nothing into the project"
    );
    let mut h = window(dialog);
    h.run_steps(2);
    assert!(
        h.query_by_label_contains("as read: 1.00 × 0.00 × 4.00 m")
            .is_some()
    );
    h.get_by_role_and_label(
        egui::accesskit::Role::RadioButton,
        "fit the longest side to",
    )
    .click();
    h.run_steps(1);
    h.get_by_label("Z up (many exporters, CAD)").click();
    h.run_steps(2);
    let shown = comes_in_at(&h);
    assert!(
        shown.iter().any(|t| t.contains("0.50 × 2.00 × 0.00 m")),
        "2 m tall once stood up: {shown:?}"
    );
    h.get_by_label("Import").click();
    h.run_steps(2);
    match h.state().1.clone() {
        Some(Outcome::Import {
            path: p,
            tim,
            placement,
        }) => {
            assert_eq!(p, path);
            assert_eq!(tim, None);
            assert_eq!(placement.size, Size::Fit(2.0));
            assert_eq!(placement.up, Up::Z);
            assert_eq!(placement.at, Vec3::new(1.0, 0.5, 0.0));
        }
        other => panic!("{other:?}"),
    }
}

/// A Z-up post 400 units long (a 4 m post in centimetres): once Z up is chosen,
/// the window says it looks like centimetres and offers the scale that fixes it;
/// one click sets it and the note goes.
#[test]
fn the_window_offers_a_scale_for_units_that_look_wrong() {
    let dir = std::env::temp_dir().join(format!("pebble-import-units-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("dir");
    let mut dialog = ImportDialog::open(post_gltf_long(&dir, 400.0), Vec3::ZERO);
    dialog.wait();
    let mut h = window(dialog);
    h.run_steps(2);
    assert!(
        h.query_by_label_contains("looks like").is_none(),
        "lying along Z with Y up, 400 m long is a plausible level"
    );
    h.get_by_label("Z up (many exporters, CAD)").click();
    h.run_steps(2);
    assert!(
        h.query_by_label_contains("this looks like centimetres")
            .is_some()
    );
    h.get_by_label("scale 0.01").click();
    h.run_steps(2);
    assert!(h.query_by_label_contains("looks like").is_none());
    let shown = comes_in_at(&h);
    assert!(
        shown.iter().any(|t| t.contains("0.01 × 4.00 × 0.00 m")),
        "4 m tall once scaled: {shown:?}"
    );
    h.get_by_label("Import").click();
    h.run_steps(2);
    match h.state().1.clone() {
        Some(Outcome::Import { placement, .. }) => {
            assert_eq!(placement.size, Size::Scale(0.01));
            assert_eq!(placement.up, Up::Z);
        }
        other => panic!("{other:?}"),
    }
}

/// A Sketchfab model in centimetres, Y up (a tree 2 471 units tall): the window
/// sets the scale to 0.01 by itself once the size is read, and says so; one click
/// keeps the file's size instead.
#[test]
fn the_window_fixes_centimetres_by_itself_and_offers_the_file_s_size() {
    let dir = std::env::temp_dir().join(format!("pebble-import-cm-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("dir");
    let mut dialog = ImportDialog::open(post_gltf_tall(&dir, 2471.0), Vec3::ZERO);
    dialog.wait();
    assert_eq!(
        dialog.placement().map(|p| p.size),
        Some(Size::Scale(0.01)),
        "fixed at once"
    );
    let mut h = window(dialog);
    h.run_steps(2);
    assert!(
        h.query_by_label_contains("most likely in centimetres: scaled by 0.01")
            .is_some()
    );
    h.get_by_label("keep the file's size (scale 1)").click();
    h.run_steps(2);
    assert!(h.query_by_label_contains("most likely in").is_none());
    h.get_by_label("Import").click();
    h.run_steps(2);
    match h.state().1.clone() {
        Some(Outcome::Import { placement, .. }) => assert_eq!(placement.size, Size::Scale(1.0)),
        other => panic!("{other:?}"),
    }
}
