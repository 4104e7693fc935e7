//! Texture thumbnails for the Assets and Materials panels: each project texture
//! read once and kept as a small egui texture (or the reason it could not be
//! read), shared by both panels.

use std::collections::HashMap;
use std::path::Path;

/// The thumbnails' side, in points.
pub const SIDE: u32 = 48;

/// A thumbnail and the picture's size in texels, or why it cannot be shown.
pub type Thumbnail = Result<(egui::TextureHandle, [u32; 2]), String>;

pub struct Thumbnails {
    by_path: HashMap<String, Thumbnail>,
    /// The longest side kept, texels.
    side: u32,
    /// How egui samples them (the UV dock repeats its texture).
    options: egui::TextureOptions,
}

impl Default for Thumbnails {
    fn default() -> Self {
        Self::of_side(SIDE)
    }
}

impl std::fmt::Debug for Thumbnails {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Thumbnails")
            .field("loaded", &self.by_path.len())
            .finish()
    }
}

impl Thumbnails {
    /// Pictures kept at most `side` texels on their longest side (the UV dock
    /// keeps a PSP texture whole: 256).
    pub fn of_side(side: u32) -> Self {
        Self {
            by_path: HashMap::new(),
            side,
            options: egui::TextureOptions::NEAREST,
        }
    }

    /// Sampled repeating beyond one picture (the UV dock's view of the repeats).
    pub fn repeating(mut self) -> Self {
        self.options = egui::TextureOptions::NEAREST_REPEAT;
        self
    }

    /// The thumbnail of the project texture `path` (project-relative).
    pub fn get(&mut self, ctx: &egui::Context, project: &Path, path: &str) -> &Thumbnail {
        let (side, options) = (self.side, self.options);
        self.by_path.entry(path.to_string()).or_insert_with(|| {
            let file = pebble_model::project::resolve_asset(project, path);
            image::open(&file)
                .map(|img| {
                    let size = [img.width(), img.height()];
                    let small = if img.width().max(img.height()) > side {
                        img.thumbnail(side, side).to_rgba8()
                    } else {
                        img.to_rgba8()
                    };
                    let pixels = egui::ColorImage::from_rgba_unmultiplied(
                        [small.width() as usize, small.height() as usize],
                        small.as_raw(),
                    );
                    (ctx.load_texture(path, pixels, options), size)
                })
                .map_err(|e| format!("{}: {e}", file.display()))
        })
    }

    /// Reads `path` again next time (its file changed).
    pub fn forget(&mut self, path: &str) {
        self.by_path.remove(path);
    }
}

/// The texture files a material can use: every texture the project's materials
/// name, and every picture in the project's `textures/` folder (where imports and
/// New from texture put them), each once, sorted.
/// At most this many files are listed for asset fields (a project folder with a
/// build tree in it must not stall the inspector).
const MAX_FILES: usize = 4000;

/// The files under `folder`, project-relative with `/`, sorted: four folders deep
/// at most, hidden folders and `target/` left out.
pub fn project_files(folder: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![(folder.to_path_buf(), 0)];
    while let Some((dir, depth)) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            let path = entry.path();
            if name.starts_with('.') {
                continue;
            }
            if path.is_dir() {
                if depth < 4 && name != "target" {
                    stack.push((path, depth + 1));
                }
            } else if let Ok(relative) = path.strip_prefix(folder) {
                out.push(relative.to_string_lossy().replace('\\', "/"));
                if out.len() >= MAX_FILES {
                    out.sort();
                    return out;
                }
            }
        }
    }
    out.sort();
    out
}

pub fn project_textures(scene: &pebble_model::Scene, folder: &Path) -> Vec<String> {
    let mut out: Vec<String> = scene
        .materials()
        .filter_map(|(_, m)| m.texture.clone())
        .collect();
    if let Ok(dir) = std::fs::read_dir(folder.join("textures")) {
        for entry in dir.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            let ext = name
                .rsplit_once('.')
                .map(|(_, e)| e.to_ascii_lowercase())
                .unwrap_or_default();
            if entry.path().is_file() && IMAGE_EXTENSIONS.contains(&ext.as_str()) {
                out.push(format!("textures/{name}"));
            }
        }
    }
    out.sort();
    out.dedup();
    out
}

/// The picture files Pebble reads, lower case.
pub const IMAGE_EXTENSIONS: &[&str] = &["png", "jpg", "jpeg", "tga", "bmp", "webp"];

/// Whether `path` names a picture (by its extension).
pub fn is_image(path: &Path) -> bool {
    path.extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase())
        .is_some_and(|e| IMAGE_EXTENSIONS.contains(&e.as_str()))
}
