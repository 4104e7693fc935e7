//! Writers for small TMD and TIM files, following the layouts in the module docs of
//! `pebble_io::import::{tmd, tim}` and the PS1 manual's packet tables; and the
//! export the import tests check their scenes with.
#![allow(dead_code)]

pub fn rgb(r: u8, g: u8, b: u8, mode: u8) -> u32 {
    u32::from(r) | u32::from(g) << 8 | u32::from(b) << 16 | u32::from(mode) << 24
}

pub fn uvw(u: u8, v: u8, extra: u16) -> u32 {
    u32::from(u) | u32::from(v) << 8 | u32::from(extra) << 16
}

pub fn half(lo: u16, hi: u16) -> u32 {
    u32::from(lo) | u32::from(hi) << 16
}

#[derive(Debug, Clone)]
pub struct Packet {
    pub mode: u8,
    pub flag: u8,
    pub data: Vec<u32>,
}

#[derive(Debug, Clone, Default)]
pub struct Object {
    pub vertices: Vec<[i16; 3]>,
    pub normals: Vec<[i16; 3]>,
    pub packets: Vec<Packet>,
    pub scale: i32,
}

/// A TMD with FIXP = 0 (pointers relative to the object table).
pub fn tmd(objects: &[Object]) -> Vec<u8> {
    let table = objects.len() * 28;
    let mut body = Vec::new();
    let mut entries = Vec::new();
    for o in objects {
        let vert_top = table + body.len();
        for v in &o.vertices {
            for c in v {
                body.extend_from_slice(&c.to_le_bytes());
            }
            body.extend_from_slice(&[0, 0]);
        }
        let normal_top = table + body.len();
        for n in &o.normals {
            for c in n {
                body.extend_from_slice(&c.to_le_bytes());
            }
            body.extend_from_slice(&[0, 0]);
        }
        let prim_top = table + body.len();
        for p in &o.packets {
            let olen = 4u32;
            let header = olen
                | (p.data.len() as u32) << 8
                | u32::from(p.flag) << 16
                | u32::from(p.mode) << 24;
            body.extend_from_slice(&header.to_le_bytes());
            for w in &p.data {
                body.extend_from_slice(&w.to_le_bytes());
            }
        }
        entries.push([
            vert_top,
            o.vertices.len(),
            normal_top,
            o.normals.len(),
            prim_top,
            o.packets.len(),
            o.scale as u32 as usize,
        ]);
    }
    let mut out = Vec::new();
    for w in [0x41u32, 0, objects.len() as u32] {
        out.extend_from_slice(&w.to_le_bytes());
    }
    for e in entries {
        for w in e {
            out.extend_from_slice(&(w as u32).to_le_bytes());
        }
    }
    out.extend_from_slice(&body);
    out
}

/// A TIM: `mode` 0 (4-bit) or 1 (8-bit) with a CLUT, or 2 (15-bit).
pub fn tim(
    mode: u32,
    clut: Option<(u16, u16, &[u16])>,
    pixels: (u16, u16, u16, u16, &[u16]),
) -> Vec<u8> {
    let mut out = Vec::new();
    out.extend_from_slice(&0x10u32.to_le_bytes());
    out.extend_from_slice(&(mode | if clut.is_some() { 8 } else { 0 }).to_le_bytes());
    let mut block = |x: u16, y: u16, w: u16, h: u16, words: &[u16]| {
        out.extend_from_slice(&(12 + 2 * words.len() as u32).to_le_bytes());
        for v in [x, y, w, h] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        for v in words {
            out.extend_from_slice(&v.to_le_bytes());
        }
    };
    if let Some((x, y, words)) = clut {
        block(x, y, words.len() as u16, 1, words);
    }
    let (x, y, w, h, words) = pixels;
    block(x, y, w, h, words);
    out
}

/// 15-bit colour.
pub fn c15(r: u8, g: u8, b: u8) -> u16 {
    u16::from(r >> 3) | u16::from(g >> 3) << 5 | u16::from(b >> 3) << 10 | 0x8000
}

/// A small GLB: a parent node and a child mesh with indexed positions, UVs and
/// normalized-u8 colours, and an untextured material.
pub fn small_glb() -> Vec<u8> {
    let mut bin = Vec::new();
    for p in [
        [0.0f32, 0.0, 0.0],
        [1.0, 0.0, 0.0],
        [1.0, 1.0, 0.0],
        [0.0, 1.0, 0.0],
    ] {
        for c in p {
            bin.extend_from_slice(&c.to_le_bytes());
        }
    }
    for uv in [[0.0f32, 1.0], [1.0, 1.0], [1.0, 0.0], [0.0, 0.0]] {
        for c in uv {
            bin.extend_from_slice(&c.to_le_bytes());
        }
    }
    bin.extend_from_slice(&[
        255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 255, 255,
    ]);
    for i in [0u16, 1, 2, 0, 2, 3] {
        bin.extend_from_slice(&i.to_le_bytes());
    }
    bin.extend_from_slice(&[0, 0, 0, 0]);
    let doc = serde_json::json!({
        "asset": { "version": "2.0" },
        "scene": 0,
        "scenes": [{ "nodes": [0] }],
        "nodes": [{ "name": "Root", "children": [1], "translation": [1.0, 2.0, 3.0] }, { "name": "Quad", "mesh": 0 }],
        "meshes": [{ "primitives": [{ "attributes": { "POSITION": 0, "TEXCOORD_0": 1, "COLOR_0": 2 }, "indices": 3, "material": 0 }] }],
        "materials": [{ "name": "Plain", "alphaMode": "BLEND" }],
        "accessors": [
            { "bufferView": 0, "byteOffset": 0, "componentType": 5126, "count": 4, "type": "VEC3", "min": [0.0, 0.0, 0.0], "max": [1.0, 1.0, 0.0] },
            { "bufferView": 0, "byteOffset": 48, "componentType": 5126, "count": 4, "type": "VEC2" },
            { "bufferView": 0, "byteOffset": 80, "componentType": 5121, "normalized": true, "count": 4, "type": "VEC4" },
            { "bufferView": 1, "byteOffset": 0, "componentType": 5123, "count": 6, "type": "SCALAR" }
        ],
        "bufferViews": [{ "buffer": 0, "byteOffset": 0, "byteLength": 96 }, { "buffer": 0, "byteOffset": 96, "byteLength": 12 }],
        "buffers": [{ "byteLength": bin.len() }]
    });
    glb(&serde_json::to_vec(&doc).expect("json"), &bin)
}

/// Little-endian f32s, vector by vector, as a glTF buffer holds them.
pub fn floats<const N: usize>(values: &[[f32; N]]) -> Vec<u8> {
    values
        .iter()
        .flatten()
        .flat_map(|c| c.to_le_bytes())
        .collect()
}

/// Packs JSON and a binary chunk as GLB.
pub fn glb(json: &[u8], bin: &[u8]) -> Vec<u8> {
    let mut json = json.to_vec();
    while !json.len().is_multiple_of(4) {
        json.push(b' ');
    }
    let mut out = Vec::new();
    out.extend_from_slice(b"glTF");
    out.extend_from_slice(&2u32.to_le_bytes());
    out.extend_from_slice(&((12 + 8 + json.len() + 8 + bin.len()) as u32).to_le_bytes());
    out.extend_from_slice(&(json.len() as u32).to_le_bytes());
    out.extend_from_slice(b"JSON");
    out.extend_from_slice(&json);
    out.extend_from_slice(&(bin.len() as u32).to_le_bytes());
    out.extend_from_slice(b"BIN\0");
    out.extend_from_slice(bin);
    out
}

/// The map `scene` exports to without the light bake (assets under `dir`), with
/// the export's report.
pub fn export_unbaked(
    scene: &pebble_model::Scene,
    dir: impl AsRef<std::path::Path>,
) -> (Vec<u8>, pebble_io::export::ExportReport) {
    let mut options = pebble_io::export::ExportOptions::new(dir.as_ref());
    options.bake = false;
    pebble_io::export::export(
        scene,
        &options,
        &mut |_| {},
        &std::sync::atomic::AtomicBool::new(false),
    )
    .expect("exports")
}

/// A TMD with two objects and flat, gouraud and textured polygons, as the PS1
/// tools write them.
pub fn sample_tmd() -> Vec<u8> {
    let o = Object {
        vertices: vec![[0, 0, 0], [64, 0, 0], [0, 64, 0], [64, 64, 0]],
        normals: vec![[0, 0, -4096]],
        packets: vec![
            Packet {
                mode: 0x20,
                flag: 0,
                data: vec![rgb(9, 9, 9, 0x20), half(0, 0), half(1, 2)],
            },
            Packet {
                mode: 0x3c,
                flag: 0,
                data: vec![
                    uvw(0, 0, 480 << 6),
                    uvw(63, 0, 5),
                    uvw(0, 63, 0),
                    uvw(63, 63, 0),
                    half(0, 0),
                    half(0, 1),
                    half(0, 2),
                    half(0, 3),
                ],
            },
            Packet {
                mode: 0x3d,
                flag: 1,
                data: vec![
                    uvw(0, 0, 0),
                    uvw(1, 0, 0x85),
                    uvw(0, 1, 0),
                    uvw(1, 1, 0),
                    rgb(1, 2, 3, 0x3d),
                    rgb(1, 2, 3, 0),
                    rgb(1, 2, 3, 0),
                    rgb(1, 2, 3, 0),
                    half(0, 1),
                    half(2, 3),
                ],
            },
            Packet {
                mode: 0x50,
                flag: 1,
                data: vec![rgb(1, 2, 3, 0x50), rgb(1, 2, 3, 0), half(0, 1)],
            },
        ],
        scale: 0,
    };
    tmd(&[o.clone(), o])
}

/// A 4-bit TIM with its CLUT.
pub fn sample_tim() -> Vec<u8> {
    let clut: Vec<u16> = (0..16).map(|i| c15(i * 16, 0, 0)).collect();
    let pixels: Vec<u16> = (0..16 * 8).map(|i| i as u16).collect();
    tim(0, Some((0, 480, &clut)), (320, 0, 16, 8, &pixels))
}
