//! What the editor window and the command line share, so that neither reaches into
//! the other: a scene's export (options from its own settings, bytes in memory),
//! what a deployment copies, the PSP-look preview of a capture, the showcase
//! project, where an imported model goes (`placement`) and what to say of it
//! (`import_review`), and writing a PNG. `app` and `cli` both call these; `app` never imports
//! `cli`.

pub mod deploy;
pub mod export;
pub mod import_review;
pub mod pictures;
pub mod placement;
pub mod ppsspp;
pub mod preview;
pub mod showcase;

pub use pictures::{texture_loader, write_png};
