//! The PSP look's layers of reading draws. The GE blends every cutout, blended
//! chunk and particle with the 5551 value already in the frame and dithers the
//! result, write by write; the PSP look reproduces that in the shader
//! (`scene.wgsl`'s `fs_blend_psp`), which must read the frame as every earlier
//! overlapping draw left it. A draw can only read a copy of the frame made before
//! its pass, so the draws are grouped into layers: a draw goes one layer after
//! the last earlier draw whose screen rectangle it overlaps (on a grid of 8-pixel
//! tiles, which can only overestimate overlap), and each layer is one pass after
//! one copy of the frame. Within a layer nothing overlaps, so the order in it is
//! free; across layers the runtime's order holds wherever draws overlap.
//!
//! Particles are placed quad by quad (the runtime draws an emitter's quads in
//! one list, back to front, each blending over the ones before it), and the quads
//! of one emitter in one layer become one draw.

use pebble_model::glam::{Mat4, Vec3};

use crate::gpu_scene::{GpuScene, ParticleBatch};
use crate::scene::GpuVertex;

/// Tile side in pixels.
const TILE: u32 = 8;

/// At most this many layers (one pass and one frame copy each, about 0.1 ms on
/// lavapipe at 480×272): past it, draws share the last layer, in order, reading the
/// frame as that layer began (the old one-quantise approximation, for them only).
/// 200 sheets stacked measured 43 ms a frame; a map needs more than 256 mutually
/// overlapping translucent draws to reach the cap.
pub(crate) const MAX_LAYERS: u32 = 256;

/// One draw of a layer.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum LayerDraw {
    /// A chunk of the draw list, by index.
    Chunk(usize),
    /// Quads of one emitter, in the reordered particle vertices.
    Particles(ParticleBatch),
}

/// The tiles a draw may touch, inclusive; `None`: nothing on screen.
type TileRect = Option<(u32, u32, u32, u32)>;

/// The grid of the last layer each tile was written in (0: opaque draws only).
struct Grid {
    columns: u32,
    rows: u32,
    layer: Vec<u32>,
}

impl Grid {
    fn new(width: u32, height: u32) -> Self {
        let columns = width.div_ceil(TILE).max(1);
        let rows = height.div_ceil(TILE).max(1);
        Self {
            columns,
            rows,
            layer: vec![0; (columns * rows) as usize],
        }
    }

    /// Places a draw covering `rect`: its layer (from 1), recorded in its tiles.
    fn place(&mut self, rect: TileRect) -> u32 {
        let Some((x0, y0, x1, y1)) = rect else {
            return 1;
        };
        let mut top = 0;
        for y in y0..=y1 {
            for x in x0..=x1 {
                top = top.max(self.layer[(y * self.columns + x) as usize]);
            }
        }
        let layer = (top + 1).min(MAX_LAYERS);
        for y in y0..=y1 {
            for x in x0..=x1 {
                self.layer[(y * self.columns + x) as usize] = layer;
            }
        }
        layer
    }

    /// The tiles under the screen rectangle of `points` (world space); every tile
    /// when a point is at or behind the eye's plane.
    fn rect(&self, clip_from_world: Mat4, points: impl Iterator<Item = Vec3>) -> TileRect {
        let (w, h) = (self.columns * TILE, self.rows * TILE);
        let (mut lo_x, mut lo_y, mut hi_x, mut hi_y) = (f32::MAX, f32::MAX, f32::MIN, f32::MIN);
        for p in points {
            let c = clip_from_world * p.extend(1.0);
            if c.w <= 1e-4 {
                return Some((0, 0, self.columns - 1, self.rows - 1));
            }
            let x = (c.x / c.w * 0.5 + 0.5) * w as f32;
            let y = (0.5 - c.y / c.w * 0.5) * h as f32;
            (lo_x, lo_y, hi_x, hi_y) = (lo_x.min(x), lo_y.min(y), hi_x.max(x), hi_y.max(y));
        }
        // A pixel away, for the rasteriser's rounding.
        let (lo_x, lo_y, hi_x, hi_y) = (lo_x - 1.0, lo_y - 1.0, hi_x + 1.0, hi_y + 1.0);
        if hi_x < 0.0 || hi_y < 0.0 || lo_x >= w as f32 || lo_y >= h as f32 || lo_x > hi_x {
            return None;
        }
        let tile = |v: f32, n: u32| ((v.max(0.0) as u32) / TILE).min(n - 1);
        Some((
            tile(lo_x, self.columns),
            tile(lo_y, self.rows),
            tile(hi_x, self.columns),
            tile(hi_y, self.rows),
        ))
    }
}

/// The layers of `chunks` (the draw list's cutout and blended chunks, in order)
/// and of the particles; `vertices` are reordered so that each layer's quads of
/// one emitter are contiguous.
pub(crate) fn plan(
    scene: &GpuScene,
    chunks: &[usize],
    vertices: &mut Vec<GpuVertex>,
    batches: &[ParticleBatch],
    clip_from_world: Mat4,
    width: u32,
    height: u32,
) -> Vec<Vec<LayerDraw>> {
    let mut grid = Grid::new(width, height);
    let mut layers: Vec<Vec<LayerDraw>> = Vec::new();
    let put = |layers: &mut Vec<Vec<LayerDraw>>, layer: u32, draw: LayerDraw| {
        let k = layer as usize - 1;
        if layers.len() <= k {
            layers.resize(k + 1, Vec::new());
        }
        layers[k].push(draw);
    };
    for &i in chunks {
        let c = scene.chunk(i);
        let corners = (0..8).map(|k| {
            Vec3::new(
                if k & 1 == 0 { c.lo.x } else { c.hi.x },
                if k & 2 == 0 { c.lo.y } else { c.hi.y },
                if k & 4 == 0 { c.lo.z } else { c.hi.z },
            )
        });
        let layer = grid.place(grid.rect(clip_from_world, corners));
        put(&mut layers, layer, LayerDraw::Chunk(i));
    }
    // Each quad's layer, batch by batch in the runtime's order.
    let mut quads: Vec<(u32, usize, u32)> = Vec::new();
    for (b, batch) in batches.iter().enumerate() {
        for q in 0..batch.count / 6 {
            let first = batch.first + q * 6;
            let points = vertices[first as usize..first as usize + 6]
                .iter()
                .map(|v| Vec3::from(v.pos));
            let layer = grid.place(grid.rect(clip_from_world, points));
            quads.push((layer, b, first));
        }
    }
    // Layer by layer, each batch's quads together (stable: the order within a
    // batch and a layer stays).
    quads.sort_by_key(|&(layer, b, _)| (layer, b));
    let mut reordered = Vec::with_capacity(vertices.len());
    let mut k = 0;
    while k < quads.len() {
        let (layer, b, _) = quads[k];
        let first = reordered.len() as u32;
        while k < quads.len() && (quads[k].0, quads[k].1) == (layer, b) {
            let f = quads[k].2 as usize;
            reordered.extend_from_slice(&vertices[f..f + 6]);
            k += 1;
        }
        let batch = &batches[b];
        put(
            &mut layers,
            layer,
            LayerDraw::Particles(ParticleBatch {
                emitter: batch.emitter,
                first,
                count: reordered.len() as u32 - first,
                additive: batch.additive,
            }),
        );
    }
    if !quads.is_empty() {
        *vertices = reordered;
    }
    layers
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_draw_goes_one_layer_after_the_last_it_overlaps_and_disjoint_ones_share() {
        let mut grid = Grid::new(480, 272);
        assert_eq!(grid.place(Some((0, 0, 3, 3))), 1);
        // Beside it: the same layer.
        assert_eq!(grid.place(Some((4, 0, 7, 3))), 1);
        // Over both: after them.
        assert_eq!(grid.place(Some((3, 3, 4, 4))), 2);
        // Over the first only, where the second layer did not reach.
        assert_eq!(grid.place(Some((0, 0, 1, 1))), 2);
        assert_eq!(grid.place(Some((0, 0, 1, 1))), 3);
        // Off screen: first layer, touching nothing.
        assert_eq!(grid.place(None), 1);
        assert_eq!(grid.place(Some((4, 4, 4, 4))), 3);
        // However many overlap, the layers stop at the cap.
        let mut last = 0;
        for _ in 0..MAX_LAYERS + 10 {
            last = grid.place(Some((10, 10, 11, 11)));
        }
        assert_eq!(last, MAX_LAYERS);
    }

    #[test]
    fn screen_rectangles_cover_the_projection_and_the_whole_screen_behind_the_eye() {
        let grid = Grid::new(480, 272);
        let camera = crate::Camera::psp(Vec3::ZERO, 0.0, 0.0);
        let m = camera.clip_from_world(crate::camera::PSP_ASPECT);
        // A point straight ahead lands on the centre tile.
        let centre = grid.rect(m, [Vec3::new(0.0, 0.0, -5.0)].into_iter());
        assert_eq!(centre, Some((29, 16, 30, 17)));
        // Behind the eye: everything.
        let behind = grid.rect(m, [Vec3::new(0.0, 0.0, 5.0)].into_iter());
        assert_eq!(behind, Some((0, 0, 59, 33)));
        // Far to the right, off screen: nothing.
        let off = grid.rect(m, [Vec3::new(100.0, 0.0, -5.0)].into_iter());
        assert_eq!(off, None);
    }
}
