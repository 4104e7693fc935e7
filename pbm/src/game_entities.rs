//! The `game_entities` lump: the instances of a game's own entity kinds, with
//! their values resolved (defaults filled, clamped, enums and flags as numbers,
//! references as ids), the schema they were written with, and the hash of the
//! definitions, so that code generated from other definitions refuses the map.
//!
//! Self-describing: a reader without generated code finds every kind, field and
//! enum name in the lump. Byte layout: `docs/pbm-format.md`, "The `game_entities`
//! lump". Every offset is checked on reading; nothing is trusted.

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use crate::bytes::{PutLe, array, f32_at, i32_at, u32_at, vec3_at};

/// The lump's tag.
pub const TAG: &str = crate::tag::GAME_ENTITIES;
pub const MAGIC: [u8; 4] = *b"PBGE";
pub const VERSION: u32 = 1;
pub const HEADER_SIZE: usize = 32;
pub const KIND_SIZE: usize = 56;
pub const FIELD_SIZE: usize = 48;
/// An instance's bytes before its values.
pub const INSTANCE_HEAD_SIZE: usize = 40;
/// A pool offset that points at nothing.
pub const NO_NAMES: u32 = u32::MAX;
/// The longest name in a kind or field slot (the slot holds a NUL after it).
pub const NAME_SLOT: usize = 32;

/// A value's type, as its code in a field record.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(u32)]
pub enum ValueType {
    Int = 1,
    Float = 2,
    Bool = 3,
    String = 4,
    Enum = 5,
    Flags = 6,
    Colour = 7,
    Point = 8,
    Asset = 9,
    Entity = 10,
}

impl ValueType {
    pub const ALL: [ValueType; 10] = [
        Self::Int,
        Self::Float,
        Self::Bool,
        Self::String,
        Self::Enum,
        Self::Flags,
        Self::Colour,
        Self::Point,
        Self::Asset,
        Self::Entity,
    ];

    pub fn from_code(code: u32) -> Option<Self> {
        Self::ALL.into_iter().find(|t| *t as u32 == code)
    }

    /// Bytes one value takes in a record or an array.
    pub fn size(self) -> usize {
        if self == Self::Point { 12 } else { 4 }
    }
}

/// One field of a kind as the lump describes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldSchema {
    pub name: String,
    pub ty: ValueType,
    pub array: bool,
    /// An enum's values or a flag set's bits, in order (empty otherwise).
    pub names: Vec<String>,
}

impl FieldSchema {
    /// Bytes the field takes in a record: an array is a pool offset and a count.
    pub fn size(&self) -> usize {
        if self.array { 8 } else { self.ty.size() }
    }
}

/// One kind: its name and fields, in the order its records hold them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KindSchema {
    pub name: String,
    pub fields: Vec<FieldSchema>,
}

impl KindSchema {
    /// The values' bytes in one record.
    pub fn record_size(&self) -> usize {
        self.fields.iter().map(FieldSchema::size).sum()
    }

    pub fn field_index(&self, name: &str) -> Option<usize> {
        self.fields.iter().position(|f| f.name == name)
    }
}

/// A resolved value.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    Int(i32),
    Float(f32),
    Bool(bool),
    String(String),
    Enum(u32),
    Flags(u32),
    /// `0xAABBGGRR`.
    Colour(u32),
    /// World space.
    Point([f32; 3]),
    Asset(String),
    /// An instance's id (its place in the lump, from 1); 0: none.
    Entity(u32),
    Array(Vec<Value>),
}

impl Value {
    fn has_type(&self, ty: ValueType) -> bool {
        matches!(
            (self, ty),
            (Value::Int(_), ValueType::Int)
                | (Value::Float(_), ValueType::Float)
                | (Value::Bool(_), ValueType::Bool)
                | (Value::String(_), ValueType::String)
                | (Value::Enum(_), ValueType::Enum)
                | (Value::Flags(_), ValueType::Flags)
                | (Value::Colour(_), ValueType::Colour)
                | (Value::Point(_), ValueType::Point)
                | (Value::Asset(_), ValueType::Asset)
                | (Value::Entity(_), ValueType::Entity)
        )
    }
}

/// One placed instance.
#[derive(Debug, Clone, PartialEq)]
pub struct Instance {
    /// Its kind's index in [`GameEntities::kinds`].
    pub kind: u32,
    /// Its place in the lump, from 1: what references hold.
    pub id: u32,
    /// World space.
    pub position: [f32; 3],
    /// World rotation, a unit quaternion `[x, y, z, w]`.
    pub rotation: [f32; 4],
    pub name: String,
    /// One per field of its kind, in order.
    pub values: Vec<Value>,
}

/// The whole lump.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct GameEntities {
    /// The hash of the definitions the map was exported with.
    pub hash: u64,
    pub kinds: Vec<KindSchema>,
    /// Grouped by kind in kind order; `instances[k].id == k + 1`.
    pub instances: Vec<Instance>,
}

/// Why a lump cannot be read or written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GameEntitiesError {
    /// The bytes end before what the header or a record promises.
    Truncated { what: &'static str, offset: usize },
    BadMagic,
    UnsupportedVersion(u32),
    /// A count, offset or code out of bounds.
    Invalid { what: &'static str, offset: usize },
    /// A name does not fit its slot or holds a NUL.
    Name(String),
    /// An instance's values do not match its kind's fields.
    Mismatch { instance: u32 },
    /// Instances are not grouped by kind, or their ids are not their places.
    Order { instance: u32 },
}

impl fmt::Display for GameEntitiesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Truncated { what, offset } => {
                write!(f, "game_entities: {what} at byte {offset} runs past the lump's end")
            }
            Self::BadMagic => write!(f, "game_entities: the lump does not start with PBGE"),
            Self::UnsupportedVersion(v) => write!(
                f,
                "game_entities: version {v}; this reader knows version {VERSION}"
            ),
            Self::Invalid { what, offset } => {
                write!(f, "game_entities: {what} at byte {offset} is out of bounds")
            }
            Self::Name(n) => write!(
                f,
                "game_entities: the name \"{n}\" does not fit {} bytes without NULs",
                NAME_SLOT - 1
            ),
            Self::Mismatch { instance } => write!(
                f,
                "game_entities: instance {instance}'s values do not match its kind's fields"
            ),
            Self::Order { instance } => write!(
                f,
                "game_entities: instance {instance} is out of order (instances are grouped by \
                 kind and numbered from 1)"
            ),
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for GameEntitiesError {}

/// Strings and arrays written once each into the pool.
struct Pool {
    bytes: Vec<u8>,
    strings: Vec<(String, u32)>,
}

impl Pool {
    fn string(&mut self, s: &str) -> u32 {
        if let Some((_, at)) = self.strings.iter().find(|(x, _)| x == s) {
            return *at;
        }
        let at = self.bytes.len() as u32;
        self.bytes.extend_from_slice(s.as_bytes());
        self.bytes.push(0);
        self.align();
        self.strings.push((s.into(), at));
        at
    }

    fn align(&mut self) {
        while self.bytes.len() % 4 != 0 {
            self.bytes.push(0);
        }
    }
}

fn put_name(out: &mut Vec<u8>, name: &str) -> Result<(), GameEntitiesError> {
    if name.len() >= NAME_SLOT || name.as_bytes().contains(&0) {
        return Err(GameEntitiesError::Name(name.into()));
    }
    let mut slot = [0u8; NAME_SLOT];
    slot[..name.len()].copy_from_slice(name.as_bytes());
    out.extend_from_slice(&slot);
    Ok(())
}

impl GameEntities {
    pub fn kind_index(&self, name: &str) -> Option<usize> {
        self.kinds.iter().position(|k| k.name == name)
    }

    /// The instances of one kind.
    pub fn of_kind(&self, kind: usize) -> impl Iterator<Item = &Instance> {
        self.instances
            .iter()
            .filter(move |i| i.kind as usize == kind)
    }

    /// The instance a reference holds (`None` for 0 or an id past the end).
    pub fn by_id(&self, id: u32) -> Option<&Instance> {
        self.instances.get((id as usize).checked_sub(1)?)
    }

    /// A field's value on an instance, by name.
    pub fn value<'a>(&'a self, instance: &'a Instance, field: &str) -> Option<&'a Value> {
        let kind = self.kinds.get(instance.kind as usize)?;
        instance.values.get(kind.field_index(field)?)
    }

    /// The lump's bytes. Refuses instances out of order or not matching their
    /// kind, and names that do not fit their slots.
    pub fn encode(&self) -> Result<Vec<u8>, GameEntitiesError> {
        let mut pool = Pool {
            bytes: Vec::new(),
            strings: Vec::new(),
        };
        let mut kinds = Vec::new();
        let mut fields = Vec::new();
        let mut first_field = 0u32;
        let mut first_instance = 0u32;
        let mut checked = 0usize;
        for (k, kind) in self.kinds.iter().enumerate() {
            let count = self.instances[checked..]
                .iter()
                .take_while(|i| i.kind as usize == k)
                .count();
            put_name(&mut kinds, &kind.name)?;
            kinds.put_u32(first_field);
            kinds.put_u32(kind.fields.len() as u32);
            kinds.put_u32(kind.record_size() as u32);
            kinds.put_u32(first_instance);
            kinds.put_u32(count as u32);
            kinds.put_u32(0);
            let mut offset = 0u32;
            for f in &kind.fields {
                put_name(&mut fields, &f.name)?;
                fields.put_u32(f.ty as u32);
                fields.put_u32(u32::from(f.array));
                fields.put_u32(offset);
                let names = if matches!(f.ty, ValueType::Enum | ValueType::Flags) {
                    let offsets: Vec<u32> = f.names.iter().map(|n| pool.string(n)).collect();
                    let at = pool.bytes.len() as u32;
                    pool.bytes.put_u32(offsets.len() as u32);
                    offsets.into_iter().for_each(|o| pool.bytes.put_u32(o));
                    at
                } else {
                    NO_NAMES
                };
                fields.put_u32(names);
                offset += f.size() as u32;
            }
            first_field += kind.fields.len() as u32;
            first_instance += count as u32;
            checked += count;
        }
        if checked != self.instances.len() {
            return Err(GameEntitiesError::Order {
                instance: checked as u32 + 1,
            });
        }
        let mut instances = Vec::new();
        for (k, i) in self.instances.iter().enumerate() {
            let kind = &self.kinds[i.kind as usize];
            if i.id as usize != k + 1 {
                return Err(GameEntitiesError::Order { instance: i.id });
            }
            let fits = i.values.len() == kind.fields.len()
                && i.values.iter().zip(&kind.fields).all(|(v, f)| match v {
                    Value::Array(items) => f.array && items.iter().all(|x| x.has_type(f.ty)),
                    one => !f.array && one.has_type(f.ty),
                });
            if !fits {
                return Err(GameEntitiesError::Mismatch { instance: i.id });
            }
            instances.put_u32(i.kind);
            instances.put_u32(i.id);
            instances.put_vec3(i.position);
            i.rotation.iter().for_each(|c| instances.put_f32(*c));
            let name = pool.string(&i.name);
            instances.put_u32(name);
            for v in &i.values {
                match v {
                    Value::Array(items) => {
                        let mut body = Vec::new();
                        items.iter().for_each(|x| put_one(&mut body, &mut pool, x));
                        let at = pool.bytes.len() as u32;
                        pool.bytes.extend_from_slice(&body);
                        instances.put_u32(at);
                        instances.put_u32(items.len() as u32);
                    }
                    one => put_one(&mut instances, &mut pool, one),
                }
            }
        }
        let mut out = Vec::with_capacity(
            HEADER_SIZE + kinds.len() + fields.len() + instances.len() + pool.bytes.len(),
        );
        out.extend_from_slice(&MAGIC);
        out.put_u32(VERSION);
        out.extend_from_slice(&self.hash.to_le_bytes());
        out.put_u32(self.kinds.len() as u32);
        out.put_u32(first_field);
        out.put_u32(self.instances.len() as u32);
        out.put_u32(pool.bytes.len() as u32);
        out.extend_from_slice(&kinds);
        out.extend_from_slice(&fields);
        out.extend_from_slice(&instances);
        out.extend_from_slice(&pool.bytes);
        Ok(out)
    }

    /// Reads a lump, checking every count, offset, code and name.
    pub fn decode(b: &[u8]) -> Result<Self, GameEntitiesError> {
        use GameEntitiesError::*;
        let trunc = |what, offset| Truncated { what, offset };
        if b.len() < HEADER_SIZE {
            return Err(trunc("the header", 0));
        }
        if array::<4>(b, 0) != Some(MAGIC) {
            return Err(BadMagic);
        }
        let word = |at: usize, what: &'static str| u32_at(b, at).ok_or(trunc(what, at));
        let version = word(4, "the version")?;
        if version != VERSION {
            return Err(UnsupportedVersion(version));
        }
        let hash = u64::from_le_bytes(array::<8>(b, 8).ok_or(trunc("the hash", 8))?);
        let kind_count = word(16, "the kind count")? as usize;
        let field_count = word(20, "the field count")? as usize;
        let instance_count = word(24, "the instance count")? as usize;
        let pool_size = word(28, "the pool size")? as usize;
        // Each count is only as good as the bytes behind it.
        let kinds_at = HEADER_SIZE;
        let fields_at = kind_count
            .checked_mul(KIND_SIZE)
            .and_then(|n| n.checked_add(kinds_at))
            .filter(|end| *end <= b.len())
            .ok_or(trunc("the kind table", kinds_at))?;
        let instances_at = field_count
            .checked_mul(FIELD_SIZE)
            .and_then(|n| n.checked_add(fields_at))
            .filter(|end| *end <= b.len())
            .ok_or(trunc("the field table", fields_at))?;
        let pool_at = b
            .len()
            .checked_sub(pool_size)
            .filter(|p| *p >= instances_at)
            .ok_or(trunc("the pool", instances_at))?;
        let pool = &b[pool_at..];
        let string = |off: u32, at: usize| -> Result<String, GameEntitiesError> {
            let rest = pool.get(off as usize..).ok_or(Invalid {
                what: "a string offset",
                offset: at,
            })?;
            let end = rest.iter().position(|c| *c == 0).ok_or(Invalid {
                what: "a string without its NUL",
                offset: at,
            })?;
            core::str::from_utf8(&rest[..end])
                .map(String::from)
                .map_err(|_| Invalid {
                    what: "a string that is not UTF-8",
                    offset: at,
                })
        };
        let slot_name = |at: usize| -> Result<String, GameEntitiesError> {
            let raw = array::<NAME_SLOT>(b, at).ok_or(trunc("a name", at))?;
            let end = raw.iter().position(|c| *c == 0).ok_or(Invalid {
                what: "a name without its NUL",
                offset: at,
            })?;
            core::str::from_utf8(&raw[..end])
                .map(String::from)
                .map_err(|_| Invalid {
                    what: "a name that is not UTF-8",
                    offset: at,
                })
        };
        let mut kinds = Vec::with_capacity(kind_count);
        let mut runs = Vec::with_capacity(kind_count);
        for k in 0..kind_count {
            let at = kinds_at + k * KIND_SIZE;
            let name = slot_name(at)?;
            let first_field = word(at + 32, "a kind")? as usize;
            let count = word(at + 36, "a kind")? as usize;
            let record_size = word(at + 40, "a kind")? as usize;
            let first_instance = word(at + 44, "a kind")? as usize;
            let instances = word(at + 48, "a kind")? as usize;
            if first_field.checked_add(count).is_none_or(|end| end > field_count) {
                return Err(Invalid {
                    what: "a kind's field range",
                    offset: at + 32,
                });
            }
            let mut fields = Vec::with_capacity(count);
            for f in first_field..first_field + count {
                let fat = fields_at + f * FIELD_SIZE;
                let ty = ValueType::from_code(word(fat + 32, "a field")?).ok_or(Invalid {
                    what: "a field's type code",
                    offset: fat + 32,
                })?;
                let array_flag = word(fat + 36, "a field")? & 1 == 1;
                let names_at = word(fat + 44, "a field")?;
                let mut names = Vec::new();
                if names_at != NO_NAMES {
                    let n = u32_at(pool, names_at as usize).ok_or(Invalid {
                        what: "a field's name list",
                        offset: fat + 44,
                    })? as usize;
                    if n > 32.max(pool.len() / 4) {
                        return Err(Invalid {
                            what: "a field's name count",
                            offset: fat + 44,
                        });
                    }
                    for j in 0..n {
                        let o = u32_at(pool, names_at as usize + 4 + 4 * j).ok_or(Invalid {
                            what: "a field's name list",
                            offset: fat + 44,
                        })?;
                        names.push(string(o, fat + 44)?);
                    }
                }
                fields.push(FieldSchema {
                    name: slot_name(fat)?,
                    ty,
                    array: array_flag,
                    names,
                });
            }
            let kind = KindSchema { name, fields };
            if kind.record_size() != record_size {
                return Err(Invalid {
                    what: "a kind's record size",
                    offset: at + 40,
                });
            }
            runs.push((first_instance, instances));
            kinds.push(kind);
        }
        let mut at = instances_at;
        let mut out = Vec::new();
        for k in 0..instance_count {
            let kind = word(at, "an instance")?;
            let id = word(at + 4, "an instance")?;
            let schema = kinds.get(kind as usize).ok_or(Invalid {
                what: "an instance's kind",
                offset: at,
            })?;
            let (first, n) = runs[kind as usize];
            if id as usize != k + 1 || k < first || k >= first.saturating_add(n) {
                return Err(Order { instance: id });
            }
            let record_end = at + INSTANCE_HEAD_SIZE + schema.record_size();
            if record_end > pool_at {
                return Err(trunc("an instance", at));
            }
            let position = vec3_at(b, at + 8).ok_or(trunc("an instance", at))?;
            let mut rotation = [0.0; 4];
            for (c, r) in rotation.iter_mut().enumerate() {
                *r = f32_at(b, at + 20 + 4 * c).ok_or(trunc("an instance", at))?;
            }
            let name = string(word(at + 36, "an instance")?, at + 36)?;
            let mut values = Vec::with_capacity(schema.fields.len());
            let mut v_at = at + INSTANCE_HEAD_SIZE;
            for f in &schema.fields {
                if f.array {
                    let off = word(v_at, "an array")? as usize;
                    let count = word(v_at + 4, "an array")? as usize;
                    let size = f.ty.size();
                    let end = count
                        .checked_mul(size)
                        .and_then(|n| n.checked_add(off))
                        .filter(|end| *end <= pool.len())
                        .ok_or(Invalid {
                            what: "an array",
                            offset: v_at,
                        })?;
                    let mut items = Vec::with_capacity(count);
                    let mut e = off;
                    while e < end {
                        items.push(read_one(pool, e, f.ty, &string, v_at)?);
                        e += size;
                    }
                    values.push(Value::Array(items));
                } else {
                    values.push(read_one(b, v_at, f.ty, &|o, a| string(o, a), v_at)?);
                }
                v_at += f.size();
            }
            out.push(Instance {
                kind,
                id,
                position,
                rotation,
                name,
                values,
            });
            at = record_end;
        }
        Ok(Self {
            hash,
            kinds,
            instances: out,
        })
    }
}

fn put_one(out: &mut Vec<u8>, pool: &mut Pool, v: &Value) {
    match v {
        Value::Int(x) => out.put_i32(*x),
        Value::Float(x) => out.put_f32(*x),
        Value::Bool(x) => out.put_u32(u32::from(*x)),
        Value::String(s) | Value::Asset(s) => {
            let at = pool.string(s);
            out.put_u32(at);
        }
        Value::Enum(x) | Value::Flags(x) | Value::Colour(x) | Value::Entity(x) => out.put_u32(*x),
        Value::Point(p) => out.put_vec3(*p),
        // Arrays hold no arrays (the writer checked the types).
        Value::Array(_) => {}
    }
}

fn read_one(
    b: &[u8],
    at: usize,
    ty: ValueType,
    string: &dyn Fn(u32, usize) -> Result<String, GameEntitiesError>,
    place: usize,
) -> Result<Value, GameEntitiesError> {
    let trunc = GameEntitiesError::Truncated {
        what: "a value",
        offset: place,
    };
    let w = u32_at(b, at).ok_or(trunc.clone())?;
    Ok(match ty {
        ValueType::Int => Value::Int(i32_at(b, at).ok_or(trunc)?),
        ValueType::Float => Value::Float(f32::from_bits(w)),
        ValueType::Bool => Value::Bool(w != 0),
        ValueType::String => Value::String(string(w, place)?),
        ValueType::Asset => Value::Asset(string(w, place)?),
        ValueType::Enum => Value::Enum(w),
        ValueType::Flags => Value::Flags(w),
        ValueType::Colour => Value::Colour(w),
        ValueType::Entity => Value::Entity(w),
        ValueType::Point => Value::Point(vec3_at(b, at).ok_or(trunc)?),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;

    fn sample() -> GameEntities {
        let s = |x: &str| String::from(x);
        GameEntities {
            hash: 0x0123_4567_89ab_cdef,
            kinds: vec![
                KindSchema {
                    name: s("Switch"),
                    fields: vec![FieldSchema {
                        name: s("once"),
                        ty: ValueType::Bool,
                        array: false,
                        names: vec![],
                    }],
                },
                KindSchema {
                    name: s("Door"),
                    fields: vec![
                        FieldSchema {
                            name: s("key"),
                            ty: ValueType::Enum,
                            array: false,
                            names: vec![s("None"), s("Red")],
                        },
                        FieldSchema {
                            name: s("switch"),
                            ty: ValueType::Entity,
                            array: false,
                            names: vec![],
                        },
                        FieldSchema {
                            name: s("path"),
                            ty: ValueType::Point,
                            array: true,
                            names: vec![],
                        },
                        FieldSchema {
                            name: s("title"),
                            ty: ValueType::String,
                            array: false,
                            names: vec![],
                        },
                    ],
                },
            ],
            instances: vec![
                Instance {
                    kind: 0,
                    id: 1,
                    position: [1.0, 2.0, 3.0],
                    rotation: [0.0, 0.0, 0.0, 1.0],
                    name: s("Lever"),
                    values: vec![Value::Bool(true)],
                },
                Instance {
                    kind: 1,
                    id: 2,
                    position: [4.0, 0.0, -1.0],
                    rotation: [0.0, 0.707, 0.0, 0.707],
                    name: s("Gate"),
                    values: vec![
                        Value::Enum(1),
                        Value::Entity(1),
                        Value::Array(vec![Value::Point([0.0, 1.0, 2.0]), Value::Point([3.0; 3])]),
                        Value::String(s("Gate")),
                    ],
                },
            ],
        }
    }

    #[test]
    fn a_lump_reads_back_as_written() {
        let lump = sample();
        let bytes = lump.encode().expect("encodes");
        assert_eq!(&bytes[..4], b"PBGE");
        assert_eq!(bytes.len() % 4, 0);
        let back = GameEntities::decode(&bytes).expect("decodes");
        assert_eq!(back, lump);
        assert_eq!(back.encode().expect("encodes"), bytes);
        let door = back.by_id(2).expect("door");
        assert_eq!(back.value(door, "switch"), Some(&Value::Entity(1)));
        assert_eq!(back.by_id(0), None);
        assert_eq!(back.of_kind(1).count(), 1);
    }

    #[test]
    fn every_cut_and_every_flipped_byte_is_an_error_or_a_lump() {
        let bytes = sample().encode().expect("encodes");
        for n in 0..bytes.len() {
            assert!(GameEntities::decode(&bytes[..n]).is_err(), "cut at {n}");
        }
        for k in 0..bytes.len() {
            for flip in [0x01u8, 0x80, 0xFF] {
                let mut b = bytes.clone();
                b[k] ^= flip;
                // Never a panic; whatever reads must write again.
                if let Ok(lump) = GameEntities::decode(&b) {
                    let _ = lump.encode();
                }
            }
        }
    }

    #[test]
    fn the_writer_refuses_what_a_reader_could_not_read() {
        let mut lump = sample();
        lump.instances.swap(0, 1);
        assert!(matches!(lump.encode(), Err(GameEntitiesError::Order { .. })));
        let mut lump = sample();
        lump.instances[0].values[0] = Value::Int(3);
        assert_eq!(
            lump.encode(),
            Err(GameEntitiesError::Mismatch { instance: 1 })
        );
        let mut lump = sample();
        lump.kinds[0].name = "x".repeat(32);
        assert!(matches!(lump.encode(), Err(GameEntitiesError::Name(_))));
    }
}
