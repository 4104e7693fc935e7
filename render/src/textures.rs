//! GPU textures as every renderer on a device binds them: the samplers (every
//! wrap and filter a texture can ask for) and a texture's mip levels uploaded
//! with its bind groups.

use crate::gpu::Gpu;
use crate::scene::TextureSampling;

/// Scene textures' format.
const COLOR_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba8Unorm;

/// The samplers: every wrap (repeat or clamp per axis) and filter (bilinear or
/// nearest) a texture can ask for (`TextureSampling::index`); clamped bilinear for
/// atlases and emitters.
#[derive(Debug)]
pub(crate) struct Samplers {
    table: Vec<wgpu::Sampler>,
}

impl Samplers {
    pub(crate) fn new(device: &wgpu::Device) -> Self {
        // Both views select the nearest mip level (the GE's LINEAR_MIPMAP_NEAREST):
        // the editor shows the device's texture detail, and a software rasteriser
        // does half the texel fetches of trilinear filtering.
        let address = |clamp: bool| {
            if clamp {
                wgpu::AddressMode::ClampToEdge
            } else {
                wgpu::AddressMode::Repeat
            }
        };
        let table = (0..8)
            .map(|k| {
                let (u, v, nearest) = (k & 1 != 0, k & 2 != 0, k & 4 != 0);
                let filter = if nearest {
                    wgpu::FilterMode::Nearest
                } else {
                    wgpu::FilterMode::Linear
                };
                device.create_sampler(&wgpu::SamplerDescriptor {
                    label: Some("scene sampler"),
                    address_mode_u: address(u),
                    address_mode_v: address(v),
                    address_mode_w: address(u),
                    mag_filter: filter,
                    min_filter: filter,
                    mipmap_filter: wgpu::MipmapFilterMode::Nearest,
                    ..Default::default()
                })
            })
            .collect();
        Self { table }
    }

    pub fn get(&self, sampling: TextureSampling) -> &wgpu::Sampler {
        &self.table[sampling.index()]
    }
}

/// How one texture can be bound: as surfaces sample it (repeat, or clamp for an
/// atlas), as a single-cell emitter samples it (clamped chain) and as a flipbook
/// samples it (clamped level 0).
#[derive(Debug)]
pub(crate) struct TextureGroups {
    pub surface: wgpu::BindGroup,
    pub emitter: wgpu::BindGroup,
    pub flipbook: wgpu::BindGroup,
}

/// Uploads mip levels (base first) and makes its bind groups.
pub(crate) fn upload_levels(
    gpu: &Gpu,
    layout: &wgpu::BindGroupLayout,
    samplers: &Samplers,
    sampling: TextureSampling,
    levels: &[(u32, u32, &[u8])],
) -> TextureGroups {
    let device = &gpu.device;
    let (width, height) = (levels[0].0, levels[0].1);
    let texture = device.create_texture(&wgpu::TextureDescriptor {
        label: Some("scene texture"),
        size: wgpu::Extent3d {
            width,
            height,
            depth_or_array_layers: 1,
        },
        mip_level_count: levels.len() as u32,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format: COLOR_FORMAT,
        usage: wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST,
        view_formats: &[],
    });
    for (level, (w, h, rgba)) in levels.iter().enumerate() {
        gpu.queue.write_texture(
            wgpu::TexelCopyTextureInfo {
                texture: &texture,
                mip_level: level as u32,
                origin: wgpu::Origin3d::ZERO,
                aspect: wgpu::TextureAspect::All,
            },
            rgba,
            wgpu::TexelCopyBufferLayout {
                offset: 0,
                bytes_per_row: Some(4 * w),
                rows_per_image: Some(*h),
            },
            wgpu::Extent3d {
                width: *w,
                height: *h,
                depth_or_array_layers: 1,
            },
        );
    }
    let group = |view: &wgpu::TextureView, sampler: &wgpu::Sampler| {
        device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("texture"),
            layout,
            entries: &[
                wgpu::BindGroupEntry {
                    binding: 0,
                    resource: wgpu::BindingResource::TextureView(view),
                },
                wgpu::BindGroupEntry {
                    binding: 1,
                    resource: wgpu::BindingResource::Sampler(sampler),
                },
            ],
        })
    };
    let chain = texture.create_view(&wgpu::TextureViewDescriptor::default());
    let base = texture.create_view(&wgpu::TextureViewDescriptor {
        mip_level_count: Some(1),
        ..Default::default()
    });
    TextureGroups {
        surface: group(&chain, samplers.get(sampling)),
        emitter: group(&chain, samplers.get(TextureSampling::CLAMP)),
        flipbook: group(&base, samplers.get(TextureSampling::CLAMP)),
    }
}
