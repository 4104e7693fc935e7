//! What a deployment copies: the bundled PSP runtime, the map and the project's
//! runtime tunables, into the game folder the runtime reads.

use pebble_io::deploy::{DeployFile, Plan};

/// The runtime, built from `psp/` and bundled so users need no PSP toolchain.
pub const EBOOT: &[u8] = include_bytes!("../../../assets/psp/EBOOT.PBP");

/// The game folder the runtime reads (psp/README.md).
pub const DEFAULT_FOLDER: &str = "PEBBLE";

/// What a deployment copies: the runtime, the map, and the project's runtime
/// tunables as `pebble_render.txt` when it sets any.
pub fn plan(folder: &str, map: Vec<u8>, tunables: &str) -> Plan {
    let mut files = vec![
        DeployFile {
            name: "EBOOT.PBP".into(),
            bytes: EBOOT.to_vec(),
        },
        DeployFile {
            name: "map.pbm".into(),
            bytes: map,
        },
    ];
    if !tunables.trim().is_empty() {
        let mut text = tunables.trim_end().to_string();
        text.push('\n');
        files.push(DeployFile {
            name: "pebble_render.txt".into(),
            bytes: text.into_bytes(),
        });
    }
    Plan {
        folder: folder.to_string(),
        files,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_plan_carries_the_runtime_tunables_only_when_set() {
        let p = plan("PEBBLE", vec![1, 2, 3], "bias=0\nfilter=nearest");
        let names: Vec<&str> = p.files.iter().map(|f| f.name.as_str()).collect();
        assert_eq!(names, ["EBOOT.PBP", "map.pbm", "pebble_render.txt"]);
        assert_eq!(p.files[2].bytes, b"bias=0\nfilter=nearest\n");
        assert_eq!(p.files[0].bytes, EBOOT);
        assert_eq!(plan("PEBBLE", vec![1], "  \n").files.len(), 2);
    }
}
