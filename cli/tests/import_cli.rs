//! `pebble import`: a new project from a map, then an image appended to it.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common::post_gltf_file as post_gltf;

fn pebble(args: &[&str], cwd: &Path) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_pebble"))
        .args(args)
        .current_dir(cwd)
        .output()
        .expect("runs")
}

/// Runs `pebble` with `args` in `cwd`, fails the test with its error output when it
/// fails, and gives back what it printed.
fn succeeds(args: &[&str], cwd: &Path) -> String {
    let out = pebble(args, cwd);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("pebble-import-cli-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("dir");
    dir
}

#[test]
fn import_creates_then_appends() {
    let dir = scratch("flow");
    let map = Path::new(env!("CARGO_MANIFEST_DIR")).join("../pbm/tests/fixtures/full.pbm");
    let out = pebble(&["import", map.to_str().expect("utf-8")], &dir);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.contains("full.pebble.ron (created)") && stdout.contains("textures written: 5"),
        "{stdout}"
    );
    assert!(
        dir.join("full.pebble.ron").is_file() && dir.join("textures/TileAtlas_0.png").is_file()
    );

    let png = dir.join("decal.png");
    image::RgbaImage::from_pixel(32, 16, image::Rgba([10, 20, 30, 255]))
        .save(&png)
        .expect("png");
    let out = pebble(
        &[
            "import",
            png.to_str().expect("utf-8"),
            "--into",
            "full.pebble.ron",
        ],
        &dir,
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.contains("(added to)") && stdout.contains("entities: 1 (1 mesh)"),
        "{stdout}"
    );
    assert!(
        dir.join("textures/decal.png").is_file(),
        "the source image is kept as it is"
    );

    let info = pebble(&["project", "info", "full.pebble.ron"], &dir);
    let text = String::from_utf8_lossy(&info.stdout);
    assert!(
        text.contains("map \"PoiRetro Courtyard Showcase\""),
        "appending keeps the project's settings: {text}"
    );
    assert!(text.contains("textures/decal.png"), "{text}");

    let bad = pebble(&["import", "nothing.obj"], &dir);
    assert_eq!(bad.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("unsupported file type"));
}

#[test]
fn export_writes_a_valid_map_and_prints_stages() {
    let dir = scratch("export");
    let map = Path::new(env!("CARGO_MANIFEST_DIR")).join("../pbm/tests/fixtures/full_emitters.pbm");
    assert!(
        pebble(
            &[
                "import",
                map.to_str().expect("utf-8"),
                "--into",
                "level.pebble.ron"
            ],
            &dir
        )
        .status
        .success()
    );
    let out = pebble(
        &[
            "export",
            "level.pebble.ron",
            "-o",
            "out/map.pbm",
            "--no-bake",
        ],
        &dir,
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for stage in ["textures", "geometry", "colliders", "metadata", "write"] {
        assert!(stdout.contains(stage), "{stdout}");
    }
    assert!(
        stdout.contains("particles: 116") && stdout.contains("clamped to 64"),
        "{stdout}"
    );
    let validate = pebble(&["pbm", "validate", "out/map.pbm", "--strict"], &dir);
    assert!(
        !String::from_utf8_lossy(&validate.stderr).contains("compliance"),
        "{}",
        String::from_utf8_lossy(&validate.stderr)
    );
    let bytes = std::fs::read(dir.join("out/map.pbm")).expect("map");
    assert!(pbm::Map::read(&bytes).is_ok());
}

/// `pebble import --help` lists every kind of file the importer takes (glTF was
/// missing once), and the importer takes every kind the help lists.
#[test]
fn import_help_lists_exactly_what_the_importer_takes() {
    let dir = scratch("help");
    let out = pebble(&["import", "--help"], &dir);
    assert!(out.status.success());
    let help = String::from_utf8_lossy(&out.stdout);
    for ext in pebble_io::import::IMPORT_EXTENSIONS {
        assert!(
            help.contains(&format!(".{ext}")),
            ".{ext} missing from:\n{help}"
        );
        // A file of that kind is read (and here refused as broken), never called
        // an unsupported type.
        let file = dir.join(format!("broken.{ext}"));
        std::fs::write(&file, b"not really").expect("writes");
        let err = pebble_io::import::import_file(
            &file,
            &pebble_io::import::ImportOptions::new(&dir),
            &mut |_| {},
        )
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default();
        assert!(!err.contains("unsupported file type"), ".{ext}: {err}");
    }
    for listed in help
        .split(|c: char| c.is_whitespace() || c == ',' || c == ':')
        .filter(|w| {
            w.starts_with('.') && w.len() > 1 && w[1..].chars().all(|c| c.is_ascii_alphanumeric())
        })
    {
        assert!(
            pebble_io::import::IMPORT_EXTENSIONS.contains(&&listed[1..]),
            "the help lists {listed}, which the importer does not take"
        );
    }
    assert!(help.contains(".gltf") && help.contains(".glb"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Units and up on the command line, for any model: a Z-up post 400 units long
/// (4 m in centimetres) is scaled to metres at import, said with the flag that
/// keeps it as read (`--scale 1`, which keeps it 400 m); `--scale 0.01 --up z`
/// stands it 4 m tall, `--fit 2` makes its longest side 2 m, and a scale that is
/// not a positive number is refused.
#[test]
fn import_scales_fits_and_turns_any_model() {
    let dir = scratch("units");
    let post = post_gltf::post_gltf_long(&dir, 400.0);
    let post = post.to_str().expect("utf-8");
    let bounds = |project: &str| {
        let scene = pebble_model::project::load(&dir.join(project)).expect("loads");
        let b = mesh_bounds(&scene);
        b.max - b.min
    };
    let stdout = succeeds(
        &["import", post, "--up", "z", "--into", "fixed.pebble.ron"],
        &dir,
    );
    assert!(
        stdout.contains("most likely in centimetres: scaled by 0.01")
            && stdout.contains("--scale 1"),
        "{stdout}"
    );
    assert!((bounds("fixed.pebble.ron").y - 4.0).abs() < 1e-4);
    let stdout = succeeds(
        &[
            "import",
            post,
            "--up",
            "z",
            "--scale",
            "1",
            "--into",
            "as_read.pebble.ron",
        ],
        &dir,
    );
    assert!(!stdout.contains("centimetres"), "{stdout}");
    assert!((bounds("as_read.pebble.ron").y - 400.0).abs() < 1e-2);

    let stdout = succeeds(
        &[
            "import",
            post,
            "--up",
            "z",
            "--scale",
            "0.01",
            "--into",
            "scaled.pebble.ron",
        ],
        &dir,
    );
    assert!(!stdout.contains("looks like"), "{stdout}");
    let size = bounds("scaled.pebble.ron");
    assert!(
        (size.y - 4.0).abs() < 1e-4 && size.z.abs() < 1e-4,
        "stands 4 m tall: {size}"
    );

    succeeds(
        &["import", post, "--fit", "2", "--into", "fitted.pebble.ron"],
        &dir,
    );
    let size = bounds("fitted.pebble.ron");
    assert!(
        (size.max_element() - 2.0).abs() < 1e-4,
        "fitted to 2 m: {size}"
    );

    let out = pebble(&["import", post, "--scale", "-1"], &dir);
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("--scale must be a positive number"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A Sketchfab model in centimetres (a tree 2 471 units tall, Y up): it used to
/// import with a hint and then refuse every export ("too large for a PSP"). Now
/// the import scales it to metres and says so, and the project exports.
#[test]
fn a_model_in_centimetres_is_scaled_at_import_and_exports() {
    let dir = scratch("centimetres");
    let tree = post_gltf::post_gltf_tall(&dir, 2471.0);
    let tree = tree.to_str().expect("utf-8");
    let stdout = succeeds(&["import", tree, "--into", "tree.pebble.ron"], &dir);
    assert!(
        stdout.contains("2471 m tall") && stdout.contains("scaled by 0.01"),
        "{stdout}"
    );
    let scene = pebble_model::project::load(&dir.join("tree.pebble.ron")).expect("loads");
    let size = mesh_bounds(&scene);
    assert!(((size.max - size.min).y - 24.71).abs() < 1e-3, "{size:?}");
    succeeds(&["export", "tree.pebble.ron", "-o", "tree.pbm"], &dir);
    assert!(dir.join("tree.pbm").exists());
}

/// `--into new/folder/map.pebble.ron`: the folder is made (it failed with the
/// cause said twice), for a model big enough that its meshes go into the binary
/// file beside the project.
#[test]
fn import_into_a_folder_that_does_not_exist_makes_it() {
    let dir = scratch("new-folder");
    let level = dir.join("level.glb");
    // 5 000 triangles: past the size that goes into the binary file.
    std::fs::write(&level, big_glb(5000)).expect("writes");
    let stdout = succeeds(
        &["import", "level.glb", "--into", "new/folder/map.pebble.ron"],
        &dir,
    );
    assert!(stdout.contains("created"), "{stdout}");
    let saved = dir.join("new/folder/map.pebble.ron");
    assert!(saved.exists());
    let binaries = std::fs::read_dir(dir.join("new/folder"))
        .expect("the folder")
        .filter_map(Result::ok)
        .filter(|e| e.file_name().to_string_lossy().ends_with(".pebble.bin"))
        .count();
    assert_eq!(binaries, 1, "the big mesh in the binary file beside it");
    pebble_model::project::load(&saved).expect("loads");
}

/// A GLB cut short (an interrupted download) says so, with how to fix it.
#[test]
fn a_truncated_glb_says_it_looks_truncated() {
    let dir = scratch("truncated");
    let bytes = big_glb(5000);
    std::fs::write(dir.join("cut.glb"), &bytes[..bytes.len() / 2]).expect("writes");
    let out = pebble(&["import", "cut.glb"], &dir);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("past the end of the file")
            && err.contains("looks truncated (an interrupted download or copy?)"),
        "{err}"
    );
}

/// A GLB as Blender writes one: one mesh of `triangles` separate triangles in a
/// strip along X on the ground (the io tests' GLB writer).
fn big_glb(triangles: usize) -> Vec<u8> {
    use crate::levels::{Glb, Part};
    let mut part = Part::default();
    for k in 0..triangles {
        let x = k as f32 * 0.1;
        part.triangle([[x, 0.0, 0.0], [x, 0.0, 1.0], [x + 0.1, 0.0, 0.0]]);
    }
    let mut g = Glb::default();
    let m = g.plain_material("Ground", [0.5, 0.5, 0.5, 1.0]);
    let mesh = g.mesh("Ground", &part, m);
    let root = g.node(serde_json::json!({ "name": "Ground", "mesh": mesh }));
    let asset =
        serde_json::json!({ "generator": "Khronos glTF Blender I/O v4.2.69", "version": "2.0" });
    g.finish(asset, &[root], &[], &[])
}

/// The bounds of the project's meshes (the start and lights an import adds to a
/// new project are markers, not the model).
fn mesh_bounds(scene: &pebble_model::Scene) -> pebble_model::Aabb {
    let boxes: Vec<pebble_model::Aabb> = scene
        .entities_of(pebble_model::Kind::Mesh)
        .filter_map(|e| scene.world_aabb(e.id))
        .collect();
    pebble_model::Aabb::from_points(boxes.iter().flat_map(|b| [b.min, b.max])).expect("meshes")
}

/// Godot's occlusion room imported from the command line starts the player
/// inside on its floor, and `pebble render` (from the spawn, as the game starts)
/// draws the room, not empty sky: the summary said where and why.
#[test]
fn an_imported_level_renders_from_a_start_that_shows_it() {
    if pebble_render::gpu::test_gpu("an_imported_level_renders_from_a_start_that_shows_it")
        .is_none()
    {
        return;
    }
    let dir = scratch("render-start");
    let level = crate::levels::occlusion_room(None);
    std::fs::write(dir.join("room.glb"), &level.glb).expect("writes");
    let stdout = succeeds(&["import", "room.glb", "--into", "room.pebble.ron"], &dir);
    assert!(
        stdout.contains("player start added at") && stdout.contains("head room"),
        "{stdout}"
    );
    let stdout = succeeds(
        &[
            "render",
            "room.pebble.ron",
            "--psp",
            "--size",
            "480x272",
            "-o",
            "room.png",
        ],
        &dir,
    );
    let img = image::open(dir.join("room.png")).expect("a PNG").to_rgb8();
    // The environment's clear colour (day): 0x382218 as 0xBBGGRR.
    let sky = |p: &image::Rgb<u8>| {
        (i32::from(p[0]) - 0x18).abs()
            + (i32::from(p[1]) - 0x22).abs()
            + (i32::from(p[2]) - 0x38).abs()
            < 24
    };
    let walls = img.pixels().filter(|p| !sky(p)).count();
    assert!(
        walls > img.pixels().count() * 9 / 10,
        "the room fills the view ({walls} pixels not sky): {stdout}"
    );
}

/// The warnings the import window shows, on the command line too: a texture
/// 4096 texels wide is cut down by the export.
#[test]
fn the_command_line_import_says_what_the_window_warns_of() {
    let dir = scratch("warnings");
    let wide = image::RgbaImage::from_pixel(4096, 8, image::Rgba([120, 120, 120, 255]));
    wide.save(dir.join("wide.png")).expect("a picture");
    let mut bin = Vec::new();
    for p in [[0.0f32, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]] {
        for c in p {
            bin.extend_from_slice(&c.to_le_bytes());
        }
    }
    for uv in [[0.0f32, 0.0], [1.0, 0.0], [0.0, 1.0]] {
        for c in uv {
            bin.extend_from_slice(&c.to_le_bytes());
        }
    }
    std::fs::write(dir.join("sign.bin"), &bin).expect("bin");
    let json = serde_json::json!({
        "asset": { "version": "2.0", "generator": "Khronos glTF Blender I/O v4.2.69" },
        "scene": 0,
        "scenes": [{ "nodes": [0] }],
        "nodes": [{ "name": "Sign", "mesh": 0 }],
        "meshes": [{ "name": "Sign", "primitives": [{
            "attributes": { "POSITION": 0, "TEXCOORD_0": 1 }, "material": 0 }] }],
        "materials": [{ "name": "Banner", "pbrMetallicRoughness": { "baseColorTexture": { "index": 0 } } }],
        "textures": [{ "source": 0 }],
        "images": [{ "uri": "wide.png" }],
        "accessors": [
            { "bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3",
              "min": [0.0, 0.0, 0.0], "max": [1.0, 1.0, 0.0] },
            { "bufferView": 1, "componentType": 5126, "count": 3, "type": "VEC2" }
        ],
        "bufferViews": [
            { "buffer": 0, "byteLength": 36 },
            { "buffer": 0, "byteOffset": 36, "byteLength": 24 }
        ],
        "buffers": [{ "byteLength": 60, "uri": "sign.bin" }]
    });
    std::fs::write(
        dir.join("sign.gltf"),
        serde_json::to_vec(&json).expect("json"),
    )
    .expect("gltf");
    let stdout = succeeds(&["import", "sign.gltf", "--into", "sign.pebble.ron"], &dir);
    assert!(
        stdout.contains("warnings (") && stdout.contains("is 4096 × 8: the export cuts it down"),
        "{stdout}"
    );
}
