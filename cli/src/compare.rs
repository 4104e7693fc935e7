//! `pebble compare`: a device capture against the editor's PSP-look preview of the
//! same camera, scene time, environment and size — PSNR, SSIM on luminance, mean
//! absolute error per channel, the share of pixels over a threshold, and a heat map —
//! written as an HTML report; exits 1 below the thresholds given.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context as _, bail};
use clap::Args;
use pebble_render::compare::{self, Comparison, Mask};

use pebble_core::services::preview::read_sidecar;

#[derive(Debug, Args)]
pub struct CompareArgs {
    /// The capture (`captures/capture_NNN.bmp`); its sidecar `.json` beside it gives
    /// the camera, scene time and environment.
    pub capture: PathBuf,
    /// The project (`.pebble.ron`, exported in memory with its bake) or `.pbm` map
    /// the capture shows.
    #[arg(long)]
    pub project: PathBuf,
    /// Fail (exit 1) when SSIM is below this.
    #[arg(long)]
    pub min_ssim: Option<f64>,
    /// Fail (exit 1) when PSNR (dB) is below this.
    #[arg(long)]
    pub min_psnr: Option<f64>,
    /// A pixel counts as different when a channel differs by more than this.
    #[arg(long, default_value_t = 32)]
    pub threshold: u8,
    /// Leave a rectangle out (x,y,w,h in capture pixels, e.g. a HUD); repeatable.
    #[arg(long, value_name = "X,Y,W,H")]
    pub mask: Vec<String>,
    /// The PSP look's mip level bias; default: the sidecar's `lod_bias` (what the
    /// runtime used), else +1. PPSSPP ignores the bias (bias 0, 1 and 4 give the same
    /// capture there), so compare emulator captures with 0.
    #[arg(long, allow_hyphen_values = true)]
    pub lod_bias: Option<f32>,
    /// Compare only inside this rectangle (x,y,w,h in capture pixels): everything
    /// else is masked.
    #[arg(long, value_name = "X,Y,W,H")]
    pub region: Option<String>,
    /// Report folder (index.html, the images, report.json).
    #[arg(short, long)]
    pub output: PathBuf,
}

fn parse_mask(text: &str) -> anyhow::Result<Mask> {
    let v: Vec<u32> = text
        .split(',')
        .map(|p| p.trim().parse())
        .collect::<Result<_, _>>()
        .with_context(|| format!("--mask {text:?}: expected four whole numbers x,y,w,h"))?;
    match v[..] {
        [x, y, w, h] => Ok([x, y, w, h]),
        _ => bail!(
            "--mask {text:?}: expected four numbers x,y,w,h, got {}",
            v.len()
        ),
    }
}

pub fn run(args: CompareArgs) -> anyhow::Result<ExitCode> {
    let mut masks: Vec<Mask> = args
        .mask
        .iter()
        .map(|m| parse_mask(m))
        .collect::<Result<_, _>>()?;
    let device = image::open(&args.capture)
        .with_context(|| format!("cannot read the capture {}", args.capture.display()))?
        .to_rgb8();
    if let Some(region) = &args.region {
        let [x, y, w, h] = parse_mask(region).map_err(|e| anyhow::anyhow!("--region: {e}"))?;
        let (iw, ih) = device.dimensions();
        let (x1, y1) = ((x + w).min(iw), (y + h).min(ih));
        if x >= x1 || y >= y1 {
            bail!("--region {region:?} lies outside the {iw}×{ih} capture");
        }
        // Everything around the region: above, below, left, right.
        masks.extend([
            [0, 0, iw, y],
            [0, y1, iw, ih - y1],
            [0, y, x, y1 - y],
            [x1, y, iw - x1, y1 - y],
        ]);
    }
    let sidecar = read_sidecar(&args.capture.with_extension("json"))?;
    let map = super::render::load_map(&args.project, true)
        .with_context(|| format!("cannot load {}", args.project.display()))?;
    let mut notes = Vec::new();
    if let (Some(want), Ok(bytes)) = (&sidecar.map_hash, map.to_bytes()) {
        let have = format!("{:016x}", pbm::fnv::fnv1a64(&bytes));
        if &have != want {
            notes.push(format!(
                "the capture was taken of a different build of the map (fnv1a64 {want}; {} exports to {have})",
                args.project.display()
            ));
        }
    }
    let lod_bias = args.lod_bias.or(sidecar.lod_bias).unwrap_or(1.0);
    let gpu = pebble_render::Gpu::headless()?;
    let editor = pebble_render::compare::editor_picture(
        &gpu,
        &map,
        &pebble_render::compare::CaptureView {
            position: sidecar.position,
            yaw: sidecar.yaw,
            pitch: sidecar.pitch,
            fov: sidecar.fov,
            time: sidecar.time,
            environment: &sidecar.environment,
        },
        (device.width(), device.height()),
        lod_bias,
        &pebble_core::services::preview::entity_solids(&map, sidecar.time),
    )?;
    let c =
        compare::compare(&device, &editor, &masks, args.threshold).map_err(anyhow::Error::msg)?;
    write_report(
        &args.output,
        &args.capture,
        &device,
        &editor,
        &masks,
        &c,
        &notes,
    )?;
    let mut out = format!(
        "{}: PSNR {:.2} dB, SSIM {:.4}, mean error R {:.2} G {:.2} B {:.2}, {:.2} % of pixels over {} → {}\n",
        args.capture.display(),
        c.psnr,
        c.ssim,
        c.mae[0],
        c.mae[1],
        c.mae[2],
        c.over_threshold * 100.0,
        c.threshold,
        args.output.join("index.html").display()
    );
    for n in &notes {
        out.push_str(&format!("  note: {n}\n"));
    }
    let mut failed = Vec::new();
    if let Some(min) = args.min_ssim.filter(|m| c.ssim < *m) {
        failed.push(format!("SSIM {:.4} < {min}", c.ssim));
    }
    if let Some(min) = args.min_psnr.filter(|m| c.psnr < *m) {
        failed.push(format!("PSNR {:.2} dB < {min}", c.psnr));
    }
    if !failed.is_empty() {
        out.push_str(&format!("  below the thresholds: {}\n", failed.join(", ")));
    }
    super::emit(&out)?;
    Ok(if failed.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

fn write_report(
    dir: &Path,
    capture: &Path,
    device: &image::RgbImage,
    editor: &image::RgbImage,
    masks: &[Mask],
    c: &Comparison,
    notes: &[String],
) -> anyhow::Result<()> {
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let png = |name: &str, img: &image::RgbImage| -> anyhow::Result<()> {
        let rgba = image::DynamicImage::ImageRgb8(img.clone()).to_rgba8();
        pebble_core::services::write_png(&dir.join(name), &rgba)
    };
    png("device.png", device)?;
    png("editor.png", editor)?;
    png("difference.png", &compare::difference(device, editor))?;
    png("heatmap.png", &compare::heat_map(device, editor, masks))?;
    let json = serde_json::json!({
        "capture": capture.display().to_string(),
        "psnr_db": if c.psnr.is_finite() { serde_json::json!(c.psnr) } else { serde_json::json!("inf") },
        "ssim": c.ssim,
        "mae": c.mae,
        "over_threshold": c.over_threshold,
        "threshold": c.threshold,
        "pixels": c.pixels,
        "masks": masks,
        "notes": notes,
    });
    pbm::file::write_atomic(&dir.join("report.json"), format!("{json:#}\n").as_bytes())
        .with_context(|| format!("cannot write {}", dir.join("report.json").display()))?;
    let esc = |s: &str| {
        s.replace('&', "&amp;")
            .replace('<', "&lt;")
            .replace('>', "&gt;")
    };
    let notes_html: String = notes
        .iter()
        .map(|n| format!("<p class=note>{}</p>", esc(n)))
        .collect();
    let html = format!(
        r#"<!doctype html><meta charset=utf-8><title>Pebble compare — {name}</title>
<style>body{{font:14px system-ui;background:#1b1d22;color:#ddd;margin:24px}}img{{image-rendering:pixelated;width:480px;border:1px solid #444}}
figure{{display:inline-block;margin:0 12px 12px 0}}td{{padding:2px 12px 2px 0}}.note{{color:#fc6}}</style>
<h1>{name}</h1>{notes_html}
<table><tr><td>PSNR</td><td>{psnr:.2} dB</td></tr><tr><td>SSIM (luminance)</td><td>{ssim:.4}</td></tr>
<tr><td>mean abs. error R / G / B</td><td>{r:.2} / {g:.2} / {b:.2}</td></tr>
<tr><td>pixels over {t}</td><td>{over:.2} %</td></tr><tr><td>pixels compared</td><td>{n}</td></tr></table>
<figure><img src=device.png><figcaption>device</figcaption></figure>
<figure><img src=editor.png><figcaption>editor (PSP look)</figcaption></figure>
<figure><img src=difference.png><figcaption>|difference| ×4</figcaption></figure>
<figure><img src=heatmap.png><figcaption>heat map (largest channel difference; masked: blue)</figcaption></figure>
"#,
        name = esc(&capture.display().to_string()),
        psnr = c.psnr,
        ssim = c.ssim,
        r = c.mae[0],
        g = c.mae[1],
        b = c.mae[2],
        t = c.threshold,
        over = c.over_threshold * 100.0,
        n = c.pixels,
    );
    pbm::file::write_atomic(&dir.join("index.html"), html.as_bytes())
        .with_context(|| format!("cannot write {}", dir.join("index.html").display()))
}
