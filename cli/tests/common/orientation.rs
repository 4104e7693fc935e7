//! The orientation scene: a map whose every face has its own flat colour (a room
//! seen from inside, a closed box and stairs in it, a cutout, a double-sided plane,
//! a closed building outside), the views to check it from, and which colour each
//! pixel must show, predicted by casting rays against the triangles on the CPU, so
//! a picture is judged against geometry, never against another picture.
//!
//! Single-sided faces are seen only from the side their counter-clockwise winding
//! faces (the format's rule); the cutout is seen from both sides where its texel is
//! opaque; the nearest hit wins.

// Each test binary uses its own share of these.
#![allow(dead_code)]

use std::collections::BTreeMap;

use pebble_model::glam::Vec3;

/// The runtime's vertical field of view and its projection's aspect.
pub const FOV_Y_DEG: f32 = 65.0;
pub const PSP_ASPECT: f32 = 16.0 / 9.0;
pub const WIDTH: u32 = 480;
pub const HEIGHT: u32 = 272;

/// The environment's clear colour (`day`: 0x382218 as 0xBBGGRR).
pub const SKY: [u8; 3] = [0x18, 0x22, 0x38];

/// A camera as the runtime's capture script and `pebble render --cam` take it.
#[derive(Debug, Clone, Copy)]
pub struct View {
    pub name: &'static str,
    pub eye: [f32; 3],
    pub yaw_deg: f32,
    pub pitch_deg: f32,
}

impl View {
    /// `x,y,z,yaw,pitch` for `pebble render --cam`.
    pub fn cam_arg(&self) -> String {
        let [x, y, z] = self.eye;
        format!("{x},{y},{z},{},{}", self.yaw_deg, self.pitch_deg)
    }

    /// The unit vectors right, up and forward (yaw 0 looks down −Z, +yaw turns right).
    fn basis(&self) -> (Vec3, Vec3, Vec3) {
        let (yaw, pitch) = (self.yaw_deg.to_radians(), self.pitch_deg.to_radians());
        let forward = Vec3::new(
            yaw.sin() * pitch.cos(),
            pitch.sin(),
            -yaw.cos() * pitch.cos(),
        );
        let right = forward.cross(Vec3::Y).normalize();
        let up = right.cross(forward);
        (right, up, forward)
    }
}

/// From inside the room, from outside it, and at the closed building.
pub const VIEWS: [View; 4] = [
    View {
        name: "inside, at the stairs and the box",
        eye: [0.0, 1.6, 4.0],
        yaw_deg: 0.0,
        pitch_deg: -12.0,
    },
    View {
        name: "inside, from a corner",
        eye: [-4.0, 2.5, 4.0],
        yaw_deg: 40.0,
        pitch_deg: -18.0,
    },
    View {
        name: "outside the room, above a corner",
        eye: [8.0, 6.0, 8.0],
        yaw_deg: -45.0,
        pitch_deg: -22.0,
    },
    View {
        name: "outside the closed building",
        eye: [12.5, 4.5, 6.5],
        yaw_deg: -23.0,
        pitch_deg: -20.0,
    },
];

/// One flat-coloured face: its triangles (counter-clockwise seen from the front).
struct Face {
    color: [u8; 3],
    triangles: Vec<[Vec3; 3]>,
}

/// The colours faces get: a grid of four levels per channel, without those near
/// the sky, so that every pair differs by 85 in some channel and survives the
/// PSP's 5551 and dither.
fn palette() -> Vec<[u8; 3]> {
    let levels = [0u8, 85, 170, 255];
    let mut out = Vec::new();
    for &b in &levels {
        for &g in &levels {
            for &r in &levels {
                let c = [r, g, b];
                if distance(c, SKY) > 100 {
                    out.push(c);
                }
            }
        }
    }
    out
}

fn distance(a: [u8; 3], b: [u8; 3]) -> u32 {
    (0..3)
        .map(|i| u32::from(a[i].abs_diff(b[i])))
        .max()
        .unwrap_or(0)
}

/// A quad's two triangles, corners counter-clockwise seen from the front.
fn quad(a: Vec3, b: Vec3, c: Vec3, d: Vec3) -> Vec<[Vec3; 3]> {
    vec![[a, b, c], [a, c, d]]
}

/// The six faces of a box from `lo` to `hi`, each a quad facing out (or in).
fn box_faces(lo: Vec3, hi: Vec3, inward: bool) -> Vec<Vec<[Vec3; 3]>> {
    let p = |x: f32, y: f32, z: f32| Vec3::new(x, y, z);
    let (x0, y0, z0, x1, y1, z1) = (lo.x, lo.y, lo.z, hi.x, hi.y, hi.z);
    let faces = vec![
        quad(p(x0, y0, z1), p(x1, y0, z1), p(x1, y1, z1), p(x0, y1, z1)), // +Z
        quad(p(x1, y0, z0), p(x0, y0, z0), p(x0, y1, z0), p(x1, y1, z0)), // −Z
        quad(p(x1, y0, z1), p(x1, y0, z0), p(x1, y1, z0), p(x1, y1, z1)), // +X
        quad(p(x0, y0, z0), p(x0, y0, z1), p(x0, y1, z1), p(x0, y1, z0)), // −X
        quad(p(x0, y1, z1), p(x1, y1, z1), p(x1, y1, z0), p(x0, y1, z0)), // +Y
        quad(p(x0, y0, z0), p(x1, y0, z0), p(x1, y0, z1), p(x0, y0, z1)), // −Y
    ];
    if inward {
        faces
            .into_iter()
            .map(|f| f.into_iter().map(|[a, b, c]| [a, c, b]).collect())
            .collect()
    } else {
        faces
    }
}

/// The scene's parts, in the order the map draws them (the room last, so that a
/// runtime that does not write depth draws its walls over what stands inside).
pub struct Scene {
    /// Opaque single-sided meshes, one per part: (name, faces).
    solids: Vec<(&'static str, Vec<Face>)>,
    /// The cutout: a quad whose texture is opaque for ¼ < u < ¾, clear beside (clear
    /// at both edges, so that a repeating texture's filtering adds no seam there).
    cutout: Face,
    pub palette: Vec<[u8; 3]>,
}

/// The cutout quad's corners (counter-clockwise from +Z) and their UVs.
const CUTOUT: [([f32; 3], [f32; 2]); 4] = [
    ([-0.5, 0.3, 1.0], [0.0, 1.0]),
    ([1.5, 0.3, 1.0], [1.0, 1.0]),
    ([1.5, 2.3, 1.0], [1.0, 0.0]),
    ([-0.5, 2.3, 1.0], [0.0, 0.0]),
];

impl Scene {
    pub fn new() -> Self {
        let palette = palette();
        let mut colours = palette.iter().copied();
        let mut next = move || colours.next().expect("enough colours for every face");
        let mut part = |faces: Vec<Vec<[Vec3; 3]>>| -> Vec<Face> {
            faces
                .into_iter()
                .map(|triangles| Face {
                    color: next(),
                    triangles,
                })
                .collect()
        };
        let v = Vec3::new;
        let mut solids = vec![(
            "Box",
            part(box_faces(v(-3.0, 0.0, -2.5), v(-1.5, 1.5, -1.0), false)),
        )];
        // Stairs: three columns, each a step higher and further back.
        for k in 0..3 {
            let kf = k as f32;
            let lo = v(1.0, 0.0, -1.0 - 0.8 * (kf + 1.0));
            let hi = v(3.0, 0.5 * (kf + 1.0), -1.0 - 0.8 * kf);
            solids.push(("Stairs", part(box_faces(lo, hi, false))));
        }
        // A double-sided plane: the same square both ways, each side its own colour.
        let square = quad(
            v(-1.0, 0.2, -3.5),
            v(0.5, 0.2, -3.5),
            v(0.5, 1.7, -3.5),
            v(-1.0, 1.7, -3.5),
        );
        let back: Vec<[Vec3; 3]> = square.iter().map(|&[a, b, c]| [a, c, b]).collect();
        solids.push(("Two-sided", part(vec![square, back])));
        solids.push((
            "Building",
            part(box_faces(v(8.0, 0.0, -2.0), v(11.0, 3.0, 1.0), false)),
        ));
        solids.push((
            "Room",
            part(box_faces(v(-5.0, 0.0, -5.0), v(5.0, 3.0, 5.0), true)),
        ));
        let c = CUTOUT.map(|(p, _)| Vec3::from(p));
        let cutout = Face {
            color: next(),
            triangles: quad(c[0], c[1], c[2], c[3]),
        };
        Self {
            solids,
            cutout,
            palette,
        }
    }

    /// Every colour a face has.
    pub fn face_colours(&self) -> Vec<[u8; 3]> {
        let mut out: Vec<[u8; 3]> = self
            .solids
            .iter()
            .flat_map(|(_, faces)| faces.iter().map(|f| f.color))
            .collect();
        out.push(self.cutout.color);
        out
    }

    /// The map the runtime and the renderer draw: one untextured mesh per face,
    /// coloured by its vertices, cut into triangles no longer than [`MAX_EDGE`],
    /// then the cutout with its texture.
    pub fn map(&self) -> pbm::Map {
        self.map_cut_to(MAX_EDGE)
    }

    /// [`Scene::map`] with its faces whole (two triangles a wall, 12 m across): the
    /// room's walls and floor reach past the GE's guard band and behind the eye from
    /// every view inside, so only a runtime that clips them to the band (the GE
    /// drops such triangles whole) draws them.
    pub fn map_uncut(&self) -> pbm::Map {
        self.map_cut_to(f32::INFINITY)
    }

    fn map_cut_to(&self, max_edge: f32) -> pbm::Map {
        let rgba = |c: [u8; 3]| {
            u32::from(c[0]) | u32::from(c[1]) << 8 | u32::from(c[2]) << 16 | 0xFF00_0000
        };
        let mut meshes = Vec::new();
        let mut index = 0;
        for (name, faces) in &self.solids {
            for face in faces {
                let mut small = Vec::new();
                for t in &face.triangles {
                    cut(*t, max_edge, &mut small);
                }
                let vertices = small
                    .iter()
                    .flatten()
                    .map(|p| pbm::Vertex {
                        uv: [0.0, 0.0],
                        color: rgba(face.color),
                        pos: p.to_array(),
                    })
                    .collect();
                meshes.push(mesh(&format!("{name} {index}"), -1, vertices));
                index += 1;
            }
        }
        let corner = |i: usize| pbm::Vertex {
            uv: CUTOUT[i].1,
            color: rgba(self.cutout.color),
            pos: CUTOUT[i].0,
        };
        let cutout_vertices = [0, 1, 2, 0, 2, 3].map(corner).to_vec();
        meshes.push(mesh("Cutout", 0, cutout_vertices));
        let (w, h) = (16u16, 16u16);
        let mut texels = Vec::new();
        for _ in 0..h {
            for x in 0..w {
                let a = if (w / 4..3 * w / 4).contains(&x) {
                    255
                } else {
                    0
                };
                texels.extend([255, 255, 255, a]);
            }
        }
        let mut map = pbm::Map {
            spawn_pos: [0.0, 1.6, 4.0],
            textures: vec![pbm::Texture {
                name: pbm::Name32::new("Cutout").expect("a short name"),
                width: w,
                height: h,
                format: pbm::TextureFormat::Rgba5551,
                alpha_mode: pbm::AlphaMode::Cutout,
                data: pbm::texture::encode(&texels, pbm::TextureFormat::Rgba5551),
            }],
            meshes,
            ..Default::default()
        };
        let all = map
            .meshes
            .iter()
            .flat_map(|m| m.vertices.iter().map(|v| v.pos));
        let (lo, hi) = bounds(all);
        map.bounds_min = lo;
        map.bounds_max = hi;
        map
    }

    /// The colour each pixel of a `width`×`height` picture from `view` must show
    /// (`None`: the sky), with the projection's `aspect`.
    pub fn predict(
        &self,
        view: &View,
        width: u32,
        height: u32,
        aspect: f32,
    ) -> Vec<Option<[u8; 3]>> {
        let (right, up, forward) = view.basis();
        let eye = Vec3::from(view.eye);
        let tan = (FOV_Y_DEG.to_radians() / 2.0).tan();
        let solids: Vec<(&[Vec3; 3], [u8; 3])> = self
            .solids
            .iter()
            .flat_map(|(_, faces)| faces.iter())
            .flat_map(|f| f.triangles.iter().map(move |t| (t, f.color)))
            .collect();
        let mut out = Vec::with_capacity((width * height) as usize);
        for py in 0..height {
            for px in 0..width {
                let x = (2.0 * (px as f32 + 0.5) / width as f32 - 1.0) * tan * aspect;
                let y = (1.0 - 2.0 * (py as f32 + 0.5) / height as f32) * tan;
                let dir = (forward + right * x + up * y).normalize();
                let mut best: Option<(f32, [u8; 3])> = None;
                for (tri, color) in &solids {
                    if let Some((t, _, _)) = hit(eye, dir, tri, true)
                        && best.is_none_or(|(b, _)| t < b)
                    {
                        best = Some((t, *color));
                    }
                }
                for tri in &self.cutout.triangles {
                    if let Some((t, pos, _)) = hit(eye, dir, tri, false)
                        && best.is_none_or(|(b, _)| t < b)
                        && cutout_opaque_at(pos)
                    {
                        best = Some((t, self.cutout.color));
                    }
                }
                out.push(best.map(|(_, c)| c));
            }
        }
        out
    }
}

/// The longest edge a drawn triangle keeps.
pub const MAX_EDGE: f32 = 0.7;

/// `t` cut at the middle of its longest edge until no edge is longer than
/// `max_edge`; each piece keeps the winding.
fn cut(t: [Vec3; 3], max_edge: f32, out: &mut Vec<[Vec3; 3]>) {
    let edges = [(0, 1), (1, 2), (2, 0)];
    let (i, j) = edges
        .into_iter()
        .max_by(|a, b| {
            let la = t[a.0].distance(t[a.1]);
            let lb = t[b.0].distance(t[b.1]);
            la.total_cmp(&lb)
        })
        .expect("three edges");
    if t[i].distance(t[j]) <= max_edge {
        out.push(t);
        return;
    }
    let m = (t[i] + t[j]) / 2.0;
    let mut first = t;
    first[j] = m;
    let mut second = t;
    second[i] = m;
    cut(first, max_edge, out);
    cut(second, max_edge, out);
}

/// Whether the cutout's texel is opaque at a point on its quad (¼ < u < ¾).
fn cutout_opaque_at(p: Vec3) -> bool {
    let (x0, x1) = (CUTOUT[0].0[0], CUTOUT[1].0[0]);
    let u = (p.x - x0) / (x1 - x0);
    (0.25..0.75).contains(&u)
}

fn mesh(name: &str, texture_id: i32, vertices: Vec<pbm::Vertex>) -> pbm::Mesh {
    let (bounds_min, bounds_max) = bounds(vertices.iter().map(|v| v.pos));
    pbm::Mesh {
        name: pbm::Name32::truncated(name),
        texture_id,
        bounds_min,
        bounds_max,
        uv_scroll: [0.0, 0.0],
        vertices,
    }
}

fn bounds(points: impl Iterator<Item = [f32; 3]>) -> ([f32; 3], [f32; 3]) {
    let mut lo = [f32::MAX; 3];
    let mut hi = [f32::MIN; 3];
    for p in points {
        for i in 0..3 {
            lo[i] = lo[i].min(p[i]);
            hi[i] = hi[i].max(p[i]);
        }
    }
    (lo, hi)
}

/// Möller–Trumbore: the distance along the ray and the point it hits; with
/// `front_only`, a triangle seen from behind (clockwise) is not hit.
fn hit(eye: Vec3, dir: Vec3, tri: &[Vec3; 3], front_only: bool) -> Option<(f32, Vec3, bool)> {
    let e1 = tri[1] - tri[0];
    let e2 = tri[2] - tri[0];
    let normal = e1.cross(e2);
    let front = normal.dot(dir) < 0.0;
    if front_only && !front {
        return None;
    }
    let p = dir.cross(e2);
    let det = e1.dot(p);
    if det.abs() < 1e-9 {
        return None;
    }
    let inv = 1.0 / det;
    let s = eye - tri[0];
    let u = s.dot(p) * inv;
    if !(0.0..=1.0).contains(&u) {
        return None;
    }
    let q = s.cross(e1);
    let v = dir.dot(q) * inv;
    if v < 0.0 || u + v > 1.0 {
        return None;
    }
    let t = e2.dot(q) * inv;
    (t > 1e-4).then(|| (t, eye + dir * t, front))
}

/// How a picture compares with the prediction.
#[derive(Debug)]
pub struct Judgement {
    /// Pixels whose colour is the one predicted (sky included), as a fraction.
    pub agreement: f64,
    /// Face colours predicted in view (at least `min_pixels`) but drawn in few of
    /// their pixels (under a third), with predicted and drawn counts.
    pub missing: Vec<([u8; 3], usize, usize)>,
    /// Face colours predicted nowhere but drawn in more than `min_pixels` pixels
    /// away from the edges between predicted colours (where filtering and a
    /// blended cutout's soft rim legitimately mix two colours into a third).
    pub unexpected: Vec<([u8; 3], usize)>,
    /// Face colours predicted in view.
    pub visible: usize,
}

impl Judgement {
    pub fn ok(&self) -> bool {
        self.missing.is_empty() && self.unexpected.is_empty() && self.agreement >= 0.95
    }
}

/// Classifies each pixel of `rgb` (row-major, `width` wide) as the nearest face
/// colour or the sky, and compares it with `predicted`.
pub fn judge(
    scene: &Scene,
    rgb: &[[u8; 3]],
    predicted: &[Option<[u8; 3]>],
    width: usize,
    min_pixels: usize,
) -> Judgement {
    // Pixels whose neighbours two pixels around are all predicted alike.
    let height = predicted.len() / width.max(1);
    let interior = |i: usize| {
        let (x, y) = ((i % width) as i64, (i / width) as i64);
        (-2..=2).all(|dy| {
            (-2..=2).all(|dx| {
                let (nx, ny) = (x + dx, y + dy);
                nx < 0
                    || ny < 0
                    || nx >= width as i64
                    || ny >= height as i64
                    || predicted[(ny as usize) * width + nx as usize] == predicted[i]
            })
        })
    };
    let colours = scene.face_colours();
    let classify = |p: [u8; 3]| -> Option<Option<[u8; 3]>> {
        let mut best = (distance(p, SKY), None);
        for &c in &colours {
            let d = distance(p, c);
            if d < best.0 {
                best = (d, Some(c));
            }
        }
        (best.0 <= 40).then_some(best.1)
    };
    let mut predicted_count: BTreeMap<[u8; 3], usize> = BTreeMap::new();
    let mut drawn_count: BTreeMap<[u8; 3], usize> = BTreeMap::new();
    let mut agree = 0usize;
    let mut stray_count: BTreeMap<[u8; 3], usize> = BTreeMap::new();
    for (i, (p, want)) in rgb.iter().zip(predicted).enumerate() {
        let got = classify(*p);
        if got == Some(*want) {
            agree += 1;
        }
        if let Some(c) = want {
            *predicted_count.entry(*c).or_default() += 1;
        }
        if let Some(Some(c)) = got {
            *drawn_count.entry(c).or_default() += 1;
            if got != Some(*want) && interior(i) {
                *stray_count.entry(c).or_default() += 1;
            }
        }
    }
    let mut missing = Vec::new();
    let mut unexpected = Vec::new();
    let mut visible = 0;
    for c in colours {
        let want = predicted_count.get(&c).copied().unwrap_or(0);
        let got = drawn_count.get(&c).copied().unwrap_or(0);
        if want >= min_pixels {
            visible += 1;
            if got * 3 < want {
                missing.push((c, want, got));
            }
        } else if want == 0 {
            let stray = stray_count.get(&c).copied().unwrap_or(0);
            if stray > min_pixels {
                unexpected.push((c, stray));
            }
        }
    }
    Judgement {
        agreement: agree as f64 / predicted.len().max(1) as f64,
        missing,
        unexpected,
        visible,
    }
}
