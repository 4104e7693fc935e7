//! Materials: texture, alpha, tiling and the UV scroll the PSP runtime animates.

use glam::Vec2;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
pub enum AlphaMode {
    /// Opaque.
    #[default]
    None,
    /// Alpha-tested: texels under 50 % are cut.
    Cutout,
    /// Alpha-blended (stored as RGBA8888).
    Blend,
}

impl AlphaMode {
    pub fn to_pbm(self) -> pbm::AlphaMode {
        match self {
            Self::None => pbm::AlphaMode::None,
            Self::Cutout => pbm::AlphaMode::Cutout,
            Self::Blend => pbm::AlphaMode::Blend,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Material {
    pub name: String,
    /// Project-relative path with `/` separators; `None` = vertex colour only.
    pub texture: Option<String>,
    pub alpha: AlphaMode,
    /// Metres per texture repeat along U and V.
    pub tiling: Vec2,
    /// UV offset in repeats.
    pub offset: Vec2,
    /// UV rotation, radians.
    pub rotation: f32,
    /// Texture repeats per second along U and V (the direction the pattern travels).
    pub uv_scroll: Vec2,
    pub double_sided: bool,
    /// A small repeating tile or decal: a candidate for the tile atlas.
    pub tile: bool,
    /// Linear RGBA multiplied with the texture.
    pub color: [f32; 4],
    /// How the texture wraps and filters (a glTF sampler's); projects saved before
    /// it have the default.
    #[serde(default, skip_serializing_if = "Sampling::is_default")]
    pub sampling: Sampling,
    /// Light the surface gives off, linear RGB (a glTF's emissive factor times
    /// its strength): the bake adds it to the vertex colours whatever the
    /// lights, so a lava flow or a lamp's shade glows in the dark. Zero: none.
    #[serde(default, skip_serializing_if = "is_black")]
    pub emissive: [f32; 3],
}

fn is_black(c: &[f32; 3]) -> bool {
    *c == [0.0; 3]
}

/// Wrap and filter, as the GE can do them: repeat or clamp per axis, bilinear or
/// nearest. The default repeats and filters, as the device did before materials had
/// a say.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub struct Sampling {
    pub clamp_u: bool,
    pub clamp_v: bool,
    pub nearest: bool,
}

impl Sampling {
    pub fn is_default(&self) -> bool {
        *self == Self::default()
    }
}

impl Default for Material {
    fn default() -> Self {
        Self {
            name: "Default".into(),
            texture: None,
            alpha: AlphaMode::None,
            tiling: Vec2::ONE,
            offset: Vec2::ZERO,
            rotation: 0.0,
            uv_scroll: Vec2::ZERO,
            double_sided: false,
            tile: false,
            color: [1.0; 4],
            sampling: Sampling::default(),
            emissive: [0.0; 3],
        }
    }
}

impl Material {
    /// How fast the pattern moves across the surface, in metres per second.
    pub fn scroll_metres_per_second(&self) -> Vec2 {
        self.uv_scroll * self.tiling
    }

    /// Whether the surface gives off light.
    pub fn glows(&self) -> bool {
        self.emissive.iter().any(|c| *c > 0.0)
    }

    pub fn scrolls(&self) -> bool {
        self.uv_scroll != Vec2::ZERO
    }

    /// Repeats for a UV given in metres.
    pub fn repeats(&self, metres: Vec2) -> Vec2 {
        let t = Vec2::new(
            if self.tiling.x != 0.0 {
                self.tiling.x
            } else {
                1.0
            },
            if self.tiling.y != 0.0 {
                self.tiling.y
            } else {
                1.0
            },
        );
        let uv = metres / t;
        if self.rotation == 0.0 {
            // The common case, and an exporter hot path: no trigonometry.
            return uv + self.offset;
        }
        let (s, c) = self.rotation.sin_cos();
        Vec2::new(uv.x * c - uv.y * s, uv.x * s + uv.y * c) + self.offset
    }
}
