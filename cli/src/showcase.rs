//! `pebble showcase DIR`: writes the bundled showcase project (`services::showcase`).

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

#[derive(Debug, Args)]
pub struct ShowcaseArgs {
    /// Folder to write into (created if needed); existing files are replaced.
    pub dir: PathBuf,
}

pub fn run(args: ShowcaseArgs) -> anyhow::Result<ExitCode> {
    let path = pebble_core::services::showcase::write(&args.dir)?;
    super::emit(&format!("wrote the showcase project {}\n", path.display()))?;
    Ok(ExitCode::SUCCESS)
}
