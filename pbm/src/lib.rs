//! # pbm — the `.pbm` retro map format
//!
//! The format core shared by the Pebble editor and the PSP runtime, so both read the
//! same bytes and show the same particle field. `no_std` + `alloc`; the `std` feature
//! adds `std::error::Error` impls and atomic file helpers.
//!
//! - [`MapView`]: zero-copy, fully bounds-checked reading of v1, v2 and v3 files.
//! - [`Map`]: the owned map; [`Map::to_bytes_as`] writes the exact packed layout.
//! - [`emitter`]: the `emitters` lump, its sanitising clamps and budgets.
//! - [`particle`]: the normative particle evaluation and billboards.
//! - [`scroll`], [`texture`]: UV scroll, texel formats, mips, swizzle.
//! - [`compliance`]: what a conforming map must show beyond being readable.
//! - [`tag`]: the metadata lumps' tags.
//! - [`guard`]: the GE's guard band, and clipping the triangles that reach past it.
//!
//! Byte-level reference: `docs/pbm-format.md` in the repository.

#![no_std]

extern crate alloc;
#[cfg(feature = "std")]
extern crate std;

mod bytes;
pub mod compliance;
pub mod double_sided;
pub mod emitter;
pub mod entity;
pub mod error;
#[cfg(feature = "std")]
pub mod file;
pub mod fnv;
pub mod format;
pub mod game_entities;
pub mod guard;
pub mod map;
pub mod name;
pub mod particle;
pub mod sampler;
pub mod scroll;
pub mod tag;
pub mod texture;
mod vec3;
pub mod view;

pub use emitter::{EmitterLump, EmitterRecord};
pub use error::{ErrorKind, ReadError, Section, Warning, WarningKind, WriteError};
pub use format::{AlphaMode, ColliderKind, Header, MetaKind, TextureFormat, Version};
pub use map::{Collider, Map, Mesh, Metadata, Texture};
pub use name::{FixedName, Name24, Name32};
pub use particle::{ParticleConstants, ParticleField, PreparedEmitter};
pub use view::{MapView, Triangle, Vertex};
