//! # pebble-psp — the Pebble PSP runtime
//!
//! Plays exported `.pbm` maps on a PSP (or PPSSPP). Maps, the capture script and
//! the tunables live in the runtime's own folder, `ms0:/PSP/GAME/PEBBLE/` (fixed;
//! or `host0:/PSP/GAME/PEBBLE/` under PSPLink: see [`files::game_dir`]). Parsing,
//! particles, UV scroll and texture chains come from the shared `pbm` crate, so the
//! device shows what the editor previews.
//!
//! Modules: [`files`] (memory stick), [`world`] (a map made ready for the GE),
//! [`camera`], [`gfx`] (GE set-up and the passes), [`capture`] (BMP + JSON),
//! [`script`] (scripted captures), [`tunables`] (`pebble_render.txt`).

#![no_std]
#![no_main]

extern crate alloc;

mod camera;
mod capture;
mod files;
mod gfx;
mod script;
mod tunables;
mod world;

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use psp::sys::{self, CtrlButtons, CtrlMode, SceCtrlData};

use camera::Camera;
use tunables::Tunables;
use world::World;

psp::module!("pebble", 1, 1);

/// Error screens: a dark red the clear colours never use.
const ERROR_BACKGROUND: u32 = 0x00_10_10_40;

/// Lines for `pebble_log.txt`, written whenever something worth knowing happens
/// (the emulator harness and the user read it).
struct Log(Vec<String>);

impl Log {
    fn line(&mut self, s: impl Into<String>) {
        self.0.push(s.into());
        let mut text = self.0.join("\n");
        text.push('\n');
        // A log that cannot be written must not stop the program.
        let _ = files::write(&format!("{}/pebble_log.txt", files::game_dir()), text.as_bytes());
    }
}

fn psp_main() {
    psp::enable_home_button();
    gfx::init();
    let mut log = Log(Vec::new());
    log.line("pebble runtime 0.1.0");
    if let Err(e) = run(&mut log) {
        log.line(format!("error: {e}"));
        show_error(&e);
    }
}

/// True when a capture script drives this run (errors then end the program, so a
/// harness is not left waiting).
fn scripted() -> bool {
    files::exists(&format!("{}/pebble_capture.txt", files::game_dir()))
}

/// Keeps the error on screen until Home exits (or, in a scripted run, after two
/// seconds on screen).
fn show_error(e: &str) -> ! {
    let scripted = scripted();
    let mut lines = Vec::from([String::from("Pebble cannot play this map:"), String::new()]);
    for part in wrap(e, 58) {
        lines.push(part);
    }
    lines.push(String::new());
    lines.push(format!("Maps go in {}/", files::game_dir()));
    lines.push(String::from("Press Home to quit."));
    let shown = now_seconds();
    loop {
        gfx::text_screen(&lines, ERROR_BACKGROUND);
        if scripted && now_seconds() - shown > 2.0 {
            // SAFETY: ends the program.
            unsafe { sys::sceKernelExitGame() };
        }
    }
}

fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut out = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        if !line.is_empty() && line.len() + 1 + word.len() > width {
            out.push(core::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        out.push(line);
    }
    out
}

fn run(log: &mut Log) -> Result<(), String> {
    let (tunables, problems) = match files::read(&format!("{}/pebble_render.txt", files::game_dir())) {
        Ok(bytes) => Tunables::parse(&String::from_utf8_lossy(&bytes)),
        Err(_) => (Tunables::default(), Vec::new()),
    };
    for p in problems {
        log.line(format!("warning: {p}"));
    }
    let script_path = format!("{}/pebble_capture.txt", files::game_dir());
    let script = if files::exists(&script_path) {
        let bytes = files::read(&script_path)?;
        Some(script::parse(&String::from_utf8_lossy(&bytes)).map_err(|e| format!("pebble_capture.txt {e}"))?)
    } else {
        None
    };
    let glow = world::glow();
    let mut spheres = gfx::SphereMeshes::default();
    if let Some(script) = script {
        let mut n = 0u32;
        // The map last loaded and its version then (what a `reload` waits to change).
        let mut last: Option<(String, Option<files::Version>)> = None;
        for run in &script.runs {
            let map_file = match (&run.map, &last) {
                (Some(m), _) => m.clone(),
                (None, Some((m, _))) if run.reload => m.clone(),
                (None, _) => choose_map()?,
            };
            let path = format!("{}/{map_file}", files::game_dir());
            if run.reload {
                let was = last.as_ref().filter(|(m, _)| *m == map_file).and_then(|(_, v)| *v);
                let waited = wait_for_new_version(&path, was, 60.0)
                    .ok_or_else(|| format!("reload: {map_file} was not replaced within 60 s"))?;
                log.line(format!("{map_file} replaced: loading it again (noticed after {waited:.2} s)"));
            }
            let (world, version) = load(&map_file, log)?;
            last = Some((map_file.clone(), version));
            let ctx = context(&map_file, &world, &tunables);
            for shot in &run.shots {
                // Twice, so both colour buffers hold this view and the capture reads a
                // finished frame.
                // Entities where a frozen clock puts them: patrols at `time`, the
                // ball pit simulated from its start in 1/60 s steps.
                let mut entities = pebble_play::shapes::entities_at(&world.level, shot.time);
                if shot.mode != gfx::DisplayMode::Textured {
                    entities.extend(pebble_play::shapes::sound_spheres(&world.level.sounds));
                    entities.extend(pebble_play::shapes::game_entity_spheres(&world.level.game_entities));
                }
                let extras = gfx::Extras {
                    environment: world.environment,
                    mode: shot.mode,
                    spheres: &entities,
                    hud: &[],
                };
                gfx::frame(&world, &glow, &shot.camera, shot.time, &tunables, &extras, &mut spheres);
                let stats = gfx::frame(&world, &glow, &shot.camera, shot.time, &tunables, &extras, &mut spheres);
                let path = capture::write(n, &shot.camera, shot.time, &ctx)?;
                log.line(format!(
                    "capture {n}: {path} (time {} s; {} draw calls, {} triangles, {} particles, {} display-list bytes; {} meshes and {} triangles outside the view skipped, {} triangles clipped)",
                    shot.time, stats.draw_calls, stats.triangles, stats.particles, stats.list_bytes,
                    stats.skipped_meshes, stats.skipped_triangles, stats.clipped
                ));
                n += 1;
            }
        }
        log.line(format!("done: {n} captures"));
        // SAFETY: ends the program.
        unsafe { sys::sceKernelExitGame() };
        return Ok(());
    }
    let map_file = choose_map()?;
    let (mut world, mut version) = load(&map_file, log)?;
    let mut camera = None;
    // Each return from `play` is a new version of the map, loaded: play on in it
    // from where the camera was.
    loop {
        let ctx = context(&map_file, &world, &tunables);
        let (next, next_version, at) = play(&world, version, camera, &glow, &tunables, &ctx, log, &mut spheres)?;
        world = next;
        version = next_version;
        camera = Some(at);
    }
}

/// Seconds between looks at the map file while playing (a live link replaces it).
const WATCH_EVERY: f64 = 0.25;

/// Waits up to `limit` seconds for the file at `path` to have a version other
/// than `was` that holds for [`WATCH_EVERY`] (a copy still being written has
/// not settled). Returns the seconds waited.
fn wait_for_new_version(path: &str, was: Option<files::Version>, limit: f64) -> Option<f64> {
    let start = now_seconds();
    let mut seen: Option<files::Version> = None;
    while now_seconds() - start < limit {
        let now = files::version(path);
        if now.is_some() && now != was {
            if seen == now {
                return Some(now_seconds() - start);
            }
            seen = now;
        }
        // SAFETY: plain delay of this thread, in microseconds.
        unsafe { sys::sceKernelDelayThread((WATCH_EVERY * 1e6) as u32) };
    }
    None
}

fn context<'a>(map_file: &'a str, world: &'a World, tunables: &Tunables) -> capture::Context<'a> {
    capture::Context {
        dir: files::game_dir(),
        map_file,
        hash: world.hash,
        environment: world.environment.name(),
        mode: "textured",
        lod_bias: tunables.bias,
    }
}

/// Reads and prepares a map, logging what it holds.
/// Loads the map and returns it with the file's version read *before* its bytes:
/// a copy landing while the map loads (or before play begins watching) then
/// still counts as new.
fn load(map_file: &str, log: &mut Log) -> Result<(World, Option<files::Version>), String> {
    let path = format!("{}/{map_file}", files::game_dir());
    let version = files::version(&path);
    let bytes = files::read(&path)?;
    let world = World::load(&bytes).map_err(|e| format!("{map_file}: {e}"))?;
    drop(bytes);
    // The GE reads textures and vertices from main memory: flush them there (the
    // glow's texels too).
    // SAFETY: no arguments; writes back the whole data cache.
    unsafe { sys::sceKernelDcacheWritebackAll() };
    log.line(format!(
        "loaded {map_file}: \"{}\", {} meshes, {} triangles, {} textures, {} emitters, {} particles, environment {}, fnv1a64 {:016x}",
        world.name,
        world.meshes.len(),
        world.triangles,
        world.textures.len(),
        world.particles.emitters.len(),
        world.particles.particles.len(),
        world.environment.name(),
        world.hash
    ));
    log.line(format!(
        "game entities: {} of {} kinds",
        world.level.game_entities.len(),
        world.level.game_kinds
    ));
    for w in &world.warnings {
        log.line(format!("warning: {w}"));
    }
    Ok((world, version))
}

/// The one `.pbm` in the folder, or the user's pick among several.
fn choose_map() -> Result<String, String> {
    let maps = files::list(files::game_dir(), ".pbm");
    match maps.len() {
        0 => Err(format!("no .pbm map in {}/ — export one from Pebble and deploy it", files::game_dir())),
        1 => Ok(maps[0].clone()),
        _ => {
            let mut pick = 0usize;
            let mut held = CtrlButtons::empty();
            loop {
                let mut lines = Vec::from([String::from("Pebble: choose a map (D-pad, Cross)"), String::new()]);
                for (k, m) in maps.iter().enumerate() {
                    lines.push(format!("{} {m}", if k == pick { ">" } else { " " }));
                }
                gfx::text_screen(&lines, 0x00_20_18_10);
                let pad = read_pad();
                let pressed = pad.buttons & !held;
                held = pad.buttons;
                if pressed.contains(CtrlButtons::DOWN) {
                    pick = (pick + 1) % maps.len();
                }
                if pressed.contains(CtrlButtons::UP) {
                    pick = (pick + maps.len() - 1) % maps.len();
                }
                if pressed.contains(CtrlButtons::CROSS) {
                    return Ok(maps[pick].clone());
                }
            }
        }
    }
}

fn read_pad() -> SceCtrlData {
    let mut pad = SceCtrlData::default();
    // SAFETY: `pad` is writable; sampling mode is set before the first read.
    unsafe {
        sys::sceCtrlSetSamplingCycle(0);
        sys::sceCtrlSetSamplingMode(CtrlMode::Analog);
        sys::sceCtrlReadBufferPositive(&mut pad, 1);
    }
    pad
}

fn now_seconds() -> f64 {
    // SAFETY: no arguments.
    (unsafe { sys::sceKernelGetSystemTimeWide() }) as f64 * 1e-6
}

/// Walk mode (when the map has ground) and fly mode; controls in psp/README.md.
/// Plays until the map file is replaced by another that loads (the live link,
/// within a second or so), and returns it with its version and the camera, to play on in.
#[allow(clippy::too_many_arguments)]
fn play(
    world: &World,
    loaded_version: Option<files::Version>,
    from: Option<Camera>,
    glow: &world::Texture,
    tunables: &Tunables,
    ctx: &capture::Context<'_>,
    log: &mut Log,
    spheres: &mut gfx::SphereMeshes,
) -> Result<(World, Option<files::Version>, Camera), String> {
    let level = &world.level;
    let spawn = Camera {
        eye: world.spawn.position,
        yaw: world.spawn.yaw,
        pitch: 0.05,
        fov_deg: world.spawn.fov_deg,
    };
    let can_walk = !level.ground.is_empty() || !level.boxes.is_empty();
    let mut walking = can_walk;
    let mut cam = from.unwrap_or(spawn);
    let mut walker = pebble_play::Walker::at_eye(level, cam.eye);
    let path = format!("{}/{}", files::game_dir(), ctx.map_file);
    let mut watched = loaded_version;
    // A new version seen at the last look, loaded once it holds at the next.
    let mut pending: Option<files::Version> = None;
    let mut next_look = now_seconds() + WATCH_EVERY;
    let mut triggers = pebble_play::TriggerState::default();
    let mut pit = level.pit.as_ref().map(|p| pebble_play::BallPit::new(p, level));
    let mut environment = world.environment;
    let mut mode = gfx::DisplayMode::Textured;
    let mut message: Option<(String, f64)> = if from.is_some() {
        Some((alloc::format!("{} reloaded", ctx.map_file), 0.0))
    } else {
        None
    };
    let mut clock = 0.0f64;
    let mut last = now_seconds();
    let mut hud = true;
    let mut held = CtrlButtons::empty();
    let mut captures = 0u32;
    let mut stats = gfx::FrameStats::default();
    let mut fps = 0.0f32;
    loop {
        let now = now_seconds();
        let mut dt = now - last;
        last = now;
        if !(0.0001..=0.2).contains(&dt) {
            dt = 1.0 / 60.0;
        }
        clock += dt;
        fps = fps * 0.9 + 0.1 / dt.max(1e-3) as f32;
        if now >= next_look {
            next_look = now + WATCH_EVERY;
            let seen = files::version(&path);
            if seen.is_some() && seen != watched {
                if pending == seen {
                    watched = seen;
                    pending = None;
                    log.line(format!("{} replaced: loading it again", ctx.map_file));
                    match load(ctx.map_file, log) {
                        Ok((next, version)) => return Ok((next, version, cam)),
                        Err(e) => {
                            let text = format!("the new {} does not load, still playing the old one: {e}", ctx.map_file);
                            log.line(format!("warning: {text}"));
                            message = Some((text, clock));
                        }
                    }
                } else {
                    pending = seen;
                }
            }
        }
        let pad = read_pad();
        let pressed = pad.buttons & !held;
        held = pad.buttons;
        let b = |x: CtrlButtons| pad.buttons.contains(x);
        let axis = |v: u8| {
            let a = (f32::from(v) - 128.0) / 128.0;
            if a.abs() < 20.0 / 128.0 { 0.0 } else { a }
        };
        let (mut sx, mut sy) = (axis(pad.lx), axis(pad.ly));
        let look = b(CtrlButtons::TRIANGLE);
        if !look {
            if b(CtrlButtons::UP) { sy = -1.0; }
            if b(CtrlButtons::DOWN) { sy = 1.0; }
            if b(CtrlButtons::LEFT) { sx = -1.0; }
            if b(CtrlButtons::RIGHT) { sx = 1.0; }
        } else {
            if pressed.contains(CtrlButtons::LEFT) { environment = environment.previous(); }
            if pressed.contains(CtrlButtons::RIGHT) { environment = environment.next(); }
        }
        let dtf = dt as f32;
        let both = CtrlButtons::LTRIGGER | CtrlButtons::RTRIGGER;
        if look {
            cam.yaw += sx * 2.8 * dtf;
            cam.pitch = (cam.pitch - sy * 2.2 * dtf).clamp(-camera::PITCH_LIMIT, camera::PITCH_LIMIT);
            sx = 0.0;
            sy = 0.0;
        }
        if !b(both) && !b(CtrlButtons::SELECT) {
            if b(CtrlButtons::LTRIGGER) { cam.yaw -= 2.4 * dtf; }
            if b(CtrlButtons::RTRIGGER) { cam.yaw += 2.4 * dtf; }
        }
        let (s, c) = (libm::sinf(cam.yaw), libm::cosf(cam.yaw));
        // Stick up = forward (−sy), right = strafe.
        let dir = [s * -sy + c * sx, -c * -sy + s * sx];
        if walking {
            let input = pebble_play::WalkInput {
                move_xz: dir,
                speed: if b(CtrlButtons::SQUARE) { 2.0 } else { 1.0 },
                jump: pressed.contains(CtrlButtons::CROSS),
            };
            if !walker.step(level, &input, dtf) {
                walker = pebble_play::Walker::at_eye(level, spawn.eye);
                message = Some((String::from("fell out of the map: back to the spawn"), clock));
            }
            cam.eye = walker.eye();
        } else {
            let speed = if b(CtrlButtons::SQUARE) { 9.5 * 2.5 } else { 9.5 };
            cam.eye[0] += dir[0] * speed * dtf;
            cam.eye[2] += dir[1] * speed * dtf;
            if b(CtrlButtons::CROSS) { cam.eye[1] += 8.0 * dtf; }
            if b(CtrlButtons::CIRCLE) { cam.eye[1] -= 8.0 * dtf; }
        }
        if pressed.contains(CtrlButtons::START) {
            cam = spawn;
            walker = pebble_play::Walker::at_eye(level, spawn.eye);
        }
        if pressed.contains(CtrlButtons::SELECT) {
            if b(CtrlButtons::RTRIGGER) {
                if can_walk {
                    walking = !walking;
                    walker = pebble_play::Walker::at_eye(level, cam.eye);
                }
            } else if b(CtrlButtons::LTRIGGER) {
                mode = mode.next();
            } else {
                hud = !hud;
            }
        }
        let body = [cam.eye[0], cam.eye[1] - 0.7, cam.eye[2]];
        for k in triggers.update(&level.triggers, body) {
            let t = &level.triggers[k];
            let text = format!("trigger {}: {}", t.id, t.event);
            log.line(text.clone());
            message = Some((text, clock));
        }
        if let Some(p) = pit.as_mut() {
            p.step(dtf);
        }
        let mut entities: Vec<gfx::Sphere> = level
            .patrols
            .iter()
            .map(|p| gfx::Sphere {
                centre: p.position(clock),
                radius: p.radius,
                color: p.color,
            })
            .collect();
        if let Some(p) = &pit {
            entities.extend(pebble_play::shapes::ball_spheres(p));
        }
        // The debug views (untextured, wireframe) mark the sound sources and the
        // game's own entities.
        if mode != gfx::DisplayMode::Textured {
            entities.extend(pebble_play::shapes::sound_spheres(&level.sounds));
            entities.extend(pebble_play::shapes::game_entity_spheres(&level.game_entities));
        }
        if message.as_ref().is_some_and(|(_, at)| clock - at > 3.0) {
            message = None;
        }
        let lines: Vec<String> = if hud {
            let mut l = Vec::from([
                format!("FPS {fps:.0}  Tris {}  Draws {}  Parts {}", stats.triangles, stats.draw_calls, stats.particles),
                format!("{}  env {}  {}  {}", world.name, environment.name(), mode.name(), if walking { "walk" } else { "fly" }),
                format!("pos {:.1} {:.1} {:.1}", cam.eye[0], cam.eye[1], cam.eye[2]),
                String::from(if walking {
                    "Stick move  X jump  Sq run  Tri+stick look  L/R turn"
                } else {
                    "Stick move  X/O up/down  Sq fast  Tri+stick look  L/R turn"
                }),
                String::from("Start spawn  Sel HUD  R+Sel walk/fly  L+Sel mode"),
                String::from("Tri+Left/Right env  L+R+Square capture  Home quit"),
            ]);
            if let Some((m, _)) = &message {
                l.push(String::new());
                l.push(m.clone());
            }
            l
        } else {
            Vec::new()
        };
        let extras = gfx::Extras {
            environment,
            mode,
            spheres: &entities,
            hud: &lines,
        };
        stats = gfx::frame(world, glow, &cam, clock, tunables, &extras, spheres);
        if b(both) && pressed.contains(CtrlButtons::SQUARE) {
            // The HUD-free frame is what a capture compares against the editor.
            let bare = gfx::Extras { hud: &[], ..extras };
            gfx::frame(world, glow, &cam, clock, tunables, &bare, spheres);
            let ctx = capture::Context {
                environment: environment.name(),
                mode: mode.name(),
                ..*ctx
            };
            match capture::write(captures, &cam, clock, &ctx) {
                Ok(path) => log.line(format!("capture {captures}: {path}")),
                Err(e) => log.line(format!("capture failed: {e}")),
            }
            captures += 1;
        }
    }
}
