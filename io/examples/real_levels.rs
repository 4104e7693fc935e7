//! Writes the test levels shaped as Blender, Sketchfab, Godot and Bevy's examples
//! write them (`io/tests/common/levels.rs`) into a folder, for `pebble project
//! bench`:
//!
//! ```sh
//! cargo run -p pebble-io --example real_levels -- /tmp/levels
//! pebble project bench /tmp/levels/arena.glb
//! ```

#[path = "../tests/common/levels.rs"]
// Each test binary uses some of the levels.
#[allow(dead_code)]
mod levels;

fn main() -> std::process::ExitCode {
    let Some(dir) = std::env::args_os().nth(1).map(std::path::PathBuf::from) else {
        eprintln!("usage: real_levels FOLDER");
        return std::process::ExitCode::FAILURE;
    };
    if let Err(e) = std::fs::create_dir_all(&dir) {
        eprintln!("cannot make {}: {e}", dir.display());
        return std::process::ExitCode::FAILURE;
    }
    let more = [levels::occlusion_room(None), levels::lava_cave()];
    for level in levels::all().into_iter().chain(more) {
        let path = dir.join(format!("{}.glb", level.name));
        if let Err(e) = std::fs::write(&path, &level.glb) {
            eprintln!("cannot write {}: {e}", path.display());
            return std::process::ExitCode::FAILURE;
        }
        println!(
            "{}: {} triangles, {} bytes",
            path.display(),
            level.triangles,
            level.glb.len()
        );
    }
    std::process::ExitCode::SUCCESS
}
