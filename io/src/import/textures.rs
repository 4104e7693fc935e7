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

/// Writes `bytes` to `<project>/textures/<stem>.<ext>` atomically, unless the same
/// bytes are already there. An existing file with other content is never overwritten:
/// the name gets a number instead. Returns the project-relative path and whether a
/// file was written.
pub(crate) fn keep_bytes(
    project_dir: &Path,
    stem: &str,
    ext: &str,
    bytes: &[u8],
) -> Result<(String, bool), ImportError> {
    let dir = project_dir.join("textures");
    std::fs::create_dir_all(&dir).map_err(|source| ImportError::Write {
        path: dir.clone(),
        cause: source,
    })?;
    let base = safe_name(stem);
    for n in 0..10_000 {
        let file = if n == 0 {
            format!("{base}.{ext}")
        } else {
            format!("{base}_{n}.{ext}")
        };
        let path = dir.join(&file);
        match std::fs::read(&path) {
            Ok(existing) if existing == bytes => return Ok((format!("textures/{file}"), false)),
            Ok(_) => continue,
            Err(_) => {
                pbm::file::write_atomic(&path, bytes).map_err(|source| ImportError::Write {
                    path: path.clone(),
                    cause: source,
                })?;
                return Ok((format!("textures/{file}"), true));
            }
        }
    }
    Err(ImportError::Write {
        path: dir.join(base),
        cause: std::io::Error::other("too many textures with this name"),
    })
}

/// Encodes RGBA8 texels as PNG and keeps them in the project ([`keep_bytes`]).
pub(crate) fn write_png(
    project_dir: &Path,
    name: &str,
    width: u32,
    height: u32,
    rgba: &[u8],
) -> Result<String, ImportError> {
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
        path: project_dir.join("textures").join(name),
        cause: std::io::Error::other(e.to_string()),
    })?;
    keep_bytes(project_dir, name, "png", &png).map(|(rel, _)| rel)
}
