//! Every reference fixture loads and matches what the reference loader read from it.

mod common;
use common::*;

use pbm::emitter::EMITTERS_TAG;
use pbm::entity::{ENTITIES_TAG, decode_entities};
use pbm::fnv::fnv1a64_reference as fnv1a64;
use pbm::{MapView, WarningKind};
use serde_json::Value;

fn u(v: &Value) -> u64 {
    v.as_u64()
        .unwrap_or_else(|| panic!("expected an integer, got {v}"))
}

fn check_fixture(name: &str) {
    let bytes = fixture_bytes(name);
    let exp = expected(name);
    let (view, warnings) = MapView::parse(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
    let h = view.header();
    let eh = &exp["header"];
    assert_eq!(u64::from(h.magic), u(&eh["magic"]), "{name} magic");
    assert_eq!(u64::from(h.version.number()), u(&eh["version"]));
    assert_eq!(u64::from(h.num_textures), u(&eh["num_textures"]));
    assert_eq!(u64::from(h.num_meshes), u(&eh["num_meshes"]));
    assert_eq!(u64::from(h.num_colliders), u(&eh["num_colliders"]));
    assert_eq!(u64::from(h.num_metadata), u(&eh["num_metadata"]));
    assert_vec3("spawn_pos", h.spawn_pos, &eh["spawn_pos"]);
    assert_close("spawn_rot", f64::from(h.spawn_rot), &eh["spawn_rot"]);
    assert_vec3("bounds_min", h.bounds_min, &eh["bounds_min"]);
    assert_vec3("bounds_max", h.bounds_max, &eh["bounds_max"]);
    assert_eq!(
        view.total_vertices(),
        u(&exp["total_vertices"]),
        "{name} total_vertices"
    );

    let textures: Vec<_> = view.textures().collect();
    let et = exp["textures"].as_array().expect("textures");
    assert_eq!(textures.len(), et.len());
    for (t, e) in textures.iter().zip(et) {
        assert_eq!(t.name.as_str(), e["name"].as_str().expect("name"));
        assert_eq!(u64::from(t.width), u(&e["width"]));
        assert_eq!(u64::from(t.height), u(&e["height"]));
        assert_eq!(u64::from(t.format.code()), u(&e["format"]));
        assert_eq!(u64::from(t.alpha_mode.code()), u(&e["alpha_mode"]));
        assert_eq!(t.data.len() as u64, u(&e["data_size"]));
        // The reference stores 16-bit level 0 swizzled: our swizzle must give its bytes.
        let level0 = &e["levels"][0];
        let stored = if u(&e["is_swizzled"]) == 1 {
            pbm::texture::swizzle(t.data, usize::from(t.width) * 2, usize::from(t.height))
                .expect("swizzle")
        } else {
            t.data.to_vec()
        };
        assert_eq!(
            hex64(fnv1a64(&stored)),
            level0["fnv1a64"].as_str().expect("fnv"),
            "{name}: texture {} level 0",
            t.name
        );
    }

    let meshes: Vec<_> = view.meshes().collect();
    let em = exp["meshes"].as_array().expect("meshes");
    assert_eq!(meshes.len(), em.len());
    for (m, e) in meshes.iter().zip(em) {
        let what = format!("{name}: mesh {}", m.name);
        assert_eq!(m.name.as_str(), e["name"].as_str().expect("name"));
        assert_eq!(
            i64::from(m.texture_id),
            e["texture_id"].as_i64().expect("texture_id")
        );
        assert_eq!(u64::from(m.num_vertices), u(&e["num_vertices"]));
        assert_vec3(
            &format!("{what} bounds_min"),
            m.bounds_min,
            &e["bounds_min"],
        );
        assert_vec3(
            &format!("{what} bounds_max"),
            m.bounds_max,
            &e["bounds_max"],
        );
        assert_close(
            &format!("{what} scroll u"),
            f64::from(m.uv_scroll[0]),
            &e["uv_scroll"][0],
        );
        assert_close(
            &format!("{what} scroll v"),
            f64::from(m.uv_scroll[1]),
            &e["uv_scroll"][1],
        );
        assert_eq!(
            hex64(fnv1a64(m.vertex_bytes)),
            e["vertices_fnv1a64"].as_str().expect("fnv"),
            "{what}"
        );
        let first = m.vertices().next().expect("a vertex");
        let fv = &e["first_vertex"];
        assert_close(&format!("{what} u"), f64::from(first.uv[0]), &fv["u"]);
        assert_close(&format!("{what} v"), f64::from(first.uv[1]), &fv["v"]);
        assert_eq!(u64::from(first.color), u(&fv["color"]));
        assert_vec3(&format!("{what} xyz"), first.pos, &fv["xyz"]);
    }

    let colliders: Vec<_> = view.colliders().collect();
    let ec = exp["colliders"].as_array().expect("colliders");
    assert_eq!(colliders.len(), ec.len());
    for (c, e) in colliders.iter().zip(ec) {
        assert_eq!(c.name.as_str(), e["name"].as_str().expect("name"));
        assert_eq!(u64::from(c.kind.code()), u(&e["type"]));
        assert_vec3("collider min", c.bounds_min, &e["bounds_min"]);
        assert_vec3("collider max", c.bounds_max, &e["bounds_max"]);
        assert_eq!(u64::from(c.num_triangles), u(&e["num_triangles"]));
        assert_eq!(c.triangles().len() as u64, u(&e["num_triangles"]));
        assert_eq!(
            hex64(fnv1a64(c.triangle_bytes)),
            e["triangles_fnv1a64"].as_str().expect("fnv")
        );
    }

    let metadata: Vec<_> = view.metadata().collect();
    let emeta = exp["metadata"].as_array().expect("metadata");
    assert_eq!(metadata.len(), emeta.len());
    for (m, e) in metadata.iter().zip(emeta) {
        assert_eq!(m.tag.as_str(), e["tag"].as_str().expect("tag"));
        assert_eq!(u64::from(m.kind.code()), u(&e["type"]));
        assert_eq!(m.payload.len() as u64, u(&e["data_size"]));
        assert_eq!(
            hex64(fnv1a64(m.payload)),
            e["fnv1a64"].as_str().expect("fnv")
        );
        if let Some(text) = e.get("text") {
            assert_eq!(m.text(), text.as_str(), "{name}: lump {}", m.tag);
        }
    }
    let map_name = view.metadata_by_tag("map_name").and_then(|m| m.text());
    if let Some(map_name) = map_name {
        assert_eq!(map_name, exp["map_name"].as_str().expect("map_name"));
    }

    let patrol = view
        .metadata_by_tag(ENTITIES_TAG)
        .and_then(|m| decode_entities(m.payload).next());
    assert_eq!(
        patrol.is_some(),
        u(&exp["has_patrol_sphere"]) == 1,
        "{name}: patrol sphere"
    );
    if let Some(p) = patrol {
        let e = &exp["patrol_sphere"];
        assert_eq!(p.name.as_str(), e["name"].as_str().expect("name"));
        assert_eq!(u64::from(p.entity_type), u(&e["entity_type"]));
        assert_close("radius", f64::from(p.radius), &e["radius"]);
        assert_eq!(u64::from(p.color), u(&e["color"]));
        assert_close("speed", f64::from(p.speed), &e["speed"]);
        assert_eq!(u64::from(p.num_waypoints), u(&e["num_waypoints"]));
        for (i, w) in p.active_waypoints().iter().enumerate() {
            assert_vec3("waypoint", *w, &e["waypoints"][i]);
        }
    }

    check_emitters(name, &view, &exp);

    // Reference files are well formed: the only warnings allowed are about emitters.
    for w in &warnings {
        let emitter_related = matches!(
            w.kind,
            WarningKind::EmitterFieldClamped { .. }
                | WarningKind::EmitterTextureOutOfRange { .. }
                | WarningKind::EmitterCountClamped { .. }
                | WarningKind::EmitterDirectionZero
                | WarningKind::NameWithoutNul
        );
        assert!(emitter_related, "{name}: unexpected warning {w}");
    }
}

fn check_emitters(name: &str, view: &MapView<'_>, exp: &Value) {
    let field = match view.emitter_lump() {
        Some(lump) => {
            pbm::ParticleField::prepare(lump.records(), view.header().num_textures, &mut |_| {})
        }
        None => pbm::ParticleField::default(),
    };
    assert_eq!(
        field.emitters.len() as u64,
        u(&exp["num_emitters"]),
        "{name}: emitters"
    );
    assert_eq!(
        field.particles.len() as u64,
        u(&exp["num_particles"]),
        "{name}: particles"
    );
    let ee = exp["emitters"].as_array().expect("emitters");
    for (em, e) in field.emitters.iter().zip(ee) {
        let p = &em.params;
        let what = format!("{name}: emitter {}", p.name);
        assert_eq!(p.name.as_str(), e["name"].as_str().expect("name"), "{what}");
        assert_vec3(&format!("{what} pos"), p.pos, &e["pos"]);
        assert_vec3(&format!("{what} dir"), p.dir, &e["dir"]);
        assert_vec3(&format!("{what} gravity"), p.gravity, &e["gravity"]);
        let floats = [
            ("spread", p.spread),
            ("speed_min", p.speed_min),
            ("speed_max", p.speed_max),
            ("life_min", p.life_min),
            ("life_max", p.life_max),
            ("damping", p.damping),
            ("size_min", p.size_min),
            ("size_max", p.size_max),
            ("size_mid", p.size_mid),
            ("size_end", p.size_end),
            ("aspect", p.aspect),
            ("angle_min", p.angle_min),
            ("angle_max", p.angle_max),
            ("spin_min", p.spin_min),
            ("spin_max", p.spin_max),
            ("wobble_amp", p.wobble_amp),
            ("wobble_freq", p.wobble_freq),
            ("spawn_radius", p.spawn_radius),
            ("knee", p.knee),
            ("cull_radius", em.cull_radius),
        ];
        for (field_name, v) in floats {
            assert_close(
                &format!("{what} {field_name}"),
                f64::from(v),
                &e[field_name],
            );
        }
        let ints = [
            ("color_start", i64::from(p.color_start)),
            ("color_mid", i64::from(p.color_mid)),
            ("color_end", i64::from(p.color_end)),
            ("texture_id", i64::from(p.texture_id)),
            ("count", i64::from(p.count)),
            ("flags", i64::from(p.flags)),
            ("atlas_cols", i64::from(p.atlas_cols)),
            ("atlas_rows", i64::from(p.atlas_rows)),
            ("anim_loops", i64::from(p.anim_loops)),
            ("seed", i64::from(p.seed)),
            ("first_particle", i64::from(em.first_particle)),
        ];
        for (field_name, v) in ints {
            assert_eq!(
                v,
                e[field_name].as_i64().expect("int"),
                "{what} {field_name}"
            );
        }
    }
    let ep = exp["particles"].as_array().expect("particles");
    assert_eq!(field.particles.len(), ep.len());
    for (i, (p, e)) in field.particles.iter().zip(ep).enumerate() {
        let what = format!("{name}: particle {i}");
        for (field_name, v) in [
            ("life", p.life),
            ("inv_life", p.inv_life),
            ("phase", p.phase),
            ("speed", p.speed),
            ("size", p.size),
            ("spin", p.spin),
            ("angle0", p.angle0),
            ("wobble_phase", p.wobble_phase),
            ("anim_offset", p.anim_offset),
        ] {
            assert_close(
                &format!("{what} {field_name}"),
                f64::from(v),
                &e[field_name],
            );
        }
        assert_vec3(&format!("{what} dir"), p.dir, &e["dir"]);
        assert_vec3(&format!("{what} spawn"), p.spawn, &e["spawn"]);
    }
}

#[test]
fn basic_matches_reference() {
    check_fixture("basic");
}

#[test]
fn full_matches_reference() {
    check_fixture("full");
}

#[test]
fn full_emitters_matches_reference() {
    check_fixture("full_emitters");
}

#[test]
fn full_v2_matches_reference() {
    check_fixture("full_v2");
}

#[test]
fn full_v1_matches_reference() {
    check_fixture("full_v1");
}

#[test]
fn full_emitters_reports_the_sanitising() {
    let bytes = fixture_bytes("full_emitters");
    let (_, warnings) = MapView::parse(&bytes).expect("loads");
    let has = |pred: &dyn Fn(&WarningKind) -> bool| warnings.iter().any(|w| pred(&w.kind));
    assert!(has(&|k| matches!(
        k,
        WarningKind::EmitterCountClamped {
            found: 100,
            used: 64,
            ..
        }
    )));
    assert!(has(&|k| matches!(
        k,
        WarningKind::EmitterTextureOutOfRange {
            texture_id: 999,
            ..
        }
    )));
    assert!(has(&|k| matches!(k, WarningKind::EmitterDirectionZero)));
    assert!(has(&|k| matches!(
        k,
        WarningKind::EmitterFieldClamped {
            field: "life_min",
            ..
        }
    )));
    assert!(has(&|k| matches!(k, WarningKind::NameWithoutNul)));
    // Every emitter warning points inside the emitters lump.
    let lump = MapView::parse(&bytes)
        .expect("loads")
        .0
        .metadata_by_tag(EMITTERS_TAG)
        .expect("lump");
    let range = lump.offset as u64..(lump.offset + 40 + lump.payload.len()) as u64;
    for w in &warnings {
        let offset = w.offset.expect("file warnings carry offsets");
        assert!(range.contains(&offset), "{w} outside the lump {range:?}");
    }
}
