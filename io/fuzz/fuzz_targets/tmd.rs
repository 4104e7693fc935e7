//! Any bytes as a PlayStation TMD (no TIM beside it): the import never panics,
//! hangs or runs out of memory, and whatever it imports applies as one step.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let dir = std::env::temp_dir().join(format!("pebble-fuzz-tmd-{}", std::process::id()));
    let options = pebble_io::import::ImportOptions::new(&dir);
    let path = dir.join("fuzz.tmd");
    if let Ok(imported) = pebble_io::import::tmd::import_file(data, &path, &options) {
        let mut scene = pebble_model::Scene::new();
        let _ = pebble_model::History::default().execute(&mut scene, imported.command);
        assert!(scene.check_consistency().is_ok());
    }
});
