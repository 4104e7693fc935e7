//! Keys and shortcuts as the action table and the navigation schemes write them,
//! without a windowing library: the keys a shortcut may use, named as egui names
//! them (the viewport and the shell turn them into egui's own), modifiers, and a
//! shortcut's text ("Ctrl+Shift+S").

/// A key a shortcut can use.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Key {
    ArrowDown,
    ArrowLeft,
    ArrowRight,
    ArrowUp,
    Escape,
    Tab,
    Backspace,
    Enter,
    Insert,
    Delete,
    Home,
    End,
    PageUp,
    PageDown,
    Space,
    Colon,
    Comma,
    Minus,
    Period,
    Plus,
    Equals,
    Semicolon,
    Backslash,
    Slash,
    OpenBracket,
    CloseBracket,
    Backtick,
    Quote,
    Num0,
    Num1,
    Num2,
    Num3,
    Num4,
    Num5,
    Num6,
    Num7,
    Num8,
    Num9,
    A,
    B,
    C,
    D,
    E,
    F,
    G,
    H,
    I,
    J,
    K,
    L,
    M,
    N,
    O,
    P,
    Q,
    R,
    S,
    T,
    U,
    V,
    W,
    X,
    Y,
    Z,
    F1,
    F2,
    F3,
    F4,
    F5,
    F6,
    F7,
    F8,
    F9,
    F10,
    F11,
    F12,
}

impl Key {
    /// Every key, in the order a key list shows them.
    pub const ALL: &[Key] = &[
        Key::ArrowDown,
        Key::ArrowLeft,
        Key::ArrowRight,
        Key::ArrowUp,
        Key::Escape,
        Key::Tab,
        Key::Backspace,
        Key::Enter,
        Key::Insert,
        Key::Delete,
        Key::Home,
        Key::End,
        Key::PageUp,
        Key::PageDown,
        Key::Space,
        Key::Colon,
        Key::Comma,
        Key::Minus,
        Key::Period,
        Key::Plus,
        Key::Equals,
        Key::Semicolon,
        Key::Backslash,
        Key::Slash,
        Key::OpenBracket,
        Key::CloseBracket,
        Key::Backtick,
        Key::Quote,
        Key::Num0,
        Key::Num1,
        Key::Num2,
        Key::Num3,
        Key::Num4,
        Key::Num5,
        Key::Num6,
        Key::Num7,
        Key::Num8,
        Key::Num9,
        Key::A,
        Key::B,
        Key::C,
        Key::D,
        Key::E,
        Key::F,
        Key::G,
        Key::H,
        Key::I,
        Key::J,
        Key::K,
        Key::L,
        Key::M,
        Key::N,
        Key::O,
        Key::P,
        Key::Q,
        Key::R,
        Key::S,
        Key::T,
        Key::U,
        Key::V,
        Key::W,
        Key::X,
        Key::Y,
        Key::Z,
        Key::F1,
        Key::F2,
        Key::F3,
        Key::F4,
        Key::F5,
        Key::F6,
        Key::F7,
        Key::F8,
        Key::F9,
        Key::F10,
        Key::F11,
        Key::F12,
    ];

    /// Its name as the key lists and the schemes' files write it (egui's
    /// `Key::name`: "Down", "Period", "7", "F5").
    pub fn name(self) -> &'static str {
        match self {
            Key::ArrowDown => "Down",
            Key::ArrowLeft => "Left",
            Key::ArrowRight => "Right",
            Key::ArrowUp => "Up",
            Key::Escape => "Escape",
            Key::Tab => "Tab",
            Key::Backspace => "Backspace",
            Key::Enter => "Enter",
            Key::Insert => "Insert",
            Key::Delete => "Delete",
            Key::Home => "Home",
            Key::End => "End",
            Key::PageUp => "PageUp",
            Key::PageDown => "PageDown",
            Key::Space => "Space",
            Key::Colon => "Colon",
            Key::Comma => "Comma",
            Key::Minus => "Minus",
            Key::Period => "Period",
            Key::Plus => "Plus",
            Key::Equals => "Equals",
            Key::Semicolon => "Semicolon",
            Key::Backslash => "Backslash",
            Key::Slash => "Slash",
            Key::OpenBracket => "OpenBracket",
            Key::CloseBracket => "CloseBracket",
            Key::Backtick => "Backtick",
            Key::Quote => "Quote",
            Key::Num0 => "0",
            Key::Num1 => "1",
            Key::Num2 => "2",
            Key::Num3 => "3",
            Key::Num4 => "4",
            Key::Num5 => "5",
            Key::Num6 => "6",
            Key::Num7 => "7",
            Key::Num8 => "8",
            Key::Num9 => "9",
            Key::A => "A",
            Key::B => "B",
            Key::C => "C",
            Key::D => "D",
            Key::E => "E",
            Key::F => "F",
            Key::G => "G",
            Key::H => "H",
            Key::I => "I",
            Key::J => "J",
            Key::K => "K",
            Key::L => "L",
            Key::M => "M",
            Key::N => "N",
            Key::O => "O",
            Key::P => "P",
            Key::Q => "Q",
            Key::R => "R",
            Key::S => "S",
            Key::T => "T",
            Key::U => "U",
            Key::V => "V",
            Key::W => "W",
            Key::X => "X",
            Key::Y => "Y",
            Key::Z => "Z",
            Key::F1 => "F1",
            Key::F2 => "F2",
            Key::F3 => "F3",
            Key::F4 => "F4",
            Key::F5 => "F5",
            Key::F6 => "F6",
            Key::F7 => "F7",
            Key::F8 => "F8",
            Key::F9 => "F9",
            Key::F10 => "F10",
            Key::F11 => "F11",
            Key::F12 => "F12",
        }
    }

    /// The key a name stands for: its own name, a symbol ("." for Period) or the
    /// browser's key code ("Digit7").
    pub fn from_name(name: &str) -> Option<Key> {
        Some(match name {
            "⏷" | "ArrowDown" | "Down" => Key::ArrowDown,
            "⏴" | "ArrowLeft" | "Left" => Key::ArrowLeft,
            "⏵" | "ArrowRight" | "Right" => Key::ArrowRight,
            "⏶" | "ArrowUp" | "Up" => Key::ArrowUp,
            "Escape" | "Esc" => Key::Escape,
            "Tab" => Key::Tab,
            "Backspace" => Key::Backspace,
            "Enter" | "Return" | "NumpadEnter" => Key::Enter,
            "Insert" => Key::Insert,
            "Delete" => Key::Delete,
            "Home" => Key::Home,
            "End" => Key::End,
            "PageUp" => Key::PageUp,
            "PageDown" => Key::PageDown,
            " " | "Space" => Key::Space,
            ":" | "Colon" => Key::Colon,
            "," | "Comma" | "NumpadComma" => Key::Comma,
            "-" | "−" | "Minus" | "NumpadSubtract" => Key::Minus,
            "." | "Period" | "NumpadDecimal" => Key::Period,
            "+" | "Plus" | "NumpadAdd" => Key::Plus,
            "=" | "Equal" | "Equals" | "NumpadEqual" => Key::Equals,
            ";" | "Semicolon" => Key::Semicolon,
            "\\" | "Backslash" => Key::Backslash,
            "/" | "Slash" | "NumpadDivide" => Key::Slash,
            "[" | "OpenBracket" | "BracketLeft" => Key::OpenBracket,
            "]" | "CloseBracket" | "BracketRight" => Key::CloseBracket,
            "`" | "Backtick" | "Backquote" => Key::Backtick,
            "\'" | "Quote" => Key::Quote,
            "0" | "Digit0" | "Numpad0" => Key::Num0,
            "1" | "Digit1" | "Numpad1" => Key::Num1,
            "2" | "Digit2" | "Numpad2" => Key::Num2,
            "3" | "Digit3" | "Numpad3" => Key::Num3,
            "4" | "Digit4" | "Numpad4" => Key::Num4,
            "5" | "Digit5" | "Numpad5" => Key::Num5,
            "6" | "Digit6" | "Numpad6" => Key::Num6,
            "7" | "Digit7" | "Numpad7" => Key::Num7,
            "8" | "Digit8" | "Numpad8" => Key::Num8,
            "9" | "Digit9" | "Numpad9" => Key::Num9,
            "A" | "a" => Key::A,
            "B" | "b" => Key::B,
            "C" | "c" => Key::C,
            "D" | "d" => Key::D,
            "E" | "e" => Key::E,
            "F" | "f" => Key::F,
            "G" | "g" => Key::G,
            "H" | "h" => Key::H,
            "I" | "i" => Key::I,
            "J" | "j" => Key::J,
            "K" | "k" => Key::K,
            "L" | "l" => Key::L,
            "M" | "m" => Key::M,
            "N" | "n" => Key::N,
            "O" | "o" => Key::O,
            "P" | "p" => Key::P,
            "Q" | "q" => Key::Q,
            "R" | "r" => Key::R,
            "S" | "s" => Key::S,
            "T" | "t" => Key::T,
            "U" | "u" => Key::U,
            "V" | "v" => Key::V,
            "W" | "w" => Key::W,
            "X" | "x" => Key::X,
            "Y" | "y" => Key::Y,
            "Z" | "z" => Key::Z,
            "F1" => Key::F1,
            "F2" => Key::F2,
            "F3" => Key::F3,
            "F4" => Key::F4,
            "F5" => Key::F5,
            "F6" => Key::F6,
            "F7" => Key::F7,
            "F8" => Key::F8,
            "F9" => Key::F9,
            "F10" => Key::F10,
            "F11" => Key::F11,
            "F12" => Key::F12,
            _ => return None,
        })
    }

    /// How a menu shows it: a symbol where one reads better.
    pub fn symbol_or_name(self) -> &'static str {
        match self {
            Key::ArrowDown => "⏷",
            Key::ArrowLeft => "⏴",
            Key::ArrowRight => "⏵",
            Key::ArrowUp => "⏶",
            Key::Colon => ":",
            Key::Comma => ",",
            Key::Minus => "−",
            Key::Period => ".",
            Key::Plus => "+",
            Key::Equals => "=",
            Key::Semicolon => ";",
            Key::Backslash => "\\",
            Key::Slash => "/",
            Key::OpenBracket => "[",
            Key::CloseBracket => "]",
            Key::Backtick => "`",
            _ => self.name(),
        }
    }
}

/// The modifiers a shortcut holds. `command` is Ctrl (⌘ on a Mac).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Modifiers {
    pub alt: bool,
    pub command: bool,
    pub shift: bool,
}

impl Modifiers {
    pub const NONE: Modifiers = Modifiers {
        alt: false,
        command: false,
        shift: false,
    };
    pub const ALT: Modifiers = Modifiers {
        alt: true,
        ..Modifiers::NONE
    };
    pub const COMMAND: Modifiers = Modifiers {
        command: true,
        ..Modifiers::NONE
    };
    pub const SHIFT: Modifiers = Modifiers {
        shift: true,
        ..Modifiers::NONE
    };

    /// Both sets held (usable in constants, as `|` is not).
    pub const fn plus(self, other: Modifiers) -> Modifiers {
        Modifiers {
            alt: self.alt || other.alt,
            command: self.command || other.command,
            shift: self.shift || other.shift,
        }
    }

    /// Whether every modifier of `other` is held here too.
    pub fn contains(self, other: Modifiers) -> bool {
        self.plus(other) == self
    }

    pub fn is_none(self) -> bool {
        self == Modifiers::NONE
    }
}

impl std::ops::BitOr for Modifiers {
    type Output = Modifiers;
    fn bitor(self, other: Modifiers) -> Modifiers {
        self.plus(other)
    }
}

impl std::ops::BitOrAssign for Modifiers {
    fn bitor_assign(&mut self, other: Modifiers) {
        *self = *self | other;
    }
}

/// A key with its modifiers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Shortcut {
    pub modifiers: Modifiers,
    pub key: Key,
}

impl Shortcut {
    pub const fn new(modifiers: Modifiers, key: Key) -> Self {
        Self { modifiers, key }
    }

    /// As Help and the menus write it: "Ctrl+Shift+S", "Home", "7".
    pub fn text(&self) -> String {
        let mut text = String::new();
        if self.modifiers.command {
            text.push_str("Ctrl+");
        }
        if self.modifiers.alt {
            text.push_str("Alt+");
        }
        if self.modifiers.shift {
            text.push_str("Shift+");
        }
        text.push_str(self.key.symbol_or_name());
        text
    }

    /// A shortcut as the key list writes it: modifiers joined by `+` before the
    /// key's name ("G", "Shift+A", "Ctrl+Period").
    pub fn parse(text: &str) -> Option<Shortcut> {
        let mut modifiers = Modifiers::NONE;
        let mut parts: Vec<&str> = text.split('+').map(str::trim).collect();
        let key = Key::from_name(parts.pop()?)?;
        for m in parts {
            match m.to_ascii_lowercase().as_str() {
                "ctrl" | "cmd" | "command" => modifiers |= Modifiers::COMMAND,
                "shift" => modifiers |= Modifiers::SHIFT,
                "alt" => modifiers |= Modifiers::ALT,
                _ => return None,
            }
        }
        Some(Shortcut::new(modifiers, key))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_key_is_read_back_from_its_name_and_its_symbol() {
        for &k in Key::ALL {
            assert_eq!(Key::from_name(k.name()), Some(k), "{k:?}");
            assert_eq!(Key::from_name(k.symbol_or_name()), Some(k), "{k:?}");
        }
        assert_eq!(Key::ALL.len(), 76);
    }

    #[test]
    fn shortcuts_are_read_as_written_and_written_as_read() {
        let s = Shortcut::parse("Ctrl+Shift+S").expect("parsed");
        assert_eq!(
            s,
            Shortcut::new(Modifiers::COMMAND | Modifiers::SHIFT, Key::S)
        );
        assert_eq!(s.text(), "Ctrl+Shift+S");
        assert_eq!(Shortcut::parse("alt + period").map(|s| s.key), None);
        assert_eq!(
            Shortcut::parse("Alt+Period"),
            Some(Shortcut::new(Modifiers::ALT, Key::Period))
        );
        assert_eq!(Shortcut::parse("Hyper+A"), None);
        assert_eq!(Shortcut::parse(""), None);
    }
}
