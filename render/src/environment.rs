//! The environment presets as the PSP runtime applies them: a clear colour (no sky
//! geometry) and linear fog by view depth in the same colour.

/// Clear colour and fog of one preset.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Environment {
    pub name: &'static str,
    /// Linear 0..1 RGB of the clear colour, which is also the fog colour.
    pub clear: [f32; 3],
    pub fog: Option<(f32, f32)>,
}

/// The runtime's table: clear colour as 0xBBGGRR, fog near and far in metres.
const PRESETS: [(&str, u32, f32, f32); 4] = [
    ("day", 0x38_2218, 22.0, 65.0),
    ("dawn", 0x26_2028, 16.0, 52.0),
    ("dusk", 0x1C_1824, 14.0, 48.0),
    ("night", 0x10_0A08, 10.0, 40.0),
];

impl Environment {
    /// The preset called `name` (case-insensitive); day, the runtime's default,
    /// for anything else.
    pub fn preset(name: &str) -> Self {
        let (name, bgr, near, far) = PRESETS
            .iter()
            .copied()
            .find(|(n, ..)| n.eq_ignore_ascii_case(name.trim()))
            .unwrap_or(PRESETS[0]);
        let channel = |shift: u32| ((bgr >> shift) & 0xFF) as f32 / 255.0;
        Self {
            name,
            clear: [channel(0), channel(8), channel(16)],
            fog: Some((near, far)),
        }
    }

    /// The preset a map names in its `env_preset` lump, else day.
    pub fn of_map(map: &pbm::Map) -> Self {
        let name = map
            .metadata_by_tag(pbm::tag::ENV_PRESET)
            .map(|m| {
                String::from_utf8_lossy(&m.payload)
                    .trim_end_matches('\0')
                    .to_string()
            })
            .unwrap_or_default();
        Self::preset(&name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_decode_the_runtime_table() {
        let day = Environment::preset("day");
        assert_eq!(
            day.clear.map(|c| (c * 255.0).round() as u8),
            [0x18, 0x22, 0x38]
        );
        assert_eq!(day.fog, Some((22.0, 65.0)));
        assert_eq!(Environment::preset("NIGHT").fog, Some((10.0, 40.0)));
        assert_eq!(Environment::preset("unknown").name, "day");
    }
}
