//! # pebble-psp — the Pebble PSP runtime
//!
//! Plays exported `.pbm` maps on a PSP (or PPSSPP). Maps, the capture script and
//! the tunables live in the runtime's own folder, `ms0:/PSP/GAME/PEBBLE/` (fixed:
//! see [`files::GAME_DIR`]). Parsing, particles, UV scroll and texture chains come
//! from the shared `pbm` crate, so the device shows what the editor previews.
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
use files::GAME_DIR;
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
        let _ = files::write(&format!("{GAME_DIR}/pebble_log.txt"), text.as_bytes());
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
    files::exists(&format!("{GAME_DIR}/pebble_capture.txt"))
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
    lines.push(format!("Maps go in {GAME_DIR}/"));
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
    let (tunables, problems) = match files::read(&format!("{GAME_DIR}/pebble_render.txt")) {
        Ok(bytes) => Tunables::parse(&String::from_utf8_lossy(&bytes)),
        Err(_) => (Tunables::default(), Vec::new()),
    };
    for p in problems {
        log.line(format!("warning: {p}"));
    }
    let script_path = format!("{GAME_DIR}/pebble_capture.txt");
    let script = if files::exists(&script_path) {
        let bytes = files::read(&script_path)?;
        Some(script::parse(&String::from_utf8_lossy(&bytes)).map_err(|e| format!("pebble_capture.txt {e}"))?)
    } else {
        None
    };
    let glow = world::glow();
    if let Some(script) = script {
        let mut n = 0u32;
        for run in &script.runs {
            let map_file = match &run.map {
                Some(m) => m.clone(),
                None => choose_map()?,
            };
            let world = load(&map_file, log)?;
            let ctx = context(&map_file, &world);
            for shot in &run.shots {
                // Twice, so both colour buffers hold this view and the capture reads a
                // finished frame.
                gfx::frame(&world, &glow, &shot.camera, shot.time, &tunables, &[]);
                let stats = gfx::frame(&world, &glow, &shot.camera, shot.time, &tunables, &[]);
                let path = capture::write(n, &shot.camera, shot.time, &ctx)?;
                log.line(format!(
                    "capture {n}: {path} (time {} s; {} draw calls, {} triangles, {} particles, {} display-list bytes)",
                    shot.time, stats.draw_calls, stats.triangles, stats.particles, stats.list_bytes
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
    let world = load(&map_file, log)?;
    let ctx = context(&map_file, &world);
    play(&world, &glow, &tunables, &ctx, log)
}

fn context<'a>(map_file: &'a str, world: &'a World) -> capture::Context<'a> {
    capture::Context {
        dir: GAME_DIR,
        map_file,
        hash: world.hash,
        environment: world.environment.name(),
        mode: "textured",
    }
}

/// Reads and prepares a map, logging what it holds.
fn load(map_file: &str, log: &mut Log) -> Result<World, String> {
    let bytes = files::read(&format!("{GAME_DIR}/{map_file}"))?;
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
    for w in &world.warnings {
        log.line(format!("warning: {w}"));
    }
    Ok(world)
}

/// The one `.pbm` in the folder, or the user's pick among several.
fn choose_map() -> Result<String, String> {
    let maps = files::list(GAME_DIR, ".pbm");
    match maps.len() {
        0 => Err(format!("no .pbm map in {GAME_DIR}/ — export one from Pebble and deploy it")),
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

/// Fly mode: stick / D-pad move on XZ at 9.5 m/s (Square ×2.5), Cross / Circle up /
/// down, L / R turn, Triangle + stick looks, Start returns to the spawn, Select
/// toggles the HUD, L + R + Square writes a capture. Home quits.
fn play(
    world: &World,
    glow: &world::Texture,
    tunables: &Tunables,
    ctx: &capture::Context<'_>,
    log: &mut Log,
) -> Result<(), String> {
    let spawn = Camera {
        eye: world.spawn.position,
        yaw: world.spawn.yaw,
        pitch: 0.05,
        fov_deg: world.spawn.fov_deg,
    };
    let mut cam = spawn;
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
        let pad = read_pad();
        let pressed = pad.buttons & !held;
        held = pad.buttons;
        let axis = |v: u8| {
            let a = (f32::from(v) - 128.0) / 128.0;
            if a.abs() < 20.0 / 128.0 { 0.0 } else { a }
        };
        let (mut sx, mut sy) = (axis(pad.lx), axis(pad.ly));
        if pad.buttons.contains(CtrlButtons::UP) { sy = -1.0; }
        if pad.buttons.contains(CtrlButtons::DOWN) { sy = 1.0; }
        if pad.buttons.contains(CtrlButtons::LEFT) { sx = -1.0; }
        if pad.buttons.contains(CtrlButtons::RIGHT) { sx = 1.0; }
        let dt = dt as f32;
        if pad.buttons.contains(CtrlButtons::TRIANGLE) {
            cam.yaw += sx * 2.8 * dt;
            cam.pitch = (cam.pitch - sy * 2.2 * dt).clamp(-camera::PITCH_LIMIT, camera::PITCH_LIMIT);
        } else {
            let speed = if pad.buttons.contains(CtrlButtons::SQUARE) { 9.5 * 2.5 } else { 9.5 };
            let (s, c) = (libm::sinf(cam.yaw), libm::cosf(cam.yaw));
            let forward = [s, -c];
            let right = [c, s];
            cam.eye[0] += (forward[0] * -sy + right[0] * sx) * speed * dt;
            cam.eye[2] += (forward[1] * -sy + right[1] * sx) * speed * dt;
            if pad.buttons.contains(CtrlButtons::CROSS) { cam.eye[1] += 8.0 * dt; }
            if pad.buttons.contains(CtrlButtons::CIRCLE) { cam.eye[1] -= 8.0 * dt; }
        }
        let both = CtrlButtons::LTRIGGER | CtrlButtons::RTRIGGER;
        if !pad.buttons.contains(both) {
            if pad.buttons.contains(CtrlButtons::LTRIGGER) { cam.yaw -= 2.4 * dt; }
            if pad.buttons.contains(CtrlButtons::RTRIGGER) { cam.yaw += 2.4 * dt; }
        }
        if pressed.contains(CtrlButtons::START) { cam = spawn; }
        if pressed.contains(CtrlButtons::SELECT) { hud = !hud; }
        let lines: Vec<String> = if hud {
            Vec::from([
                format!("FPS {fps:.0}  Tris {}  Draws {}  Parts {}", stats.triangles, stats.draw_calls, stats.particles),
                format!("{}  env {}", world.name, world.environment.name()),
                format!("pos {:.1} {:.1} {:.1}", cam.eye[0], cam.eye[1], cam.eye[2]),
                String::from("Stick move  Tri+stick look  L/R turn  X/O up/down"),
                String::from("Start spawn  Select HUD  L+R+Square capture"),
            ])
        } else {
            Vec::new()
        };
        stats = gfx::frame(world, glow, &cam, clock, tunables, &lines);
        if pad.buttons.contains(both) && pressed.contains(CtrlButtons::SQUARE) {
            // The HUD-free frame is what a capture compares against the editor.
            gfx::frame(world, glow, &cam, clock, tunables, &[]);
            match capture::write(captures, &cam, clock, ctx) {
                Ok(path) => log.line(format!("capture {captures}: {path}")),
                Err(e) => log.line(format!("capture failed: {e}")),
            }
            captures += 1;
        }
    }
}
