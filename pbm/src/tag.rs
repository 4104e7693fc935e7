//! The metadata lumps' tags, named once: the exporter, the `.pbm` importer, the
//! gameplay rules and the PSP runtime use these, never the bare strings.

/// The map's name (STRING).
pub const MAP_NAME: &str = "map_name";
/// The environment preset's name (STRING): day, dusk, night, dawn.
pub const ENV_PRESET: &str = "env_preset";
/// The player's start (JSON: `position`, `yaw`, `camera_fov`).
pub const PLAYER_SPAWN: &str = "player_spawn";
/// The surfaces the player walks on (ENTITY: world-space f32 triangles).
pub const WALKABLE_MESH: &str = "walkable_mesh";
/// Trigger volumes (JSON array: `id`, `event`, `bounds_min`, `bounds_max`, ...).
pub const TRIGGERS: &str = "triggers";
/// Simulated bodies (JSON: `type` [`BALL_PIT`], `count`, `radius`, ...).
pub const RIGID_BODIES: &str = "rigid_bodies";
/// Sound sources (JSON array: `id`, `position`, `cue`, `radius`, `volume`, `loop`).
pub const SOUND_SOURCES: &str = "sound_sources";
/// The instances of a game's own entity kinds (ENTITY, [`crate::game_entities`]).
pub const GAME_ENTITIES: &str = "game_entities";
/// Patrol spheres' records (ENTITY).
pub const ENTITIES: &str = "entities";
/// Per-texture sampler state (RAW).
pub const SAMPLERS: &str = "samplers";
/// Which meshes are drawn from both sides (RAW).
pub const DOUBLE_SIDED: &str = "double_sided";
/// Particle emitters (the format's own binary lump).
pub const EMITTERS: &str = "emitters";

/// `rigid_bodies`' `type` for a pit of balls.
pub const BALL_PIT: &str = "ball_pit";

/// Every tag above, in the order an export writes them (custom lumps go between
/// `samplers` and `double_sided`).
pub const ALL: [&str; 12] = [
    MAP_NAME,
    ENV_PRESET,
    PLAYER_SPAWN,
    WALKABLE_MESH,
    TRIGGERS,
    RIGID_BODIES,
    SOUND_SOURCES,
    ENTITIES,
    GAME_ENTITIES,
    SAMPLERS,
    DOUBLE_SIDED,
    EMITTERS,
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_are_distinct_and_fit_a_name() {
        for (i, a) in ALL.iter().enumerate() {
            assert!(a.len() < 32, "{a}");
            assert!(ALL[i + 1..].iter().all(|b| a != b), "{a} twice");
        }
    }
}
