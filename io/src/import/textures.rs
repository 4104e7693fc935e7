//! Writing imported texels into the project as PNG files.

use std::path::Path;

use super::ImportError;

/// A file-name-safe version of a texture name.
pub(crate) fn safe_name(name: &str) -> String {
    let s: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    if s.is_empty() { "texture".into() } else { s }
}

/// Encodes RGBA8 texels as PNG and writes them to `<project>/textures/<name>.png`
/// (atomically); an existing file with other content is never overwritten: the
/// name gets a number instead. Returns the project-relative path.
pub(crate) fn write_png(
    project_dir: &Path,
    name: &str,
    width: u32,
    height: u32,
    rgba: &[u8],
) -> Result<String, ImportError> {
    let dir = project_dir.join("textures");
    std::fs::create_dir_all(&dir).map_err(|source| ImportError::Write {
        path: dir.clone(),
        source,
    })?;
    let mut png = Vec::new();
    let encoder = image::codecs::png::PngEncoder::new(&mut png);
    image::ImageEncoder::write_image(
        encoder,
        rgba,
        width,
        height,
        image::ExtendedColorType::Rgba8,
    )
    .map_err(|e| ImportError::Write {
        path: dir.join(name),
        source: std::io::Error::other(e.to_string()),
    })?;
    let base = safe_name(name);
    for n in 0..10_000 {
        let file = if n == 0 {
            format!("{base}.png")
        } else {
            format!("{base}_{n}.png")
        };
        let path = dir.join(&file);
        match std::fs::read(&path) {
            Ok(existing) if existing == png => return Ok(format!("textures/{file}")),
            Ok(_) => continue,
            Err(_) => {
                pbm::file::write_atomic(&path, &png).map_err(|source| ImportError::Write {
                    path: path.clone(),
                    source,
                })?;
                return Ok(format!("textures/{file}"));
            }
        }
    }
    Err(ImportError::Write {
        path: dir.join(base),
        source: std::io::Error::other("too many textures with this name"),
    })
}
