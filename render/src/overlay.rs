//! Editor overlays, built from a scene as plain geometry: the ground grid, collider
//! wireframes, light and emitter icons, and walkable surfaces as a translucent
//! tint (the described kinds — spawn, triggers, patrols… — are
//! `game_overlay.rs`'s). Lines are depth-tested but
//! never write depth; the renderer draws them after the scene. Selection and hover
//! tints are per entity ([`crate::RenderOptions::selected`]).

use pebble_model::entity::{Collider, EntityKind, Light, volume_aabb};
use pebble_model::glam::{Affine3A, Vec3};
use pebble_model::{EntityId, Scene};

/// A coloured line vertex (colour 0xAABBGGRR).
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
pub struct LineVertex {
    pub pos: [f32; 3],
    pub color: u32,
}

/// Lines (pairs of vertices) and translucent triangles (triples), depth-tested;
/// and lines and triangles drawn over everything (the gizmo's handles, as quads
/// of a constant width on screen).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Overlay {
    pub lines: Vec<LineVertex>,
    pub triangles: Vec<LineVertex>,
    pub on_top: Vec<LineVertex>,
    pub on_top_triangles: Vec<LineVertex>,
}

/// What to include: the grid and each kind of entity's overlay, one layer each.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct OverlayOptions {
    /// Grid lines every metre within this many metres of `grid_centre`; 0: none.
    /// (The editor draws a grid that follows its view instead: [`Overlay::view_grid`].)
    pub grid_extent: f32,
    pub grid_centre: Vec3,
    pub colliders: bool,
    /// Light icons (and a sun's direction).
    pub lights: bool,
    /// Emitter icons with their direction.
    pub emitters: bool,
    pub walkable: bool,
    /// Draw the selected entities' overlay in the selection colour.
    pub highlight_selection: bool,
}

impl Default for OverlayOptions {
    fn default() -> Self {
        Self {
            grid_extent: 20.0,
            grid_centre: Vec3::ZERO,
            colliders: true,
            lights: true,
            emitters: true,
            walkable: true,
            highlight_selection: false,
        }
    }
}

/// A box's twelve edges, as pairs of its corners numbered by bit 0: x, 1: y, 2: z
/// (the order of [`pebble_model::Aabb::corners`]).
pub const BOX_EDGES: [(usize, usize); 12] = [
    (0, 1),
    (2, 3),
    (4, 5),
    (6, 7),
    (0, 2),
    (1, 3),
    (4, 6),
    (5, 7),
    (0, 4),
    (1, 5),
    (2, 6),
    (3, 7),
];

pub const GRID_MINOR: u32 = 0x60_80_80_80;
pub const GRID_MAJOR: u32 = 0xB0_B0_B0_B0;
pub const AXIS_X: u32 = 0xFF_40_40_E0;
pub const AXIS_Z: u32 = 0xFF_E0_60_40;
pub const AXIS_Y: u32 = 0xFF_40_C0_50;

/// The plane an editor grid lies on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum GridPlane {
    /// y = 0: the ground (perspective and top views).
    #[default]
    Ground,
    /// z = 0: what a front or back view looks at.
    Front,
    /// x = 0: what a side view looks at.
    Side,
}

impl GridPlane {
    /// The world axes (0 x, 1 y, 2 z) the plane's grid lines run along: u, then v.
    pub fn axes(self) -> (usize, usize) {
        match self {
            Self::Ground => (0, 2),
            Self::Front => (0, 1),
            Self::Side => (2, 1),
        }
    }
}
pub const COLLIDER: u32 = 0xFF_40_E0_FF;
pub const LIGHT: u32 = 0xFF_40_E0_FF;
pub const EMITTER: u32 = 0xFF_FF_C0_40;
/// A selected entity's overlay (the selection tint's orange).
pub const SELECTED: u32 = 0xFF_28_AA_FF;
pub const WALKABLE: u32 = 0x50_40_E0_40;

impl Overlay {
    pub fn line(&mut self, a: Vec3, b: Vec3, color: u32) {
        self.lines.push(LineVertex {
            pos: a.to_array(),
            color,
        });
        self.lines.push(LineVertex {
            pos: b.to_array(),
            color,
        });
    }

    /// The twelve edges of a box given by its eight corners (bit 0: x, 1: y, 2: z).
    fn cage(&mut self, corners: [Vec3; 8], color: u32) {
        for (a, b) in BOX_EDGES {
            self.line(corners[a], corners[b], color);
        }
    }

    pub(crate) fn boxed(&mut self, world: &Affine3A, lo: Vec3, hi: Vec3, color: u32) {
        let corners = std::array::from_fn(|i| {
            world.transform_point3(Vec3::new(
                if i & 1 == 0 { lo.x } else { hi.x },
                if i & 2 == 0 { lo.y } else { hi.y },
                if i & 4 == 0 { lo.z } else { hi.z },
            ))
        });
        self.cage(corners, color);
    }

    /// A small three-axis star: light and emitter icons.
    pub(crate) fn star(&mut self, at: Vec3, size: f32, color: u32) {
        for d in [
            Vec3::X,
            Vec3::Y,
            Vec3::Z,
            Vec3::new(1.0, 1.0, 0.0).normalize(),
            Vec3::new(-1.0, 1.0, 0.0).normalize(),
        ] {
            self.line(at - d * size, at + d * size, color);
        }
    }

    /// A faint pole from a marker down to the ground (y = 0), so that where it
    /// stands is plain from any angle.
    pub(crate) fn pole(&mut self, at: Vec3, color: u32) {
        if at.y > 0.05 {
            let faint = (color & 0x00_FF_FF_FF) | 0x70_00_00_00;
            self.line(at, Vec3::new(at.x, 0.0, at.z), faint);
        }
    }

    /// The overlay of a scene's drawn entities.
    pub fn of_scene(scene: &Scene, options: &OverlayOptions) -> Self {
        let mut o = Self::default();
        if options.grid_extent > 0.0 {
            o.grid(options.grid_centre, options.grid_extent);
        }
        for e in scene.entities() {
            if !scene.is_drawn(e.id) {
                continue;
            }
            let start = o.lines.len();
            o.entity(scene, e.id, options);
            if options.highlight_selection && scene.selection().contains(&e.id) {
                for v in &mut o.lines[start..] {
                    v.color = SELECTED;
                }
            }
        }
        o
    }

    /// One entity's overlay alone (what a click on its marker hits).
    pub fn of_entity(scene: &Scene, id: EntityId, options: &OverlayOptions) -> Self {
        let mut o = Self::default();
        o.entity(scene, id, options);
        o
    }

    /// Grid lines on y = 0 every metre (every tenth brighter), the X and Z axes red
    /// and blue.
    pub fn grid(&mut self, centre: Vec3, extent: f32) {
        let n = extent.min(500.0).floor() as i32;
        let (cx, cz) = (centre.x.round() as i32, centre.z.round() as i32);
        for k in -n..=n {
            let (x, z) = ((cx + k) as f32, (cz + k) as f32);
            let xcolor = if cx + k == 0 {
                AXIS_Z
            } else if (cx + k) % 10 == 0 {
                GRID_MAJOR
            } else {
                GRID_MINOR
            };
            let zcolor = if cz + k == 0 {
                AXIS_X
            } else if (cz + k) % 10 == 0 {
                GRID_MAJOR
            } else {
                GRID_MINOR
            };
            let (z0, z1) = ((cz - n) as f32, (cz + n) as f32);
            let (x0, x1) = ((cx - n) as f32, (cx + n) as f32);
            self.line(Vec3::new(x, 0.0, z0), Vec3::new(x, 0.0, z1), xcolor);
            self.line(Vec3::new(x0, 0.0, z), Vec3::new(x1, 0.0, z), zcolor);
        }
    }

    /// The grid an editor view shows: lines `spacing` apart on y = 0 round
    /// `centre` (snapped to the spacing, so it does not swim), `half` lines each
    /// way, every tenth brighter, the X and Z axes in their colours; each line
    /// fades out towards its ends, so the grid melts into the distance instead of
    /// stopping at an edge.
    pub fn view_grid(&mut self, centre: Vec3, spacing: f32, half: u32) {
        self.view_grid_on(GridPlane::Ground, centre, spacing, half);
    }

    /// [`Overlay::view_grid`] on `plane` through the world's origin: the ground, or
    /// the upright plane a front or side orthographic view looks at (its axes in
    /// their colours, Y in green).
    pub fn view_grid_on(&mut self, plane: GridPlane, centre: Vec3, spacing: f32, half: u32) {
        let spacing = if spacing.is_finite() && spacing > 1e-4 {
            spacing
        } else {
            1.0
        };
        let (a, b) = plane.axes();
        let axis_color = |axis: usize| [AXIS_X, AXIS_Y, AXIS_Z][axis];
        let at = |u: f32, v: f32| {
            let mut p = [0.0f32; 3];
            p[a] = u;
            p[b] = v;
            Vec3::from(p)
        };
        let half = half.clamp(1, 500) as i64;
        let (cu, cv) = (
            (centre[a] / spacing).round() as i64,
            (centre[b] / spacing).round() as i64,
        );
        let reach = half as f32 * spacing;
        let (ou, ov) = (cu as f32 * spacing, cv as f32 * spacing);
        let faded = |color: u32, k: i64| {
            // Brightest at the centre line, gone at the edge.
            let t = 1.0 - (k.abs() as f32 / half as f32);
            let alpha = ((color >> 24) as f32 * t.clamp(0.0, 1.0)) as u32;
            (color & 0x00_FF_FF_FF) | (alpha << 24)
        };
        for k in -half..=half {
            let (iu, iv) = (cu + k, cv + k);
            let pick = |i: i64, axis: u32| {
                if i == 0 {
                    axis
                } else if i % 10 == 0 {
                    GRID_MAJOR
                } else {
                    GRID_MINOR
                }
            };
            let (u, v) = (iu as f32 * spacing, iv as f32 * spacing);
            // The line u = const runs along the b axis (it is that axis at u = 0).
            let (ucolor, vcolor) = (
                faded(pick(iu, axis_color(b)), k),
                faded(pick(iv, axis_color(a)), k),
            );
            // Each line in two halves, faded from its middle to its ends.
            for (p0, mid, p1, color) in [
                (at(u, ov - reach), at(u, ov), at(u, ov + reach), ucolor),
                (at(ou - reach, v), at(ou, v), at(ou + reach, v), vcolor),
            ] {
                let end = color & 0x00_FF_FF_FF;
                for (p, q) in [(p0, mid), (mid, p1)] {
                    let (cp, cq) = if p == mid { (color, end) } else { (end, color) };
                    self.lines.push(LineVertex {
                        pos: p.to_array(),
                        color: cp,
                    });
                    self.lines.push(LineVertex {
                        pos: q.to_array(),
                        color: cq,
                    });
                }
            }
        }
    }

    fn entity(&mut self, scene: &Scene, id: EntityId, options: &OverlayOptions) {
        let Some(e) = scene.entity(id) else { return };
        let world = scene.world_transform(id);
        let at: Vec3 = world.translation.into();
        match &e.kind {
            EntityKind::Collider(Collider::Box { size }) if options.colliders => {
                let b = volume_aabb(*size);
                self.boxed(&world, b.min, b.max, COLLIDER);
            }
            EntityKind::Collider(Collider::Ramp { size }) if options.colliders => {
                // A wedge: full height at −Z, zero at +Z, standing like the box.
                let v = volume_aabb(*size);
                let p = |x: f32, y: f32, z: f32| world.transform_point3(Vec3::new(x, y, z));
                let (bl, br, fl, fr) = (
                    p(v.min.x, v.min.y, v.max.z),
                    p(v.max.x, v.min.y, v.max.z),
                    p(v.min.x, v.min.y, v.min.z),
                    p(v.max.x, v.min.y, v.min.z),
                );
                let (tl, tr) = (p(v.min.x, v.max.y, v.min.z), p(v.max.x, v.max.y, v.min.z));
                for (a, b) in [
                    (bl, br),
                    (fl, fr),
                    (bl, fl),
                    (br, fr),
                    (tl, tr),
                    (fl, tl),
                    (fr, tr),
                    (bl, tl),
                    (br, tr),
                ] {
                    self.line(a, b, COLLIDER);
                }
            }
            EntityKind::Light(light) if options.lights => {
                self.star(at, 0.25, LIGHT);
                self.pole(at, LIGHT);
                if let Light::Sun { direction, .. } = light {
                    self.line(at, at + direction.normalize_or(Vec3::NEG_Y), LIGHT);
                }
                if let Light::Omni {
                    cone: Some(cone),
                    radius,
                    ..
                } = light
                {
                    // A spot light's outer cone, a metre (or its reach) long, along −Z.
                    let axis = world
                        .transform_vector3(Vec3::NEG_Z)
                        .normalize_or(Vec3::NEG_Y);
                    let (u, v) = axis.any_orthonormal_pair();
                    let length = radius.min(1.0);
                    let spread = length * cone.outer.min(1.5).tan();
                    let rim: Vec<Vec3> = (0..8)
                        .map(|k| {
                            let a = k as f32 * std::f32::consts::TAU / 8.0;
                            at + axis * length + (u * a.cos() + v * a.sin()) * spread
                        })
                        .collect();
                    for (k, p) in rim.iter().enumerate() {
                        self.line(at, *p, LIGHT);
                        self.line(*p, rim[(k + 1) % rim.len()], LIGHT);
                    }
                }
            }
            EntityKind::Emitter(em) if options.emitters => {
                self.star(at, 0.2, EMITTER);
                self.pole(at, EMITTER);
                self.line(at, at + em.dir.normalize_or(Vec3::Y) * 0.5, EMITTER);
            }
            EntityKind::Walkable(mesh) if options.walkable => {
                for f in &mesh.faces {
                    for i in f.indices {
                        let p = mesh
                            .positions
                            .get(i as usize)
                            .copied()
                            .unwrap_or(Vec3::ZERO);
                        // Lifted a little so the tint does not fight the floor.
                        let p = world.transform_point3(p) + Vec3::Y * 0.01;
                        self.triangles.push(LineVertex {
                            pos: p.to_array(),
                            color: WALKABLE,
                        });
                    }
                }
            }
            // Their layer is off (or a triangle collider: its mesh is drawn).
            EntityKind::Collider(_)
            | EntityKind::Light(_)
            | EntityKind::Emitter(_)
            | EntityKind::Walkable(_) => {}
            // Nothing to draw over them.
            EntityKind::Group | EntityKind::Mesh(_) | EntityKind::Custom(_) => {}
            // Drawn by their definitions (`defined_markers`).
            EntityKind::Defined(_) => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pebble_model::command::AddEntities;
    use pebble_model::{Command, Entity, Transform};

    #[test]
    fn the_overlay_holds_the_grid_and_the_colliders() {
        let mut scene = Scene::new();
        let at = |x: f32| Transform::from_translation(Vec3::new(x, 1.0, 0.0));
        AddEntities::new(
            "Add",
            vec![
                Entity::new(
                    "Box",
                    EntityKind::Collider(Collider::Box { size: Vec3::ONE }),
                )
                .with_transform(at(0.0)),
            ],
        )
        .apply(&mut scene)
        .expect("adds");
        let o = Overlay::of_scene(
            &scene,
            &OverlayOptions {
                grid_extent: 2.0,
                ..Default::default()
            },
        );
        let count = |color: u32| o.lines.iter().filter(|v| v.color == color).count() / 2;
        assert_eq!(count(COLLIDER), 12);
        // 5 lines each way; the axes are the ones through zero.
        assert_eq!(count(AXIS_X) + count(AXIS_Z), 2);
        assert_eq!(count(GRID_MINOR) + count(GRID_MAJOR), 8);
        // Each layer can be left out on its own.
        let without = Overlay::of_scene(
            &scene,
            &OverlayOptions {
                grid_extent: 0.0,
                colliders: false,
                ..Default::default()
            },
        );
        let count = |color: u32| without.lines.iter().filter(|v| v.color == color).count() / 2;
        assert_eq!(count(COLLIDER), 0);
        assert_eq!(count(GRID_MINOR) + count(AXIS_X), 0);
    }

    #[test]
    fn no_layer_s_colour_looks_like_the_selection() {
        let rgb = |c: u32| [c & 0xFF, (c >> 8) & 0xFF, (c >> 16) & 0xFF];
        let described = pebble_model::definitions::builtin::kinds()
            .kinds
            .iter()
            .map(|k| (k.name.as_str(), crate::game_overlay::line_colour(k.colour)));
        for (name, c) in [
            ("collider", COLLIDER),
            ("light", LIGHT),
            ("emitter", EMITTER),
        ]
        .into_iter()
        .chain(described)
        {
            let (a, s) = (rgb(c), rgb(SELECTED));
            let far = (0..3).map(|k| a[k].abs_diff(s[k])).max().unwrap_or(0);
            assert!(
                far >= 50,
                "{name} {a:?} is within {far} of the selection's {s:?}"
            );
        }
    }

    #[test]
    fn the_selection_s_overlay_is_drawn_in_the_selection_colour() {
        let mut scene = Scene::new();
        let mut add = AddEntities::new(
            "Add",
            vec![
                Entity::new("A", EntityKind::Collider(Collider::Box { size: Vec3::ONE })),
                Entity::new("B", EntityKind::Collider(Collider::Box { size: Vec3::ONE })),
            ],
        );
        add.apply(&mut scene).expect("adds");
        scene.select(vec![add.created()[0]]);
        let options = |highlight_selection| OverlayOptions {
            grid_extent: 0.0,
            highlight_selection,
            ..Default::default()
        };
        let count = |o: &Overlay, color| o.lines.iter().filter(|v| v.color == color).count() / 2;
        let lit = Overlay::of_scene(&scene, &options(true));
        assert_eq!((count(&lit, SELECTED), count(&lit, COLLIDER)), (12, 12));
        let plain = Overlay::of_scene(&scene, &options(false));
        assert_eq!((count(&plain, SELECTED), count(&plain, COLLIDER)), (0, 24));
    }

    #[test]
    fn lights_and_emitters_stand_on_a_pole_to_the_ground() {
        let mut scene = Scene::new();
        AddEntities::new(
            "Add",
            vec![
                Entity::new(
                    "Torch",
                    EntityKind::Light(Light::Omni {
                        color: [1.0; 3],
                        radius: 4.0,
                        intensity: 1.0,
                        shadows: false,
                        cone: None,
                    }),
                )
                .with_transform(Transform::from_translation(Vec3::new(2.0, 1.5, -1.0))),
            ],
        )
        .apply(&mut scene)
        .expect("adds");
        let o = Overlay::of_scene(
            &scene,
            &OverlayOptions {
                grid_extent: 0.0,
                ..Default::default()
            },
        );
        let faint = (LIGHT & 0x00_FF_FF_FF) | 0x70_00_00_00;
        let pole: Vec<[f32; 3]> = o
            .lines
            .iter()
            .filter(|v| v.color == faint)
            .map(|v| v.pos)
            .collect();
        assert_eq!(pole, vec![[2.0, 1.5, -1.0], [2.0, 0.0, -1.0]]);
    }

    #[test]
    fn the_view_grid_is_centred_under_the_view_snapped_to_its_spacing_and_fades_out() {
        let mut o = Overlay::default();
        o.view_grid(Vec3::new(1003.4, 0.0, -2.6), 0.5, 20);
        let xs: Vec<f32> = o.lines.iter().map(|v| v.pos[0]).collect();
        let (lo, hi) = (
            xs.iter().copied().fold(f32::INFINITY, f32::min),
            xs.iter().copied().fold(f32::NEG_INFINITY, f32::max),
        );
        assert_eq!(
            (lo, hi),
            (1003.5 - 10.0, 1003.5 + 10.0),
            "round the snapped centre"
        );
        // Lines every 0.5 m: the ones parallel to Z sit on multiples of it.
        assert!(
            o.lines
                .iter()
                .filter(|v| v.pos[2] == -2.5 - 10.0)
                .all(|v| (v.pos[0] / 0.5).fract() == 0.0)
        );
        // Opaque nowhere at an end, brightest in the middle.
        let alpha = |v: &LineVertex| v.color >> 24;
        let ends = o.lines.iter().filter(|v| v.pos[0] == lo || v.pos[0] == hi);
        assert!(ends.clone().count() > 0 && ends.clone().all(|v| alpha(v) == 0));
        let middle = o
            .lines
            .iter()
            .filter(|v| v.pos[0] == 1003.5 && v.pos[2] == -2.5)
            .map(alpha)
            .max();
        assert_eq!(middle, Some(GRID_MINOR >> 24));
    }

    /// A front view's grid stands on z = 0, its lines along X and Y, the Y axis
    /// in green and the ground line (y = 0) in X's red.
    #[test]
    fn a_front_grid_stands_upright_with_its_axes_coloured() {
        let mut o = Overlay::default();
        o.view_grid_on(GridPlane::Front, Vec3::new(2.2, 1.4, 7.0), 1.0, 10);
        assert!(o.lines.iter().all(|v| v.pos[2] == 0.0), "on z = 0");
        let ys: Vec<f32> = o.lines.iter().map(|v| v.pos[1]).collect();
        let (lo, hi) = (
            ys.iter().copied().fold(f32::INFINITY, f32::min),
            ys.iter().copied().fold(f32::NEG_INFINITY, f32::max),
        );
        assert_eq!(
            (lo, hi),
            (1.0 - 10.0, 1.0 + 10.0),
            "round the view's height"
        );
        let colour_of = |at: [f32; 3]| {
            o.lines
                .iter()
                .find(|v| v.pos == at)
                .map(|v| v.color & 0x00_FF_FF_FF)
        };
        // The vertical line x = 0 is the Y axis; the horizontal y = 0, the X axis.
        assert_eq!(colour_of([0.0, 1.0, 0.0]), Some(AXIS_Y & 0x00_FF_FF_FF));
        assert_eq!(colour_of([2.0, 0.0, 0.0]), Some(AXIS_X & 0x00_FF_FF_FF));
    }
}
