//! PS1 TIM images and a virtual 1024×512 VRAM to place them in, so that TMD texture
//! pages and CLUTs resolve as on the console.
//!
//! Layout: `u32 id = 0x10`, `u32 flags` (bits 0–2 PMODE: 0 4-bit CLUT, 1 8-bit CLUT,
//! 2 15-bit direct, 3 24-bit; bit 3 CF = has a CLUT), then the CLUT block if CF, then
//! the pixel block. Each block: `u32 bnum` (bytes, header included), `u16 dx, dy, w,
//! h` (in 16-bit VRAM units), then `w·h` 16-bit words.

use std::fmt;

pub const VRAM_WIDTH: usize = 1024;
pub const VRAM_HEIGHT: usize = 512;
pub const TIM_ID: u32 = 0x10;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PixelMode {
    Clut4,
    Clut8,
    Direct15,
    Direct24,
}

/// A TIM file that cannot be read, with the byte offset.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TimError {
    pub offset: usize,
    pub message: String,
}

impl fmt::Display for TimError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "TIM at byte {}: {}", self.offset, self.message)
    }
}

impl std::error::Error for TimError {}

/// A rectangle of 16-bit words destined for VRAM.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Block {
    pub x: u16,
    pub y: u16,
    pub w: u16,
    pub h: u16,
    pub words: Vec<u16>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tim {
    pub mode: PixelMode,
    pub clut: Option<Block>,
    pub pixels: Block,
}

fn u16_at(b: &[u8], o: usize) -> Option<u16> {
    Some(u16::from_le_bytes([*b.get(o)?, *b.get(o + 1)?]))
}

fn u32_at(b: &[u8], o: usize) -> Option<u32> {
    Some(u32::from_le_bytes([
        *b.get(o)?,
        *b.get(o + 1)?,
        *b.get(o + 2)?,
        *b.get(o + 3)?,
    ]))
}

fn err(offset: usize, message: impl Into<String>) -> TimError {
    TimError {
        offset,
        message: message.into(),
    }
}

fn read_block(b: &[u8], at: usize, what: &str) -> Result<(Block, usize), TimError> {
    let short = || {
        err(
            at,
            format!(
                "the {what} block header is cut off (file is {} bytes)",
                b.len()
            ),
        )
    };
    let bnum = u32_at(b, at).ok_or_else(short)? as usize;
    let (x, y, w, h) = (
        u16_at(b, at + 4).ok_or_else(short)?,
        u16_at(b, at + 6).ok_or_else(short)?,
        u16_at(b, at + 8).ok_or_else(short)?,
        u16_at(b, at + 10).ok_or_else(short)?,
    );
    let count = usize::from(w) * usize::from(h);
    if usize::from(x) + usize::from(w) > VRAM_WIDTH || usize::from(y) + usize::from(h) > VRAM_HEIGHT
    {
        return Err(err(
            at + 4,
            format!("{what} block {w}×{h} at ({x}, {y}) does not fit the 1024×512 VRAM"),
        ));
    }
    if bnum != 12 + 2 * count {
        return Err(err(
            at,
            format!(
                "{what} block length {bnum} disagrees with {w}×{h} words ({} bytes expected)",
                12 + 2 * count
            ),
        ));
    }
    let data = b.get(at + 12..at + 12 + 2 * count).ok_or_else(|| {
        err(
            at + 12,
            format!(
                "the {what} data is cut off: {} bytes needed, {} remain",
                2 * count,
                b.len().saturating_sub(at + 12)
            ),
        )
    })?;
    let words = data
        .chunks_exact(2)
        .map(|c| u16::from_le_bytes([c[0], c[1]]))
        .collect();
    Ok((Block { x, y, w, h, words }, at + bnum))
}

impl Tim {
    pub fn parse(b: &[u8]) -> Result<Self, TimError> {
        let id = u32_at(b, 0).ok_or_else(|| err(0, "file is shorter than the 8-byte header"))?;
        if id != TIM_ID {
            return Err(err(
                0,
                format!("id is 0x{id:08X}, expected 0x00000010 (not a TIM)"),
            ));
        }
        let flags = u32_at(b, 4).ok_or_else(|| err(4, "file is shorter than the 8-byte header"))?;
        let mode = match flags & 7 {
            0 => PixelMode::Clut4,
            1 => PixelMode::Clut8,
            2 => PixelMode::Direct15,
            3 => PixelMode::Direct24,
            m => {
                return Err(err(
                    4,
                    format!(
                        "pixel mode {m} is not supported (0 4-bit, 1 8-bit, 2 15-bit, 3 24-bit)"
                    ),
                ));
            }
        };
        let has_clut = flags & 8 != 0;
        let mut at = 8;
        let clut = if has_clut {
            let (block, next) = read_block(b, at, "CLUT")?;
            at = next;
            Some(block)
        } else {
            None
        };
        if matches!(mode, PixelMode::Clut4 | PixelMode::Clut8) && clut.is_none() {
            return Err(err(4, "a 4/8-bit TIM needs a CLUT (flag bit 3)"));
        }
        let (pixels, _) = read_block(b, at, "pixel")?;
        Ok(Self { mode, clut, pixels })
    }
}

/// The console's video memory, 1024×512 16-bit words.
#[derive(Debug, Clone)]
pub struct Vram {
    words: Vec<u16>,
}

impl Default for Vram {
    fn default() -> Self {
        Self {
            words: vec![0; VRAM_WIDTH * VRAM_HEIGHT],
        }
    }
}

/// Texel formats of a texture page.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum PageFormat {
    Bits4,
    Bits8,
    Bits15,
}

/// A 15-bit colour as RGBA8: 0x0000 is transparent on the PS1.
pub fn color15(c: u16) -> [u8; 4] {
    let e = |v: u16| ((v & 31) as u32 * 255 / 31) as u8;
    [e(c), e(c >> 5), e(c >> 10), if c == 0 { 0 } else { 255 }]
}

impl Vram {
    fn put(&mut self, b: &Block) {
        for row in 0..usize::from(b.h) {
            let y = usize::from(b.y) + row;
            for col in 0..usize::from(b.w) {
                let x = usize::from(b.x) + col;
                if let (Some(dst), Some(src)) = (
                    self.words.get_mut(y * VRAM_WIDTH + x),
                    b.words.get(row * usize::from(b.w) + col),
                ) {
                    *dst = *src;
                }
            }
        }
    }

    pub fn load(&mut self, tim: &Tim) {
        if let Some(c) = &tim.clut {
            self.put(c);
        }
        self.put(&tim.pixels);
    }

    pub fn word(&self, x: usize, y: usize) -> u16 {
        self.words
            .get((y % VRAM_HEIGHT) * VRAM_WIDTH + (x % VRAM_WIDTH))
            .copied()
            .unwrap_or(0)
    }

    /// The texel (u, v) of a texture page (page origin in VRAM words) through a CLUT.
    pub fn texel(
        &self,
        page: (usize, usize),
        format: PageFormat,
        clut: (usize, usize),
        u: usize,
        v: usize,
    ) -> [u8; 4] {
        let (px, py) = page;
        let y = py + v;
        match format {
            PageFormat::Bits4 => {
                let w = self.word(px + u / 4, y);
                let index = (w >> ((u % 4) * 4)) & 0xF;
                color15(self.word(clut.0 + index as usize, clut.1))
            }
            PageFormat::Bits8 => {
                let w = self.word(px + u / 2, y);
                let index = (w >> ((u % 2) * 8)) & 0xFF;
                color15(self.word(clut.0 + index as usize, clut.1))
            }
            PageFormat::Bits15 => color15(self.word(px + u, y)),
        }
    }
}
