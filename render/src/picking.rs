//! What is under the cursor: an ID pass (entity id, face and depth per pixel) over
//! only the small window of the view being asked about, read back and searched
//! for the nearest hit ([`pick`]), or for every id in a rectangle ([`pick_rect`]).

use pebble_model::glam::{Mat4, Vec3, Vec4};

use crate::RenderError;
use crate::camera::Camera;
use crate::context::RenderContext;
use crate::frame::{Extras, FrameState, RenderOptions, check_size, draw_list, write_uniforms};
use crate::gpu_scene::GpuScene;
use crate::pipelines::{DEPTH_FORMAT, DRAW_STRIDE, ID_FORMAT, PICK_DEPTH_FORMAT};
use crate::readback::{copy_region, map_region};
use crate::scene::{GpuVertex, Pass};
use wgpu::util::DeviceExt as _;

/// What the ID buffer holds under the cursor.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PickHit {
    /// The chunk's pick id: an entity id for a scene, mesh index + 1 for a map.
    pub id: u32,
    /// The face within the entity (triangle index for a map's mesh).
    pub face: u32,
    /// The face was seen from behind.
    pub back_face: bool,
    /// The pixel that won (the nearest non-empty one to the cursor).
    pub pixel: (u32, u32),
    /// The world-space point under that pixel (depth buffer unprojected).
    pub world: Vec3,
}

/// The side of the picking window: a hit within 4 pixels of the cursor counts.
pub const PICK_WINDOW: u32 = 9;

/// Marks a face seen from behind in the ID pass's face word.
const BACK_FACE: u32 = 0x8000_0000;

/// A read-back region of the ID buffer: entity ids, face words (bit 31: back
/// face) and depths, row by row.
type IdRegion = (Vec<u32>, Vec<u32>, Vec<f32>);

/// A region of a view: x, y, width, height in pixels.
type Region = (u32, u32, u32, u32);

/// The picking window around (x, y), clipped to a `width × height` view.
fn pick_window(x: u32, y: u32, width: u32, height: u32) -> Region {
    let half = PICK_WINDOW / 2;
    let (x0, y0) = (x.saturating_sub(half), y.saturating_sub(half));
    let (x1, y1) = ((x + half + 1).min(width), (y + half + 1).min(height));
    (x0, y0, x1 - x0, y1 - y0)
}

/// The index in a region's ids of the non-empty pixel nearest to (x, y); ties go
/// to the first in row order.
fn nearest_hit(ids: &[u32], (x0, y0, w, h): Region, (x, y): (u32, u32)) -> Option<usize> {
    (0..(w * h) as usize)
        .filter(|i| ids[*i] != 0)
        .min_by_key(|i| {
            let (px, py) = (x0 + *i as u32 % w, y0 + *i as u32 / w);
            (px.abs_diff(x).pow(2) + py.abs_diff(y).pow(2), *i)
        })
}

/// The projection that stretches `region` of a `width × height` view over a whole
/// target, so that only the region is rasterised (its frustum also culls
/// everything outside it).
fn window_from_view((x, y, w, h): Region, width: u32, height: u32) -> Mat4 {
    let (xa, xb) = (
        x as f32 / width as f32 * 2.0 - 1.0,
        (x + w) as f32 / width as f32 * 2.0 - 1.0,
    );
    let (ya, yb) = (
        1.0 - (y + h) as f32 / height as f32 * 2.0,
        1.0 - y as f32 / height as f32 * 2.0,
    );
    Mat4::from_cols(
        Vec4::new(2.0 / (xb - xa), 0.0, 0.0, 0.0),
        Vec4::new(0.0, 2.0 / (yb - ya), 0.0, 0.0),
        Vec4::new(0.0, 0.0, 1.0, 0.0),
        Vec4::new(-(xa + xb) / (xb - xa), -(ya + yb) / (yb - ya), 0.0, 1.0),
    )
}

/// Draws the ID buffer for a `width × height` view and reads back `region`.
fn id_region(
    context: &RenderContext,
    scene: &GpuScene,
    frame: &FrameState,
    camera: &Camera,
    (width, height, time): (u32, u32, f64),
    region: Region,
    exclude: &[u32],
) -> Result<IdRegion, RenderError> {
    let gpu = &context.gpu;
    let device = &gpu.device;
    let scope = device.push_error_scope(wgpu::ErrorFilter::Validation);
    let (_, _, w, h) = region;
    let options = RenderOptions {
        width,
        height,
        time,
        ..Default::default()
    };
    let full = camera.clip_from_world(width as f32 / height as f32);
    let clip_from_world = window_from_view(region, width, height) * full;
    write_uniforms(
        context,
        scene,
        frame,
        clip_from_world,
        &options,
        &Extras::default(),
    );
    let target = |label, format| {
        device.create_texture(&wgpu::TextureDescriptor {
            label: Some(label),
            size: wgpu::Extent3d {
                width: w,
                height: h,
                depth_or_array_layers: 1,
            },
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format,
            usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC,
            view_formats: &[],
        })
    };
    let ids = target("pick ids", ID_FORMAT);
    let faces = target("pick faces", ID_FORMAT);
    let depths = target("pick depths", PICK_DEPTH_FORMAT);
    let depth = target("pick depth", DEPTH_FORMAT);
    let (ids_view, faces_view, depths_view, depth_view) = (
        ids.create_view(&Default::default()),
        faces.create_view(&Default::default()),
        depths.create_view(&Default::default()),
        depth.create_view(&Default::default()),
    );
    let list = draw_list(scene, clip_from_world, camera, &options);
    let mut encoder = device.create_command_encoder(&Default::default());
    {
        let attachment = |view| {
            Some(wgpu::RenderPassColorAttachment {
                view,
                depth_slice: None,
                resolve_target: None,
                ops: wgpu::Operations {
                    load: wgpu::LoadOp::Clear(wgpu::Color::TRANSPARENT),
                    store: wgpu::StoreOp::Store,
                },
            })
        };
        let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
            label: Some("pick"),
            color_attachments: &[
                attachment(&ids_view),
                attachment(&faces_view),
                attachment(&depths_view),
            ],
            depth_stencil_attachment: Some(wgpu::RenderPassDepthStencilAttachment {
                view: &depth_view,
                depth_ops: Some(wgpu::Operations {
                    load: wgpu::LoadOp::Clear(1.0),
                    store: wgpu::StoreOp::Store,
                }),
                stencil_ops: None,
            }),
            timestamp_writes: None,
            occlusion_query_set: None,
            multiview_mask: None,
        });
        // Cutouts and blends are drawn from both sides, so they are picked from
        // both sides; opaque chunks' back faces only where they are drawn.
        let pipeline_for = |pass: Pass| {
            if frame.pick_back_faces || pass != Pass::Opaque {
                &context.pipelines.pick
            } else {
                &context.pipelines.pick_front
            }
        };
        let mut bound_pipeline = None;
        pass.set_bind_group(0, &frame.frame_group, &[]);
        let mut bound_batch = None;
        for i in list {
            let c = scene.chunk(i);
            let (batch, _) = scene.chunk_place(i);
            let gpu_batch = scene.batch_of(i);
            if gpu_batch.pick_id == 0 || exclude.contains(&gpu_batch.pick_id) {
                continue;
            }
            if bound_batch != Some(batch) {
                pass.set_vertex_buffer(0, gpu_batch.buffer.slice(..));
                bound_batch = Some(batch);
            }
            let opaque = c.pass == Pass::Opaque;
            if bound_pipeline != Some(opaque) {
                pass.set_pipeline(pipeline_for(c.pass));
                bound_pipeline = Some(opaque);
            }
            pass.set_bind_group(1, &scene.draw_group, &[(i as u64 * DRAW_STRIDE) as u32]);
            pass.set_bind_group(2, scene.surface(c, &context.white), &[]);
            pass.draw(c.first..c.first + c.count, 0..1);
        }
        let markers: Vec<GpuVertex> = frame
            .pick_markers
            .iter()
            .flat_map(|part| part.iter())
            .filter(|v| v.id != 0 && !exclude.contains(&v.id))
            .map(|v| GpuVertex {
                pos: v.pos,
                uv: [0.0; 2],
                color: 0xFF_FF_FF_FF,
                face: v.id,
            })
            .collect();
        let whole = markers.len() / 3 * 3;
        if whole > 0 {
            let buffer = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some("pick markers"),
                contents: bytemuck::cast_slice(&markers[..whole]),
                usage: wgpu::BufferUsages::VERTEX,
            });
            pass.set_pipeline(&context.pipelines.pick_marker);
            pass.set_vertex_buffer(0, buffer.slice(..));
            pass.set_bind_group(
                1,
                &scene.draw_group,
                &[(scene.solids_slot() as u64 * DRAW_STRIDE) as u32],
            );
            pass.set_bind_group(2, &context.white, &[]);
            pass.draw(0..whole as u32, 0..1);
        }
    }
    let [ids_buffer, faces_buffer, depth_buffer] = [&ids, &faces, &depths]
        .map(|t| copy_region(gpu, &mut encoder, t, wgpu::TextureAspect::All, (0, 0, w, h)));
    gpu.queue.submit([encoder.finish()]);
    let read = |buffer: &wgpu::Buffer| map_region(gpu, buffer, w, h);
    let ids = read(&ids_buffer)?
        .into_iter()
        .map(u32::from_le_bytes)
        .collect();
    let faces = read(&faces_buffer)?
        .into_iter()
        .map(u32::from_le_bytes)
        .collect();
    let depths = read(&depth_buffer)?
        .into_iter()
        // The target holds the float's bits.
        .map(f32::from_le_bytes)
        .collect();
    if let Some(e) = pollster::block_on(scope.pop()) {
        return Err(RenderError::Gpu(e.to_string()));
    }
    Ok((ids, faces, depths))
}

/// What is under pixel (x, y) of a `width × height` view: the nearest non-empty
/// pixel of the 9×9 window around it, with the world point under it. Hidden and
/// locked chunks (pick id 0), those of the `exclude` ids and cut-out texels are
/// never hit.
pub(crate) fn pick(
    context: &RenderContext,
    scene: &GpuScene,
    frame: &FrameState,
    camera: &Camera,
    (width, height, time): (u32, u32, f64),
    (x, y): (u32, u32),
    exclude: &[u32],
) -> Result<Option<PickHit>, RenderError> {
    check_size(width, height)?;
    if x >= width || y >= height {
        return Ok(None);
    }
    let region = pick_window(x, y, width, height);
    let (ids, faces, depths) = id_region(
        context,
        scene,
        frame,
        camera,
        (width, height, time),
        region,
        exclude,
    )?;
    let Some(i) = nearest_hit(&ids, region, (x, y)) else {
        return Ok(None);
    };
    let (x0, y0, w, _) = region;
    let pixel = (x0 + i as u32 % w, y0 + i as u32 / w);
    let ndc = Vec3::new(
        (pixel.0 as f32 + 0.5) / width as f32 * 2.0 - 1.0,
        1.0 - (pixel.1 as f32 + 0.5) / height as f32 * 2.0,
        depths[i],
    );
    let world = camera
        .clip_from_world(width as f32 / height as f32)
        .inverse()
        .project_point3(ndc);
    Ok(Some(PickHit {
        id: ids[i],
        face: faces[i] & !BACK_FACE,
        back_face: faces[i] & BACK_FACE != 0,
        pixel,
        world,
    }))
}

/// The pick ids visible anywhere in the rectangle between two corners (box
/// select), sorted.
pub(crate) fn pick_rect(
    context: &RenderContext,
    scene: &GpuScene,
    frame: &FrameState,
    camera: &Camera,
    (width, height, time): (u32, u32, f64),
    a: (u32, u32),
    b: (u32, u32),
) -> Result<Vec<u32>, RenderError> {
    check_size(width, height)?;
    let (x0, x1) = (a.0.min(b.0).min(width - 1), a.0.max(b.0).min(width - 1));
    let (y0, y1) = (a.1.min(b.1).min(height - 1), a.1.max(b.1).min(height - 1));
    let (ids, _, _) = id_region(
        context,
        scene,
        frame,
        camera,
        (width, height, time),
        (x0, y0, x1 - x0 + 1, y1 - y0 + 1),
        &[],
    )?;
    let mut seen: Vec<u32> = ids.into_iter().filter(|id| *id != 0).collect();
    seen.sort_unstable();
    seen.dedup();
    Ok(seen)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_window_is_nine_pixels_square_and_clipped_at_the_view_edges() {
        assert_eq!(pick_window(50, 40, 100, 100), (46, 36, 9, 9));
        assert_eq!(pick_window(0, 0, 100, 100), (0, 0, 5, 5));
        assert_eq!(pick_window(99, 99, 100, 100), (95, 95, 5, 5));
        assert_eq!(pick_window(0, 0, 1, 1), (0, 0, 1, 1));
    }

    #[test]
    fn the_nearest_non_empty_pixel_wins_and_ties_go_to_the_first() {
        let region = (10, 20, 3, 3);
        let mut ids = vec![0; 9];
        assert_eq!(nearest_hit(&ids, region, (11, 21)), None);
        // Corners at distance² 2, the centre row's ends at 1.
        ids[0] = 7;
        ids[8] = 8;
        assert_eq!(nearest_hit(&ids, region, (11, 21)), Some(0));
        ids[5] = 9;
        assert_eq!(nearest_hit(&ids, region, (11, 21)), Some(5));
        ids[3] = 4;
        assert_eq!(nearest_hit(&ids, region, (11, 21)), Some(3));
        ids[4] = 1;
        assert_eq!(nearest_hit(&ids, region, (11, 21)), Some(4));
    }

    #[test]
    fn the_window_projection_maps_the_region_onto_the_whole_target() {
        let m = window_from_view((25, 50, 50, 25), 100, 100);
        // The region's corners in the view's NDC (y up): x −0.5..0.5, y −0.5..0.
        let corner = |x: f32, y: f32| m.project_point3(Vec3::new(x, y, 0.3));
        assert!((corner(-0.5, 0.0) - Vec3::new(-1.0, 1.0, 0.3)).length() < 1e-6);
        assert!((corner(0.5, -0.5) - Vec3::new(1.0, -1.0, 0.3)).length() < 1e-6);
        // The whole view maps to itself.
        let identity = window_from_view((0, 0, 100, 100), 100, 100);
        assert!(identity.abs_diff_eq(Mat4::IDENTITY, 1e-6));
    }
}
