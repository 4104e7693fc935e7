//! The benchmark driving the editor frame by frame: its phases run, the frames
//! timed, the report written when it is done (`pebble bench-editor`).

use super::PebbleApp;
use eframe::egui;
use pebble_core::profiling as sections;
use pebble_viewport::callback::{self, ViewportCallback, ViewportResources};

use super::bench::*;

impl PebbleApp {
    /// The benchmark's part of a frame: counts it, and in the bare-window phase
    /// draws that frame itself, at the end reports. Returns whether the editor
    /// draws this frame as usual.
    pub(super) fn bench_frame(
        &mut self,
        ui: &mut egui::Ui,
        frame: &mut eframe::Frame,
        dt: f32,
    ) -> bool {
        let ctx = ui.ctx().clone();
        let ready = self.viewport.solids_ready(self.doc.scene());
        let Some(b) = &mut self.bench else {
            return true;
        };
        let phase = b.frame(&ctx, ready);
        sections::next_frame(b.measuring());
        match phase {
            Phase::Editor => {
                if b.options.uv_drag {
                    let k = b.drawn;
                    sections::time("UV drag step (the edit)", || {
                        uv_drag::step(&mut self.doc, k)
                    });
                }
                true
            }
            Phase::BareWindow => {
                self.bare_window_ui(ui, frame, dt);
                false
            }
            Phase::Done => {
                if !b.done {
                    b.done = true;
                    self.finish_bench(&ctx, frame);
                }
                false
            }
        }
    }

    /// The benchmark's windowed baseline: this frame holds nothing but the
    /// viewport's picture of the last editor view, where the viewport was, with the
    /// clock running on.
    fn bare_window_ui(&mut self, ui: &mut egui::Ui, frame: &eframe::Frame, dt: f32) {
        let Some(view) = &mut self.viewport.last_view else {
            return;
        };
        let Some(rs) = frame.wgpu_render_state() else {
            return;
        };
        view.options.time += f64::from(dt * self.clock.speed);
        let callback = ViewportCallback {
            baked: false,
            camera: view.camera,
            options: view.options,
            overlay: view.overlay.clone(),
            selected: view.selected.clone(),
            hovered: None,
            solids: view.solids.clone(),
        };
        let rect = view.rect;
        let mut guard = rs.renderer.write();
        let Some(res) = guard.callback_resources.get_mut::<ViewportResources>() else {
            return;
        };
        egui::CentralPanel::default()
            .frame(egui::Frame::NONE)
            .show(ui, |ui| callback::paint(ui, rect, &callback, res));
        drop(guard);
        // Known to the UI cache, which then finds no UI to cache or count.
        self.ui_cache.announce(rect);
    }

    pub(super) fn finish_bench(&mut self, ctx: &egui::Context, frame: &mut eframe::Frame) {
        let Some(b) = &self.bench else { return };
        let (editor_median, editor_p95) = stats(b.editor_times());
        let (window_median, window_p95) = stats(b.window_times());
        let (ui_median, _) = stats(&b.ui_times);
        let frames = b.editor_times().len();
        let options = b.options.clone();
        let resident = resident_mb();
        let result = (|| -> Result<Report, String> {
            let view = self
                .viewport
                .last_view
                .clone()
                .ok_or("the viewport never drew")?;
            let rs = frame.wgpu_render_state().ok_or("no GPU renderer")?;
            let adapter = rs.adapter.get_info();
            let mut guard = rs.renderer.write();
            let res = guard
                .callback_resources
                .get_mut::<ViewportResources>()
                .ok_or("no viewport resources")?;
            let dt = editor_median / 1e3;
            // Warm the off-screen path too, then measure as many frames.
            bare_renderer_times(&res.renderer, &view, 10, dt)?;
            let (times, counts) = bare_renderer_times(&res.renderer, &view, frames, dt)?;
            let (median, p95) = stats(&times);
            let (pick_mesh, pick_marker, markers_built, pick_face) =
                pick_times(&mut res.renderer, &view, self.doc.scene())?;
            let (duplicate_500, paste, paste_triangles) = edits::edit_times()?;
            let budget_readout = edits::readout_time(
                &mut self.budget,
                self.doc.scene(),
                &self.doc.folder(),
                &view.camera,
            )?;
            let size = ctx.content_rect().size();
            Ok(Report {
                frames,
                window: [size.x, size.y],
                viewport_pixels: [view.options.width, view.options.height],
                adapter: format!("{} ({:?})", adapter.name, adapter.backend),
                editor_median_ms: editor_median,
                editor_p95_ms: editor_p95,
                ui_median_ms: ui_median,
                window_renderer_median_ms: window_median,
                window_renderer_p95_ms: window_p95,
                ratio: editor_median / window_median.max(1e-9),
                renderer_median_ms: median,
                renderer_p95_ms: p95,
                offscreen_ratio: editor_median / median.max(1e-9),
                resident_mb: resident,
                triangles: counts.triangles as u64,
                draw_calls: counts.draw_calls as u64,
                particles: counts.particles as u64,
                pick_mesh_median_ms: pick_mesh,
                pick_marker_median_ms: pick_marker,
                markers_built_median_ms: markers_built,
                duplicate_500_median_ms: duplicate_500,
                paste_median_ms: paste,
                paste_triangles,
                budget_readout_median_ms: budget_readout,
                pick_face_median_ms: pick_face,
                uv_drag_triangles: if options.uv_drag {
                    self.doc.faces.counts().0
                } else {
                    0
                },
            })
        })();
        match result {
            Ok(r) => {
                println!(
                    "editor bench: {} frames each, window {:.0}×{:.0} points, viewport {}×{} px, {}",
                    r.frames,
                    r.window[0],
                    r.window[1],
                    r.viewport_pixels[0],
                    r.viewport_pixels[1],
                    r.adapter
                );
                println!(
                    "  whole editor (UI + viewport):       median {:.2} ms  p95 {:.2} ms  (of which the app's ui: {:.2} ms)",
                    r.editor_median_ms, r.editor_p95_ms, r.ui_median_ms
                );
                println!(
                    "  bare renderer in the same window:   median {:.2} ms  p95 {:.2} ms  (its picture alone, presented)",
                    r.window_renderer_median_ms, r.window_renderer_p95_ms
                );
                println!(
                    "  bare renderer off screen:           median {:.2} ms  p95 {:.2} ms  ({} triangles, {} draw calls, {} particles)",
                    r.renderer_median_ms, r.renderer_p95_ms, r.triangles, r.draw_calls, r.particles
                );
                println!(
                    "  editor / bare renderer in the window: {:.2}   (editor / off screen: {:.2})",
                    r.ratio, r.offscreen_ratio
                );
                let stats = self.ui_cache.stats();
                let [cached, redrawn, ordinary, patched] = stats.frames;
                let transfers = stats.copied_after_pass;
                println!(
                    "  UI cache: {} frames drawn from it ({patched} after redrawing what changed, {redrawn} after redrawing it whole), {ordinary} painted without it; {transfers} copied to the window as transfers",
                    cached + patched + redrawn
                );
                println!(
                    "  a click's pick (the ID buffer):    on a mesh {:.2} ms, on a marker {:.2} ms; the markers' triangles built in {:.3} ms",
                    r.pick_mesh_median_ms, r.pick_marker_median_ms, r.markers_built_median_ms
                );
                println!(
                    "  face mode's click (pick + its polygon): {:.2} ms",
                    r.pick_face_median_ms
                );
                if r.uv_drag_triangles > 0 {
                    println!(
                        "  UV drag: every editor frame above moved the UVs of {} picked triangles (one merged step), the UV dock open",
                        r.uv_drag_triangles
                    );
                }
                println!(
                    "  edits (one step each):             duplicate 500 entities {:.2} ms, paste {} triangles from the clipboard {:.2} ms",
                    r.duplicate_500_median_ms, r.paste_triangles, r.paste_median_ms
                );
                println!(
                    "  the PSP budget readout:             {:.4} ms per frame (against a frame of {:.2} ms)",
                    r.budget_readout_median_ms, r.editor_median_ms
                );
                println!("  where a frame goes (median ms per part, main thread):");
                for (what, name, ms, frames) in sections::medians() {
                    println!("    {what:<6} {name:<40} {ms:>7.3}  ({frames} frames)");
                }
                match r.resident_mb {
                    Some(mb) => println!("  resident memory: {mb:.0} MB"),
                    None => println!("  resident memory: unknown on this system"),
                }
                if let Some(path) = &options.json {
                    let text = serde_json::to_string_pretty(&r).unwrap_or_default();
                    if let Err(e) = pbm::file::write_atomic(path, text.as_bytes()) {
                        eprintln!("cannot write {}: {e}", path.display());
                    }
                }
            }
            Err(e) => eprintln!("editor bench failed: {e}"),
        }
        self.allow_close = true;
        ctx.send_viewport_cmd(egui::ViewportCommand::Close);
    }
}
