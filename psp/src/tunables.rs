//! Render settings read once at start from `pebble_render.txt` beside the map
//! (`key=value` lines, `#` comments), so settings can be compared on the device
//! without a rebuild. Unknown keys and bad values are reported in the log.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Filter {
    /// LINEAR_MIPMAP_NEAREST minification, LINEAR magnification (the default).
    MipLinear,
    /// Trilinear.
    Linear,
    /// NEAREST everywhere.
    Nearest,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tunables {
    /// LOD bias (levels; +1 samples one level coarser).
    pub bias: f32,
    pub filter: Filter,
    pub mips: bool,
    pub cutout_mips: bool,
    pub depth_write: bool,
    /// Atlas ("detail") meshes pinned to this constant level; negative: not pinned.
    pub detail_const: f32,
    pub cull: bool,
    pub uv_scroll: bool,
    /// Bit 1 blended emitters, bit 2 additive.
    pub particles: u32,
}

impl Default for Tunables {
    fn default() -> Self {
        Self {
            bias: 1.0,
            filter: Filter::MipLinear,
            mips: true,
            cutout_mips: true,
            depth_write: true,
            detail_const: 1.0,
            cull: true,
            uv_scroll: true,
            particles: 3,
        }
    }
}

impl Tunables {
    /// Parses the file's text; returns the settings and one message per line it
    /// could not use.
    pub fn parse(text: &str) -> (Self, Vec<String>) {
        let mut t = Self::default();
        let mut problems = Vec::new();
        for (n, raw) in text.lines().enumerate() {
            let line = raw.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let Some((key, value)) = line.split_once('=') else {
                problems.push(format!("pebble_render.txt line {}: expected key=value, found {line:?}", n + 1));
                continue;
            };
            let (key, value) = (key.trim(), value.trim());
            let flag = |v: &str| match v {
                "1" | "on" | "true" => Some(true),
                "0" | "off" | "false" => Some(false),
                _ => None,
            };
            let ok = match key {
                "bias" => value.parse().map(|v| t.bias = v).is_ok(),
                "filter" => match value {
                    "mip_lin" => Some(Filter::MipLinear),
                    "linear" => Some(Filter::Linear),
                    "nearest" => Some(Filter::Nearest),
                    _ => None,
                }
                .map(|f| t.filter = f)
                .is_some(),
                "mips" => flag(value).map(|v| t.mips = v).is_some(),
                "cutout_mips" => flag(value).map(|v| t.cutout_mips = v).is_some(),
                "depth_write" => flag(value).map(|v| t.depth_write = v).is_some(),
                "cull" => flag(value).map(|v| t.cull = v).is_some(),
                "uv_scroll" => flag(value).map(|v| t.uv_scroll = v).is_some(),
                "detail_const" => value.parse().map(|v| t.detail_const = v).is_ok(),
                "particles" => value.parse().map(|v| t.particles = v).is_ok(),
                _ => {
                    problems.push(format!("pebble_render.txt line {}: unknown key {key:?}", n + 1));
                    continue;
                }
            };
            if !ok {
                problems.push(format!("pebble_render.txt line {}: bad value {value:?} for {key}", n + 1));
            }
        }
        (t, problems)
    }
}
