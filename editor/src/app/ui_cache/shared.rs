//! What the UI cache's parts share: the state between the egui plugin and the GPU
//! side, where the viewport's picture is, and rectangles in window pixels.

use std::sync::{Arc, Mutex};

use eframe::egui::{self, Rect};

/// Where the viewport's picture is this frame, in points (set by the app while it
/// lays the viewport out; `None` when no viewport is shown).
pub type ViewportSlot = Arc<Mutex<Option<Rect>>>;

/// What the plugin and the GPU side share. Texture changes wait here until a
/// frame's callback is prepared, and the cache counts as holding a redraw only
/// once a prepared callback drew it: a frame that is laid out but never painted
/// (a minimised window, a test rendering only some frames) loses nothing.
#[derive(Debug, Default)]
pub struct Shared {
    pub(super) pending_textures: egui::TexturesDelta,
    /// The number of the last redraw drawn into the cache (0: none yet).
    pub(super) drawn: u64,
    /// The window is cleared to the panels' fill (eframe, with the app's
    /// `clear_color`): tiles of the cache holding only that colour need no copy.
    pub window_clear_is_panel_fill: bool,
    /// Frames whose copy was made after the pass, as transfers.
    pub copied_after_pass: u64,
    /// Copies may be made after the pass (off: always drawn in it).
    pub no_transfers: bool,
}

pub type SharedState = Arc<Mutex<Shared>>;

impl Drop for Shared {
    fn drop(&mut self) {
        // Changes for a renderer that is going away with us.
        self.pending_textures.clear();
    }
}

pub(crate) fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// A rectangle of window pixels: columns `x0..x1`, rows `y0..y1` (the ends
/// excluded). egui's rectangles are in points and floating; the cache works in
/// whole pixels, and the copy after the pass wants (x, y, width, height).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PixelRect {
    pub x0: u32,
    pub y0: u32,
    pub x1: u32,
    pub y1: u32,
}

impl PixelRect {
    pub const fn new(x0: u32, y0: u32, x1: u32, y1: u32) -> Self {
        Self { x0, y0, x1, y1 }
    }

    pub fn is_empty(&self) -> bool {
        self.x0 >= self.x1 || self.y0 >= self.y1
    }

    pub fn area(&self) -> u64 {
        if self.is_empty() {
            return 0;
        }
        u64::from(self.x1 - self.x0) * u64::from(self.y1 - self.y0)
    }

    /// The pixels both cover, if any.
    pub fn intersect(self, o: Self) -> Option<Self> {
        let r = Self::new(
            self.x0.max(o.x0),
            self.y0.max(o.y0),
            self.x1.min(o.x1),
            self.y1.min(o.y1),
        );
        (!r.is_empty()).then_some(r)
    }

    /// The smallest rectangle holding both.
    pub fn union(self, o: Self) -> Self {
        Self::new(
            self.x0.min(o.x0),
            self.y0.min(o.y0),
            self.x1.max(o.x1),
            self.y1.max(o.y1),
        )
    }

    /// Whether the two overlap or come within `gap` pixels of each other.
    pub fn within(&self, o: &Self, gap: u32) -> bool {
        self.x0 < o.x1 + gap && o.x0 < self.x1 + gap && self.y0 < o.y1 + gap && o.y0 < self.y1 + gap
    }

    /// This rectangle without `hole`: up to four disjoint pieces.
    pub fn minus(self, hole: Self) -> Vec<Self> {
        let Some(i) = self.intersect(hole) else {
            return vec![self];
        };
        [
            Self::new(self.x0, self.y0, self.x1, i.y0),
            Self::new(self.x0, i.y1, self.x1, self.y1),
            Self::new(self.x0, i.y0, i.x0, i.y1),
            Self::new(i.x1, i.y0, self.x1, i.y1),
        ]
        .into_iter()
        .filter(|r| !r.is_empty())
        .collect()
    }

    /// In points, at `ppp` pixels per point.
    pub fn to_points(self, ppp: f32) -> Rect {
        Rect::from_min_max(
            egui::pos2(self.x0 as f32, self.y0 as f32),
            egui::pos2(self.x1 as f32, self.y1 as f32),
        ) / ppp
    }

    /// (x, y, width, height), as the painter's copies take it.
    pub fn xywh(&self) -> [u32; 4] {
        [self.x0, self.y0, self.x1 - self.x0, self.y1 - self.y0]
    }
}
