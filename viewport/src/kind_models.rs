//! The models described kinds are drawn by (a kind's `model`: one asset for all
//! its instances, or each instance's asset field): each file read once through
//! the importers (their textures go to a scratch folder, never the project), its
//! meshes' feature edges kept in model space while the file is unchanged. A file
//! that does not read is said once in the log and its instances keep their
//! shapes; it is tried again when it changes on disk.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::SystemTime;

use pebble_model::definitions::Definitions;
use pebble_model::entity::EntityKind;
use pebble_model::glam::Vec3;
use pebble_model::{Command as _, Scene};
use pebble_render::game_overlay::ModelEdges;

/// The largest model file read for drawing (a prop is kilobytes; a level is not
/// a kind's model).
const MAX_MODEL_BYTES: u64 = 32 << 20;
/// Edges drawn of one model at most (its instances are drawn as lines, each
/// frame's overlay holds them all).
const MAX_EDGES: usize = 4096;

#[derive(Debug, Clone)]
struct Loaded {
    modified: Option<SystemTime>,
    edges: Result<Arc<Vec<(Vec3, Vec3)>>, String>,
}

/// The models read so far and the edges of those that read.
#[derive(Debug, Default, Clone)]
pub struct KindModels {
    folder: PathBuf,
    loaded: HashMap<String, Loaded>,
    edges: Arc<ModelEdges>,
    /// Changes whenever a model is read (again): the overlay is built again.
    pub generation: u64,
}

impl KindModels {
    /// Reads every model the scene's described entities name that is new or
    /// changed on disk (paths relative to `folder`, the project's); returns what
    /// to tell the log.
    pub fn update(&mut self, scene: &Scene, defs: &Definitions, folder: &Path) -> Vec<String> {
        if self.folder != folder {
            *self = Self {
                folder: folder.to_owned(),
                generation: self.generation + 1,
                ..Self::default()
            };
        }
        let mut wanted: Vec<&str> = Vec::new();
        for e in scene.entities() {
            if let EntityKind::Defined(d) = &e.kind
                && let Some(path) = defs.kind(&d.kind).and_then(|k| k.model_of(d))
                && !wanted.contains(&path)
            {
                wanted.push(path);
            }
        }
        let mut said = Vec::new();
        let mut changed = false;
        for rel in wanted {
            let path = folder.join(rel);
            let modified = std::fs::metadata(&path).and_then(|m| m.modified()).ok();
            if self.loaded.get(rel).is_some_and(|l| l.modified == modified) {
                continue;
            }
            let edges = read(&path).map(Arc::new);
            if let Err(why) = &edges {
                said.push(format!(
                    "the model {rel} does not read ({why}); its entities are drawn by their shape"
                ));
            }
            self.loaded
                .insert(rel.to_owned(), Loaded { modified, edges });
            changed = true;
        }
        if changed {
            self.generation += 1;
            self.edges = Arc::new(
                self.loaded
                    .iter()
                    .filter_map(|(k, l)| Some((k.clone(), l.edges.as_ref().ok()?.clone())))
                    .collect(),
            );
        }
        said
    }

    /// The edges of every model that read, by project-relative path.
    pub fn edges(&self) -> &Arc<ModelEdges> {
        &self.edges
    }
}

/// A model file's feature edges, its meshes placed as the file places them.
fn read(path: &Path) -> Result<Vec<(Vec3, Vec3)>, String> {
    let size = std::fs::metadata(path)
        .map_err(|e| format!("{}: {e}", path.display()))?
        .len();
    if size > MAX_MODEL_BYTES {
        return Err(format!(
            "{size} bytes, more than the {MAX_MODEL_BYTES} a kind's model may have"
        ));
    }
    let scratch = std::env::temp_dir().join(format!("pebble-kind-model-{}", std::process::id()));
    let options = pebble_io::import::ImportOptions::new(&scratch);
    let imported = pebble_io::import::import_file(path, &options, &mut |_| {});
    let _ = std::fs::remove_dir_all(&scratch);
    let mut command = imported.map_err(|e| e.to_string())?.command;
    let mut scene = Scene::new();
    command.apply(&mut scene).map_err(|e| e.to_string())?;
    let mut edges = Vec::new();
    for e in scene.entities() {
        // What the file draws: collision-only meshes are not the model.
        if let EntityKind::Mesh(m) = &e.kind
            && e.visible
        {
            let world = scene.world_transform(e.id);
            edges.extend(
                crate::outline::feature_edges(&m.geometry)
                    .into_iter()
                    .map(|(a, b)| (world.transform_point3(a), world.transform_point3(b))),
            );
        }
    }
    if edges.is_empty() {
        return Err("it holds no mesh".into());
    }
    edges.truncate(MAX_EDGES);
    Ok(edges)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A kind's model, written as a glTF exporter writes one, is read once into
    /// edges where its vertices are; a missing one is said and not read again
    /// until it changes.
    #[test]
    fn a_kind_s_model_is_read_once_and_a_missing_one_said() {
        let dir = std::env::temp_dir().join(format!("pebble-kind-models-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("models")).expect("dir");
        std::fs::write(dir.join("models/tri.gltf"), TRIANGLE).expect("writes");
        let defs = Definitions::parse(
            r#"(kinds: [
                (name: "Tri", model: Asset("models/tri.gltf")),
                (name: "Gone", model: Asset("models/none.glb")),
            ])"#,
        )
        .expect("reads");
        let mut scene = Scene::new();
        pebble_model::command::AddEntities::new(
            "add",
            ["Tri", "Gone"]
                .map(|k| {
                    pebble_model::Entity::new(
                        k,
                        EntityKind::Defined(pebble_model::entity::DefinedEntity::new(k)),
                    )
                })
                .to_vec(),
        )
        .apply(&mut scene)
        .expect("adds");
        let mut models = KindModels::default();
        let said = models.update(&scene, &defs, &dir);
        assert_eq!(said.len(), 1, "{said:?}");
        assert!(said[0].contains("models/none.glb"), "{said:?}");
        let edges = models.edges().get("models/tri.gltf").expect("read");
        assert_eq!(edges.len(), 3, "a triangle's three edges");
        assert!(
            edges.iter().any(|(a, b)| a.y == 2.0 || b.y == 2.0),
            "{edges:?}"
        );
        let generation = models.generation;
        assert!(models.update(&scene, &defs, &dir).is_empty(), "said once");
        assert_eq!(models.generation, generation, "nothing read again");
    }

    /// One triangle (0,0,0) (1,0,0) (0,2,0) in an embedded buffer.
    const TRIANGLE: &str = r#"{
        "asset": {"version": "2.0"},
        "scenes": [{"nodes": [0]}], "scene": 0,
        "nodes": [{"mesh": 0}],
        "meshes": [{"primitives": [{"attributes": {"POSITION": 0}}]}],
        "accessors": [{"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3",
                       "min": [0, 0, 0], "max": [1, 2, 0]}],
        "bufferViews": [{"buffer": 0, "byteLength": 36}],
        "buffers": [{"byteLength": 36,
                     "uri": "data:application/octet-stream;base64,AAAAAAAAAAAAAAAAAACAPwAAAAAAAAAAAAAAAAAAAEAAAAAA"}]
    }"#;
}
