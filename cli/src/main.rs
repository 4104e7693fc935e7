//! `pebble`: the Pebble level editor and its command line.
//!
//! `pebble` alone opens the editor on the bundled showcase; `pebble open PROJECT`
//! opens a project; the other subcommands work without a window.
//! Every failure is reported on stderr as one clear message with a non-zero exit
//! code; nothing here panics on user input.

use pebble_cli as cli;
#[cfg(feature = "window")]
use pebble_editor::app;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

#[derive(Debug, Parser)]
#[command(
    name = "pebble",
    version,
    about = "Pebble: a level editor for PSP-class retro 3D maps",
    long_about = "Pebble builds retro 3D maps, exports them as .pbm files and deploys them to a PSP.\n\
                  Run without a subcommand to open the editor on the bundled showcase."
)]
struct Args {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Debug, clap::Args)]
struct OpenArgs {
    /// The project (*.pebble.ron).
    project: std::path::PathBuf,
    /// Start at this camera, as `pebble render --cam` takes it (a rendered view,
    /// or a bug report's, opened as it is): x,y,z,yawDeg,pitchDeg.
    #[arg(long, value_name = "X,Y,Z,YAW,PITCH", allow_hyphen_values = true)]
    cam: Option<String>,
    /// The view's vertical field of view in degrees, with --cam (10–120).
    #[arg(long, requires = "cam", default_value_t = 60.0)]
    fov: f32,
}

#[cfg(feature = "window")]
impl OpenArgs {
    /// The camera asked for, if any.
    fn view(&self) -> anyhow::Result<Option<pebble_viewport::navigation::OrbitCamera>> {
        let Some(text) = &self.cam else {
            return Ok(None);
        };
        if !(10.0..=120.0).contains(&self.fov) {
            anyhow::bail!(
                "--fov {}: give a field of view from 10 to 120 degrees",
                self.fov
            );
        }
        let (eye, yaw, pitch) = cli::render::parse_pose(text)?;
        Ok(Some(pebble_viewport::navigation::OrbitCamera::from_eye(
            eye, yaw, pitch, self.fov,
        )))
    }
}

#[derive(Debug, clap::Args)]
struct BenchEditorArgs {
    /// The project (default: the bundled showcase).
    project: Option<std::path::PathBuf>,
    /// Frames measured.
    #[arg(long, default_value_t = 300)]
    frames: usize,
    /// Frames drawn before measuring.
    #[arg(long, default_value_t = 60)]
    warmup: usize,
    /// Save a screenshot of the window (PNG) after the warm-up.
    #[arg(long)]
    screenshot: Option<std::path::PathBuf>,
    /// Write the figures as JSON.
    #[arg(long)]
    json: Option<std::path::PathBuf>,
    /// Select an entity by name first (repeatable).
    #[arg(long)]
    select: Vec<String>,
    /// Paint every frame's UI afresh instead of through the UI cache (to compare).
    #[arg(long)]
    no_ui_cache: bool,
    /// Let the UI cache draw its copy in egui's pass instead of copying it into the
    /// frame after the pass (measures the vendored egui-wgpu's `TargetCopies`).
    #[arg(long)]
    no_transfers: bool,
    /// Start with the scene clock stopped (so that two runs' screenshots match).
    #[arg(long)]
    paused: bool,
    /// Measure a UV drag: a 10 000-triangle mesh in view, all its faces picked in
    /// face mode, the UV dock open, every editor frame one step of a drag.
    #[arg(long)]
    uv_drag: bool,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Open a project in the editor window (no subcommand opens the bundled showcase).
    Open(OpenArgs),
    /// Start a project in a folder (an empty scene and its textures folder).
    New(cli::new::NewArgs),
    /// Measure the whole editor's frame time and memory against the bare renderer
    /// (opens a window; under Xvfb: xvfb-run -a -s "-screen 0 1280x800x24").
    BenchEditor(BenchEditorArgs),
    /// Inspect and check .pbm map files.
    #[command(subcommand)]
    Pbm(cli::pbm::PbmCommand),
    /// Export a project to a .pbm map.
    Export(cli::export::ExportArgs),
    /// Import a .pbm map, a PS1 TMD model (with its TIM) or an image into a project.
    Import(cli::import::ImportArgs),
    /// Draw a map or project to a PNG with no window (or benchmark the renderer).
    Render(cli::render::RenderArgs),
    /// Put a map and the bundled PSP runtime on a memory stick (or list the sticks).
    Deploy(cli::deploy::DeployArgs),
    /// Device captures: bring them into a project.
    #[command(subcommand)]
    Capture(cli::capture::CaptureCommand),
    /// Compare a device capture with the editor's PSP-look preview (HTML report).
    Compare(cli::compare::CompareArgs),
    /// Write the bundled showcase project (textures and project file) into a folder.
    Showcase(cli::showcase::ShowcaseArgs),
    /// The game's own entity kinds (entities.ron): check them, generate the code that reads them.
    #[command(subcommand)]
    Entities(cli::entities::EntitiesCommand),
    /// Inspect Pebble projects (*.pebble.ron).
    #[command(subcommand)]
    Project(cli::project::ProjectCommand),
}

/// A bug must not greet the user with a backtrace: say what happened and how to
/// report it. `PEBBLE_BACKTRACE=1` shows the default report.
fn install_panic_hook() {
    if std::env::var_os("PEBBLE_BACKTRACE").is_some() {
        return;
    }
    std::panic::set_hook(Box::new(|info| {
        let file = info.location().map(|l| l.file()).unwrap_or_default();
        eprintln!("{}", panic_report(file, &info.to_string()));
    }));
}

/// What a panic tells the user. A lost display connection is not a bug in Pebble:
/// winit 0.30's X11 backend unwraps the connection's error when the X server closes
/// it or stops (winit#3686), so it reads as a panic inside winit.
fn panic_report(file: &str, info: &str) -> String {
    if file.contains("winit") && info.contains("Connection(") {
        return format!(
            "pebble: the connection to the display server was lost (the X server closed it or stopped), so the window is gone. \
             Edits since the last save are in the recovery file: open the project again to get them back.\n(winit: {info})"
        );
    }
    format!(
        "pebble: internal error: {info}\nThis is a bug in Pebble; please report it with the command you ran (PEBBLE_BACKTRACE=1 adds details)."
    )
}

fn main() -> ExitCode {
    install_panic_hook();
    let args = Args::parse();
    let result = match args.command {
        None => window::showcase(),
        Some(Command::Open(args)) => window::open(args),
        Some(Command::BenchEditor(args)) => window::bench(args),
        Some(Command::Pbm(cmd)) => cli::pbm::run(cmd),
        Some(Command::Project(cmd)) => cli::project::run(cmd),
        Some(Command::Entities(cmd)) => cli::entities::run(cmd),
        Some(Command::Import(args)) => cli::import::run(args),
        Some(Command::Export(args)) => cli::export::run(args),
        Some(Command::Render(args)) => cli::render::run(args),
        Some(Command::Showcase(args)) => cli::showcase::run(args),
        Some(Command::New(args)) => cli::new::run(args),
        Some(Command::Compare(args)) => cli::compare::run(args),
        Some(Command::Capture(cmd)) => cli::capture::run(cmd),
        Some(Command::Deploy(args)) => cli::deploy::run(args),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

/// The editor window's subcommands: `pebble`, `pebble open`, `pebble bench-editor`.
#[cfg(feature = "window")]
mod window {
    use super::{BenchEditorArgs, OpenArgs, app};
    use std::process::ExitCode;

    pub fn showcase() -> anyhow::Result<ExitCode> {
        let_go_of_an_own_console();
        app::default_project()
            .and_then(|project| app::run(project, None, None))
            .map(|()| ExitCode::SUCCESS)
    }

    pub fn open(args: OpenArgs) -> anyhow::Result<ExitCode> {
        let_go_of_an_own_console();
        args.view()
            .and_then(|view| app::run(args.project, None, view))
            .map(|()| ExitCode::SUCCESS)
    }

    /// A pebble.exe double-clicked in Explorer gets a console window of its own
    /// beside the editor's; the editor lets it go, and it closes. Started from a
    /// terminal, the console is the terminal's (shared with the shell) and stays.
    /// Not a GUI-subsystem executable: the same `pebble.exe` is the command line.
    #[cfg(windows)]
    #[allow(unsafe_code)]
    fn let_go_of_an_own_console() {
        #[link(name = "kernel32")]
        unsafe extern "system" {
            fn GetConsoleProcessList(process_ids: *mut u32, count: u32) -> u32;
            fn FreeConsole() -> i32;
        }
        let mut ids = [0u32; 2];
        // SAFETY: the buffer holds as many ids as the call is told; FreeConsole
        // takes nothing. Writes to the console after it are dropped by std.
        unsafe {
            if GetConsoleProcessList(ids.as_mut_ptr(), ids.len() as u32) == 1 {
                FreeConsole();
            }
        }
    }

    #[cfg(not(windows))]
    fn let_go_of_an_own_console() {}

    pub fn bench(args: BenchEditorArgs) -> anyhow::Result<ExitCode> {
        args.project
            .map_or_else(app::default_project, Ok)
            .and_then(|project| {
                app::run(
                    project,
                    Some(app::bench::BenchOptions {
                        frames: args.frames,
                        warmup: args.warmup,
                        screenshot: args.screenshot,
                        json: args.json,
                        select: args.select,
                        ui_cache: !args.no_ui_cache,
                        transfers: !args.no_transfers,
                        paused: args.paused,
                        uv_drag: args.uv_drag,
                    }),
                    None,
                )
            })
            .map(|()| ExitCode::SUCCESS)
    }
}

/// A headless `pebble` (built without the `window` feature) says so when asked
/// for the window, and how to get one.
#[cfg(not(feature = "window"))]
mod window {
    use super::{BenchEditorArgs, OpenArgs};
    use std::process::ExitCode;

    fn refused() -> anyhow::Result<ExitCode> {
        anyhow::bail!(
            "this pebble is the headless command line (built without the editor window); \
             run a subcommand (pebble --help lists them), or install the editor: cargo install --path cli"
        )
    }

    pub fn showcase() -> anyhow::Result<ExitCode> {
        refused()
    }

    pub fn open(_: OpenArgs) -> anyhow::Result<ExitCode> {
        refused()
    }

    pub fn bench(_: BenchEditorArgs) -> anyhow::Result<ExitCode> {
        refused()
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_lost_display_is_told_as_such_and_other_panics_as_bugs() {
        let lost = super::panic_report(
            "/home/u/.cargo/registry/src/x/winit-0.30.13/src/platform_impl/linux/x11/window.rs",
            "panicked at …: called `Result::unwrap()` on an `Err` value: Connection(IoError(Custom { kind: Other, error: UnknownError }))",
        );
        assert!(
            lost.contains("connection to the display server was lost"),
            "{lost}"
        );
        assert!(lost.contains("recovery file"));
        assert!(!lost.contains("internal error"));
        let bug = super::panic_report(
            "editor/src/app/mod.rs",
            "panicked at …: index out of bounds",
        );
        assert!(bug.starts_with("pebble: internal error"), "{bug}");
    }
}
