//! Every kind the Create menu makes goes where the exporter says it goes
//! (`pebble_io::export::written_to`, an exhaustive match), and every kind written to
//! a lump comes back from the map as that kind. A new kind that is missing from
//! the exporter or the `.pbm` importer fails here.

use pebble_core::create::{self, CreateItem};
use pebble_io::import::{ImportOptions, import_file};
use pebble_model::command::{AddEntities, AddMaterial};
use pebble_model::glam::Vec3;
use pebble_model::{EntityKind, History, Kind, Material, Scene};

fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("pebble-kinds-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("dir");
    dir
}

#[test]
fn every_kind_is_written_where_the_exporter_says_and_read_back() {
    let mut scene = Scene::new();
    let mut history = History::default();
    history
        .execute(&mut scene, AddMaterial::new(Material::default()))
        .expect("a material");
    let material = scene.materials().next().map(|(id, _)| id);
    let items: Vec<CreateItem> = create::all().collect();
    let mut entities: Vec<_> = items
        .iter()
        .enumerate()
        .map(|(k, item)| {
            create::entity(*item, Vec3::new(k as f32 * 3.0, 0.0, 0.0), material)
                .unwrap_or_else(|e| panic!("{item:?}: {e}"))
        })
        .collect();
    // A game entity: one of the project's own kinds (Create › its tag › the kind),
    // defined in the entities.ron beside the project.
    entities.push(create::defined_entity("Switch", Vec3::new(-3.0, 0.0, 0.0)));
    history
        .execute(&mut scene, AddEntities::new("Add one of each", entities))
        .expect("adds");
    let made: std::collections::BTreeSet<Kind> = scene.entities().map(|e| e.kind.kind()).collect();
    // Every kind has a Create item, except the walkable surface (it comes from an
    // imported map, or a glTF node named `Walkable_…`).
    for kind in Kind::ALL {
        assert!(
            made.contains(&kind) || kind == Kind::Walkable,
            "the Create menu makes no {kind:?}"
        );
    }

    let dir = scratch("export");
    std::fs::write(
        dir.join(pebble_model::definitions::FILE_NAME),
        pebble_core::services::showcase::DEFINITIONS,
    )
    .expect("the definitions");
    let bytes =
        pebble_core::services::export::to_bytes(&scene, dir.clone(), false).expect("exports");
    let (view, warnings) = pbm::MapView::parse(&bytes).expect("reads");
    assert!(warnings.is_empty(), "{warnings:?}");
    let path = dir.join("kinds.pbm");
    std::fs::write(&path, &bytes).expect("writes");
    let imported =
        import_file(&path, &ImportOptions::new(scratch("import")), &mut |_| {}).expect("imports");
    let mut back = Scene::new();
    History::default()
        .execute(&mut back, imported.command)
        .expect("applies");
    let read: std::collections::BTreeSet<Kind> = back.entities().map(|e| e.kind.kind()).collect();

    let mut checked = 0;
    for kind in made {
        let to = pebble_io::export::written_to(kind);
        if !pbm::tag::ALL.contains(&to) {
            continue;
        }
        assert!(
            view.metadata_by_tag(to).is_some(),
            "{kind:?} should be in the {to} lump, which is missing"
        );
        assert!(
            read.contains(&kind),
            "{kind:?} ({to}) did not come back from the map"
        );
        checked += 1;
    }
    assert!(checked >= 1, "only {checked} kinds were written to lumps");

    // Each built-in kind described as data is in the lump its descriptor names
    // and comes back as that kind, named as it was, its values at the defaults.
    let mut described = 0;
    for (kind, recipe) in pebble_io::described::kinds() {
        assert!(
            view.metadata_by_tag(recipe.tag()).is_some(),
            "{} should be in the {} lump",
            kind.name,
            recipe.tag()
        );
        let e = back
            .entities()
            .find(|e| matches!(&e.kind, EntityKind::Defined(d) if d.kind == kind.name))
            .unwrap_or_else(|| panic!("{} did not come back from the map", kind.name));
        let EntityKind::Defined(d) = &e.kind else {
            unreachable!()
        };
        assert!(d.values.is_empty(), "{}: {:?}", kind.name, d.values);
        assert_eq!(e.name, kind.title);
        described += 1;
    }
    assert!(described >= 1);
    // The game's own kind went to game_entities.
    assert!(view.metadata_by_tag(pbm::tag::GAME_ENTITIES).is_some());
    assert!(
        back.entities()
            .any(|e| matches!(&e.kind, EntityKind::Defined(d) if d.kind == "Switch"))
    );
}

/// The kind described as data as a designer meets it: Create › Sound source, a
/// click on the floor, its descriptor's fields in the inspector, and its marker
/// (and the ring it is heard within) drawn in the viewport in its colour.
#[test]
fn a_sound_source_is_placed_edited_and_drawn() {
    use egui_kittest::kittest::Queryable as _;
    let Some(mut harness) = crate::common::harness() else {
        return;
    };
    // Pixels of the marker's colour in the window.
    let (r, g, b) = (0x20u8, 0xE8u8, 0xB0u8);
    let teal = |image: &image::RgbaImage| {
        image
            .pixels()
            .filter(|p| {
                p.0[0].abs_diff(r) < 40 && p.0[1].abs_diff(g) < 40 && p.0[2].abs_diff(b) < 40
            })
            .count()
    };
    let before = teal(&harness.render().expect("renders the window"));
    harness
        .state_mut()
        .start_create(CreateItem::Builtin("SoundSource"));
    let floor = Vec3::new(0.0, 0.0, 3.0);
    let at = crate::common::screen(harness.state(), floor);
    crate::common::click(&mut harness, at);
    harness.run_steps(2);
    let sound = harness
        .state()
        .scene()
        .entities()
        .find(|e| matches!(&e.kind, EntityKind::Defined(d) if d.kind == "SoundSource"))
        .cloned()
        .expect("a sound source was made");
    assert_eq!(sound.name, "Sound source");
    let place = harness
        .state()
        .scene()
        .world_transform(sound.id)
        .translation;
    assert!(
        place.y > 1.0 && (place.x - floor.x).abs() < 0.5 && (place.z - floor.z).abs() < 0.5,
        "put at {place:?}, an ear's height over {floor:?}"
    );
    assert_eq!(harness.state().scene().selection(), &[sound.id]);
    for field in ["cue", "radius", "volume", "looped"] {
        assert!(
            harness.query_all_by_label_contains(field).next().is_some(),
            "the inspector has no {field} field"
        );
    }
    // Selected, it is drawn in the selection's colour; with nothing selected, in
    // its own.
    harness.key_press(eframe::egui::Key::Escape);
    harness.run_steps(2);
    assert!(harness.state().scene().selection().is_empty());
    let image = harness.render().expect("renders the window");
    if let Ok(dir) = std::env::var("PEBBLE_KEEP_PICTURES") {
        let _ = image.save(std::path::Path::new(&dir).join("sound_source.png"));
    }
    let after = teal(&image);
    assert!(
        after > before + 100,
        "the marker's colour: {before} pixels before, {after} after"
    );
}

/// A kind described as data keeps the lump the runtime reads: a sound source
/// placed in the editor is exported under the keys the runtime's rules take
/// (`loop`, not the field's name `looped`), read by them with its values, and
/// imported back with the same values; a value out of its range in a map
/// written by another tool is said, and the default stands in.
#[test]
fn a_sound_source_goes_to_the_runtime_and_back_by_its_descriptor() {
    use pebble_model::definitions::FieldValue;
    let mut scene = Scene::new();
    let mut source = create::entity(
        CreateItem::Builtin("SoundSource"),
        Vec3::new(2.0, 1.5, -4.0),
        None,
    )
    .expect("a sound source");
    source.name = "Waterfall".into();
    let EntityKind::Defined(d) = &mut source.kind else {
        panic!("{:?}", source.kind)
    };
    d.values
        .insert("cue".into(), FieldValue::Text("falls".into()));
    d.values.insert("radius".into(), FieldValue::Float(20.0));
    d.values.insert("looped".into(), FieldValue::Bool(false));
    History::default()
        .execute(&mut scene, AddEntities::new("Add", vec![source]))
        .expect("adds");
    let dir = scratch("sound");
    let bytes =
        pebble_core::services::export::to_bytes(&scene, dir.clone(), false).expect("exports");
    let (view, _) = pbm::MapView::parse(&bytes).expect("reads");
    let lump = view
        .metadata_by_tag(pbm::tag::SOUND_SOURCES)
        .and_then(|m| m.text())
        .expect("a sound_sources lump");
    let json: serde_json::Value = serde_json::from_str(lump).expect("JSON");
    assert_eq!(json[0]["id"], "Waterfall");
    assert_eq!(json[0]["cue"], "falls");
    assert_eq!(json[0]["loop"], false, "{lump}");
    assert_eq!(json[0]["position"], serde_json::json!([2.0, 1.5, -4.0]));

    let (level, problems) = pebble_play::Level::from_view(&view);
    assert!(problems.is_empty(), "{problems:?}");
    assert_eq!(level.sounds.len(), 1);
    assert_eq!(level.sounds[0].cue, "falls");
    assert_eq!(level.sounds[0].radius, 20.0);

    // Back into the editor: the values set come back, the rest follow the
    // descriptor's defaults.
    let path = dir.join("sound.pbm");
    std::fs::write(&path, &bytes).expect("writes");
    let imported =
        import_file(&path, &ImportOptions::new(scratch("sound-in")), &mut |_| {}).expect("imports");
    let mut back = Scene::new();
    History::default()
        .execute(&mut back, imported.command)
        .expect("applies");
    let e = back
        .entities()
        .find(|e| e.name == "Waterfall")
        .expect("the sound source");
    let EntityKind::Defined(d) = &e.kind else {
        panic!("{:?}", e.kind)
    };
    assert_eq!(d.kind, "SoundSource");
    assert_eq!(d.values.get("cue"), Some(&FieldValue::Text("falls".into())));
    assert_eq!(d.values.get("radius"), Some(&FieldValue::Float(20.0)));
    assert_eq!(d.values.get("looped"), Some(&FieldValue::Bool(false)));
    assert_eq!(d.values.get("volume"), None, "at its default");

    // Another tool's map with a radius out of range.
    let kind = pebble_model::definitions::builtin::kinds()
        .kind("SoundSource")
        .expect("built in");
    let recipe = kind.lump.as_ref().expect("a recipe");
    let body = serde_json::json!([
        { "id": "Far", "position": [0, 0, 0], "cue": "wind", "radius": -3 },
        { "id": "Lost", "cue": "nowhere" },
    ]);
    let mut warnings = Vec::new();
    let read = pebble_io::described::import(
        kind,
        recipe,
        pebble_io::described::Body::Json(&body),
        &mut warnings,
    )
    .expect("the kind's lump");
    assert_eq!(read.len(), 1, "the one without a position is skipped");
    assert_eq!(
        read[0].entity.values.get("radius"),
        None,
        "the default stands"
    );
    assert!(
        warnings
            .iter()
            .any(|w| w.contains("sound_sources[0] ('Far'): radius")),
        "{warnings:?}"
    );
    assert!(
        warnings
            .iter()
            .any(|w| w.contains("sound_sources[1] ('Lost') has no position")),
        "{warnings:?}"
    );
}
