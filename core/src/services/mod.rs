//! What the editor window and the command line share, so that neither reaches into
//! the other: a scene's export (options from its own settings, bytes in memory),
//! what a deployment copies, the PSP-look preview of a capture, the showcase
//! project, where an imported model goes (`placement`) and what to say of it
//! (`import_review`), and writing a PNG. `app` and `cli` both call these; `app` never imports
//! `cli`.

pub mod deploy;
pub mod export;
pub mod import_review;
pub mod placement;
pub mod ppsspp;
pub mod preview;
pub mod showcase;

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

/// Loads project-relative textures for the viewport.
pub fn texture_loader(
    project: &std::path::Path,
) -> impl Fn(&str) -> Result<image::RgbaImage, String> + '_ {
    move |relative: &str| {
        let path = pebble_model::project::resolve_asset(project, relative);
        image::open(&path)
            .map(|i| i.to_rgba8())
            .map_err(|e| format!("{}: {e}", path.display()))
    }
}
