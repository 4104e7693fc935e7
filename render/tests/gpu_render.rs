//! Pictures drawn on a real adapter (lavapipe in CI): texels where geometry
//! projects, cut-out holes, blending, UV scroll over time, the PSP look.
//! Without an adapter each test fails, unless `PEBBLE_SKIP_GPU_TESTS=1` (then it skips loudly).

use pbm::texture::encode;
use pbm::{AlphaMode, Map, Mesh, Name32, Texture, TextureFormat, Vertex};
use pebble_model::glam::Vec3;
use pebble_render::gpu::test_gpu;
use pebble_render::psp::{blend_write, is_5bit, quantise};
use pebble_render::{Camera, DrawScene, RenderOptions, Renderer};

const W: u32 = 96;
const H: u32 = 64;

/// A 16×16 texture whose left half is `left` and right half `right` (RGBA).
fn halves(name: &str, left: [u8; 4], right: [u8; 4], mode: AlphaMode) -> Texture {
    let mut rgba = Vec::new();
    for _y in 0..16 {
        for x in 0..16 {
            rgba.extend(if x < 8 { left } else { right });
        }
    }
    let format = if mode == AlphaMode::Blend {
        TextureFormat::Rgba8888
    } else {
        TextureFormat::Rgba5551
    };
    Texture {
        name: Name32::truncated(name),
        width: 16,
        height: 16,
        format,
        alpha_mode: mode,
        data: encode(&rgba, format),
    }
}

/// A camera-facing quad over x, y ∈ [−s, s] at depth z, UVs 0..1 left to right.
fn quad(name: &str, texture: i32, z: f32, s: f32, scroll: [f32; 2]) -> Mesh {
    let v = |x: f32, y: f32, u: f32, t: f32| Vertex {
        uv: [u, t],
        color: 0xFFFF_FFFF,
        pos: [x, y, z],
    };
    let (a, b, c, d) = (
        v(-s, -s, 0.0, 1.0),
        v(s, -s, 1.0, 1.0),
        v(s, s, 1.0, 0.0),
        v(-s, s, 0.0, 0.0),
    );
    Mesh {
        name: Name32::truncated(name),
        texture_id: texture,
        bounds_min: [-s, -s, z],
        bounds_max: [s, s, z],
        uv_scroll: scroll,
        vertices: vec![a, b, c, a, c, d],
    }
}

fn render(
    map: &Map,
    camera: &Camera,
    options: RenderOptions,
) -> Option<(image::RgbaImage, pebble_render::FrameStats)> {
    let gpu = test_gpu(std::thread::current().name().unwrap_or("gpu test"))?;
    let renderer = Renderer::new(&gpu, DrawScene::from_map(map)).expect("uploads");
    Some(renderer.render(camera, &options).expect("renders"))
}

fn options() -> RenderOptions {
    RenderOptions {
        width: W,
        height: H,
        fog: false,
        ..Default::default()
    }
}

fn looking_down_z() -> Camera {
    Camera::psp(Vec3::ZERO, 0.0, 0.0)
}

fn near(a: [u8; 4], b: [u8; 3], tol: i32) -> bool {
    (0..3).all(|c| (i32::from(a[c]) - i32::from(b[c])).abs() <= tol)
}

/// Where a world point lands in a W×H picture.
fn pixel(camera: &Camera, p: Vec3) -> (u32, u32) {
    let clip = camera.clip_from_world(W as f32 / H as f32) * p.extend(1.0);
    let ndc = clip.truncate() / clip.w;
    (
        ((ndc.x * 0.5 + 0.5) * W as f32) as u32,
        ((0.5 - ndc.y * 0.5) * H as f32) as u32,
    )
}

#[test]
fn a_textured_quad_shows_its_texels_where_it_projects() {
    let mut map = Map::default();
    map.textures.push(halves(
        "RedGreen",
        [255, 0, 0, 255],
        [0, 255, 0, 255],
        AlphaMode::None,
    ));
    map.meshes.push(quad("Wall", 0, -3.0, 1.0, [0.0; 2]));
    let camera = looking_down_z();
    let Some((img, stats)) = render(&map, &camera, options()) else {
        return;
    };
    assert_eq!((img.width(), img.height()), (W, H));
    assert_eq!(stats.chunks_drawn, 1);
    let (lx, ly) = pixel(&camera, Vec3::new(-0.5, 0.0, -3.0));
    let (rx, ry) = pixel(&camera, Vec3::new(0.5, 0.0, -3.0));
    assert!(
        near(img.get_pixel(lx, ly).0, [255, 0, 0], 8),
        "left {:?}",
        img.get_pixel(lx, ly)
    );
    assert!(
        near(img.get_pixel(rx, ry).0, [0, 255, 0], 8),
        "right {:?}",
        img.get_pixel(rx, ry)
    );
    // Outside the quad: the day preset's clear colour (0x382218 as 0xBBGGRR).
    assert!(
        near(img.get_pixel(1, 1).0, [0x18, 0x22, 0x38], 1),
        "clear {:?}",
        img.get_pixel(1, 1)
    );
}

#[test]
fn a_cut_out_hole_shows_what_lies_behind_and_blending_mixes() {
    let mut map = Map::default();
    map.textures.push(halves(
        "Red",
        [255, 0, 0, 255],
        [255, 0, 0, 255],
        AlphaMode::None,
    ));
    map.textures.push(halves(
        "Holes",
        [0, 0, 0, 0],
        [0, 0, 255, 255],
        AlphaMode::Cutout,
    ));
    map.textures.push(halves(
        "Glass",
        [255, 255, 255, 128],
        [255, 255, 255, 128],
        AlphaMode::Blend,
    ));
    map.meshes.push(quad("Back", 0, -4.0, 2.0, [0.0; 2]));
    map.meshes.push(quad("Fence", 1, -3.0, 0.5, [0.0; 2]));
    let mut glass = quad("Glass", 2, -2.0, 0.3, [0.0; 2]);
    for v in &mut glass.vertices {
        v.pos[1] -= 0.6;
    }
    map.meshes.push(glass);
    let camera = looking_down_z();
    let Some((img, _)) = render(&map, &camera, options()) else {
        return;
    };
    let hole = pixel(&camera, Vec3::new(-0.25, 0.2, -3.0));
    let solid = pixel(&camera, Vec3::new(0.25, 0.2, -3.0));
    assert!(
        near(img.get_pixel(hole.0, hole.1).0, [255, 0, 0], 8),
        "hole {:?}",
        img.get_pixel(hole.0, hole.1)
    );
    assert!(
        near(img.get_pixel(solid.0, solid.1).0, [0, 0, 255], 8),
        "fence {:?}",
        img.get_pixel(solid.0, solid.1)
    );
    // 50 % white over red.
    let pane = pixel(&camera, Vec3::new(0.0, -0.6, -2.0));
    assert!(
        near(img.get_pixel(pane.0, pane.1).0, [255, 128, 128], 10),
        "glass {:?}",
        img.get_pixel(pane.0, pane.1)
    );
}

#[test]
fn a_scrolling_mesh_changes_over_time_exactly_where_it_is() {
    let mut map = Map::default();
    map.textures.push(halves(
        "Still",
        [200, 200, 200, 255],
        [40, 40, 40, 255],
        AlphaMode::None,
    ));
    map.textures.push(halves(
        "Water",
        [0, 0, 255, 255],
        [255, 255, 0, 255],
        AlphaMode::None,
    ));
    map.meshes.push(quad("Backdrop", 0, -6.0, 4.0, [0.0; 2]));
    let mut water = quad("Water", 1, -3.0, 0.5, [0.5, 0.0]);
    for v in &mut water.vertices {
        v.pos[0] += 0.8;
    }
    map.meshes.push(water);
    let camera = looking_down_z();
    let Some((a, _)) = render(&map, &camera, options()) else {
        return;
    };
    let Some((b, _)) = render(
        &map,
        &camera,
        RenderOptions {
            time: 1.0,
            ..options()
        },
    ) else {
        return;
    };
    // Half a repeat later the water's halves have swapped; the backdrop has not moved.
    let (x0, y0) = pixel(&camera, Vec3::new(0.3, 0.5, -3.0));
    let (x1, y1) = pixel(&camera, Vec3::new(1.3, -0.5, -3.0));
    let mut changed_inside = 0;
    for y in 0..H {
        for x in 0..W {
            let inside = (x0 + 1..x1.saturating_sub(1)).contains(&x)
                && (y0 + 1..y1.saturating_sub(1)).contains(&y);
            let differs = a.get_pixel(x, y) != b.get_pixel(x, y);
            let border = (x0.saturating_sub(1)..=x1 + 1).contains(&x)
                && (y0.saturating_sub(1)..=y1 + 1).contains(&y);
            if !border {
                assert!(!differs, "pixel {x},{y} outside the water changed");
            }
            changed_inside += usize::from(inside && differs);
        }
    }
    let area = (x1 - x0 - 2) as usize * (y1 - y0 - 2) as usize;
    assert!(
        changed_inside * 2 > area,
        "only {changed_inside} of {area} water pixels changed"
    );
}

#[test]
fn the_psp_look_is_480_by_272_in_5551_colours_upscaled_nearest() {
    let mut map = Map::default();
    map.textures.push(halves(
        "Grey",
        [100, 150, 37, 255],
        [100, 150, 37, 255],
        AlphaMode::None,
    ));
    map.meshes.push(quad("Wall", 0, -3.0, 1.0, [0.0; 2]));
    let camera = looking_down_z();
    let psp = RenderOptions {
        width: 960,
        height: 544,
        psp: true,
        ..options()
    };
    let Some((img, _)) = render(&map, &camera, psp) else {
        return;
    };
    assert_eq!((img.width(), img.height()), (960, 544));
    assert!(
        img.pixels().all(|p| p.0[..3].iter().all(|c| is_5bit(*c))),
        "not 5551"
    );
    // Nearest 2× upscale: every 2×2 block is one device pixel.
    for y in (0..544).step_by(2) {
        for x in (0..960).step_by(2) {
            let p = img.get_pixel(x, y);
            assert!(
                p == img.get_pixel(x + 1, y)
                    && p == img.get_pixel(x, y + 1)
                    && p == img.get_pixel(x + 1, y + 1)
            );
        }
    }
    // The flat colour is dithered: the quad's middle holds two levels per channel.
    let mut levels = std::collections::BTreeSet::new();
    for y in 260..276 {
        for x in 470..490 {
            levels.insert(img.get_pixel(x, y).0[0]);
        }
    }
    assert_eq!(levels.len(), 2, "{levels:?}");
}

/// Six translucent sheets over a grey wall, each its own mesh: the GE blends each
/// one with the 5551 value the last left and dithers the result, so the pixels
/// equal that rule applied six times, not one quantise of the exact blend (which
/// the test checks would differ: it can tell the two apart).
#[test]
fn the_psp_look_blends_each_sheet_with_the_5551_frame_and_dithers_every_write() {
    let flat = |name: &str, rgba: [u8; 4], mode: AlphaMode| halves(name, rgba, rgba, mode);
    let mut map = Map::default();
    map.textures
        .push(flat("Wall", [112, 112, 112, 255], AlphaMode::None));
    map.textures
        .push(flat("Mist", [192, 192, 192, 26], AlphaMode::Blend));
    map.meshes.push(quad("Wall", 0, -3.2, 1.5, [0.0; 2]));
    for k in 0..6 {
        map.meshes.push(quad(
            &format!("Mist{k}"),
            1,
            -3.0 + 0.01 * k as f32,
            1.0,
            [0.0; 2],
        ));
    }
    let psp = RenderOptions {
        width: 480,
        height: 272,
        psp: true,
        ..options()
    };
    let Some((img, _)) = render(&map, &looking_down_z(), psp) else {
        return;
    };
    let mut once_differs = 0;
    for y in 128..144 {
        for x in 232..248 {
            let mut v = quantise(112, x, y);
            let mut exact = 112.0f64;
            for _ in 0..6 {
                v = blend_write(192, 26, v, x, y);
                exact = (192.0 * 26.0 + exact * (255.0 - 26.0)) / 255.0;
            }
            let got = img.get_pixel(x, y).0;
            assert_eq!(got[..3], [v, v, v], "at {x},{y}");
            once_differs += usize::from(quantise(exact.round() as u8, x, y) != v);
        }
    }
    assert!(
        once_differs > 0,
        "one quantise of the exact blend gives the same picture"
    );
}

/// The editor samples whichever texture `encode` hands back (its viewport blit
/// binds it): in the PSP look too, where it once lacked `TEXTURE_BINDING` and
/// toggling the look killed the editor with a validation error.
#[test]
fn every_encoded_frame_can_be_sampled_by_the_embedding() {
    let Some(r) = renderer(&wall("Grey", [100, 150, 37, 255]), "every_encoded_frame") else {
        return;
    };
    for psp in [false, true] {
        let options = RenderOptions {
            width: 320,
            height: 200,
            psp,
            ..options()
        };
        let (_, texture, _) = r
            .encode(&looking_down_z(), &options, &Default::default())
            .expect("encodes");
        assert!(
            texture
                .usage()
                .contains(wgpu::TextureUsages::TEXTURE_BINDING),
            "psp look {psp}: the frame is {:?}, not bindable",
            texture.usage()
        );
    }
}

#[test]
fn chunks_outside_the_view_are_not_drawn() {
    let mut map = Map::default();
    map.meshes.push(quad("Ahead", -1, -3.0, 1.0, [0.0; 2]));
    map.meshes.push(quad("Behind", -1, 3.0, 1.0, [0.0; 2]));
    let camera = looking_down_z();
    let Some((_, culled)) = render(&map, &camera, options()) else {
        return;
    };
    assert_eq!((culled.chunks, culled.chunks_drawn), (2, 1));
    let Some((_, all)) = render(
        &map,
        &camera,
        RenderOptions {
            cull: false,
            ..options()
        },
    ) else {
        return;
    };
    assert_eq!(all.chunks_drawn, 2);
}

#[test]
fn particles_appear_where_the_pbm_crate_puts_them() {
    use pbm::emitter::{EmitterLump, EmitterRecord, flags};
    let record = EmitterRecord {
        pos: [0.0, 0.0, -4.0],
        speed_min: 0.0,
        speed_max: 0.0,
        gravity: [0.0; 3],
        spawn_radius: 1.2,
        size_min: 0.35,
        size_max: 0.35,
        size_mid: 1.0,
        size_end: 1.0,
        life_min: 2.0,
        life_max: 2.0,
        color_start: 0xFFFF_FFFF,
        color_mid: 0xFFFF_FFFF,
        color_end: 0xFFFF_FFFF,
        count: 6,
        flags: flags::ADDITIVE,
        ..EmitterRecord::default()
    };
    let map = Map {
        emitters: Some(EmitterLump::new(vec![record])),
        ..Map::default()
    };
    let camera = looking_down_z();
    let t = 0.7;
    let Some((img, stats)) = render(
        &map,
        &camera,
        RenderOptions {
            time: t,
            ..options()
        },
    ) else {
        return;
    };
    assert_eq!(stats.particles, 6);
    let field = map.particle_field(&mut |_| {});
    let e = &field.emitters[0];
    let clear = [0x18u8, 0x22, 0x38];
    let mut centres = Vec::new();
    for p in field.particles_of(e) {
        let s = pbm::particle::evaluate(e, p, t, None);
        let (x, y) = pixel(&camera, Vec3::from(s.position));
        centres.push((x, y));
        let px = img.get_pixel(x.min(W - 1), y.min(H - 1)).0;
        // The glow's middle adds near-white to the clear colour.
        assert!(
            px[0] > clear[0] + 150 && px[1] > clear[1] + 150,
            "particle at {x},{y}: {px:?}"
        );
    }
    // Far from every particle the picture is the clear colour.
    for (x, y) in [(0u32, 0u32), (W - 1, 0), (0, H - 1), (W - 1, H - 1)] {
        if centres
            .iter()
            .all(|(cx, cy)| cx.abs_diff(x) > 12 || cy.abs_diff(y) > 12)
        {
            assert!(near(img.get_pixel(x, y).0, clear, 1), "corner {x},{y}");
        }
    }
}

/// A map of one wall 3 m ahead in one flat colour.
fn wall(name: &str, colour: [u8; 4]) -> Map {
    let mut map = Map::default();
    map.textures
        .push(halves(name, colour, colour, AlphaMode::None));
    map.meshes.push(quad("Wall", 0, -3.0, 1.0, [0.0; 2]));
    map
}

fn renderer(map: &Map, test: &str) -> Option<Renderer> {
    let gpu = test_gpu(test)?;
    Some(Renderer::new(&gpu, DrawScene::from_map(map)).expect("uploads"))
}

#[test]
fn picking_finds_the_mesh_and_face_at_a_pixel_and_the_point_under_it() {
    let Some(r) = renderer(
        &wall("Red", [255, 0, 0, 255]),
        "picking_finds_the_mesh_and_face",
    ) else {
        return;
    };
    let camera = looking_down_z();
    // Triangle 0 is (BL, BR, TR): the lower right half; triangle 1 the upper left.
    let (x, y) = pixel(&camera, Vec3::new(0.5, -0.5, -3.0));
    let hit = r
        .pick(&camera, W, H, 0.0, x, y)
        .expect("picks")
        .expect("a hit");
    assert_eq!(
        (hit.id, hit.face, hit.back_face, hit.pixel),
        (1, 0, false, (x, y))
    );
    assert!(
        (hit.world - Vec3::new(0.5, -0.5, -3.0)).length() < 0.1,
        "{}",
        hit.world
    );
    assert!(
        (hit.world.z + 3.0).abs() < 0.01,
        "depth gives the plane: {}",
        hit.world
    );
    let (x, y) = pixel(&camera, Vec3::new(-0.5, 0.5, -3.0));
    let hit = r
        .pick(&camera, W, H, 0.0, x, y)
        .expect("picks")
        .expect("a hit");
    assert_eq!((hit.id, hit.face), (1, 1));
    // Just off the edge, the 9×9 window still finds the wall; far off, nothing.
    let (ex, ey) = pixel(&camera, Vec3::new(1.0, 0.0, -3.0));
    let hit = r
        .pick(&camera, W, H, 0.0, ex + 3, ey)
        .expect("picks")
        .expect("near the edge");
    assert_eq!(hit.id, 1);
    assert!(hit.pixel.0 < ex + 3);
    assert_eq!(r.pick(&camera, W, H, 0.0, 1, 1).expect("picks"), None);
    // From behind, the same wall is a back face.
    let behind = Camera::psp(Vec3::new(0.0, 0.0, -6.0), std::f32::consts::PI, 0.0);
    let (x, y) = pixel(&behind, Vec3::new(0.0, 0.0, -3.0));
    let hit = r
        .pick(&behind, W, H, 0.0, x, y)
        .expect("picks")
        .expect("a hit");
    assert!(hit.back_face);
}

#[test]
fn picking_sees_through_cut_out_holes_and_box_select_lists_what_is_visible() {
    let mut map = Map::default();
    map.textures.push(halves(
        "Red",
        [255, 0, 0, 255],
        [255, 0, 0, 255],
        AlphaMode::None,
    ));
    map.textures.push(halves(
        "Holes",
        [0, 0, 0, 0],
        [0, 0, 255, 255],
        AlphaMode::Cutout,
    ));
    map.meshes.push(quad("Back", 0, -4.0, 2.0, [0.0; 2]));
    map.meshes.push(quad("Fence", 1, -3.0, 0.5, [0.0; 2]));
    map.meshes.push(quad("Hidden", 0, -5.0, 0.3, [0.0; 2]));
    let Some(r) = renderer(&map, "picking_sees_through_cut_out_holes") else {
        return;
    };
    let camera = looking_down_z();
    let hole = pixel(&camera, Vec3::new(-0.25, 0.0, -3.0));
    let solid = pixel(&camera, Vec3::new(0.25, 0.0, -3.0));
    let at = |(x, y): (u32, u32)| {
        r.pick(&camera, W, H, 0.0, x, y)
            .expect("picks")
            .expect("a hit")
    };
    assert_eq!(at(hole).id, 1, "behind the hole lies the back wall");
    assert!((at(hole).world.z + 4.0).abs() < 0.01);
    assert_eq!(at(solid).id, 2);
    // The whole view holds the back wall and the fence, not the one hidden behind.
    assert_eq!(
        r.pick_rect(&camera, W, H, 0.0, (0, 0), (W - 1, H - 1))
            .expect("picks"),
        vec![1, 2]
    );
    // A rectangle inside the fence's solid half holds only the fence.
    let inner = pixel(&camera, Vec3::new(0.4, 0.1, -3.0));
    assert_eq!(
        r.pick_rect(&camera, W, H, 0.0, solid, inner)
            .expect("picks"),
        vec![2]
    );
}

/// Compares a picture with `tests/golden/NAME.png`: at most 1 % of pixels may
/// differ by more than 16 in a channel, and the mean difference must stay under 2
/// (adapters round edges differently). `PEBBLE_BLESS=1` writes the golden instead.
fn golden(name: &str, img: &image::RgbaImage) {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("tests/golden/{name}.png"));
    if std::env::var("PEBBLE_BLESS").is_ok_and(|v| v == "1") {
        std::fs::create_dir_all(path.parent().expect("dir")).expect("golden dir");
        img.save(&path).expect("writes the golden");
        return;
    }
    let want = image::open(&path)
        .unwrap_or_else(|e| {
            panic!(
                "{}: {e} (run with PEBBLE_BLESS=1 to create it)",
                path.display()
            )
        })
        .to_rgba8();
    assert_eq!(want.dimensions(), img.dimensions(), "{name}: size");
    let (mut far, mut total) = (0usize, 0u64);
    for (a, b) in want.pixels().zip(img.pixels()) {
        let d = (0..4).map(|c| a.0[c].abs_diff(b.0[c])).max().unwrap_or(0);
        far += usize::from(d > 16);
        total += u64::from(d);
    }
    let n = (img.width() * img.height()) as usize;
    let mean = total as f64 / n as f64;
    if far * 100 > n || mean > 2.0 {
        let out = std::env::temp_dir().join(format!("pebble-golden-{name}.png"));
        let _ = img.save(&out);
        panic!(
            "{name}: {far} of {n} pixels differ by more than 16, mean {mean:.2}; got {}",
            out.display()
        );
    }
}

fn floor(texture: i32) -> Mesh {
    let v = |x: f32, z: f32| Vertex {
        uv: [x / 2.0, z / 2.0],
        color: 0xFFFF_FFFF,
        pos: [x, -1.0, z],
    };
    let (a, b, c, d) = (v(-4.0, 0.0), v(4.0, 0.0), v(4.0, -8.0), v(-4.0, -8.0));
    Mesh {
        name: Name32::truncated("Floor"),
        texture_id: texture,
        bounds_min: [-4.0, -1.0, -8.0],
        bounds_max: [4.0, -1.0, 0.0],
        uv_scroll: [0.0; 2],
        vertices: vec![a, b, c, a, c, d],
    }
}

fn checker() -> Texture {
    let mut rgba = Vec::new();
    for y in 0..32u32 {
        for x in 0..32u32 {
            let on = (x / 8 + y / 8) % 2 == 0;
            rgba.extend(if on {
                [230, 200, 120, 255]
            } else {
                [60, 90, 140, 255]
            });
        }
    }
    Texture {
        name: Name32::truncated("Checker"),
        width: 32,
        height: 32,
        format: TextureFormat::Rgba5551,
        alpha_mode: AlphaMode::None,
        data: encode(&rgba, TextureFormat::Rgba5551),
    }
}

#[test]
fn small_scenes_match_their_golden_pictures() {
    use pbm::emitter::{EmitterLump, EmitterRecord, flags};
    let Some(gpu) = test_gpu("small_scenes_match_their_golden_pictures") else {
        return;
    };
    let camera = Camera::psp(Vec3::new(0.0, 0.5, 1.0), 0.1, -0.15);
    let shoot = |map: &Map, options: RenderOptions| {
        Renderer::new(&gpu, DrawScene::from_map(map))
            .expect("uploads")
            .render(&camera, &options)
            .expect("renders")
            .0
    };
    let base = || {
        let mut map = Map::default();
        map.textures.push(checker());
        map.textures.push(halves(
            "RedGreen",
            [255, 0, 0, 255],
            [0, 255, 0, 255],
            AlphaMode::None,
        ));
        map.meshes.push(floor(0));
        map.meshes.push(quad("Wall", 1, -5.0, 1.5, [0.0; 2]));
        map
    };
    let opts = RenderOptions {
        width: 160,
        height: 90,
        ..Default::default()
    };
    golden("textured", &shoot(&base(), opts));

    let mut cutout = base();
    cutout.textures.push(halves(
        "Holes",
        [0, 0, 0, 0],
        [40, 40, 230, 255],
        AlphaMode::Cutout,
    ));
    cutout.meshes.push(quad("Fence", 2, -3.0, 0.7, [0.0; 2]));
    golden("cutout", &shoot(&cutout, opts));

    let mut blend = base();
    blend.textures.push(halves(
        "Glass",
        [255, 255, 255, 100],
        [20, 200, 255, 160],
        AlphaMode::Blend,
    ));
    blend.meshes.push(quad("Glass", 2, -3.0, 0.7, [0.0; 2]));
    golden("blend", &shoot(&blend, opts));

    let mut sparks = base();
    sparks.emitters = Some(EmitterLump::new(vec![EmitterRecord {
        pos: [0.0, -0.5, -3.0],
        flags: flags::ADDITIVE,
        count: 24,
        seed: 7,
        ..EmitterRecord::default()
    }]));
    golden(
        "additive_particles",
        &shoot(&sparks, RenderOptions { time: 0.6, ..opts }),
    );

    golden(
        "psp_quantised",
        &shoot(
            &base(),
            RenderOptions {
                psp: true,
                width: 480,
                height: 272,
                ..opts
            },
        ),
    );
}

/// A GPU test that cannot run must not pass: with no adapter (here: a backend this
/// build lacks) it fails and says how to get one, and only the explicit opt-out
/// `PEBBLE_SKIP_GPU_TESTS=1` turns that into a loud skip.
#[test]
fn without_an_adapter_gpu_tests_fail_unless_skipped_on_purpose() {
    let run = |skip: bool| {
        let mut child = std::process::Command::new(std::env::current_exe().expect("this binary"));
        child
            .args([
                "a_textured_quad_shows_its_texels_where_it_projects",
                "--exact",
                "--nocapture",
            ])
            // DirectX 12 is not built in on this platform: no adapter at all.
            .env("WGPU_BACKEND", "dx12")
            .env_remove("PEBBLE_SKIP_GPU_TESTS");
        if skip {
            child.env("PEBBLE_SKIP_GPU_TESTS", "1");
        }
        let out = child.output().expect("runs the test binary");
        let text = String::from_utf8_lossy(&out.stdout).into_owned()
            + &String::from_utf8_lossy(&out.stderr);
        (out.status.success(), text)
    };
    let (passed, text) = run(false);
    assert!(!passed, "a GPU test without an adapter passed:\n{text}");
    assert!(
        text.contains("no GPU adapter") && text.contains("PEBBLE_SKIP_GPU_TESTS"),
        "it says why and how: {text}"
    );
    let (passed, text) = run(true);
    assert!(passed, "opted out, it skips:\n{text}");
    assert!(text.contains("not run"), "loudly: {text}");
}
