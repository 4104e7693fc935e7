//! Getting pixels back from the GPU: a texture region copied into a mappable
//! buffer ([`copy_region`]), mapped and unpadded row by row ([`map_region`]), and a
//! whole BGRA frame as an RGBA picture ([`read_back`]).

use image::RgbaImage;

use crate::RenderError;
use crate::gpu::Gpu;

/// Copies a texture into a mapped buffer and returns its pixels.
pub(crate) fn read_back(
    gpu: &Gpu,
    mut encoder: wgpu::CommandEncoder,
    texture: &wgpu::Texture,
    width: u32,
    height: u32,
) -> Result<RgbaImage, RenderError> {
    let buffer = copy_region(
        gpu,
        &mut encoder,
        texture,
        wgpu::TextureAspect::All,
        (0, 0, width, height),
    );
    gpu.queue.submit([encoder.finish()]);
    // The frame is BGRA; pictures are RGBA.
    let pixels = map_region(gpu, &buffer, width, height)?
        .into_iter()
        .flat_map(|[b, g, r, a]| [r, g, b, a])
        .collect();
    RgbaImage::from_raw(width, height, pixels)
        .ok_or_else(|| RenderError::Readback("short read".into()))
}

/// The bytes a copied row of `width` 4-byte texels takes: wgpu pads every row of a
/// texture-to-buffer copy to [`wgpu::COPY_BYTES_PER_ROW_ALIGNMENT`].
fn padded_row(width: u32) -> u32 {
    (4 * width).div_ceil(wgpu::COPY_BYTES_PER_ROW_ALIGNMENT) * wgpu::COPY_BYTES_PER_ROW_ALIGNMENT
}

/// Queues a copy of a texture region into a new mappable buffer (4 bytes a texel).
pub(crate) fn copy_region(
    gpu: &Gpu,
    encoder: &mut wgpu::CommandEncoder,
    texture: &wgpu::Texture,
    aspect: wgpu::TextureAspect,
    (x, y, w, h): (u32, u32, u32, u32),
) -> wgpu::Buffer {
    let row = padded_row(w);
    let buffer = gpu.device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("region readback"),
        size: u64::from(row) * u64::from(h),
        usage: wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::MAP_READ,
        mapped_at_creation: false,
    });
    encoder.copy_texture_to_buffer(
        wgpu::TexelCopyTextureInfo {
            texture,
            mip_level: 0,
            origin: wgpu::Origin3d { x, y, z: 0 },
            aspect,
        },
        wgpu::TexelCopyBufferInfo {
            buffer: &buffer,
            layout: wgpu::TexelCopyBufferLayout {
                offset: 0,
                bytes_per_row: Some(row),
                rows_per_image: Some(h),
            },
        },
        wgpu::Extent3d {
            width: w,
            height: h,
            depth_or_array_layers: 1,
        },
    );
    buffer
}

/// Maps a buffer [`copy_region`] filled and returns its texels row by row.
pub(crate) fn map_region(
    gpu: &Gpu,
    buffer: &wgpu::Buffer,
    w: u32,
    h: u32,
) -> Result<Vec<[u8; 4]>, RenderError> {
    let slice = buffer.slice(..);
    let (tx, rx) = std::sync::mpsc::channel();
    slice.map_async(wgpu::MapMode::Read, move |r| {
        let _ = tx.send(r);
    });
    gpu.device
        .poll(wgpu::PollType::wait_indefinitely())
        .map_err(|e| RenderError::Readback(e.to_string()))?;
    rx.recv()
        .map_err(|e| RenderError::Readback(e.to_string()))?
        .map_err(|e| RenderError::Readback(e.to_string()))?;
    let mapped = slice
        .get_mapped_range()
        .map_err(|e| RenderError::Readback(e.to_string()))?;
    let texels = unpad(&mapped, w, h);
    drop(mapped);
    buffer.unmap();
    Ok(texels)
}

/// The texels of `h` padded rows of `w` texels each.
fn unpad(padded: &[u8], w: u32, h: u32) -> Vec<[u8; 4]> {
    let row = padded_row(w) as usize;
    let mut out = Vec::with_capacity((w * h) as usize);
    for y in 0..h as usize {
        let start = y * row;
        out.extend(
            padded[start..start + 4 * w as usize]
                .chunks_exact(4)
                .map(|c| [c[0], c[1], c[2], c[3]]),
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_are_padded_to_the_copy_alignment() {
        assert_eq!(padded_row(1), 256);
        assert_eq!(padded_row(64), 256);
        assert_eq!(padded_row(65), 512);
        assert_eq!(padded_row(480), 2048);
    }

    #[test]
    fn unpadding_keeps_each_rows_texels_and_drops_the_padding() {
        // Three texels a row: 12 bytes used of 256.
        let mut padded = vec![0xEE; 256 * 2];
        for (y, x) in [(0usize, 0usize), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2)] {
            let at = y * 256 + x * 4;
            padded[at..at + 4].copy_from_slice(&[y as u8, x as u8, 7, 9]);
        }
        let texels = unpad(&padded, 3, 2);
        assert_eq!(texels.len(), 6);
        assert_eq!(texels[0], [0, 0, 7, 9]);
        assert_eq!(texels[2], [0, 2, 7, 9]);
        assert_eq!(texels[5], [1, 2, 7, 9]);
        assert!(texels.iter().all(|t| t[0] != 0xEE));
    }

    #[test]
    fn a_frame_reads_back_as_rgba() {
        let Some(gpu) = crate::gpu::test_gpu("read back") else {
            return;
        };
        let texture = gpu.device.create_texture(&wgpu::TextureDescriptor {
            label: Some("read back test"),
            size: wgpu::Extent3d {
                width: 3,
                height: 2,
                depth_or_array_layers: 1,
            },
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format: wgpu::TextureFormat::Bgra8Unorm,
            usage: wgpu::TextureUsages::COPY_SRC | wgpu::TextureUsages::COPY_DST,
            view_formats: &[],
        });
        // BGRA: every texel blue 10, green 20, red 30.
        let bgra: Vec<u8> = std::iter::repeat_n([10u8, 20, 30, 255], 6)
            .flatten()
            .collect();
        gpu.queue.write_texture(
            texture.as_image_copy(),
            &bgra,
            wgpu::TexelCopyBufferLayout {
                offset: 0,
                bytes_per_row: Some(12),
                rows_per_image: Some(2),
            },
            texture.size(),
        );
        let encoder = gpu.device.create_command_encoder(&Default::default());
        let image = read_back(&gpu, encoder, &texture, 3, 2).expect("read back");
        assert_eq!(image.dimensions(), (3, 2));
        assert!(image.pixels().all(|p| p.0 == [30, 20, 10, 255]));
    }
}
