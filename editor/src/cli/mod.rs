//! Command-line subcommands, one module each, and their shared output helper.

pub mod capture;
pub mod compare;
pub mod deploy;
pub mod export;
pub mod import;
pub mod pbm;
pub mod project;
pub mod render;
pub mod showcase;

use std::io::Write as _;

/// Writes to stdout; a closed pipe (`pebble … | head`) ends output quietly instead
/// of failing.
pub fn emit(text: &str) -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        other => Ok(other?),
    }
}

/// Encodes an image as PNG and writes it atomically.
pub fn write_png(path: &std::path::Path, image: &image::RgbaImage) -> anyhow::Result<()> {
    use anyhow::Context as _;
    use image::ImageEncoder as _;
    let mut png = Vec::new();
    image::codecs::png::PngEncoder::new(&mut png)
        .write_image(
            image.as_raw(),
            image.width(),
            image.height(),
            image::ExtendedColorType::Rgba8,
        )
        .with_context(|| format!("cannot encode {}", path.display()))?;
    ::pbm::file::write_atomic(path, &png)
        .with_context(|| format!("cannot write {}", path.display()))
}
