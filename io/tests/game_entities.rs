//! The `game_entities` lump end to end: a scene of the showcase's kinds exported,
//! read with `pbm`'s reader, imported back and exported again byte for byte; and
//! random definitions with random instances doing the same.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use pbm::game_entities::{GameEntities, Value};
use pebble_io::export::{ExportOptions, export};
use pebble_io::import::{ImportOptions, import_file};
use pebble_model::command::AddEntities;
use pebble_model::definitions::{Definitions, FieldValue};
use pebble_model::entity::{DefinedEntity, EntityKind};
use pebble_model::glam::{Quat, Vec3};
use pebble_model::{Entity, EntityId, History, Scene, Transform};
use proptest::prelude::*;

const SAMPLE: &str = include_str!("../../assets/showcase/entities.ron");

fn scratch(label: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("pebble-ge-{label}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

fn lump_of(map: &[u8]) -> GameEntities {
    let (map, _) = pbm::Map::read(map).expect("the map reads");
    let m = map
        .metadata_by_tag(pbm::tag::GAME_ENTITIES)
        .expect("a game_entities lump");
    assert_eq!(m.kind, pbm::MetaKind::Entity);
    GameEntities::decode(&m.payload).expect("the lump reads")
}

fn export_with(scene: &Scene, defs: &Definitions, dir: &std::path::Path) -> Vec<u8> {
    let mut options = ExportOptions::new(dir);
    options.bake = false;
    options.definitions = Some(Arc::new(defs.clone()));
    export(scene, &options, &mut |_| {}, &AtomicBool::new(false))
        .expect("exports")
        .0
}

/// Imports map bytes into a fresh scene.
fn import_back(bytes: &[u8], label: &str) -> Scene {
    let dir = scratch(label);
    let path = dir.join("map.pbm");
    std::fs::write(&path, bytes).expect("writes");
    let imported = import_file(&path, &ImportOptions::new(&dir), &mut |_| {}).expect("imports");
    let mut scene = Scene::new();
    History::default()
        .execute(&mut scene, imported.command)
        .expect("applies");
    scene
}

/// Entities given with batch-local ids `1..`, references among them by those.
fn scene_of(entities: Vec<Entity>) -> Scene {
    let mut scene = Scene::new();
    History::default()
        .execute(&mut scene, AddEntities::new("Place", entities))
        .expect("adds");
    scene
}

fn defined(local: u32, name: &str, kind: &str, at: Vec3, values: &[(&str, FieldValue)]) -> Entity {
    let mut d = DefinedEntity::new(kind);
    d.values = values
        .iter()
        .map(|(k, v)| ((*k).to_owned(), v.clone()))
        .collect();
    let mut e = Entity::new(name, EntityKind::Defined(d));
    e.id = EntityId(local);
    e.transform = Transform::from_translation(at);
    e
}

#[test]
fn the_showcase_kinds_export_read_back_and_export_again_byte_for_byte() {
    let defs = Definitions::parse(SAMPLE).expect("reads");
    let p = |x: f32, z: f32| FieldValue::Point(Vec3::new(x, 0.0, z));
    let mut guard = defined(
        3,
        "Guard",
        "Enemy",
        Vec3::new(2.0, 0.0, 1.0),
        &[
            ("title", FieldValue::Text("Bat #1".into())),
            ("health", FieldValue::Int(9000)),
            (
                "path",
                FieldValue::Array(vec![p(2.0, 1.0), p(6.0, 1.0), p(6.0, 5.0)]),
            ),
            ("skill", FieldValue::Flags(vec!["Hard".into()])),
        ],
    );
    guard.transform.rotation = Quat::from_rotation_y(0.5);
    let scene = scene_of(vec![
        defined(1, "Lever", "Switch", Vec3::new(-3.0, 0.0, 0.0), &[]),
        defined(
            2,
            "Gate",
            "Door",
            Vec3::new(0.0, 0.0, -4.0),
            &[
                ("key", FieldValue::Enum("Gold".into())),
                ("switch", FieldValue::Entity(Some(EntityId(1)))),
            ],
        ),
        guard,
        defined(
            4,
            "Coins",
            "Pickup",
            Vec3::new(1.0, 0.5, 1.0),
            &[("amount", FieldValue::Int(25))],
        ),
    ]);
    let dir = scratch("showcase");
    let bytes = export_with(&scene, &defs, &dir);
    let lump = lump_of(&bytes);
    assert_eq!(lump.hash, defs.hash());
    let kinds: Vec<&str> = lump.kinds.iter().map(|k| k.name.as_str()).collect();
    assert_eq!(kinds, ["Enemy", "Switch", "Door", "Pickup"]);
    // Grouped by kind in the definitions' order, numbered from 1.
    let names: Vec<&str> = lump.instances.iter().map(|i| i.name.as_str()).collect();
    assert_eq!(names, ["Guard", "Lever", "Gate", "Coins"]);
    let guard = &lump.instances[0];
    assert_eq!(
        lump.value(guard, "health"),
        Some(&Value::Int(500)),
        "clamped"
    );
    assert_eq!(
        lump.value(guard, "speed"),
        Some(&Value::Float(2.5)),
        "default"
    );
    assert_eq!(lump.value(guard, "skill"), Some(&Value::Flags(0b100)));
    assert_eq!(
        lump.value(guard, "path"),
        Some(&Value::Array(vec![
            Value::Point([2.0, 0.0, 1.0]),
            Value::Point([6.0, 0.0, 1.0]),
            Value::Point([6.0, 0.0, 5.0]),
        ]))
    );
    assert_eq!(guard.position, [2.0, 0.0, 1.0]);
    assert_eq!(guard.rotation, Quat::from_rotation_y(0.5).to_array());
    let gate = &lump.instances[2];
    assert_eq!(lump.value(gate, "key"), Some(&Value::Enum(3)));
    let Some(Value::Entity(link)) = lump.value(gate, "switch") else {
        panic!("a link");
    };
    assert_eq!(lump.by_id(*link).map(|i| i.name.as_str()), Some("Lever"));
    let coins = &lump.instances[3];
    assert_eq!(lump.value(coins, "glow"), Some(&Value::Colour(0xFF8A_E0FF)));

    let back = import_back(&bytes, "showcase-back");
    let again = export_with(&back, &defs, &scratch("showcase-again"));
    assert_eq!(lump_of(&again), lump);
    let payload = |b: &[u8]| {
        pbm::Map::read(b)
            .expect("reads")
            .0
            .metadata_by_tag(pbm::tag::GAME_ENTITIES)
            .expect("lump")
            .payload
            .clone()
    };
    assert_eq!(payload(&again), payload(&bytes), "byte for byte");
    // The door's link came back as a link to the lever.
    let lever = back
        .entities()
        .find(|e| e.name == "Lever")
        .expect("lever")
        .id;
    let gate = back.entities().find(|e| e.name == "Gate").expect("gate");
    let EntityKind::Defined(d) = &gate.kind else {
        panic!("a game entity")
    };
    assert_eq!(
        d.values.get("switch"),
        Some(&FieldValue::Entity(Some(lever)))
    );
}

#[test]
fn an_instance_whose_kind_left_is_kept_out_of_the_map_with_a_warning() {
    let defs = Definitions::parse(SAMPLE).expect("reads");
    let scene = scene_of(vec![
        defined(1, "Lever", "Switch", Vec3::ZERO, &[]),
        defined(
            2,
            "Wisp",
            "Wraith",
            Vec3::ONE,
            &[("glow", FieldValue::Int(3))],
        ),
    ]);
    let mut options = ExportOptions::new(scratch("unknown"));
    options.bake = false;
    options.definitions = Some(Arc::new(defs));
    let (bytes, report) =
        export(&scene, &options, &mut |_| {}, &AtomicBool::new(false)).expect("exports");
    assert!(
        report
            .warnings
            .iter()
            .any(|w| w.contains("1 entities of the kind Wraith are left out")),
        "{:?}",
        report.warnings
    );
    assert_eq!(lump_of(&bytes).instances.len(), 1);
}

#[test]
fn without_definitions_the_project_file_is_read_and_a_broken_one_refuses_the_export() {
    let dir = scratch("file");
    let scene = scene_of(vec![defined(1, "Lever", "Switch", Vec3::ZERO, &[])]);
    std::fs::write(dir.join("entities.ron"), SAMPLE).expect("writes");
    let mut options = ExportOptions::new(&dir);
    options.bake = false;
    let (bytes, _) =
        export(&scene, &options, &mut |_| {}, &AtomicBool::new(false)).expect("exports");
    assert_eq!(lump_of(&bytes).instances.len(), 1);
    std::fs::write(dir.join("entities.ron"), "(kinds: [(name: \"A\" )").expect("writes");
    let err = export(&scene, &options, &mut |_| {}, &AtomicBool::new(false))
        .expect_err("refused")
        .to_string();
    assert!(err.contains("entities.ron: line 1, column"), "{err}");
}

// --- Random definitions and instances -------------------------------------------

#[derive(Debug, Clone)]
struct FieldSpec {
    ty: u8,
    array: bool,
}

fn definitions_text(kinds: &[Vec<FieldSpec>]) -> String {
    let mut s = String::from(
        "(enums: [(name: \"E\", values: [\"A\", \"B\", \"C\"])], flags: [(name: \"F\", bits: [\"X\", \"Y\", \"Z\"])], kinds: [\n",
    );
    for (k, fields) in kinds.iter().enumerate() {
        s += &format!("(name: \"K{k}\", fields: [");
        for (j, f) in fields.iter().enumerate() {
            let ty = [
                "Int",
                "Float",
                "Bool",
                "String",
                "Enum(\"E\")",
                "Flags(\"F\")",
                "Colour",
                "Point",
                "Asset",
                "Entity",
            ][f.ty as usize];
            let limits = match f.ty {
                0 => ", min: -50, max: 50",
                1 => ", min: -10.0, max: 10.0",
                3 => ", max_len: 12",
                _ => "",
            };
            s += &format!("(name: \"f{j}\", type: {ty}, array: {}{limits}),", f.array);
        }
        s += "]),\n";
    }
    s + "])"
}

fn random_value(ty: u8, seed: u64, entities: u32) -> FieldValue {
    let r = |k: u64| {
        (seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(k * 1442695040888963407)
            >> 33) as u32
    };
    match ty {
        0 => FieldValue::Int(r(1) as i32 % 80),
        1 => FieldValue::Float((r(2) as f32 / u32::MAX as f32 - 0.5) * 30.0),
        2 => FieldValue::Bool(r(3) % 2 == 0),
        3 => FieldValue::Text("é".repeat((r(4) % 9) as usize)),
        4 => FieldValue::Enum(["A", "B", "C", "Q"][(r(5) % 4) as usize].into()),
        5 => FieldValue::Flags(
            ["X", "Y", "Z"]
                .iter()
                .filter(|_| r(6) % 2 == 0)
                .map(|s| (*s).to_owned())
                .collect(),
        ),
        6 => FieldValue::Colour(r(7)),
        7 => FieldValue::Point(Vec3::new(r(8) as f32 / 1e6, -1.5, r(9) as f32 / 3e6)),
        8 => FieldValue::Text(format!("models/m{}.glb", r(10) % 5)),
        _ => {
            FieldValue::Entity((r(11) % (entities + 1) > 0).then(|| EntityId(1 + r(12) % entities)))
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]
    #[test]
    fn random_definitions_and_instances_round_trip_byte_identically(
        kinds in prop::collection::vec(
            prop::collection::vec((0u8..10, any::<bool>()).prop_map(|(ty, array)| FieldSpec { ty, array }), 0..6),
            1..4,
        ),
        placed in prop::collection::vec((0usize..4, any::<u64>(), -50.0f32..50.0, any::<bool>()), 1..12),
    ) {
        let defs = Definitions::parse(&definitions_text(&kinds)).expect("the generated definitions read");
        let n = placed.len() as u32;
        let entities: Vec<Entity> = placed
            .iter()
            .enumerate()
            .map(|(k, (kind, seed, x, set))| {
                let kind = kind % kinds.len();
                let mut values = BTreeMap::new();
                for (j, f) in kinds[kind].iter().enumerate() {
                    if !*set && j % 2 == 0 {
                        continue; // left at its default
                    }
                    let one = |s: u64| random_value(f.ty, seed.wrapping_add(s), n);
                    let v = if f.array {
                        FieldValue::Array((0..(seed % 4)).map(one).collect())
                    } else {
                        one(j as u64)
                    };
                    values.insert(format!("f{j}"), v);
                }
                let mut e = defined(k as u32 + 1, &format!("E{k}"), &format!("K{kind}"), Vec3::new(*x, 0.25, -*x), &[]);
                if let EntityKind::Defined(d) = &mut e.kind {
                    d.values = values;
                }
                e.transform.rotation = Quat::from_rotation_y(*x);
                e
            })
            .collect();
        let scene = scene_of(entities);
        let first = export_with(&scene, &defs, &scratch("prop"));
        let back = import_back(&first, "prop-back");
        let second = export_with(&back, &defs, &scratch("prop-again"));
        let payload = |b: &[u8]| pbm::Map::read(b).expect("reads").0
            .metadata_by_tag(pbm::tag::GAME_ENTITIES).expect("lump").payload.clone();
        prop_assert_eq!(payload(&first), payload(&second));
    }
}
