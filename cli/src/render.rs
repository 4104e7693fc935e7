//! `pebble render MAP_OR_PROJECT -o shot.png`: draw a map (or a project, exported
//! first) with no window, on any adapter, and write a PNG; `--bench` orbits the
//! map and prints frame times instead.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use clap::{Args, ValueEnum};
use pebble_model::glam::Vec3;
use pebble_model::project;
use pebble_render::camera::{PSP_FOV_Y_DEG, PSP_HEIGHT, PSP_WIDTH};
use pebble_render::{Camera, DrawScene, Gpu, RenderOptions, Renderer, ViewAxis};

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum View {
    Top,
    Front,
    Side,
}

#[derive(Debug, Args)]
pub struct RenderArgs {
    /// A .pbm map, or a project (*.pebble.ron), which is exported first.
    pub input: PathBuf,
    /// Camera as x,y,z,yawDeg,pitchDeg (yaw 0 looks down −Z; default: the map's spawn).
    #[arg(long, value_name = "X,Y,Z,YAW,PITCH", allow_hyphen_values = true)]
    pub cam: Option<String>,
    /// Frame the whole map from above, the front (+Z) or the side (+X) instead
    /// (drawn without fog: an overview is not the player's view, and the fog of a
    /// player's view would hide a large map from that far away).
    #[arg(long, value_enum, conflicts_with = "cam")]
    pub view: Option<View>,
    /// Vertical field of view in degrees.
    #[arg(long, default_value_t = PSP_FOV_Y_DEG)]
    pub fov: f32,
    /// Scene clock in seconds (UV scroll).
    #[arg(long, default_value_t = 0.0)]
    pub time: f64,
    /// Picture size as WxH.
    #[arg(long, default_value = "960x544")]
    pub size: String,
    /// The PSP look: 480×272 in 5551 with the GE's dither, upscaled nearest.
    #[arg(long)]
    pub psp: bool,
    /// Draw without fog.
    #[arg(long)]
    pub no_fog: bool,
    /// Draw every chunk (to measure what culling saves).
    #[arg(long)]
    pub no_cull: bool,
    /// Frustum culling only, no occlusion culling (it never changes the picture;
    /// this measures what it saves).
    #[arg(long)]
    pub no_occlusion: bool,
    /// Shade faces by a fixed light (for maps exported without a bake).
    #[arg(long, conflicts_with = "psp")]
    pub preview_light: bool,
    /// For a project: skip the lighting bake.
    #[arg(long)]
    pub no_bake: bool,
    /// The PSP look's mip level bias (the runtime's `bias` tunable; PPSSPP ignores
    /// it, so use 0 to match the emulator).
    #[arg(long, default_value_t = 1.0, allow_hyphen_values = true)]
    pub lod_bias: f32,
    /// Output PNG.
    #[arg(short, long, required_unless_present = "bench")]
    pub output: Option<PathBuf>,
    /// Orbit the map for 240 frames and print frame times instead of writing a picture.
    #[arg(long)]
    pub bench: bool,
}

fn parse_size(text: &str) -> anyhow::Result<(u32, u32)> {
    let (w, h) = text
        .split_once(['x', 'X'])
        .with_context(|| format!("--size {text:?}: expected WxH, e.g. 960x544"))?;
    let side = |s: &str| -> anyhow::Result<u32> {
        let v: u32 = s
            .trim()
            .parse()
            .with_context(|| format!("--size {text:?}: {s:?} is not a whole number"))?;
        if !(1..=8192).contains(&v) {
            bail!("--size {text:?}: each side must be 1 to 8192 pixels");
        }
        Ok(v)
    };
    Ok((side(w)?, side(h)?))
}

fn parse_cam(text: &str, fov: f32) -> anyhow::Result<Camera> {
    let (eye, yaw, pitch) = parse_pose(text)?;
    let mut camera = Camera::psp(eye, yaw, pitch);
    camera.fov_y_deg = fov;
    Ok(camera)
}

/// `--cam x,y,z,yawDeg,pitchDeg`: the eye, and yaw and pitch in radians (also
/// `pebble open --cam`, so a view rendered here opens in the editor as it is).
pub fn parse_pose(text: &str) -> anyhow::Result<(Vec3, f32, f32)> {
    let parts: Vec<f32> = text
        .split(',')
        .map(|p| p.trim().parse::<f32>())
        .collect::<Result<_, _>>()
        .with_context(|| format!("--cam {text:?}: expected five numbers x,y,z,yawDeg,pitchDeg"))?;
    let [x, y, z, yaw, pitch] = parts[..] else {
        bail!(
            "--cam {text:?}: expected five numbers x,y,z,yawDeg,pitchDeg, got {}",
            parts.len()
        );
    };
    if parts.iter().any(|v| !v.is_finite()) {
        bail!("--cam {text:?}: numbers must be finite");
    }
    Ok((Vec3::new(x, y, z), yaw.to_radians(), pitch.to_radians()))
}

/// The map a path names: read as is, or a project exported in memory.
pub(crate) fn load_map(path: &Path, bake: bool) -> anyhow::Result<pbm::Map> {
    let bytes = map_bytes(path, bake)?;
    let (map, _) =
        pbm::Map::read(&bytes).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
    Ok(map)
}

/// The bytes of the map a path names: a `.pbm` as is (checked), or a project
/// exported in memory.
pub(crate) fn map_bytes(path: &Path, bake: bool) -> anyhow::Result<Vec<u8>> {
    if path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("pbm"))
    {
        let bytes =
            std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
        pbm::MapView::parse(&bytes).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
        return Ok(bytes);
    }
    let scene = project::load(path)?;
    let dir = pebble_model::project::folder_of(path);
    pebble_core::services::export::to_bytes(&scene, dir, bake)
        .with_context(|| format!("cannot export {}", path.display()))
}

pub fn run(args: RenderArgs) -> anyhow::Result<ExitCode> {
    let (width, height) = parse_size(&args.size)?;
    if !(1.0..=170.0).contains(&args.fov) {
        bail!("--fov {}: must be between 1 and 170 degrees", args.fov);
    }
    if !args.time.is_finite() {
        bail!("--time must be a finite number of seconds");
    }
    let map = load_map(&args.input, !args.no_bake)
        .with_context(|| format!("cannot load {}", args.input.display()))?;
    let scene = DrawScene::from_map(&map);
    let gpu = Gpu::headless()?;
    let renderer = Renderer::new(&gpu, scene)?;
    let (lo, hi) = renderer.bounds();
    let camera = match (&args.cam, args.view) {
        (Some(text), _) => parse_cam(text, args.fov)?,
        (None, Some(view)) => {
            let axis = match view {
                View::Top => ViewAxis::Top,
                View::Front => ViewAxis::Front,
                View::Side => ViewAxis::Side,
            };
            Camera::framing(lo, hi, axis, args.fov)
        }
        (None, None) => {
            let mut c = renderer.spawn_camera();
            c.fov_y_deg = args.fov;
            c
        }
    };
    let options = RenderOptions {
        width,
        height,
        time: args.time,
        psp: args.psp,
        cull: !args.no_cull,
        occlusion: !args.no_occlusion,
        fog: !args.no_fog && args.view.is_none(),
        fog_shift: 0.0,
        preview_light: args.preview_light,
        // The map's own colours, as the device shows them (the editor's working
        // view shades uncoloured shapes; a render is of the map).
        shade_uncoloured: false,
        lod_bias: args.lod_bias,
        // As the device draws them: culled.
        back_faces: 0.0,
    };
    if args.bench {
        return bench(&gpu, &renderer, &options, lo, hi);
    }
    let solids: Vec<pebble_render::SolidVertex> =
        pebble_core::services::preview::entity_solids(&map, args.time)
            .into_iter()
            .map(|(pos, color)| pebble_render::SolidVertex { pos, color })
            .collect();
    let (image, stats) = renderer.render_with(
        &camera,
        &options,
        &pebble_render::Extras {
            solids: &solids,
            ..Default::default()
        },
    )?;
    let output = args.output.as_deref().context("--output is required")?;
    pebble_core::services::write_png(output, &image)?;
    let mode = if args.psp {
        format!("PSP look {PSP_WIDTH}×{PSP_HEIGHT} → {width}×{height}")
    } else {
        format!("{width}×{height}")
    };
    super::emit(&format!(
        "rendered {} → {} ({mode}, {} of {} chunks, {} occluded, {} triangles, {})\n",
        args.input.display(),
        output.display(),
        stats.chunks_drawn,
        stats.chunks,
        stats.chunks_occluded,
        stats.triangles,
        gpu.describe()
    ))?;
    Ok(ExitCode::SUCCESS)
}

/// The runtime's benchmark orbit: radius 0.75·√(span_x² + span_z²), eye at
/// centre_y + 0.4·radius, +0.02 rad per frame, pitch −0.32.
fn bench(
    gpu: &Gpu,
    renderer: &Renderer,
    options: &RenderOptions,
    lo: Vec3,
    hi: Vec3,
) -> anyhow::Result<ExitCode> {
    let centre = (lo + hi) * 0.5;
    let span = hi - lo;
    let radius = (0.75 * (span.x * span.x + span.z * span.z).sqrt()).max(1.0);
    let mut times: Vec<Duration> = Vec::with_capacity(240);
    let mut last = None;
    for frame in 0..240 {
        let angle = 0.02 * frame as f32;
        let eye = Vec3::new(
            centre.x + radius * angle.sin(),
            centre.y + 0.4 * radius,
            centre.z + radius * angle.cos(),
        );
        // Face the centre: forward = (sin yaw, ·, −cos yaw) points from eye to centre.
        let to = centre - eye;
        let yaw = to.x.atan2(-to.z);
        let camera = Camera::psp(eye, yaw, -0.32);
        let t = Instant::now();
        let (_, stats) = renderer.render(&camera, options)?;
        times.push(t.elapsed());
        last = Some(stats);
    }
    let stats = last.unwrap_or_default();
    times.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    let mut out = String::new();
    writeln!(
        out,
        "render bench: 240 frames at {}×{}{} on {}",
        options.width,
        options.height,
        if options.psp { " (PSP look)" } else { "" },
        gpu.describe()
    )?;
    writeln!(
        out,
        "  frame time (draw + read back): median {:.2} ms  p95 {:.2} ms  max {:.2} ms",
        ms(times[times.len() / 2]),
        ms(times[(times.len() * 95).div_ceil(100) - 1]),
        ms(times[times.len() - 1])
    )?;
    writeln!(
        out,
        "  last frame: {} of {} chunks drawn, {} occluded, {} triangles, {} draw calls (culling {})",
        stats.chunks_drawn,
        stats.chunks,
        stats.chunks_occluded,
        stats.triangles,
        stats.draw_calls,
        match (options.cull, options.occlusion && !options.psp) {
            (true, true) => "frustum + occlusion",
            (true, false) => "frustum",
            _ => "off",
        }
    )?;
    super::emit(&out)?;
    Ok(ExitCode::SUCCESS)
}
