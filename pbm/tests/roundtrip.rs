//! read → write reproduces files: v3 fixtures byte for byte, v1/v2 as v3 with every
//! field kept; and a map built here walks back field by field (compliance item 10).

mod common;
use common::*;

use pbm::emitter::{EMITTER_LUMP_MAGIC, EMITTER_RECORD_SIZE, EmitterLump, EmitterRecord};
use pbm::format::*;
use pbm::{Map, MapView, Version};

#[test]
fn v3_fixtures_round_trip_byte_for_byte() {
    for name in ["basic", "full", "full_emitters"] {
        let bytes = fixture_bytes(name);
        let (map, _) = Map::read(&bytes).expect("loads");
        let written = map.to_bytes().expect("writes");
        assert_eq!(written.len(), bytes.len(), "{name}: size");
        assert!(written == bytes, "{name}: bytes differ");
    }
}

#[test]
fn v1_and_v2_fixtures_round_trip_in_their_own_version() {
    for (name, version) in [("full_v2", Version::V2), ("full_v1", Version::V1)] {
        let bytes = fixture_bytes(name);
        let (map, _) = Map::read(&bytes).expect("loads");
        assert_eq!(map.version, version);
        assert!(map.to_bytes_as(version).expect("writes") == bytes, "{name}");
    }
}

#[test]
fn v1_and_v2_fixtures_written_as_v3_keep_every_field() {
    let (full, _) = Map::read(&fixture_bytes("full")).expect("full loads");
    for name in ["full_v2", "full_v1"] {
        let (old, _) = Map::read(&fixture_bytes(name)).expect("loads");
        let v3 = old.to_bytes().expect("writes v3");
        let (back, warnings) = Map::read(&v3).expect("v3 reads back");
        assert!(warnings.is_empty(), "{name}: {warnings:?}");
        assert_eq!(back.version, Version::V3);
        assert_eq!(back.magic, MAGIC_V3);
        assert_eq!(back.textures, old.textures, "{name}: textures");
        assert_eq!(back.colliders, old.colliders, "{name}: colliders");
        assert_eq!(back.metadata, old.metadata, "{name}: metadata");
        assert_eq!(back.meshes.len(), old.meshes.len());
        for (b, o) in back.meshes.iter().zip(&old.meshes) {
            assert_eq!(b.uv_scroll, [0.0, 0.0], "{name}: old files do not scroll");
            assert_eq!(
                (b.name, b.texture_id, &b.vertices),
                (o.name, o.texture_id, &o.vertices)
            );
            assert_eq!((b.bounds_min, b.bounds_max), (o.bounds_min, o.bounds_max));
        }
        for t in &back.textures {
            assert!(
                matches!(t.alpha_mode, AlphaMode::None | AlphaMode::Cutout),
                "{name}: {t:?}"
            );
        }
        // Same geometry and pixels as the v3 original; only scroll and BLEND differ.
        assert_eq!(
            back.meshes.iter().map(|m| &m.vertices).collect::<Vec<_>>(),
            full.meshes.iter().map(|m| &m.vertices).collect::<Vec<_>>()
        );
        for (b, f) in back.textures.iter().zip(&full.textures) {
            assert_eq!(b.data, f.data);
        }
    }
}

#[test]
fn writing_refuses_what_an_old_version_cannot_hold() {
    let (full, _) = Map::read(&fixture_bytes("full")).expect("loads");
    let err = full
        .to_bytes_as(Version::V1)
        .expect_err("v1 has no metadata");
    assert!(err.to_string().contains("metadata"), "{err}");
    let err = full.to_bytes_as(Version::V2).expect_err("v2 has no scroll");
    assert!(err.to_string().contains("UV scroll"), "{err}");
    let mut no_scroll = full.clone();
    for m in &mut no_scroll.meshes {
        m.uv_scroll = [0.0, 0.0];
    }
    let err = no_scroll
        .to_bytes_as(Version::V2)
        .expect_err("v2 has no BLEND");
    assert!(err.to_string().contains("BLEND"), "{err}");

    let mut bad = full.clone();
    bad.textures[0].data.pop();
    assert!(matches!(
        bad.to_bytes(),
        Err(pbm::WriteError::TextureDataSize { .. })
    ));
    let mut bad = full;
    bad.meshes[0].vertices.truncate(4);
    assert!(matches!(
        bad.to_bytes(),
        Err(pbm::WriteError::BadVertexCount { count: 4, .. })
    ));
}

fn name(s: &str) -> pbm::Name32 {
    pbm::Name32::new(s).expect("short name")
}

fn le_u32(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().expect("4 bytes"))
}

fn le_f32(b: &[u8], at: usize) -> f32 {
    f32::from_bits(le_u32(b, at))
}

/// Builds a scene here and walks the written bytes by hand against the spec's tables.
#[test]
fn writer_layout_walks_field_by_field() {
    let vertex = |x: f32| pbm::Vertex {
        uv: [x, 1.0 - x],
        color: 0xFF80_4020,
        pos: [x, 2.0 * x, -x],
    };
    let map = Map {
        spawn_pos: [1.0, 2.0, 3.0],
        spawn_rot: 0.5,
        bounds_min: [-1.0, -2.0, -3.0],
        bounds_max: [4.0, 5.0, 6.0],
        textures: vec![pbm::Texture {
            name: name("Water"),
            width: 16,
            height: 8,
            format: TextureFormat::Rgba8888,
            alpha_mode: AlphaMode::Blend,
            data: (0..16 * 8 * 4).map(|i| i as u8).collect(),
        }],
        meshes: vec![pbm::Mesh {
            name: name("Water_0"),
            texture_id: 0,
            bounds_min: [0.0, 0.0, -1.0],
            bounds_max: [1.0, 2.0, 0.0],
            uv_scroll: [0.25, -0.5],
            vertices: vec![vertex(0.0), vertex(0.5), vertex(1.0)],
        }],
        colliders: vec![pbm::Collider {
            name: name("Collider_Ramp"),
            kind: ColliderKind::Ramp,
            bounds_min: [0.0; 3],
            bounds_max: [1.0; 3],
            triangles: vec![[[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [1.0, 1.0, 1.0]]],
        }],
        metadata: vec![
            pbm::Metadata::text(name("map_name"), MetaKind::String, "Test"),
            pbm::Metadata {
                tag: name("walkable_mesh"),
                kind: MetaKind::Entity,
                payload: vec![7; 6],
            },
        ],
        emitters: Some(EmitterLump::new(vec![EmitterRecord {
            name: pbm::Name24::new("Puff").expect("name"),
            ..EmitterRecord::default()
        }])),
        ..Map::default()
    };
    let b = map.to_bytes().expect("writes");

    assert_eq!(le_u32(&b, 0), MAGIC_V3);
    assert_eq!(le_u32(&b, 4), 3);
    assert_eq!(
        [
            le_u32(&b, 8),
            le_u32(&b, 12),
            le_u32(&b, 16),
            le_u32(&b, 20)
        ],
        [1, 1, 1, 3]
    );
    assert_eq!(
        [
            le_f32(&b, 0x18),
            le_f32(&b, 0x1C),
            le_f32(&b, 0x20),
            le_f32(&b, 0x24)
        ],
        [1.0, 2.0, 3.0, 0.5]
    );
    assert_eq!(le_f32(&b, 0x28), -1.0);
    assert_eq!(le_f32(&b, 0x3C), 6.0);
    // Texture at 64.
    let t = 64;
    assert_eq!(&b[t..t + 6], b"Water\0");
    assert!(
        b[t + 5..t + 32].iter().all(|&c| c == 0),
        "names are NUL-padded"
    );
    assert_eq!(u16::from_le_bytes([b[t + 32], b[t + 33]]), 16);
    assert_eq!(u16::from_le_bytes([b[t + 34], b[t + 35]]), 8);
    assert_eq!(u16::from_le_bytes([b[t + 36], b[t + 37]]), 0);
    assert_eq!(u16::from_le_bytes([b[t + 38], b[t + 39]]), 2);
    assert_eq!(le_u32(&b, t + 40), 512);
    assert_eq!(&b[t + 44..t + 48], &[0, 1, 2, 3]);
    // Mesh right after the pixels, no padding.
    let m = t + 44 + 512;
    assert_eq!(&b[m..m + 8], b"Water_0\0");
    assert_eq!(le_u32(&b, m + 32), 0);
    assert_eq!(le_u32(&b, m + 36), 3);
    assert_eq!([le_f32(&b, m + 0x40), le_f32(&b, m + 0x44)], [0.25, -0.5]);
    let v1 = m + 72 + 24; // second vertex
    assert_eq!([le_f32(&b, v1), le_f32(&b, v1 + 4)], [0.5, 0.5]);
    assert_eq!(le_u32(&b, v1 + 8), 0xFF80_4020);
    assert_eq!(
        [
            le_f32(&b, v1 + 12),
            le_f32(&b, v1 + 16),
            le_f32(&b, v1 + 20)
        ],
        [0.5, 1.0, -0.5]
    );
    // Collider.
    let c = m + 72 + 3 * 24;
    assert_eq!(&b[c..c + 14], b"Collider_Ramp\0");
    assert_eq!(le_u32(&b, c + 32), 2);
    assert_eq!(le_u32(&b, c + 60), 1);
    assert_eq!(le_f32(&b, c + 64 + 32), 1.0);
    // Metadata: payloads padded to 4 with zeros; the emitters lump last.
    let md = c + 64 + 36;
    assert_eq!(&b[md..md + 9], b"map_name\0");
    assert_eq!(le_u32(&b, md + 32), 1);
    assert_eq!(le_u32(&b, md + 36), 5);
    assert_eq!(&b[md + 40..md + 48], b"Test\0\0\0\0");
    let md2 = md + 48;
    assert_eq!(le_u32(&b, md2 + 36), 6);
    assert_eq!(&b[md2 + 40..md2 + 48], &[7, 7, 7, 7, 7, 7, 0, 0]);
    let md3 = md2 + 48;
    assert_eq!(&b[md3..md3 + 9], b"emitters\0");
    assert_eq!(le_u32(&b, md3 + 32), 4);
    assert_eq!(le_u32(&b, md3 + 36) as usize, 16 + EMITTER_RECORD_SIZE);
    let e = md3 + 40;
    assert_eq!(
        [
            le_u32(&b, e),
            le_u32(&b, e + 4),
            le_u32(&b, e + 8),
            le_u32(&b, e + 12)
        ],
        [EMITTER_LUMP_MAGIC, 1, 1, 0]
    );
    assert_eq!(&b[e + 16..e + 21], b"Puff\0");
    assert_eq!(
        e + 16 + EMITTER_RECORD_SIZE,
        b.len(),
        "nothing after the last lump"
    );

    let (view, warnings) = MapView::parse(&b).expect("reads");
    assert!(warnings.is_empty(), "{warnings:?}");
    assert_eq!(view.end(), b.len());
    let (back, _) = Map::read(&b).expect("reads");
    assert_eq!(back.metadata, map.metadata);
    assert_eq!(
        back.emitters.as_ref().map(|l| &l.records),
        map.emitters.as_ref().map(|l| &l.records)
    );
    assert!(
        pbm::compliance::check(&back).is_empty(),
        "{:?}",
        pbm::compliance::check(&back)
    );
}
