//! The runtime's tunables (`pebble_render.txt`): what each key means, its
//! default and its widget, read from and written back to the project's text.
//!
//! Why a table here and not the runtime's parser: the runtime is built for the
//! PSP on its own toolchain and cannot be a dependency of the editor; the keys,
//! defaults and accepted values below follow `psp/src/tunables.rs`, and a test
//! checks that every key is one the runtime reads.

use eframe::egui;

/// What a key holds.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum TunableKind {
    /// 0 / 1.
    Flag {
        default: bool,
    },
    Number {
        default: f32,
        min: f32,
        max: f32,
    },
    /// One of these words.
    Choice {
        options: &'static [(&'static str, &'static str)],
        default: &'static str,
    },
    /// Bit 1 blended emitters, bit 2 additive.
    Particles {
        default: u32,
    },
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Tunable {
    pub key: &'static str,
    pub about: &'static str,
    pub kind: TunableKind,
}

/// Every key the runtime reads, in the order the window shows them.
pub const TUNABLES: &[Tunable] = &[
    Tunable {
        key: "bias",
        about: "LOD bias in mip levels (+1 samples one level coarser)",
        kind: TunableKind::Number {
            default: 1.0,
            min: -4.0,
            max: 4.0,
        },
    },
    Tunable {
        key: "filter",
        about: "texture filtering",
        kind: TunableKind::Choice {
            options: &[
                ("mip_lin", "bilinear, nearest mip (default)"),
                ("linear", "trilinear"),
                ("nearest", "nearest everywhere"),
            ],
            default: "mip_lin",
        },
    },
    Tunable {
        key: "mips",
        about: "use mip levels",
        kind: TunableKind::Flag { default: true },
    },
    Tunable {
        key: "cutout_mips",
        about: "mip levels on cutout textures too",
        kind: TunableKind::Flag { default: true },
    },
    Tunable {
        key: "depth_write",
        about: "opaque and cutout surfaces write depth (off: tested, never written)",
        kind: TunableKind::Flag { default: true },
    },
    Tunable {
        key: "detail_const",
        about: "atlas meshes pinned to this mip level (negative: not pinned)",
        kind: TunableKind::Number {
            default: 1.0,
            min: -1.0,
            max: 8.0,
        },
    },
    Tunable {
        key: "cull",
        about: "cull back faces",
        kind: TunableKind::Flag { default: true },
    },
    Tunable {
        key: "uv_scroll",
        about: "scroll textures",
        kind: TunableKind::Flag { default: true },
    },
    Tunable {
        key: "particles",
        about: "draw particle emitters",
        kind: TunableKind::Particles { default: 3 },
    },
];

/// A key's value as the window edits it.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    Flag(bool),
    Number(f32),
    Choice(&'static str),
    Particles(u32),
}

impl Tunable {
    fn default_value(&self) -> Value {
        match self.kind {
            TunableKind::Flag { default } => Value::Flag(default),
            TunableKind::Number { default, .. } => Value::Number(default),
            TunableKind::Choice { default, .. } => Value::Choice(default),
            TunableKind::Particles { default } => Value::Particles(default),
        }
    }

    /// The value `text` gives, as the runtime reads it.
    fn read(&self, text: &str) -> Option<Value> {
        match self.kind {
            TunableKind::Flag { .. } => match text {
                "1" | "on" | "true" => Some(Value::Flag(true)),
                "0" | "off" | "false" => Some(Value::Flag(false)),
                _ => None,
            },
            // The runtime takes any number; the range is the slider's.
            TunableKind::Number { .. } => text
                .parse::<f32>()
                .ok()
                .filter(|v| v.is_finite())
                .map(Value::Number),
            TunableKind::Choice { options, .. } => options
                .iter()
                .find(|(o, _)| *o == text)
                .map(|(o, _)| Value::Choice(o)),
            TunableKind::Particles { .. } => text.parse::<u32>().ok().map(Value::Particles),
        }
    }

    fn write(value: &Value) -> String {
        match value {
            Value::Flag(on) => if *on { "1" } else { "0" }.into(),
            Value::Number(v) => format!("{v}"),
            Value::Choice(c) => (*c).into(),
            Value::Particles(p) => p.to_string(),
        }
    }
}

/// The project's tunables: each known key's value, the lines kept as they were
/// (comments, unknown keys), and what the runtime would report.
#[derive(Debug, Clone, PartialEq)]
pub struct Tunables {
    pub values: Vec<Value>,
    /// Lines that are not a known key's (kept when written back).
    kept: Vec<String>,
    pub problems: Vec<String>,
}

impl Tunables {
    pub fn parse(text: &str) -> Self {
        let mut values: Vec<Value> = TUNABLES.iter().map(Tunable::default_value).collect();
        let mut kept = Vec::new();
        let mut problems = Vec::new();
        for (n, raw) in text.lines().enumerate() {
            let line = raw.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                if raw.trim_start().starts_with('#') {
                    kept.push(raw.to_string());
                }
                continue;
            }
            let Some((key, value)) = line.split_once('=') else {
                problems.push(format!(
                    "line {}: expected key=value, found {line:?}",
                    n + 1
                ));
                kept.push(raw.to_string());
                continue;
            };
            let (key, value) = (key.trim(), value.trim());
            match TUNABLES.iter().position(|t| t.key == key) {
                Some(k) => match TUNABLES[k].read(value) {
                    Some(v) => values[k] = v,
                    None => {
                        problems.push(format!("line {}: bad value {value:?} for {key}", n + 1));
                        kept.push(raw.to_string());
                    }
                },
                None => {
                    problems.push(format!(
                        "line {}: the runtime does not know the key {key:?}",
                        n + 1
                    ));
                    kept.push(raw.to_string());
                }
            }
        }
        Self {
            values,
            kept,
            problems,
        }
    }

    /// The text: the values that differ from the runtime's defaults, then the
    /// lines kept. Defaults are left out so the runtime's own apply.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        for (t, v) in TUNABLES.iter().zip(&self.values) {
            if *v != t.default_value() {
                out.push_str(&format!("{}={}\n", t.key, Tunable::write(v)));
            }
        }
        for line in &self.kept {
            out.push_str(line);
            out.push('\n');
        }
        out
    }

    pub fn ui(&mut self, ui: &mut egui::Ui) {
        for (t, v) in TUNABLES.iter().zip(self.values.iter_mut()) {
            ui.horizontal(|ui| {
                let l = ui.label(t.key).on_hover_text(t.about);
                match (v, t.kind) {
                    (Value::Flag(on), _) => {
                        ui.checkbox(on, t.about).labelled_by(l.id);
                    }
                    (Value::Number(x), TunableKind::Number { min, max, .. }) => {
                        // A value typed past the slider's range stays as it is.
                        ui.add(
                            egui::Slider::new(x, min..=max)
                                .step_by(0.25)
                                .clamping(egui::SliderClamping::Never),
                        )
                        .labelled_by(l.id);
                    }
                    (Value::Choice(c), TunableKind::Choice { options, .. }) => {
                        egui::ComboBox::from_id_salt(("tunable", t.key))
                            .selected_text(*c)
                            .show_ui(ui, |ui| {
                                for (o, about) in options {
                                    ui.selectable_value(c, *o, format!("{o}: {about}"));
                                }
                            })
                            .response
                            .labelled_by(l.id);
                    }
                    (Value::Particles(p), _) => {
                        let (mut blended, mut additive) = (*p & 1 != 0, *p & 2 != 0);
                        let before = (blended, additive);
                        ui.checkbox(&mut blended, "blended");
                        ui.checkbox(&mut additive, "additive");
                        if (blended, additive) != before {
                            *p = (*p & !3) | u32::from(blended) | (u32::from(additive) << 1);
                        }
                    }
                    _ => {}
                }
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_key_is_one_the_runtime_reads() {
        let runtime = include_str!("../../../../psp/src/tunables.rs");
        for t in TUNABLES {
            assert!(
                runtime.contains(&format!("\"{}\" =>", t.key)),
                "the runtime has no key {}",
                t.key
            );
        }
    }

    #[test]
    fn text_round_trips_keeping_comments_and_reporting_what_the_runtime_would() {
        let t = Tunables::parse("# mine\nbias=0.5\nfilter=linear\ncull=0\nfoo=1\nmips=maybe\n");
        assert_eq!(t.values[0], Value::Number(0.5));
        assert_eq!(t.values[1], Value::Choice("linear"));
        assert_eq!(t.problems.len(), 2, "{:?}", t.problems);
        assert!(t.problems[0].contains("foo") && t.problems[1].contains("maybe"));
        assert_eq!(
            t.to_text(),
            "bias=0.5\nfilter=linear\ncull=0\n# mine\nfoo=1\nmips=maybe\n"
        );
        // Any number, as the runtime reads it (the slider's range is the slider's).
        let far = Tunables::parse("bias=9\n");
        assert!(far.problems.is_empty(), "{:?}", far.problems);
        assert_eq!(far.values[0], Value::Number(9.0));
        assert_eq!(far.to_text(), "bias=9\n");
        // Defaults are not written.
        assert_eq!(Tunables::parse("bias=1\nparticles=3\n").to_text(), "");
        assert_eq!(Tunables::parse("").to_text(), "");
    }
}

#[cfg(test)]
mod ui_tests {
    use super::*;
    use egui_kittest::kittest::Queryable as _;

    #[test]
    fn a_box_ticked_off_changes_the_value() {
        let mut h = egui_kittest::Harness::new_ui_state(
            |ui, text: &mut String| {
                let mut t = Tunables::parse(text);
                let before = t.clone();
                t.ui(ui);
                if t.values != before.values {
                    *text = t.to_text();
                }
            },
            String::new(),
        );
        h.run_steps(2);
        h.get_by_role_and_label(egui::accesskit::Role::CheckBox, "cull")
            .click();
        h.run_steps(2);
        assert_eq!(h.state(), "cull=0\n");
    }
}
