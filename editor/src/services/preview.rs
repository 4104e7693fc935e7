//! The editor's PSP-look preview of a device capture: what the capture's sidecar
//! says (camera, scene time, environment), the picture the editor draws for it, and
//! the runtime's moving entities at a frozen time.

use std::path::Path;

use anyhow::Context as _;
use pebble_model::glam::Vec3;
use pebble_render::environment::Environment;
use pebble_render::{Camera, DrawScene, Extras, Gpu, RenderOptions, Renderer};

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

/// The editor's PSP-look picture of `map` for a capture's sidecar, at the capture's
/// size, drawn on `gpu` (the editor passes its own device; the command line opens one).
pub fn preview(
    gpu: &Gpu,
    map: &pbm::Map,
    sidecar: &Sidecar,
    width: u32,
    height: u32,
    lod_bias: f32,
) -> anyhow::Result<image::RgbImage> {
    let mut scene = DrawScene::from_map(map);
    scene.environment = Environment::preset(&sidecar.environment);
    let renderer = Renderer::new(gpu, scene)?;
    let mut camera = Camera::psp(sidecar.position, sidecar.yaw, sidecar.pitch);
    camera.fov_y_deg = sidecar.fov;
    let options = RenderOptions {
        width,
        height,
        time: sidecar.time,
        psp: true,
        lod_bias,
        ..Default::default()
    };
    let solids = entity_solids(map, sidecar.time);
    let (image, _) = renderer.render_with(
        &camera,
        &options,
        &Extras {
            solids: &solids,
            ..Default::default()
        },
    )?;
    Ok(image::DynamicImage::ImageRgba8(image).to_rgb8())
}

/// The map's patrol spheres and balls where a frozen clock at `t` puts them (the
/// runtime's own rules from `pebble-play`), as triangles to draw.
pub fn entity_solids(map: &pbm::Map, t: f64) -> Vec<pebble_render::SolidVertex> {
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
        .map(|(pos, color)| pebble_render::SolidVertex { pos, color })
        .collect()
}
