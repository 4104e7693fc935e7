//! A built-in kind is its descriptor: a kind added to the descriptors' text — and
//! nothing else — is exported to the lump its recipe names and read back with
//! its values, through the same code every built-in kind goes through. And each
//! shipped built-in kind writes what the runtime's rules read.

use pebble_io::described::{Body, export_kind, import};
use pebble_model::command::AddEntities;
use pebble_model::definitions::{FieldValue, builtin};
use pebble_model::entity::{DefinedEntity, EntityKind};
use pebble_model::glam::{Quat, Vec3};
use pebble_model::{Command, Entity, Scene, Transform};

/// The shipped descriptors with one more kind, as a developer would add it.
fn with_checkpoint() -> pebble_model::definitions::Definitions {
    let extra = r##"
        (
            name: "Checkpoint",
            doc: "Where the player comes back after a fall.",
            colour: "#ffd040",
            tags: ["Gameplay"],
            lump: Json(tag: "checkpoints", keys: [("order", "index")]),
            fields: [
                (name: "order", type: Int, min: 0, max: 99, default: 0),
                (name: "heals", type: Bool, default: true),
                (name: "gate", type: Point, local: true, default: (0.0, 0.0, -2.0)),
            ],
        ),
    ],
)"##;
    let text = builtin::TEXT;
    let end = text.rfind("],").expect("the kinds' list ends");
    let text = format!("{}{}", &text[..end], extra.trim_start());
    builtin::read(&text).expect("the descriptors read with the new kind")
}

#[test]
fn a_kind_added_to_the_descriptors_alone_is_exported_and_read_back() {
    let defs = with_checkpoint();
    let kind = defs.kind("Checkpoint").expect("the new kind");
    let recipe = kind.lump.as_ref().expect("its recipe");
    let mut scene = Scene::new();
    let mut d = DefinedEntity::new("Checkpoint");
    d.values.insert("order".into(), FieldValue::Int(3));
    d.values.insert("heals".into(), FieldValue::Bool(false));
    let e = Entity::new("Bridge", EntityKind::Defined(d)).with_transform(Transform {
        translation: Vec3::new(10.0, 2.0, 0.0),
        rotation: Quat::from_rotation_y(std::f32::consts::FRAC_PI_2),
        scale: Vec3::ONE,
    });
    AddEntities::new("add", vec![e])
        .apply(&mut scene)
        .expect("adds");
    let mut warnings = Vec::new();
    let lump = export_kind(&scene, kind, recipe, &mut warnings).expect("a lump");
    assert!(warnings.is_empty(), "{warnings:?}");
    assert_eq!(lump.tag.as_str(), "checkpoints");
    let json: serde_json::Value =
        serde_json::from_str(lump.as_text().expect("text")).expect("the lump is JSON");
    let o = &json[0];
    assert_eq!(o["id"], "Bridge");
    assert_eq!(o["index"], 3, "renamed as the recipe says: {json}");
    assert_eq!(o["heals"], false);
    assert_eq!(o["position"], serde_json::json!([10.0, 2.0, 0.0]));
    // The local gate turned and moved with the entity: 2 m ahead along its −Z,
    // which a quarter turn points down −X.
    let gate: Vec<f64> = o["gate"]
        .as_array()
        .expect("a point")
        .iter()
        .map(|c| c.as_f64().expect("a number"))
        .collect();
    assert!(
        (gate[0] - 8.0).abs() < 1e-5 && (gate[1] - 2.0).abs() < 1e-5 && gate[2].abs() < 1e-5,
        "{gate:?}"
    );

    let read = import(kind, recipe, Body::Json(&json), &mut warnings).expect("the kind's lump");
    assert!(warnings.is_empty(), "{warnings:?}");
    assert_eq!(read.len(), 1);
    assert_eq!(read[0].name, "Bridge");
    assert_eq!(read[0].at, Vec3::new(10.0, 2.0, 0.0));
    assert_eq!(
        read[0].entity.values.get("order"),
        Some(&FieldValue::Int(3))
    );
    assert_eq!(
        read[0].entity.values.get("heals"),
        Some(&FieldValue::Bool(false))
    );
    // Read back unturned, the gate keeps its world place.
    let back = read[0].entity.values["gate"].as_point().expect("a point") + read[0].at;
    assert!((back - Vec3::new(8.0, 2.0, 0.0)).length() < 1e-5, "{back}");
}

/// The lumps the shipped built-in kinds write are the ones the runtime's rules
/// read, with the keys they read: a trigger's world bounds and merged free
/// properties, the spawn's yaw in radians, the pit's box in world space.
#[test]
fn the_built_in_kinds_write_what_the_runtime_reads() {
    use pebble_model::definitions::builtin::instance;
    let mut scene = Scene::new();
    let at = |p: Vec3| Transform::from_translation(p);
    let entities = vec![
        Entity::new(
            "Start",
            EntityKind::Defined(instance("PlayerSpawn", [("yaw", FieldValue::Float(90.0))])),
        )
        .with_transform(at(Vec3::new(1.0, 1.6, 2.0))),
        Entity::new(
            "Gate",
            EntityKind::Defined(instance(
                "Trigger",
                [
                    ("size", FieldValue::Point(Vec3::new(2.0, 3.0, 4.0))),
                    ("event", FieldValue::Text("gate".into())),
                    ("properties", FieldValue::Text("{\"door\": 7}".into())),
                ],
            )),
        )
        .with_transform(at(Vec3::new(5.0, 0.0, 0.0))),
        Entity::new("Pit", EntityKind::Defined(instance("BallPit", [])))
            .with_transform(at(Vec3::new(0.0, 0.0, -10.0))),
    ];
    AddEntities::new("add", entities)
        .apply(&mut scene)
        .expect("adds");
    let mut warnings = Vec::new();
    let lumps = pebble_io::described::export(&scene, &mut warnings);
    let map = pbm::Map {
        metadata: lumps,
        ..Default::default()
    };
    let bytes = map.to_bytes().expect("writes");
    let view = pbm::MapView::parse(&bytes).expect("reads").0;
    let (level, problems) = pebble_play::Level::from_view(&view);
    assert!(problems.is_empty(), "{problems:?}");
    let t = &level.triggers[0];
    assert_eq!(t.event, "gate");
    assert_eq!(t.min, [4.0, 0.0, -2.0]);
    assert_eq!(t.max, [6.0, 3.0, 2.0]);
    let json = |tag: &str| -> serde_json::Value {
        let m = view.metadata_by_tag(tag).expect(tag);
        serde_json::from_str(m.text().expect("text")).expect("JSON")
    };
    assert_eq!(json("triggers")[0]["door"], 7, "the free properties merged");
    assert!(
        json("triggers")[0].get("dialogue_id").is_none(),
        "empty: left out"
    );
    let yaw = json("player_spawn")["yaw"].as_f64().expect("a yaw");
    assert!((yaw - std::f64::consts::FRAC_PI_2).abs() < 1e-6, "{yaw}");
    let pit = level.pit.as_ref().expect("the pit");
    assert_eq!(pit.min, [-1.0, 1.0, -11.0]);
    assert_eq!(pit.max, [1.0, 2.0, -9.0]);
}
