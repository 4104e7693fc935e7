//! Mutated TMD and TIM files never panic an importer; whatever imports applies.

mod common;
use common::*;

use pebble_io::import::tim::{PageFormat, Tim, Vram};
use pebble_io::import::{ImportOptions, tmd};
use pebble_model::{History, Scene};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};

fn edits() -> impl Strategy<Value = Vec<(usize, u8, u8)>> {
    proptest::collection::vec((any::<usize>(), any::<u8>(), 0u8..4), 1..6)
}

fn mutate(bytes: &mut Vec<u8>, edits: &[(usize, u8, u8)]) {
    for &(at, value, kind) in edits {
        if bytes.is_empty() {
            return;
        }
        let at = at % bytes.len();
        match kind {
            0 => bytes[at] = value,
            1 => bytes[at] ^= 1 << (value % 8),
            2 => {
                let v =
                    [0u32, 0xFFFF_FFFF, 0x7FFF, 0x8000_0000, 64][value as usize % 5].to_le_bytes();
                let end = (at + 4).min(bytes.len());
                bytes[at..end].copy_from_slice(&v[..end - at]);
            }
            _ => bytes.truncate(at),
        }
    }
}

#[test]
fn mutated_tmds_never_panic() {
    let original = sample_tmd();
    assert!(tmd::parse(&original).is_ok());
    let dir = std::env::temp_dir().join(format!("pebble-tmd-props-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    // No TIM beside it: the import writes no files, so 10 000 cases stay fast.
    let path = dir.join("mutant.tmd");
    let options = ImportOptions::new(&dir);
    let mut runner = TestRunner::new(Config {
        cases: 10_000,
        failure_persistence: None,
        ..Config::default()
    });
    let imported = std::cell::Cell::new(0u32);
    runner
        .run(&edits(), |e| {
            let mut bytes = original.clone();
            mutate(&mut bytes, &e);
            if let Ok(done) = tmd::import_file(&bytes, &path, &options) {
                imported.set(imported.get() + 1);
                let mut scene = Scene::new();
                History::default()
                    .execute(&mut scene, done.command)
                    .map_err(|e| TestCaseError::fail(format!("import does not apply: {e}")))?;
            }
            Ok(())
        })
        .unwrap_or_else(|e| panic!("{e}"));
    let imported = imported.get();
    eprintln!("{imported} of 10000 mutated TMDs imported");
    assert!(
        imported > 1_000,
        "{imported} mutants imported: the property must reach the importer"
    );
}

#[test]
fn mutated_tims_never_panic() {
    let original = sample_tim();
    assert!(Tim::parse(&original).is_ok());
    let mut runner = TestRunner::new(Config {
        cases: 10_000,
        failure_persistence: None,
        ..Config::default()
    });
    runner
        .run(&(edits(), any::<(u16, u16)>()), |(e, (u, v))| {
            let mut bytes = original.clone();
            mutate(&mut bytes, &e);
            if let Ok(t) = Tim::parse(&bytes) {
                let mut vram = Vram::default();
                vram.load(&t);
                for format in [PageFormat::Bits4, PageFormat::Bits8, PageFormat::Bits15] {
                    let _ = vram.texel(
                        (960, 256),
                        format,
                        (1008, 511),
                        usize::from(u % 256),
                        usize::from(v % 256),
                    );
                }
            }
            Ok(())
        })
        .unwrap_or_else(|e| panic!("{e}"));
}

#[test]
fn mutated_glbs_never_panic() {
    let original = small_glb();
    let dir = std::env::temp_dir().join(format!("pebble-gltf-props-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let path = dir.join("mutant.glb");
    let options = ImportOptions::new(&dir);
    assert!(pebble_io::import::gltf_file::import(&original, &path, &options, &mut |_| {}).is_ok());
    // Mutations aimed at the binary chunk and at the JSON's numbers alike.
    let json_end =
        20 + u32::from_le_bytes([original[12], original[13], original[14], original[15]]) as usize;
    let mut runner = TestRunner::new(Config {
        cases: 10_000,
        failure_persistence: None,
        ..Config::default()
    });
    let imported = std::cell::Cell::new(0u32);
    runner
        .run(&(edits(), any::<bool>()), |(mut e, in_bin)| {
            let mut bytes = original.clone();
            if in_bin {
                for edit in &mut e {
                    edit.0 = json_end + edit.0 % (original.len() - json_end);
                }
            }
            mutate(&mut bytes, &e);
            if let Ok(done) =
                pebble_io::import::gltf_file::import(&bytes, &path, &options, &mut |_| {})
            {
                imported.set(imported.get() + 1);
                let mut scene = Scene::new();
                History::default()
                    .execute(&mut scene, done.command)
                    .map_err(|e| TestCaseError::fail(format!("import does not apply: {e}")))?;
            }
            Ok(())
        })
        .unwrap_or_else(|e| panic!("{e}"));
    eprintln!("{} of 10000 mutated GLBs imported", imported.get());
    assert!(
        imported.get() > 1_000,
        "{} mutants imported",
        imported.get()
    );
}
