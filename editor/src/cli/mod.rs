//! Command-line subcommands, one module each, and their shared output helper.

pub mod capture;
pub mod compare;
pub mod convert_bench;
pub mod deploy;
pub mod export;
pub mod import;
pub mod new;
pub mod pbm;
pub mod project;
pub mod render;
pub mod showcase;

use std::io::Write as _;

/// Writes to stdout; a closed pipe (`pebble … | head`) ends output quietly instead
/// of failing.
pub fn emit(text: &str) -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        other => Ok(other?),
    }
}
