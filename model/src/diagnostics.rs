//! Problems worth telling the user before export: missing textures, broken
//! references, JSON that does not parse, a map without a player spawn.

use std::path::Path;

use crate::entity::{Collider, EntityKind, Kind};
use crate::id::{EntityId, MaterialId};
use crate::project::resolve_asset;
use crate::scene::Scene;

#[derive(Debug, Clone, PartialEq)]
pub struct Diagnostic {
    pub entity: Option<EntityId>,
    pub material: Option<MaterialId>,
    pub message: String,
}

fn json_object(text: &str) -> Result<(), String> {
    match serde_json::from_str::<serde_json::Value>(text) {
        Ok(serde_json::Value::Object(_)) => Ok(()),
        Ok(_) => Err("is JSON but not an object".into()),
        Err(e) => Err(format!("is not valid JSON ({e})")),
    }
}

/// Everything suspicious about a scene; `project` resolves texture paths.
pub fn diagnose(scene: &Scene, project: Option<&Path>) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let mut push = |entity: Option<EntityId>, material: Option<MaterialId>, message: String| {
        out.push(Diagnostic {
            entity,
            material,
            message,
        });
    };
    for (id, m) in scene.materials() {
        if let (Some(tex), Some(project)) = (&m.texture, project) {
            let path = resolve_asset(project, tex);
            if !path.is_file() {
                push(
                    None,
                    Some(id),
                    format!(
                        "material '{}': texture '{tex}' not found at {}",
                        m.name,
                        path.display()
                    ),
                );
            }
        }
    }
    for e in scene.entities() {
        let id = Some(e.id);
        match &e.kind {
            EntityKind::Defined(d) if d.kind == "Trigger" => {
                let text = |f| {
                    crate::definitions::builtin::value(d, f)
                        .and_then(|v| v.as_text())
                        .unwrap_or_default()
                };
                let properties = text("properties");
                if let Err(why) = json_object(properties).or_else(|w| {
                    if properties.trim().is_empty() {
                        Ok(())
                    } else {
                        Err(w)
                    }
                }) {
                    push(id, None, format!("trigger '{}': properties {why}", e.name));
                }
                if text("event").trim().is_empty() {
                    push(id, None, format!("trigger '{}' has no event name", e.name));
                }
            }
            EntityKind::Custom(c) => {
                if let Err(why) = json_object(&c.json) {
                    push(
                        id,
                        None,
                        format!("custom entity '{}' ({}): its data {why}", e.name, c.tag),
                    );
                }
            }
            EntityKind::Collider(Collider::TriMesh { mesh })
                if !matches!(
                    scene.entity(*mesh).map(|m| &m.kind),
                    Some(EntityKind::Mesh(_))
                ) =>
            {
                push(
                    id,
                    None,
                    format!("collider '{}' uses {mesh}, which is not a mesh", e.name),
                );
            }
            EntityKind::Emitter(em) => {
                if em.count == 0 {
                    push(id, None, format!("emitter '{}' has 0 particles", e.name));
                }
                if em.count > 64 {
                    push(
                        id,
                        None,
                        format!(
                            "emitter '{}' has {} particles; the runtime shows at most 64",
                            e.name, em.count
                        ),
                    );
                }
            }
            _ => {}
        }
    }
    let particles: u32 = scene
        .entities_of(Kind::Emitter)
        .filter_map(|e| match &e.kind {
            EntityKind::Emitter(em) => Some(u32::from(em.count.min(64))),
            _ => None,
        })
        .sum();
    if particles > 256 {
        push(
            None,
            None,
            format!("{particles} particles in the map; the runtime shows at most 256"),
        );
    }
    if scene.entities_described("PlayerSpawn").next().is_none() {
        push(
            None,
            None,
            "no player spawn: the map starts at the origin".into(),
        );
    }
    out
}
