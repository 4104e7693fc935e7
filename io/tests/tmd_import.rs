//! TMD and TIM import: every polygon packet type, axes and winding, texture pages
//! and CLUTs resolved through a virtual VRAM, and clear errors.

mod common;
use common::*;

use std::path::PathBuf;

use pebble_io::import::tim::{PageFormat, Tim, Vram, color15};
use pebble_io::import::tmd::{parse, polygon_words};
use pebble_io::import::{ImportOptions, import_file};
use pebble_model::entity::EntityKind;
use pebble_model::glam::Vec3;
use pebble_model::{History, Kind, Scene};

#[test]
fn packet_lengths_match_the_manual() {
    // Table 14 (3-vertex polygons with light source calculation) and Table 15 (lines).
    for (mode, flag, ilen) in [
        (0x20, 0x00, 3),
        (0x30, 0x00, 4),
        (0x20, 0x04, 5),
        (0x30, 0x04, 6),
        (0x24, 0x00, 5),
        (0x34, 0x00, 6),
    ] {
        assert_eq!(
            polygon_words(mode, flag),
            ilen,
            "mode 0x{mode:02X} flag 0x{flag:02X}"
        );
    }
}

/// Every polygon variant: 3/4 vertices × textured or not × flat/Gouraud × lit/unlit
/// (× gradation for untextured lit), each a unit triangle or quad in its own place.
fn every_polygon_kind() -> (Object, usize) {
    let mut o = Object {
        normals: vec![[0, 0, -4096]],
        ..Object::default()
    };
    let mut faces = 0;
    let mut slot = 0i16;
    for quad in [false, true] {
        for textured in [false, true] {
            for gouraud in [false, true] {
                for lit in [false, true] {
                    for gradation in [false, true] {
                        if gradation && (textured || !lit) {
                            continue;
                        }
                        let n = if quad { 4 } else { 3 };
                        let base = o.vertices.len() as u16;
                        let x = slot * 100;
                        slot += 1;
                        // Z order: v0 v1 on top, v2 v3 below (PS1 Y points down).
                        for (dx, dy) in [(0, 0), (64, 0), (0, 64), (64, 64)].into_iter().take(n) {
                            o.vertices.push([x + dx, dy, 0]);
                        }
                        let mode = 0x20
                            | if quad { 8 } else { 0 }
                            | if textured { 4 } else { 0 }
                            | if gouraud { 16 } else { 0 };
                        let flag = if lit { 0 } else { 1 } | if gradation { 4 } else { 0 };
                        let mut data = Vec::new();
                        if textured {
                            let uv = [(0u8, 0u8), (63, 0), (0, 63), (63, 63)];
                            for (k, (u, v)) in uv.into_iter().take(n).enumerate() {
                                // TSB: page 5, 4-bit; CBA: CLUT at (0, 480).
                                let extra = match k {
                                    0 => 480 << 6,
                                    1 => 5,
                                    _ => 0,
                                };
                                data.push(uvw(u, v, extra));
                            }
                        }
                        let colors = if !lit {
                            if gouraud { n } else { 1 }
                        } else if textured {
                            0
                        } else if gradation {
                            n
                        } else {
                            1
                        };
                        for k in 0..colors {
                            data.push(rgb(200, 10 * k as u8, 50, if k == 0 { mode } else { 0 }));
                        }
                        let v = |k: usize| base + k as u16;
                        if !lit {
                            data.push(half(v(0), v(1)));
                            data.push(half(v(2), if n == 4 { v(3) } else { 0 }));
                        } else if gouraud {
                            for k in 0..n {
                                data.push(half(0, v(k)));
                            }
                        } else {
                            data.push(half(0, v(0)));
                            data.push(half(v(1), v(2)));
                            if n == 4 {
                                data.push(half(v(3), 0));
                            }
                        }
                        assert_eq!(
                            data.len(),
                            polygon_words(mode, flag),
                            "encoder and layout agree for mode {mode:#x} flag {flag:#x}"
                        );
                        o.packets.push(Packet { mode, flag, data });
                        faces += if quad { 2 } else { 1 };
                    }
                }
            }
        }
    }
    // A line and a sprite, counted and skipped.
    o.packets.push(Packet {
        mode: 0x40,
        flag: 1,
        data: vec![rgb(1, 2, 3, 0x40), half(0, 1)],
    });
    o.packets.push(Packet {
        mode: 0x64,
        flag: 0,
        data: vec![0, 0, 0],
    });
    (o, faces)
}

/// A 4-bit page (tpage 5 → VRAM x 320) with a 16-entry CLUT at (0, 480): texel u
/// has colour index u % 16.
fn four_bit_tim() -> Vec<u8> {
    let clut: Vec<u16> = (0..16).map(|i| c15(i * 16, 255 - i * 16, 0)).collect();
    let mut pixels = Vec::new();
    for _v in 0..64 {
        for w in 0..16u16 {
            let i0 = (w * 4) % 16;
            pixels.push(i0 | (i0 + 1) << 4 | (i0 + 2) << 8 | (i0 + 3) << 12);
        }
    }
    tim(0, Some((0, 480, &clut)), (320, 0, 16, 64, &pixels))
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("pebble-tmd-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("dir");
    dir
}

fn import_into_scene(
    path: &std::path::Path,
    dir: &std::path::Path,
) -> (Scene, pebble_io::import::ImportReport) {
    let imported = import_file(path, &ImportOptions::new(dir), &mut |_| {}).expect("imports");
    let mut scene = Scene::new();
    History::default()
        .execute(&mut scene, imported.command)
        .expect("applies");
    (scene, imported.report)
}

#[test]
fn a_multi_object_tmd_with_every_polygon_type_imports_with_its_tim() {
    let dir = scratch("every");
    let (every, faces) = every_polygon_kind();
    let second = Object {
        vertices: vec![[0, 0, 0], [0, -100, 0], [100, 0, 0]],
        packets: vec![Packet {
            mode: 0x20,
            flag: 1,
            data: vec![rgb(255, 0, 0, 0x20), half(0, 1), half(2, 0)],
        }],
        scale: 1,
        ..Object::default()
    };
    let path = dir.join("props.tmd");
    std::fs::write(&path, tmd(&[every, second])).expect("tmd");
    std::fs::write(dir.join("props.tim"), four_bit_tim()).expect("tim");
    let (scene, report) = import_into_scene(&path, &dir);
    assert_eq!(scene.entities_of(Kind::Mesh).count(), 2);
    assert!(
        report
            .warnings
            .iter()
            .any(|w| w.contains("1 lines and 1 3D sprites")),
        "{:?}",
        report.warnings
    );
    let first = scene
        .entities()
        .find(|e| e.name == "props 0")
        .expect("object 0");
    let EntityKind::Mesh(m) = &first.kind else {
        panic!("mesh")
    };
    assert_eq!(m.geometry.faces.len(), faces);
    // The texture page came out of VRAM through the CLUT: 64×64, texel u = index u % 16.
    assert_eq!(report.textures_written.len(), 1);
    let png = image::open(dir.join(&report.textures_written[0]))
        .expect("png")
        .to_rgba8();
    assert_eq!(png.dimensions(), (64, 64));
    for u in [0u32, 5, 17, 63] {
        let i = (u % 16) as u8;
        let expected = color15(c15(i * 16, 255 - i * 16, 0));
        assert_eq!(png.get_pixel(u, 10).0, expected, "texel {u}");
    }
    // Texture pages are tile-atlas candidates (translucent ones never), and the
    // map packs them.
    for (_, mat) in scene.materials().filter(|(_, m)| m.texture.is_some()) {
        assert_eq!(
            mat.tile,
            mat.alpha != pebble_model::material::AlphaMode::Blend,
            "{}",
            mat.name
        );
    }
    let (bytes, _) = common::export_unbaked(&scene, &dir);
    let (view, warnings) = pbm::MapView::parse(&bytes).expect("parses");
    assert!(warnings.is_empty(), "{warnings:?}");
    assert!(
        pbm::Map::from_view(&view)
            .textures
            .iter()
            .any(|t| t.is_atlas()),
        "the page went into an atlas"
    );
    // Scale 2^1 on the second object, at 1 cm per unit: 100 units → 2 m.
    let second = scene
        .entities()
        .find(|e| e.name == "props 1")
        .expect("object 1");
    let EntityKind::Mesh(m) = &second.kind else {
        panic!("mesh")
    };
    let aabb = m.geometry.aabb().expect("bounds");
    assert!(
        (aabb.max.y - 2.0).abs() < 1e-5 && (aabb.max.x - 2.0).abs() < 1e-5,
        "{aabb:?}"
    );
}

#[test]
fn axes_flip_to_y_up_and_fronts_turn_counter_clockwise() {
    let dir = scratch("winding");
    // A quad on the PS1 screen plane, Z order, facing the PS1 camera (which looks +Z).
    let o = Object {
        vertices: vec![[0, 0, 0], [100, 0, 0], [0, 100, 0], [100, 100, 0]],
        packets: vec![Packet {
            mode: 0x28,
            flag: 1,
            data: vec![rgb(255, 255, 255, 0x28), half(0, 1), half(2, 3)],
        }],
        ..Object::default()
    };
    let path = dir.join("quad.tmd");
    std::fs::write(&path, tmd(&[o])).expect("tmd");
    let (scene, report) = import_into_scene(&path, &dir);
    assert!(report.textures_written.is_empty());
    let e = scene.entities_of(Kind::Mesh).next().expect("mesh");
    let EntityKind::Mesh(m) = &e.kind else {
        panic!("mesh")
    };
    assert_eq!(m.geometry.faces.len(), 2);
    for f in &m.geometry.faces {
        let [a, b, c] = m.geometry.triangle(f);
        let normal = (b - a).cross(c - a);
        // PS1 +Y (down) became −Y; the face looked at the PS1 camera (−Z side), which
        // is +Z in Pebble: a Pebble camera on +Z sees its counter-clockwise front.
        assert!(normal.z > 0.0, "{normal}");
        for p in [a, b, c] {
            assert!(p.y <= 0.0 && p.z == 0.0);
        }
    }
    let aabb = m.geometry.aabb().expect("bounds");
    assert_eq!(aabb.min, Vec3::new(0.0, -1.0, 0.0));
}

#[test]
fn eight_bit_tims_resolve_their_clut() {
    let clut: Vec<u16> = (0..256).map(|i| c15(i as u8, 0, 255 - i as u8)).collect();
    let pixels: Vec<u16> = (0..32 * 16)
        .map(|i| ((i % 32) * 2) as u16 | (((i % 32) * 2 + 1) as u16) << 8)
        .collect();
    let t =
        Tim::parse(&tim(1, Some((16, 500, &clut)), (128, 256, 32, 16, &pixels))).expect("parses");
    let mut vram = Vram::default();
    vram.load(&t);
    // tpage 2 + 16 = 18 → (128, 256); 8-bit: texel u is byte u of the row.
    for u in [0usize, 1, 7, 63] {
        let got = vram.texel((128, 256), PageFormat::Bits8, (16, 500), u, 3);
        assert_eq!(got, color15(clut[u]), "texel {u}");
    }
}

#[test]
fn missing_tim_is_a_warning_and_bad_files_are_clear_errors() {
    let dir = scratch("errors");
    let (every, _) = every_polygon_kind();
    let path = dir.join("lonely.tmd");
    std::fs::write(&path, tmd(std::slice::from_ref(&every))).expect("tmd");
    let (scene, report) = import_into_scene(&path, &dir);
    assert!(
        report.warnings.iter().any(|w| w.contains("no TIM found")),
        "{:?}",
        report.warnings
    );
    assert_eq!(scene.entities_of(Kind::Mesh).count(), 1);

    let mut bytes = tmd(&[every]);
    bytes[0] = 0x42;
    let err = parse(&bytes).expect_err("bad id");
    assert!(
        err.to_string().contains("not a TMD") && err.offset == 0,
        "{err}"
    );
    let good = tmd(&[Object {
        vertices: vec![[0, 0, 0]; 3],
        packets: vec![Packet {
            mode: 0x21,
            flag: 1,
            data: vec![rgb(1, 1, 1, 0x21), half(0, 1), half(7, 0)],
        }],
        ..Object::default()
    }]);
    let err = parse(&good).expect_err("vertex index out of range");
    assert!(err.to_string().contains("uses vertex 7"), "{err}");
    let err = parse(&good[..good.len() - 6]).expect_err("cut");
    assert!(err.to_string().contains("past the end"), "{err}");
    let mut huge = good.clone();
    huge[8..12].copy_from_slice(&u32::MAX.to_le_bytes());
    assert!(
        parse(&huge)
            .expect_err("count")
            .to_string()
            .contains("objects need")
    );

    let tim_err = Tim::parse(&four_bit_tim()[..40]).expect_err("cut TIM");
    assert!(tim_err.to_string().contains("cut off"), "{tim_err}");
}

#[test]
fn fifteen_bit_tims_are_direct_colour() {
    let pixels: Vec<u16> = (0..8 * 8)
        .map(|i| {
            if i == 0 {
                0
            } else {
                c15((i * 4) as u8, 0, 200)
            }
        })
        .collect();
    let t = Tim::parse(&tim(2, None, (640, 0, 8, 8, &pixels))).expect("parses");
    let mut vram = Vram::default();
    vram.load(&t);
    assert_eq!(
        vram.texel((640, 0), PageFormat::Bits15, (0, 0), 0, 0),
        [0, 0, 0, 0],
        "0x0000 is transparent"
    );
    assert_eq!(
        vram.texel((640, 0), PageFormat::Bits15, (0, 0), 3, 1),
        color15(pixels[11])
    );
    assert!(
        Tim::parse(&tim(0, None, (0, 0, 1, 1, &[0]))).is_err(),
        "a 4-bit TIM needs a CLUT"
    );
}
