//! Export bounds its work and memory: what a PSP cannot hold is refused by name
//! before it is built, absurd transforms are errors rather than hangs, and a cancel
//! is honoured inside a stage, not only between stages.
//!
//! Each export runs on a thread of its own, watched for 20 s (a guard against
//! hangs, not a measure of speed), and the memory that thread allocates is counted
//! by the allocator below: past 1 GiB it refuses, so an export that would allocate
//! gigabytes aborts this test binary instead of the machine.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, mpsc};
use std::time::{Duration, Instant};

use pebble_io::export::{
    ExportError, ExportLimits, ExportOptions, ExportProgress, ExportReport, export,
};
use pebble_model::command::{AddEntities, AddMaterial};
use pebble_model::entity::{EntityKind, GeometrySource, MeshEntity};
use pebble_model::glam::{Quat, Vec2, Vec3};
use pebble_model::material::AlphaMode;
use pebble_model::mesh::{Face, MeshData};
use pebble_model::{Command, Entity, Material, MaterialId, Primitive, Scene, Transform};

/// The system allocator, counting the live bytes of threads that asked to be counted.
struct Counting;

/// Live bytes a counted thread may hold before allocations fail.
const CAP: usize = 1 << 30;

thread_local! {
    static COUNTED: Cell<bool> = const { Cell::new(false) };
    static LIVE: Cell<isize> = const { Cell::new(0) };
    static PEAK: Cell<isize> = const { Cell::new(0) };
}

/// Counts `size` more bytes on this thread; false past the cap.
fn grow(size: usize) -> bool {
    COUNTED
        .try_with(|counted| {
            if !counted.get() {
                return true;
            }
            let live = LIVE.with(|l| l.get()) + size as isize;
            if live > CAP as isize {
                return false;
            }
            LIVE.with(|l| l.set(live));
            PEAK.with(|p| p.set(p.get().max(live)));
            true
        })
        .unwrap_or(true)
}

fn shrink(size: usize) {
    let _ = COUNTED.try_with(|counted| {
        if counted.get() {
            LIVE.with(|l| l.set(l.get() - size as isize));
        }
    });
}

// SAFETY: every call goes to the system allocator with its arguments unchanged (or
// fails with null, which callers must handle); the counters are thread-locals with
// const initialisers and no destructors, so reading them never allocates.
#[allow(unsafe_code)]
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if !grow(layout.size()) {
            return std::ptr::null_mut();
        }
        // SAFETY: the caller's layout, as the trait requires.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if !grow(layout.size()) {
            return std::ptr::null_mut();
        }
        // SAFETY: as above.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        shrink(layout.size());
        // SAFETY: `ptr` came from this allocator with `layout`.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if !grow(new_size) {
            return std::ptr::null_mut();
        }
        // SAFETY: `ptr` came from this allocator with `layout`.
        let out = unsafe { System.realloc(ptr, layout, new_size) };
        shrink(if out.is_null() {
            new_size
        } else {
            layout.size()
        });
        out
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// How long a test waits for an export before it calls it hung.
const HANG: Duration = Duration::from_secs(20);

/// What an export on its own thread returned, the most memory that thread held, and
/// when it returned.
struct Outcome {
    result: Result<ExportReport, ExportError>,
    stages: Vec<&'static str>,
    peak_bytes: usize,
    returned: Instant,
}

/// Exports on a thread of its own; fails the test if it has not returned in `HANG`.
/// `on_stage` is told each stage that ends (on the export's thread).
fn export_watched(
    scene: Scene,
    options: ExportOptions,
    cancel: Arc<AtomicBool>,
    on_stage: impl Fn(&'static str) + Send + 'static,
) -> Outcome {
    let on_progress = move |p: ExportProgress| {
        if p.done == p.total {
            on_stage(p.stage)
        }
    };
    export_on_thread(scene, options, cancel, on_progress, true)
}

/// As [`export_watched`], told every progress report; `count` says whether the
/// thread's memory is counted (and capped).
fn export_on_thread(
    scene: Scene,
    options: ExportOptions,
    cancel: Arc<AtomicBool>,
    on_progress: impl Fn(ExportProgress) + Send + 'static,
    count: bool,
) -> Outcome {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        COUNTED.with(|c| c.set(count));
        let mut stages = Vec::new();
        let mut progress = |p: ExportProgress| {
            if p.done == p.total {
                stages.push(p.stage);
            }
            on_progress(p);
        };
        let result = export(&scene, &options, &mut progress, &cancel).map(|(_, report)| report);
        let returned = Instant::now();
        let peak_bytes = PEAK.with(|p| p.get()).max(0) as usize;
        drop(scene);
        let _ = tx.send(Outcome {
            result,
            stages,
            peak_bytes,
            returned,
        });
    });
    match rx.recv_timeout(HANG) {
        Ok(outcome) => outcome,
        Err(_) => panic!("the export has not returned after {HANG:?}: it hangs"),
    }
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("pebble-limits-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("dir");
    dir
}

fn options(dir: &std::path::Path) -> ExportOptions {
    let mut o = ExportOptions::new(dir);
    o.bake = false;
    o
}

fn with_material(material: Material) -> (Scene, MaterialId) {
    let mut scene = Scene::new();
    let mut add = AddMaterial::new(material);
    add.apply(&mut scene).expect("material");
    let id = add.created().expect("id");
    (scene, id)
}

fn add(scene: &mut Scene, entities: Vec<Entity>) {
    AddEntities::new("Add", entities)
        .apply(scene)
        .expect("adds");
}

/// A 1 m cylinder (0.5 m radius, 1 m tall) with this scale.
fn cylinder(name: &str, mat: MaterialId, scale: Vec3) -> Entity {
    let p = Primitive::Cylinder {
        radius: 0.5,
        height: 1.0,
        sides: 16,
    };
    let geometry = p.generate(mat).expect("cylinder");
    Entity::new(
        name,
        EntityKind::Mesh(MeshEntity {
            source: GeometrySource::Primitive(p),
            geometry,
            collidable: false,
        }),
    )
    .with_transform(Transform {
        translation: Vec3::ZERO,
        rotation: Quat::IDENTITY,
        scale,
    })
}

#[test]
fn a_cylinder_stretched_a_million_times_is_refused_by_name_before_it_is_built() {
    let (mut scene, mat) = with_material(Material::default());
    add(
        &mut scene,
        vec![cylinder("Stretched pillar", mat, Vec3::new(1.0, 1.0, 1e6))],
    );
    let dir = scratch("stretched");
    let out = export_watched(scene, options(&dir), Arc::default(), |_| {});
    let err = out.result.expect_err("a 1000 km pillar does not fit a PSP");
    let text = err.to_string();
    println!("{text}");
    match &err {
        ExportError::TooLarge { entity, size_m, .. } => {
            assert_eq!(entity, "Stretched pillar");
            assert!((size_m[2] - 1e6).abs() < 1e3, "size {size_m:?}");
            assert!((size_m[0] - 1.0).abs() < 1e-3, "size {size_m:?}");
        }
        other => panic!("expected TooLarge, got {other:?}"),
    }
    assert!(
        text.contains("'Stretched pillar'")
            && text.contains("1000000 m")
            && text.contains("Scale it down")
            && text.contains("±2048 m"),
        "{text}"
    );
    // Refused before anything was built: no stage ran, and the thread never held
    // more than a few megabytes (the old slicer went past 5 GB).
    assert!(out.stages.is_empty(), "stages ran: {:?}", out.stages);
    println!("peak {} KiB", out.peak_bytes / 1024);
    assert!(out.peak_bytes < 16 << 20, "peak {} bytes", out.peak_bytes);
}

#[test]
fn a_scale_of_zero_and_1e30_is_an_error_not_a_hang_and_nan_or_inf_is_named() {
    let (mut scene, mat) = with_material(Material::default());
    add(
        &mut scene,
        vec![cylinder("Flat needle", mat, Vec3::new(0.0, 1.0, 1e30))],
    );
    let dir = scratch("needle");
    let out = export_watched(scene, options(&dir), Arc::default(), |_| {});
    let err = out.result.expect_err("refused");
    println!("{err}");
    match &err {
        ExportError::TooLarge { entity, size_m, .. } => {
            assert_eq!(entity, "Flat needle");
            assert_eq!(size_m[0], 0.0);
            assert!(size_m[2] > 1e29, "{size_m:?}");
        }
        other => panic!("expected TooLarge, got {other:?}"),
    }
    assert!(out.peak_bytes < 16 << 20, "peak {} bytes", out.peak_bytes);

    // 1e30 × 1e30 overflows to infinity; a NaN scale is NaN everywhere.
    for (name, scale) in [
        ("Infinite", Vec3::splat(1e30)),
        ("Not a number", Vec3::new(f32::NAN, 1.0, 1.0)),
    ] {
        let (mut scene, mat) = with_material(Material::default());
        // Local ids tie the child to its parent within the batch.
        let mut parent = Entity::new("Parent", EntityKind::Group).with_transform(Transform {
            translation: Vec3::ZERO,
            rotation: Quat::IDENTITY,
            scale: Vec3::splat(1e30),
        });
        parent.id = pebble_model::EntityId(1);
        let mut child = cylinder(name, mat, scale);
        child.parent = Some(pebble_model::EntityId(1));
        add(&mut scene, vec![parent, child]);
        let out = export_watched(scene, options(&dir), Arc::default(), |_| {});
        let err = out.result.expect_err("not finite");
        let text = err.to_string();
        assert!(
            matches!(&err, ExportError::Entity { entity, .. } if entity == name)
                && text.contains("not finite")
                && text.contains("scale"),
            "{name}: {text}"
        );
    }
}

#[test]
fn triangles_a_scale_of_zero_flattens_are_left_out_with_a_warning() {
    let (mut scene, mat) = with_material(Material::default());
    // Flat along x: the caps become lines, the sides a sheet in the y–z plane.
    add(
        &mut scene,
        vec![cylinder("Sheet", mat, Vec3::new(0.0, 1.0, 1.0))],
    );
    let dir = scratch("sheet");
    let mut o = options(&dir);
    o.max_extent = 0.0;
    let (bytes, report) =
        export(&scene, &o, &mut |_| {}, &AtomicBool::new(false)).expect("exports");
    let map = pbm::Map::read(&bytes).expect("reads").0;
    let mut kept = 0;
    for m in &map.meshes {
        for t in m.vertices.chunks_exact(3) {
            let p = |k: usize| Vec3::from(t[k].pos);
            assert!(
                (p(1) - p(0)).cross(p(2) - p(0)) != Vec3::ZERO,
                "a triangle without area was exported: {t:?}"
            );
            kept += 1;
        }
    }
    assert!(kept > 0, "the sides are still drawn");
    assert!(
        report
            .warnings
            .iter()
            .any(|w| w.starts_with("Sheet:") && w.contains("no area")),
        "{:?}",
        report.warnings
    );
}

/// A mesh like one the TMD importer makes from a model authored in other units: 16-bit
/// coordinates at 0.01 m per unit and an object scale of 2^2 — 1.6 × 1.2 × 0.8 km.
fn kilometre_model(mat: MaterialId) -> MeshData {
    let unit = 0.01 * 4.0;
    let (x, y, z) = (20_000.0 * unit, 15_000.0 * unit, 10_000.0 * unit);
    let mut m = MeshData::default();
    for k in 0..8 {
        m.positions.push(Vec3::new(
            if k & 1 == 0 { -x } else { x },
            if k & 2 == 0 { -y } else { y },
            if k & 4 == 0 { -z } else { z },
        ));
    }
    // The six sides of the box, two triangles each.
    for [a, b, c, d] in [
        [0, 2, 3, 1],
        [4, 5, 7, 6],
        [0, 1, 5, 4],
        [2, 6, 7, 3],
        [0, 4, 6, 2],
        [1, 3, 7, 5],
    ] {
        for indices in [[a, b, c], [a, c, d]] {
            m.faces.push(Face {
                indices,
                uvs: [Vec2::ZERO; 3],
                material: mat,
            });
        }
    }
    m
}

#[test]
fn a_tmd_model_kilometres_wide_is_refused_by_name() {
    let (mut scene, mat) = with_material(Material::default());
    add(
        &mut scene,
        vec![Entity::new(
            "tower 0",
            EntityKind::Mesh(MeshEntity {
                source: GeometrySource::Asset {
                    path: "tower.tmd".into(),
                    mesh: "object 0".into(),
                },
                geometry: kilometre_model(mat),
                collidable: true,
            }),
        )],
    );
    let dir = scratch("tmd");
    // The cut grows with the model (100 m cells across 1.6 km): over a budget of
    // 500 drawn triangles, it is refused before anything is built.
    let mut o = options(&dir);
    o.limits = ExportLimits {
        max_triangles: 500,
        ..ExportLimits::PSP
    };
    let out = export_watched(scene, o, Arc::default(), |_| {});
    let err = out.result.expect_err("a 1.6 km model is over the budget");
    let text = err.to_string();
    println!("{text}");
    match &err {
        ExportError::TooLarge { entity, size_m, .. } => {
            assert_eq!(entity, "tower 0");
            assert!((size_m[0] - 1600.0).abs() < 1.0, "{size_m:?}");
            assert!((size_m[1] - 1200.0).abs() < 1.0, "{size_m:?}");
        }
        other => panic!("expected TooLarge, got {other:?}"),
    }
    assert!(
        text.contains("'tower 0'")
            && text.contains("1600 × 1200 × 800 m")
            && text.contains("triangles")
            && text.contains("500 triangles"),
        "{text}"
    );
    assert!(out.stages.is_empty(), "refused before the stages");
    assert!(out.peak_bytes < 16 << 20, "peak {} bytes", out.peak_bytes);
}

/// A floor of `n × n` quads of `quad` metres, turned 30° about y so that the 2 m grid
/// cuts it on the diagonal.
fn floor(name: &str, mat: MaterialId, n: u32, quad: f32) -> Entity {
    let mut m = MeshData::default();
    let side = n + 1;
    let half = n as f32 * quad * 0.5;
    for j in 0..side {
        for i in 0..side {
            m.positions.push(Vec3::new(
                i as f32 * quad - half,
                0.0,
                j as f32 * quad - half,
            ));
        }
    }
    for j in 0..n {
        for i in 0..n {
            let a = j * side + i;
            let (b, c, d) = (a + 1, a + side, a + side + 1);
            for indices in [[a, c, b], [b, c, d]] {
                m.faces.push(Face {
                    indices,
                    uvs: [Vec2::ZERO; 3],
                    material: mat,
                });
            }
        }
    }
    Entity::new(
        name,
        EntityKind::Mesh(MeshEntity {
            source: GeometrySource::Authored,
            geometry: m,
            collidable: false,
        }),
    )
    .with_transform(Transform {
        translation: Vec3::ZERO,
        rotation: Quat::from_rotation_y(30f32.to_radians()),
        scale: Vec3::ONE,
    })
}

#[test]
fn the_cutting_stops_at_the_triangle_budget_when_the_estimate_was_low() {
    // 60 × 60 m on the diagonal under a lamp reaching all of it, cut on a 2 m
    // grid (grown to a sixteenth of its 82 m): the estimate (area over the
    // largest piece a cell of the coarse grid can hold) is below what the cutting
    // makes, so a budget one short of that is only found out in the geometry stage.
    let (mut scene, mat) = with_material(Material::default());
    let lamp = Entity::new(
        "Lamp",
        EntityKind::Light(pebble_model::entity::Light::Omni {
            color: [1.0; 3],
            radius: 60.0,
            intensity: 1.0,
            shadows: false,
            cone: None,
        }),
    )
    .with_transform(Transform::from_translation(Vec3::new(0.0, 3.0, 0.0)));
    add(&mut scene, vec![floor("Plaza", mat, 1, 60.0), lamp]);
    let dir = scratch("plaza");
    let mut o = options(&dir);
    o.max_extent = 2.0;
    let out = export_watched(scene.clone(), o.clone(), Arc::default(), |_| {});
    let made = out.result.expect("fits a PSP").vertices as u64 / 3;
    assert!(made > 100, "{made} triangles");
    o.limits = ExportLimits {
        max_triangles: made - 1,
        ..ExportLimits::PSP
    };
    let out = export_watched(scene, o, Arc::default(), |_| {});
    let err = out.result.expect_err("one over");
    let text = err.to_string();
    println!("{text}");
    assert!(
        matches!(&err, ExportError::TooLarge { entity, .. } if entity == "Plaza")
            && text.contains(&format!("past {} triangles", made - 1)),
        "{text}"
    );
    assert_eq!(out.stages, ["textures"], "refused in the geometry stage");
}

#[test]
fn a_floor_too_wide_for_the_triangle_budget_is_refused_before_it_is_built() {
    // 1 km square, turned: its cut grows to an 85 m grid (a sixteenth of its 1.37 km),
    // at least 96 pieces; over a budget of 40 it is refused before anything is
    // built.
    let (mut scene, mat) = with_material(Material::default());
    add(&mut scene, vec![floor("Desert", mat, 2, 500.0)]);
    let dir = scratch("desert");
    let mut o = options(&dir);
    o.limits = ExportLimits {
        max_triangles: 40,
        ..ExportLimits::PSP
    };
    let out = export_watched(scene, o, Arc::default(), |_| {});
    let err = out.result.expect_err("refused");
    let text = err.to_string();
    println!("{text}");
    assert!(
        matches!(&err, ExportError::TooLarge { entity, .. } if entity == "Desert")
            && text.contains("m grid"),
        "{text}"
    );
    assert!(out.stages.is_empty());
    assert!(out.peak_bytes < 16 << 20, "peak {} bytes", out.peak_bytes);
}

#[test]
fn entities_over_the_budget_together_are_refused_naming_the_largest() {
    // Uncut, each fits a budget of 6000 on its own (3200 and 5000 triangles);
    // together they do not.
    let (mut scene, mat) = with_material(Material::default());
    let mut small = floor("West lawn", mat, 40, 5.0);
    small.transform.translation.x = -800.0;
    let mut large = floor("East lawn", mat, 50, 5.0);
    large.transform.translation.x = 800.0;
    add(&mut scene, vec![small, large]);
    let dir = scratch("lawns");
    let mut o = options(&dir);
    o.max_extent = 0.0;
    o.limits = ExportLimits {
        max_triangles: 6000,
        ..ExportLimits::PSP
    };
    let out = export_watched(scene, o, Arc::default(), |_| {});
    let err = out.result.expect_err("refused");
    let text = err.to_string();
    println!("{text}");
    assert!(
        matches!(&err, ExportError::TooLarge { entity, .. } if entity == "East lawn")
            && text.contains("in all"),
        "{text}"
    );
    assert!(out.stages.is_empty());
}

#[test]
fn textures_past_what_a_psp_holds_are_refused() {
    // Nine distinct 512² blended textures: 9 MiB of RGBA8888.
    let dir = scratch("textures");
    let mut scene = Scene::new();
    let mut entities = Vec::new();
    for t in 0..9u32 {
        let file = format!("glass{t}.png");
        image::RgbaImage::from_fn(512, 512, |x, y| {
            image::Rgba([(x / 2) as u8, (y / 2) as u8, (t * 20) as u8, 128])
        })
        .save(dir.join(&file))
        .expect("png");
        let mut m = AddMaterial::new(Material {
            name: format!("Glass {t}"),
            texture: Some(file),
            alpha: AlphaMode::Blend,
            ..Material::default()
        });
        m.apply(&mut scene).expect("material");
        let mat = m.created().expect("id");
        let mut e = floor(&format!("Pane {t}"), mat, 1, 1.0);
        e.transform.translation = Vec3::new(t as f32 * 2.0, 0.0, 0.0);
        entities.push(e);
    }
    add(&mut scene, entities);
    let out = export_watched(scene, options(&dir), Arc::default(), |_| {});
    let err = out.result.expect_err("9 MiB of textures");
    let text = err.to_string();
    println!("{text}");
    assert!(
        matches!(err, ExportError::MapTooLarge { .. })
            && text.contains("textures")
            && text.contains("at most 8 MiB"),
        "{text}"
    );
}

#[test]
fn cancel_is_honoured_inside_the_geometry_stage() {
    // A legal scene for these (raised) limits with a long geometry stage: one
    // entity, 96 800 triangles of 2.8 m cut into about 0.9 M pieces. The old export
    // looked at the flag only between entities and stages, so it read the whole
    // entity before it returned (with the face loop's check taken out, the test
    // fails so: 23 more reports).
    let (mut scene, mat) = with_material(Material::default());
    add(&mut scene, vec![floor("Big field", mat, 220, 2.8)]);
    let dir = scratch("cancel");
    let mut o = options(&dir);
    o.limits = ExportLimits {
        max_triangles: 20_000_000,
        max_bytes: 4 << 30,
        ..ExportLimits::PSP
    };
    let cancel = Arc::new(AtomicBool::new(false));
    let (set_tx, set_rx) = mpsc::channel::<Instant>();
    let flag = cancel.clone();
    let reports = Arc::new(std::sync::Mutex::new(Vec::<u64>::new()));
    let seen = reports.clone();
    // The flag is set at the geometry stage's first report on the way (4096 faces
    // read of 96 800): inside the stage, inside its one entity. (Memory is not
    // counted: the old export built the whole stage, about 1 GB.)
    let on_progress = move |p: ExportProgress| {
        if p.stage != "geometry" || p.done == p.total {
            return;
        }
        seen.lock().expect("reports").push(p.done);
        if p.done > 0 && !flag.swap(true, Ordering::Relaxed) {
            let _ = set_tx.send(Instant::now());
        }
    };
    let out = export_on_thread(scene, o, cancel, on_progress, false);
    let set_at = set_rx.recv_timeout(HANG).expect("the flag was set");
    assert!(
        matches!(out.result, Err(ExportError::Cancelled)),
        "{:?}",
        out.result.map(|r| r.vertices)
    );
    println!(
        "cancel honoured {:?} after the flag was set",
        out.returned.saturating_duration_since(set_at)
    );
    // It stops within the next block of faces it reads.
    let reports = reports.lock().expect("reports").clone();
    let at_flag = reports.iter().copied().find(|&d| d > 0).expect("a report");
    assert!(
        reports.iter().all(|&d| d <= at_flag + 4096),
        "the export read on after the flag was set at {at_flag} faces: {reports:?}"
    );
    assert_eq!(
        out.stages,
        ["textures"],
        "the geometry stage ended although the flag was set inside it"
    );
}
