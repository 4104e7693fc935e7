//! Comparing a device capture with the editor's preview: PSNR over RGB, SSIM on
//! luminance (Wang et al. 2004: 11×11 Gaussian window, σ = 1.5, K₁ = 0.01,
//! K₂ = 0.03), mean absolute error per channel, the share of pixels whose largest
//! channel difference exceeds a threshold, and a heat map. Masked rectangles (a HUD)
//! are left out of every figure. Written here: the image crates at hand compute no
//! SSIM, and the maths is a page.

use image::{Rgb, RgbImage};

/// Figures of one comparison.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Comparison {
    /// dB; infinite for identical images.
    pub psnr: f64,
    /// Mean SSIM of the luminance over every full window not touching a mask.
    pub ssim: f64,
    /// Mean absolute error per channel (R, G, B), 0–255.
    pub mae: [f64; 3],
    /// Share (0–1) of pixels whose largest channel difference exceeds `threshold`.
    pub over_threshold: f64,
    pub threshold: u8,
    /// Pixels compared (outside the masks).
    pub pixels: usize,
}

/// A rectangle of pixels to leave out: x, y, width, height.
pub type Mask = [u32; 4];

fn masked(masks: &[Mask], x: u32, y: u32) -> bool {
    masks
        .iter()
        .any(|m| x >= m[0] && x < m[0] + m[2] && y >= m[1] && y < m[1] + m[3])
}

fn luma(p: &Rgb<u8>) -> f64 {
    0.299 * f64::from(p[0]) + 0.587 * f64::from(p[1]) + 0.114 * f64::from(p[2])
}

/// Compares two images of the same size.
pub fn compare(
    a: &RgbImage,
    b: &RgbImage,
    masks: &[Mask],
    threshold: u8,
) -> Result<Comparison, String> {
    if a.dimensions() != b.dimensions() {
        return Err(format!(
            "the images differ in size: {}×{} and {}×{}",
            a.width(),
            a.height(),
            b.width(),
            b.height()
        ));
    }
    let (w, h) = a.dimensions();
    let (mut se, mut abs, mut over, mut n) = (0.0f64, [0.0f64; 3], 0usize, 0usize);
    for (x, y, p) in a.enumerate_pixels() {
        if masked(masks, x, y) {
            continue;
        }
        let q = b.get_pixel(x, y);
        let mut largest = 0;
        for c in 0..3 {
            let d = p[c].abs_diff(q[c]);
            largest = largest.max(d);
            abs[c] += f64::from(d);
            se += f64::from(d) * f64::from(d);
        }
        over += usize::from(largest > threshold);
        n += 1;
    }
    if n == 0 {
        return Err("every pixel is masked".into());
    }
    let mse = se / (3 * n) as f64;
    let psnr = if mse == 0.0 {
        f64::INFINITY
    } else {
        10.0 * (255.0f64 * 255.0 / mse).log10()
    };
    Ok(Comparison {
        psnr,
        ssim: ssim(a, b, masks, w, h),
        mae: abs.map(|s| s / n as f64),
        over_threshold: over as f64 / n as f64,
        threshold,
        pixels: n,
    })
}

fn ssim(a: &RgbImage, b: &RgbImage, masks: &[Mask], w: u32, h: u32) -> f64 {
    const R: i32 = 5;
    let sigma = 1.5f64;
    let mut kernel = [0.0f64; 11];
    for (k, v) in kernel.iter_mut().enumerate() {
        let d = k as f64 - 5.0;
        *v = (-d * d / (2.0 * sigma * sigma)).exp();
    }
    let sum: f64 = kernel.iter().sum();
    kernel.iter_mut().for_each(|v| *v /= sum);
    let (c1, c2) = ((0.01f64 * 255.0).powi(2), (0.03f64 * 255.0).powi(2));
    let la: Vec<f64> = a.pixels().map(luma).collect();
    let lb: Vec<f64> = b.pixels().map(luma).collect();
    let at = |v: &[f64], x: i32, y: i32| v[(y as u32 * w + x as u32) as usize];
    let (mut total, mut windows) = (0.0, 0usize);
    for cy in R..h as i32 - R {
        for cx in R..w as i32 - R {
            // Windows touching a mask are left out.
            if masks.iter().any(|m| {
                cx + R >= m[0] as i32
                    && cx - R < (m[0] + m[2]) as i32
                    && cy + R >= m[1] as i32
                    && cy - R < (m[1] + m[3]) as i32
            }) {
                continue;
            }
            let (mut ma, mut mb, mut saa, mut sbb, mut sab) = (0.0, 0.0, 0.0, 0.0, 0.0);
            for dy in -R..=R {
                for dx in -R..=R {
                    let k = kernel[(dx + R) as usize] * kernel[(dy + R) as usize];
                    let (x, y) = (at(&la, cx + dx, cy + dy), at(&lb, cx + dx, cy + dy));
                    ma += k * x;
                    mb += k * y;
                    saa += k * x * x;
                    sbb += k * y * y;
                    sab += k * x * y;
                }
            }
            let (va, vb, cov) = (saa - ma * ma, sbb - mb * mb, sab - ma * mb);
            total += ((2.0 * ma * mb + c1) * (2.0 * cov + c2))
                / ((ma * ma + mb * mb + c1) * (va + vb + c2));
            windows += 1;
        }
    }
    if windows == 0 {
        1.0
    } else {
        total / windows as f64
    }
}

/// The largest channel difference per pixel as a heat map: black (equal) through
/// red and yellow to white (255 apart); masked pixels blue.
pub fn heat_map(a: &RgbImage, b: &RgbImage, masks: &[Mask]) -> RgbImage {
    RgbImage::from_fn(a.width(), a.height(), |x, y| {
        if masked(masks, x, y) {
            return Rgb([0, 0, 96]);
        }
        let (p, q) = (a.get_pixel(x, y), b.get_pixel(x, y));
        let d = (0..3).map(|c| p[c].abs_diff(q[c])).max().unwrap_or(0);
        let t = f32::from(d) / 255.0;
        let ramp = |lo: f32| ((t - lo) * 3.0).clamp(0.0, 1.0);
        Rgb([
            (ramp(0.0) * 255.0) as u8,
            (ramp(1.0 / 3.0) * 255.0) as u8,
            (ramp(2.0 / 3.0) * 255.0) as u8,
        ])
    })
}

/// |a − b| per channel, brightened ×4 so small differences show.
pub fn difference(a: &RgbImage, b: &RgbImage) -> RgbImage {
    RgbImage::from_fn(a.width(), a.height(), |x, y| {
        let (p, q) = (a.get_pixel(x, y), b.get_pixel(x, y));
        Rgb([0, 1, 2].map(|c| p[c].abs_diff(q[c]).saturating_mul(4)))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn noise(w: u32, h: u32, seed: u32) -> RgbImage {
        RgbImage::from_fn(w, h, |x, y| {
            let v = pbm::particle::hash32(seed ^ (y * w + x).wrapping_mul(2654435761));
            Rgb([v as u8, (v >> 8) as u8, (v >> 16) as u8])
        })
    }

    #[test]
    fn identical_images_are_perfect() {
        let a = noise(64, 48, 1);
        let c = compare(&a, &a, &[], 32).expect("same size");
        assert!(c.psnr.is_infinite());
        assert!((c.ssim - 1.0).abs() < 1e-12);
        assert_eq!(c.mae, [0.0; 3]);
        assert_eq!(c.over_threshold, 0.0);
        assert_eq!(c.pixels, 64 * 48);
    }

    #[test]
    fn known_figures_of_an_offset() {
        // Constant images 100 and 110: MSE 100 → PSNR 10·log10(65025/100) dB; SSIM of
        // two constants = (2ab + C1)/(a² + b² + C1), the structure term being 1.
        let a = RgbImage::from_pixel(40, 30, Rgb([100, 100, 100]));
        let b = RgbImage::from_pixel(40, 30, Rgb([110, 110, 110]));
        let c = compare(&a, &b, &[], 5).expect("same size");
        assert!(
            (c.psnr - 10.0 * (65025.0f64 / 100.0).log10()).abs() < 1e-9,
            "{}",
            c.psnr
        );
        let c1 = (0.01f64 * 255.0).powi(2);
        let expected = (2.0 * 100.0 * 110.0 + c1) / (100.0f64 * 100.0 + 110.0 * 110.0 + c1);
        assert!((c.ssim - expected).abs() < 1e-9, "{} vs {expected}", c.ssim);
        assert_eq!(c.mae, [10.0; 3]);
        assert_eq!(c.over_threshold, 1.0);
    }

    #[test]
    fn structure_loss_lowers_ssim_and_masks_hide_a_region() {
        let a = noise(64, 64, 7);
        let b = noise(64, 64, 8);
        let c = compare(&a, &b, &[], 32).expect("same size");
        assert!(c.ssim < 0.1, "unrelated noise: {}", c.ssim);
        // The same image with a different top band, masked: perfect again.
        let mut d = a.clone();
        for y in 0..10 {
            for x in 0..64 {
                d.put_pixel(x, y, Rgb([255, 0, 0]));
            }
        }
        let unmasked = compare(&a, &d, &[], 32).expect("same size");
        assert!(unmasked.psnr < 20.0 && unmasked.ssim < 0.95);
        let hud = compare(&a, &d, &[[0, 0, 64, 10]], 32).expect("same size");
        assert!(hud.psnr.is_infinite() && (hud.ssim - 1.0).abs() < 1e-12);
        assert_eq!(hud.pixels, 64 * 54);
        assert!(compare(&a, &noise(32, 32, 1), &[], 32).is_err());
    }

    #[test]
    fn the_heat_map_shows_where_they_differ() {
        let a = RgbImage::from_pixel(4, 1, Rgb([0, 0, 0]));
        let b = RgbImage::from_fn(4, 1, |x, _| Rgb([(x * 85) as u8, 0, 0]));
        let m = heat_map(&a, &b, &[[3, 0, 1, 1]]);
        assert_eq!(m.get_pixel(0, 0), &Rgb([0, 0, 0]));
        assert!(m.get_pixel(2, 0)[0] == 255 && m.get_pixel(2, 0)[1] > 200);
        assert_eq!(m.get_pixel(3, 0), &Rgb([0, 0, 96]));
    }
}

/// Where and when a device capture was taken, as its sidecar says.
#[derive(Debug, Clone, Copy)]
pub struct CaptureView<'a> {
    pub position: pebble_model::glam::Vec3,
    /// Radians.
    pub yaw: f32,
    pub pitch: f32,
    /// Degrees, vertical.
    pub fov: f32,
    pub time: f64,
    /// The environment preset's name.
    pub environment: &'a str,
}

/// The editor's PSP-look picture of `map` for a capture taken at `view`, at the
/// capture's size, with the runtime's moving entities (`solids`: triangles'
/// corners and 0xAABBGGRR colours) where they were;
/// drawn on `gpu` (the editor passes its own device; the command line opens one).
pub fn editor_picture(
    gpu: &crate::Gpu,
    map: &pbm::Map,
    view: &CaptureView,
    size: (u32, u32),
    lod_bias: f32,
    solids: &[([f32; 3], u32)],
) -> Result<RgbImage, crate::RenderError> {
    let solids: Vec<crate::SolidVertex> = solids
        .iter()
        .map(|&(pos, color)| crate::SolidVertex { pos, color })
        .collect();
    let mut scene = crate::DrawScene::from_map(map);
    scene.environment = crate::environment::Environment::preset(view.environment);
    let renderer = crate::Renderer::new(gpu, scene)?;
    let mut camera = crate::Camera::psp(view.position, view.yaw, view.pitch);
    camera.fov_y_deg = view.fov;
    let options = crate::RenderOptions {
        width: size.0,
        height: size.1,
        time: view.time,
        psp: true,
        lod_bias,
        ..Default::default()
    };
    let (image, _) = renderer.render_with(
        &camera,
        &options,
        &crate::Extras {
            solids: &solids,
            ..Default::default()
        },
    )?;
    Ok(image::DynamicImage::ImageRgba8(image).to_rgb8())
}
