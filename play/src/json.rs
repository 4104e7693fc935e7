//! A small JSON reader for the metadata lumps (`player_spawn`, `triggers`,
//! `rigid_bodies`): the runtime is `no_std` and needs only to read a few objects, so
//! a full serde stack would be dead weight on the PSP. Strict about syntax, with the
//! byte offset of the first error.

use alloc::string::String;
use alloc::vec::Vec;

#[derive(Debug, Clone, PartialEq)]
pub enum Json {
    Null,
    Bool(bool),
    Number(f64),
    String(String),
    Array(Vec<Json>),
    /// Keys in file order.
    Object(Vec<(String, Json)>),
}

impl Json {
    pub fn parse(text: &str) -> Result<Json, usize> {
        let mut p = Parser {
            b: text.as_bytes(),
            at: 0,
        };
        let v = p.value(0)?;
        p.space();
        if p.at != p.b.len() {
            return Err(p.at);
        }
        Ok(v)
    }

    pub fn get(&self, key: &str) -> Option<&Json> {
        match self {
            Json::Object(fields) => fields.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    pub fn as_f32(&self) -> Option<f32> {
        match self {
            Json::Number(n) if n.is_finite() => Some(*n as f32),
            _ => None,
        }
    }

    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Json::Bool(b) => Some(*b),
            _ => None,
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            Json::String(s) => Some(s),
            _ => None,
        }
    }

    pub fn as_array(&self) -> Option<&[Json]> {
        match self {
            Json::Array(a) => Some(a),
            _ => None,
        }
    }

    /// `[x, y, z]` of finite numbers.
    pub fn as_vec3(&self) -> Option<[f32; 3]> {
        match self.as_array()? {
            [x, y, z] => Some([x.as_f32()?, y.as_f32()?, z.as_f32()?]),
            _ => None,
        }
    }
}

struct Parser<'a> {
    b: &'a [u8],
    at: usize,
}

/// Nesting deeper than this is refused (no stack overflow on hostile files).
const MAX_DEPTH: usize = 64;

impl Parser<'_> {
    fn space(&mut self) {
        while self.at < self.b.len() && matches!(self.b[self.at], b' ' | b'\t' | b'\n' | b'\r') {
            self.at += 1;
        }
    }

    fn eat(&mut self, c: u8) -> Result<(), usize> {
        self.space();
        if self.b.get(self.at) == Some(&c) {
            self.at += 1;
            Ok(())
        } else {
            Err(self.at)
        }
    }

    fn value(&mut self, depth: usize) -> Result<Json, usize> {
        if depth > MAX_DEPTH {
            return Err(self.at);
        }
        self.space();
        match self.b.get(self.at) {
            Some(b'{') => {
                self.at += 1;
                let mut fields = Vec::new();
                self.space();
                if self.b.get(self.at) == Some(&b'}') {
                    self.at += 1;
                    return Ok(Json::Object(fields));
                }
                loop {
                    self.space();
                    let k = self.string()?;
                    self.eat(b':')?;
                    let v = self.value(depth + 1)?;
                    fields.push((k, v));
                    self.space();
                    match self.b.get(self.at) {
                        Some(b',') => self.at += 1,
                        Some(b'}') => {
                            self.at += 1;
                            return Ok(Json::Object(fields));
                        }
                        _ => return Err(self.at),
                    }
                }
            }
            Some(b'[') => {
                self.at += 1;
                let mut items = Vec::new();
                self.space();
                if self.b.get(self.at) == Some(&b']') {
                    self.at += 1;
                    return Ok(Json::Array(items));
                }
                loop {
                    items.push(self.value(depth + 1)?);
                    self.space();
                    match self.b.get(self.at) {
                        Some(b',') => self.at += 1,
                        Some(b']') => {
                            self.at += 1;
                            return Ok(Json::Array(items));
                        }
                        _ => return Err(self.at),
                    }
                }
            }
            Some(b'"') => Ok(Json::String(self.string()?)),
            Some(b't') => self.word("true", Json::Bool(true)),
            Some(b'f') => self.word("false", Json::Bool(false)),
            Some(b'n') => self.word("null", Json::Null),
            Some(c) if *c == b'-' || c.is_ascii_digit() => self.number(),
            _ => Err(self.at),
        }
    }

    fn word(&mut self, w: &str, v: Json) -> Result<Json, usize> {
        if self.b[self.at..].starts_with(w.as_bytes()) {
            self.at += w.len();
            Ok(v)
        } else {
            Err(self.at)
        }
    }

    fn number(&mut self) -> Result<Json, usize> {
        let start = self.at;
        while self.at < self.b.len()
            && matches!(
                self.b[self.at],
                b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9'
            )
        {
            self.at += 1;
        }
        core::str::from_utf8(&self.b[start..self.at])
            .ok()
            .and_then(|s| s.parse::<f64>().ok())
            .map(Json::Number)
            .ok_or(start)
    }

    fn string(&mut self) -> Result<String, usize> {
        if self.b.get(self.at) != Some(&b'"') {
            return Err(self.at);
        }
        self.at += 1;
        let mut out: Vec<u8> = Vec::new();
        loop {
            match self.b.get(self.at) {
                None => return Err(self.at),
                Some(b'"') => {
                    self.at += 1;
                    return String::from_utf8(out).map_err(|_| self.at);
                }
                Some(b'\\') => {
                    let esc = *self.b.get(self.at + 1).ok_or(self.at)?;
                    self.at += 2;
                    let c = match esc {
                        b'"' => '"',
                        b'\\' => '\\',
                        b'/' => '/',
                        b'b' => '\u{8}',
                        b'f' => '\u{c}',
                        b'n' => '\n',
                        b'r' => '\r',
                        b't' => '\t',
                        b'u' => {
                            let hex = self.b.get(self.at..self.at + 4).ok_or(self.at)?;
                            let code = core::str::from_utf8(hex)
                                .ok()
                                .and_then(|h| u32::from_str_radix(h, 16).ok())
                                .ok_or(self.at)?;
                            self.at += 4;
                            // Surrogate pairs are rare in level metadata: a lone half
                            // becomes U+FFFD rather than an error.
                            char::from_u32(code).unwrap_or('\u{fffd}')
                        }
                        _ => return Err(self.at - 1),
                    };
                    let mut buf = [0u8; 4];
                    out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
                }
                Some(&c) => {
                    out.push(c);
                    self.at += 1;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_exporters_lumps() {
        let t = Json::parse(
            r#"[{"id": "Gate", "event": "on_enter_archway", "bounds_min": [-2, 0, -5.8], "bounds_max": [2.0, 3.5e0, -4.8], "oneshot": true, "note": "caf\u00e9 \"x\""}]"#,
        )
        .expect("valid");
        let first = &t.as_array().expect("array")[0];
        assert_eq!(
            first.get("event").and_then(Json::as_str),
            Some("on_enter_archway")
        );
        assert_eq!(
            first.get("bounds_min").and_then(Json::as_vec3),
            Some([-2.0, 0.0, -5.8])
        );
        assert_eq!(
            first.get("bounds_max").and_then(Json::as_vec3),
            Some([2.0, 3.5, -4.8])
        );
        assert_eq!(first.get("oneshot").and_then(Json::as_bool), Some(true));
        assert_eq!(first.get("note").and_then(Json::as_str), Some("café \"x\""));
    }

    #[test]
    fn refuses_broken_text_with_its_offset() {
        assert_eq!(Json::parse(r#"{"a": }"#), Err(6));
        assert_eq!(Json::parse("[1, 2"), Err(5));
        assert_eq!(Json::parse("[1] x"), Err(4));
        assert!(Json::parse(&"[".repeat(200)).is_err());
        assert!(Json::parse(r#""\q""#).is_err());
    }
}
