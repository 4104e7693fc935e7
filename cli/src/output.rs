//! What the subcommands print.

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
