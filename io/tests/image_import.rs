//! An imported image is a plane showing the picture once and upright seen from its
//! front face, in the editor's model and in the exported map alike.

use image::{Rgba, RgbaImage};
use pebble_io::export::{ExportOptions, export};
use pebble_io::import::{ImportOptions, import_file};
use pebble_model::entity::EntityKind;
use pebble_model::glam::{Vec2, Vec3};
use pebble_model::{History, Scene};

/// A 64×32 picture, red in its top-left quarter (the image's first rows), blue
/// elsewhere: top-to-bottom or left-to-right mirroring moves the red.
fn picture(dir: &std::path::Path) -> std::path::PathBuf {
    let img = RgbaImage::from_fn(64, 32, |x, y| {
        if x < 32 && y < 16 {
            Rgba([255, 0, 0, 255])
        } else {
            Rgba([0, 0, 255, 255])
        }
    });
    let path = dir.join("sign.png");
    img.save(&path).expect("writes the PNG");
    path
}

fn tempdir(label: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("pebble-image-{}-{label}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// The texture coordinate (in repeats: 0..1 is the picture once) at each corner of
/// the plane seen from above with -Z ahead, as (far-left, far-right, near-left).
fn corners(scene: &Scene) -> [Vec2; 3] {
    let (_, entity) = scene
        .entities()
        .map(|e| (e.id, e))
        .find(|(_, e)| matches!(e.kind, EntityKind::Mesh(_)))
        .expect("a mesh");
    let EntityKind::Mesh(mesh) = &entity.kind else {
        unreachable!()
    };
    let (_, material) = scene.materials().next().expect("a material");
    let geometry = &mesh.geometry;
    let at = |want: Vec3| -> Vec2 {
        for f in &geometry.faces {
            for (k, &i) in f.indices.iter().enumerate() {
                if (geometry.positions[i as usize] - want).length() < 1e-4 {
                    return material.repeats(f.uvs[k]);
                }
            }
        }
        panic!("no vertex at {want}");
    };
    [
        at(Vec3::new(-1.0, 0.0, -0.5)),
        at(Vec3::new(1.0, 0.0, -0.5)),
        at(Vec3::new(-1.0, 0.0, 0.5)),
    ]
}

#[test]
fn an_imported_image_reads_upright_from_its_front_face_once() {
    let dir = tempdir("upright");
    let path = picture(&dir);
    let imported = import_file(&path, &ImportOptions::new(&dir), &mut |_| {}).expect("imports");
    let mut scene = Scene::new();
    History::default()
        .execute(&mut scene, imported.command)
        .expect("applies");

    // The plane is 2 m wide (the aspect) and 1 m deep; its far-left corner shows
    // the picture's top-left texel, its far-right the top-right, its near-left the
    // bottom-left: exactly one copy, not mirrored.
    let [far_left, far_right, near_left] = corners(&scene);
    assert!(
        far_left.abs_diff_eq(Vec2::new(0.0, 0.0), 1e-5),
        "{far_left}"
    );
    assert!(
        far_right.abs_diff_eq(Vec2::new(1.0, 0.0), 1e-5),
        "{far_right}"
    );
    assert!(
        near_left.abs_diff_eq(Vec2::new(0.0, 1.0), 1e-5),
        "{near_left}"
    );

    // The front face is the one seen from above.
    let EntityKind::Mesh(mesh) = &scene.entities().next().expect("entity").kind else {
        panic!("a mesh");
    };
    for f in &mesh.geometry.faces {
        let [a, b, c] = mesh.geometry.triangle(f);
        assert!((b - a).cross(c - a).y > 0.0, "faces up");
    }

    // The exported map carries the same coordinates: its vertex at the far-left
    // corner samples the picture's top-left (red) texel.
    let (bytes, _) = export(
        &scene,
        &ExportOptions::new(&dir),
        &mut |_| {},
        &std::sync::atomic::AtomicBool::new(false),
    )
    .expect("exports");
    let (map, _) = pbm::Map::read(&bytes).expect("reads back");
    let mesh = map
        .meshes
        .iter()
        .find(|m| !m.vertices.is_empty())
        .expect("an exported mesh");
    let texture = &map.textures[usize::try_from(mesh.texture_id).expect("textured")];
    let corner = mesh
        .vertices
        .iter()
        .find(|v| (v.pos[0] + 1.0).abs() < 1e-3 && (v.pos[2] + 0.5).abs() < 1e-3)
        .expect("the far-left vertex");
    let rgba = pbm::texture::decode(&texture.data, texture.format);
    let (w, h) = (u32::from(texture.width), u32::from(texture.height));
    // A texel a little inside the corner, in the exported texture's own pixels.
    let sample = |u: f32, v: f32| {
        let x = ((u.rem_euclid(1.0)) * w as f32).clamp(0.0, w as f32 - 1.0) as u32;
        let y = ((v.rem_euclid(1.0)) * h as f32).clamp(0.0, h as f32 - 1.0) as u32;
        rgba[((y * w + x) * 4) as usize..][..4].to_vec()
    };
    let [u, v] = corner.uv;
    let texel = sample(u + 0.05, v + 0.05);
    assert!(
        texel[0] > 200 && texel[2] < 60,
        "the exported far-left corner samples {texel:?} at uv ({u}, {v}), not the red top-left"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_picture_becomes_a_surface_material_copied_in_once_or_referenced_where_it_lies() {
    let outside = tempdir("material-src");
    let project = tempdir("material-project");
    let src = picture(&outside);
    let (m, written) =
        pebble_io::import::image_file::texture_material(&src, &project).expect("a material");
    assert!(written, "a picture from elsewhere is copied in");
    assert_eq!(m.name, "sign");
    assert_eq!(m.texture.as_deref(), Some("textures/sign.png"));
    assert_eq!(m.alpha, pebble_model::material::AlphaMode::None);
    assert!(project.join("textures/sign.png").is_file());
    // The same picture again: the copy is reused, nothing written.
    let (again, written) =
        pebble_io::import::image_file::texture_material(&src, &project).expect("again");
    assert!(!written);
    assert_eq!(again.texture, m.texture);
    // A picture already in the project's folder is referenced in place.
    std::fs::create_dir_all(project.join("art")).expect("art");
    let inside = picture(&project.join("art"));
    let (m, written) =
        pebble_io::import::image_file::texture_material(&inside, &project).expect("inside");
    assert!(!written);
    assert_eq!(m.texture.as_deref(), Some("art/sign.png"));
    // A file that is no picture says so, with its path.
    let bad = outside.join("notes.png");
    std::fs::write(&bad, b"not a picture").expect("write");
    let err =
        pebble_io::import::image_file::texture_material(&bad, &project).expect_err("not a picture");
    let text = err.to_string();
    assert!(
        text.contains("notes.png") && text.contains("decode"),
        "{text}"
    );
}
