//! File › Import of a model (glTF, GLB, TMD): a window before the import that
//! shows the size the model has as read, and sets how big it comes in (a scale,
//! or "fit the longest side to N m"), which way is up (Y, or Z as many exporters
//! and every CAD tool write), and for a TMD the TIM file its texture is in. The
//! model then stands where the view looks, on the surface there. The window owns
//! its state and says what was chosen; the app runs the import.

use std::path::{Path, PathBuf};

use eframe::egui;
use pebble_model::glam::Vec3;
use pebble_model::{Aabb, History, Scene};

use pebble_core::jobs::Job;

pub use pebble_core::services::placement::{
    PictureOrientation, PicturePlacement, Placement, Size, Up,
};

/// How a finished import is put in place: a model as the import window says, a
/// picture as the picture window says.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Placing {
    Model(Placement),
    Picture(PicturePlacement),
}

impl Placing {
    pub fn apply(&self, t: pebble_model::Transform) -> pebble_model::Transform {
        match self {
            Self::Model(p) => p.apply(t),
            Self::Picture(p) => p.apply(t),
        }
    }
}

/// File › Import of a picture (PNG, JPEG, TGA, BMP, WebP): how tall it comes in and
/// how it stands — on the floor, upright as on a wall, or facing the camera —
/// where the view looks (it came in flat at the origin, under the floor).
#[derive(Debug)]
pub struct PictureDialog {
    pub path: PathBuf,
    height: f32,
    orientation: PictureOrientation,
    at: Vec3,
    yaw: f32,
    pitch: f32,
}

/// What the picture window asks for.
#[derive(Debug, Clone, PartialEq)]
pub enum PictureOutcome {
    Import {
        path: PathBuf,
        placement: PicturePlacement,
    },
    Cancel,
}

/// Where File › Import puts a picture seen from `view`: looking at a wall, it
/// hangs on it, facing away from it, a centimetre proud (it stood upright where
/// the view's middle met the wall, and ended inside it); else at `floor`, turned
/// to the view. Its lower edge's middle, and the yaw it faces along.
pub fn picture_place(
    scene: &pebble_model::Scene,
    view: &pebble_viewport::navigation::OrbitCamera,
    floor: Vec3,
) -> (Vec3, f32) {
    let hit = pebble_viewport::tools::clearance::first_hit(
        scene,
        view.eye(),
        view.forward(),
        view.distance + 1.0,
    )
    .filter(|(_, normal)| normal.y.abs() < 0.7);
    match hit {
        Some((point, normal)) => (
            point + normal * 0.01 - Vec3::Y * 0.5,
            (-normal.x).atan2(normal.z),
        ),
        None => (floor, view.yaw),
    }
}

impl PictureDialog {
    /// For `path`, to stand on `at`, for a view looking along `yaw` and `pitch`.
    pub fn open(path: PathBuf, at: Vec3, (yaw, pitch): (f32, f32)) -> Self {
        Self {
            path,
            height: 1.0,
            orientation: PictureOrientation::default(),
            at,
            yaw,
            pitch,
        }
    }

    /// The placement as chosen so far.
    pub fn placement(&self) -> PicturePlacement {
        PicturePlacement {
            height: self.height,
            orientation: self.orientation,
            at: self.at,
            yaw: self.yaw,
            pitch: self.pitch,
        }
    }

    pub fn ui(&mut self, ctx: &egui::Context) -> Option<PictureOutcome> {
        let name = self
            .path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let mut outcome = None;
        let mut open = true;
        egui::Window::new(format!("Import {name}"))
            .open(&mut open)
            .collapsible(false)
            .resizable(false)
            .show(ctx, |ui| {
                ui.horizontal(|ui| {
                    let l = ui.label("height");
                    ui.add(
                        egui::DragValue::new(&mut self.height)
                            .range(0.05..=100.0)
                            .speed(0.05)
                            .suffix(" m"),
                    )
                    .labelled_by(l.id);
                });
                ui.label("stands");
                for o in PictureOrientation::ALL {
                    ui.radio_value(&mut self.orientation, o, o.label());
                }
                ui.weak(format!(
                    "where the view looks, at ({:.1}, {:.1}, {:.1})",
                    self.at.x, self.at.y, self.at.z
                ));
                ui.horizontal(|ui| {
                    if ui.button("Import").clicked() {
                        outcome = Some(PictureOutcome::Import {
                            path: self.path.clone(),
                            placement: self.placement(),
                        });
                    }
                    if ui.button("Cancel").clicked() {
                        outcome = Some(PictureOutcome::Cancel);
                    }
                });
            });
        if !open || ctx.input(|i| i.key_pressed(egui::Key::Escape)) {
            return Some(PictureOutcome::Cancel);
        }
        outcome
    }
}

/// What the window asks for.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    Import {
        path: PathBuf,
        tim: Option<PathBuf>,
        placement: Placement,
    },
    Cancel,
}

/// The model's bounds as read, found in the background.
type Preview = Job<Aabb>;

#[derive(Debug)]
pub struct ImportDialog {
    pub path: PathBuf,
    size: Size,
    up: Up,
    tim: String,
    preview: Option<Preview>,
    /// The bounds as read, or why the file does not read.
    raw: Option<Result<Aabb, String>>,
    /// Where the model will stand.
    at: Vec3,
    /// The fit's length while the other mode is chosen (kept between switches).
    fit_metres: f32,
    scale: f32,
    /// The scale the import set by itself for units that were clearly wrong
    /// (centimetres, millimetres), and what it says of it.
    units_fixed: Option<(f32, String)>,
}

/// Whether `path` is a model the dialog is for (a map or an image imports at once).
pub fn is_model(path: &Path) -> bool {
    let ext = path
        .extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default();
    matches!(ext.as_str(), "gltf" | "glb" | "tmd")
}

fn is_tmd(path: &Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("tmd"))
}

/// The bounds of what importing `path` makes, as read.
fn read_bounds(path: &Path, project_dir: &Path, tim: Option<PathBuf>) -> Result<Aabb, String> {
    let mut options = pebble_io::import::ImportOptions::new(project_dir);
    options.tim = tim;
    let imported =
        pebble_io::import::import_file(path, &options, &mut |_| {}).map_err(|e| e.to_string())?;
    let mut scene = Scene::new();
    History::default()
        .execute(&mut scene, imported.command.without_settings())
        .map_err(|e| e.to_string())?;
    scene
        .bounds()
        .ok_or_else(|| "the file holds no geometry".to_string())
}

impl ImportDialog {
    /// The window for `path`, reading its size in the background (into a scratch
    /// folder); the model will stand at `at`.
    /// Where the model will stand (the middle of its base).
    pub fn at(&self) -> Vec3 {
        self.at
    }

    pub fn open(path: PathBuf, at: Vec3) -> Self {
        let file = path.clone();
        // Textures the reading writes go to a scratch folder: only the real
        // import writes into the project.
        let scratch =
            std::env::temp_dir().join(format!("pebble-import-preview-{}", std::process::id()));
        let preview = Job::spawn(path.clone(), "reading", move |_| {
            let _ = std::fs::create_dir_all(&scratch);
            read_bounds(&file, &scratch, None)
        });
        Self {
            path,
            size: Size::Scale(1.0),
            up: Up::Y,
            tim: String::new(),
            preview: Some(preview),
            raw: None,
            at,
            fit_metres: 2.0,
            scale: 1.0,
            units_fixed: None,
        }
    }

    /// The placement as chosen, once the size as read is known.
    pub fn placement(&self) -> Option<Placement> {
        let raw = self.raw.as_ref()?.as_ref().ok()?;
        Some(Placement {
            raw: *raw,
            size: self.size,
            up: self.up,
            at: self.at,
        })
    }

    /// Waits for the size as read (tests).
    pub fn wait(&mut self) {
        while self.raw.is_none() {
            self.poll();
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
    }

    fn poll(&mut self) {
        if let Some(job) = &mut self.preview
            && let Some(r) = job.poll()
        {
            // Units clearly wrong, while the scale is still the file's own:
            // fixed at once, and said (the command line does the same).
            if let Ok(raw) = &r
                && self.size == Size::Scale(1.0)
                && let Some((scale, units)) =
                    pebble_core::services::placement::units_hint(raw, self.up)
                && pebble_core::services::placement::fixed_at_import(scale)
            {
                self.scale = scale;
                self.size = Size::Scale(scale);
                let line =
                    pebble_core::services::placement::units_fixed_line(raw, self.up, scale, units);
                self.units_fixed = Some((scale, line));
            }
            self.raw = Some(r);
            self.preview = None;
        }
    }

    pub fn ui(&mut self, ctx: &egui::Context) -> Option<Outcome> {
        self.poll();
        if self.preview.is_some() {
            ctx.request_repaint_after(std::time::Duration::from_millis(50));
        }
        let mut outcome = None;
        let mut open = true;
        let name = self
            .path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        egui::Window::new(format!("Import {name}"))
            .open(&mut open)
            .collapsible(false)
            .resizable(false)
            .show(ctx, |ui| outcome = self.contents(ui));
        if !open || ctx.input(|i| i.key_pressed(egui::Key::Escape)) {
            return Some(Outcome::Cancel);
        }
        outcome
    }

    fn contents(&mut self, ui: &mut egui::Ui) -> Option<Outcome> {
        let metres = |b: &Aabb| {
            let s = b.max - b.min;
            format!("{:.2} × {:.2} × {:.2} m", s.x, s.y, s.z)
        };
        match &self.raw {
            None => {
                ui.label("reading the model's size…");
            }
            Some(Err(e)) => {
                ui.colored_label(
                    ui.visuals().error_fg_color,
                    format!("it does not read: {e}"),
                );
            }
            Some(Ok(raw)) => {
                ui.label(format!("as read: {}", metres(raw)));
            }
        }
        ui.separator();
        ui.label("size");
        let mut fit = matches!(self.size, Size::Fit(_));
        ui.horizontal(|ui| {
            let l = ui.radio_value(&mut fit, false, "scale ×");
            ui.add_enabled(
                !fit,
                egui::DragValue::new(&mut self.scale)
                    .range(0.0001..=10000.0)
                    .speed(0.01),
            )
            .labelled_by(l.id);
        });
        ui.horizontal(|ui| {
            let l = ui.radio_value(&mut fit, true, "fit the longest side to");
            ui.add_enabled(
                fit,
                egui::DragValue::new(&mut self.fit_metres)
                    .range(0.01..=500.0)
                    .speed(0.05)
                    .suffix(" m"),
            )
            .labelled_by(l.id);
        });
        self.size = if fit {
            Size::Fit(self.fit_metres)
        } else {
            Size::Scale(self.scale)
        };
        ui.label("up");
        ui.horizontal(|ui| {
            ui.radio_value(&mut self.up, Up::Y, "Y up (glTF)");
            ui.radio_value(&mut self.up, Up::Z, "Z up (many exporters, CAD)");
        });
        // Units fixed by the import, with the way back a click away (while the
        // scale is still the one it set).
        if let Some((scale, line)) = &self.units_fixed
            && self.size == Size::Scale(*scale)
        {
            ui.colored_label(egui::Color32::from_rgb(255, 190, 60), line.as_str());
            if ui.button("keep the file's size (scale 1)").clicked() {
                self.scale = 1.0;
                self.size = Size::Scale(1.0);
                self.units_fixed = None;
            }
        }
        // Units that look wrong, with the fix a click away (while the scale is the
        // file's own: a scale or fit chosen says the user has seen to it).
        if let Some(Ok(raw)) = &self.raw
            && self.units_fixed.is_none()
            && self.size == Size::Scale(1.0)
            && let Some((scale, units)) = pebble_core::services::placement::units_hint(raw, self.up)
        {
            ui.horizontal_wrapped(|ui| {
                ui.colored_label(
                    egui::Color32::from_rgb(255, 190, 60),
                    format!("this looks like {units}"),
                );
                if ui.button(format!("scale {scale}")).clicked() {
                    self.scale = scale;
                    self.size = Size::Scale(scale);
                }
            });
        }
        if is_tmd(&self.path) {
            ui.horizontal(|ui| {
                let l = ui.label("TIM texture");
                ui.add(
                    egui::TextEdit::singleline(&mut self.tim)
                        .hint_text("the TMD's name with .tim")
                        .desired_width(220.0),
                )
                .labelled_by(l.id);
            });
        }
        let placement = self.placement();
        if let Some(p) = &placement {
            ui.label(format!(
                "it comes in at {}, standing where the view looks",
                metres(&p.bounds())
            ));
        }
        ui.separator();
        let mut outcome = None;
        ui.horizontal(|ui| {
            if ui
                .add_enabled(placement.is_some(), egui::Button::new("Import"))
                .clicked()
                && let Some(placement) = placement
            {
                let tim = self.tim.trim();
                outcome = Some(Outcome::Import {
                    path: self.path.clone(),
                    tim: (!tim.is_empty()).then(|| PathBuf::from(tim)),
                    placement,
                });
            }
            if ui.button("Cancel").clicked() {
                outcome = Some(Outcome::Cancel);
            }
        });
        outcome
    }
}

#[cfg(test)]
mod tests;
