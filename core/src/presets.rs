//! Presets: named emitters, materials, environments and export settings, as RON
//! files. The bundled ones live in the repository's top-level `presets/` folder and
//! are built into the binary (so they are there wherever Pebble runs); a user's
//! own, written by "Save as preset", live in the data folder's `presets/`, in the
//! same layout, and are listed after the bundled ones. A file that does not read
//! is reported (the Log names it and says why), never fatal.
//!
//! A material preset's texture is a file beside it in `textures/`; applying the
//! preset copies it into the project's `textures/presets/`.

use std::path::{Path, PathBuf};

use pebble_model::Material;
use pebble_model::entity::Emitter;
use pebble_model::glam::Vec3;
use pebble_model::scene::{Environment, ExportSettings};
use serde::{Deserialize, Serialize};

/// The bundled files, `(file name, text)`, by folder.
const EMITTERS: &[(&str, &str)] = &[
    (
        "campfire.ron",
        include_str!("../../presets/emitters/campfire.ron"),
    ),
    (
        "torch.ron",
        include_str!("../../presets/emitters/torch.ron"),
    ),
    (
        "candle.ron",
        include_str!("../../presets/emitters/candle.ron"),
    ),
    ("mist.ron", include_str!("../../presets/emitters/mist.ron")),
    (
        "waterfall_spray.ron",
        include_str!("../../presets/emitters/waterfall_spray.ron"),
    ),
    (
        "sparks.ron",
        include_str!("../../presets/emitters/sparks.ron"),
    ),
    (
        "smoke.ron",
        include_str!("../../presets/emitters/smoke.ron"),
    ),
    ("dust.ron", include_str!("../../presets/emitters/dust.ron")),
];
const MATERIALS: &[(&str, &str)] = &[
    (
        "water_scroll.ron",
        include_str!("../../presets/materials/water_scroll.ron"),
    ),
    ("lava.ron", include_str!("../../presets/materials/lava.ron")),
    (
        "glass.ron",
        include_str!("../../presets/materials/glass.ron"),
    ),
    (
        "foliage_cutout.ron",
        include_str!("../../presets/materials/foliage_cutout.ron"),
    ),
];
const MATERIAL_TEXTURES: &[(&str, &[u8])] = &[
    (
        "water.png",
        include_bytes!("../../presets/materials/textures/water.png"),
    ),
    (
        "lava.png",
        include_bytes!("../../presets/materials/textures/lava.png"),
    ),
    (
        "glass.png",
        include_bytes!("../../presets/materials/textures/glass.png"),
    ),
    (
        "leaves.png",
        include_bytes!("../../presets/materials/textures/leaves.png"),
    ),
];
const ENVIRONMENTS: &[(&str, &str)] = &[
    (
        "bright_day.ron",
        include_str!("../../presets/environments/bright_day.ron"),
    ),
    (
        "golden_hour.ron",
        include_str!("../../presets/environments/golden_hour.ron"),
    ),
    (
        "dawn_mist.ron",
        include_str!("../../presets/environments/dawn_mist.ron"),
    ),
    (
        "overcast.ron",
        include_str!("../../presets/environments/overcast.ron"),
    ),
    (
        "moonlit_night.ron",
        include_str!("../../presets/environments/moonlit_night.ron"),
    ),
];
const EXPORTS: &[(&str, &str)] = &[
    (
        "quick_preview.ron",
        include_str!("../../presets/export/quick_preview.ron"),
    ),
    (
        "standard.ron",
        include_str!("../../presets/export/standard.ron"),
    ),
    ("final.ron", include_str!("../../presets/export/final.ron")),
    (
        "crisp_textures.ron",
        include_str!("../../presets/export/crisp_textures.ron"),
    ),
];

const NAVIGATION: &[(&str, &str)] = &[
    (
        "fusion360.ron",
        include_str!("../../presets/navigation/fusion360.ron"),
    ),
    (
        "blender.ron",
        include_str!("../../presets/navigation/blender.ron"),
    ),
    (
        "unity_unreal.ron",
        include_str!("../../presets/navigation/unity_unreal.ron"),
    ),
];

/// The folders of a presets tree, by kind.
pub const EMITTER_FOLDER: &str = "emitters";
pub const MATERIAL_FOLDER: &str = "materials";
pub const ENVIRONMENT_FOLDER: &str = "environments";
pub const EXPORT_FOLDER: &str = "export";
pub const NAVIGATION_FOLDER: &str = "navigation";

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EmitterPreset {
    pub name: String,
    #[serde(default)]
    pub about: String,
    pub emitter: Emitter,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MaterialPreset {
    pub name: String,
    #[serde(default)]
    pub about: String,
    /// Its texture is a file name in the preset folder's `textures/`.
    pub material: Material,
}

/// The sun of an environment preset.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Sun {
    pub direction: Vec3,
    pub color: [f32; 3],
    pub intensity: f32,
}

/// The sky (hemisphere) light of an environment preset.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Sky {
    pub sky: [f32; 3],
    pub ground: [f32; 3],
    pub ao_strength: f32,
    pub ao_radius: f32,
}

/// The runtime's environment with the sun and sky lights that go with it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EnvironmentPreset {
    pub name: String,
    #[serde(default)]
    pub about: String,
    pub environment: Environment,
    pub sun: Sun,
    pub sky: Sky,
}

/// Export settings but the output file (which is the project's own).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ExportParts {
    pub max_texture_size: u32,
    pub bake_lighting: bool,
    pub ao_rays: u32,
    pub chunk_vertices: u32,
    #[serde(default)]
    pub runtime_tunables: String,
}

impl ExportParts {
    pub fn of(settings: &ExportSettings) -> Self {
        Self {
            max_texture_size: settings.max_texture_size,
            bake_lighting: settings.bake_lighting,
            ao_rays: settings.ao_rays,
            chunk_vertices: settings.chunk_vertices,
            runtime_tunables: settings.runtime_tunables.clone(),
        }
    }

    /// `settings` with these parts (the output stays).
    pub fn onto(&self, settings: &ExportSettings) -> ExportSettings {
        ExportSettings {
            output: settings.output.clone(),
            max_texture_size: self.max_texture_size,
            bake_lighting: self.bake_lighting,
            ao_rays: self.ao_rays,
            chunk_vertices: self.chunk_vertices,
            runtime_tunables: self.runtime_tunables.clone(),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ExportPreset {
    pub name: String,
    #[serde(default)]
    pub about: String,
    pub export: ExportParts,
}

/// Where a listed preset came from.
#[derive(Debug, Clone, PartialEq)]
pub enum Origin {
    Bundled,
    /// A user's file.
    User(PathBuf),
}

#[derive(Debug, Clone, PartialEq)]
pub struct Listed<T> {
    pub preset: T,
    pub origin: Origin,
}

/// Every preset the editor offers, bundled first.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Presets {
    pub emitters: Vec<Listed<EmitterPreset>>,
    pub materials: Vec<Listed<MaterialPreset>>,
    pub environments: Vec<Listed<EnvironmentPreset>>,
    pub exports: Vec<Listed<ExportPreset>>,
    /// Mouse navigation schemes.
    pub navigation: Vec<Listed<crate::scheme::Scheme>>,
    /// Files that did not read, and why.
    pub problems: Vec<String>,
}

fn list<T: for<'de> Deserialize<'de>>(
    bundled: &[(&str, &str)],
    user: &Path,
    problems: &mut Vec<String>,
) -> Vec<Listed<T>> {
    let mut out = Vec::new();
    for (file, text) in bundled {
        match ron::from_str(text) {
            Ok(preset) => out.push(Listed {
                preset,
                origin: Origin::Bundled,
            }),
            Err(e) => problems.push(format!("bundled preset {file}: {e}")),
        }
    }
    let Ok(entries) = std::fs::read_dir(user) else {
        return out;
    };
    let mut files: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "ron"))
        .collect();
    files.sort();
    for path in files {
        // A preset is a few hundred bytes; anything far larger is not one.
        let text = match std::fs::metadata(&path) {
            Ok(m) if m.len() > 1 << 20 => {
                problems.push(format!("{}: too large for a preset", path.display()));
                continue;
            }
            _ => std::fs::read_to_string(&path),
        };
        match text.map_err(|e| e.to_string()).and_then(|t| {
            ron::from_str(&t).map_err(|e| format!("line {}: {}", e.span.start.line, e.code))
        }) {
            Ok(preset) => out.push(Listed {
                preset,
                origin: Origin::User(path),
            }),
            Err(e) => problems.push(format!(
                "{} is not a preset ({e}); fix or delete it",
                path.display()
            )),
        }
    }
    out
}

impl Presets {
    /// The bundled presets and those under `user_root` (the data folder's
    /// `presets/`).
    pub fn load(user_root: &Path) -> Self {
        let mut problems = Vec::new();
        let emitters = list(EMITTERS, &user_root.join(EMITTER_FOLDER), &mut problems);
        let materials = list(MATERIALS, &user_root.join(MATERIAL_FOLDER), &mut problems);
        let environments = list(
            ENVIRONMENTS,
            &user_root.join(ENVIRONMENT_FOLDER),
            &mut problems,
        );
        let exports = list(EXPORTS, &user_root.join(EXPORT_FOLDER), &mut problems);
        let navigation = list(
            NAVIGATION,
            &user_root.join(NAVIGATION_FOLDER),
            &mut problems,
        );
        Self {
            emitters,
            materials,
            environments,
            exports,
            navigation,
            problems,
        }
    }

    /// The bytes of a material preset's texture, and its file name.
    pub fn texture(listed: &Listed<MaterialPreset>) -> Option<(String, Vec<u8>)> {
        let name = listed.preset.material.texture.as_ref()?;
        let file = Path::new(name).file_name()?.to_string_lossy().into_owned();
        match &listed.origin {
            Origin::Bundled => MATERIAL_TEXTURES
                .iter()
                .find(|(f, _)| *f == file)
                .map(|(_, bytes)| (file.clone(), bytes.to_vec())),
            Origin::User(path) => {
                let dir = path.parent()?.join("textures");
                std::fs::read(dir.join(&file)).ok().map(|b| (file, b))
            }
        }
    }
}

/// A bundled navigation scheme by name (for preferences saved before the schemes
/// were files, which named one of the three).
pub fn bundled_scheme(name: &str) -> Option<crate::scheme::Scheme> {
    NAVIGATION.iter().find_map(|(_, text)| {
        ron::from_str::<crate::scheme::Scheme>(text)
            .ok()
            .filter(|s| s.name == name)
    })
}

/// The emitter a new one starts as: the bundled campfire (additive, warm: it looks
/// like fire out of the box).
pub fn default_emitter() -> Emitter {
    static DEFAULT: std::sync::OnceLock<Emitter> = std::sync::OnceLock::new();
    DEFAULT
        .get_or_init(|| {
            ron::from_str::<EmitterPreset>(EMITTERS[0].1)
                .map(|p| p.emitter)
                .unwrap_or_default()
        })
        .clone()
}

/// A file name for a preset called `name`: lower case, words joined by `_`.
pub fn file_name(name: &str) -> String {
    let mut out = String::new();
    for c in name.trim().chars() {
        if c.is_alphanumeric() {
            out.extend(c.to_lowercase());
        } else if !out.ends_with('_') && !out.is_empty() {
            out.push('_');
        }
    }
    let out = out.trim_end_matches('_').to_string();
    if out.is_empty() { "preset".into() } else { out }
}

/// Writes `preset` as `<user_root>/<folder>/<file_name(name)>.ron` (atomically,
/// replacing one of the same name); returns where.
pub fn save<T: Serialize>(
    user_root: &Path,
    folder: &str,
    name: &str,
    preset: &T,
) -> Result<PathBuf, String> {
    let path = user_root
        .join(folder)
        .join(format!("{}.ron", file_name(name)));
    let text = ron::ser::to_string_pretty(preset, ron::ser::PrettyConfig::default())
        .map_err(|e| format!("cannot write the preset: {e}"))?;
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|e| format!("cannot make {}: {e}", dir.display()))?;
    }
    pbm::file::write_atomic(&path, format!("// {name}\n{text}\n").as_bytes())
        .map_err(|e| format!("cannot save {}: {e}", path.display()))?;
    Ok(path)
}

/// Saves `material` as a user preset; its texture (project-relative, under
/// `project`) is copied beside it so the preset works in any project.
pub fn save_material(
    user_root: &Path,
    project: &Path,
    name: &str,
    material: &Material,
) -> Result<PathBuf, String> {
    let mut material = material.clone();
    if let Some(texture) = &material.texture {
        let from = project.join(texture);
        let file = Path::new(texture)
            .file_name()
            .map(|f| f.to_string_lossy().into_owned())
            .ok_or_else(|| format!("the texture {texture} has no file name"))?;
        let dir = user_root.join(MATERIAL_FOLDER).join("textures");
        std::fs::create_dir_all(&dir).map_err(|e| format!("cannot make {}: {e}", dir.display()))?;
        let bytes = std::fs::read(&from)
            .map_err(|e| format!("cannot read the texture {}: {e}", from.display()))?;
        pbm::file::write_atomic(&dir.join(&file), &bytes)
            .map_err(|e| format!("cannot copy the texture: {e}"))?;
        material.texture = Some(file);
    }
    let preset = MaterialPreset {
        name: name.to_owned(),
        about: String::new(),
        material,
    };
    save(user_root, MATERIAL_FOLDER, name, &preset)
}

/// A material preset's look for a project in `project`: its texture written to
/// `textures/presets/` there (kept if already present) and named so.
pub fn material_for_project(
    listed: &Listed<MaterialPreset>,
    project: &Path,
) -> Result<Material, String> {
    let mut m = listed.preset.material.clone();
    if m.texture.is_some() {
        let (file, bytes) = Presets::texture(listed).ok_or_else(|| {
            format!(
                "the preset {}'s texture is missing; save the preset again",
                listed.preset.name
            )
        })?;
        let relative = format!("textures/presets/{file}");
        let to = project.join(&relative);
        if !to.is_file() {
            if let Some(dir) = to.parent() {
                std::fs::create_dir_all(dir)
                    .map_err(|e| format!("cannot make {}: {e}", dir.display()))?;
            }
            pbm::file::write_atomic(&to, &bytes)
                .map_err(|e| format!("cannot write {}: {e}", to.display()))?;
        }
        m.texture = Some(relative);
    }
    Ok(m)
}

/// The name a material gets when `preset` is applied to it: a made-up one
/// ("Material 2", "Default", as new and imported materials are called) takes the
/// preset's (made unique); one the designer named keeps theirs. Preset materials
/// stayed "Material 2".
pub fn name_after_preset(scene: &pebble_model::Scene, current: &str, preset: &str) -> String {
    let made_up = matches!(pebble_model::naming::stem(current), "Material" | "Default");
    if made_up {
        scene.free_material_name(preset)
    } else {
        current.to_string()
    }
}

#[cfg(test)]
mod tests;
