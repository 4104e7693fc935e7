use super::*;

/// The two triangles of a quad a, b, c, d (counter-clockwise seen from its front).
fn quad(out: &mut Vec<[Vec3; 3]>, a: Vec3, b: Vec3, c: Vec3, d: Vec3) {
    out.push([a, b, c]);
    out.push([a, c, d]);
}

/// A box's six faces, facing out (or in: a room seen from inside).
fn cuboid(out: &mut Vec<[Vec3; 3]>, lo: Vec3, hi: Vec3, inward: bool) {
    let p = |x: bool, y: bool, z: bool| {
        Vec3::new(
            if x { hi.x } else { lo.x },
            if y { hi.y } else { lo.y },
            if z { hi.z } else { lo.z },
        )
    };
    let mut faces = vec![
        [
            p(false, true, false),
            p(false, true, true),
            p(true, true, true),
            p(true, true, false),
        ], // top
        [
            p(false, false, false),
            p(true, false, false),
            p(true, false, true),
            p(false, false, true),
        ], // bottom
        [
            p(false, false, true),
            p(true, false, true),
            p(true, true, true),
            p(false, true, true),
        ], // +z
        [
            p(true, false, false),
            p(false, false, false),
            p(false, true, false),
            p(true, true, false),
        ], // -z
        [
            p(true, false, true),
            p(true, false, false),
            p(true, true, false),
            p(true, true, true),
        ], // +x
        [
            p(false, false, false),
            p(false, false, true),
            p(false, true, true),
            p(false, true, false),
        ], // -x
    ];
    for f in &mut faces {
        if inward {
            f.reverse();
        }
        quad(out, f[0], f[1], f[2], f[3]);
    }
}

fn ground(out: &mut Vec<[Vec3; 3]>, half: f32) {
    quad(
        out,
        Vec3::new(-half, 0.0, -half),
        Vec3::new(-half, 0.0, half),
        Vec3::new(half, 0.0, half),
        Vec3::new(half, 0.0, -half),
    );
}

#[test]
fn the_faces_of_a_cuboid_face_out() {
    let mut t = Vec::new();
    cuboid(&mut t, Vec3::ZERO, Vec3::ONE, false);
    let centre = Vec3::splat(0.5);
    for tri in &t {
        let n = (tri[1] - tri[0]).cross(tri[2] - tri[0]);
        assert!(n.dot(tri[0] - centre) > 0.0, "{tri:?}");
    }
}

/// Godot's occlusion room: one closed room, thick walls, its roof's top larger
/// than its floor. The old choice (the largest floor by height) stood the player
/// on the roof, the inside never seen.
#[test]
fn a_closed_room_starts_inside_on_its_floor_not_on_its_roof() {
    let mut t = Vec::new();
    // Outside faces out: 10 × 10 m, 5.5 m tall.
    cuboid(
        &mut t,
        Vec3::new(-5.0, 0.0, -5.0),
        Vec3::new(5.0, 5.5, 5.0),
        false,
    );
    // Inside faces in: 9 × 9 m, floor at 0.2, ceiling at 5.
    cuboid(
        &mut t,
        Vec3::new(-4.5, 0.2, -4.5),
        Vec3::new(4.5, 5.0, 4.5),
        true,
    );
    // Furniture in the room, facing out.
    cuboid(
        &mut t,
        Vec3::new(2.0, 0.2, 2.0),
        Vec3::new(3.0, 1.0, 3.0),
        false,
    );
    let start = choose(&t).expect("a start");
    assert!(
        (start.eye.y - (0.2 + EYE_HEIGHT)).abs() < 0.05,
        "on the room's floor: {start:?}"
    );
    assert!(
        start.eye.x.abs() < 4.5 && start.eye.z.abs() < 4.5,
        "{start:?}"
    );
    assert!(start.why.contains("head room"), "{}", start.why);
}

/// A level of open ground with a tree (a trunk and its cut top), a ball and a
/// closed building whose faces face out: the start is on the ground, outside
/// the building, turned toward the level's middle.
#[test]
fn open_ground_wins_over_stumps_spheres_and_the_insides_of_buildings() {
    let mut t = Vec::new();
    ground(&mut t, 30.0);
    // A stump 0.8 m wide, 3 m tall; a 2 m "sphere" as a box on a post.
    cuboid(
        &mut t,
        Vec3::new(-10.4, 0.0, -0.4),
        Vec3::new(-9.6, 3.0, 0.4),
        false,
    );
    cuboid(
        &mut t,
        Vec3::new(9.0, 0.0, 9.0),
        Vec3::new(11.0, 2.0, 11.0),
        false,
    );
    // A closed building, 12 × 12 m, with a floor inside (outward-facing faces
    // only: from inside everything is seen from behind).
    cuboid(
        &mut t,
        Vec3::new(-6.0, 0.0, -6.0),
        Vec3::new(6.0, 8.0, 6.0),
        false,
    );
    quad(
        &mut t,
        Vec3::new(-5.9, 0.3, -5.9),
        Vec3::new(-5.9, 0.3, 5.9),
        Vec3::new(5.9, 0.3, 5.9),
        Vec3::new(5.9, 0.3, -5.9),
    );
    let start = choose(&t).expect("a start");
    assert!(
        (start.eye.y - EYE_HEIGHT).abs() < 0.05,
        "on the ground: {start:?}"
    );
    let inside = start.eye.x.abs() < 6.0 && start.eye.z.abs() < 6.0;
    assert!(!inside, "not in the building: {start:?}");
    // Not turned away from the level's middle (the building, near the origin;
    // a wall a step away is turned aside from).
    let forward = Vec3::new(start.yaw.sin(), 0.0, -start.yaw.cos());
    let to_middle = (Vec3::new(0.0, start.eye.y, 0.0) - start.eye).normalize();
    assert!(forward.dot(to_middle) > 0.0, "{start:?}");
}

#[test]
fn nothing_walkable_has_no_start() {
    let mut t = Vec::new();
    // A wall alone.
    quad(
        &mut t,
        Vec3::new(0.0, 0.0, 0.0),
        Vec3::new(4.0, 0.0, 0.0),
        Vec3::new(4.0, 3.0, 0.0),
        Vec3::new(0.0, 3.0, 0.0),
    );
    assert!(choose(&t).is_none());
    assert!(choose(&[]).is_none());
    assert!(choose(&[[Vec3::NAN; 3]]).is_none());
}

#[test]
fn the_yaw_toward_a_point_matches_the_map_s_convention() {
    // Yaw 0 looks down −Z, positive turns right (toward +X).
    assert!(yaw_toward(Vec3::ZERO, Vec3::new(0.0, 0.0, -5.0)).abs() < 1e-6);
    assert!(
        (yaw_toward(Vec3::ZERO, Vec3::new(5.0, 0.0, 0.0)) - std::f32::consts::FRAC_PI_2).abs()
            < 1e-6
    );
}

/// An island (Godot's terrain, Bevy's examples): a detailed 200 m heightfield in
/// a 2 km ocean plane of two triangles. The ocean is the largest floor, but it is
/// backdrop: the start is on the island, not at the ocean's corner.
#[test]
fn an_island_in_a_wide_ocean_starts_on_the_island() {
    let mut t = Vec::new();
    ground(&mut t, 1000.0);
    let h = |x: f32, z: f32| 2.0 + (x * 0.05).sin() + (z * 0.04).cos();
    let (n, step) = (40, 5.0);
    for j in 0..n {
        for i in 0..n {
            let (x, z) = (-100.0 + i as f32 * step, -100.0 + j as f32 * step);
            let p = |x: f32, z: f32| Vec3::new(x, h(x, z), z);
            quad(
                &mut t,
                p(x, z),
                p(x, z + step),
                p(x + step, z + step),
                p(x + step, z),
            );
        }
    }
    let start = choose(&t).expect("a start");
    assert!(
        start.eye.x.abs() < 100.0 && start.eye.z.abs() < 100.0 && start.eye.y > 1.0 + EYE_HEIGHT,
        "on the island: {start:?}"
    );
}
