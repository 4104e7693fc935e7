//! UV scroll: `uv(t) = uv(0) + t·(u, v)` in repeats per second, applied as an offset
//! wrapped to [0, 1) so a long-running clock keeps its precision. Never on atlases.

use crate::format::is_atlas_name;

fn wrap(x: f64) -> f32 {
    let f = x - libm::floor(x);
    // `f` can round up to exactly 1.0 in f32.
    let f = f as f32;
    if f >= 1.0 { 0.0 } else { f }
}

/// The UV offset at scene time `t` seconds for a speed in repeats per second, each
/// component in [0, 1). Computed in f64 so that hours of clock lose nothing.
pub fn scroll_offset(t: f64, speed: [f32; 2]) -> [f32; 2] {
    [wrap(t * f64::from(speed[0])), wrap(t * f64::from(speed[1]))]
}

/// The speed a consumer applies to a mesh: its own, except that untextured meshes
/// and tile-atlas textures never scroll.
pub fn effective_speed(texture_name: Option<&str>, speed: [f32; 2]) -> [f32; 2] {
    match texture_name {
        Some(name) if !is_atlas_name(name) && speed.iter().all(|s| s.is_finite()) => speed,
        _ => [0.0, 0.0],
    }
}
