//! Any bytes as a TIM: parsing never panics or runs out of memory, and a TIM that
//! parses loads into VRAM and reads back at any texel.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pebble_io::import::tim::{Tim, Vram};

fuzz_target!(|data: &[u8]| {
    if let Ok(tim) = Tim::parse(data) {
        let mut vram = Vram::default();
        vram.load(&tim);
        let _ = vram.word(1023, 511);
    }
});
