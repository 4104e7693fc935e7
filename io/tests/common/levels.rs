//! Three levels shaped as the tools designers bring them from write them, for the
//! real-levels tests and `pebble project bench` (`cargo run -p pebble-io --example
//! real_levels -- DIR` writes them):
//!
//! - **arena** (58 k triangles), as Blender 4.2's glTF exporter writes a level: one
//!   node per object (pillars are linked duplicates sharing one mesh), every
//!   material `doubleSided` (Blender's default, backface culling off), a 120 m floor
//!   of two triangles, 120 m walls, PNG textures.
//! - **town** (30 k triangles), as Sketchfab serves a model converted from FBX:
//!   positions in centimetres under `Sketchfab_model` (Z-up to Y-up) and a
//!   `town.fbx` node that scales by 0.01; a 392 m water plane of two triangles.
//! - **terrain** (72 k triangles), as Godot 4.3 exports a scene: `EXT_texture_webp`
//!   used and required, the textures WebP only; a 570 m heightfield on 3 m cells and
//!   a 2048 m ocean plane of two triangles.
//!
//! Everything is generated from a fixed seed: the same bytes every time.

use serde_json::{Value, json};

/// A fresh, empty folder for one test's files (named by `label` and the process).
pub fn scratch(label: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("pebble-levels-{label}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    dir
}

/// A small deterministic generator (an LCG), so the levels need no crate.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Self(seed)
    }

    /// A number in 0..1.
    pub fn next(&mut self) -> f32 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((self.0 >> 40) as f32) / ((1u64 << 24) as f32)
    }

    pub fn range(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * self.next()
    }
}

/// One primitive's vertices and triangles.
#[derive(Default, Clone)]
pub struct Part {
    pub positions: Vec<[f32; 3]>,
    pub normals: Vec<[f32; 3]>,
    pub uvs: Vec<[f32; 2]>,
    pub indices: Vec<u32>,
}

fn sub(a: [f32; 3], b: [f32; 3]) -> [f32; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

fn cross(a: [f32; 3], b: [f32; 3]) -> [f32; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

fn normalise(a: [f32; 3]) -> [f32; 3] {
    let l = (a[0] * a[0] + a[1] * a[1] + a[2] * a[2]).sqrt().max(1e-12);
    [a[0] / l, a[1] / l, a[2] / l]
}

impl Part {
    pub fn triangles(&self) -> usize {
        self.indices.len() / 3
    }

    /// A quad a, b, c, d (counter-clockwise seen from its front), UVs scaled by
    /// `repeat` metres per tile.
    pub fn quad(&mut self, c: [[f32; 3]; 4], repeat: f32) {
        let base = self.positions.len() as u32;
        let n = normalise(cross(sub(c[1], c[0]), sub(c[2], c[0])));
        let (w, h) = (
            {
                let d = sub(c[1], c[0]);
                (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt()
            },
            {
                let d = sub(c[3], c[0]);
                (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt()
            },
        );
        let (u, v) = (w / repeat, h / repeat);
        for (p, uv) in c.iter().zip([[0.0, v], [u, v], [u, 0.0], [0.0, 0.0]]) {
            self.positions.push(*p);
            self.normals.push(n);
            self.uvs.push(uv);
        }
        self.indices
            .extend([base, base + 1, base + 2, base, base + 2, base + 3]);
    }

    /// One triangle a, b, c (counter-clockwise seen from its front).
    pub fn triangle(&mut self, c: [[f32; 3]; 3]) {
        let base = self.positions.len() as u32;
        let n = normalise(cross(sub(c[1], c[0]), sub(c[2], c[0])));
        for (p, uv) in c.iter().zip([[0.0, 1.0], [1.0, 1.0], [0.5, 0.0]]) {
            self.positions.push(*p);
            self.normals.push(n);
            self.uvs.push(uv);
        }
        self.indices.extend([base, base + 1, base + 2]);
    }

    /// A box from `lo` to `hi`, faces outward.
    pub fn cuboid(&mut self, lo: [f32; 3], hi: [f32; 3], repeat: f32) {
        let p = |x: usize, y: usize, z: usize| {
            [
                if x == 0 { lo[0] } else { hi[0] },
                if y == 0 { lo[1] } else { hi[1] },
                if z == 0 { lo[2] } else { hi[2] },
            ]
        };
        // +Z, −Z, +X, −X, +Y, −Y; each counter-clockwise from outside.
        self.quad([p(0, 0, 1), p(1, 0, 1), p(1, 1, 1), p(0, 1, 1)], repeat);
        self.quad([p(1, 0, 0), p(0, 0, 0), p(0, 1, 0), p(1, 1, 0)], repeat);
        self.quad([p(1, 0, 1), p(1, 0, 0), p(1, 1, 0), p(1, 1, 1)], repeat);
        self.quad([p(0, 0, 0), p(0, 0, 1), p(0, 1, 1), p(0, 1, 0)], repeat);
        self.quad([p(0, 1, 1), p(1, 1, 1), p(1, 1, 0), p(0, 1, 0)], repeat);
        self.quad([p(0, 0, 0), p(1, 0, 0), p(1, 0, 1), p(0, 0, 1)], repeat);
    }

    /// A cylinder (or a cone, `top` 0) standing on `base`, `segments` around, with
    /// caps.
    pub fn cylinder(&mut self, base: [f32; 3], radius: f32, top: f32, height: f32, segments: u32) {
        let ring = |k: u32, r: f32, y: f32| {
            let a = k as f32 / segments as f32 * std::f32::consts::TAU;
            [base[0] + r * a.cos(), base[1] + y, base[2] - r * a.sin()]
        };
        let start = self.positions.len() as u32;
        for k in 0..=segments {
            for (r, y, v) in [(radius, 0.0, 1.0), (top, height, 0.0)] {
                let p = ring(k, r, y);
                self.positions.push(p);
                self.normals
                    .push(normalise([p[0] - base[0], radius - top, p[2] - base[2]]));
                self.uvs.push([k as f32 / segments as f32, v]);
            }
        }
        for k in 0..segments {
            let (a, b) = (start + 2 * k, start + 2 * k + 2);
            self.indices.extend([a, b, b + 1, a, b + 1, a + 1]);
        }
        for (y, up, r) in [(0.0f32, -1.0f32, radius), (height, 1.0, top)] {
            if r <= 0.0 {
                continue;
            }
            let centre = self.positions.len() as u32;
            self.positions.push([base[0], base[1] + y, base[2]]);
            self.normals.push([0.0, up, 0.0]);
            self.uvs.push([0.5, 0.5]);
            for k in 0..segments {
                let p = ring(k, r, y);
                self.positions.push(p);
                self.normals.push([0.0, up, 0.0]);
                self.uvs.push([
                    0.5 + 0.5 * (p[0] - base[0]) / r,
                    0.5 + 0.5 * (p[2] - base[2]) / r,
                ]);
            }
            for k in 0..segments {
                let (a, b) = (centre + 1 + k, centre + 1 + (k + 1) % segments);
                if up > 0.0 {
                    self.indices.extend([centre, a, b]);
                } else {
                    self.indices.extend([centre, b, a]);
                }
            }
        }
    }

    /// A lumpy sphere (a rock): `segments` around, `rings` from pole to pole.
    pub fn rock(
        &mut self,
        centre: [f32; 3],
        radius: f32,
        segments: u32,
        rings: u32,
        rng: &mut Rng,
    ) {
        let start = self.positions.len() as u32;
        for r in 0..=rings {
            let polar = r as f32 / rings as f32 * std::f32::consts::PI;
            for s in 0..=segments {
                let a = s as f32 / segments as f32 * std::f32::consts::TAU;
                let n = [polar.sin() * a.cos(), polar.cos(), -polar.sin() * a.sin()];
                let k = radius * rng.range(0.85, 1.15);
                self.positions.push([
                    centre[0] + n[0] * k,
                    centre[1] + n[1] * k,
                    centre[2] + n[2] * k,
                ]);
                self.normals.push(n);
                self.uvs
                    .push([s as f32 / segments as f32, r as f32 / rings as f32]);
            }
        }
        let row = segments + 1;
        for r in 0..rings {
            for s in 0..segments {
                let a = start + r * row + s;
                let (b, c, d) = (a + row, a + row + 1, a + 1);
                if r != 0 {
                    self.indices.extend([a, b, d]);
                }
                if r != rings - 1 {
                    self.indices.extend([d, b, c]);
                }
            }
        }
    }

    /// Positions scaled (metres to centimetres: 100).
    pub fn scaled(mut self, k: f32) -> Self {
        for p in &mut self.positions {
            *p = p.map(|c| c * k);
        }
        self
    }
}

/// A texture picture: a checker of two colours with noise, `size` square.
pub fn picture(size: u32, a: [u8; 3], b: [u8; 3], rng: &mut Rng) -> image::RgbaImage {
    image::RgbaImage::from_fn(size, size, |x, y| {
        let c = if ((x / 8) + (y / 8)) % 2 == 0 { a } else { b };
        let n = (rng.next() * 24.0) as u8;
        image::Rgba([
            c[0].saturating_add(n),
            c[1].saturating_add(n),
            c[2].saturating_add(n),
            255,
        ])
    })
}

fn encode(img: &image::RgbaImage, format: image::ImageFormat) -> Vec<u8> {
    let mut out = std::io::Cursor::new(Vec::new());
    img.write_to(&mut out, format).expect("encodes the picture");
    out.into_inner()
}

/// Builds a GLB: a binary buffer of views, accessors over them, and the JSON.
#[derive(Default)]
pub struct Glb {
    bin: Vec<u8>,
    views: Vec<Value>,
    accessors: Vec<Value>,
    images: Vec<Value>,
    textures: Vec<Value>,
    materials: Vec<Value>,
    meshes: Vec<Value>,
    nodes: Vec<Value>,
    /// Source triangles, all mesh instances counted.
    pub triangles: usize,
    mesh_triangles: Vec<usize>,
    root_extensions: serde_json::Map<String, Value>,
}

impl Glb {
    fn view(&mut self, bytes: &[u8], target: Option<u32>) -> usize {
        while !self.bin.len().is_multiple_of(4) {
            self.bin.push(0);
        }
        let mut v = json!({ "buffer": 0, "byteOffset": self.bin.len(), "byteLength": bytes.len() });
        if let Some(t) = target {
            v["target"] = json!(t);
        }
        self.bin.extend_from_slice(bytes);
        self.views.push(v);
        self.views.len() - 1
    }

    fn floats<const N: usize>(&mut self, data: &[[f32; N]], kind: &str, bounds: bool) -> usize {
        let bytes: Vec<u8> = data
            .iter()
            .flatten()
            .flat_map(|f| f.to_le_bytes())
            .collect();
        let view = self.view(&bytes, Some(34962));
        let mut a =
            json!({ "bufferView": view, "componentType": 5126, "count": data.len(), "type": kind });
        if bounds {
            let lo: Vec<f32> = (0..N)
                .map(|k| data.iter().map(|p| p[k]).fold(f32::MAX, f32::min))
                .collect();
            let hi: Vec<f32> = (0..N)
                .map(|k| data.iter().map(|p| p[k]).fold(f32::MIN, f32::max))
                .collect();
            a["min"] = json!(lo);
            a["max"] = json!(hi);
        }
        self.accessors.push(a);
        self.accessors.len() - 1
    }

    fn indices(&mut self, idx: &[u32]) -> usize {
        let small = idx.iter().all(|&i| i <= u32::from(u16::MAX));
        let bytes: Vec<u8> = if small {
            idx.iter().flat_map(|&i| (i as u16).to_le_bytes()).collect()
        } else {
            idx.iter().flat_map(|i| i.to_le_bytes()).collect()
        };
        let view = self.view(&bytes, Some(34963));
        self.accessors.push(json!({
            "bufferView": view,
            "componentType": if small { 5123 } else { 5125 },
            "count": idx.len(),
            "type": "SCALAR",
        }));
        self.accessors.len() - 1
    }

    /// A texture from a picture: PNG, or WebP as `EXT_texture_webp` (Godot 4).
    pub fn texture(&mut self, name: &str, img: &image::RgbaImage, webp: bool) -> usize {
        let (format, mime) = if webp {
            (image::ImageFormat::WebP, "image/webp")
        } else {
            (image::ImageFormat::Png, "image/png")
        };
        let view = self.view(&encode(img, format), None);
        self.images
            .push(json!({ "name": name, "mimeType": mime, "bufferView": view }));
        let source = self.images.len() - 1;
        self.textures.push(if webp {
            json!({ "extensions": { "EXT_texture_webp": { "source": source } } })
        } else {
            json!({ "source": source })
        });
        self.textures.len() - 1
    }

    pub fn material(&mut self, name: &str, texture: usize, double_sided: bool) -> usize {
        let mut m = json!({
            "name": name,
            "pbrMetallicRoughness": {
                "baseColorTexture": { "index": texture },
                "metallicFactor": 0.0,
                "roughnessFactor": 0.8,
            },
        });
        if double_sided {
            m["doubleSided"] = json!(true);
        }
        self.materials.push(m);
        self.materials.len() - 1
    }

    /// Makes `material` glow as Bevy's and Blender's glTFs say it:
    /// `emissiveFactor`, `KHR_materials_emissive_strength` when `strength` is not
    /// 1, and an `emissiveTexture`.
    pub fn glow(
        &mut self,
        material: usize,
        factor: [f32; 3],
        strength: f32,
        texture: Option<usize>,
    ) {
        let m = &mut self.materials[material];
        m["emissiveFactor"] = json!(factor);
        if strength != 1.0 {
            m["extensions"] =
                json!({ "KHR_materials_emissive_strength": { "emissiveStrength": strength } });
        }
        if let Some(t) = texture {
            m["emissiveTexture"] = json!({ "index": t });
        }
    }

    /// A material of one colour (`baseColorFactor`), no texture.
    pub fn plain_material(&mut self, name: &str, color: [f32; 4]) -> usize {
        self.materials.push(json!({
            "name": name,
            "pbrMetallicRoughness": { "baseColorFactor": color, "metallicFactor": 0.0 },
        }));
        self.materials.len() - 1
    }

    /// A document-level extension object (`OMI_physics_shape`'s shape list, …).
    pub fn root_extension(&mut self, name: &str, value: Value) {
        self.root_extensions.insert(name.to_owned(), value);
    }

    /// A mesh of one primitive.
    pub fn mesh(&mut self, name: &str, part: &Part, material: usize) -> usize {
        let pos = self.floats(&part.positions, "VEC3", true);
        let nrm = self.floats(&part.normals, "VEC3", false);
        let uv = self.floats(&part.uvs, "VEC2", false);
        let idx = self.indices(&part.indices);
        self.meshes.push(json!({
            "name": name,
            "primitives": [{
                "attributes": { "POSITION": pos, "NORMAL": nrm, "TEXCOORD_0": uv },
                "indices": idx,
                "material": material,
            }],
        }));
        self.mesh_triangles.push(part.triangles());
        self.meshes.len() - 1
    }

    /// A node; one naming a mesh counts that mesh's triangles once more.
    pub fn node(&mut self, node: Value) -> usize {
        if let Some(m) = node.get("mesh").and_then(Value::as_u64) {
            self.triangles += self.mesh_triangles[m as usize];
        }
        self.nodes.push(node);
        self.nodes.len() - 1
    }

    /// The GLB's bytes, with `roots` as the scene and the asset and extension
    /// fields given.
    pub fn finish(
        mut self,
        asset: Value,
        roots: &[usize],
        used: &[&str],
        required: &[&str],
    ) -> Vec<u8> {
        while !self.bin.len().is_multiple_of(4) {
            self.bin.push(0);
        }
        let mut doc = json!({
            "asset": asset,
            "scene": 0,
            "scenes": [{ "name": "Scene", "nodes": roots }],
            "nodes": self.nodes,
            "meshes": self.meshes,
            "materials": self.materials,
            "textures": self.textures,
            "images": self.images,
            "accessors": self.accessors,
            "bufferViews": self.views,
            "buffers": [{ "byteLength": self.bin.len() }],
        });
        if !used.is_empty() {
            doc["extensionsUsed"] = json!(used);
        }
        if !self.root_extensions.is_empty() {
            doc["extensions"] = Value::Object(self.root_extensions);
        }
        if !required.is_empty() {
            doc["extensionsRequired"] = json!(required);
        }
        let mut text = serde_json::to_vec(&doc).expect("json");
        while !text.len().is_multiple_of(4) {
            text.push(b' ');
        }
        let total = 12 + 8 + text.len() + 8 + self.bin.len();
        let mut out = Vec::with_capacity(total);
        out.extend_from_slice(b"glTF");
        out.extend_from_slice(&2u32.to_le_bytes());
        out.extend_from_slice(&(total as u32).to_le_bytes());
        out.extend_from_slice(&(text.len() as u32).to_le_bytes());
        out.extend_from_slice(b"JSON");
        out.extend_from_slice(&text);
        out.extend_from_slice(&(self.bin.len() as u32).to_le_bytes());
        out.extend_from_slice(b"BIN\0");
        out.extend_from_slice(&self.bin);
        out
    }
}

/// A level: its GLB bytes and how many triangles it holds.
pub struct Level {
    pub name: &'static str,
    pub glb: Vec<u8>,
    pub triangles: usize,
}

/// Blender 4.2: every material double-sided, one node per object.
pub fn arena() -> Level {
    arena_as(false)
}

/// The arena as Godot 4.3's global-illumination demo ships its level: WebP
/// textures through `EXT_texture_webp`, and 24 omni lights (`KHR_lights_punctual`,
/// 10 m range) over the floor, the walls and the platforms.
pub fn gi_arena() -> Level {
    arena_as(true)
}

fn arena_as(godot: bool) -> Level {
    let mut rng = Rng::new(58);
    let mut g = Glb::default();
    let tex: Vec<usize> = [
        ("Tiles", [150, 140, 120], [110, 100, 90]),
        ("Stone", [120, 120, 125], [90, 90, 95]),
        ("Crate", [150, 100, 50], [120, 80, 40]),
        ("Rock", [100, 95, 90], [80, 75, 70]),
    ]
    .iter()
    .map(|(n, a, b)| {
        let img = picture(64, *a, *b, &mut rng);
        g.texture(n, &img, godot)
    })
    .collect();
    let mats: Vec<usize> = ["Tiles", "Stone", "Crate", "Rock"]
        .iter()
        .enumerate()
        .map(|(k, n)| g.material(n, tex[k], !godot))
        .collect();
    let mut roots = Vec::new();
    let mut floor = Part::default();
    floor.quad(
        [
            [-60.0, 0.0, 60.0],
            [60.0, 0.0, 60.0],
            [60.0, 0.0, -60.0],
            [-60.0, 0.0, -60.0],
        ],
        4.0,
    );
    let m = g.mesh("Floor", &floor, mats[0]);
    roots.push(g.node(json!({ "name": "Floor", "mesh": m })));
    for (k, (lo, hi)) in [
        ([-62.0, 0.0, -62.0], [62.0, 10.0, -60.0]),
        ([-62.0, 0.0, 60.0], [62.0, 10.0, 62.0]),
        ([-62.0, 0.0, -60.0], [-60.0, 10.0, 60.0]),
        ([60.0, 0.0, -60.0], [62.0, 10.0, 60.0]),
    ]
    .into_iter()
    .enumerate()
    {
        let mut wall = Part::default();
        wall.cuboid(lo, hi, 4.0);
        let m = g.mesh(&format!("Wall.{k:03}"), &wall, mats[1]);
        roots.push(g.node(json!({ "name": format!("Wall.{k:03}"), "mesh": m })));
    }
    // Pillars: linked duplicates (Alt+D), one mesh placed 160 times.
    let mut pillar = Part::default();
    pillar.cylinder([0.0; 3], 0.8, 0.8, 8.0, 32);
    let pm = g.mesh("Pillar", &pillar, mats[1]);
    for k in 0..160 {
        let (x, z) = ((k % 16) as f32 * 7.0 - 52.5, (k / 16) as f32 * 11.0 - 49.5);
        roots.push(g.node(
            json!({ "name": format!("Pillar.{k:03}"), "mesh": pm, "translation": [x, 0.0, z] }),
        ));
    }
    for k in 0..320 {
        let mut rock = Part::default();
        let r = rng.range(0.4, 1.6);
        rock.rock([0.0; 3], r, 10, 6, &mut rng);
        let m = g.mesh(&format!("Rock.{k:03}"), &rock, mats[3]);
        let at = [rng.range(-56.0, 56.0), r * 0.6, rng.range(-56.0, 56.0)];
        let turn = rng.range(0.0, std::f32::consts::TAU);
        roots.push(g.node(json!({
            "name": format!("Rock.{k:03}"), "mesh": m, "translation": at,
            "rotation": [0.0, (turn / 2.0).sin(), 0.0, (turn / 2.0).cos()],
        })));
    }
    for k in 0..400 {
        let mut crate_ = Part::default();
        let s = rng.range(0.6, 1.2);
        crate_.cuboid([-s / 2.0, 0.0, -s / 2.0], [s / 2.0, s, s / 2.0], 1.0);
        let m = g.mesh(&format!("Crate.{k:03}"), &crate_, mats[2]);
        let at = [rng.range(-58.0, 58.0), 0.0, rng.range(-58.0, 58.0)];
        roots
            .push(g.node(json!({ "name": format!("Crate.{k:03}"), "mesh": m, "translation": at })));
    }
    for k in 0..8 {
        let mut stairs = Part::default();
        for s in 0..12 {
            let (y, z) = (s as f32 * 0.25, -(s as f32) * 0.3);
            stairs.cuboid([-1.5, 0.0, z - 0.3], [1.5, y + 0.25, z], 1.0);
        }
        let m = g.mesh(&format!("Stairs.{k:03}"), &stairs, mats[1]);
        let at = [k as f32 * 12.0 - 42.0, 0.0, 40.0];
        roots.push(
            g.node(json!({ "name": format!("Stairs.{k:03}"), "mesh": m, "translation": at })),
        );
    }
    for k in 0..20 {
        let mut platform = Part::default();
        platform.cuboid([-8.0, 3.0, -8.0], [8.0, 4.0, 8.0], 4.0);
        let m = g.mesh(&format!("Platform.{k:03}"), &platform, mats[0]);
        let at = [
            (k % 5) as f32 * 22.0 - 44.0,
            (k / 5) as f32 * 0.5,
            (k / 5) as f32 * 22.0 - 33.0,
        ];
        roots.push(
            g.node(json!({ "name": format!("Platform.{k:03}"), "mesh": m, "translation": at })),
        );
    }
    if godot {
        let lights: Vec<Value> = (0..24)
            .map(|k| {
                json!({ "type": "point", "color": [1.0, 0.85, 0.6],
                        "intensity": 2.0, "range": 10.0, "name": format!("OmniLight3D{k}") })
            })
            .collect();
        g.root_extension("KHR_lights_punctual", json!({ "lights": lights }));
        for k in 0..24 {
            let at = [
                (k % 6) as f32 * 20.0 - 50.0,
                rng.range(2.5, 6.0),
                (k / 6) as f32 * 28.0 - 42.0,
            ];
            roots.push(g.node(json!({
                "name": format!("OmniLight3D{k}"), "translation": at,
                "extensions": { "KHR_lights_punctual": { "light": k } },
            })));
        }
        let triangles = g.triangles;
        let asset =
            json!({ "generator": "Godot Engine v4.3.stable.official@77dcf97d8", "version": "2.0" });
        return Level {
            name: "gi_arena",
            glb: g.finish(
                asset,
                &roots,
                &["EXT_texture_webp", "KHR_lights_punctual"],
                &["EXT_texture_webp"],
            ),
            triangles,
        };
    }
    let triangles = g.triangles;
    let asset = json!({ "generator": "Khronos glTF Blender I/O v4.2.70", "version": "2.0" });
    Level {
        name: "arena",
        glb: g.finish(asset, &roots, &[], &[]),
        triangles,
    }
}

/// Sketchfab: centimetres under a Z-up-to-Y-up root and a 0.01 FBX node.
pub fn town() -> Level {
    let mut rng = Rng::new(30);
    let mut g = Glb::default();
    let specs = [
        ("Water", [40, 90, 140], [30, 80, 130], false),
        ("Street", [90, 90, 90], [70, 70, 70], false),
        ("Plaster", [200, 190, 170], [180, 170, 150], false),
        ("Roof", [150, 60, 40], [120, 50, 30], false),
        ("Bark", [90, 60, 30], [70, 50, 25], false),
        ("Leaves", [40, 110, 40], [30, 90, 30], true),
        ("Iron", [40, 40, 45], [30, 30, 35], false),
    ];
    let mut mats = Vec::new();
    for (n, a, b, both) in specs {
        let img = picture(64, a, b, &mut rng);
        let t = g.texture(n, &img, false);
        mats.push(g.material(n, t, both));
    }
    let cm = 100.0;
    let mut children = Vec::new();
    let place = |g: &mut Glb, name: String, part: Part, material: usize| {
        let m = g.mesh(&name, &part.scaled(cm), material);
        g.node(json!({ "name": format!("{name}_0"), "mesh": m }))
    };
    let mut water = Part::default();
    water.quad(
        [
            [-196.0, -0.5, 196.0],
            [196.0, -0.5, 196.0],
            [196.0, -0.5, -196.0],
            [-196.0, -0.5, -196.0],
        ],
        8.0,
    );
    children.push(place(&mut g, "Water".into(), water, mats[0]));
    let mut street = Part::default();
    street.quad(
        [
            [-100.0, 0.0, 100.0],
            [100.0, 0.0, 100.0],
            [100.0, 0.0, -100.0],
            [-100.0, 0.0, -100.0],
        ],
        4.0,
    );
    children.push(place(&mut g, "Streets".into(), street, mats[1]));
    for k in 0..150 {
        let (x, z) = ((k % 15) as f32 * 12.0 - 84.0, (k / 15) as f32 * 18.0 - 81.0);
        let (w, d, h) = (
            rng.range(5.0, 8.0),
            rng.range(6.0, 10.0),
            rng.range(5.0, 9.0),
        );
        let mut walls = Part::default();
        walls.cuboid(
            [x - w / 2.0, 0.0, z - d / 2.0],
            [x + w / 2.0, h, z + d / 2.0],
            2.0,
        );
        for s in 0..6 {
            let wx = x - w / 2.0 + 1.0 + s as f32 * (w - 2.0) / 5.0;
            walls.quad(
                [
                    [wx - 0.4, 2.0, z + d / 2.0 + 0.02],
                    [wx + 0.4, 2.0, z + d / 2.0 + 0.02],
                    [wx + 0.4, 3.2, z + d / 2.0 + 0.02],
                    [wx - 0.4, 3.2, z + d / 2.0 + 0.02],
                ],
                1.0,
            );
        }
        walls.cuboid(
            [x + w / 4.0, h, z - 0.4],
            [x + w / 4.0 + 0.8, h + 2.5, z + 0.4],
            1.0,
        );
        children.push(place(&mut g, format!("House_{k}"), walls, mats[2]));
        let mut roof = Part::default();
        let (l, r, f, b, top) = (
            x - w / 2.0 - 0.3,
            x + w / 2.0 + 0.3,
            z + d / 2.0 + 0.3,
            z - d / 2.0 - 0.3,
            h + 2.0,
        );
        roof.quad([[l, h, f], [r, h, f], [r, top, z], [l, top, z]], 2.0);
        roof.quad([[r, h, b], [l, h, b], [l, top, z], [r, top, z]], 2.0);
        roof.triangle([[l, h, b], [l, h, f], [l, top, z]]);
        roof.triangle([[r, h, f], [r, h, b], [r, top, z]]);
        children.push(place(&mut g, format!("Roof_{k}"), roof, mats[3]));
    }
    for k in 0..300 {
        let (x, z) = (rng.range(-95.0, 95.0), rng.range(-95.0, 95.0));
        let mut trunk = Part::default();
        trunk.cylinder([x, 0.0, z], 0.25, 0.2, 3.0, 8);
        children.push(place(&mut g, format!("Trunk_{k}"), trunk, mats[4]));
        let mut crown = Part::default();
        crown.cylinder([x, 2.0, z], 1.8, 0.0, 4.5, 12);
        children.push(place(&mut g, format!("Crown_{k}"), crown, mats[5]));
    }
    for k in 0..120 {
        let (x, z) = ((k % 12) as f32 * 16.0 - 88.0, (k / 12) as f32 * 18.0 - 72.0);
        let mut lamp = Part::default();
        lamp.cylinder([x, 0.0, z], 0.08, 0.08, 4.0, 8);
        lamp.cuboid([x - 0.25, 4.0, z - 0.25], [x + 0.25, 4.5, z + 0.25], 1.0);
        children.push(place(&mut g, format!("Lamp_{k}"), lamp, mats[6]));
    }
    let triangles = g.triangles;
    let root = g.node(json!({ "name": "RootNode", "children": children }));
    let fbx = g.node(json!({
        "name": "town.fbx",
        "children": [root],
        "matrix": [0.01, 0.0, 0.0, 0.0, 0.0, 0.0, 0.01, 0.0, 0.0, -0.01, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0],
    }));
    let model = g.node(json!({
        "name": "Sketchfab_model",
        "children": [fbx],
        "matrix": [1.0, 0.0, 0.0, 0.0, 0.0, 2.220446049250313e-16, -1.0, 0.0, 0.0, 1.0, 2.220446049250313e-16, 0.0, 0.0, 0.0, 0.0, 1.0],
    }));
    let asset = json!({
        "generator": "Sketchfab-12.68.0",
        "version": "2.0",
        "extras": { "author": "Pebble tests", "license": "CC0", "title": "Town" },
    });
    Level {
        name: "town",
        glb: g.finish(asset, &[model], &[], &[]),
        triangles,
    }
}

/// Godot 4.3: WebP textures through `EXT_texture_webp`, a heightfield and an ocean.
pub fn terrain() -> Level {
    let mut rng = Rng::new(72);
    let mut g = Glb::default();
    let grass = picture(128, [70, 120, 50], [60, 100, 45], &mut rng);
    let sea = picture(64, [30, 70, 120], [25, 60, 110], &mut rng);
    let tg = g.texture("grass", &grass, true);
    let ts = g.texture("sea", &sea, true);
    let mg = g.material("Grass", tg, false);
    let ms = g.material("Ocean", ts, false);
    let (cells, step) = (190u32, 3.0f32);
    let half = cells as f32 * step / 2.0;
    let height = |x: f32, z: f32| {
        6.0 * (x * 0.021).sin() * (z * 0.017).cos() + 2.5 * (x * 0.07 + z * 0.05).sin() + 3.0
    };
    let mut land = Part::default();
    for j in 0..=cells {
        for i in 0..=cells {
            let (x, z) = (i as f32 * step - half, j as f32 * step - half);
            let y = height(x, z);
            let dx = height(x + 0.5, z) - height(x - 0.5, z);
            let dz = height(x, z + 0.5) - height(x, z - 0.5);
            land.positions.push([x, y, z]);
            land.normals.push(normalise([-dx, 1.0, -dz]));
            land.uvs.push([i as f32 / 8.0, j as f32 / 8.0]);
        }
    }
    let row = cells + 1;
    for j in 0..cells {
        for i in 0..cells {
            let a = j * row + i;
            land.indices
                .extend([a, a + row, a + 1, a + 1, a + row, a + row + 1]);
        }
    }
    let lm = g.mesh("Terrain", &land, mg);
    let mut ocean = Part::default();
    ocean.quad(
        [
            [-1024.0, 0.0, 1024.0],
            [1024.0, 0.0, 1024.0],
            [1024.0, 0.0, -1024.0],
            [-1024.0, 0.0, -1024.0],
        ],
        16.0,
    );
    let om = g.mesh("Ocean", &ocean, ms);
    let a = g.node(json!({ "name": "Terrain", "mesh": lm }));
    let b = g.node(json!({ "name": "Ocean", "mesh": om }));
    let root = g.node(json!({ "name": "Island", "children": [a, b] }));
    let triangles = g.triangles;
    let asset =
        json!({ "generator": "Godot Engine v4.3.stable.official@77dcf97d8", "version": "2.0" });
    Level {
        name: "terrain",
        glb: g.finish(asset, &[root], &["EXT_texture_webp"], &["EXT_texture_webp"]),
        triangles,
    }
}

/// Godot 4.3's occlusion-culling demo, shaped: one closed room as a single mesh
/// (30 × 30 m inside, 6 m tall, walls 0.5 m thick: its outside faces out, its
/// inside faces in), its roof's top larger than its floor; pillars and crates
/// inside. No light, no player start: the file has neither. `start`, when
/// given, is a `Marker3D` node named so, where the game starts the player.
pub fn occlusion_room(start: Option<(&str, [f32; 3], [f32; 4])>) -> Level {
    let mut rng = Rng::new(64);
    let mut g = Glb::default();
    let wall = picture(64, [150, 140, 130], [120, 112, 104], &mut rng);
    let tw = g.texture("wall", &wall, false);
    let mw = g.material("Concrete", tw, false);
    let mut room = Part::default();
    let (half, height, thick) = (15.0f32, 6.0f32, 0.5f32);
    // The outside, facing out.
    room.cuboid(
        [-half - thick, -thick, -half - thick],
        [half + thick, height + thick, half + thick],
        4.0,
    );
    // The inside, facing in: a box's faces wound the other way.
    let mut inside = Part::default();
    inside.cuboid([-half, 0.0, -half], [half, height, half], 4.0);
    let base = room.positions.len() as u32;
    room.positions.extend(&inside.positions);
    room.normals
        .extend(inside.normals.iter().map(|n| [-n[0], -n[1], -n[2]]));
    room.uvs.extend(&inside.uvs);
    for t in inside.indices.chunks_exact(3) {
        room.indices.extend([base + t[0], base + t[2], base + t[1]]);
    }
    let rm = g.mesh("OcclusionRoom", &room, mw);
    let mut props = Part::default();
    for _ in 0..12 {
        let (x, z) = (rng.range(-12.0, 12.0), rng.range(-12.0, 12.0));
        if x.abs() < 3.0 && z.abs() < 3.0 {
            continue;
        }
        let size = rng.range(0.6, 1.4);
        props.cuboid([x, 0.0, z], [x + size, size, z + size], 1.0);
    }
    for (x, z) in [(-7.0f32, -7.0f32), (7.0, -7.0), (-7.0, 7.0), (7.0, 7.0)] {
        props.cylinder([x, 0.0, z], 0.6, 0.6, height, 12);
    }
    let pm = g.mesh("Props", &props, mw);
    let mut roots = vec![
        g.node(json!({ "name": "OcclusionRoom", "mesh": rm })),
        g.node(json!({ "name": "Props", "mesh": pm })),
    ];
    if let Some((name, at, rotation)) = start {
        roots.push(g.node(json!({ "name": name, "translation": at, "rotation": rotation })));
    }
    let root = g.node(json!({ "name": "OcclusionCulling", "children": roots }));
    let triangles = g.triangles;
    let asset =
        json!({ "generator": "Godot Engine v4.3.stable.official@77dcf97d8", "version": "2.0" });
    Level {
        name: "occlusion_room",
        glb: g.finish(asset, &[root], &[], &[]),
        triangles,
    }
}

/// Bevy's lava, shaped as its example scene's glTF (exported by Blender): a pool
/// of lava whose base texture is nearly black and whose emissive texture is
/// bright orange at strength 20, a lamp that glows by its factor alone, and the
/// rock floor around them; under a roof, so that no sun reaches them.
pub fn lava_cave() -> Level {
    let mut rng = Rng::new(20);
    let mut g = Glb::default();
    let dark = picture(32, [20, 8, 4], [12, 5, 3], &mut rng);
    let hot = picture(32, [255, 120, 20], [230, 90, 10], &mut rng);
    let rock = picture(32, [90, 85, 80], [70, 66, 62], &mut rng);
    let (td, th, tr) = (
        g.texture("lava_base", &dark, false),
        g.texture("lava_emissive", &hot, false),
        g.texture("rock", &rock, false),
    );
    let lava = g.material("Lava", td, false);
    g.glow(lava, [1.0, 1.0, 1.0], 20.0, Some(th));
    let lamp = g.plain_material("LampShade", [0.2, 0.2, 0.2, 1.0]);
    g.glow(lamp, [1.0, 0.6, 0.2], 1.0, None);
    let stone = g.material("Rock", tr, false);
    let mut pool = Part::default();
    pool.quad(
        [
            [-3.0, 0.05, 3.0],
            [3.0, 0.05, 3.0],
            [3.0, 0.05, -3.0],
            [-3.0, 0.05, -3.0],
        ],
        2.0,
    );
    let mut shade = Part::default();
    shade.cuboid([6.0, 0.0, 6.0], [6.6, 0.6, 6.6], 1.0);
    let mut cave = Part::default();
    cave.quad(
        [
            [-12.0, 0.0, 12.0],
            [12.0, 0.0, 12.0],
            [12.0, 0.0, -12.0],
            [-12.0, 0.0, -12.0],
        ],
        4.0,
    );
    // A roof facing down, 5 m up.
    cave.quad(
        [
            [-12.0, 5.0, -12.0],
            [12.0, 5.0, -12.0],
            [12.0, 5.0, 12.0],
            [-12.0, 5.0, 12.0],
        ],
        4.0,
    );
    let (pm, sm, cm) = (
        g.mesh("LavaPool", &pool, lava),
        g.mesh("Lamp", &shade, lamp),
        g.mesh("Cave", &cave, stone),
    );
    let roots = [
        g.node(json!({ "name": "LavaPool", "mesh": pm })),
        g.node(json!({ "name": "Lamp", "mesh": sm })),
        g.node(json!({ "name": "Cave", "mesh": cm })),
    ];
    let triangles = g.triangles;
    let asset = json!({ "generator": "Khronos glTF Blender I/O v4.1.63", "version": "2.0" });
    Level {
        name: "lava_cave",
        glb: g.finish(asset, &roots, &["KHR_materials_emissive_strength"], &[]),
        triangles,
    }
}

/// Godot 4.3's truck town, shaped: a street and buildings as meshes, each
/// StaticBody3D exported with `OMI_physics_body` (motion static) over a child
/// node whose `collider` names a shape of the document's `OMI_physics_shape`
/// list (box, sphere, capsule, cylinder, convex and trimesh); with `old`, the
/// same as Godot 4.1 wrote it (`OMI_collider`). A bollard carries Godot's
/// `-col` suffix and an invisible wall `-colonly`.
pub fn truck_town(old: bool) -> Level {
    let mut rng = Rng::new(43);
    let mut g = Glb::default();
    let asphalt = picture(32, [60, 60, 64], [50, 50, 54], &mut rng);
    let brick = picture(32, [150, 80, 60], [130, 70, 50], &mut rng);
    let (ta, tb) = (
        g.texture("asphalt", &asphalt, true),
        g.texture("brick", &brick, true),
    );
    let (ma, mb) = (
        g.material("Asphalt", ta, false),
        g.material("Brick", tb, false),
    );
    let mut street = Part::default();
    street.quad(
        [
            [-40.0, 0.0, 40.0],
            [40.0, 0.0, 40.0],
            [40.0, 0.0, -40.0],
            [-40.0, 0.0, -40.0],
        ],
        4.0,
    );
    let street_mesh = g.mesh("Street", &street, ma);
    let mut house = Part::default();
    house.cuboid([-4.0, 0.0, -4.0], [4.0, 6.0, 4.0], 2.0);
    let house_mesh = g.mesh("House", &house, mb);
    let mut rock = Part::default();
    rock.cylinder([0.0, -1.0, 0.0], 1.2, 0.4, 2.0, 8);
    let rock_mesh = g.mesh("Rock", &rock, mb);
    let mut post = Part::default();
    post.cuboid([-0.2, 0.0, -0.2], [0.2, 1.0, 0.2], 1.0);
    let post_mesh = g.mesh("Bollard", &post, mb);
    let mut wall = Part::default();
    wall.cuboid([-40.0, 0.0, -40.5], [40.0, 3.0, -40.0], 4.0);
    let wall_mesh = g.mesh("EdgeWall", &wall, mb);
    // (shape in the new spec, the same in the old one)
    let shapes = [
        (
            json!({ "type": "trimesh", "trimesh": { "mesh": street_mesh } }),
            json!({ "type": "trimesh", "mesh": street_mesh }),
        ),
        (
            json!({ "type": "box", "box": { "size": [8.0, 6.0, 8.0] } }),
            json!({ "type": "box", "size": [8.0, 6.0, 8.0] }),
        ),
        (
            json!({ "type": "sphere", "sphere": { "radius": 1.5 } }),
            json!({ "type": "sphere", "radius": 1.5 }),
        ),
        (
            json!({ "type": "capsule", "capsule": { "radius": 0.4, "height": 1.8 } }),
            json!({ "type": "capsule", "radius": 0.4, "height": 1.8 }),
        ),
        (
            json!({ "type": "cylinder", "cylinder": { "radius": 0.5, "height": 3.0 } }),
            json!({ "type": "cylinder", "radius": 0.5, "height": 3.0 }),
        ),
        (
            json!({ "type": "convex", "convex": { "mesh": rock_mesh } }),
            json!({ "type": "hull", "mesh": rock_mesh }),
        ),
    ];
    if old {
        let list: Vec<Value> = shapes.iter().map(|s| s.1.clone()).collect();
        g.root_extension("OMI_collider", json!({ "colliders": list }));
    } else {
        let list: Vec<Value> = shapes.iter().map(|s| s.0.clone()).collect();
        g.root_extension("OMI_physics_shape", json!({ "shapes": list }));
    }
    // A body: its mesh child and its shape child, as Godot nests them.
    let body = |g: &mut Glb, name: &str, at: [f32; 3], mesh: Option<usize>, shape: usize| {
        let mut children = Vec::new();
        if let Some(m) = mesh {
            children.push(g.node(json!({ "name": format!("{name}Mesh"), "mesh": m })));
        }
        // A box is centred on its node: the house's stands on the ground.
        let lift = if shape == 1 {
            [0.0, 3.0, 0.0]
        } else {
            [0.0; 3]
        };
        let shape_node = if old {
            json!({ "name": "CollisionShape3D", "translation": lift,
                    "extensions": { "OMI_collider": { "collider": shape } } })
        } else {
            json!({ "name": "CollisionShape3D", "translation": lift,
                    "extensions": { "OMI_physics_body": { "collider": { "shape": shape } } } })
        };
        children.push(g.node(shape_node));
        let ext = if old {
            json!({ "OMI_physics_body": { "type": "static" } })
        } else {
            json!({ "OMI_physics_body": { "motion": { "type": "static" } } })
        };
        g.node(json!({ "name": name, "translation": at, "children": children, "extensions": ext }))
    };
    let mut roots = vec![
        body(&mut g, "StreetBody", [0.0, 0.0, 0.0], Some(street_mesh), 0),
        body(&mut g, "HouseBody", [10.0, 0.0, 10.0], Some(house_mesh), 1),
        body(&mut g, "Boulder", [-10.0, 1.5, 5.0], None, 2),
        body(&mut g, "Barrel", [-5.0, 0.9, -5.0], None, 3),
        body(&mut g, "Pillar", [5.0, 1.5, -10.0], None, 4),
        body(&mut g, "RockBody", [-15.0, 1.0, -15.0], Some(rock_mesh), 5),
        g.node(json!({ "name": "Bollard-col", "mesh": post_mesh, "translation": [2.0, 0.0, 2.0] })),
        g.node(json!({ "name": "EdgeWall-colonly", "mesh": wall_mesh })),
    ];
    // The town's blocks: a detailed house (a few hundred triangles, its body a
    // box) repeated along the streets, as linked duplicates.
    let mut block = Part::default();
    block.cuboid([-4.0, 0.0, -4.0], [4.0, 6.0, 4.0], 2.0);
    // A pitched roof: two slopes and the gables.
    block.quad(
        [
            [-4.2, 6.0, 4.2],
            [4.2, 6.0, 4.2],
            [4.2, 8.0, 0.0],
            [-4.2, 8.0, 0.0],
        ],
        2.0,
    );
    block.quad(
        [
            [4.2, 6.0, -4.2],
            [-4.2, 6.0, -4.2],
            [-4.2, 8.0, 0.0],
            [4.2, 8.0, 0.0],
        ],
        2.0,
    );
    block.triangle([[4.0, 6.0, 4.0], [4.0, 6.0, -4.0], [4.0, 8.0, 0.0]]);
    block.triangle([[-4.0, 6.0, -4.0], [-4.0, 6.0, 4.0], [-4.0, 8.0, 0.0]]);
    // Window frames on every wall, two storeys, and a chimney.
    for storey in [1.2f32, 3.8] {
        for k in [-2.5f32, -0.8, 0.8, 2.5] {
            block.cuboid([k - 0.4, storey, 4.0], [k + 0.4, storey + 1.0, 4.12], 1.0);
            block.cuboid([k - 0.4, storey, -4.12], [k + 0.4, storey + 1.0, -4.0], 1.0);
            block.cuboid([4.0, storey, k - 0.4], [4.12, storey + 1.0, k + 0.4], 1.0);
            block.cuboid([-4.12, storey, k - 0.4], [-4.0, storey + 1.0, k + 0.4], 1.0);
        }
    }
    block.cuboid([1.5, 6.5, -1.0], [2.3, 8.8, -0.2], 1.0);
    let block_mesh = g.mesh("Block", &block, mb);
    for j in 0..8 {
        for i in 0..8 {
            let at = [-35.0 + i as f32 * 10.0, 0.0, 25.0 + j as f32 * 10.0];
            if j < 2 && i < 2 {
                continue;
            }
            roots.push(body(
                &mut g,
                &format!("Block{i}_{j}"),
                at,
                Some(block_mesh),
                1,
            ));
        }
    }
    // Drawn triangles: the -colonly wall collides and is not drawn.
    let triangles = g.triangles - wall.triangles();
    let asset =
        json!({ "generator": "Godot Engine v4.3.stable.official@77dcf97d8", "version": "2.0" });
    let used: &[&str] = if old {
        &["EXT_texture_webp", "OMI_collider", "OMI_physics_body"]
    } else {
        &["EXT_texture_webp", "OMI_physics_body", "OMI_physics_shape"]
    };
    Level {
        name: if old { "truck_town_41" } else { "truck_town" },
        glb: g.finish(asset, &roots, used, &["EXT_texture_webp"]),
        triangles,
    }
}

/// A game-jam level as Blender exports one (1.2 k triangles): a ground of large
/// triangles (a 96 m square in 24 m quads, each split once), ramps and
/// platforms of a few metres, and crates. It went from 1 214 to 3 664 triangles
/// when every triangle over 8 m was cut.
pub fn jam() -> Level {
    let mut rng = Rng::new(1214);
    let mut g = Glb::default();
    let grass = picture(64, [80, 140, 60], [70, 120, 50], &mut rng);
    let wood = picture(32, [140, 100, 60], [120, 85, 50], &mut rng);
    let (tg, tw) = (
        g.texture("grass", &grass, false),
        g.texture("wood", &wood, false),
    );
    let (mg, mw) = (g.material("Grass", tg, true), g.material("Wood", tw, true));
    let mut ground = Part::default();
    for j in 0..4 {
        for i in 0..4 {
            let (x, z) = (-48.0 + i as f32 * 24.0, -48.0 + j as f32 * 24.0);
            let y = |a: f32, b: f32| 0.3 * ((a * 0.05).sin() + (b * 0.07).cos());
            ground.quad(
                [
                    [x, y(x, z + 24.0), z + 24.0],
                    [x + 24.0, y(x + 24.0, z + 24.0), z + 24.0],
                    [x + 24.0, y(x + 24.0, z), z],
                    [x, y(x, z), z],
                ],
                4.0,
            );
        }
    }
    let gm = g.mesh("Ground", &ground, mg);
    let mut props = Part::default();
    while props.triangles() + ground.triangles() < 1214 - 12 {
        let (x, z) = (rng.range(-44.0, 44.0), rng.range(-44.0, 44.0));
        let (w, h) = (rng.range(0.8, 3.5), rng.range(0.5, 4.0));
        props.cuboid([x, 0.0, z], [x + w, h, z + rng.range(0.8, 3.5)], 1.0);
    }
    let pm = g.mesh("Props", &props, mw);
    let roots = [
        g.node(json!({ "name": "Ground", "mesh": gm })),
        g.node(json!({ "name": "Props", "mesh": pm })),
    ];
    let triangles = g.triangles;
    let asset = json!({ "generator": "Khronos glTF Blender I/O v3.6.28", "version": "2.0" });
    Level {
        name: "jam",
        glb: g.finish(asset, &roots, &[], &[]),
        triangles,
    }
}

/// The levels the triangle counts and `pebble project bench` are measured on.
pub fn all() -> [Level; 6] {
    [
        arena(),
        gi_arena(),
        town(),
        truck_town(false),
        terrain(),
        jam(),
    ]
}
