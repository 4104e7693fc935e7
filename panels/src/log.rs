//! The Log panel's source: a `tracing` layer that keeps the latest events in a
//! bounded buffer the panel reads, installed once per process with a stderr
//! printer for warnings and errors; and the panel itself (level filter, text
//! search, clear).

use std::collections::VecDeque;
use std::sync::{Arc, Mutex, OnceLock};

use tracing::Level;
use tracing::field::{Field, Visit};
use tracing_subscriber::layer::{Context, SubscriberExt as _};
use tracing_subscriber::{Layer, Registry};

/// Events kept; older ones are dropped first.
pub const CAPACITY: usize = 2_000;

#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    /// Seconds since the buffer was created.
    pub time: f64,
    pub level: Level,
    pub target: String,
    pub message: String,
}

/// The shared buffer the layer writes and the panel reads.
#[derive(Debug, Clone)]
pub struct LogBuffer {
    start: std::time::Instant,
    entries: Arc<Mutex<VecDeque<Entry>>>,
}

impl Default for LogBuffer {
    fn default() -> Self {
        Self {
            start: std::time::Instant::now(),
            entries: Arc::new(Mutex::new(VecDeque::new())),
        }
    }
}

impl LogBuffer {
    pub fn push(&self, level: Level, target: &str, message: String) {
        let time = self.start.elapsed().as_secs_f64();
        if let Ok(mut e) = self.entries.lock() {
            if e.len() == CAPACITY {
                e.pop_front();
            }
            e.push_back(Entry {
                time,
                level,
                target: target.to_owned(),
                message,
            });
        }
    }

    pub fn snapshot(&self) -> Vec<Entry> {
        self.matching(|_| true)
    }

    /// The entries `keep` accepts, oldest first (only those are copied).
    pub fn matching(&self, keep: impl Fn(&Entry) -> bool) -> Vec<Entry> {
        self.entries
            .lock()
            .map(|e| e.iter().filter(|x| keep(x)).cloned().collect())
            .unwrap_or_default()
    }

    pub fn clear(&self) {
        if let Ok(mut e) = self.entries.lock() {
            e.clear();
        }
    }
}

struct MessageVisitor(String);

impl Visit for MessageVisitor {
    fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
        use std::fmt::Write as _;
        if field.name() == "message" {
            let _ = write!(self.0, "{value:?}");
        } else {
            let _ = write!(self.0, " {}={value:?}", field.name());
        }
    }
}

/// The layer that feeds a [`LogBuffer`].
#[derive(Debug)]
pub struct BufferLayer(pub LogBuffer);

impl<S: tracing::Subscriber> Layer<S> for BufferLayer {
    fn on_event(&self, event: &tracing::Event<'_>, _ctx: Context<'_, S>) {
        let mut visitor = MessageVisitor(String::new());
        event.record(&mut visitor);
        let meta = event.metadata();
        self.0.push(*meta.level(), meta.target(), visitor.0);
    }
}

/// The process's buffer, installing the subscriber the first time (later calls,
/// and a subscriber installed by someone else, leave things as they are).
pub fn buffer() -> LogBuffer {
    static BUFFER: OnceLock<LogBuffer> = OnceLock::new();
    BUFFER
        .get_or_init(|| {
            let buffer = LogBuffer::default();
            let stderr = tracing_subscriber::fmt::layer()
                .with_writer(std::io::stderr)
                .with_target(false)
                .with_filter(tracing_subscriber::filter::LevelFilter::WARN);
            let subscriber = Registry::default()
                .with(BufferLayer(buffer.clone()).with_filter(
                    tracing_subscriber::filter::filter_fn(|m| {
                        // Our own events, and warnings from the libraries below.
                        m.target().starts_with("pebble") || *m.level() <= Level::WARN
                    }),
                ))
                .with(stderr);
            let _ = tracing::subscriber::set_global_default(subscriber);
            buffer
        })
        .clone()
}

/// The Log panel's settings.
#[derive(Debug, Clone)]
pub struct LogView {
    /// The least severe level shown.
    pub level: Level,
    pub search: String,
}

impl Default for LogView {
    fn default() -> Self {
        Self {
            level: Level::INFO,
            search: String::new(),
        }
    }
}

fn color(level: Level) -> egui::Color32 {
    match level {
        Level::ERROR => egui::Color32::LIGHT_RED,
        Level::WARN => egui::Color32::from_rgb(240, 190, 60),
        Level::INFO => egui::Color32::GRAY,
        _ => egui::Color32::DARK_GRAY,
    }
}

impl LogView {
    pub fn ui(&mut self, ui: &mut egui::Ui, buffer: &LogBuffer) {
        ui.horizontal(|ui| {
            egui::ComboBox::from_id_salt("log level")
                .selected_text(self.level.as_str())
                .show_ui(ui, |ui| {
                    for l in [
                        Level::ERROR,
                        Level::WARN,
                        Level::INFO,
                        Level::DEBUG,
                        Level::TRACE,
                    ] {
                        ui.selectable_value(&mut self.level, l, l.as_str());
                    }
                });
            ui.add(egui::TextEdit::singleline(&mut self.search).hint_text("search"));
            if ui.button("Clear").clicked() {
                buffer.clear();
            }
        });
        let needle = self.search.to_lowercase();
        // Level's order: ERROR is the "smallest" (most severe).
        let entries = buffer.matching(|e| {
            e.level <= self.level
                && (needle.is_empty() || e.message.to_lowercase().contains(&needle))
        });
        egui::ScrollArea::vertical()
            .stick_to_bottom(true)
            .auto_shrink([false, false])
            .show_rows(
                ui,
                ui.text_style_height(&egui::TextStyle::Body),
                entries.len(),
                |ui, range| {
                    for e in &entries[range] {
                        ui.horizontal(|ui| {
                            ui.monospace(format!("{:8.2}", e.time));
                            ui.colored_label(color(e.level), e.level.as_str());
                            // One row each (the rows are counted to scroll); a long
                            // line is cut at the edge and shown whole on hover
                            // (egui's tooltip for an elided label).
                            ui.add(egui::Label::new(&e.message).truncate());
                        });
                    }
                },
            );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_buffer_keeps_the_latest_events_and_the_layer_fills_it() {
        let buffer = LogBuffer::default();
        for k in 0..CAPACITY + 5 {
            buffer.push(Level::INFO, "pebble", format!("event {k}"));
        }
        let all = buffer.snapshot();
        assert_eq!(all.len(), CAPACITY);
        assert_eq!(all[0].message, "event 5");
        buffer.clear();
        assert!(buffer.snapshot().is_empty());
        // Through a subscriber of its own (not the process's global one).
        let subscriber = Registry::default().with(BufferLayer(buffer.clone()));
        tracing::subscriber::with_default(subscriber, || {
            tracing::warn!(path = "a.png", "texture missing");
        });
        let got = buffer.snapshot();
        assert_eq!(got.len(), 1);
        assert_eq!(got[0].level, Level::WARN);
        assert!(
            got[0].message.starts_with("texture missing"),
            "{}",
            got[0].message
        );
        assert!(
            got[0].message.contains("path=\"a.png\""),
            "{}",
            got[0].message
        );
    }
}
