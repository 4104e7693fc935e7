//! `pebble capture import`: brings device captures (`capture_NNN.bmp` and their
//! `.json` sidecars) from a deployed folder into the project's `captures/`, or one
//! screenshot (a PSPLink `scrshot` BMP) with a camera pose given by hand.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context as _, bail};
use clap::{Args, Subcommand};

#[derive(Debug, Subcommand)]
pub enum CaptureCommand {
    /// Copy captures into the project's `captures/` folder.
    Import(ImportArgs),
}

#[derive(Debug, Args)]
pub struct ImportArgs {
    /// A memory stick's root, a deployed game folder, its `captures/` folder, or one
    /// BMP (then give --pose).
    pub from: PathBuf,
    /// The project whose `captures/` folder receives them.
    #[arg(long)]
    pub project: PathBuf,
    /// The game folder's name under `PSP/GAME/` when FROM is a stick's root.
    #[arg(long, default_value = pebble_core::services::deploy::DEFAULT_FOLDER)]
    pub name: String,
    /// For a single BMP: the camera, x,y,z,yawDeg,pitchDeg.
    #[arg(long, allow_hyphen_values = true)]
    pub pose: Option<String>,
    /// For a single BMP: the scene time in seconds.
    #[arg(long, default_value_t = 0.0)]
    pub time: f64,
    /// For a single BMP: the vertical field of view in degrees.
    #[arg(long, default_value_t = 65.0)]
    pub fov: f32,
    /// For a single BMP: the environment preset.
    #[arg(long, default_value = "day")]
    pub environment: String,
}

pub fn run(cmd: CaptureCommand) -> anyhow::Result<ExitCode> {
    match cmd {
        CaptureCommand::Import(args) => import(args),
    }
}

/// Where the captures are, for the kinds of FROM accepted.
fn captures_dir(from: &Path, name: &str) -> Option<PathBuf> {
    [
        from.join("PSP").join("GAME").join(name).join("captures"),
        from.join("captures"),
        from.to_path_buf(),
    ]
    .into_iter()
    .find(|d| {
        std::fs::read_dir(d).is_ok_and(|mut entries| {
            entries.any(|e| {
                e.is_ok_and(|e| {
                    let n = e.file_name().to_string_lossy().to_ascii_lowercase();
                    n.starts_with("capture_") && n.ends_with(".bmp")
                })
            })
        })
    })
}

fn import(args: ImportArgs) -> anyhow::Result<ExitCode> {
    let project_dir = pebble_model::project::folder_of(&args.project);
    if !args.project.is_file() {
        bail!("{}: no such project", args.project.display());
    }
    let into = project_dir.join("captures");
    std::fs::create_dir_all(&into).with_context(|| format!("cannot create {}", into.display()))?;
    // (bmp bytes, sidecar text, base name)
    let mut pairs: Vec<(Vec<u8>, String, String)> = Vec::new();
    if args.from.is_file() {
        let pose = args
            .pose
            .as_deref()
            .context("importing one BMP needs its camera: --pose x,y,z,yawDeg,pitchDeg")?;
        let v: Vec<f32> = pose
            .split(',')
            .map(|p| p.trim().parse())
            .collect::<Result<_, _>>()
            .with_context(|| format!("--pose {pose:?}: expected five numbers"))?;
        let [x, y, z, yaw, pitch] = v[..] else {
            bail!("--pose {pose:?}: expected five numbers x,y,z,yawDeg,pitchDeg");
        };
        let bmp = std::fs::read(&args.from)
            .with_context(|| format!("cannot read {}", args.from.display()))?;
        image::load_from_memory(&bmp)
            .with_context(|| format!("{} is not a readable image", args.from.display()))?;
        let sidecar = serde_json::json!({
            "position": [x, y, z], "yaw": yaw.to_radians(), "pitch": pitch.to_radians(), "fov": args.fov,
            "time": args.time, "environment": args.environment, "display_mode": "textured",
            "source": args.from.display().to_string(), "pose": "given by hand",
        });
        pairs.push((bmp, format!("{sidecar:#}\n"), "capture_000".into()));
    } else {
        let dir = captures_dir(&args.from, &args.name).with_context(|| {
            format!(
                "no captures (capture_NNN.bmp) in {} or its PSP/GAME/{}/captures",
                args.from.display(),
                args.name
            )
        })?;
        let mut names: Vec<PathBuf> = std::fs::read_dir(&dir)?
            .flatten()
            .map(|e| e.path())
            .filter(|p| {
                p.extension().is_some_and(|e| e.eq_ignore_ascii_case("bmp"))
                    && p.file_stem()
                        .is_some_and(|s| s.to_string_lossy().starts_with("capture_"))
            })
            .collect();
        names.sort();
        for bmp in names {
            let json = bmp.with_extension("json");
            let sidecar = std::fs::read_to_string(&json).with_context(|| {
                format!(
                    "{} has no sidecar {} (copy both)",
                    bmp.display(),
                    json.display()
                )
            })?;
            let stem = bmp
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default();
            pairs.push((std::fs::read(&bmp)?, sidecar, stem));
        }
    }
    let (mut copied, mut same) = (Vec::new(), 0);
    for (bmp, sidecar, stem) in pairs {
        // Keep the device's name; a different capture already there under it gets
        // the next free suffix, so nothing is overwritten.
        let mut base = stem.clone();
        let mut k = 2;
        loop {
            let (b, j) = (
                into.join(format!("{base}.bmp")),
                into.join(format!("{base}.json")),
            );
            match (std::fs::read(&b).ok(), std::fs::read_to_string(&j).ok()) {
                (None, None) => {
                    pbm::file::write_atomic(&b, &bmp)?;
                    pbm::file::write_atomic(&j, sidecar.as_bytes())?;
                    copied.push(base);
                    break;
                }
                (Some(old), Some(old_j)) if old == bmp && old_j == sidecar => {
                    same += 1;
                    break;
                }
                _ => {
                    base = format!("{stem}_{k}");
                    k += 1;
                }
            }
        }
    }
    super::emit(&format!(
        "{} captures imported into {} ({}), {same} already there\n",
        copied.len(),
        into.display(),
        if copied.is_empty() {
            "none new".to_string()
        } else {
            copied.join(", ")
        }
    ))?;
    Ok(ExitCode::SUCCESS)
}
