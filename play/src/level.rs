//! What a map gives gameplay: collision geometry sorted into walls and ground, the
//! trigger volumes, patrol spheres, the ball pit and the spawn — read from a
//! checked [`pbm::MapView`], with a message for every lump it cannot use.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use pbm::{ColliderKind, MapView, tag};

use crate::json::Json;
use crate::vec::{self, V3};

/// The most balls one pit simulates (a pit asking for more gets this many).
pub const MAX_BALLS: usize = 64;

/// Triangles whose normal's Y is at least this are ground (about 53° of slope).
const GROUND_NY: f32 = 0.6;

#[derive(Debug, Clone, PartialEq)]
pub struct Trigger {
    pub id: String,
    pub event: String,
    pub min: V3,
    pub max: V3,
    pub oneshot: bool,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Patrol {
    pub radius: f32,
    /// 0xAABBGGRR.
    pub color: u32,
    /// m/s along the closed loop.
    pub speed: f32,
    pub waypoints: Vec<V3>,
}

impl Patrol {
    /// Where the sphere is at time `t`: constant speed (2.5 m/s when the record's
    /// is ≤ 0.01) around the closed loop of its waypoints; fewer than two stay put.
    pub fn position(&self, t: f64) -> V3 {
        let w = &self.waypoints;
        match w.len() {
            0 => [0.0; 3],
            1 => w[0],
            n => {
                let lengths: Vec<f32> = (0..n)
                    .map(|k| vec::length(vec::sub(w[(k + 1) % n], w[k])))
                    .collect();
                let loop_length: f32 = lengths.iter().sum();
                if loop_length <= 1e-6 {
                    return w[0];
                }
                let speed = if self.speed > 0.01 { self.speed } else { 2.5 };
                let mut d = libm::fmod(t * f64::from(speed), f64::from(loop_length)) as f32;
                if d < 0.0 {
                    d += loop_length;
                }
                for k in 0..n {
                    if d <= lengths[k] || k == n - 1 {
                        let f = if lengths[k] > 0.0 {
                            (d / lengths[k]).clamp(0.0, 1.0)
                        } else {
                            0.0
                        };
                        return vec::add(w[k], vec::scale(vec::sub(w[(k + 1) % n], w[k]), f));
                    }
                    d -= lengths[k];
                }
                w[0]
            }
        }
    }
}

/// A `sound_sources` entry: where a sound plays and how far it carries (the
/// runtime's debug view marks it; a game built on the map plays `cue` there).
#[derive(Debug, Clone, PartialEq)]
pub struct GameMarker {
    pub position: V3,
    /// Its kind's index in the lump.
    pub kind: u32,
}

#[derive(Debug, Clone, PartialEq)]
pub struct SoundPoint {
    pub id: String,
    pub position: V3,
    pub cue: String,
    pub radius: f32,
}

/// The `rigid_bodies` lump's ball pit.
#[derive(Debug, Clone, PartialEq)]
pub struct PitSpec {
    pub count: u32,
    pub radius: f32,
    pub mass: f32,
    pub restitution: f32,
    pub min: V3,
    pub max: V3,
}

#[derive(Debug, Clone, Default)]
pub struct Level {
    /// BOX colliders (AABBs): walls on their sides, ground on top.
    pub boxes: Vec<(V3, V3)>,
    /// Steep TRIMESH triangles.
    pub walls: Vec<[V3; 3]>,
    /// `walkable_mesh`, RAMP and up-facing TRIMESH triangles.
    pub ground: Vec<[V3; 3]>,
    pub triggers: Vec<Trigger>,
    pub patrols: Vec<Patrol>,
    pub pit: Option<PitSpec>,
    pub sounds: Vec<SoundPoint>,
    /// The game's own entities (`game_entities`): where each is and its kind.
    pub game_entities: Vec<GameMarker>,
    /// The kinds the `game_entities` lump defines.
    pub game_kinds: usize,
    pub spawn: V3,
    pub spawn_yaw: f32,
    pub fov_deg: Option<f32>,
    /// Below this the player has fallen out of the map and respawns.
    pub kill_y: f32,
}

impl Level {
    /// The gameplay content of a map, and what could not be used (one message each).
    pub fn from_view(view: &MapView<'_>) -> (Self, Vec<String>) {
        let mut level = Level {
            spawn: view.header().spawn_pos,
            spawn_yaw: view.header().spawn_rot,
            ..Default::default()
        };
        let mut problems = Vec::new();
        let mut lowest = view.header().bounds_min[1];
        let mut sort = |t: [V3; 3], ground_only: bool, level: &mut Level| {
            let n = vec::normalize(vec::cross(vec::sub(t[1], t[0]), vec::sub(t[2], t[0])));
            lowest = lowest.min(t[0][1]).min(t[1][1]).min(t[2][1]);
            match n {
                Some(n) if n[1] >= GROUND_NY => level.ground.push(t),
                Some(n) if !ground_only && n[1] > -GROUND_NY => level.walls.push(t),
                _ => {}
            }
        };
        for c in view.colliders() {
            match c.kind {
                ColliderKind::Box => level.boxes.push((c.bounds_min, c.bounds_max)),
                ColliderKind::TriMesh => {
                    for t in c.triangles() {
                        sort(t, false, &mut level);
                    }
                }
                ColliderKind::Ramp => {
                    for t in c.triangles() {
                        sort(t, true, &mut level);
                    }
                }
                ColliderKind::Unknown(k) => problems.push(format!(
                    "collider {} has unknown type {k}; it is ignored",
                    c.name.as_str()
                )),
            }
        }
        if let Some(m) = view.metadata_by_tag(tag::WALKABLE_MESH) {
            for c in m.payload.chunks_exact(36) {
                let f = |k: usize| {
                    f32::from_le_bytes([c[k * 4], c[k * 4 + 1], c[k * 4 + 2], c[k * 4 + 3]])
                };
                let t = [[f(0), f(1), f(2)], [f(3), f(4), f(5)], [f(6), f(7), f(8)]];
                if t.iter().flatten().all(|v| v.is_finite()) {
                    // Walkable surfaces are ground whichever way they were wound.
                    let n = vec::cross(vec::sub(t[1], t[0]), vec::sub(t[2], t[0]));
                    level
                        .ground
                        .push(if n[1] >= 0.0 { t } else { [t[0], t[2], t[1]] });
                    lowest = lowest.min(t[0][1]).min(t[1][1]).min(t[2][1]);
                }
            }
        }
        for m in view.metadata() {
            let lump = m.tag.as_str();
            let json = || m.text().map(Json::parse);
            match lump {
                tag::PLAYER_SPAWN => match json() {
                    Some(Ok(j)) => {
                        if let Some(p) = j.get("position").and_then(Json::as_vec3) {
                            level.spawn = p;
                        }
                        if let Some(y) = j.get("yaw").and_then(Json::as_f32) {
                            level.spawn_yaw = y;
                        }
                        level.fov_deg = j
                            .get("camera_fov")
                            .and_then(Json::as_f32)
                            .filter(|f| (10.0..=170.0).contains(f));
                    }
                    other => problems.push(unreadable(lump, other)),
                },
                tag::TRIGGERS => {
                    match json() {
                        Some(Ok(Json::Array(items))) => {
                            for (k, t) in items.iter().enumerate() {
                                match (t.get("bounds_min").and_then(Json::as_vec3), t.get("bounds_max").and_then(Json::as_vec3)) {
                                (Some(min), Some(max)) => level.triggers.push(Trigger {
                                    id: t.get("id").and_then(Json::as_str).unwrap_or("").to_string(),
                                    event: t.get("event").and_then(Json::as_str).unwrap_or("").to_string(),
                                    min,
                                    max,
                                    oneshot: t.get("oneshot").and_then(Json::as_bool).unwrap_or(false),
                                }),
                                _ => problems.push(format!("triggers[{k}] has no bounds_min / bounds_max; it is ignored")),
                            }
                            }
                        }
                        other => problems.push(unreadable(lump, other)),
                    }
                }
                tag::RIGID_BODIES => {
                    match json() {
                        Some(Ok(j))
                            if j.get("type").and_then(Json::as_str) == Some(tag::BALL_PIT) =>
                        {
                            let f = |k: &str, d: f32| j.get(k).and_then(Json::as_f32).unwrap_or(d);
                            match (j.get("spawn_min").and_then(Json::as_vec3), j.get("spawn_max").and_then(Json::as_vec3)) {
                            (Some(min), Some(max)) => {
                                level.pit = Some(PitSpec {
                                    count: (f("count", 16.0).max(0.0) as u32).min(balls_cap()),
                                    radius: f("radius", 0.22).clamp(0.01, 5.0),
                                    mass: f("mass", 1.0).max(1e-3),
                                    restitution: f("restitution", 0.75).clamp(0.0, 1.0),
                                    min,
                                    max,
                                })
                            }
                            _ => problems.push(String::from("rigid_bodies: the ball pit has no spawn_min / spawn_max; no balls")),
                        }
                        }
                        Some(Ok(_)) => problems
                            .push(String::from("rigid_bodies: only \"ball_pit\" is simulated")),
                        other => problems.push(unreadable(lump, other)),
                    }
                }
                tag::SOUND_SOURCES => match json() {
                    Some(Ok(Json::Array(items))) => {
                        for (k, t) in items.iter().enumerate() {
                            match t.get("position").and_then(Json::as_vec3) {
                                Some(position) => level.sounds.push(SoundPoint {
                                    id: t
                                        .get("id")
                                        .and_then(Json::as_str)
                                        .unwrap_or("")
                                        .to_string(),
                                    position,
                                    cue: t
                                        .get("cue")
                                        .and_then(Json::as_str)
                                        .unwrap_or("")
                                        .to_string(),
                                    radius: t
                                        .get("radius")
                                        .and_then(Json::as_f32)
                                        .filter(|r| r.is_finite() && *r > 0.0)
                                        .unwrap_or(1.0),
                                }),
                                None => problems.push(format!(
                                    "sound_sources[{k}] has no position; it is ignored"
                                )),
                            }
                        }
                    }
                    other => problems.push(unreadable(lump, other)),
                },
                tag::ENTITIES => {
                    for p in pbm::entity::decode_entities(m.payload) {
                        if p.entity_type == pbm::entity::PATROL_SPHERE_TYPE {
                            level.patrols.push(Patrol {
                                radius: if p.radius.is_finite() && p.radius > 0.0 {
                                    p.radius
                                } else {
                                    0.5
                                },
                                color: p.color,
                                speed: if p.speed.is_finite() { p.speed } else { 0.0 },
                                waypoints: p
                                    .active_waypoints()
                                    .iter()
                                    .copied()
                                    .filter(|w| w.iter().all(|c| c.is_finite()))
                                    .collect(),
                            });
                        }
                    }
                }
                tag::GAME_ENTITIES => match pbm::game_entities::GameEntities::decode(m.payload) {
                    Ok(lump) => {
                        level.game_kinds = lump.kinds.len();
                        level.game_entities = lump
                            .instances
                            .iter()
                            .filter(|i| i.position.iter().all(|c| c.is_finite()))
                            .map(|i| GameMarker {
                                position: i.position,
                                kind: i.kind,
                            })
                            .collect();
                    }
                    Err(e) => problems.push(e.to_string()),
                },
                _ => {}
            }
        }
        level.kill_y = lowest - 30.0;
        (level, problems)
    }

    /// The highest ground (walkable, ramp, up-facing collider, box top) under (x, z)
    /// no higher than `below`.
    pub fn ground_at(&self, x: f32, z: f32, below: f32) -> Option<f32> {
        let mut best: Option<f32> = None;
        let mut offer = |h: f32| {
            if h <= below && best.is_none_or(|b| h > b) {
                best = Some(h);
            }
        };
        for t in &self.ground {
            if let Some(h) = vec::height_at(t, x, z, 0.01) {
                offer(h);
            }
        }
        for (min, max) in &self.boxes {
            if x >= min[0] && x <= max[0] && z >= min[2] && z <= max[2] {
                offer(max[1]);
            }
        }
        best
    }
}

fn balls_cap() -> u32 {
    MAX_BALLS as u32
}

fn unreadable(tag: &str, parsed: Option<Result<Json, usize>>) -> String {
    match parsed {
        None => format!("{tag}: not UTF-8 text; it is ignored"),
        Some(Err(at)) => format!("{tag}: JSON error at byte {at}; it is ignored"),
        Some(Ok(_)) => format!("{tag}: unexpected shape; it is ignored"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;

    #[test]
    fn a_patrol_loops_at_constant_speed() {
        let p = Patrol {
            radius: 0.5,
            color: 0,
            speed: 1.0,
            waypoints: vec![[0.0, 0.0, 0.0], [4.0, 0.0, 0.0], [4.0, 0.0, 3.0]],
        };
        // Loop: 4 + 3 + 5 = 12 m.
        assert_eq!(p.position(0.0), [0.0, 0.0, 0.0]);
        assert_eq!(p.position(2.0), [2.0, 0.0, 0.0]);
        assert_eq!(p.position(5.0), [4.0, 0.0, 1.0]);
        let back = p.position(9.5);
        assert!(
            (back[0] - 2.0).abs() < 1e-5 && (back[2] - 1.5).abs() < 1e-5,
            "{back:?}"
        );
        assert_eq!(p.position(12.0), p.position(0.0));
        // A zero speed means the runtime's default, 2.5 m/s.
        let slow = Patrol {
            speed: 0.0,
            ..p.clone()
        };
        assert_eq!(slow.position(0.8), [2.0, 0.0, 0.0]);
        let alone = Patrol {
            waypoints: vec![[1.0, 2.0, 3.0]],
            ..p
        };
        assert_eq!(alone.position(7.0), [1.0, 2.0, 3.0]);
    }

    #[test]
    fn reads_sound_sources_and_says_what_it_skips() {
        let mut map = pbm::Map::default();
        map.metadata.push(pbm::Metadata::text(
            pbm::Name32::truncated(tag::SOUND_SOURCES),
            pbm::MetaKind::Json,
            r#"[{"id":"Fountain","position":[1,2,3],"cue":"water","radius":6,"volume":0.5,"loop":true},
                {"id":"Lost","cue":"wind"},
                {"id":"Odd","position":[0,0,0],"radius":-2}]"#,
        ));
        let bytes = map.to_bytes().expect("writes");
        let (view, _) = MapView::parse(&bytes).expect("parses");
        let (level, problems) = Level::from_view(&view);
        assert_eq!(
            level.sounds,
            vec![
                SoundPoint {
                    id: "Fountain".into(),
                    position: [1.0, 2.0, 3.0],
                    cue: "water".into(),
                    radius: 6.0,
                },
                SoundPoint {
                    id: "Odd".into(),
                    position: [0.0, 0.0, 0.0],
                    cue: String::new(),
                    radius: 1.0,
                },
            ]
        );
        assert_eq!(
            problems,
            vec![String::from(
                "sound_sources[1] has no position; it is ignored"
            )]
        );
        let spheres: Vec<_> = crate::shapes::sound_spheres(&level.sounds).collect();
        assert_eq!(spheres.len(), 2);
        assert_eq!(spheres[0].centre, [1.0, 2.0, 3.0]);
    }

    #[test]
    fn counts_the_game_entities_and_marks_them_by_kind() {
        use pbm::game_entities::{GameEntities, Instance, KindSchema};
        let lump = GameEntities {
            hash: 7,
            kinds: vec![
                KindSchema {
                    name: "Door".into(),
                    fields: vec![],
                },
                KindSchema {
                    name: "Coin".into(),
                    fields: vec![],
                },
            ],
            instances: (0..3)
                .map(|k| Instance {
                    kind: u32::from(k > 0),
                    id: k + 1,
                    position: [k as f32, 0.0, 0.0],
                    rotation: [0.0, 0.0, 0.0, 1.0],
                    name: format!("e{k}"),
                    values: vec![],
                })
                .collect(),
        };
        let mut map = pbm::Map::default();
        map.metadata.push(pbm::Metadata {
            tag: pbm::Name32::truncated(tag::GAME_ENTITIES),
            kind: pbm::MetaKind::Entity,
            payload: lump.encode().expect("encodes"),
        });
        let bytes = map.to_bytes().expect("writes");
        let (view, _) = MapView::parse(&bytes).expect("parses");
        let (level, problems) = Level::from_view(&view);
        assert!(problems.is_empty(), "{problems:?}");
        assert_eq!((level.game_entities.len(), level.game_kinds), (3, 2));
        let spheres: Vec<_> = crate::shapes::game_entity_spheres(&level.game_entities).collect();
        assert_eq!(spheres[0].color, crate::shapes::GAME_COLORS[0]);
        assert_eq!(spheres[2].color, crate::shapes::GAME_COLORS[1]);
        // A damaged lump is said, not trusted.
        let mut broken = map.clone();
        broken.metadata[0].payload.truncate(40);
        let bytes = broken.to_bytes().expect("writes");
        let (view, _) = MapView::parse(&bytes).expect("parses");
        let (level, problems) = Level::from_view(&view);
        assert!(level.game_entities.is_empty());
        assert!(problems[0].contains("game_entities"), "{problems:?}");
    }

    #[test]
    fn reads_the_fixtures_gameplay() {
        let bytes = std::fs::read(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../pbm/tests/fixtures/full.pbm"
        ))
        .expect("the fixture");
        let (view, _) = MapView::parse(&bytes).expect("parses");
        let (level, problems) = Level::from_view(&view);
        assert!(problems.is_empty(), "{problems:?}");
        assert_eq!(level.boxes.len(), 1, "Collider_Box_Crate");
        assert!(!level.walls.is_empty(), "the north wall's sides");
        assert!(level.ground.len() >= 2 + 2, "walkable floor and the ramp");
        assert_eq!(level.spawn, [0.0, 1.6, 4.2]);
        assert_eq!(level.fov_deg, Some(65.0));
        // The floor is ground at y = 0 in the middle of the courtyard.
        assert_eq!(level.ground_at(0.0, 0.0, 1.0), Some(0.0));
        // On the crate (1.5..2.5, 0..1, −2.5..−1.5) its top is the ground.
        assert_eq!(level.ground_at(2.0, -2.0, 1.2), Some(1.0));
        assert_eq!(
            level.triggers,
            vec![Trigger {
                id: "cutscene_archway".into(),
                event: "on_enter_archway".into(),
                min: [-2.0, 0.0, -5.8],
                max: [2.0, 3.5, -4.8],
                oneshot: true,
            }]
        );
        let pit = level.pit.expect("the ball pit");
        assert_eq!((pit.count, pit.radius, pit.restitution), (16, 0.22, 0.75));
        assert_eq!((pit.min, pit.max), ([-0.8, 2.0, -0.8], [0.8, 4.0, 0.8]));
        assert_eq!(level.patrols.len(), 1);
        assert!(level.patrols[0].waypoints.len() >= 2);
    }
}
