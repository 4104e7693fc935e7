//! The older binary `entities` lump: 88-byte "patrol sphere" records.

use alloc::vec::Vec;

use crate::bytes::{PutLe, array, f32_at, u32_at, vec3_at};
use crate::name::Name32;

pub const ENTITIES_TAG: &str = crate::tag::ENTITIES;
pub const PATROL_SPHERE_SIZE: usize = 88;
/// The record's `type` word for a patrol sphere.
pub const PATROL_SPHERE_TYPE: u32 = 1;
/// The record stores three waypoints.
pub const MAX_WAYPOINTS: usize = 3;

/// A sphere that patrols its waypoints in a closed loop.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PatrolSphere {
    pub name: Name32,
    pub entity_type: u32,
    pub radius: f32,
    /// 0xAABBGGRR.
    pub color: u32,
    /// m/s.
    pub speed: f32,
    /// Waypoints in use (the record has room for three).
    pub num_waypoints: u32,
    pub waypoints: [[f32; 3]; MAX_WAYPOINTS],
}

impl PatrolSphere {
    pub fn decode(b: &[u8]) -> Option<Self> {
        Some(Self {
            name: Name32::from_raw(array::<32>(b, 0)?),
            entity_type: u32_at(b, 32)?,
            radius: f32_at(b, 36)?,
            color: u32_at(b, 40)?,
            speed: f32_at(b, 44)?,
            num_waypoints: u32_at(b, 48)?,
            waypoints: [vec3_at(b, 52)?, vec3_at(b, 64)?, vec3_at(b, 76)?],
        })
    }

    pub fn encode_into(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(self.name.raw());
        out.put_u32(self.entity_type);
        out.put_f32(self.radius);
        out.put_u32(self.color);
        out.put_f32(self.speed);
        out.put_u32(self.num_waypoints);
        for w in self.waypoints {
            out.put_vec3(w);
        }
    }

    /// The waypoints in use (never more than the record holds).
    pub fn active_waypoints(&self) -> &[[f32; 3]] {
        let n = (self.num_waypoints as usize).min(MAX_WAYPOINTS);
        &self.waypoints[..n]
    }
}

/// Every complete record of an `entities` payload.
pub fn decode_entities(payload: &[u8]) -> impl Iterator<Item = PatrolSphere> + '_ {
    payload
        .chunks_exact(PATROL_SPHERE_SIZE)
        .filter_map(PatrolSphere::decode)
}
