//! Property tests: random valid maps survive write → read unchanged; random mutations
//! and truncations of the fixtures never panic, and whatever reads also writes back
//! and reads again to the same map.

mod common;
use common::*;

use pbm::emitter::{EmitterLump, EmitterRecord};
use pbm::format::*;
use pbm::{Map, MapView};
use proptest::prelude::*;

fn name32() -> impl Strategy<Value = pbm::Name32> {
    "[A-Za-z0-9_]{0,31}".prop_map(|s| pbm::Name32::new(&s).expect("fits"))
}

fn finite() -> impl Strategy<Value = f32> {
    -1.0e6f32..1.0e6f32
}

fn vec3() -> impl Strategy<Value = [f32; 3]> {
    [finite(), finite(), finite()]
}

fn texture() -> impl Strategy<Value = pbm::Texture> {
    (name32(), 0u16..40, 0u16..40, 0u16..4, 0u16..3).prop_flat_map(|(name, w, h, f, a)| {
        let format = TextureFormat::from_u16(f).expect("0..4");
        let len = usize::from(w) * usize::from(h) * format.bytes_per_pixel() as usize;
        proptest::collection::vec(any::<u8>(), len).prop_map(move |data| pbm::Texture {
            name,
            width: w,
            height: h,
            format,
            alpha_mode: AlphaMode::from_u16(a),
            data,
        })
    })
}

fn vertex() -> impl Strategy<Value = pbm::Vertex> {
    (finite(), finite(), any::<u32>(), vec3()).prop_map(|(u, v, color, pos)| pbm::Vertex {
        uv: [u, v],
        color,
        pos,
    })
}

fn mesh() -> impl Strategy<Value = pbm::Mesh> {
    (
        name32(),
        -1i32..8,
        vec3(),
        vec3(),
        [finite(), finite()],
        1usize..20,
    )
        .prop_flat_map(
            |(name, texture_id, bounds_min, bounds_max, uv_scroll, tris)| {
                proptest::collection::vec(vertex(), tris * 3).prop_map(move |vertices| pbm::Mesh {
                    name,
                    texture_id,
                    bounds_min,
                    bounds_max,
                    uv_scroll,
                    vertices,
                })
            },
        )
}

fn collider() -> impl Strategy<Value = pbm::Collider> {
    (
        name32(),
        0u32..4,
        vec3(),
        vec3(),
        proptest::collection::vec([vec3(), vec3(), vec3()], 0..6),
    )
        .prop_map(
            |(name, kind, bounds_min, bounds_max, triangles)| pbm::Collider {
                name,
                kind: ColliderKind::from_u32(kind),
                bounds_min,
                bounds_max,
                triangles,
            },
        )
}

fn metadata() -> impl Strategy<Value = pbm::Metadata> {
    // Any tag but "emitters": that one is decoded into `Map::emitters`.
    (
        name32().prop_filter("not the emitters tag", |n| n.as_str() != "emitters"),
        0u32..6,
        proptest::collection::vec(any::<u8>(), 0..40),
    )
        .prop_map(|(tag, kind, payload)| pbm::Metadata {
            tag,
            kind: MetaKind::from_u32(kind),
            payload,
        })
}

fn emitter() -> impl Strategy<Value = EmitterRecord> {
    (
        any::<[u8; 23]>(),
        vec3(),
        vec3(),
        proptest::array::uniform16(finite()),
        any::<[u32; 4]>(),
        any::<[u16; 2]>(),
        any::<[u8; 3]>(),
        any::<i32>(),
    )
        .prop_map(|(name, pos, dir, f, c, cf, grid, texture_id)| {
            let mut raw = [0u8; 24];
            raw[..23].copy_from_slice(&name);
            EmitterRecord {
                name: pbm::Name24::from_raw(raw),
                pos,
                dir,
                spread: f[0],
                speed_min: f[1],
                speed_max: f[2],
                life_min: f[3],
                life_max: f[4],
                damping: f[5],
                size_min: f[6],
                size_max: f[7],
                size_mid: f[8],
                size_end: f[9],
                aspect: f[10],
                angle_min: f[11],
                angle_max: f[12],
                spin_min: f[13],
                spin_max: f[14],
                knee: f[15],
                color_start: c[0],
                color_mid: c[1],
                color_end: c[2],
                seed: c[3],
                count: cf[0],
                flags: cf[1],
                atlas_cols: grid[0],
                atlas_rows: grid[1],
                anim_loops: grid[2],
                texture_id,
                ..EmitterRecord::default()
            }
        })
}

prop_compose! {
    fn map()(
        spawn_pos in vec3(), spawn_rot in finite(), bounds_min in vec3(), bounds_max in vec3(),
        textures in proptest::collection::vec(texture(), 0..4),
        meshes in proptest::collection::vec(mesh(), 0..5),
        colliders in proptest::collection::vec(collider(), 0..4),
        metadata in proptest::collection::vec(metadata(), 0..5),
        emitters in proptest::option::of((proptest::collection::vec(emitter(), 0..6), 0usize..6)),
    ) -> Map {
        let lumps = metadata.len();
        Map {
            spawn_pos, spawn_rot, bounds_min, bounds_max, textures, meshes, colliders, metadata,
            emitters: emitters.map(|(records, position)| EmitterLump {
                position: position.min(lumps),
                ..EmitterLump::new(records)
            }),
            ..Map::default()
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn random_valid_maps_survive_write_read(map in map()) {
        let bytes = map.to_bytes().expect("valid maps write");
        let (back, _) = Map::read(&bytes).expect("what we write reads");
        prop_assert_eq!(&back, &map);
        prop_assert_eq!(back.to_bytes().expect("writes again"), bytes);
    }
}

/// Offsets worth mutating: the header and every record header, plus the emitters lump.
fn structural_offsets(bytes: &[u8]) -> Vec<usize> {
    let (view, _) = MapView::parse(bytes).expect("fixture loads");
    let mut out: Vec<usize> = (0..64).collect();
    let mut span = |at: usize, len: usize| out.extend(at..at + len);
    for t in view.textures() {
        span(t.offset, 44);
    }
    for m in view.meshes() {
        span(m.offset, 72.min(m.vertex_bytes.len() + 64));
    }
    for c in view.colliders() {
        span(c.offset, 64);
    }
    for m in view.metadata() {
        span(m.offset, 40 + m.payload.len());
    }
    out.retain(|&o| o < bytes.len());
    out
}

/// Everything a consumer does with a file must not panic; what reads must write back.
fn exercise(bytes: &[u8]) -> Result<(), TestCaseError> {
    let Ok((view, _)) = MapView::parse(bytes) else {
        return Ok(());
    };
    for t in view.textures() {
        let _ = pbm::texture::decode(t.data, t.format);
    }
    let _ = view.meshes().map(|m| m.vertices().count()).sum::<usize>();
    let _ = view
        .colliders()
        .map(|c| c.triangles().count())
        .sum::<usize>();
    let map = Map::from_view(&view);
    let _ = pbm::compliance::check(&map);
    let field = map.particle_field(&mut |_| {});
    let eye = pbm::particle::ViewBasis {
        eye: [0.0; 3],
        right: [1.0, 0.0, 0.0],
        up: [0.0, 1.0, 0.0],
        forward: [0.0, 0.0, -1.0],
    };
    for e in &field.emitters {
        for p in field.particles_of(e) {
            let s = pbm::particle::evaluate(e, p, 12.5, Some((16, 16)));
            let _ = pbm::particle::billboard(e.params.flags, &s, &eye);
        }
    }
    let written = map
        .to_bytes_as(map.version)
        .map_err(|e| TestCaseError::fail(format!("read but cannot write: {e}")))?;
    let (again, _) = Map::read(&written)
        .map_err(|e| TestCaseError::fail(format!("written file does not read: {e}")))?;
    prop_assert_eq!(again.to_bytes_as(map.version).expect("writes"), written);
    Ok(())
}

fn mutation_strategy(
    size: usize,
    hot: usize,
) -> impl Strategy<Value = Vec<(bool, usize, u32, u8)>> {
    proptest::collection::vec((any::<bool>(), 0..size.max(1), any::<u32>(), 0u8..4), 1..8).prop_map(
        move |v| {
            v.into_iter()
                .map(|(structural, at, value, kind)| {
                    (
                        structural,
                        if structural { at % hot.max(1) } else { at },
                        value,
                        kind,
                    )
                })
                .collect()
        },
    )
}

fn mutate(bytes: &mut Vec<u8>, hot: &[usize], edits: &[(bool, usize, u32, u8)]) {
    for &(structural, at, value, kind) in edits {
        let at = if structural { hot[at] } else { at };
        if at >= bytes.len() {
            continue; // an earlier edit truncated the file
        }
        let special: [u32; 9] = [
            0,
            1,
            3,
            0xFFFF_FFFF,
            0x8000_0000,
            0x7FFF_FFFF,
            0xFFFF,
            384,
            0x7FC0_0000,
        ];
        match kind {
            0 => bytes[at] = value as u8,
            1 => {
                let v = special[value as usize % special.len()].to_le_bytes();
                let end = (at + 4).min(bytes.len());
                bytes[at..end].copy_from_slice(&v[..end - at]);
            }
            2 => bytes[at] ^= 1 << (value % 8),
            _ => bytes.truncate(at.max(1)),
        }
    }
}

fn run_mutations(fixture: &str, cases: u32) {
    let original = fixture_bytes(fixture);
    let hot = structural_offsets(&original);
    let config = ProptestConfig {
        cases,
        failure_persistence: None,
        ..ProptestConfig::default()
    };
    let mut runner = proptest::test_runner::TestRunner::new(config);
    let readable = std::cell::Cell::new(0u32);
    let result = runner.run(&mutation_strategy(original.len(), hot.len()), |edits| {
        let mut bytes = original.clone();
        mutate(&mut bytes, &hot, &edits);
        if MapView::parse(&bytes).is_ok() {
            readable.set(readable.get() + 1);
        }
        exercise(&bytes)
    });
    if let Err(e) = result {
        panic!("{fixture}: {e}");
    }
    // Both paths matter: rejected files and mutated files that still read and round-trip.
    let readable = readable.get();
    assert!(
        readable > cases / 10 && readable < cases - cases / 10,
        "{fixture}: {readable} of {cases} mutants readable"
    );
}

#[test]
fn mutated_basic_never_panics() {
    run_mutations("basic", 14_000);
}

#[test]
fn mutated_full_emitters_never_panics() {
    run_mutations("full_emitters", 6_000);
}

#[test]
fn every_truncation_of_every_fixture_is_an_error_not_a_panic() {
    for name in FIXTURES {
        let bytes = fixture_bytes(name);
        let (view, _) = MapView::parse(&bytes).expect("loads");
        // Every cut inside a structure; the pixel runs are sampled every 97 bytes.
        let mut cuts: Vec<usize> = (0..view.end()).step_by(97).collect();
        cuts.extend(structural_offsets(&bytes));
        for cut in cuts {
            assert!(
                MapView::parse(&bytes[..cut]).is_err(),
                "{name}: cut at {cut} read as a whole map"
            );
        }
    }
}
