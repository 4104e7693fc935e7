//! Writers for small TMD and TIM files, following the layouts in the module docs of
//! `pebble_io::import::{tmd, tim}` and the PS1 manual's packet tables.
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
