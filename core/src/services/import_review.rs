//! What an import brings that a designer should hear about before exporting: the
//! checks and the additions the import window and `pebble import` share (a mesh as
//! big as a whole map, a huge texture).

use pebble_io::export::MAX_TRIANGLES;

/// "12.3k", "950".
pub fn count(n: u64) -> String {
    if n >= 10_000 && n.is_multiple_of(1000) {
        format!("{}k", n / 1000)
    } else if n >= 10_000 {
        format!("{:.1}k", n as f64 / 1000.0)
    } else {
        n.to_string()
    }
}

/// A texture side from which an import is warned about (it is cut down to the
/// export's largest texture, and holds memory in the editor meanwhile).
pub const HUGE_TEXTURE_SIDE: u32 = 4096;

/// What an import brings that the PSP cannot take as it is: a mesh with as many
/// triangles as a whole map may hold, a texture 4096 texels a side or more
/// (materials' textures are project-relative, under `project_dir`).
pub fn warnings(
    entities: &[pebble_model::Entity],
    materials: &[pebble_model::Material],
    project_dir: &std::path::Path,
) -> Vec<String> {
    let mut out = Vec::new();
    for e in entities {
        if let pebble_model::EntityKind::Mesh(m) = &e.kind {
            let n = m.geometry.faces.len() as u64;
            if n >= MAX_TRIANGLES {
                out.push(format!(
                    "mesh '{}' has {} triangles, as many as a whole PSP map holds ({}): simplify it (or split it) before exporting",
                    e.name,
                    count(n),
                    count(MAX_TRIANGLES)
                ));
            }
        }
    }
    for m in materials {
        let Some(texture) = &m.texture else { continue };
        if let Ok((w, h)) = image::image_dimensions(project_dir.join(texture))
            && w.max(h) >= HUGE_TEXTURE_SIDE
        {
            out.push(format!(
                "texture {texture} is {w} × {h}: the export cuts it down to the largest texture the map allows (Map settings, 512 at most); a smaller file saves memory"
            ));
        }
    }
    out
}
