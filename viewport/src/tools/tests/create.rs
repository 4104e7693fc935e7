//! The tools that go on after their press, driven as the viewport drives them:
//! create by dragging (the footprint, the height, the click, snapping, surfaces,
//! Esc), Duplicate's copies following the mouse, and measuring.

use pebble_model::entity::Collider;
use pebble_model::{Kind, Primitive};

use super::*;
use crate::navigation::OrbitCamera;
use pebble_core::create::CreateItem;

/// A world looking down at the origin from the south-east, half a metre grid.
fn looking_down() -> World {
    let mut w = World::new(&[]);
    w.view = ViewState::framing(None);
    w.view.orbit = OrbitCamera {
        pivot: Vec3::ZERO,
        distance: 18.0,
        yaw: 0.4,
        pitch: -0.8,
        ..OrbitCamera::default()
    };
    w.view.target = None;
    w.prefs.snap_steps.step = 0.5;
    w
}

impl World {
    fn pixel(&self, p: Vec3) -> Vec2 {
        self.camera_view().project(p).expect("in view")
    }

    /// The footprint dragged from `a` to `b` (world points), released.
    fn footprint(&mut self, a: Vec3, b: Vec3, modifiers: Modifiers) {
        let (from, to) = (self.pixel(a), self.pixel(b));
        for k in 1..=4 {
            let pos = from + (to - from) * (k as f32 / 4.0);
            let p = Pointer {
                pos,
                press: from,
                delta: Vec2::ZERO,
                button: Button::Left,
                modifiers,
                click: false,
            };
            self.frame(
                PointerEvents {
                    drag_started: k == 1,
                    dragging: true,
                    ..Default::default()
                },
                Some(p),
            );
        }
        let end = Pointer {
            pos: to,
            press: from,
            delta: Vec2::ZERO,
            button: Button::Left,
            modifiers,
            click: false,
        };
        self.frame(PointerEvents::default(), Some(end));
    }

    /// The pointer moved (no button) to where world point `p` shows.
    fn hover_to(&mut self, p: Vec3) {
        let pos = self.pixel(p);
        let pointer = Pointer {
            pos,
            press: pos,
            delta: Vec2::ZERO,
            button: Button::Left,
            modifiers: Modifiers::default(),
            click: false,
        };
        self.frame(PointerEvents::default(), Some(pointer));
    }

    fn only_new(&self) -> pebble_model::Entity {
        let mut all = self.doc.scene().entities();
        let e = all.next().expect("an entity").clone();
        assert!(all.next().is_none(), "one entity");
        e
    }
}

fn primitive(e: &pebble_model::Entity) -> Primitive {
    match &e.kind {
        EntityKind::Mesh(m) => match &m.source {
            pebble_model::entity::GeometrySource::Primitive(p) => p.clone(),
            other => panic!("{other:?}"),
        },
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_box_is_drawn_footprint_then_height_then_click_as_one_step() {
    let mut w = looking_down();
    w.tools.arm_create(CreateItem::Box);
    // Off the grid by a little: the corners snap to the half metre.
    w.footprint(
        Vec3::new(-1.1, 0.0, -0.9),
        Vec3::new(1.12, 0.0, 0.93),
        Modifiers::default(),
    );
    assert_eq!(w.tools.active(), Some("create"), "the height follows now");
    assert_eq!(w.doc.scene().entities().count(), 0, "nothing made yet");
    // The height is read along the vertical through the corner under the cursor.
    w.hover_to(Vec3::new(1.0, 2.1, 1.0));
    w.click(w.pixel(Vec3::new(1.0, 2.1, 1.0)), Modifiers::default());
    assert!(!w.tools.is_active());
    assert_eq!(w.tools.armed_create(), None, "one shape per choice");
    let e = w.only_new();
    assert_eq!(
        primitive(&e),
        Primitive::Box {
            size: Vec3::new(2.0, 2.0, 2.0)
        }
    );
    assert_eq!(
        e.transform.translation,
        Vec3::ZERO,
        "on the middle of its base"
    );
    assert_eq!(w.doc.scene().selection(), &[e.id], "selected");
    assert_eq!(w.doc.history().undo_name().as_deref(), Some("Create Box"));
    // It brought the scene's first material in the same step.
    assert_eq!(w.doc.scene().materials().count(), 1);
    w.doc.undo();
    assert_eq!(w.doc.scene().entities().count(), 0);
    assert_eq!(w.doc.scene().materials().count(), 0, "one step took both");
}

/// The report: Esc while setting a shape's height also left the tool, and the
/// next drag became a box select. One Esc takes back one thing: the shape (no
/// trace, the tool still armed, the next drag draws again), then the tool.
#[test]
fn one_esc_takes_back_the_shape_and_the_next_the_tool() {
    let mut w = looking_down();
    let steps = w.doc.history().entries().len();
    let esc = |w: &mut World| {
        w.frame(
            PointerEvents {
                escape: true,
                ..Default::default()
            },
            None,
        )
    };
    w.tools.arm_create(CreateItem::Box);
    w.footprint(Vec3::ZERO, Vec3::new(2.0, 0.0, 2.0), Modifiers::default());
    w.hover_to(Vec3::new(2.0, 1.0, 2.0));
    assert!(esc(&mut w), "Esc is the tool's");
    assert!(!w.tools.is_active(), "the height no longer follows");
    assert_eq!(w.tools.armed_create(), Some(CreateItem::Box), "still armed");
    assert_eq!(w.doc.scene().entities().count(), 0);
    assert_eq!(w.doc.history().entries().len(), steps, "no step");
    assert!(!w.doc.history().can_redo());
    // The next drag draws a box again, not a box selection.
    w.footprint(Vec3::ZERO, Vec3::new(2.0, 0.0, 2.0), Modifiers::default());
    assert_eq!(w.tools.active(), Some("create"), "the height follows again");
    // Esc mid-footprint is the same: the shape goes, the tool stays.
    assert!(esc(&mut w));
    assert_eq!(w.tools.armed_create(), Some(CreateItem::Box));
    // Armed and waiting, Esc lets go (and is the tool's, not the selection's).
    assert!(esc(&mut w));
    assert_eq!(w.tools.armed_create(), None);
    assert_eq!(w.doc.scene().entities().count(), 0);
    // Disarmed, a drag is a box selection again.
    w.footprint(Vec3::ZERO, Vec3::new(2.0, 0.0, 2.0), Modifiers::default());
    assert_eq!(w.doc.scene().entities().count(), 0);
    assert!(!w.tools.is_active());
}

#[test]
fn stairs_and_ramps_climb_the_way_the_drag_went() {
    let mut w = looking_down();
    w.tools.arm_create(CreateItem::Stairs);
    // Along +X, 3 m long, 1 m wide, 1.5 m high.
    w.footprint(
        Vec3::new(-1.0, 0.0, 0.0),
        Vec3::new(2.0, 0.0, 1.0),
        Modifiers::default(),
    );
    w.hover_to(Vec3::new(2.0, 1.5, 1.0));
    w.click(w.pixel(Vec3::new(2.0, 1.5, 1.0)), Modifiers::default());
    let e = w.only_new();
    let Primitive::Stairs {
        steps,
        width,
        rise,
        run,
    } = primitive(&e)
    else {
        panic!("stairs")
    };
    assert_eq!((steps, width), (8, 1.0), "0.2 m steps; across the drag");
    assert!((rise * steps as f32 - 1.5).abs() < 1e-5);
    assert!((run * steps as f32 - 3.0).abs() < 1e-5);
    // The primitive climbs toward its −Z: turned, that is +X.
    let up_the_stairs = e.transform.rotation * Vec3::NEG_Z;
    assert!((up_the_stairs - Vec3::X).length() < 1e-5, "{up_the_stairs}");
    assert_eq!(e.transform.translation, Vec3::new(0.5, 0.0, 0.5));
    // Its top step is at the far end of the drag.
    let top = w.doc.scene().world_aabb(e.id).expect("bounds");
    assert!(
        (top.max.y - 1.5).abs() < 1e-4 && (top.max.x - 2.0).abs() < 1e-4,
        "{top:?}"
    );
}

#[test]
fn a_collider_drawn_on_a_surface_stands_on_it_and_may_sink_below() {
    let mut w = looking_down();
    // A table top: a plane 1.25 m up, which the fake ID buffer shows everywhere.
    w.doc
        .execute(pebble_model::command::AddMaterial::new(Default::default()))
        .expect("material");
    let material = w.doc.scene().materials().map(|(id, _)| id).next();
    let top = pebble_core::create::entity(CreateItem::Plane, Vec3::new(0.0, 1.25, 0.0), material)
        .expect("a plane");
    w.doc
        .execute(AddEntities::new("Create", vec![top]).without_selecting())
        .expect("add");
    let table = w.ids()[0];
    let press = w.pixel(Vec3::new(-1.0, 1.25, -1.0));
    // The depth buffer's point is a little off: the face's plane is exact.
    w.pick.discs = vec![(press, table.0, Vec3::new(-1.0, 1.2493, -1.0))];
    w.tools.arm_create(CreateItem::BoxCollider);
    w.footprint(
        Vec3::new(-1.0, 1.25, -1.0),
        Vec3::new(1.0, 1.25, 0.5),
        Modifiers::default(),
    );
    // Below the surface: the box goes down from it (a pit, a sunken crate).
    w.hover_to(Vec3::new(1.0, 0.25, 0.5));
    w.click(w.pixel(Vec3::new(1.0, 0.25, 0.5)), Modifiers::default());
    let e = w
        .doc
        .scene()
        .entities_of(Kind::Collider)
        .next()
        .expect("a collider")
        .clone();
    let EntityKind::Collider(Collider::Box { size }) = e.kind else {
        panic!("a box collider")
    };
    assert_eq!(size, Vec3::new(2.0, 1.0, 1.5));
    let bounds = w.doc.scene().world_aabb(e.id).expect("bounds");
    assert!(
        (bounds.min.y - 0.25).abs() < 1e-5 && (bounds.max.y - 1.25).abs() < 1e-5,
        "{bounds:?}"
    );
    assert_eq!(
        w.doc.history().undo_name().as_deref(),
        Some("Create Box collider")
    );
}

#[test]
fn a_click_puts_the_usual_size_down_and_shift_keeps_drawing() {
    let mut w = looking_down();
    w.tools.arm_create(CreateItem::Builtin("PlayerSpawn"));
    w.click(w.pixel(Vec3::new(2.1, 0.0, -1.2)), SHIFT);
    assert_eq!(
        w.tools.armed_create(),
        Some(CreateItem::Builtin("PlayerSpawn")),
        "Shift keeps the tool"
    );
    let spawn = w.only_new();
    // On the grid, the eye above the ground.
    assert_eq!(
        spawn.transform.translation,
        Vec3::new(2.0, pebble_play::walk::EYE_HEIGHT, -1.0)
    );
    w.click(w.pixel(Vec3::new(-2.0, 0.0, 0.0)), Modifiers::default());
    assert_eq!(w.doc.scene().entities().count(), 2);
    assert_eq!(w.tools.armed_create(), None);

    // A plane has no height: the release finishes it; Ctrl draws it off the grid.
    w.tools.arm_create(CreateItem::Plane);
    w.footprint(Vec3::new(0.1, 0.0, 0.1), Vec3::new(1.3, 0.0, 0.9), CTRL);
    assert!(!w.tools.is_active());
    let plane = w
        .doc
        .scene()
        .entities_of(Kind::Mesh)
        .next()
        .expect("a plane")
        .clone();
    let Primitive::Plane {
        width,
        depth,
        standoff,
    } = primitive(&plane)
    else {
        panic!("a plane")
    };
    assert!(
        (width - 1.2).abs() < 1e-3 && (depth - 0.8).abs() < 1e-3,
        "{width} × {depth}"
    );
    assert_eq!(standoff, 0.0, "on the grid it lies flat on it");
}

#[test]
fn duplicated_copies_follow_the_mouse_until_a_click_as_one_step() {
    let mut w = looking_down();
    w.doc
        .execute(AddEntities::new(
            "Create",
            vec![
                Entity::new(
                    "Lamp",
                    EntityKind::Defined(pebble_model::definitions::builtin::instance(
                        "PlayerSpawn",
                        [],
                    )),
                )
                .with_transform(Transform::from_translation(Vec3::new(1.0, 0.0, 1.0))),
            ],
        ))
        .expect("add");
    w.doc.end_edit();
    let original = w.ids()[0];
    w.prefs.snap = true;
    let steps = w.doc.history().position();
    let copies = w.tools.duplicate_following(&mut w.doc).expect("duplicates");
    assert_eq!(copies.len(), 1);
    assert_eq!(w.tools.active(), Some("place copies"));
    // The copy stays put until the pointer moves, then goes with it (snapped).
    w.hover_to(Vec3::new(1.0, 0.0, 1.0));
    w.hover_to(Vec3::new(3.1, 0.0, -0.4));
    w.click(w.pixel(Vec3::new(3.1, 0.0, -0.4)), Modifiers::default());
    assert!(!w.tools.is_active());
    let copy = w.doc.scene().entity(copies[0]).expect("the copy").clone();
    assert_eq!(copy.transform.translation, Vec3::new(3.0, 0.0, -0.5));
    assert_eq!(
        w.doc
            .scene()
            .entity(original)
            .expect("original")
            .transform
            .translation,
        Vec3::new(1.0, 0.0, 1.0)
    );
    assert_eq!(w.doc.history().position(), steps + 1, "one step");
    assert_eq!(w.doc.history().undo_name().as_deref(), Some("Duplicate"));
    w.doc.undo();
    assert!(w.doc.scene().entity(copies[0]).is_none());
    w.doc.redo().expect("redo").expect("redoes");
    let again: Vec<_> = w
        .doc
        .scene()
        .entities()
        .filter(|e| e.id != original)
        .map(|e| e.transform.translation)
        .collect();
    assert_eq!(
        again,
        vec![Vec3::new(3.0, 0.0, -0.5)],
        "redo puts it where it went"
    );

    // Esc takes the copies back: no step, nothing to redo.
    let before = w.doc.history().position();
    w.doc.select(vec![original]).expect("select");
    w.tools.duplicate_following(&mut w.doc).expect("duplicates");
    w.hover_to(Vec3::new(0.0, 0.0, 0.0));
    w.hover_to(Vec3::new(-2.0, 0.0, 0.0));
    assert!(w.frame(
        PointerEvents {
            escape: true,
            ..Default::default()
        },
        None
    ));
    assert_eq!(
        w.doc.scene().entities().count(),
        2,
        "the original and the first copy"
    );
    assert_eq!(w.doc.history().position(), before);
    assert!(!w.doc.history().can_redo());
}

#[test]
fn measuring_takes_two_clicks_and_changes_nothing() {
    let mut w = looking_down();
    let steps = w.doc.history().entries().len();
    w.tools.arm_measure();
    assert_eq!(w.tools.measuring(), Some(None), "armed, nothing measured");
    w.click(w.pixel(Vec3::ZERO), Modifiers::default());
    assert_eq!(
        w.tools.active(),
        Some("measure"),
        "the end follows the mouse"
    );
    w.hover_to(Vec3::new(3.0, 0.0, 4.0));
    w.click(w.pixel(Vec3::new(3.0, 0.0, 4.0)), Modifiers::default());
    let (from, to) = w.tools.measuring().flatten().expect("both points are down");
    assert!(from.length() < 1e-3 && (to - Vec3::new(3.0, 0.0, 4.0)).length() < 1e-3);
    assert!(((to - from).length() - 5.0).abs() < 1e-3);
    // A drag while measuring is still a box selection, not a measurement.
    assert_eq!(w.doc.history().entries().len(), steps, "no step");
    assert_eq!(w.doc.scene().entities().count(), 0);
    assert!(w.frame(
        PointerEvents {
            escape: true,
            ..Default::default()
        },
        None
    ));
    assert_eq!(w.tools.measuring(), None, "Esc lets go");
}

/// The report: matching a 2.75 m wall took pixel-hunting on the grid (0.25 m per
/// 6 px). A height near the top of something built nearby takes that top.
#[test]
fn the_height_matches_the_top_of_a_wall_nearby() {
    let mut w = looking_down();
    // A 2.75 m wall beside where the next one is drawn.
    w.doc
        .execute(pebble_model::command::AddMaterial::new(
            pebble_model::Material::default(),
        ))
        .expect("material");
    let material = w.doc.scene().materials().map(|(id, _)| id).next();
    let mut wall = pebble_core::create::entity(CreateItem::Box, Vec3::new(3.0, 0.0, 0.0), material)
        .expect("a box");
    let size = Vec3::new(0.3, 2.75, 4.0);
    if let EntityKind::Mesh(m) = &mut wall.kind {
        let p = Primitive::Box { size };
        m.geometry = p.generate(material.expect("one")).expect("geometry");
        m.source = pebble_model::entity::GeometrySource::Primitive(p);
    }
    w.doc
        .execute(AddEntities::new("Wall", vec![wall]).without_selecting())
        .expect("adds");
    w.doc.end_edit();
    w.tools.arm_create(CreateItem::Box);
    w.footprint(
        Vec3::new(-1.0, 0.0, -2.0),
        Vec3::new(1.0, 0.0, 2.0),
        Modifiers::default(),
    );
    // 2.62 m: the grid would say 2.5; the wall's top is 2.75.
    let corner = Vec3::new(1.0, 2.62, 2.0);
    w.hover_to(corner);
    w.click(w.pixel(corner), Modifiers::default());
    let made = w
        .doc
        .scene()
        .entities()
        .last()
        .expect("the new box")
        .clone();
    assert_eq!(
        primitive(&made),
        Primitive::Box {
            size: Vec3::new(2.0, 2.75, 4.0)
        },
        "as tall as the wall"
    );
}

/// A mesh box of `size` with its base's middle at `at`, in `w`'s scene.
fn add_box(w: &mut World, name: &str, size: Vec3, at: Vec3) {
    if w.doc.scene().materials().next().is_none() {
        w.doc
            .execute(pebble_model::command::AddMaterial::new(
                pebble_model::Material::default(),
            ))
            .expect("material");
    }
    let material = w.doc.scene().materials().map(|(id, _)| id).next();
    let mut e = pebble_core::create::entity(CreateItem::Box, at, material).expect("a box");
    e.name = name.into();
    if let EntityKind::Mesh(m) = &mut e.kind {
        let p = Primitive::Box { size };
        m.geometry = p.generate(material.expect("one")).expect("geometry");
        m.source = pebble_model::entity::GeometrySource::Primitive(p);
    }
    w.doc
        .execute(AddEntities::new("Add", vec![e]).without_selecting())
        .expect("adds");
    w.doc.end_edit();
}

/// The report: a patrol put down by a click had its second waypoint outside the
/// room (its 4 m route ran through the wall), and a ball pit stuck out of a
/// wall's side. The route turns until its end is on the same floor with nothing
/// between; the pit moves off the wall until its box is on the floor.
#[test]
fn a_clicked_patrol_and_ball_pit_stay_on_the_floor_clear_of_walls() {
    let mut w = looking_down();
    // A floor (its top at y = 0) and a wall a metre and a half east of the click.
    add_box(
        &mut w,
        "Floor",
        Vec3::new(10.0, 0.2, 10.0),
        Vec3::new(0.0, -0.2, 0.0),
    );
    add_box(
        &mut w,
        "Wall",
        Vec3::new(0.3, 3.0, 10.0),
        Vec3::new(1.5, 0.0, 0.0),
    );
    for item in [
        CreateItem::Builtin("Patrol"),
        CreateItem::Builtin("BallPit"),
    ] {
        w.tools.arm_create(item);
        w.click(w.pixel(Vec3::new(0.5, 0.0, 0.0)), Modifiers::default());
    }
    let scene = w.doc.scene();
    let (patrol, d) = scene.entities_described("Patrol").next().expect("a patrol");
    let place = patrol.transform.translation;
    let waypoints = pebble_model::definitions::builtin::value(d, "waypoints")
        .expect("waypoints")
        .points();
    for wp in &waypoints {
        let at = place + *wp;
        assert!(at.x < 1.35, "a waypoint past the wall: {at}");
        assert!(
            super::super::clearance::reachable(scene, place, at),
            "{at} is not on the same floor, in reach"
        );
    }
    assert!(waypoints.len() >= 2);
    let (pit, d) = scene
        .entities_described("BallPit")
        .next()
        .expect("a ball pit");
    let spawn_max = pebble_model::definitions::builtin::value(d, "spawn_max")
        .and_then(|v| v.as_point())
        .expect("a corner");
    let east = pit.transform.translation.x + spawn_max.x;
    assert!(east < 1.35, "the pit's box reaches into the wall: {east}");
}

/// A game's kind with a size field is dragged out like a trigger: footprint,
/// height, click; the drawn size goes into its own field, one step named after
/// the kind; a kind without one is put down with a click.
#[test]
fn a_game_kind_with_a_size_field_is_dragged_out() {
    use pebble_model::definitions::{Definitions, FieldValue};
    let defs = Definitions::parse(
        r#"(kinds: [
            (name: "Zone", fields: [
                (name: "extent", type: Point, display: Size, default: (1.0, 1.0, 1.0), min: 0.01, max: 100.0),
                (name: "label", type: String),
            ]),
            (name: "Coin"),
        ])"#,
    )
    .expect("reads");
    let mut w = looking_down();
    w.tools.arm_create_defined("Zone".into(), &defs);
    w.footprint(
        Vec3::new(-1.0, 0.0, -1.0),
        Vec3::new(1.0, 0.0, 2.0),
        Modifiers::default(),
    );
    assert_eq!(w.tools.active(), Some("create"), "the height follows");
    w.hover_to(Vec3::new(1.0, 1.5, 2.0));
    w.click(w.pixel(Vec3::new(1.0, 1.5, 2.0)), Modifiers::default());
    let e = w.only_new();
    let EntityKind::Defined(d) = &e.kind else {
        panic!("{:?}", e.kind)
    };
    assert_eq!(d.kind, "Zone");
    assert_eq!(e.name, "Zone");
    assert_eq!(
        d.values.get("extent"),
        Some(&FieldValue::Point(Vec3::new(2.0, 1.5, 3.0))),
        "{:?}",
        d.values
    );
    assert_eq!(
        e.transform.translation,
        Vec3::new(0.0, 0.0, 0.5),
        "on the middle of its base"
    );
    assert_eq!(w.doc.history().undo_name().as_deref(), Some("Create Zone"));
    w.doc.undo();
    // A kind without a size: one click puts it down.
    w.tools.arm_create_defined("Coin".into(), &defs);
    w.click(w.pixel(Vec3::new(2.0, 0.0, 0.0)), Modifiers::default());
    let coin = w.only_new();
    assert!(matches!(&coin.kind, EntityKind::Defined(d) if d.kind == "Coin"));
}
