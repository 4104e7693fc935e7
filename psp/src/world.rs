//! A `.pbm` map made ready for the GE: parsed by the shared `pbm` crate (no second
//! parser), textures given their mip chains (16-bit levels swizzled, 8888 linear),
//! mesh vertices copied into 16-byte-aligned buffers exactly as stored (the file's
//! 24-byte vertex is the GE's TEXTURE_32BITF | COLOR_8888 | VERTEX_32BITF layout),
//! the spawn, environment and particle field read from the metadata.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use pbm::{AlphaMode, MapView, TextureFormat};

/// Bytes in 16-byte blocks, so the GE can read them (textures and vertices must be
/// 16-byte aligned).
#[derive(Clone, Copy)]
#[repr(C, align(16))]
pub struct Block([u8; 16]);

pub struct Aligned {
    blocks: Vec<Block>,
}

impl Aligned {
    pub fn from_bytes(bytes: &[u8]) -> Self {
        let mut blocks = alloc::vec![Block([0; 16]); bytes.len().div_ceil(16)];
        for (b, c) in blocks.iter_mut().zip(bytes.chunks(16)) {
            b.0[..c.len()].copy_from_slice(c);
        }
        Self { blocks }
    }

    pub fn as_ptr(&self) -> *const u8 {
        self.blocks.as_ptr() as *const u8
    }
}

/// The GE's texel formats the runtime uses.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Texels {
    Rgba5551,
    Rgba4444,
    Rgb565,
    Rgba8888,
}

pub struct Texture {
    pub name: String,
    pub texels: Texels,
    pub alpha: AlphaMode,
    /// Atlases clamp, never scroll, and are pinned to one level.
    pub atlas: bool,
    /// Wrap and filter from the `samplers` lump (the default without a record).
    pub sampler: pbm::sampler::Sampler,
    pub swizzled: bool,
    /// Width, height and texels of each level, level 0 first.
    pub levels: Vec<(u32, u32, Aligned)>,
}

pub struct Mesh {
    pub texture: Option<usize>,
    pub alpha: AlphaMode,
    pub vertices: Aligned,
    pub count: u32,
    /// Repeats per second after the consumer rules (zero on atlases and untextured).
    pub scroll: [f32; 2],
    /// The vertices' box, for the guard band's test (computed here: a file's
    /// stored bounds may be wrong).
    pub min: [f32; 3],
    pub max: [f32; 3],
    /// Drawn from both sides (the `double_sided` lump): culling off.
    pub double_sided: bool,
}

/// The environment presets (runtime facts §6): clear colour 0xBBGGRR, fog near, far.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Environment {
    Day,
    Dawn,
    Dusk,
    Night,
}

impl Environment {
    pub fn from_name(name: &str) -> Option<Self> {
        match name.trim().to_ascii_lowercase().as_str() {
            "day" => Some(Self::Day),
            "dawn" => Some(Self::Dawn),
            "dusk" => Some(Self::Dusk),
            "night" => Some(Self::Night),
            _ => None,
        }
    }

    /// The next preset in the cycle day → dawn → dusk → night.
    pub fn next(self) -> Self {
        match self {
            Self::Day => Self::Dawn,
            Self::Dawn => Self::Dusk,
            Self::Dusk => Self::Night,
            Self::Night => Self::Day,
        }
    }

    pub fn previous(self) -> Self {
        self.next().next().next()
    }

    pub fn name(self) -> &'static str {
        match self {
            Self::Day => "day",
            Self::Dawn => "dawn",
            Self::Dusk => "dusk",
            Self::Night => "night",
        }
    }

    /// Clear colour (0x00BBGGRR) and fog near / far in metres; the fog colour is the
    /// clear colour.
    pub fn look(self) -> (u32, f32, f32) {
        match self {
            Self::Day => (0x382218, 22.0, 65.0),
            Self::Dawn => (0x262028, 16.0, 52.0),
            Self::Dusk => (0x1C1824, 14.0, 48.0),
            Self::Night => (0x100A08, 10.0, 40.0),
        }
    }
}

/// Where the player starts.
#[derive(Clone, Copy, Debug)]
pub struct Spawn {
    pub position: [f32; 3],
    pub yaw: f32,
    pub fov_deg: f32,
}

pub struct World {
    pub name: String,
    pub environment: Environment,
    pub spawn: Spawn,
    /// Colliders, ground, triggers, patrols and the ball pit (shared rules).
    pub level: pebble_play::Level,
    pub textures: Vec<Texture>,
    pub meshes: Vec<Mesh>,
    pub triangles: u32,
    pub particles: pbm::ParticleField,
    /// FNV-1a 64 of the file's bytes (captures name the map they show).
    pub hash: u64,
    pub warnings: Vec<String>,
}

/// Default vertical field of view (runtime facts §2).
pub const FOV_DEG: f32 = 65.0;

impl World {
    pub fn load(bytes: &[u8]) -> Result<Self, String> {
        let mut warnings = Vec::new();
        let (view, warned) = MapView::parse(bytes).map_err(|e| e.to_string())?;
        warnings.extend(warned.iter().map(|w| w.to_string()));
        let samplers = view
            .metadata_by_tag(pbm::tag::SAMPLERS)
            .map(|m| pbm::sampler::decode_samplers(m.payload))
            .unwrap_or_default();
        let mut textures = Vec::new();
        for t in view.textures() {
            let mut tex = texture(&t)?;
            tex.sampler = pbm::sampler::sampler_of(&samplers, textures.len());
            textures.push(tex);
        }
        let double_sided = view
            .metadata_by_tag(pbm::tag::DOUBLE_SIDED)
            .map(|m| pbm::double_sided::decode(m.payload))
            .unwrap_or_default();
        let mut meshes = Vec::new();
        let mut triangles = 0;
        for (index, m) in view.meshes().enumerate() {
            let texture = usize::try_from(m.texture_id)
                .ok()
                .filter(|&i| i < textures.len());
            let tex = texture.map(|i| &textures[i]);
            let alpha = tex.map(|t| t.alpha).unwrap_or(AlphaMode::None);
            let scroll =
                pbm::scroll::effective_speed(tex.map(|t| t.name.as_str()), m.uv_scroll);
            triangles += m.num_vertices / 3;
            let (mut min, mut max) = ([f32::MAX; 3], [f32::MIN; 3]);
            for v in m.vertices() {
                for k in 0..3 {
                    min[k] = min[k].min(v.pos[k]);
                    max[k] = max[k].max(v.pos[k]);
                }
            }
            meshes.push(Mesh {
                texture,
                alpha,
                vertices: Aligned::from_bytes(m.vertex_bytes),
                count: m.num_vertices,
                scroll,
                min,
                max,
                double_sided: double_sided.contains(&(index as u32)),
            });
        }
        let text = |tag: &str| {
            view.metadata_by_tag(tag)
                .and_then(|m| m.text())
                .map(|s| s.to_string())
        };
        let name = text(pbm::tag::MAP_NAME).unwrap_or_else(|| String::from("(unnamed)"));
        let environment = text(pbm::tag::ENV_PRESET)
            .and_then(|s| Environment::from_name(&s))
            .unwrap_or(Environment::Day);
        let (level, problems) = pebble_play::Level::from_view(&view);
        warnings.extend(problems);
        let spawn = Spawn {
            position: level.spawn,
            yaw: level.spawn_yaw,
            fov_deg: level.fov_deg.unwrap_or(FOV_DEG),
        };
        let particles = match view.emitter_lump() {
            // Its warnings were reported by the parse above.
            Some(lump) => pbm::ParticleField::prepare(lump.records(), textures.len() as u32, &mut |_| {}),
            None => pbm::ParticleField::default(),
        };
        Ok(Self {
            name,
            environment,
            spawn,
            level,
            textures,
            meshes,
            triangles,
            particles,
            hash: pbm::fnv::fnv1a64(bytes),
            warnings,
        })
    }
}

fn texture(t: &pbm::view::TextureRef<'_>) -> Result<Texture, String> {
    texture_from(
        t.name.as_str().to_string(),
        u32::from(t.width),
        u32::from(t.height),
        t.format,
        t.alpha_mode,
        t.data,
    )
}

/// The built-in particle glow (shared texels from the `pbm` crate), 5551 with its
/// chain, clamped.
pub fn glow() -> Texture {
    let size = pbm::particle::GLOW_SIZE as u32;
    let data = pbm::texture::encode(&pbm::particle::glow_rgba(), TextureFormat::Rgba5551);
    let mut t = texture_from(
        String::from("builtin glow"),
        size,
        size,
        TextureFormat::Rgba5551,
        AlphaMode::None,
        &data,
    )
    .unwrap_or_else(|_| unreachable!("a 32×32 5551 texture is valid"));
    t.atlas = true;
    t
}

fn texture_from(
    name: String,
    w: u32,
    h: u32,
    format: TextureFormat,
    alpha_mode: AlphaMode,
    data: &[u8],
) -> Result<Texture, String> {
    let texels = match format {
        TextureFormat::Rgba5551 => Texels::Rgba5551,
        TextureFormat::Rgba4444 => Texels::Rgba4444,
        TextureFormat::Rgb565 => Texels::Rgb565,
        TextureFormat::Rgba8888 => Texels::Rgba8888,
    };
    if !pbm::texture::is_pot(w, h) {
        return Err(format!(
            "texture {name}: {w}×{h} is not a power of two, which the GE cannot sample; re-export it"
        ));
    }
    let bpp = if texels == Texels::Rgba8888 { 4 } else { 2 };
    let chain = pbm::texture::stored_mip_chain(data, w, h, format, alpha_mode);
    // At most eight levels (the GE's limit).
    let swizzled = bpp == 2;
    let mut levels = Vec::new();
    for level in chain.into_iter().take(8) {
        let data = if swizzled && (level.width * bpp) % 16 == 0 && level.height % 8 == 0 {
            pbm::texture::swizzle(&level.data, (level.width * bpp) as usize, level.height as usize)
                .map_err(|e| format!("texture {name}: {e:?}"))?
        } else if swizzled {
            // Too small to swizzle: stop the chain here.
            if levels.is_empty() {
                return Err(format!("texture {name}: {w}×{h} is too small for the GE (16×8 at least)"));
            }
            break;
        } else {
            level.data
        };
        levels.push((level.width, level.height, Aligned::from_bytes(&data)));
    }
    Ok(Texture {
        atlas: pbm::format::is_atlas_name(&name),
        sampler: pbm::sampler::Sampler::default(),
        name,
        texels,
        alpha: alpha_mode,
        swizzled,
        levels,
    })
}
