//! `pebble entities`: the game's own entity kinds (`entities.ron`): check a
//! definitions file (and a project's instances against it), and generate the code
//! a game reads its maps' entities with.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context as _;
use clap::{Args, Subcommand};
use pebble_model::definitions::{self, Definitions};

#[derive(Debug, Subcommand)]
pub enum EntitiesCommand {
    /// Check a definitions file; given a project, also its instances (the Problems list).
    Check(CheckArgs),
    /// Write the code a game reads a map's entities with (Rust on `pbm`, or C99).
    Codegen(CodegenArgs),
}

#[derive(Debug, Args)]
pub struct CheckArgs {
    /// A project (*.pebble.ron), its folder, or a definitions file.
    pub input: PathBuf,
}

#[derive(Debug, Args)]
#[command(group = clap::ArgGroup::new("language").required(true).multiple(true))]
pub struct CodegenArgs {
    /// A project (*.pebble.ron), its folder, or a definitions file.
    pub input: PathBuf,
    /// Write a Rust module (on the `pbm` crate) to this file.
    #[arg(long, value_name = "FILE.rs", group = "language")]
    pub rust: Option<PathBuf>,
    /// Write `pebble_entities.h` and `pebble_entities.c` (C99) into this folder.
    #[arg(long, value_name = "DIR", group = "language")]
    pub c: Option<PathBuf>,
}

pub fn run(cmd: EntitiesCommand) -> anyhow::Result<ExitCode> {
    match cmd {
        EntitiesCommand::Check(args) => check(args),
        EntitiesCommand::Codegen(args) => codegen(args),
    }
}

/// The definitions file an input names: a project's or a folder's `entities.ron`,
/// or the file itself.
pub fn definitions_path(input: &Path) -> PathBuf {
    let name = input.file_name().map(|n| n.to_string_lossy().into_owned());
    if input.is_dir() {
        input.join(definitions::FILE_NAME)
    } else if name.is_some_and(|n| n.ends_with(".pebble.ron")) {
        input
            .parent()
            .unwrap_or(Path::new("."))
            .join(definitions::FILE_NAME)
    } else {
        input.to_path_buf()
    }
}

fn load(input: &Path) -> anyhow::Result<(PathBuf, Definitions)> {
    let path = definitions_path(input);
    let text = std::fs::read_to_string(&path).with_context(|| {
        format!(
            "cannot read the definitions {} (a project's kinds live in entities.ron beside it)",
            path.display()
        )
    })?;
    let defs = Definitions::parse(&text).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
    Ok((path, defs))
}

fn check(args: CheckArgs) -> anyhow::Result<ExitCode> {
    let (path, defs) = load(&args.input)?;
    let mut out = format!(
        "{}: {} kinds, {} enums, {} flag sets; hash {:#018x}\n",
        path.display(),
        defs.kinds.len(),
        defs.enums.len(),
        defs.flags.len(),
        defs.hash()
    );
    for k in &defs.kinds {
        let fields: Vec<String> = k
            .fields
            .iter()
            .map(|f| {
                format!(
                    "{}: {}{}",
                    f.name,
                    f.ty.word(),
                    if f.array { "[]" } else { "" }
                )
            })
            .collect();
        out += &format!("  {} ({})\n", k.name, fields.join(", "));
    }
    let mut code = ExitCode::SUCCESS;
    let is_project = args
        .input
        .file_name()
        .is_some_and(|n| n.to_string_lossy().ends_with(".pebble.ron"));
    if is_project {
        let scene = pebble_model::project::load(&args.input)
            .with_context(|| format!("cannot open the project {}", args.input.display()))?;
        let problems = definitions::problems::problems(&scene, &defs);
        let count = definitions::problems::instances(&scene).count();
        out += &format!("{count} game entities, {} problems\n", problems.len());
        for p in &problems {
            out += &format!("  {}\n", p.message);
        }
        if !problems.is_empty() {
            code = ExitCode::FAILURE;
        }
    }
    super::emit(&out)?;
    Ok(code)
}

fn codegen(args: CodegenArgs) -> anyhow::Result<ExitCode> {
    let (path, defs) = load(&args.input)?;
    let mut out = String::new();
    if let Some(file) = &args.rust {
        let code = pebble_io::codegen::rust::generate(&defs);
        if let Some(parent) = file.parent().filter(|p| !p.as_os_str().is_empty()) {
            std::fs::create_dir_all(parent)
                .with_context(|| format!("cannot create {}", parent.display()))?;
        }
        pbm::file::write_atomic(file, code.as_bytes())
            .with_context(|| format!("cannot write {}", file.display()))?;
        out += &format!("wrote {} ({} bytes)\n", file.display(), code.len());
    }
    if let Some(dir) = &args.c {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
        let (header, source) = pebble_io::codegen::c::generate(&defs, "pebble_entities.h");
        for (name, text) in [("pebble_entities.h", header), ("pebble_entities.c", source)] {
            let file = dir.join(name);
            pbm::file::write_atomic(&file, text.as_bytes())
                .with_context(|| format!("cannot write {}", file.display()))?;
            out += &format!("wrote {} ({} bytes)\n", file.display(), text.len());
        }
    }
    out += &format!(
        "from {} ({} kinds, hash {:#018x})\n",
        path.display(),
        defs.kinds.len(),
        defs.hash()
    );
    super::emit(&out)?;
    Ok(ExitCode::SUCCESS)
}
