//! A prefab's file, `prefabs/NAME.prefab.ron` in the project: written whole and
//! atomically (a crash leaves the old file or the new one), read with a message
//! that names the file, the line and the column, or what is wrong with it.

use std::path::{Path, PathBuf};

use crate::prefab_piece::{FORMAT, Prefab};

/// The project's folder of prefabs.
pub const FOLDER: &str = "prefabs";
/// A prefab file's name ends so.
pub const EXTENSION: &str = ".prefab.ron";
/// The largest prefab file read (a room of meshes is a few megabytes).
pub const MAX_BYTES: u64 = 64 << 20;

/// Writes `prefab` to `path` atomically.
pub fn save(path: &Path, prefab: &Prefab) -> Result<(), String> {
    prefab
        .check()
        .map_err(|e| format!("{}: {e}", path.display()))?;
    let text = ron::ser::to_string_pretty(prefab, ron::ser::PrettyConfig::default())
        .map_err(|e| format!("{}: {e}", path.display()))?;
    if let Some(dir) = path.parent()
        && !dir.as_os_str().is_empty()
    {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    pbm::file::write_atomic(path, text.as_bytes()).map_err(|e| format!("{}: {e}", path.display()))
}

/// Reads the prefab at `path`.
pub fn load(path: &Path) -> Result<Prefab, String> {
    let at = path.display();
    let size = std::fs::metadata(path)
        .map_err(|e| format!("{at}: {e}"))?
        .len();
    if size > MAX_BYTES {
        return Err(format!(
            "{at}: {size} bytes, more than the {MAX_BYTES} a prefab file may have"
        ));
    }
    let text = std::fs::read_to_string(path).map_err(|e| format!("{at}: {e}"))?;
    let prefab: Prefab = ron::from_str(&text).map_err(|e| {
        format!(
            "{at}: line {}, column {}: {} (not a prefab file Pebble wrote, or damaged)",
            e.span.start.line, e.span.start.col, e.code
        )
    })?;
    if prefab.format > FORMAT {
        return Err(format!(
            "{at}: written by a newer Pebble (prefab format {}, this one reads up to {FORMAT}): update Pebble",
            prefab.format
        ));
    }
    prefab.check().map_err(|e| format!("{at}: {e}"))?;
    Ok(prefab)
}

/// The prefab files of a project's folder, read.
#[derive(Debug, Clone, Default)]
pub struct Folder {
    /// Each file that reads, with its prefab, by file name.
    pub read: Vec<(PathBuf, Prefab)>,
    /// Each file that does not, with why (file, line, column).
    pub unreadable: Vec<(PathBuf, String)>,
}

impl Folder {
    /// Reads `prefabs/` in the project folder `project` (none: empty).
    pub fn read(project: &Path) -> Self {
        let dir = project.join(FOLDER);
        let mut out = Self::default();
        let Ok(entries) = std::fs::read_dir(&dir) else {
            return out;
        };
        let mut paths: Vec<PathBuf> = entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| {
                p.file_name()
                    .and_then(|n| n.to_str())
                    .is_some_and(|n| n.ends_with(EXTENSION) && !n.starts_with('.'))
            })
            .collect();
        paths.sort();
        for path in paths {
            match load(&path) {
                Ok(p) => out.read.push((path, p)),
                Err(e) => out.unreadable.push((path, e)),
            }
        }
        out
    }

    /// The file `prefab` is kept in: the one holding its id, else one named
    /// after it (not taken by another prefab's file).
    pub fn path_for(&self, project: &Path, prefab: &Prefab) -> PathBuf {
        if let Some((path, _)) = self.read.iter().find(|(_, p)| p.id == prefab.id) {
            return path.clone();
        }
        let stem = file_stem(&prefab.name);
        let taken = |p: &Path| {
            self.read.iter().any(|(q, _)| q == p) || self.unreadable.iter().any(|(q, _)| q == p)
        };
        let dir = project.join(FOLDER);
        let mut path = dir.join(format!("{stem}{EXTENSION}"));
        let mut n = 2;
        while taken(&path) {
            path = dir.join(format!("{stem} {n}{EXTENSION}"));
            n += 1;
        }
        path
    }
}

/// A file name for a prefab called `name`, on every system: letters,
/// digits, spaces, `-` and `_` kept, anything else as `_`, never empty nor one
/// of the names Windows keeps for devices.
pub fn file_stem(name: &str) -> String {
    let mut stem: String = name
        .trim()
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || c == ' ' || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    stem = stem.trim().to_owned();
    if stem.is_empty() {
        stem = "prefab".into();
    }
    if pbm::file::is_windows_device_name(&stem) {
        stem.push('_');
    }
    stem
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Entity;
    use crate::command::{AddEntities, AddMaterial, Command, Reparent};
    use crate::entity::{EntityKind, Light};
    use crate::id::EntityId;
    use crate::material::Material;
    use crate::math::Transform;
    use crate::prefab_link::PrefabId;
    use crate::primitive::Primitive;
    use crate::scene::Scene;
    use glam::Vec3;

    /// A doorway: an arch and a torch under it, away from the origin.
    fn doorway() -> (Scene, Vec<EntityId>) {
        let mut scene = Scene::new();
        let mut add = AddMaterial::new(Material::default());
        add.apply(&mut scene).expect("material");
        let m = add.created().expect("id");
        let arch = Primitive::Arch {
            width: 2.0,
            height: 3.0,
            depth: 0.5,
            thickness: 0.4,
            segments: 8,
        };
        let mut add = AddEntities::new(
            "add",
            vec![
                Entity::new(
                    "Arch",
                    EntityKind::Mesh(crate::entity::MeshEntity {
                        geometry: arch.generate(m).expect("geometry"),
                        source: crate::entity::GeometrySource::Primitive(arch),
                        collidable: true,
                    }),
                )
                .with_transform(Transform::from_translation(Vec3::new(10.0, 0.0, 5.0))),
                Entity::new("Torch", EntityKind::Light(Light::default_sun()))
                    .with_transform(Transform::from_translation(Vec3::new(1.0, 2.5, 0.0))),
            ],
        )
        .without_selecting();
        add.apply(&mut scene).expect("adds");
        let ids = add.created();
        Reparent::new(vec![ids[1]], Some(ids[0]))
            .apply(&mut scene)
            .expect("under the arch");
        (scene, ids)
    }

    #[test]
    fn a_prefab_is_made_saved_and_read_back_whole() {
        let (scene, ids) = doorway();
        let prefab = Prefab::from_entities(
            PrefabId(77),
            "Doorway",
            &scene,
            &[ids[0], ids[1]],
            Vec3::new(10.0, 0.0, 5.0),
        )
        .expect("makes");
        assert_eq!(prefab.entities.len(), 2, "the torch once, under the arch");
        assert_eq!(prefab.entities[0].id, EntityId(1));
        assert_eq!(prefab.entities[1].parent, Some(EntityId(1)));
        assert_eq!(
            prefab.entities[0].transform.translation,
            Vec3::ZERO,
            "the root at the prefab's origin"
        );
        assert_eq!(prefab.materials.len(), 1, "the arch's material came along");
        let dir = std::env::temp_dir().join(format!("pebble-prefab-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let path = dir.join(FOLDER).join(format!("doorway{EXTENSION}"));
        save(&path, &prefab).expect("saves");
        assert_eq!(load(&path).expect("loads"), prefab);

        // Damaged: the file, the line and the column are named.
        std::fs::write(
            &path,
            "(format: 1, id: (77), name: \"Doorway\", entities: [",
        )
        .expect("writes");
        let e = load(&path).expect_err("damaged");
        assert!(e.contains("doorway.prefab.ron: line 1, column"), "{e}");
        // From a newer Pebble: said, not misread.
        let mut newer = prefab.clone();
        newer.format = FORMAT + 1;
        let text = ron::to_string(&newer).expect("writes");
        std::fs::write(&path, text).expect("writes");
        assert!(load(&path).expect_err("newer").contains("newer Pebble"));
        // Deleted: said with its path.
        std::fs::remove_file(&path).expect("removes");
        assert!(
            load(&path)
                .expect_err("gone")
                .contains("doorway.prefab.ron")
        );
    }

    #[test]
    fn a_prefab_that_does_not_hold_together_is_refused() {
        let (scene, ids) = doorway();
        let mut prefab =
            Prefab::from_entities(PrefabId(1), "Doorway", &scene, &[ids[0]], Vec3::ZERO)
                .expect("makes");
        prefab.materials.clear();
        assert!(
            prefab
                .check()
                .expect_err("no material")
                .contains("material")
        );
        let mut orphan =
            Prefab::from_entities(PrefabId(1), "Doorway", &scene, &[ids[0]], Vec3::ZERO)
                .expect("makes");
        orphan.entities.swap(0, 1);
        assert!(orphan.check().expect_err("child first").contains("parent"));
        assert!(Prefab::from_entities(PrefabId(1), "None", &scene, &[], Vec3::ZERO).is_err());
    }
}
