//! Any bytes as a glTF or GLB file: the import never panics, hangs or runs out of
//! memory, and whatever it imports applies to a scene as one step.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let dir = std::env::temp_dir().join(format!("pebble-fuzz-gltf-{}", std::process::id()));
    let _ = std::fs::create_dir_all(&dir);
    let options = pebble_io::import::ImportOptions::new(&dir);
    let path = dir.join("fuzz.glb");
    if let Ok(imported) =
        pebble_io::import::gltf_file::import(data, &path, &options, &mut |_| {})
    {
        let mut scene = pebble_model::Scene::new();
        let _ = pebble_model::History::default().execute(&mut scene, imported.command);
        assert!(scene.check_consistency().is_ok());
    }
});
