use glam::Vec3;

use super::*;
use crate::entity::{DefinedEntity, Entity, EntityKind};
use crate::id::EntityId;

const SAMPLE: &str = include_str!("../../../assets/showcase/entities.ron");

fn sample() -> Definitions {
    Definitions::parse(SAMPLE).expect("the showcase's definitions read")
}

fn error(text: &str) -> DefinitionsError {
    Definitions::parse(text).expect_err("refused")
}

#[test]
fn the_sample_reads_with_its_groups_expanded() {
    let d = sample();
    let names: Vec<&str> = d.kinds.iter().map(|k| k.name.as_str()).collect();
    assert_eq!(names, ["Enemy", "Switch", "Door", "Pickup"]);
    let enemy = d.kind("Enemy").expect("Enemy");
    let fields: Vec<&str> = enemy.fields.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(
        fields,
        ["skill", "title", "health", "speed", "sight", "path"]
    );
    assert_eq!(enemy.fields[0].group.as_deref(), Some("Spawned"));
    assert_eq!(
        enemy.fields[0].default,
        FieldValue::Flags(vec!["Easy".into(), "Normal".into(), "Hard".into()])
    );
    let path = enemy.field("path").expect("path");
    assert!(path.array && path.ty == FieldType::Point && path.display == Display::Path);
    assert_eq!(path.default, FieldValue::Array(vec![]));
    assert_eq!(enemy.colour, 0xd8453b);
    assert_eq!(enemy.shape, Shape::Box([0.8, 1.8, 0.8]));
    let door = d.kind("Door").expect("Door");
    let switch = door.field("switch").expect("switch");
    assert_eq!(switch.display, Display::Link);
    assert_eq!(switch.kinds, ["Switch"]);
    assert_eq!(
        d.kind("Pickup")
            .expect("Pickup")
            .field("glow")
            .expect("glow")
            .default,
        FieldValue::Colour(0xFF8A_E0FF)
    );
    assert_eq!(d.tags(), ["Monsters", "Mechanisms", "Items"]);
    assert_eq!(
        d.kinds_tagged("Mechanisms")
            .map(|k| k.name.as_str())
            .collect::<Vec<_>>(),
        ["Switch", "Door"]
    );
}

#[test]
fn the_hash_follows_the_layout_and_not_the_docs() {
    let base = sample().hash();
    let docs = SAMPLE.replace("Hit points.", "How much damage it takes.");
    let colour = docs.replace("#d8453b", "#ff0000");
    assert_eq!(Definitions::parse(&colour).expect("reads").hash(), base);
    let renamed = SAMPLE.replace("\"health\"", "\"hp\"");
    assert_ne!(Definitions::parse(&renamed).expect("reads").hash(), base);
    let enum_order = SAMPLE.replace(
        "\"Coin\", \"Health\", \"Ammo\"",
        "\"Health\", \"Coin\", \"Ammo\"",
    );
    assert_ne!(Definitions::parse(&enum_order).expect("reads").hash(), base);
}

#[test]
fn a_syntax_error_says_where() {
    let text = "(\n    kinds: [\n        (name: \"A\" fields: []),\n    ],\n)\n";
    let e = error(text);
    assert_eq!((e.line, e.column), (3, 20), "{e}");
    assert!(e.message.contains("comma"), "{e}");
}

#[test]
fn an_unknown_field_type_is_named_with_its_place() {
    let text = "(kinds: [\n  (name: \"A\", fields: [\n    (name: \"x\", type: Vec4),\n  ]),\n])";
    let e = error(text);
    assert_eq!(e.line, 3, "{e}");
    assert!(e.message.contains("Vec4"), "{e}");
}

#[test]
fn two_kinds_of_one_name_point_at_the_second() {
    let text = "(kinds: [\n  (name: \"A\"),\n  (name: \"A\"),\n])";
    let e = error(text);
    assert_eq!((e.line, e.column), (3, 4), "{e}");
    assert!(e.message.contains("two kinds are named \"A\""), "{e}");
}

#[test]
fn a_default_outside_its_range_is_refused_at_its_field() {
    let text = "(kinds: [\n  (name: \"A\", fields: [\n    (name: \"hp\", type: Int, min: 1, max: 10, default: 20),\n  ]),\n])";
    let e = error(text);
    assert_eq!((e.line, e.column), (3, 6), "{e}");
    assert!(
        e.message.contains("A.hp") && e.message.contains("between 1 and 10"),
        "{e}"
    );
    let no_default = "(kinds: [(name: \"A\", fields: [(name: \"x\", type: Int, min: 3, max: 9)])])";
    let d = Definitions::parse(no_default).expect("reads");
    assert_eq!(d.kinds[0].fields[0].default, FieldValue::Int(3));
}

#[test]
fn a_group_including_itself_is_refused() {
    let text = "(groups: [\n  (name: \"G\", include: [\"H\"]),\n  (name: \"H\", include: [\"G\"]),\n], kinds: [])";
    let e = error(text);
    assert_eq!(e.line, 2, "{e}");
    assert!(e.message.contains("includes itself (G -> H -> G)"), "{e}");
}

#[test]
fn references_between_definitions_are_checked() {
    for (text, says) in [
        (
            "(kinds: [(name: \"A\", fields: [(name: \"e\", type: Enum(\"Nope\"))])])",
            "enum Nope is not defined",
        ),
        (
            "(kinds: [(name: \"A\", fields: [(name: \"r\", type: Entity, kinds: [\"B\"])])])",
            "kind B, which is not defined",
        ),
        (
            "(kinds: [(name: \"A\", label: \"missing\")])",
            "label names missing",
        ),
        (
            "(kinds: [(name: \"A\", include: [\"G\"])])",
            "field group G, which is not defined",
        ),
        ("(kinds: [(name: \"A b\")])", "must start with a letter"),
        (
            "(kinds: [(name: \"A\", fields: [(name: \"x\", type: Bool, min: 1)])])",
            "min, max and step are for int, float and point",
        ),
        (
            "(kinds: [(name: \"A\", fields: [(name: \"x\", type: Bool, display: Radius)])])",
            "does not suit",
        ),
        (
            "(kinds: [(name: \"A\", fields: [(name: \"x\", type: Int), (name: \"x\", type: Bool)])])",
            "two fields of this name",
        ),
        ("(kinds: [(name: \"A\", colour: \"red\")])", "#rrggbb"),
        (
            "(kinds: [(name: \"A\", shape: Sphere(-1.0))])",
            "radius must be between",
        ),
        ("(kinds: [(name: \"A\")], colours: [])", "colours"),
        (
            "(kinds: [(name: \"Door\"), (name: \"DOOR\")])",
            "differ only in case",
        ),
        (
            "(enums: [(name: \"E\", values: [\"Red\", \"RED\"])], kinds: [])",
            "lists RED twice",
        ),
    ] {
        let e = error(text);
        assert!(e.message.contains(says), "{text}: {e}");
    }
}

fn scene_with(defs: &Definitions) -> (crate::Scene, [EntityId; 4]) {
    let _ = defs;
    let mut scene = crate::Scene::new();
    let mut add = |name: &str, d: DefinedEntity| {
        let mut cmd = crate::command::AddEntities::new(
            "Add",
            vec![Entity::new(name, EntityKind::Defined(d))],
        );
        crate::Command::apply(&mut cmd, &mut scene).expect("added");
        scene.entities().last().expect("added").id
    };
    let switch = add("Lever", DefinedEntity::new("Switch"));
    let mut door = DefinedEntity::new("Door");
    door.values
        .insert("switch".into(), FieldValue::Entity(Some(switch)));
    let door = add("Door", door);
    let mut enemy = DefinedEntity::new("Enemy");
    enemy.values.insert("health".into(), FieldValue::Int(9000));
    enemy.values.insert("speed".into(), FieldValue::Float(3.0));
    enemy
        .values
        .insert("retired".into(), FieldValue::Bool(true));
    let enemy = add("Guard", enemy);
    let ghost = add("Ghost", DefinedEntity::new("Wraith"));
    (scene, [switch, door, enemy, ghost])
}

#[test]
fn problems_name_what_is_wrong_and_keep_every_value() {
    let defs = sample();
    let (scene, [switch, door, enemy, ghost]) = scene_with(&defs);
    let found = problems::problems(&scene, &defs);
    let about = |id| {
        found
            .iter()
            .filter(move |p| p.entity == id)
            .map(|p| p.message.as_str())
            .collect::<Vec<_>>()
    };
    assert!(
        about(switch).is_empty() && about(door).is_empty(),
        "{found:?}"
    );
    let e = about(enemy);
    assert!(
        e.iter()
            .any(|m| m.contains("health must be between 1 and 500")),
        "{e:?}"
    );
    assert!(
        e.iter()
            .any(|m| m.contains("retired is no longer a field of Enemy")),
        "{e:?}"
    );
    assert!(about(ghost)[0].contains("unknown kind Wraith"), "{found:?}");
    // A door whose switch left the scene links to nothing.
    let mut scene = scene;
    let mut remove = crate::command::RemoveEntities::new(vec![switch]);
    crate::Command::apply(&mut remove, &mut scene).expect("removed");
    let found = problems::problems(&scene, &defs);
    assert!(
        found.iter().any(|p| p.entity == door
            && p.message
                .contains("switch links to #1, which is not in the scene")),
        "{found:?}"
    );
}

#[test]
fn resolving_fills_defaults_clamps_and_numbers_enums() {
    let defs = sample();
    let enemy = defs.kind("Enemy").expect("Enemy");
    let health = enemy.field("health").expect("health");
    assert_eq!(health.resolve(&defs, None), Resolved::Int(100));
    assert_eq!(
        health.resolve(&defs, Some(&FieldValue::Int(9000))),
        Resolved::Int(500)
    );
    assert_eq!(
        health.resolve(&defs, Some(&FieldValue::Text("x".into()))),
        Resolved::Int(100)
    );
    let skill = enemy.field("skill").expect("skill");
    assert_eq!(skill.resolve(&defs, None), Resolved::Flags(0b111));
    assert_eq!(
        skill.resolve(
            &defs,
            Some(&FieldValue::Flags(vec!["Hard".into(), "Gone".into()]))
        ),
        Resolved::Flags(0b100)
    );
    let door = defs.kind("Door").expect("Door");
    let key = door.field("key").expect("key");
    assert_eq!(
        key.resolve(&defs, Some(&FieldValue::Enum("Gold".into()))),
        Resolved::Enum(3)
    );
    assert_eq!(
        key.unresolve(&defs, &Resolved::Enum(2)),
        FieldValue::Enum("Blue".into())
    );
    let title = door.field("title").expect("title");
    let long = "é".repeat(20);
    let Resolved::Text(cut) = title.resolve(&defs, Some(&FieldValue::Text(long))) else {
        unreachable!("text")
    };
    assert_eq!(cut.len(), 24, "cut on a character boundary");
    let path = enemy.field("path").expect("path");
    let points = FieldValue::Array(vec![FieldValue::Point(Vec3::X), FieldValue::Point(Vec3::Z)]);
    assert_eq!(path.check(&defs, &points), Ok(()));
    assert_eq!(
        path.resolve(&defs, Some(&points)),
        Resolved::Array(vec![Resolved::Point(Vec3::X), Resolved::Point(Vec3::Z)])
    );
}
