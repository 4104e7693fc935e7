//! Pictures on disk: a PNG written atomically, a project's textures loaded for
//! the viewport.

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
