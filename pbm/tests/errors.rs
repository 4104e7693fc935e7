//! One hand-made file per error class gets that specific error, with its offset;
//! each warning class is reported; huge claimed counts allocate nothing.

mod common;
use common::*;

use pbm::emitter::{EMITTERS_TAG, EmitterLump, EmitterRecord};
use pbm::format::*;
use pbm::{ErrorKind, Map, MapView, ReadError, WarningKind};

fn name(s: &str) -> pbm::Name32 {
    pbm::Name32::new(s).expect("short name")
}

/// A small valid v3 file: one 16×8 5551 texture, one mesh, one collider, one lump.
fn small_map() -> Map {
    let v = |x: f32| pbm::Vertex {
        uv: [0.0, 0.0],
        color: 0xFFFF_FFFF,
        pos: [x, 0.0, 0.0],
    };
    Map {
        textures: vec![pbm::Texture {
            name: name("Tex"),
            width: 16,
            height: 8,
            format: TextureFormat::Rgba5551,
            alpha_mode: AlphaMode::None,
            data: vec![0xFF; 16 * 8 * 2],
        }],
        meshes: vec![pbm::Mesh {
            name: name("Mesh"),
            texture_id: 0,
            bounds_min: [0.0; 3],
            bounds_max: [2.0, 0.0, 0.0],
            uv_scroll: [0.0; 2],
            vertices: vec![v(0.0), v(1.0), v(2.0)],
        }],
        colliders: vec![pbm::Collider {
            name: name("Box"),
            kind: ColliderKind::Box,
            bounds_min: [0.0; 3],
            bounds_max: [1.0; 3],
            triangles: vec![],
        }],
        metadata: vec![pbm::Metadata::text(
            name("map_name"),
            MetaKind::String,
            "abc",
        )],
        bounds_max: [2.0, 0.0, 0.0],
        ..Map::default()
    }
}

const TEX: usize = 64;
const MESH: usize = TEX + 44 + 256;
const COLLIDER: usize = MESH + 72 + 72;
const META: usize = COLLIDER + 64;

fn bytes() -> Vec<u8> {
    let b = small_map().to_bytes().expect("writes");
    assert_eq!(b.len(), META + 40 + 4);
    b
}

fn put_u32(b: &mut [u8], at: usize, v: u32) {
    b[at..at + 4].copy_from_slice(&v.to_le_bytes());
}

fn put_u16(b: &mut [u8], at: usize, v: u16) {
    b[at..at + 2].copy_from_slice(&v.to_le_bytes());
}

fn error_of(b: &[u8]) -> ReadError {
    match MapView::parse(b) {
        Ok(_) => panic!("expected an error"),
        Err(e) => e,
    }
}

#[test]
fn bad_magic() {
    let mut b = bytes();
    b[0..4].copy_from_slice(b"GLTF");
    let e = error_of(&b);
    assert_eq!(e.offset, 0);
    assert_eq!(
        e.kind,
        ErrorKind::BadMagic {
            found: u32::from_le_bytes(*b"GLTF")
        }
    );
    assert!(e.to_string().contains("not a .pbm map"), "{e}");
}

#[test]
fn version_zero_is_obsolete() {
    let mut b = bytes();
    put_u32(&mut b, 4, 0);
    let e = error_of(&b);
    assert_eq!(
        (e.offset, e.kind.clone()),
        (4, ErrorKind::ObsoleteVersion { found: 0 })
    );
}

#[test]
fn newer_version_gives_the_reference_diagnostic() {
    let mut b = bytes();
    put_u32(&mut b, 4, 4);
    let e = error_of(&b);
    assert_eq!(e.kind, ErrorKind::UnsupportedVersion { found: 4 });
    assert!(
        e.to_string().starts_with(
            "[PBM] Error: Incompatible map version 4 (supported: 1..3). Breaking format change detected."
        ),
        "{e}"
    );
}

#[test]
fn every_truncation_is_reported_as_truncation() {
    let b = bytes();
    for len in 0..b.len() {
        let e = error_of(&b[..len]);
        assert!(
            matches!(e.kind, ErrorKind::Truncated { .. }),
            "cut at {len}: {e}"
        );
        assert!(e.offset <= len as u64, "cut at {len}: offset {}", e.offset);
    }
}

#[test]
fn truncation_names_the_structure_and_the_shortfall() {
    let b = bytes();
    let e = error_of(&b[..MESH + 72 + 10]);
    assert_eq!(e.offset as usize, MESH + 72);
    assert_eq!(
        e.kind,
        ErrorKind::Truncated {
            what: "mesh vertices",
            needed: 72,
            available: 10
        }
    );
    assert_eq!(e.section, pbm::Section::Mesh(0, "Mesh".into()));
    let text = e.to_string();
    assert!(
        text.contains("mesh 0 'Mesh'") && text.contains("72") && text.contains("10"),
        "{text}"
    );
}

#[test]
fn texture_data_size_mismatch() {
    let mut b = bytes();
    put_u32(&mut b, TEX + 0x28, 100);
    let e = error_of(&b);
    assert_eq!(e.offset as usize, TEX + 0x28);
    assert_eq!(
        e.kind,
        ErrorKind::TextureSizeMismatch {
            width: 16,
            height: 8,
            bytes_per_pixel: 2,
            found: 100
        }
    );
    assert!(e.to_string().contains("expected 16×8×2 = 256"), "{e}");
}

#[test]
fn unknown_texture_format() {
    let mut b = bytes();
    put_u16(&mut b, TEX + 0x24, 4);
    let e = error_of(&b);
    assert_eq!(
        (e.offset as usize, e.kind.clone()),
        (TEX + 0x24, ErrorKind::UnknownTextureFormat { found: 4 })
    );
}

#[test]
fn mesh_without_vertices() {
    let mut b = bytes();
    put_u32(&mut b, MESH + 0x24, 0);
    let e = error_of(&b);
    assert_eq!(
        (e.offset as usize, e.kind.clone()),
        (MESH + 0x24, ErrorKind::NoVertices)
    );
}

#[test]
fn vertex_count_not_a_multiple_of_three() {
    let mut b = bytes();
    put_u32(&mut b, MESH + 0x24, 2);
    let e = error_of(&b);
    assert_eq!(e.kind, ErrorKind::VertexCountNotTriangles { found: 2 });
}

#[test]
fn sizes_that_overflow() {
    let mut b = bytes();
    put_u32(&mut b, MESH + 0x24, 0xFFFF_FFFF); // a multiple of 3; × 24 overflows
    assert!(matches!(
        error_of(&b).kind,
        ErrorKind::SizeOverflow {
            what: "mesh vertices",
            ..
        }
    ));
    let mut b = bytes();
    put_u32(&mut b, COLLIDER + 0x3C, 0x8000_0000);
    assert!(matches!(
        error_of(&b).kind,
        ErrorKind::SizeOverflow {
            what: "collider triangles",
            ..
        }
    ));
    let mut b = bytes();
    put_u32(&mut b, META + 0x24, 0xFFFF_FFFE);
    assert!(matches!(error_of(&b).kind, ErrorKind::SizeOverflow { .. }));
}

fn warnings_of(b: &[u8]) -> Vec<pbm::Warning> {
    MapView::parse(b).expect("readable").1
}

#[test]
fn warning_classes() {
    let mut b = bytes();
    b[0..4].copy_from_slice(&MAGIC_V2.to_le_bytes());
    let w = warnings_of(&b);
    assert!(
        matches!(
            w[..],
            [pbm::Warning {
                kind: WarningKind::MagicVersionMismatch {
                    magic_version: 2,
                    version: 3
                },
                ..
            }]
        ),
        "{w:?}"
    );

    let mut b = bytes();
    put_u32(&mut b, MESH + 0x20, 5);
    assert!(matches!(
        warnings_of(&b)[0].kind,
        WarningKind::TextureIdOutOfRange {
            texture_id: 5,
            num_textures: 1
        }
    ));

    let mut b = bytes();
    b.extend_from_slice(&[1, 2, 3]);
    let w = warnings_of(&b);
    assert_eq!(w[0].kind, WarningKind::TrailingBytes { count: 3 });
    assert_eq!(w[0].offset, Some((b.len() - 3) as u64));

    let mut map = small_map();
    map.textures[0].width = 12;
    map.textures[0].data = vec![0; 12 * 8 * 2];
    let w = warnings_of(&map.to_bytes().expect("writes"));
    assert_eq!(
        w[0].kind,
        WarningKind::NonPowerOfTwoTexture {
            width: 12,
            height: 8
        }
    );

    let mut b = bytes();
    b[META..META + 32].fill(b'x');
    let w = warnings_of(&b);
    assert_eq!(w[0].kind, WarningKind::NameWithoutNul);
    assert_eq!(
        MapView::parse(&b)
            .expect("reads")
            .0
            .metadata()
            .next()
            .expect("lump")
            .tag
            .as_str()
            .len(),
        31
    );
}

fn with_emitters(records: Vec<EmitterRecord>, version: u32) -> Vec<u8> {
    let mut map = small_map();
    let mut lump = EmitterLump::new(records);
    lump.version = version;
    map.emitters = Some(lump);
    map.to_bytes().expect("writes")
}

#[test]
fn emitter_lump_warnings() {
    let w = warnings_of(&with_emitters(vec![EmitterRecord::default()], 2));
    assert!(
        matches!(
            w[..],
            [pbm::Warning {
                kind: WarningKind::EmitterLumpVersionNewer { version: 2 },
                ..
            }]
        ),
        "{w:?}"
    );
    // A skipped lump stays as raw metadata so that nothing is lost on save.
    let (map, _) = Map::read(&with_emitters(vec![EmitterRecord::default()], 2)).expect("reads");
    assert!(map.emitters.is_none());
    assert!(map.metadata_by_tag(EMITTERS_TAG).is_some());

    let over = EmitterRecord {
        count: 300,
        ..EmitterRecord::default()
    };
    let b = with_emitters(vec![over; 5], 1);
    let w = warnings_of(&b);
    let clamps: Vec<_> = w
        .iter()
        .filter_map(|w| match w.kind {
            WarningKind::EmitterCountClamped { used, .. } => Some(used),
            _ => None,
        })
        .collect();
    // 64 each for four emitters fills the 256 budget; the fifth gets none.
    assert_eq!(clamps, [64, 64, 64, 64, 64, 0]);
    let (map, _) = Map::read(&b).expect("reads");
    let field = map.particle_field(&mut |_| {});
    assert_eq!(field.emitters.len(), 4);
    assert_eq!(field.particles.len(), 256);

    let b = with_emitters(vec![EmitterRecord::default(); 70], 1);
    assert!(
        warnings_of(&b)
            .iter()
            .any(|w| w.kind == WarningKind::TooManyEmitters { found: 70, max: 64 })
    );
}

// The allocation-counting allocator is the only unsafe code, and only in this test.
#[allow(unsafe_code)]
mod counting {
    use std::alloc::{GlobalAlloc, Layout, System};
    use std::cell::Cell;

    pub struct Counting;

    thread_local! {
        pub static BYTES: Cell<usize> = const { Cell::new(0) };
    }

    unsafe impl GlobalAlloc for Counting {
        unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
            let _ = BYTES.try_with(|b| b.set(b.get() + layout.size()));
            // SAFETY: forwarded unchanged to the system allocator.
            unsafe { System.alloc(layout) }
        }
        unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
            // SAFETY: forwarded unchanged to the system allocator.
            unsafe { System.dealloc(ptr, layout) }
        }
    }
}

#[allow(unsafe_code)]
#[global_allocator]
static ALLOCATOR: counting::Counting = counting::Counting;

#[test]
fn claimed_counts_allocate_nothing() {
    for field in [8usize, 12, 16, 20] {
        let mut b = bytes();
        put_u32(&mut b, field, u32::MAX);
        let before = counting::BYTES.with(|c| c.get());
        let result = MapView::parse_with(&b, &mut |_| {});
        let after = counting::BYTES.with(|c| c.get());
        assert!(
            result.is_err(),
            "count at {field}: a file this small cannot hold 4 billion records"
        );
        // The error carries the record's name; nothing grows with the claimed count.
        assert!(
            after - before < 256,
            "count at {field}: {} bytes allocated",
            after - before
        );
    }
}

#[test]
fn fixtures_from_the_reference_produce_no_structural_warnings() {
    for name in FIXTURES {
        let (_, w) = MapView::parse(&fixture_bytes(name)).expect("loads");
        assert!(
            w.iter().all(|w| matches!(
                w.section,
                pbm::Section::Emitter(..) | pbm::Section::Metadata(..)
            )),
            "{name}: {w:?}"
        );
    }
}

#[test]
fn a_skipped_emitters_lump_does_not_hide_a_later_good_one() {
    let mut map = small_map();
    let mut newer = EmitterLump::new(vec![EmitterRecord::default()]);
    newer.version = 9;
    map.metadata.push(pbm::Metadata {
        tag: name(EMITTERS_TAG),
        kind: MetaKind::Emitter,
        payload: newer.encode(),
    });
    map.emitters = Some(EmitterLump::new(vec![EmitterRecord {
        count: 5,
        ..EmitterRecord::default()
    }]));
    let bytes = map.to_bytes().expect("writes");
    let (view, _) = MapView::parse(&bytes).expect("reads");
    assert_eq!(view.emitter_lump().map(|l| l.count), Some(1));
    let (back, _) = Map::read(&bytes).expect("reads");
    assert_eq!(back.emitters.as_ref().map(|l| l.records[0].count), Some(5));
    assert_eq!(
        back.to_bytes().expect("writes"),
        bytes,
        "both lumps survive in order"
    );
}
