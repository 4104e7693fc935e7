//! A project's bulk geometry in a binary file beside it (`level.<hash>.pebble.bin`
//! for `level.pebble.ron`), so that a million-triangle import is not hundreds of
//! megabytes of RON text parsed for seconds. The scene stays in RON; each mesh of
//! [`STORED_FROM_FACES`] faces or more is written as `sidecar: (at, len)`, a span
//! of the binary file.
//!
//! The binary file is named by the FNV-1a 64 of its bytes, which the project also
//! records with their count. A save writes the binary file first (whole, renamed
//! into place) and the project after it, then removes the file's older binaries,
//! so a crash at any moment leaves an old project with its old binary or a new
//! project with its new one. Loading checks the count and the hash and says
//! clearly what is missing or does not match.
//!
//! Serde has no way to hand a serializer extra state, so the binary being written
//! or read is the thread's [`Context`] for the length of one save or load.
//!
//! A stored mesh's bytes, little-endian: the vertex count, the face count and
//! flags (1: colours, 2: normals) as u32; the positions (3 × f32); the colours
//! (4 × f32) and normals (3 × f32) when flagged; then per face its three indices
//! (u32), six UV floats and its material (u32).

use std::cell::RefCell;

use glam::{Vec2, Vec3};
use serde::{Deserialize, Serialize};

use crate::id::MaterialId;
use crate::mesh::{Face, MeshData};

/// Meshes with this many faces or more go to the binary file; smaller ones stay
/// in the RON, readable and diffable.
pub const STORED_FROM_FACES: usize = 4096;

/// What a save or load of this thread is doing with a binary file.
pub(crate) enum Context {
    /// Collecting the stored meshes' bytes, and their hash once the project named
    /// it (no mesh is stored after that, so it holds for the save).
    Writing(Vec<u8>, Option<u64>),
    /// The binary file's bytes, for the stored meshes to be read from.
    Reading(Vec<u8>),
}

thread_local! {
    static CONTEXT: RefCell<Option<Context>> = const { RefCell::new(None) };
}

/// Sets this thread's context for as long as the guard lives.
pub(crate) struct Guard;

impl Guard {
    pub(crate) fn new(context: Context) -> Self {
        CONTEXT.with(|c| *c.borrow_mut() = Some(context));
        Self
    }

    /// Ends the context and returns what was written, with its FNV-1a 64.
    pub(crate) fn finish(self) -> (Vec<u8>, u64) {
        let taken = CONTEXT.with(|c| c.borrow_mut().take());
        std::mem::forget(self);
        match taken {
            Some(Context::Writing(bytes, hash)) => {
                let hash = hash.unwrap_or_else(|| pbm::fnv::fnv1a64(&bytes));
                (bytes, hash)
            }
            _ => (Vec::new(), pbm::fnv::fnv1a64(&[])),
        }
    }
}

impl Drop for Guard {
    fn drop(&mut self) {
        CONTEXT.with(|c| *c.borrow_mut() = None);
    }
}

/// How many bytes this thread's save wrote so far (`None`: no save with a binary
/// file is running).
pub(crate) fn written_len() -> Option<u64> {
    CONTEXT.with(|c| match c.borrow().as_ref() {
        Some(Context::Writing(bytes, _)) => Some(bytes.len() as u64),
        _ => None,
    })
}

/// The bytes written so far in this thread's save and their FNV-1a 64 (`None`:
/// no save with a binary file is running).
pub(crate) fn written() -> Option<(u64, u64)> {
    CONTEXT.with(|c| match c.borrow_mut().as_mut() {
        Some(Context::Writing(bytes, hash)) => {
            let h = *hash.get_or_insert_with(|| pbm::fnv::fnv1a64(bytes));
            Some((bytes.len() as u64, h))
        }
        _ => None,
    })
}

/// Appends `mesh` to the binary file being written, when one is and the mesh is
/// big enough; returns its span.
pub(crate) fn store(mesh: &MeshData) -> Option<(u64, u64)> {
    if mesh.faces.len() < STORED_FROM_FACES {
        return None;
    }
    CONTEXT.with(|c| {
        let mut c = c.borrow_mut();
        let Some(Context::Writing(out, hash)) = c.as_mut() else {
            return None;
        };
        *hash = None;
        let at = out.len() as u64;
        encode(mesh, out);
        Some((at, out.len() as u64 - at))
    })
}

/// The mesh stored at `at`, `len` bytes long, in the binary file being read.
pub(crate) fn fetch(at: u64, len: u64) -> Result<MeshData, String> {
    CONTEXT.with(|c| {
        let c = c.borrow();
        let Some(Context::Reading(bytes)) = c.as_ref() else {
            return Err(
                "a mesh is stored in the project's binary file, but the project names none".into(),
            );
        };
        let span = usize::try_from(at)
            .ok()
            .zip(usize::try_from(len).ok())
            .and_then(|(a, l)| Some(a..a.checked_add(l)?))
            .filter(|s| s.end <= bytes.len())
            .ok_or_else(|| {
                format!(
                    "a mesh is stored at bytes {at}..{} of the binary file, which holds {}",
                    at.saturating_add(len),
                    bytes.len()
                )
            })?;
        decode(&bytes[span])
            .map_err(|e| format!("a mesh stored at byte {at} of the binary file {e}"))
    })
}

fn encode(mesh: &MeshData, out: &mut Vec<u8>) {
    let u32s = |out: &mut Vec<u8>, v: u32| out.extend_from_slice(&v.to_le_bytes());
    let flags = u32::from(mesh.colors.is_some()) | u32::from(mesh.normals.is_some()) << 1;
    u32s(out, mesh.positions.len() as u32);
    u32s(out, mesh.faces.len() as u32);
    u32s(out, flags);
    let f32s = |out: &mut Vec<u8>, values: &[f32]| {
        for v in values {
            out.extend_from_slice(&v.to_le_bytes());
        }
    };
    for p in &mesh.positions {
        f32s(out, &p.to_array());
    }
    for c in mesh.colors.iter().flatten() {
        f32s(out, c);
    }
    for n in mesh.normals.iter().flatten() {
        f32s(out, &n.to_array());
    }
    for f in &mesh.faces {
        for i in f.indices {
            u32s(out, i);
        }
        for uv in f.uvs {
            f32s(out, &uv.to_array());
        }
        u32s(out, f.material.0);
    }
}

/// Reads little-endian words from a byte slice, failing past its end.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn word(&mut self) -> Result<[u8; 4], String> {
        let w = self
            .bytes
            .get(self.at..self.at + 4)
            .ok_or_else(|| format!("ends early, at byte {} of {}", self.at, self.bytes.len()))?;
        self.at += 4;
        Ok([w[0], w[1], w[2], w[3]])
    }

    fn u32(&mut self) -> Result<u32, String> {
        self.word().map(u32::from_le_bytes)
    }

    fn f32s<const N: usize>(&mut self) -> Result<[f32; N], String> {
        let mut v = [0.0; N];
        for x in &mut v {
            *x = f32::from_le_bytes(self.word()?);
        }
        Ok(v)
    }
}

fn decode(bytes: &[u8]) -> Result<MeshData, String> {
    let mut r = Reader { bytes, at: 0 };
    let (vertices, faces, flags) = (r.u32()? as usize, r.u32()? as usize, r.u32()?);
    // Each vertex takes 12 bytes at least and each face 40: counts the span cannot
    // hold are refused before anything is allocated for them.
    if vertices
        .saturating_mul(12)
        .saturating_add(faces.saturating_mul(40))
        > bytes.len()
    {
        return Err(format!(
            "names {vertices} vertices and {faces} faces, more than its {} bytes hold",
            bytes.len()
        ));
    }
    let positions = (0..vertices)
        .map(|_| r.f32s::<3>().map(Vec3::from_array))
        .collect::<Result<Vec<_>, _>>()?;
    let colors = if flags & 1 != 0 {
        Some(
            (0..vertices)
                .map(|_| r.f32s::<4>())
                .collect::<Result<Vec<_>, _>>()?,
        )
    } else {
        None
    };
    let normals = if flags & 2 != 0 {
        Some(
            (0..vertices)
                .map(|_| r.f32s::<3>().map(Vec3::from_array))
                .collect::<Result<Vec<_>, _>>()?,
        )
    } else {
        None
    };
    let faces = (0..faces)
        .map(|_| {
            let indices = [r.u32()?, r.u32()?, r.u32()?];
            let uv = r.f32s::<6>()?;
            Ok(Face {
                indices,
                uvs: [
                    Vec2::new(uv[0], uv[1]),
                    Vec2::new(uv[2], uv[3]),
                    Vec2::new(uv[4], uv[5]),
                ],
                material: MaterialId(r.u32()?),
            })
        })
        .collect::<Result<Vec<_>, String>>()?;
    if r.at != bytes.len() {
        return Err(format!("has {} bytes left over", bytes.len() - r.at));
    }
    Ok(MeshData {
        positions,
        colors,
        normals,
        faces,
    })
}

/// A mesh in a project file: its fields, or a big one inside a save with a binary
/// file as `sidecar: (at, len)`.
impl Serialize for MeshData {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct as _;
        if let Some(span) = store(self) {
            let mut st = s.serialize_struct("MeshData", 1)?;
            st.serialize_field("sidecar", &span)?;
            return st.end();
        }
        let fields = 2 + usize::from(self.colors.is_some()) + usize::from(self.normals.is_some());
        let mut st = s.serialize_struct("MeshData", fields)?;
        st.serialize_field("positions", &self.positions)?;
        match &self.colors {
            // As `Some(…)`, as an optional field was always written.
            Some(_) => st.serialize_field("colors", &self.colors)?,
            None => st.skip_field("colors")?,
        }
        match &self.normals {
            Some(_) => st.serialize_field("normals", &self.normals)?,
            None => st.skip_field("normals")?,
        }
        st.serialize_field("faces", &self.faces)?;
        st.end()
    }
}

impl<'de> Deserialize<'de> for MeshData {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Fields;
        impl<'de> serde::de::Visitor<'de> for Fields {
            type Value = MeshData;

            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a mesh: positions and faces (colors, normals), or a sidecar span")
            }

            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<MeshData, A::Error> {
                use serde::de::Error as _;
                let (mut positions, mut colors, mut normals, mut faces, mut sidecar) =
                    (None, None, None, None, None::<(u64, u64)>);
                while let Some(key) = map.next_key::<String>()? {
                    match key.as_str() {
                        "positions" => positions = Some(map.next_value()?),
                        "colors" => colors = map.next_value()?,
                        "normals" => normals = map.next_value()?,
                        "faces" => faces = Some(map.next_value()?),
                        "sidecar" => sidecar = Some(map.next_value()?),
                        _ => {
                            map.next_value::<serde::de::IgnoredAny>()?;
                        }
                    }
                }
                if let Some((at, len)) = sidecar {
                    if positions.is_some() || faces.is_some() {
                        return Err(A::Error::custom(
                            "a mesh has both its geometry and a sidecar span",
                        ));
                    }
                    return fetch(at, len).map_err(A::Error::custom);
                }
                Ok(MeshData {
                    positions: positions.ok_or_else(|| A::Error::missing_field("positions"))?,
                    colors,
                    normals,
                    faces: faces.ok_or_else(|| A::Error::missing_field("faces"))?,
                })
            }
        }
        d.deserialize_struct(
            "MeshData",
            &["positions", "colors", "normals", "faces", "sidecar"],
            Fields,
        )
    }
}
