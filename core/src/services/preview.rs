//! A device capture's sidecar: what it says (camera, scene time, environment),
//! and the runtime's moving entities at that frozen time; `pebble_render::compare::
//! editor_picture` draws the editor's picture for it.

use std::path::Path;

use anyhow::Context as _;
use pebble_model::glam::Vec3;

/// What a capture's sidecar says.
#[derive(Debug, Clone, PartialEq)]
pub struct Sidecar {
    pub position: Vec3,
    /// Radians.
    pub yaw: f32,
    pub pitch: f32,
    pub fov: f32,
    pub time: f64,
    pub environment: String,
    pub map_hash: Option<String>,
    /// The runtime's LOD bias when it wrote the capture.
    pub lod_bias: Option<f32>,
}

pub fn read_sidecar(path: &Path) -> anyhow::Result<Sidecar> {
    let text = std::fs::read_to_string(path).with_context(|| {
        format!(
            "cannot read the capture's sidecar {} (the runtime writes it beside each capture)",
            path.display()
        )
    })?;
    let v: serde_json::Value = serde_json::from_str(&text)
        .with_context(|| format!("{}: not valid JSON", path.display()))?;
    let num = |k: &str| -> anyhow::Result<f64> {
        v.get(k)
            .and_then(serde_json::Value::as_f64)
            .filter(|x| x.is_finite())
            .with_context(|| format!("{}: field {k:?} is missing or not a number", path.display()))
    };
    let position = v
        .get("position")
        .and_then(|p| p.as_array())
        .filter(|a| a.len() == 3)
        .and_then(|a| {
            let f = |i: usize| a[i].as_f64().map(|x| x as f32);
            Some(Vec3::new(f(0)?, f(1)?, f(2)?))
        })
        .with_context(|| format!("{}: \"position\" must be [x, y, z]", path.display()))?;
    Ok(Sidecar {
        position,
        yaw: num("yaw")? as f32,
        pitch: num("pitch")? as f32,
        fov: num("fov")? as f32,
        time: num("time")?,
        environment: v
            .get("environment")
            .and_then(|e| e.as_str())
            .unwrap_or("day")
            .to_string(),
        map_hash: v
            .get("map_fnv1a64")
            .and_then(|h| h.as_str())
            .map(str::to_string),
        lod_bias: v
            .get("lod_bias")
            .and_then(serde_json::Value::as_f64)
            .map(|b| b as f32),
    })
}

/// The map's patrol spheres and balls where a frozen clock at `t` puts them (the
/// runtime's own rules from `pebble-play`), as triangles to draw.
pub fn entity_solids(map: &pbm::Map, t: f64) -> Vec<([f32; 3], u32)> {
    let Ok(bytes) = map.to_bytes() else {
        return Vec::new();
    };
    let Ok((view, _)) = pbm::MapView::parse(&bytes) else {
        return Vec::new();
    };
    let (level, _) = pebble_play::Level::from_view(&view);
    pebble_play::shapes::entities_at(&level, t)
        .iter()
        .flat_map(pebble_play::shapes::sphere_triangles)
        .collect()
}
