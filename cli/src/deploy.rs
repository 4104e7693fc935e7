//! `pebble deploy`: puts a map and the bundled PSP runtime on a memory stick (a PSP
//! in USB mode, a card reader, or any folder laid out like one, such as an
//! emulator's memory-stick folder), and `pebble deploy --list` shows the targets
//! found. The copy itself is `pebble_io::deploy` (staged, verified, atomic per
//! file, safe to interrupt).

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::bail;
use clap::Args;
use pebble_io::deploy::{self, DeployFile, DirVolume, Plan};

use pebble_core::services::deploy::{DEFAULT_FOLDER, plan};

#[derive(Debug, Args)]
pub struct DeployArgs {
    /// The project (`.pebble.ron`, exported first) or `.pbm` map to deploy.
    #[arg(required_unless_present = "list")]
    pub input: Option<PathBuf>,
    /// The memory stick's root (or any folder): files go to `PSP/GAME/<NAME>/` there.
    #[arg(long, required_unless_present_any = ["list", "psplink_root"])]
    pub to: Option<PathBuf>,
    /// PSPLink in one option: the folder `usbhostfs_pc` serves (`--psplink --to DIR`).
    #[arg(long, value_name = "DIR", conflicts_with = "to")]
    pub psplink_root: Option<PathBuf>,
    /// The game folder's name under `PSP/GAME/`.
    #[arg(long, default_value = DEFAULT_FOLDER)]
    pub name: String,
    /// For a project: skip the lighting bake.
    #[arg(long)]
    pub no_bake: bool,
    /// List the memory sticks mounted on this machine instead.
    #[arg(long)]
    pub list: bool,
    /// PSPLink: `--to` is the folder `usbhostfs_pc` serves; after copying, reset the
    /// PSP and run the runtime there with `pspsh -e`.
    #[arg(long)]
    pub psplink: bool,
}

/// `pspsh` on PATH, if any.
fn pspsh() -> Option<PathBuf> {
    let name = if cfg!(windows) { "pspsh.exe" } else { "pspsh" };
    std::env::split_paths(&std::env::var_os("PATH")?)
        .map(|d| d.join(name))
        .find(|p| p.is_file())
}

/// Resets the PSP and starts the deployed runtime through PSPLink.
fn launch_psplink(folder: &str) -> anyhow::Result<()> {
    let Some(sh) = pspsh() else {
        bail!(
            "PSPLink: pspsh is not on PATH (install psplinkusb's pspsh and usbhostfs_pc, and start usbhostfs_pc in the --to folder)"
        );
    };
    for command in [
        "reset".to_string(),
        format!("./PSP/GAME/{folder}/EBOOT.PBP"),
    ] {
        let out = std::process::Command::new(&sh)
            .args(["-e", &command])
            .output()
            .map_err(|e| anyhow::anyhow!("PSPLink: cannot run {}: {e}", sh.display()))?;
        if !out.status.success() {
            bail!(
                "PSPLink: `pspsh -e {command}` failed ({}): {} — is the PSP running PSPLink and usbhostfs_pc connected?",
                out.status,
                String::from_utf8_lossy(&out.stderr).trim()
            );
        }
    }
    Ok(())
}

fn human(bytes: u64) -> String {
    match bytes {
        b if b >= 1 << 30 => format!("{:.1} GiB", b as f64 / (1u64 << 30) as f64),
        b if b >= 1 << 20 => format!("{:.1} MiB", b as f64 / (1u64 << 20) as f64),
        b if b >= 1 << 10 => format!("{:.1} KiB", b as f64 / 1024.0),
        b => format!("{b} B"),
    }
}

pub fn run(args: DeployArgs) -> anyhow::Result<ExitCode> {
    if args.list {
        let targets = deploy::find_targets(&args.name);
        let mut out = String::new();
        if targets.is_empty() {
            out.push_str("no memory stick found: connect the PSP and choose USB Connection (the volume's root must hold a PSP folder), or deploy to a folder with --to DIR\n");
        }
        out.push_str(&match pspsh() {
            Some(p) => format!(
                "PSPLink: pspsh at {} (deploy with --psplink --to the usbhostfs_pc folder)\n",
                p.display()
            ),
            None => "PSPLink: pspsh not on PATH\n".to_string(),
        });
        for t in &targets {
            out.push_str(&format!(
                "{}  {}  {} free{}\n",
                t.root.display(),
                t.label,
                human(t.free),
                if t.deployed {
                    format!(", PSP/GAME/{} present", args.name)
                } else {
                    String::new()
                }
            ));
        }
        super::emit(&out)?;
        return Ok(ExitCode::SUCCESS);
    }
    let psplink = args.psplink || args.psplink_root.is_some();
    let (Some(input), Some(to)) = (
        args.input.as_deref(),
        args.to.as_deref().or(args.psplink_root.as_deref()),
    ) else {
        bail!("give the project or map to deploy and --to TARGET (or --list)");
    };
    let map = super::render::map_bytes(input, !args.no_bake)?;
    let hash = pbm::fnv::fnv1a64(&map);
    let tunables = if input
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("pbm"))
    {
        String::new()
    } else {
        pebble_model::project::load(input)?
            .settings()
            .export
            .runtime_tunables
            .clone()
    };
    let plan = plan(&args.name, map, &tunables);
    let volume = DirVolume {
        root: to.to_path_buf(),
    };
    let bar = indicatif::ProgressBar::new(0);
    bar.set_style(
        indicatif::ProgressStyle::with_template("copying [{bar:40}] {bytes}/{total_bytes}")
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    let report = deploy::deploy(&volume, &plan, &mut |done, total| {
        bar.set_length(total);
        bar.set_position(done);
    });
    bar.finish_and_clear();
    let report = report?;
    if !report.written.is_empty() {
        // Which map is there, written only when something changed (so a repeated
        // deployment writes nothing at all).
        let seconds = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_secs())
            .unwrap_or(0);
        let manifest = serde_json::json!({
            "map": "map.pbm",
            "map_fnv1a64": format!("{hash:016x}"),
            "source": input.display().to_string(),
            "pebble_version": env!("CARGO_PKG_VERSION"),
            "deployed_unix_time": seconds,
        });
        let plan = Plan {
            folder: args.name.clone(),
            files: vec![DeployFile {
                name: "pebble_manifest.json".into(),
                bytes: format!("{manifest:#}\n").into_bytes(),
            }],
        };
        deploy::deploy(&volume, &plan, &mut |_, _| {})?;
    }
    if psplink {
        launch_psplink(&args.name)?;
    }
    super::emit(&format!(
        "deployed {} to {}: {} written ({}), {} unchanged; map fnv1a64 {hash:016x}{}\n",
        input.display(),
        report.folder.display(),
        if report.written.is_empty() {
            "nothing".to_string()
        } else {
            report.written.join(", ")
        },
        human(report.bytes_written),
        report.skipped.len(),
        if psplink {
            "; started through PSPLink"
        } else {
            ""
        }
    ))?;
    if report.free_space_unknown {
        super::emit(&format!(
            "note: the system gives no size for the drive holding {}, so the room there was not checked first\n",
            report.folder.display()
        ))?;
    }
    Ok(ExitCode::SUCCESS)
}
