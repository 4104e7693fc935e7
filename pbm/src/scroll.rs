//! UV scroll. A mesh's `uv_scroll` is the direction and speed the *pattern* travels
//! across the surface, in repeats per second (the specification's §5.1.3: falling
//! water on a wall whose V points up has negative V). A pattern moves by +s·t when
//! the surface samples its texture at uv − s·t, so the offset consumers add to
//! texture coordinates (a shader uniform, the GE's `sceGuTexOffset`, which adds)
//! is −s·t, wrapped to [0, 1) so a long-running clock keeps its precision. Never on
//! atlases. (The reference runtime wrote +s·t into the GE register, and one of its
//! waterfalls shipped climbing.)

use crate::format::is_atlas_name;

fn wrap(x: f64) -> f32 {
    let f = x - libm::floor(x);
    // `f` can round up to exactly 1.0 in f32.
    let f = f as f32;
    if f >= 1.0 { 0.0 } else { f }
}

/// The offset to add to texture coordinates at scene time `t` seconds so that the
/// pattern travels at `speed` repeats per second: −t·speed, each component wrapped
/// to [0, 1). Computed in f64 so that hours of clock lose nothing.
pub fn scroll_offset(t: f64, speed: [f32; 2]) -> [f32; 2] {
    [
        wrap(-t * f64::from(speed[0])),
        wrap(-t * f64::from(speed[1])),
    ]
}

/// The speed a consumer applies to a mesh: its own, except that untextured meshes
/// and tile-atlas textures never scroll.
pub fn effective_speed(texture_name: Option<&str>, speed: [f32; 2]) -> [f32; 2] {
    match texture_name {
        Some(name) if !is_atlas_name(name) && speed.iter().all(|s| s.is_finite()) => speed,
        _ => [0.0, 0.0],
    }
}
