//! Little-endian field access over byte slices that never panics: every read is
//! bounds-checked and returns `None` past the end.

#[inline]
pub(crate) fn slice(data: &[u8], offset: usize, len: usize) -> Option<&[u8]> {
    let end = offset.checked_add(len)?;
    data.get(offset..end)
}

#[inline]
pub(crate) fn array<const N: usize>(data: &[u8], offset: usize) -> Option<[u8; N]> {
    let bytes = slice(data, offset, N)?;
    let mut out = [0u8; N];
    out.copy_from_slice(bytes);
    Some(out)
}

#[inline]
pub(crate) fn u8_at(data: &[u8], offset: usize) -> Option<u8> {
    data.get(offset).copied()
}

#[inline]
pub(crate) fn u16_at(data: &[u8], offset: usize) -> Option<u16> {
    array::<2>(data, offset).map(u16::from_le_bytes)
}

#[inline]
pub(crate) fn u32_at(data: &[u8], offset: usize) -> Option<u32> {
    array::<4>(data, offset).map(u32::from_le_bytes)
}

#[inline]
pub(crate) fn i32_at(data: &[u8], offset: usize) -> Option<i32> {
    array::<4>(data, offset).map(i32::from_le_bytes)
}

#[inline]
pub(crate) fn f32_at(data: &[u8], offset: usize) -> Option<f32> {
    u32_at(data, offset).map(f32::from_bits)
}

#[inline]
pub(crate) fn vec3_at(data: &[u8], offset: usize) -> Option<[f32; 3]> {
    Some([
        f32_at(data, offset)?,
        f32_at(data, offset + 4)?,
        f32_at(data, offset + 8)?,
    ])
}

/// Appends little-endian fields to a byte vector.
pub(crate) trait PutLe {
    fn put_u8(&mut self, v: u8);
    fn put_u16(&mut self, v: u16);
    fn put_u32(&mut self, v: u32);
    fn put_i32(&mut self, v: i32);
    fn put_f32(&mut self, v: f32);
    fn put_vec3(&mut self, v: [f32; 3]) {
        for c in v {
            self.put_f32(c);
        }
    }
}

impl PutLe for alloc::vec::Vec<u8> {
    #[inline]
    fn put_u8(&mut self, v: u8) {
        self.push(v);
    }
    #[inline]
    fn put_u16(&mut self, v: u16) {
        self.extend_from_slice(&v.to_le_bytes());
    }
    #[inline]
    fn put_u32(&mut self, v: u32) {
        self.extend_from_slice(&v.to_le_bytes());
    }
    #[inline]
    fn put_i32(&mut self, v: i32) {
        self.extend_from_slice(&v.to_le_bytes());
    }
    #[inline]
    fn put_f32(&mut self, v: f32) {
        self.extend_from_slice(&v.to_bits().to_le_bytes());
    }
}
