//! Captures: the displayed 5551 frame as a 24-bit BMP, and a JSON file with what
//! produced it (camera, scene time, environment, display mode, the map's hash),
//! written beside the map in `captures/`.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use crate::camera::Camera;
use crate::files;
use crate::gfx::{self, HEIGHT, WIDTH};

/// A bottom-up 24-bit BMP of `rgb` (top row first).
pub fn bmp(rgb: &[[u8; 3]]) -> Vec<u8> {
    let row = (WIDTH * 3).div_ceil(4) * 4;
    let size = 54 + row * HEIGHT;
    let mut out = Vec::with_capacity(size);
    let u32le = |out: &mut Vec<u8>, v: u32| out.extend_from_slice(&v.to_le_bytes());
    out.extend_from_slice(b"BM");
    u32le(&mut out, size as u32);
    u32le(&mut out, 0);
    u32le(&mut out, 54);
    u32le(&mut out, 40);
    u32le(&mut out, WIDTH as u32);
    u32le(&mut out, HEIGHT as u32);
    out.extend_from_slice(&1u16.to_le_bytes());
    out.extend_from_slice(&24u16.to_le_bytes());
    u32le(&mut out, 0);
    u32le(&mut out, (row * HEIGHT) as u32);
    u32le(&mut out, 2835);
    u32le(&mut out, 2835);
    u32le(&mut out, 0);
    u32le(&mut out, 0);
    for y in (0..HEIGHT).rev() {
        let start = out.len();
        for p in &rgb[y * WIDTH..(y + 1) * WIDTH] {
            out.extend_from_slice(&[p[2], p[1], p[0]]);
        }
        out.resize(start + row, 0);
    }
    out
}

#[derive(Clone, Copy)]
pub struct Context<'a> {
    pub dir: &'a str,
    pub map_file: &'a str,
    pub hash: u64,
    pub environment: &'a str,
    pub mode: &'a str,
    /// The LOD bias the frame was drawn with (the `bias` tunable).
    pub lod_bias: f32,
}

/// Writes `captures/capture_NNN.bmp` and `.json` for the frame on display; returns
/// the BMP's path.
pub fn write(n: u32, camera: &Camera, time: f64, ctx: &Context<'_>) -> Result<String, String> {
    let folder = format!("{}/captures", ctx.dir);
    files::make_dir(&folder);
    let rgb = gfx::displayed_rgb();
    let bmp_path = format!("{folder}/capture_{n:03}.bmp");
    files::write(&bmp_path, &bmp(&rgb))?;
    let json = format!(
        "{{\"capture\": {n}, \"map\": \"{}\", \"map_fnv1a64\": \"{:016x}\", \"position\": [{}, {}, {}], \"yaw\": {}, \"pitch\": {}, \"fov\": {}, \"time\": {}, \"environment\": \"{}\", \"display_mode\": \"{}\", \"lod_bias\": {}, \"width\": {WIDTH}, \"height\": {HEIGHT}}}\n",
        ctx.map_file,
        ctx.hash,
        camera.eye[0],
        camera.eye[1],
        camera.eye[2],
        camera.yaw,
        camera.pitch,
        camera.fov_deg,
        time,
        ctx.environment,
        ctx.mode,
        ctx.lod_bias,
    );
    files::write(&format!("{folder}/capture_{n:03}.json"), json.as_bytes())?;
    Ok(bmp_path)
}
