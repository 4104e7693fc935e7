//! Code a game reads its map's entities with, generated from the project's
//! definitions: a Rust module on `pbm` ([`rust`]) and a C99 header and reader
//! ([`c`]). Both check the map's definitions hash against their own.

pub mod c;
pub mod names;
pub mod rust;
