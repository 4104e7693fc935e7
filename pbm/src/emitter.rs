//! The `emitters` metadata lump: the 176-byte record, lossless encode/decode, and the
//! reference loader's sanitising clamps and budgets.

use alloc::vec::Vec;
use core::f32::consts::PI;

use crate::bytes::{PutLe, array, f32_at, i32_at, u8_at, u16_at, u32_at, vec3_at};
use crate::error::{Section, Warning, WarningKind};
use crate::format::MetaKind;
use crate::name::Name24;

/// Tag of the lump.
pub const EMITTERS_TAG: &str = crate::tag::EMITTERS;
/// "EMIT".
pub const EMITTER_LUMP_MAGIC: u32 = 0x5449_4D45;
/// The lump version this reader understands; newer lumps are skipped.
pub const EMITTER_LUMP_VERSION: u32 = 1;
pub const EMITTER_LUMP_HEADER_SIZE: usize = 16;
pub const EMITTER_RECORD_SIZE: usize = 176;

/// Budgets of the reference runtime.
pub const MAX_EMITTERS: u32 = 64;
pub const MAX_PARTICLES_PER_EMITTER: u32 = 64;
pub const MAX_PARTICLES_PER_MAP: u32 = 256;

/// Emitter flag bits.
pub mod flags {
    /// `src·srcA + dst`, unsorted.
    pub const ADDITIVE: u16 = 1;
    /// Billboards keep world up.
    pub const Y_LOCKED: u16 = 2;
    /// Billboards stretch along the velocity (wins over Y_LOCKED).
    pub const VEL_ALIGN: u16 = 4;
    /// Every particle starts at phase 0 (bursts).
    pub const PHASE_ALIGN: u16 = 8;
}

/// One emitter record, every field as stored (floats keep their exact bits).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EmitterRecord {
    pub name: Name24,
    pub pos: [f32; 3],
    pub dir: [f32; 3],
    /// Cone half-angle, radians (π = sphere).
    pub spread: f32,
    pub speed_min: f32,
    pub speed_max: f32,
    pub life_min: f32,
    pub life_max: f32,
    pub gravity: [f32; 3],
    pub damping: f32,
    pub size_min: f32,
    pub size_max: f32,
    pub size_mid: f32,
    pub size_end: f32,
    pub aspect: f32,
    pub angle_min: f32,
    pub angle_max: f32,
    pub spin_min: f32,
    pub spin_max: f32,
    pub wobble_amp: f32,
    pub wobble_freq: f32,
    pub spawn_radius: f32,
    pub knee: f32,
    pub color_start: u32,
    pub color_mid: u32,
    pub color_end: u32,
    /// -1 = built-in radial glow.
    pub texture_id: i32,
    pub count: u16,
    pub flags: u16,
    pub atlas_cols: u8,
    pub atlas_rows: u8,
    pub anim_loops: u8,
    pub reserved0: u8,
    pub seed: u32,
    pub reserved: [u32; 3],
}

impl Default for EmitterRecord {
    /// A small upward puff: valid as it stands.
    fn default() -> Self {
        Self {
            name: Name24::default(),
            pos: [0.0; 3],
            dir: [0.0, 1.0, 0.0],
            spread: 0.3,
            speed_min: 1.0,
            speed_max: 2.0,
            life_min: 0.8,
            life_max: 1.2,
            gravity: [0.0, -1.0, 0.0],
            damping: 0.0,
            size_min: 0.2,
            size_max: 0.3,
            size_mid: 1.0,
            size_end: 0.5,
            aspect: 1.0,
            angle_min: 0.0,
            angle_max: 0.0,
            spin_min: 0.0,
            spin_max: 0.0,
            wobble_amp: 0.0,
            wobble_freq: 0.0,
            spawn_radius: 0.0,
            knee: 0.5,
            color_start: 0xFFFF_FFFF,
            color_mid: 0xFFFF_FFFF,
            color_end: 0x00FF_FFFF,
            texture_id: -1,
            count: 16,
            flags: 0,
            atlas_cols: 1,
            atlas_rows: 1,
            anim_loops: 1,
            reserved0: 0,
            seed: 1,
            reserved: [0; 3],
        }
    }
}

impl EmitterRecord {
    /// Decodes a 176-byte record; `None` if `b` is shorter.
    pub fn decode(b: &[u8]) -> Option<Self> {
        if b.len() < EMITTER_RECORD_SIZE {
            return None;
        }
        let f = |o| f32_at(b, o).unwrap_or(0.0);
        let v = |o| vec3_at(b, o).unwrap_or_default();
        let u = |o| u32_at(b, o).unwrap_or(0);
        Some(Self {
            name: Name24::from_raw(array::<24>(b, 0)?),
            pos: v(0x18),
            dir: v(0x24),
            spread: f(0x30),
            speed_min: f(0x34),
            speed_max: f(0x38),
            life_min: f(0x3C),
            life_max: f(0x40),
            gravity: v(0x44),
            damping: f(0x50),
            size_min: f(0x54),
            size_max: f(0x58),
            size_mid: f(0x5C),
            size_end: f(0x60),
            aspect: f(0x64),
            angle_min: f(0x68),
            angle_max: f(0x6C),
            spin_min: f(0x70),
            spin_max: f(0x74),
            wobble_amp: f(0x78),
            wobble_freq: f(0x7C),
            spawn_radius: f(0x80),
            knee: f(0x84),
            color_start: u(0x88),
            color_mid: u(0x8C),
            color_end: u(0x90),
            texture_id: i32_at(b, 0x94)?,
            count: u16_at(b, 0x98)?,
            flags: u16_at(b, 0x9A)?,
            atlas_cols: u8_at(b, 0x9C)?,
            atlas_rows: u8_at(b, 0x9D)?,
            anim_loops: u8_at(b, 0x9E)?,
            reserved0: u8_at(b, 0x9F)?,
            seed: u(0xA0),
            reserved: [u(0xA4), u(0xA8), u(0xAC)],
        })
    }

    /// Appends the 176-byte record.
    pub fn encode_into(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(self.name.raw());
        out.put_vec3(self.pos);
        out.put_vec3(self.dir);
        for v in [
            self.spread,
            self.speed_min,
            self.speed_max,
            self.life_min,
            self.life_max,
        ] {
            out.put_f32(v);
        }
        out.put_vec3(self.gravity);
        for v in [
            self.damping,
            self.size_min,
            self.size_max,
            self.size_mid,
            self.size_end,
            self.aspect,
            self.angle_min,
            self.angle_max,
            self.spin_min,
            self.spin_max,
            self.wobble_amp,
            self.wobble_freq,
            self.spawn_radius,
            self.knee,
        ] {
            out.put_f32(v);
        }
        out.put_u32(self.color_start);
        out.put_u32(self.color_mid);
        out.put_u32(self.color_end);
        out.put_i32(self.texture_id);
        out.put_u16(self.count);
        out.put_u16(self.flags);
        out.put_u8(self.atlas_cols);
        out.put_u8(self.atlas_rows);
        out.put_u8(self.anim_loops);
        out.put_u8(self.reserved0);
        out.put_u32(self.seed);
        for r in self.reserved {
            out.put_u32(r);
        }
    }

    pub fn is_additive(&self) -> bool {
        self.flags & flags::ADDITIVE != 0
    }

    /// How far from `pos` any particle can reach, plus a margin: the radius of a
    /// sphere for culling the whole emitter. Uses the larger magnitude of both speed
    /// and both size bounds so that no particle can leave it.
    pub fn cull_radius(&self) -> f32 {
        let size = self.size_min.max(self.size_max);
        let grow = 1.0f32.max(self.size_mid).max(self.size_end);
        let speed = self.speed_min.abs().max(self.speed_max.abs());
        let g = crate::vec3::length(self.gravity);
        let life = self.life_max;
        let reach = self.spawn_radius
            + self.wobble_amp
            + 0.725 * size * grow
            + 1.05 * speed * life
            + 0.525 * g * life * life;
        1.1 * reach + 0.05
    }
}

/// A zero-copy view of a well-formed `emitters` lump payload.
#[derive(Debug, Clone, Copy)]
pub struct EmitterLumpRef<'a> {
    payload: &'a [u8],
    /// File offset of the payload.
    pub offset: u64,
    pub version: u32,
    pub count: u32,
    pub reserved: u32,
}

impl<'a> EmitterLumpRef<'a> {
    /// Checks a lump header the way the reference loader does; a lump it would skip
    /// gives a warning and `None`.
    pub fn parse_with(
        payload: &'a [u8],
        offset: u64,
        meta_index: u32,
        warn: &mut dyn FnMut(Warning),
    ) -> Option<Self> {
        let mut skip = |kind| {
            warn(Warning {
                offset: Some(offset),
                section: Section::Metadata(meta_index, EMITTERS_TAG.into()),
                kind,
            });
            None
        };
        let available = payload.len() as u64;
        if payload.len() < EMITTER_LUMP_HEADER_SIZE {
            return skip(WarningKind::EmitterLumpTooShort {
                needed: EMITTER_LUMP_HEADER_SIZE as u64,
                available,
            });
        }
        let magic = u32_at(payload, 0).unwrap_or(0);
        if magic != EMITTER_LUMP_MAGIC {
            return skip(WarningKind::EmitterLumpBadMagic { found: magic });
        }
        let version = u32_at(payload, 4).unwrap_or(0);
        if version > EMITTER_LUMP_VERSION {
            return skip(WarningKind::EmitterLumpVersionNewer { version });
        }
        let count = u32_at(payload, 8).unwrap_or(0);
        let needed =
            EMITTER_LUMP_HEADER_SIZE as u64 + EMITTER_RECORD_SIZE as u64 * u64::from(count);
        if needed > available {
            return skip(WarningKind::EmitterLumpTooShort { needed, available });
        }
        if needed < available {
            warn(Warning {
                offset: Some(offset + needed),
                section: Section::Metadata(meta_index, EMITTERS_TAG.into()),
                kind: WarningKind::EmitterLumpTrailingBytes {
                    count: available - needed,
                },
            });
        }
        Some(Self {
            payload,
            offset,
            version,
            count,
            reserved: u32_at(payload, 12).unwrap_or(0),
        })
    }

    /// The records as stored, each with its file offset.
    pub fn records(&self) -> impl ExactSizeIterator<Item = (Option<u64>, EmitterRecord)> + 'a {
        let base = self.offset + EMITTER_LUMP_HEADER_SIZE as u64;
        let body = self.payload.get(EMITTER_LUMP_HEADER_SIZE..).unwrap_or(&[]);
        body.chunks_exact(EMITTER_RECORD_SIZE)
            .take(self.count as usize)
            .enumerate()
            .map(move |(i, c)| {
                (
                    Some(base + (i * EMITTER_RECORD_SIZE) as u64),
                    EmitterRecord::decode(c).unwrap_or_default(),
                )
            })
    }

    /// Bytes after the last record.
    pub fn trailing(&self) -> &'a [u8] {
        let used = EMITTER_LUMP_HEADER_SIZE + EMITTER_RECORD_SIZE * self.count as usize;
        self.payload.get(used..).unwrap_or(&[])
    }
}

/// An owned `emitters` lump, lossless: a read → write round trip reproduces it.
#[derive(Debug, Clone, PartialEq)]
pub struct EmitterLump {
    /// Records as stored (not sanitised).
    pub records: Vec<EmitterRecord>,
    pub version: u32,
    pub reserved: u32,
    /// Bytes after the last record (tolerated by loaders, kept for the round trip).
    pub trailing: Vec<u8>,
    /// Metadata type word; the reference writer uses 4 (EMITTER).
    pub meta_kind: MetaKind,
    /// Index among the metadata lumps at which it is written; `usize::MAX` = last,
    /// where the reference exporter puts it.
    pub position: usize,
}

impl EmitterLump {
    pub fn new(records: Vec<EmitterRecord>) -> Self {
        Self {
            records,
            version: EMITTER_LUMP_VERSION,
            reserved: 0,
            trailing: Vec::new(),
            meta_kind: MetaKind::Emitter,
            position: usize::MAX,
        }
    }

    pub(crate) fn from_ref(
        lump: &EmitterLumpRef<'_>,
        meta_kind: MetaKind,
        position: usize,
    ) -> Self {
        Self {
            records: lump.records().map(|(_, r)| r).collect(),
            version: lump.version,
            reserved: lump.reserved,
            trailing: lump.trailing().to_vec(),
            meta_kind,
            position,
        }
    }

    /// The payload bytes.
    pub fn encode(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(
            EMITTER_LUMP_HEADER_SIZE
                + EMITTER_RECORD_SIZE * self.records.len()
                + self.trailing.len(),
        );
        out.put_u32(EMITTER_LUMP_MAGIC);
        out.put_u32(self.version);
        out.put_u32(self.records.len() as u32);
        out.put_u32(self.reserved);
        for r in &self.records {
            r.encode_into(&mut out);
        }
        out.extend_from_slice(&self.trailing);
        out
    }
}

struct Clamper<'w> {
    offset: Option<u64>,
    section: Section,
    warn: &'w mut dyn FnMut(Warning),
}

impl Clamper<'_> {
    fn report(&mut self, kind: WarningKind) {
        (self.warn)(Warning {
            offset: self.offset,
            section: self.section.clone(),
            kind,
        });
    }

    /// NaN becomes the lower bound, as in the reference loader.
    fn range(&mut self, field: &'static str, v: &mut f32, lo: f32, hi: f32) {
        let used = if v.is_nan() { lo } else { v.clamp(lo, hi) };
        if used.to_bits() != v.to_bits() {
            self.report(WarningKind::EmitterFieldClamped {
                field,
                found: *v,
                used,
            });
            *v = used;
        }
    }

    /// Values the reference does not clamp, but that would poison every particle.
    fn finite(&mut self, field: &'static str, v: &mut [f32; 3]) {
        for c in v.iter_mut() {
            if !c.is_finite() {
                self.report(WarningKind::EmitterFieldClamped {
                    field,
                    found: *c,
                    used: 0.0,
                });
                *c = 0.0;
            }
        }
    }

    fn small(&mut self, field: &'static str, v: &mut u8, lo: u8, hi: u8) {
        let used = (*v).clamp(lo, hi);
        if used != *v {
            self.report(WarningKind::EmitterFieldClamped {
                field,
                found: f32::from(*v),
                used: f32::from(used),
            });
            *v = used;
        }
    }
}

/// One record after the loader's clamps (budgets not applied): every field in range,
/// `dir` unit length, the name terminated.
pub fn sanitize(
    record: &EmitterRecord,
    index: u32,
    offset: Option<u64>,
    num_textures: u32,
    warn: &mut dyn FnMut(Warning),
) -> EmitterRecord {
    let mut r = *record;
    let mut c = Clamper {
        offset,
        section: Section::Emitter(index, r.name.as_str().into()),
        warn,
    };
    if !r.name.is_terminated() {
        c.report(WarningKind::NameWithoutNul);
    }
    r.name = r.name.normalized();
    c.finite("pos", &mut r.pos);
    c.finite("gravity", &mut r.gravity);
    let len = crate::vec3::length(r.dir);
    if len.is_finite() && len > 1e-20 {
        r.dir = r.dir.map(|x| x / len);
    } else {
        c.report(WarningKind::EmitterDirectionZero);
        r.dir = [0.0, 1.0, 0.0];
    }
    c.range("spread", &mut r.spread, 0.0, PI);
    c.range("speed_min", &mut r.speed_min, -200.0, 200.0);
    c.range("speed_max", &mut r.speed_max, -200.0, 200.0);
    c.range("life_min", &mut r.life_min, 0.01, 600.0);
    let life_min = r.life_min;
    c.range("life_max", &mut r.life_max, life_min, 600.0);
    c.range("damping", &mut r.damping, 0.0, 32.0);
    c.range("size_min", &mut r.size_min, 0.0005, 200.0);
    c.range("size_max", &mut r.size_max, 0.0005, 200.0);
    c.range("size_mid", &mut r.size_mid, 0.0, 64.0);
    c.range("size_end", &mut r.size_end, 0.0, 64.0);
    c.range("aspect", &mut r.aspect, 0.01, 64.0);
    c.range("angle_min", &mut r.angle_min, -2.0 * PI, 2.0 * PI);
    c.range("angle_max", &mut r.angle_max, -2.0 * PI, 2.0 * PI);
    c.range("spin_min", &mut r.spin_min, -64.0, 64.0);
    c.range("spin_max", &mut r.spin_max, -64.0, 64.0);
    c.range("wobble_amp", &mut r.wobble_amp, 0.0, 100.0);
    c.range("wobble_freq", &mut r.wobble_freq, 0.0, 64.0);
    c.range("spawn_radius", &mut r.spawn_radius, 0.0, 200.0);
    c.range("knee", &mut r.knee, 0.05, 0.95);
    c.small("atlas_cols", &mut r.atlas_cols, 1, 16);
    c.small("atlas_rows", &mut r.atlas_rows, 1, 16);
    c.small("anim_loops", &mut r.anim_loops, 1, 16);
    let in_range =
        r.texture_id == -1 || (r.texture_id >= 0 && (r.texture_id as u32) < num_textures);
    if !in_range {
        c.report(WarningKind::EmitterTextureOutOfRange {
            texture_id: r.texture_id,
            num_textures,
        });
        r.texture_id = -1;
    }
    r
}

/// Sanitises every record and applies the budgets (64 emitters, 64 particles each,
/// 256 per map). `each` receives each emitter that shows particles, with its clamped
/// count and the index of its first particle in the map.
pub fn sanitize_all(
    records: impl ExactSizeIterator<Item = (Option<u64>, EmitterRecord)>,
    num_textures: u32,
    warn: &mut dyn FnMut(Warning),
    mut each: impl FnMut(EmitterRecord, u32),
) {
    let total = records.len() as u32;
    let mut used = 0u32;
    for (index, (offset, record)) in records.enumerate() {
        let index = index as u32;
        if index >= MAX_EMITTERS {
            warn(Warning {
                offset,
                section: Section::Emitter(index, record.name.as_str().into()),
                kind: WarningKind::TooManyEmitters {
                    found: total,
                    max: MAX_EMITTERS,
                },
            });
            break;
        }
        let mut r = sanitize(&record, index, offset, num_textures, warn);
        let section = || Section::Emitter(index, r.name.as_str().into());
        let found = u32::from(r.count);
        if found == 0 {
            warn(Warning {
                offset,
                section: section(),
                kind: WarningKind::EmitterCountZero,
            });
            continue;
        }
        let mut count = found;
        if count > MAX_PARTICLES_PER_EMITTER {
            count = MAX_PARTICLES_PER_EMITTER;
            warn(Warning {
                offset,
                section: section(),
                kind: WarningKind::EmitterCountClamped {
                    found,
                    used: count,
                    reason: "at most 64 particles per emitter",
                },
            });
        }
        let left = MAX_PARTICLES_PER_MAP - used;
        if count > left {
            warn(Warning {
                offset,
                section: section(),
                kind: WarningKind::EmitterCountClamped {
                    found,
                    used: left,
                    reason: "at most 256 particles per map",
                },
            });
            count = left;
        }
        if count == 0 {
            continue;
        }
        r.count = count as u16;
        each(r, used);
        used += count;
    }
}
