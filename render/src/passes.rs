//! Records a frame's passes into a command encoder: the scene pass (chunks in
//! draw-list order with the solids after the opaque ones, then particles, then
//! the editor's overlays) and, in the PSP look, where the scene pass draws only the
//! opaque chunks and the solids, one pass per layer of cutouts, blends and particles
//! after a copy of the frame (`psp_layers`), then the full-screen quantise pass into
//! the 5551 frame.

use std::sync::PoisonError;
use std::sync::atomic::Ordering;

use wgpu::util::DeviceExt;

use image::RgbaImage;

use crate::RenderError;
use crate::camera::{Camera, PSP_ASPECT, PSP_HEIGHT, PSP_WIDTH};
use crate::context::RenderContext;
use crate::frame::{
    Extras, FrameState, FrameStats, FrameTargets, RenderOptions, check_size, draw_list,
    occlusion_cull, write_uniforms,
};
use crate::frustum::Frustum;
use crate::gpu_scene::{GpuScene, ParticleBatch};
use crate::overlay::Overlay;
use crate::pipelines::{DRAW_STRIDE, ScenePipelines};
use crate::psp_layers::{self, LayerDraw};
use crate::readback::read_back;
use crate::scene::{GpuVertex, Pass};

/// A frame recorded but not yet submitted.
pub(crate) struct Recorded {
    pub encoder: wgpu::CommandEncoder,
    /// The texture the frame ends in.
    pub out: wgpu::Texture,
    pub stats: FrameStats,
    pub width: u32,
    pub height: u32,
}

/// The dynamic offset of uniform slot `slot`.
fn slot_offset(slot: usize) -> u32 {
    (slot as u64 * DRAW_STRIDE) as u32
}

/// Records one frame: culls, writes the uniforms and particle vertices, and
/// encodes the passes.
pub(crate) fn record(
    context: &RenderContext,
    scene: &GpuScene,
    frame: &FrameState,
    camera: &Camera,
    options: &RenderOptions,
    extras: &Extras<'_>,
) -> Result<Recorded, RenderError> {
    check_size(options.width, options.height)?;
    // This frame is drawn into the targets over whatever they held.
    *frame.shown.lock().unwrap_or_else(PoisonError::into_inner) = None;
    frame.recorded.fetch_add(1, Ordering::Relaxed);
    let (width, height) = if options.psp {
        (PSP_WIDTH, PSP_HEIGHT)
    } else {
        (options.width, options.height)
    };
    let gpu = &context.gpu;
    let aspect = if options.psp {
        PSP_ASPECT
    } else {
        width as f32 / height as f32
    };
    let clip_from_world = camera.clip_from_world(aspect);
    write_uniforms(context, scene, frame, clip_from_world, options, extras);
    // Pixels per metre at unit depth (perspective) or at any depth (orthographic).
    let focal_px = if camera.ortho_height > 0.0 {
        height as f32 / camera.ortho_height
    } else {
        height as f32 * 0.5 / (camera.fov_y_deg.to_radians() * 0.5).tan()
    };
    let (mut particle_vertices, particles) = scene.particles(
        camera,
        &Frustum::from_clip_from_world(clip_from_world),
        options.time,
        focal_px,
    );
    let list = draw_list(scene, clip_from_world, camera, options);
    // The PSP look: opaque chunks in the first pass, the rest in layers that read
    // the frame (psp_layers.rs).
    let split = list
        .iter()
        .position(|&i| scene.chunk(i).pass != Pass::Opaque)
        .unwrap_or(list.len());
    let layers = if options.psp {
        psp_layers::plan(
            scene,
            &list[split..],
            &mut particle_vertices,
            &particles,
            clip_from_world,
            width,
            height,
        )
    } else {
        Vec::new()
    };
    if !particle_vertices.is_empty() {
        gpu.queue.write_buffer(
            &scene.particle_vertices,
            0,
            bytemuck::cast_slice(&particle_vertices),
        );
    }

    let FrameTargets {
        color,
        depth,
        quantised,
        backdrop,
        ..
    } = frame.targets(&gpu.device, width, height);
    let color_view = color.create_view(&Default::default());
    let depth_view = depth.create_view(&Default::default());
    let (list, chunks_occluded) =
        if options.cull && options.occlusion && !options.psp && camera.ortho_height <= 0.0 {
            occlusion_cull(scene, frame, list, clip_from_world, width, height)
        } else {
            (list, 0)
        };
    let mut stats = FrameStats {
        chunks: scene.chunk_count(),
        chunks_occluded,
        ..Default::default()
    };
    let mut encoder = gpu.device.create_command_encoder(&Default::default());
    {
        let clear = scene.scene.environment.clear;
        let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
            label: Some("scene"),
            color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                view: &color_view,
                depth_slice: None,
                resolve_target: None,
                ops: wgpu::Operations {
                    // The PSP look's alpha 0 marks pixels still holding the clear.
                    load: wgpu::LoadOp::Clear(wgpu::Color {
                        r: f64::from(clear[0]),
                        g: f64::from(clear[1]),
                        b: f64::from(clear[2]),
                        a: if options.psp { 0.0 } else { 1.0 },
                    }),
                    store: wgpu::StoreOp::Store,
                },
            })],
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
        let pipelines = &context.pipelines;
        let look = if options.psp {
            &pipelines.psp
        } else if options.preview_light {
            &pipelines.editor_lit
        } else {
            &pipelines.editor
        };
        pass.set_bind_group(0, &frame.frame_group, &[]);
        let first_pass = if options.psp { &list[..split] } else { &list };
        draw_chunks(
            context, scene, look, &mut pass, first_pass, extras, &mut stats,
        );
        if !options.psp && options.back_faces > 0.0 {
            draw_back_faces(
                context,
                scene,
                look,
                &mut pass,
                &list,
                options.back_faces,
                &mut stats,
            );
        }
        if !options.psp {
            draw_particles(context, scene, &mut pass, &particles, options);
        }
        if let Some(overlay) = extras.overlay.filter(|_| !options.psp) {
            draw_overlay(context, &mut pass, overlay, &mut stats);
        }
    }
    count_particles(&particles, &mut stats);
    if options.psp {
        let layer_pass = PspLayerPass {
            context,
            scene,
            frame,
            color: &color,
            color_view: &color_view,
            depth_view: &depth_view,
            backdrop: &backdrop,
        };
        for layer in &layers {
            layer_pass.record(&mut encoder, layer, options, &mut stats);
        }
    }
    let out = if options.psp {
        quantise(context, &mut encoder, &color_view, &quantised);
        // The selection, the gizmo and the markers over the device's picture (the
        // runtime draws none of them; the editor needs them in every look).
        if let Some(overlay) = extras.overlay {
            overlay_over_psp(
                context,
                frame,
                &mut encoder,
                &quantised,
                &depth_view,
                overlay,
                &mut stats,
            );
        }
        quantised
    } else {
        color
    };
    Ok(Recorded {
        encoder,
        out,
        stats,
        width,
        height,
    })
}

/// The chunks of the draw list, and the solids once the opaque chunks are done
/// (entities go after them, before cutouts and blends, as the runtime draws).
fn draw_chunks(
    context: &RenderContext,
    scene: &GpuScene,
    look: &ScenePipelines,
    pass: &mut wgpu::RenderPass<'_>,
    list: &[usize],
    extras: &Extras<'_>,
    stats: &mut FrameStats,
) {
    let mut bound: Option<Pass> = None;
    let mut bound_batch = None;
    let solid_buffer = (!extras.solids.is_empty()).then(|| {
        let vertices: Vec<GpuVertex> = extras
            .solids
            .iter()
            .map(|v| GpuVertex {
                pos: v.pos,
                uv: [0.0; 2],
                color: v.color,
                face: 0,
            })
            .collect();
        context
            .gpu
            .device
            .create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some("solids"),
                contents: bytemuck::cast_slice(&vertices),
                usage: wgpu::BufferUsages::VERTEX,
            })
    });
    let solid_slot = slot_offset(scene.solids_slot());
    let mut solids_pending = solid_buffer.is_some();
    let draw_solids = |pass: &mut wgpu::RenderPass<'_>, stats: &mut FrameStats| {
        if let Some(buffer) = &solid_buffer {
            pass.set_pipeline(&look.opaque);
            pass.set_vertex_buffer(0, buffer.slice(..));
            pass.set_bind_group(1, &scene.draw_group, &[solid_slot]);
            pass.set_bind_group(2, &context.white, &[]);
            let n = extras.solids.len() as u32;
            pass.draw(0..n, 0..1);
            stats.draw_calls += 1;
            stats.triangles += n as usize / 3;
        }
    };
    for &i in list {
        let c = scene.chunk(i);
        if solids_pending && c.pass != Pass::Opaque {
            draw_solids(pass, stats);
            solids_pending = false;
            bound = None;
            bound_batch = None;
        }
        let (batch, _) = scene.chunk_place(i);
        if bound_batch != Some(batch) {
            pass.set_vertex_buffer(0, scene.batch_of(i).buffer.slice(..));
            bound_batch = Some(batch);
        }
        if bound != Some(c.pass) {
            pass.set_pipeline(match c.pass {
                Pass::Opaque => &look.opaque,
                Pass::Cutout => &look.cutout,
                Pass::Blend => &look.blend,
            });
            bound = Some(c.pass);
        }
        pass.set_bind_group(1, &scene.draw_group, &[slot_offset(i)]);
        pass.set_bind_group(2, scene.surface(c, &context.white), &[]);
        pass.draw(c.first..c.first + c.count, 0..1);
        stats.chunks_drawn += 1;
        stats.draw_calls += 1;
        stats.triangles += c.count as usize / 3;
    }
    if solids_pending {
        draw_solids(pass, stats);
    }
}

/// The opaque chunks' back faces, over what lies beyond them at `opacity` (the
/// editor shows where a single-sided face is seen from behind; the device culls
/// it).
fn draw_back_faces(
    context: &RenderContext,
    scene: &GpuScene,
    look: &ScenePipelines,
    pass: &mut wgpu::RenderPass<'_>,
    list: &[usize],
    opacity: f32,
    stats: &mut FrameStats,
) {
    let k = f64::from(opacity.clamp(0.0, 1.0));
    pass.set_blend_constant(wgpu::Color {
        r: k,
        g: k,
        b: k,
        a: k,
    });
    pass.set_pipeline(&look.back);
    let mut bound_batch = None;
    for &i in list {
        let c = scene.chunk(i);
        if c.pass != Pass::Opaque {
            continue;
        }
        let (batch, _) = scene.chunk_place(i);
        if bound_batch != Some(batch) {
            pass.set_vertex_buffer(0, scene.batch_of(i).buffer.slice(..));
            bound_batch = Some(batch);
        }
        pass.set_bind_group(1, &scene.draw_group, &[slot_offset(i)]);
        pass.set_bind_group(2, scene.surface(c, &context.white), &[]);
        pass.draw(c.first..c.first + c.count, 0..1);
        stats.draw_calls += 1;
    }
}

/// What a frame's particles add to its figures: one draw per emitter, as the
/// runtime makes (the PSP look's layers split them further).
fn count_particles(particles: &[ParticleBatch], stats: &mut FrameStats) {
    for b in particles {
        stats.draw_calls += 1;
        stats.particles += b.count as usize / 6;
        stats.triangles += b.count as usize / 3;
    }
}

/// The PSP look's passes after the first: per layer, the frame copied to the
/// backdrop, then the layer's draws reading it.
struct PspLayerPass<'a> {
    context: &'a RenderContext,
    scene: &'a GpuScene,
    frame: &'a FrameState,
    color: &'a wgpu::Texture,
    color_view: &'a wgpu::TextureView,
    depth_view: &'a wgpu::TextureView,
    backdrop: &'a wgpu::Texture,
}

impl PspLayerPass<'_> {
    fn record(
        &self,
        encoder: &mut wgpu::CommandEncoder,
        layer: &[LayerDraw],
        options: &RenderOptions,
        stats: &mut FrameStats,
    ) {
        let (context, scene) = (self.context, self.scene);
        encoder.copy_texture_to_texture(
            self.color.as_image_copy(),
            self.backdrop.as_image_copy(),
            self.color.size(),
        );
        let backdrop_view = self.backdrop.create_view(&Default::default());
        let backdrop_group = context
            .gpu
            .device
            .create_bind_group(&wgpu::BindGroupDescriptor {
                label: Some("psp backdrop"),
                layout: &context.layouts.psp,
                entries: &[wgpu::BindGroupEntry {
                    binding: 0,
                    resource: wgpu::BindingResource::TextureView(&backdrop_view),
                }],
            });
        let mut pass = continue_pass(encoder, "psp layer", self.color_view, self.depth_view);
        pass.set_bind_group(0, &self.frame.frame_group, &[]);
        pass.set_bind_group(3, &backdrop_group, &[]);
        let look = &context.pipelines.psp;
        for draw in layer {
            match draw {
                LayerDraw::Chunk(i) => {
                    let c = scene.chunk(*i);
                    pass.set_vertex_buffer(0, scene.batch_of(*i).buffer.slice(..));
                    pass.set_pipeline(if c.pass == Pass::Cutout {
                        &look.cutout
                    } else {
                        &look.blend
                    });
                    pass.set_bind_group(1, &scene.draw_group, &[slot_offset(*i)]);
                    pass.set_bind_group(2, scene.surface(c, &context.white), &[]);
                    pass.draw(c.first..c.first + c.count, 0..1);
                    stats.chunks_drawn += 1;
                    stats.draw_calls += 1;
                    stats.triangles += c.count as usize / 3;
                }
                LayerDraw::Particles(b) => {
                    draw_particles(context, scene, &mut pass, std::slice::from_ref(b), options);
                }
            }
        }
    }
}

/// The emitters' particles, blended ones first, then additive.
fn draw_particles(
    context: &RenderContext,
    scene: &GpuScene,
    pass: &mut wgpu::RenderPass<'_>,
    particles: &[ParticleBatch],
    options: &RenderOptions,
) {
    if particles.is_empty() {
        return;
    }
    pass.set_vertex_buffer(0, scene.particle_vertices.slice(..));
    let emitters = &scene.scene.particles.emitters;
    for b in particles {
        pass.set_pipeline(
            &context.pipelines.particles[usize::from(options.psp)][usize::from(b.additive)],
        );
        pass.set_bind_group(
            1,
            &scene.draw_group,
            &[slot_offset(scene.emitter_slot(b.emitter))],
        );
        let e = &emitters[b.emitter];
        let texture = scene.emitter_texture(e);
        let flipbook = u32::from(e.params.atlas_cols) * u32::from(e.params.atlas_rows) > 1;
        let group = scene
            .textures
            .get(texture as usize)
            .map(|t| if flipbook { &t.flipbook } else { &t.emitter })
            .unwrap_or(&context.white);
        pass.set_bind_group(2, group, &[]);
        pass.draw(b.first..b.first + b.count, 0..1);
    }
}

/// The editor's overlay: translucent triangles, then lines, then lines and
/// triangles on top.
fn draw_overlay(
    context: &RenderContext,
    pass: &mut wgpu::RenderPass<'_>,
    overlay: &Overlay,
    stats: &mut FrameStats,
) {
    let pipelines = &context.pipelines.overlay;
    for (vertices, pipeline) in [
        (&overlay.triangles, &pipelines[1]),
        (&overlay.lines, &pipelines[0]),
        (&overlay.on_top, &pipelines[2]),
        (&overlay.on_top_triangles, &pipelines[3]),
    ] {
        if vertices.is_empty() {
            continue;
        }
        let buffer = context
            .gpu
            .device
            .create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some("overlay"),
                contents: bytemuck::cast_slice(vertices),
                usage: wgpu::BufferUsages::VERTEX,
            });
        pass.set_pipeline(pipeline);
        pass.set_vertex_buffer(0, buffer.slice(..));
        pass.draw(0..vertices.len() as u32, 0..1);
        stats.draw_calls += 1;
    }
}

/// The PSP look's last pass: the scene frame through the GE's dither into the
/// 5551 frame, one full-screen triangle.
/// The editor's overlay drawn into the quantised PSP frame, tested against the
/// frame's depth.
fn overlay_over_psp(
    context: &RenderContext,
    frame: &FrameState,
    encoder: &mut wgpu::CommandEncoder,
    quantised: &wgpu::Texture,
    depth_view: &wgpu::TextureView,
    overlay: &Overlay,
    stats: &mut FrameStats,
) {
    let view = quantised.create_view(&Default::default());
    let mut pass = continue_pass(encoder, "overlay over the psp frame", &view, depth_view);
    pass.set_bind_group(0, &frame.frame_group, &[]);
    draw_overlay(context, &mut pass, overlay, stats);
}

/// A pass that draws on over what `color` and `depth` already hold.
fn continue_pass<'e>(
    encoder: &'e mut wgpu::CommandEncoder,
    label: &str,
    color: &wgpu::TextureView,
    depth: &wgpu::TextureView,
) -> wgpu::RenderPass<'e> {
    fn keep<T>() -> wgpu::Operations<T> {
        wgpu::Operations {
            load: wgpu::LoadOp::Load,
            store: wgpu::StoreOp::Store,
        }
    }
    encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
        label: Some(label),
        color_attachments: &[Some(wgpu::RenderPassColorAttachment {
            view: color,
            depth_slice: None,
            resolve_target: None,
            ops: keep(),
        })],
        depth_stencil_attachment: Some(wgpu::RenderPassDepthStencilAttachment {
            view: depth,
            depth_ops: Some(keep()),
            stencil_ops: None,
        }),
        timestamp_writes: None,
        occlusion_query_set: None,
        multiview_mask: None,
    })
}

fn quantise(
    context: &RenderContext,
    encoder: &mut wgpu::CommandEncoder,
    color_view: &wgpu::TextureView,
    quantised: &wgpu::Texture,
) {
    let quantised_view = quantised.create_view(&Default::default());
    let group = context
        .gpu
        .device
        .create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("psp"),
            layout: &context.layouts.psp,
            entries: &[wgpu::BindGroupEntry {
                binding: 0,
                resource: wgpu::BindingResource::TextureView(color_view),
            }],
        });
    let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
        label: Some("psp quantise"),
        color_attachments: &[Some(wgpu::RenderPassColorAttachment {
            view: &quantised_view,
            depth_slice: None,
            resolve_target: None,
            ops: wgpu::Operations {
                load: wgpu::LoadOp::Clear(wgpu::Color::BLACK),
                store: wgpu::StoreOp::Store,
            },
        })],
        depth_stencil_attachment: None,
        timestamp_writes: None,
        occlusion_query_set: None,
        multiview_mask: None,
    });
    pass.set_pipeline(&context.pipelines.psp_quantise);
    pass.set_bind_group(0, &group, &[]);
    pass.draw(0..3, 0..1);
}

/// Records and submits one frame; with `read`, reads it back (upscaled with
/// nearest filtering to the asked size in the PSP look), else waits for the GPU.
pub(crate) fn submit(
    context: &RenderContext,
    scene: &GpuScene,
    frame: &FrameState,
    camera: &Camera,
    options: &RenderOptions,
    extras: &Extras<'_>,
    read: bool,
) -> Result<(Option<RgbaImage>, FrameStats), RenderError> {
    let gpu = &context.gpu;
    let scope = gpu.device.push_error_scope(wgpu::ErrorFilter::Validation);
    let Recorded {
        encoder,
        out,
        stats,
        width,
        height,
    } = match record(context, scene, frame, camera, options, extras) {
        Ok(r) => r,
        Err(e) => {
            let _ = pollster::block_on(scope.pop());
            return Err(e);
        }
    };
    if !read {
        gpu.queue.submit([encoder.finish()]);
        gpu.device
            .poll(wgpu::PollType::wait_indefinitely())
            .map_err(|e| RenderError::Readback(e.to_string()))?;
        if let Some(e) = pollster::block_on(scope.pop()) {
            return Err(RenderError::Gpu(e.to_string()));
        }
        return Ok((None, stats));
    }
    let image = read_back(gpu, encoder, &out, width, height)?;
    if let Some(e) = pollster::block_on(scope.pop()) {
        return Err(RenderError::Gpu(e.to_string()));
    }
    let image = if options.psp && (options.width, options.height) != (width, height) {
        image::imageops::resize(
            &image,
            options.width,
            options.height,
            image::imageops::FilterType::Nearest,
        )
    } else {
        image
    };
    Ok((Some(image), stats))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uniform_slots_sit_at_the_dynamic_offset_stride() {
        assert_eq!(slot_offset(0), 0);
        assert_eq!(slot_offset(1), DRAW_STRIDE as u32);
        assert_eq!(slot_offset(10), 10 * DRAW_STRIDE as u32);
    }
}
