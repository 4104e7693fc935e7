//! Any text as a project file: reading never panics or runs out of memory, and a
//! project that reads is a consistent scene that saves again.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let path = std::path::Path::new("fuzz.pebble.ron");
    if let Ok(scene) = pebble_model::project::from_ron(&text, path) {
        assert!(scene.check_consistency().is_ok());
        let _ = pebble_model::project::to_ron(&scene);
    }
});
