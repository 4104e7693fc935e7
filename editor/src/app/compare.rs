//! The Compare panel: a device capture beside the editor's PSP-look preview at the
//! capture's camera, scene time and environment (its sidecar), shown side by side,
//! as a difference, a heat map, flickering or split by a slider, with PSNR, SSIM,
//! mean error per channel and the share of pixels over 32; and a button that moves
//! the viewport to the capture's camera. The figures are `pebble compare`'s.

use std::path::{Path, PathBuf};

use eframe::egui;
use pebble_model::Scene;
use pebble_render::Gpu;
use pebble_render::compare::{self, Comparison};

use pebble_core::jobs::Job;
use pebble_core::services::preview::{Sidecar, read_sidecar};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Mode {
    #[default]
    SideBySide,
    Difference,
    HeatMap,
    Flicker,
    Slider,
}

/// What the background job works out: the pictures and the figures.
struct Computed {
    sidecar: Sidecar,
    figures: Comparison,
    device: image::RgbImage,
    editor: image::RgbImage,
}

struct Loaded {
    sidecar: Sidecar,
    figures: Comparison,
    device: egui::TextureHandle,
    editor: egui::TextureHandle,
    difference: egui::TextureHandle,
    heat: egui::TextureHandle,
}

#[derive(Default)]
pub struct CompareState {
    pub open: bool,
    /// The capture's path (`captures/capture_NNN.bmp`; its `.json` beside it).
    pub capture: String,
    loaded: Option<Loaded>,
    /// Reading the capture, exporting and drawing the preview, in the background.
    job: Option<Job<Computed>>,
    pub error: Option<String>,
    pub mode: Mode,
    split: f32,
}

impl std::fmt::Debug for CompareState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CompareState")
            .field("capture", &self.capture)
            .field("figures", &self.figures())
            .field("error", &self.error)
            .finish()
    }
}

fn texture(ctx: &egui::Context, name: &str, img: &image::RgbImage) -> egui::TextureHandle {
    let size = [img.width() as usize, img.height() as usize];
    let pixels = egui::ColorImage::from_rgb(size, img.as_raw());
    ctx.load_texture(name, pixels, egui::TextureOptions::NEAREST)
}

impl CompareState {
    pub fn figures(&self) -> Option<Comparison> {
        self.loaded.as_ref().map(|l| l.figures)
    }

    /// What the loaded capture's sidecar says (camera, time, environment).
    pub fn sidecar(&self) -> Option<&Sidecar> {
        self.loaded.as_ref().map(|l| &l.sidecar)
    }

    /// Whether a capture is being loaded and compared.
    pub fn busy(&self) -> bool {
        self.job.is_some()
    }

    /// Starts loading the capture and drawing the preview of `scene` (exported in
    /// memory with its bake, as deployed) for it, on `gpu` (the editor's own
    /// device), in the background.
    pub fn load(&mut self, scene: &Scene, project_dir: &Path, gpu: Gpu) {
        self.error = None;
        let path = PathBuf::from(self.capture.trim());
        let (scene, project_dir) = (scene.clone(), project_dir.to_path_buf());
        self.job = Some(Job::spawn(
            path.clone(),
            "reading the capture",
            move |job| compute(&path, &scene, project_dir, &gpu, job).map_err(|e| format!("{e:#}")),
        ));
    }

    /// Takes the job's outcome once it is in: the pictures become textures.
    fn poll(&mut self, ctx: &egui::Context) {
        let Some(job) = &mut self.job else {
            return;
        };
        ctx.request_repaint_after(std::time::Duration::from_millis(50));
        let Some(r) = job.poll() else {
            return;
        };
        self.job = None;
        match r {
            Ok(c) => {
                self.loaded = Some(Loaded {
                    difference: texture(
                        ctx,
                        "compare difference",
                        &compare::difference(&c.device, &c.editor),
                    ),
                    heat: texture(
                        ctx,
                        "compare heat map",
                        &compare::heat_map(&c.device, &c.editor, &[]),
                    ),
                    device: texture(ctx, "compare device", &c.device),
                    editor: texture(ctx, "compare editor", &c.editor),
                    sidecar: c.sidecar,
                    figures: c.figures,
                });
            }
            Err(e) => {
                self.loaded = None;
                self.error = Some(e);
            }
        }
    }

    /// The panel; returns true when "Move the viewport here" was clicked.
    pub fn window_ui(
        &mut self,
        ctx: &egui::Context,
        scene: &Scene,
        project_dir: &Path,
        gpu: Option<Gpu>,
    ) -> bool {
        self.poll(ctx);
        let mut open = self.open;
        let mut go = false;
        egui::Window::new("Compare").open(&mut open).default_width(1000.0).show(ctx, |ui| {
            ui.horizontal(|ui| {
                ui.label("Capture:");
                ui.text_edit_singleline(&mut self.capture);
                egui::ComboBox::from_id_salt("captures")
                    .selected_text("in the project")
                    .show_ui(ui, |ui| {
                        let dir = project_dir.join("captures");
                        let mut found: Vec<PathBuf> = std::fs::read_dir(&dir)
                            .map(|d| {
                                d.flatten()
                                    .map(|e| e.path())
                                    .filter(|p| p.extension().is_some_and(|e| e.eq_ignore_ascii_case("bmp")))
                                    .collect()
                            })
                            .unwrap_or_default();
                        found.sort();
                        for p in found {
                            let name = p.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
                            if ui.selectable_label(false, name).clicked() {
                                self.capture = p.display().to_string();
                            }
                        }
                    });
                let load = ui.add_enabled(!self.busy(), egui::Button::new("Load"));
                if load.clicked()
                    && let Some(gpu) = gpu.clone()
                {
                    self.load(scene, project_dir, gpu);
                }
                if let Some(job) = &self.job {
                    ui.spinner();
                    ui.label(job.stage.as_str());
                }
            });
            if let Some(e) = &self.error {
                ui.colored_label(egui::Color32::LIGHT_RED, e);
            }
            let Some(l) = &self.loaded else {
                ui.label("Choose a capture (pebble capture import brings them into captures/).");
                return;
            };
            let f = l.figures;
            ui.label(format!(
                "PSNR {:.2} dB   SSIM {:.4}   mean error R {:.2} G {:.2} B {:.2}   {:.2} % of pixels over {}",
                f.psnr,
                f.ssim,
                f.mae[0],
                f.mae[1],
                f.mae[2],
                f.over_threshold * 100.0,
                f.threshold
            ));
            ui.horizontal(|ui| {
                for (m, name) in [
                    (Mode::SideBySide, "Side by side"),
                    (Mode::Difference, "Difference"),
                    (Mode::HeatMap, "Heat map"),
                    (Mode::Flicker, "Flicker"),
                    (Mode::Slider, "Slider"),
                ] {
                    ui.selectable_value(&mut self.mode, m, name);
                }
                if ui.button("Move the viewport here").clicked() {
                    go = true;
                }
            });
            let size = l.device.size_vec2();
            match self.mode {
                Mode::SideBySide => {
                    ui.horizontal(|ui| {
                        ui.vertical(|ui| {
                            ui.label("device");
                            ui.image((l.device.id(), size));
                        });
                        ui.vertical(|ui| {
                            ui.label("editor (PSP look)");
                            ui.image((l.editor.id(), size));
                        });
                    });
                }
                Mode::Difference => {
                    ui.image((l.difference.id(), size));
                }
                Mode::HeatMap => {
                    ui.image((l.heat.id(), size));
                }
                Mode::Flicker => {
                    let t = ui.input(|i| i.time);
                    let device = (t * 2.0) as i64 % 2 == 0;
                    ui.label(if device { "device" } else { "editor" });
                    ui.image((if device { l.device.id() } else { l.editor.id() }, size));
                    ui.ctx().request_repaint_after(std::time::Duration::from_millis(100));
                }
                Mode::Slider => {
                    ui.add(egui::Slider::new(&mut self.split, 0.0..=1.0).text("device | editor"));
                    let (rect, _) = ui.allocate_exact_size(size, egui::Sense::hover());
                    let cut = rect.min.x + rect.width() * self.split;
                    let p = ui.painter();
                    let left = egui::Rect::from_min_max(rect.min, egui::pos2(cut, rect.max.y));
                    let right = egui::Rect::from_min_max(egui::pos2(cut, rect.min.y), rect.max);
                    let uv = |r: egui::Rect| {
                        egui::Rect::from_min_max(
                            egui::pos2((r.min.x - rect.min.x) / rect.width(), 0.0),
                            egui::pos2((r.max.x - rect.min.x) / rect.width(), 1.0),
                        )
                    };
                    p.image(l.device.id(), left, uv(left), egui::Color32::WHITE);
                    p.image(l.editor.id(), right, uv(right), egui::Color32::WHITE);
                    p.vline(cut, rect.y_range(), egui::Stroke::new(1.0, egui::Color32::YELLOW));
                }
            }
        });
        self.open = open;
        go
    }
}

/// Reads the capture and its sidecar, exports `scene`, draws the preview for the
/// capture's camera and compares the two.
fn compute(
    path: &Path,
    scene: &Scene,
    project_dir: PathBuf,
    gpu: &Gpu,
    job: &pebble_core::jobs::JobContext<Computed>,
) -> anyhow::Result<Computed> {
    use anyhow::Context as _;
    let device = image::open(path)
        .with_context(|| format!("cannot read the capture {}", path.display()))?
        .to_rgb8();
    let sidecar = read_sidecar(&path.with_extension("json"))?;
    job.progress("exporting the map", None);
    let bytes = pebble_core::services::export::to_bytes(scene, project_dir, true)?;
    let (map, _) = pbm::Map::read(&bytes).map_err(|e| anyhow::anyhow!("{e}"))?;
    job.progress("drawing the preview", None);
    let editor = pebble_render::compare::editor_picture(
        gpu,
        &map,
        &pebble_render::compare::CaptureView {
            position: sidecar.position,
            yaw: sidecar.yaw,
            pitch: sidecar.pitch,
            fov: sidecar.fov,
            time: sidecar.time,
            environment: &sidecar.environment,
        },
        (device.width(), device.height()),
        sidecar.lod_bias.unwrap_or(1.0),
        &pebble_core::services::preview::entity_solids(&map, sidecar.time),
    )?;
    let figures = compare::compare(&device, &editor, &[], 32).map_err(anyhow::Error::msg)?;
    Ok(Computed {
        sidecar,
        figures,
        device,
        editor,
    })
}
