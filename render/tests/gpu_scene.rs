//! A scene model drawn live: materials and textures through the loader, picking by
//! entity id, and incremental updates from the change journal (moving one entity
//! re-uploads that entity only). Skips loudly without a GPU adapter.

use image::RgbaImage;
use pebble_model::command::{AddEntities, AddMaterial, SetEntity, SetTransforms};
use pebble_model::entity::{EntityKind, GeometrySource, MeshEntity};
use pebble_model::glam::Vec3;
use pebble_model::primitive::Primitive;
use pebble_model::{Command, Entity, EntityId, Material, Scene, Transform};
use pebble_render::gpu::test_gpu;
use pebble_render::{Camera, Gpu, RenderOptions, SceneSync};

const W: u32 = 96;
const H: u32 = 64;

fn loader(path: &str) -> Result<RgbaImage, String> {
    match path {
        "green.png" => Ok(RgbaImage::from_pixel(16, 16, image::Rgba([0, 255, 0, 255]))),
        other => Err(format!("{other}: no such file")),
    }
}

fn boxed(name: &str, material: pebble_model::MaterialId, at: Vec3) -> Entity {
    let geometry = Primitive::Box {
        size: Vec3::splat(1.0),
    }
    .generate(material)
    .expect("a box");
    Entity::new(
        name,
        EntityKind::Mesh(MeshEntity {
            source: GeometrySource::Authored,
            geometry,
            collidable: false,
        }),
    )
    .with_transform(Transform::from_translation(at))
}

/// Boxes stand on their translation (y 0 to 1). A scene with a green box ahead-left, a red untextured box ahead-right, and a box
/// whose texture is missing, behind the camera.
fn scene() -> (Scene, Vec<EntityId>) {
    let mut scene = Scene::new();
    let mut green = AddMaterial::new(Material {
        name: "Green".into(),
        texture: Some("green.png".into()),
        ..Material::default()
    });
    green.apply(&mut scene).expect("material");
    let mut red = AddMaterial::new(Material {
        name: "Red".into(),
        color: [1.0, 0.0, 0.0, 1.0],
        ..Material::default()
    });
    red.apply(&mut scene).expect("material");
    let mut lost = AddMaterial::new(Material {
        name: "Lost".into(),
        texture: Some("lost.png".into()),
        ..Material::default()
    });
    lost.apply(&mut scene).expect("material");
    let (green, red, lost) = (
        green.created().expect("id"),
        red.created().expect("id"),
        lost.created().expect("id"),
    );
    let mut add = AddEntities::new(
        "Add",
        vec![
            boxed("Green box", green, Vec3::new(-1.0, 0.0, -5.0)),
            boxed("Red box", red, Vec3::new(1.0, 0.0, -5.0)),
            boxed("Lost box", lost, Vec3::new(0.0, 0.0, 5.0)),
        ],
    );
    add.apply(&mut scene).expect("adds");
    let ids = add.created();
    (scene, ids)
}

fn options() -> RenderOptions {
    RenderOptions {
        width: W,
        height: H,
        fog: false,
        ..Default::default()
    }
}

fn pixel(camera: &Camera, p: Vec3) -> (u32, u32) {
    let clip = camera.clip_from_world(W as f32 / H as f32) * p.extend(1.0);
    let ndc = clip.truncate() / clip.w;
    (
        ((ndc.x * 0.5 + 0.5) * W as f32) as u32,
        ((0.5 - ndc.y * 0.5) * H as f32) as u32,
    )
}

#[test]
fn a_scene_draws_its_materials_and_picks_by_entity() {
    let Some(gpu) = test_gpu("a_scene_draws_its_materials_and_picks_by_entity") else {
        return;
    };
    draws_and_picks(&gpu);
}

/// A machine without Vulkan runs the editor on OpenGL ES (Mesa's llvmpipe where
/// there is no GPU), whose ID pass cannot render to a float target.
#[test]
fn a_scene_draws_and_picks_on_opengl_es_too() {
    if pebble_render::gpu::gpu_tests_skipped() {
        eprintln!(
            "\n*** a_scene_draws_and_picks_on_opengl_es_too not run: GPU tests skipped ***\n"
        );
        return;
    }
    let gpu = Gpu::headless_on(pebble_render::wgpu::Backends::GL).expect(
        "an OpenGL ES adapter (apt-get install libgl1-mesa-dri libegl-mesa0 libgles2 \
         gives Mesa's llvmpipe)",
    );
    assert_eq!(gpu.info.backend, pebble_render::wgpu::Backend::Gl);
    draws_and_picks(&gpu);
}

fn draws_and_picks(gpu: &Gpu) {
    let (scene, ids) = scene();
    let (renderer, sync) = SceneSync::renderer(gpu, &scene, &loader).expect("renderer");
    assert!(
        sync.warnings.iter().any(|w| w.contains("lost.png")),
        "{:?}",
        sync.warnings
    );
    let camera = Camera::psp(Vec3::ZERO, 0.0, 0.0);
    let (img, stats) = renderer.render(&camera, &options()).expect("renders");
    assert_eq!(stats.chunks_drawn, 2, "the box behind is culled");
    let g = pixel(&camera, Vec3::new(-1.0, 0.5, -4.5));
    let r = pixel(&camera, Vec3::new(1.0, 0.5, -4.5));
    assert_eq!(img.get_pixel(g.0, g.1).0, [0, 255, 0, 255]);
    assert_eq!(img.get_pixel(r.0, r.1).0, [255, 0, 0, 255]);
    let hit = renderer
        .pick(&camera, W, H, 0.0, r.0, r.1)
        .expect("picks")
        .expect("a hit");
    assert_eq!(hit.id, ids[1].0);
    let faces = match &scene.entity(ids[1]).expect("entity").kind {
        EntityKind::Mesh(m) => m.geometry.faces.len() as u32,
        _ => 0,
    };
    assert!(hit.face < faces);
    assert!(
        (hit.world.z + 4.5).abs() < 0.02,
        "front face of the box: {}",
        hit.world
    );
}

/// Moves the red box (entity `id` of [`scene`]) up by 1.5.
fn move_red_box_up(scene: &mut Scene, id: EntityId) {
    SetTransforms::new(
        "Move",
        vec![(id, Transform::from_translation(Vec3::new(1.0, 1.5, -5.0)))],
    )
    .apply(scene)
    .expect("moves");
}

#[test]
fn moving_one_entity_uploads_only_that_entity() {
    let Some(gpu) = test_gpu("moving_one_entity_uploads_only_that_entity") else {
        return;
    };
    let (mut scene, ids) = scene();
    let (mut renderer, mut sync) = SceneSync::renderer(&gpu, &scene, &loader).expect("renderer");
    let camera = Camera::psp(Vec3::ZERO, 0.0, 0.0);
    assert_eq!(
        sync.sync(&mut renderer, &scene, &loader),
        0,
        "nothing changed"
    );
    move_red_box_up(&mut scene, ids[1]);
    assert_eq!(sync.sync(&mut renderer, &scene, &loader), 1);
    let (img, _) = renderer.render(&camera, &options()).expect("renders");
    let old = pixel(&camera, Vec3::new(1.0, 0.5, -4.5));
    let new = pixel(&camera, Vec3::new(1.0, 2.0, -4.5));
    assert_ne!(
        img.get_pixel(old.0, old.1).0,
        [255, 0, 0, 255],
        "the red box left"
    );
    assert_eq!(
        img.get_pixel(new.0, new.1).0,
        [255, 0, 0, 255],
        "and is drawn where it went"
    );
    // Hidden: not drawn; locked: drawn but not pickable.
    assert_eq!(scene.set_visible(&[ids[0]], false), 1, "hides");
    let mut locked = scene.entity(ids[1]).expect("entity").clone();
    locked.locked = true;
    SetEntity::new("Lock", locked)
        .apply(&mut scene)
        .expect("locks");
    sync.sync(&mut renderer, &scene, &loader);
    let (img, stats) = renderer.render(&camera, &options()).expect("renders");
    assert_eq!(stats.chunks_drawn, 1);
    let g = pixel(&camera, Vec3::new(-1.0, 0.5, -4.5));
    assert_ne!(img.get_pixel(g.0, g.1).0, [0, 255, 0, 255]);
    assert_eq!(
        renderer
            .pick(&camera, W, H, 0.0, new.0, new.1)
            .expect("picks"),
        None
    );
}

/// A scene as loaded from a file is at revision 0: after the first sync nothing
/// is uploaded again until it changes (every frame used to rebuild every batch).
#[test]
fn a_scene_as_loaded_is_uploaded_once() {
    let Some(gpu) = test_gpu("a_scene_as_loaded_is_uploaded_once") else {
        return;
    };
    let (edited, ids) = scene();
    let mut scene = Scene::from_data(edited.data().clone(), edited.ids().clone());
    assert_eq!(scene.revision(), 0, "loaded, not edited");
    let (mut renderer, mut sync) = SceneSync::renderer(&gpu, &scene, &loader).expect("renderer");
    for _ in 0..3 {
        assert_eq!(
            sync.sync(&mut renderer, &scene, &loader),
            0,
            "nothing changed"
        );
    }
    // The first edit is picked up.
    move_red_box_up(&mut scene, ids[1]);
    assert!(sync.sync(&mut renderer, &scene, &loader) >= 1);
    assert_eq!(sync.sync(&mut renderer, &scene, &loader), 0);
    let camera = Camera::psp(Vec3::ZERO, 0.0, 0.0);
    let (img, _) = renderer.render(&camera, &options()).expect("renders");
    let new = pixel(&camera, Vec3::new(1.0, 2.0, -4.5));
    assert_eq!(img.get_pixel(new.0, new.1).0, [255, 0, 0, 255], "moved");
}

#[test]
fn selection_tints_its_entity_and_overlays_draw_over_the_scene() {
    use pebble_render::{Extras, Overlay, OverlayOptions};
    let Some(gpu) = test_gpu("selection_tints_its_entity") else {
        return;
    };
    let (scene, ids) = scene();
    let (renderer, _) = SceneSync::renderer(&gpu, &scene, &loader).expect("renderer");
    let camera = Camera::psp(Vec3::new(0.0, 1.0, 0.0), 0.0, -0.2);
    let r = pixel(&camera, Vec3::new(1.0, 0.5, -4.5));
    let g = pixel(&camera, Vec3::new(-1.0, 0.5, -4.5));
    let selected = [ids[1].0];
    let overlay = Overlay::of_scene(
        &scene,
        &OverlayOptions {
            grid_extent: 10.0,
            ..Default::default()
        },
    );
    let extras = Extras {
        overlay: Some(&overlay),
        selected: &selected,
        hovered: Some(ids[0].0),
        ..Default::default()
    };
    let (plain, _) = renderer.render(&camera, &options()).expect("renders");
    let (marked, stats) = renderer
        .render_with(&camera, &options(), &extras)
        .expect("renders");
    assert_eq!(plain.get_pixel(r.0, r.1).0, [255, 0, 0, 255]);
    let red = marked.get_pixel(r.0, r.1).0;
    assert!(
        red[0] > 240 && red[1] > 40 && red[2] < 60,
        "selected red box is tinted orange: {red:?}"
    );
    let green = marked.get_pixel(g.0, g.1).0;
    assert!(
        green[0] > 30 && green[1] > 240,
        "hovered green box is lightened: {green:?}"
    );
    // The grid shows on the empty ground below the horizon, and only there.
    let differs = |y0: u32, y1: u32| {
        (y0..y1)
            .flat_map(|y| (0..W).map(move |x| (x, y)))
            .filter(|&(x, y)| plain.get_pixel(x, y) != marked.get_pixel(x, y))
            .count()
    };
    assert!(differs(H - 8, H) > 10, "grid lines near the bottom");
    assert_eq!(differs(0, 4), 0, "nothing changes in the sky");
    assert!(stats.draw_calls > 2);
    // Triangles on top show over the nearer red box; depth-tested ones do not.
    let square = |at: Vec3| {
        let right = camera.forward().cross(Vec3::Y).normalize();
        let (x, y) = (right * 0.2, Vec3::Y * 0.2);
        let v = |p: Vec3| pebble_render::overlay::LineVertex {
            pos: p.to_array(),
            color: 0xFF_FF_00_00,
        };
        vec![
            v(at - x - y),
            v(at + x - y),
            v(at + x + y),
            v(at - x - y),
            v(at + x + y),
            v(at - x + y),
        ]
    };
    // On the line of sight through the red box's pixel, twice as far.
    let behind = camera.eye + (Vec3::new(1.0, 0.5, -4.5) - camera.eye) * 2.0;
    let on_top = Overlay {
        on_top_triangles: square(behind),
        triangles: square(behind),
        ..Default::default()
    };
    let extras = Extras {
        overlay: Some(&on_top),
        ..Default::default()
    };
    let (img, _) = renderer
        .render_with(&camera, &options(), &extras)
        .expect("renders");
    assert_eq!(
        img.get_pixel(r.0, r.1).0,
        [0, 0, 255, 255],
        "blue over the box"
    );
}

#[test]
fn the_preview_light_shades_faces_by_their_direction() {
    let Some(gpu) = test_gpu("the_preview_light_shades_faces") else {
        return;
    };
    let (scene, _) = scene();
    let (renderer, _) = SceneSync::renderer(&gpu, &scene, &loader).expect("renderer");
    // From above and to the side, the red box shows its top and its front.
    let camera = Camera::psp(Vec3::new(1.5, 3.0, -1.5), 0.0, -0.6);
    let lit = RenderOptions {
        preview_light: true,
        ..options()
    };
    let (flat, _) = renderer.render(&camera, &options()).expect("renders");
    let (shaded, _) = renderer.render(&camera, &lit).expect("renders");
    let top = pixel(&camera, Vec3::new(1.0, 1.0, -5.0));
    let front = pixel(&camera, Vec3::new(1.0, 0.3, -4.5));
    assert_eq!(
        flat.get_pixel(top.0, top.1).0,
        flat.get_pixel(front.0, front.1).0,
        "unlit: one colour"
    );
    let (t, f) = (
        shaded.get_pixel(top.0, top.1).0[0],
        shaded.get_pixel(front.0, front.1).0[0],
    );
    assert!(
        t > f + 20,
        "the top faces the light more than the front: {t} vs {f}"
    );
    assert!(f >= 110, "nothing goes black: {f}");
}

/// Shapes without colours of their own (made in the editor, never baked) are shaded
/// by their faces' direction in the editor's view, so a box reads as 3D without the
/// preview light; the PSP look keeps the flat colour the device shows, and a mesh
/// with colours of its own keeps them.
#[test]
fn uncoloured_shapes_read_as_3d_in_the_working_view() {
    let Some(gpu) = test_gpu("uncoloured_shapes_read_as_3d") else {
        return;
    };
    let (mut scene, _) = scene();
    let camera = Camera::psp(Vec3::new(1.5, 3.0, -1.5), 0.0, -0.6);
    let top = pixel(&camera, Vec3::new(1.0, 1.0, -5.0));
    let front = pixel(&camera, Vec3::new(1.0, 0.3, -4.5));
    let working = RenderOptions {
        shade_uncoloured: true,
        ..options()
    };
    let (renderer, _) = SceneSync::renderer(&gpu, &scene, &loader).expect("renderer");
    let (img, _) = renderer.render(&camera, &working).expect("renders");
    let (t, f) = (
        img.get_pixel(top.0, top.1).0[0],
        img.get_pixel(front.0, front.1).0[0],
    );
    assert!(t > f + 20, "the top and the front differ: {t} vs {f}");
    assert!(f >= 110, "nothing goes black: {f}");
    let psp = RenderOptions {
        psp: true,
        ..working
    };
    let (img, _) = renderer.render(&camera, &psp).expect("renders");
    assert_eq!(
        img.get_pixel(top.0, top.1).0,
        img.get_pixel(front.0, front.1).0,
        "the PSP look: one colour"
    );
    // The same box with colours of its own (white, as a bake might leave it).
    let red = scene
        .entities()
        .find(|e| e.name == "Red box")
        .map(|e| e.id)
        .expect("the red box");
    let mut data = scene.data().clone();
    if let Some(pebble_model::entity::EntityKind::Mesh(m)) =
        data.entities.get_mut(&red).map(|e| &mut e.kind)
    {
        m.geometry.colors = Some(vec![[1.0; 4]; m.geometry.positions.len()]);
    }
    scene = Scene::from_data(data, scene.ids().clone());
    let (renderer, _) = SceneSync::renderer(&gpu, &scene, &loader).expect("renderer");
    let (img, _) = renderer.render(&camera, &working).expect("renders");
    assert_eq!(
        img.get_pixel(top.0, top.1).0,
        img.get_pixel(front.0, front.1).0,
        "coloured: as its colours say"
    );
}

/// Entities (patrol spheres, balls) come as untextured solids drawn after the opaque
/// chunks: in front they show; behind, the editor's depth hides them, while the PSP
/// look (no depth writes, as the device) draws them over.
#[test]
fn solids_are_drawn_with_the_depth_test() {
    let Some(gpu) = test_gpu("solids_are_drawn_with_the_depth_test") else {
        return;
    };
    let (scene, _) = scene();
    let (renderer, _) = SceneSync::renderer(&gpu, &scene, &loader).expect("renderer");
    let camera = Camera::psp(Vec3::ZERO, 0.0, 0.0);
    let blue = 0xFFFF_0000u32;
    // A large blue triangle in front of the red box (x 1, z −4.5) and one behind
    // the green box (x −1, z −6).
    use pebble_render::Extras;
    let tri = |x: f32, z: f32| {
        [[x - 0.6, 0.1, z], [x + 0.6, 0.1, z], [x, 0.9, z]]
            .map(|pos| pebble_render::SolidVertex { pos, color: blue })
    };
    let solids: Vec<_> = tri(1.0, -4.0).into_iter().chain(tri(-1.0, -6.0)).collect();
    let extras = Extras {
        solids: &solids,
        ..Default::default()
    };
    let front = pixel(&camera, Vec3::new(1.0, 0.45, -4.0));
    let behind = pixel(&camera, Vec3::new(-1.0, 0.45, -6.0));
    for psp in [false, true] {
        let options = RenderOptions { psp, ..options() };
        let (img, stats) = renderer
            .render_with(&camera, &options, &extras)
            .expect("renders");
        let f = img.get_pixel(front.0, front.1).0;
        assert!(
            f[2] > 200 && f[0] < 60 && f[1] < 60,
            "psp {psp}: the solid in front shows: {f:?}"
        );
        // The runtime writes depth for opaque surfaces, so the box hides what is
        // behind it in the PSP look too, whatever the order things are drawn in.
        let b = img.get_pixel(behind.0, behind.1).0;
        assert!(
            b[1] > 200 && b[2] < 60,
            "psp {psp}: the green box hides the solid behind it: {b:?}"
        );
        assert!(stats.triangles >= 2);
    }
}

/// From inside a box every face is a back face: culled as on the device, or drawn
/// faintly over what lies beyond with `back_faces` (the editor's "Show back
/// faces"), and picked only where drawn.
#[test]
fn back_faces_are_drawn_faintly_and_picked_only_when_asked_for() {
    let Some(gpu) = test_gpu("back_faces_are_drawn_faintly") else {
        return;
    };
    let (scene, ids) = scene();
    let (mut renderer, _) = SceneSync::renderer(&gpu, &scene, &loader).expect("renderer");
    let inside = Camera::psp(Vec3::new(1.0, 0.5, -5.0), 0.0, 0.0);
    let centre = (W / 2, H / 2);
    let (culled, _) = renderer.render(&inside, &options()).expect("renders");
    let faint = RenderOptions {
        back_faces: 0.5,
        ..options()
    };
    let (drawn, _) = renderer.render(&inside, &faint).expect("renders");
    let (c, d) = (
        culled.get_pixel(centre.0, centre.1).0,
        drawn.get_pixel(centre.0, centre.1).0,
    );
    assert!(
        c[0] < 100 && c[2] > c[0],
        "culled: the sky beyond, not the red wall: {c:?}"
    );
    // Half the red wall, half what lies beyond.
    let half = |wall: u8, beyond: u8| (u16::from(wall) + u16::from(beyond)) / 2;
    for (k, wall) in [(0, 255u8), (1, 0), (2, 0)] {
        let want = half(wall, c[k]);
        assert!(
            u16::from(d[k]).abs_diff(want) < 25,
            "channel {k}: {d:?} over {c:?}, want about {want}"
        );
    }
    // The PSP look culls them whatever the option says.
    let psp = RenderOptions { psp: true, ..faint };
    let psp_culled = RenderOptions {
        psp: true,
        ..options()
    };
    assert_eq!(
        renderer.render(&inside, &psp).expect("renders").0,
        renderer.render(&inside, &psp_culled).expect("renders").0
    );
    // Picked from behind only while they are drawn.
    let pick = |r: &pebble_render::Renderer| {
        r.pick(&inside, W, H, 0.0, centre.0, centre.1)
            .expect("picks")
    };
    let hit = pick(&renderer).expect("the far wall, from behind");
    assert_eq!((hit.id, hit.back_face), (ids[1].0, true));
    renderer.set_back_faces_picked(false);
    assert_eq!(pick(&renderer).map(|h| h.id), None);
}

/// A pick can see through entities (a drag snapping onto the surface under the
/// cursor sees through what it moves).
#[test]
fn a_pick_sees_through_the_entities_it_is_told_to() {
    let Some(gpu) = test_gpu("a_pick_sees_through") else {
        return;
    };
    let (scene, ids) = scene();
    let (renderer, _) = SceneSync::renderer(&gpu, &scene, &loader).expect("renderer");
    let camera = Camera::psp(Vec3::new(0.0, 1.0, 0.0), 0.0, -0.2);
    let (x, y) = pixel(&camera, Vec3::new(1.0, 0.5, -4.5));
    let hit = renderer
        .pick(&camera, W, H, 0.0, x, y)
        .expect("picks")
        .expect("the red box");
    assert_eq!(hit.id, ids[1].0);
    let through = renderer
        .pick_excluding(&camera, (W, H, 0.0), (x, y), &[ids[1].0])
        .expect("picks");
    assert_ne!(through.map(|h| h.id), Some(ids[1].0), "{through:?}");
}

/// Markers the editor hands the ID pass are picked like meshes: in front of a box
/// they win, behind it they are hidden, a pick told to see through them does, and
/// a box select finds them.
#[test]
fn markers_in_the_id_pass_are_picked_and_hidden_like_meshes() {
    use pebble_render::PickMarkerVertex;
    let Some(gpu) = test_gpu("markers_in_the_id_pass") else {
        return;
    };
    let (scene, ids) = scene();
    let (mut renderer, _) = SceneSync::renderer(&gpu, &scene, &loader).expect("renderer");
    let camera = Camera::psp(Vec3::new(0.0, 1.0, 0.0), 0.0, -0.2);
    let red = Vec3::new(1.0, 0.5, -4.5);
    let (x, y) = pixel(&camera, red);
    let quad = |at: Vec3, id: u32| {
        let right = camera.forward().cross(Vec3::Y).normalize() * 0.15;
        let up = Vec3::Y * 0.15;
        [
            at - right - up,
            at + right - up,
            at + right + up,
            at - right - up,
            at + right + up,
            at - right + up,
        ]
        .map(|p| PickMarkerVertex {
            pos: p.to_array(),
            id,
        })
        .to_vec()
    };
    let along = |k: f32| camera.eye + (red - camera.eye) * k;
    let pick = |r: &pebble_render::Renderer| r.pick(&camera, W, H, 0.0, x, y).expect("picks");
    renderer.set_pick_markers(quad(along(0.5), 999));
    assert_eq!(
        pick(&renderer).map(|h| h.id),
        Some(999),
        "in front: the marker"
    );
    let through = renderer
        .pick_excluding(&camera, (W, H, 0.0), (x, y), &[999])
        .expect("picks");
    assert_eq!(
        through.map(|h| h.id),
        Some(ids[1].0),
        "seen through: the box"
    );
    let boxed = renderer
        .pick_rect(&camera, W, H, 0.0, (0, 0), (W - 1, H - 1))
        .expect("picks");
    assert!(boxed.contains(&999), "{boxed:?}");
    renderer.set_pick_markers(quad(along(2.0), 999));
    assert_eq!(
        pick(&renderer).map(|h| h.id),
        Some(ids[1].0),
        "behind: hidden"
    );
}

/// A texture whose file changed is loaded again in place, with nothing else
/// uploaded; a file gone shows the missing-texture checker.
#[test]
fn a_changed_texture_is_reloaded_in_place_and_a_deleted_one_shows_as_missing() {
    let Some(gpu) = test_gpu("a_changed_texture_is_reloaded_in_place") else {
        return;
    };
    let (scene, _) = scene();
    let (mut renderer, mut sync) = SceneSync::renderer(&gpu, &scene, &loader).expect("renderer");
    let camera = Camera::psp(Vec3::ZERO, 0.0, 0.0);
    let g = pixel(&camera, Vec3::new(-1.0, 0.5, -4.5));
    let blue = |path: &str| -> Result<RgbaImage, String> {
        match path {
            "green.png" => Ok(RgbaImage::from_pixel(16, 16, image::Rgba([0, 0, 255, 255]))),
            other => Err(format!("{other}: no such file")),
        }
    };
    let (replaced, problem) = sync.reload_texture(&mut renderer, "green.png", &blue);
    assert_eq!((replaced, problem), (1, None));
    assert_eq!(
        sync.sync(&mut renderer, &scene, &blue),
        0,
        "no batch uploaded"
    );
    let (img, _) = renderer.render(&camera, &options()).expect("renders");
    assert_eq!(
        img.get_pixel(g.0, g.1).0,
        [0, 0, 255, 255],
        "the new picture"
    );
    let gone = |path: &str| -> Result<RgbaImage, String> { Err(format!("{path}: deleted")) };
    let (replaced, problem) = sync.reload_texture(&mut renderer, "green.png", &gone);
    assert_eq!(replaced, 1);
    assert!(problem.is_some_and(|p| p.contains("deleted")));
    let (img, _) = renderer.render(&camera, &options()).expect("renders");
    let px = img.get_pixel(g.0, g.1).0;
    // Magenta and black texels, filtered: red equals blue, no green.
    assert!(
        px[1] == 0 && px[0] == px[2] && px[0] > 0,
        "the magenta checker: {px:?}"
    );
    // Nothing uses this file: nothing replaced.
    assert_eq!(sync.reload_texture(&mut renderer, "other.png", &blue).0, 0);
}

/// Four colours, one per quarter, so that any UV moved shows.
fn quarters(path: &str) -> Result<RgbaImage, String> {
    match path {
        "quarters.png" => Ok(RgbaImage::from_fn(8, 8, |x, y| match (x < 4, y < 4) {
            (true, true) => image::Rgba([255, 0, 0, 255]),
            (false, true) => image::Rgba([0, 255, 0, 255]),
            (true, false) => image::Rgba([0, 0, 255, 255]),
            (false, false) => image::Rgba([255, 255, 0, 255]),
        })),
        other => Err(format!("{other}: no such file")),
    }
}

/// A drag in the UV dock changes a mesh's UVs alone, frame after frame: the
/// batch's vertices are rewritten in place, and the picture is the one a batch
/// built afresh draws, outside and (through the reversed copies of double-sided
/// faces) inside, in a mirrored world too. Anything more than the UVs changed
/// builds the batch again.
#[test]
fn a_change_to_uvs_alone_rewrites_the_batch_in_place_as_a_fresh_build_draws_it() {
    use pebble_model::command::SetFaceUvs;
    use pebble_model::glam::Vec2;
    let Some(gpu) = test_gpu("a_change_to_uvs_alone_rewrites_the_batch_in_place") else {
        return;
    };
    for mirrored in [false, true] {
        let mut scene = Scene::new();
        let mut material = AddMaterial::new(Material {
            name: "Quarters".into(),
            texture: Some("quarters.png".into()),
            double_sided: true,
            ..Material::default()
        });
        material.apply(&mut scene).expect("material");
        let mut boxed = boxed("Box", material.created().expect("id"), Vec3::ZERO);
        boxed.transform = Transform {
            translation: Vec3::new(0.0, -1.5, -1.5),
            scale: Vec3::new(if mirrored { -3.0 } else { 3.0 }, 3.0, 3.0),
            ..Transform::IDENTITY
        };
        let mut add = AddEntities::new("Add", vec![boxed]);
        add.apply(&mut scene).expect("adds");
        let id = add.created()[0];
        let (mut renderer, mut sync) =
            SceneSync::renderer(&gpu, &scene, &quarters).expect("renderer");
        // Outside, ahead of the box's front; inside, at its middle.
        let cameras = [
            Camera::psp(Vec3::new(0.0, 0.0, 4.0), 0.0, 0.0),
            Camera::psp(Vec3::new(0.0, 0.0, -1.5), 0.0, 0.0),
        ];
        let draw = |renderer: &pebble_render::Renderer| {
            cameras.map(|c| renderer.render(&c, &options()).expect("renders").0)
        };
        let before = draw(&renderer);
        let faces = match &scene.entity(id).expect("the box").kind {
            EntityKind::Mesh(m) => m.geometry.faces.clone(),
            _ => unreachable!("a box is a mesh"),
        };
        // Two frames of a drag: half a repeat across and a quarter turn.
        let frames: [fn(Vec2) -> Vec2; 2] = [
            |uv| uv + Vec2::new(0.5, 0.0),
            |uv| Vec2::new(-uv.y, uv.x) + Vec2::new(0.25, 0.5),
        ];
        for (k, change) in frames.into_iter().enumerate() {
            let after = vec![(
                id,
                faces
                    .iter()
                    .enumerate()
                    .map(|(i, f)| (i, f.uvs.map(change)))
                    .collect(),
            )];
            SetFaceUvs::new("Move UVs", after)
                .apply(&mut scene)
                .expect("UVs");
            assert_eq!(
                sync.sync(&mut renderer, &scene, &quarters),
                0,
                "nothing built"
            );
            assert_eq!(sync.rewritten, k as u64 + 1, "rewritten in place");
            let (fresh, _) = SceneSync::renderer(&gpu, &scene, &quarters).expect("renderer");
            let (now, built) = (draw(&renderer), draw(&fresh));
            for (view, (a, b)) in now.iter().zip(&built).enumerate() {
                assert!(
                    a.as_raw() == b.as_raw(),
                    "mirrored {mirrored}, frame {k}, view {view}: the rewritten batch draws as a fresh one"
                );
            }
            if k == 0 {
                for (view, (a, b)) in now.iter().zip(&before).enumerate() {
                    assert!(a.as_raw() != b.as_raw(), "view {view}: the UVs moved");
                }
            }
        }
        // UVs and the place changed together: built again.
        let mut moved = scene.entity(id).expect("the box").clone();
        moved.transform.translation.y += 0.25;
        SetEntity::new("Move", moved)
            .apply(&mut scene)
            .expect("moves");
        assert_eq!(
            sync.sync(&mut renderer, &scene, &quarters),
            1,
            "built again"
        );
        assert_eq!(sync.rewritten, 2);
    }
}
