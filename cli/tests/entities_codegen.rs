//! The game's code reads the showcase's entities: the map is exported, the code is
//! generated with `pebble entities codegen`, the C reader is compiled with the
//! system's C compiler and run on the map, the generated Rust module (checked in
//! as `generated/showcase_entities.rs`, kept equal to the generator's output) reads
//! it too, and both agree with `pbm`'s own reader value for value (floats to the
//! bit). A map exported with other definitions is refused by both, naming both
//! hashes.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use pbm::game_entities::{GameEntities, Value};

#[rustfmt::skip]
#[path = "generated/showcase_entities.rs"]
mod showcase_entities;

fn scratch(label: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("pebble-codegen-{label}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

fn pebble(args: &[&str]) -> std::process::Output {
    let out = Command::new(env!("CARGO_BIN_EXE_pebble"))
        .args(args)
        .output()
        .expect("pebble runs");
    assert!(
        out.status.success(),
        "pebble {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// The showcase written and exported: its folder and the map's bytes.
fn showcase_map(label: &str) -> (PathBuf, Vec<u8>) {
    let dir = scratch(label);
    let project = pebble_core::services::showcase::write(&dir).expect("the showcase writes");
    let map = dir.join("showcase.pbm");
    pebble(&[
        "export",
        project.to_str().expect("utf-8"),
        "-o",
        map.to_str().expect("utf-8"),
        "--no-bake",
    ]);
    let bytes = std::fs::read(&map).expect("the map");
    (dir, bytes)
}

fn lump(bytes: &[u8]) -> GameEntities {
    let (view, _) = pbm::MapView::parse(bytes).expect("the map reads");
    let m = view
        .metadata_by_tag(pbm::tag::GAME_ENTITIES)
        .expect("the map has game entities");
    GameEntities::decode(m.payload).expect("the lump reads")
}

fn hex(f: f32) -> String {
    format!("{:08x}", f.to_bits())
}

fn value_text(v: &Value) -> String {
    match v {
        Value::Int(x) => x.to_string(),
        Value::Float(x) => hex(*x),
        Value::Bool(b) => u32::from(*b).to_string(),
        Value::String(s) | Value::Asset(s) => s.clone(),
        Value::Enum(x) | Value::Flags(x) | Value::Colour(x) | Value::Entity(x) => x.to_string(),
        Value::Point(p) => p.map(hex).join(","),
        Value::Array(items) => {
            let inner: Vec<String> = items.iter().map(value_text).collect();
            format!("[{}]", inner.join(" "))
        }
    }
}

/// Every instance as one line, from `pbm`'s generic reader: what the C program
/// must print.
fn expected_lines(lump: &GameEntities) -> String {
    let mut out = String::new();
    for i in &lump.instances {
        let kind = &lump.kinds[i.kind as usize];
        let _ = write!(
            out,
            "{} {} {} {} {}",
            kind.name,
            i.id,
            i.name,
            i.position.map(hex).join(","),
            i.rotation.map(hex).join(",")
        );
        for (f, v) in kind.fields.iter().zip(&i.values) {
            let _ = write!(out, " {}={}", f.name, value_text(v));
        }
        if let Some(Value::Entity(id)) = lump.value(i, "switch")
            && let Some(target) = lump.by_id(*id)
        {
            let _ = write!(out, " -> {}", target.name);
        }
        out.push('\n');
    }
    out
}

/// A game's loop over the showcase's kinds, in C, printing what it reads.
const MAIN_C: &str = r#"#include <stdio.h>
#include <string.h>
#include "pebble_entities.h"

static void hex(float f) { uint32_t b; memcpy(&b, &f, 4); printf("%08x", (unsigned)b); }
static void vec(pbe_vec3 v) { hex(v.x); printf(","); hex(v.y); printf(","); hex(v.z); }
static void head(const char *kind, uint32_t id, const char *name, pbe_vec3 p, const float r[4]) {
    printf("%s %u %s ", kind, (unsigned)id, name);
    vec(p);
    printf(" ");
    hex(r[0]); printf(","); hex(r[1]); printf(","); hex(r[2]); printf(","); hex(r[3]);
}

int main(int argc, char **argv) {
    static uint8_t file[1 << 24];
    char message[256];
    pbe_map map;
    pbe_status status;
    size_t size;
    uint32_t i, k;
    FILE *f = argc > 1 ? fopen(argv[1], "rb") : NULL;
    if (!f) return 100;
    size = fread(file, 1, sizeof file, f);
    fclose(f);
    status = pbe_open_file(&map, file, size);
    if (status != PBE_OK) {
        pbe_message(&map, status, message, sizeof message);
        fprintf(stderr, "%s\n", message);
        return (int)status;
    }
    for (i = 0; i < pbe_count(&map, PBE_KIND_ENEMY); i++) {
        pbe_Enemy e;
        pbe_read_Enemy(&map, i, &e);
        head("Enemy", e.id, e.name, e.position, e.rotation);
        printf(" skill=%u title=%s health=%d speed=", (unsigned)e.skill, e.title, (int)e.health);
        hex(e.speed);
        printf(" sight=");
        hex(e.sight);
        printf(" path=[");
        for (k = 0; k < e.path.count; k++) {
            if (k) printf(" ");
            vec(pbe_array_point(&e.path, k));
        }
        printf("]\n");
    }
    for (i = 0; i < pbe_count(&map, PBE_KIND_SWITCH); i++) {
        pbe_Switch s;
        pbe_read_Switch(&map, i, &s);
        head("Switch", s.id, s.name, s.position, s.rotation);
        printf(" title=%s once=%d\n", s.title, s.once);
    }
    for (i = 0; i < pbe_count(&map, PBE_KIND_DOOR); i++) {
        pbe_Door d;
        pbe_read_Door(&map, i, &d);
        head("Door", d.id, d.name, d.position, d.rotation);
        printf(" title=%s key=%u switch=%u open_time=", d.title, (unsigned)d.key, (unsigned)d.switch_);
        hex(d.open_time);
        if (pbe_kind_of(&map, d.switch_) == PBE_KIND_SWITCH) {
            pbe_Switch s;
            pbe_read_Switch(&map, pbe_index_of(&map, d.switch_), &s);
            printf(" -> %s", s.name);
        }
        printf("\n");
    }
    for (i = 0; i < pbe_count(&map, PBE_KIND_PICKUP); i++) {
        pbe_Pickup p;
        pbe_read_Pickup(&map, i, &p);
        head("Pickup", p.id, p.name, p.position, p.rotation);
        printf(" skill=%u kind=%u amount=%d glow=%u\n", (unsigned)p.skill, (unsigned)p.kind,
               (int)p.amount, (unsigned)p.glow);
    }
    return 0;
}
"#;

/// Compiles the generated reader and `MAIN_C` in `dir` with the system's C
/// compiler (`CC`, else `cc`), warnings as errors.
fn compile(dir: &Path) -> PathBuf {
    std::fs::write(dir.join("main.c"), MAIN_C).expect("main.c");
    let exe = dir.join("reader");
    let cc = std::env::var("CC").unwrap_or_else(|_| "cc".into());
    let out = Command::new(&cc)
        .current_dir(dir)
        .args([
            "-std=c99",
            "-Wall",
            "-Wextra",
            "-pedantic",
            "-Werror",
            "-O1",
            "main.c",
            "pebble_entities.c",
            "-o",
        ])
        .arg(&exe)
        .output()
        .unwrap_or_else(|e| {
            panic!("the C compiler {cc} does not run ({e}): install one (cc) or set CC")
        });
    assert!(
        out.status.success(),
        "{cc} refused the generated C:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    exe
}

#[test]
fn the_generated_c_reader_reads_every_value_of_the_showcase() {
    let (dir, bytes) = showcase_map("c");
    let c_dir = dir.join("c");
    pebble(&[
        "entities",
        "codegen",
        dir.to_str().expect("utf-8"),
        "--c",
        c_dir.to_str().expect("utf-8"),
    ]);
    // Plain ASCII (the definitions' docs are): any C compiler takes it.
    for name in ["pebble_entities.h", "pebble_entities.c"] {
        let text = std::fs::read_to_string(c_dir.join(name)).expect("generated");
        assert!(text.is_ascii(), "{name} is not plain ASCII");
    }
    let exe = compile(&c_dir);
    let out = Command::new(&exe)
        .arg(dir.join("showcase.pbm"))
        .output()
        .expect("the reader runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "the C reader failed: {stderr}");
    let printed = String::from_utf8_lossy(&out.stdout).into_owned();
    let want = expected_lines(&lump(&bytes));
    assert_eq!(printed, want);
    // The showcase's six: the gate's link reaches its lever.
    assert_eq!(printed.lines().count(), 6, "{printed}");
    assert!(
        printed.contains("North gate") && printed.contains("-> Gate lever"),
        "{printed}"
    );
}

#[test]
fn a_map_exported_with_other_definitions_is_refused_naming_both_hashes() {
    let (dir, bytes) = showcase_map("hash");
    let map_hash = lump(&bytes).hash;
    // The game's code moves on: a field renamed, the code generated again.
    let newer = dir.join("newer");
    std::fs::create_dir_all(&newer).expect("dir");
    let text = pebble_core::services::showcase::DEFINITIONS.replace("\"open_time\"", "\"delay\"");
    std::fs::write(newer.join("entities.ron"), &text).expect("writes");
    let code_hash = pebble_model::definitions::Definitions::parse(&text)
        .expect("reads")
        .hash();
    assert_ne!(code_hash, map_hash);
    pebble(&[
        "entities",
        "codegen",
        newer.to_str().expect("utf-8"),
        "--c",
        newer.to_str().expect("utf-8"),
    ]);
    std::fs::write(newer.join("pebble_entities.h"), {
        // The test's main.c names the old field: point it at the new one.
        std::fs::read_to_string(newer.join("pebble_entities.h"))
            .expect("header")
            .replace(" delay;", " open_time;")
    })
    .expect("writes");
    std::fs::write(newer.join("pebble_entities.c"), {
        std::fs::read_to_string(newer.join("pebble_entities.c"))
            .expect("source")
            .replace("out->delay", "out->open_time")
    })
    .expect("writes");
    let exe = compile(&newer);
    let out = Command::new(&exe)
        .arg(dir.join("showcase.pbm"))
        .output()
        .expect("the reader runs");
    assert!(!out.status.success());
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        said.contains(&format!("{map_hash:#018x}")) && said.contains(&format!("{code_hash:#018x}")),
        "{said}"
    );
    // The Rust module of the showcase refuses a lump of other definitions too.
    let mut other = lump(&bytes);
    other.hash ^= 1;
    let err = showcase_entities::read(&other)
        .expect_err("refused")
        .to_string();
    assert!(
        err.contains(&format!("{:#018x}", other.hash))
            && err.contains(&format!("{:#018x}", showcase_entities::DEFINITIONS_HASH)),
        "{err}"
    );
}

#[test]
fn the_checked_in_rust_module_is_the_generators_and_reads_the_showcase() {
    let defs =
        pebble_model::definitions::Definitions::parse(pebble_core::services::showcase::DEFINITIONS)
            .expect("reads");
    let generated = pebble_io::codegen::rust::generate(&defs);
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/generated/showcase_entities.rs");
    let committed = std::fs::read_to_string(&path).expect("the checked-in module");
    assert!(
        generated == committed,
        "{} differs from the generator's output: run `cargo run -- entities codegen assets/showcase --rust {}`",
        path.display(),
        path.display()
    );
    let (_, bytes) = showcase_map("rust");
    let read = showcase_entities::read_map(&bytes).expect("the Rust module reads the map");
    let generic = lump(&bytes);
    assert_eq!(
        read.Enemy.len() + read.Switch.len() + read.Door.len() + read.Pickup.len(),
        generic.instances.len()
    );
    let sentry = &read.Enemy[0];
    assert_eq!((sentry.title.as_str(), sentry.health), ("Sentry", 150));
    assert_eq!(sentry.speed.to_bits(), 1.8f32.to_bits());
    assert_eq!(
        sentry.path,
        vec![[4.0, 0.0, 2.0], [4.0, 0.0, -4.0], [-4.0, 0.0, -4.0]]
    );
    assert!(sentry.skill.contains(showcase_entities::Skill::Hard));
    let gate = &read.Door[0];
    assert_eq!(gate.key, showcase_entities::KeyColour::Red);
    let lever = generic
        .by_id(gate.switch.expect("linked"))
        .expect("the lever");
    assert_eq!(lever.name, read.Switch[0].name);
    let health = read
        .Pickup
        .iter()
        .find(|p| p.kind == showcase_entities::PickupKind::Health)
        .expect("a health pack");
    assert_eq!((health.amount, health.glow), (50, 0xFF60_60FF));
    // Every value the module read equals the generic reader's, instance by instance.
    for i in &generic.instances {
        let name = &i.name;
        let found = read
            .Enemy
            .iter()
            .any(|e| &e.name == name && e.id == i.id && e.position == i.position)
            || read
                .Switch
                .iter()
                .any(|e| &e.name == name && e.id == i.id && e.position == i.position)
            || read
                .Door
                .iter()
                .any(|e| &e.name == name && e.id == i.id && e.position == i.position)
            || read
                .Pickup
                .iter()
                .any(|e| &e.name == name && e.id == i.id && e.position == i.position);
        assert!(found, "{name}");
    }
}
