//! The bundled presets: every file in `presets/` is built in and reads; each is
//! valid for the model; a user's presets are saved, listed and reported.

use std::path::Path;

use pebble_model::entity::{EntityKind, Light, check_kind};
use pebble_model::{History, Scene};

use super::*;

fn folder(name: &str) -> Vec<String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../presets")
        .join(name);
    let mut files: Vec<String> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok())
        .filter(|e| e.path().is_file())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    files.sort();
    files
}

fn names(list: &[(&str, impl Sized)]) -> Vec<String> {
    let mut n: Vec<String> = list.iter().map(|(f, _)| f.to_string()).collect();
    n.sort();
    n
}

#[test]
fn every_file_in_the_presets_folder_is_built_in() {
    assert_eq!(names(EMITTERS), folder(EMITTER_FOLDER));
    assert_eq!(names(MATERIALS), folder(MATERIAL_FOLDER));
    assert_eq!(names(MATERIAL_TEXTURES), folder("materials/textures"));
    assert_eq!(names(ENVIRONMENTS), folder(ENVIRONMENT_FOLDER));
    assert_eq!(names(EXPORTS), folder(EXPORT_FOLDER));
    assert_eq!(names(NAVIGATION), folder(NAVIGATION_FOLDER));
}

#[test]
fn the_bundled_presets_read_and_are_valid() {
    let empty = std::env::temp_dir().join(format!("pebble-presets-none-{}", std::process::id()));
    let p = Presets::load(&empty);
    assert!(p.problems.is_empty(), "{:?}", p.problems);
    let listed = |v: Vec<&str>| v.into_iter().map(str::to_owned).collect::<Vec<_>>();
    assert_eq!(
        p.emitters
            .iter()
            .map(|e| e.preset.name.clone())
            .collect::<Vec<_>>(),
        listed(vec![
            "Campfire",
            "Torch",
            "Candle",
            "Mist",
            "Waterfall spray",
            "Sparks",
            "Smoke",
            "Dust"
        ])
    );
    for e in &p.emitters {
        check_kind(None, &EntityKind::Emitter(e.preset.emitter.clone()))
            .unwrap_or_else(|err| panic!("{}: {err}", e.preset.name));
    }
    assert_eq!(p.materials.len(), 4);
    for m in &p.materials {
        let (file, bytes) = Presets::texture(m).expect("its texture is built in");
        image::load_from_memory(&bytes).unwrap_or_else(|e| panic!("{file}: {e}"));
    }
    for e in &p.environments {
        let s = e.preset.sun;
        let sky = e.preset.sky;
        for light in [
            Light::Sun {
                direction: s.direction,
                color: s.color,
                intensity: s.intensity,
                shadows: true,
            },
            Light::Hemisphere {
                sky: sky.sky,
                ground: sky.ground,
                ao_strength: sky.ao_strength,
                ao_radius: sky.ao_radius,
            },
        ] {
            check_kind(None, &EntityKind::Light(light))
                .unwrap_or_else(|err| panic!("{}: {err}", e.preset.name));
        }
    }
    assert_eq!(p.environments.len(), 5);
    assert_eq!(p.navigation.len(), 3);
    // Each export preset is settings the model takes.
    for e in &p.exports {
        let mut scene = Scene::new();
        let mut settings = scene.settings().clone();
        settings.export = e.preset.export.onto(&settings.export);
        History::default()
            .execute(
                &mut scene,
                pebble_model::command::SetSettings::new(settings.clone()),
            )
            .unwrap_or_else(|err| panic!("{}: {err}", e.preset.name));
        assert_eq!(
            scene.settings().export.output,
            "export/map.pbm",
            "the output stays"
        );
    }
}

/// Until now a new emitter drew dark squares until Additive was ticked.
#[test]
fn a_new_emitter_is_a_warm_additive_fire() {
    let e = default_emitter();
    assert!(e.additive);
    let red = e.color_start & 0xFF;
    let alpha = e.color_start >> 24;
    assert!(red >= 0xC0 && alpha >= 0xC0, "{:08x}", e.color_start);
    assert!(e.texture.is_none(), "the built-in glow: no file to carry");
}

#[test]
fn a_user_s_presets_are_saved_listed_after_the_bundled_and_bad_files_reported() {
    let root = std::env::temp_dir().join(format!("pebble-presets-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    let mine = EmitterPreset {
        name: "My Flame!".into(),
        about: String::new(),
        emitter: Emitter {
            count: 7,
            ..default_emitter()
        },
    };
    let path = save(&root, EMITTER_FOLDER, &mine.name, &mine).expect("saves");
    assert_eq!(
        path.file_name().and_then(|f| f.to_str()),
        Some("my_flame.ron")
    );
    std::fs::write(root.join(EMITTER_FOLDER).join("broken.ron"), "(name: ").expect("write");
    let p = Presets::load(&root);
    let last = p.emitters.last().expect("listed");
    assert_eq!(last.preset, mine);
    assert_eq!(last.origin, Origin::User(path));
    assert_eq!(p.emitters.len(), EMITTERS.len() + 1);
    assert!(
        p.problems
            .iter()
            .any(|m| m.contains("broken.ron") && m.contains("not a preset")),
        "{:?}",
        p.problems
    );

    // A material with its texture: the preset carries the texture to any project.
    let project = root.join("project");
    std::fs::create_dir_all(project.join("textures")).expect("dir");
    std::fs::write(project.join("textures/moss.png"), MATERIAL_TEXTURES[0].1).expect("png");
    let moss = Material {
        name: "Moss".into(),
        texture: Some("textures/moss.png".into()),
        ..Material::default()
    };
    save_material(&root, &project, "Moss", &moss).expect("saves");
    let p = Presets::load(&root);
    let listed = p.materials.last().expect("listed");
    let other = root.join("other project");
    let m = material_for_project(listed, &other).expect("applies");
    assert_eq!(m.texture.as_deref(), Some("textures/presets/moss.png"));
    assert_eq!(
        std::fs::read(other.join("textures/presets/moss.png")).expect("copied"),
        MATERIAL_TEXTURES[0].1
    );
    assert_eq!(file_name("  Dust / motes "), "dust_motes");
    assert_eq!(file_name("!!"), "preset");
}

/// The report: a material made from a preset stayed "Material 2". A made-up name
/// takes the preset's (unique in the project); a name the designer gave stays.
#[test]
fn a_preset_names_a_material_that_has_no_name_of_its_own() {
    let mut scene = pebble_model::Scene::new();
    pebble_model::History::default()
        .execute(
            &mut scene,
            pebble_model::command::AddMaterial::new(pebble_model::Material {
                name: "Brick wall".into(),
                ..pebble_model::Material::default()
            }),
        )
        .expect("a material");
    assert_eq!(
        super::name_after_preset(&scene, "Material 2", "Stone floor"),
        "Stone floor"
    );
    assert_eq!(
        super::name_after_preset(&scene, "Default", "Brick wall"),
        "Brick wall 2"
    );
    assert_eq!(
        super::name_after_preset(&scene, "Courtyard", "Brick wall"),
        "Courtyard"
    );
}
