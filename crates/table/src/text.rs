//! What a person may write: guest names, table names and chat lines all pass [`check_text`].
//!
//! The rules, by [`TextKind`]:
//! - the text is trimmed of white space (after stripping, for chat) and must then have 1 to `max`
//!   characters;
//! - control characters (line breaks, tabs, escapes) are refused everywhere;
//! - format characters (Unicode category Cf: bidi overrides and isolates such as U+202E, the BOM
//!   U+FEFF, zero-width spaces and joiners, soft hyphens, tag characters…) are **refused** in names
//!   (a name must read as it is stored) and **stripped** from chat lines;
//! - the text must hold at least one visible character: a name or line made only of white space,
//!   format characters, fillers (U+3164, U+2800…), variation selectors or lone combining marks is
//!   refused;
//! - a person's name may not begin with a reserved prefix (`bot:`, which the records' `players`
//!   use for bots), compared without case and ignoring white space, so that a record can always
//!   tell a person from a bot.

/// What a text is for: the rules differ a little (see the module's documentation).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum TextKind {
    /// A person's name: no reserved prefix, format characters refused.
    PersonName,
    /// A table's name: format characters refused.
    TableName,
    /// A chat line: format characters stripped.
    Chat,
}

impl TextKind {
    /// What the text is called in messages.
    pub fn what(self) -> &'static str {
        match self {
            TextKind::PersonName => "a name",
            TextKind::TableName => "a table name",
            TextKind::Chat => "a chat line",
        }
    }
}

/// Why a text is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TextError {
    /// Too short or too long (after trimming and stripping).
    #[error("{what} must have 1 to {max} characters, not {len}")]
    Length {
        /// What the text is (`"a name"`, `"a table name"`, `"a chat line"`).
        what: &'static str,
        /// The most characters it may have.
        max: usize,
        /// How many it has.
        len: usize,
    },
    /// A control character (a line break, a tab, an escape…).
    #[error("{what} cannot hold control characters (line breaks, tabs…)")]
    Control {
        /// What the text is (`"a name"`, `"a table name"`, `"a chat line"`).
        what: &'static str,
    },
    /// A format character (Unicode category Cf) in a name.
    #[error(
        "{what} cannot hold invisible format characters such as U+{code:04X} (bidi overrides, BOM, zero-width characters)"
    )]
    Format {
        /// What the text is (`"a name"`, `"a table name"`, `"a chat line"`).
        what: &'static str,
        /// The code point of the format character found.
        code: u32,
    },
    /// Nothing visible: only spaces, fillers or marks.
    #[error("{what} must have at least one visible character")]
    Invisible {
        /// What the text is (`"a name"`, `"a table name"`, `"a chat line"`).
        what: &'static str,
    },
    /// A prefix the server keeps for names that are not persons'.
    #[error("{what} cannot begin with {prefix:?}: that is how bots are named")]
    Reserved {
        /// What the text is (`"a name"`, `"a table name"`, `"a chat line"`).
        what: &'static str,
        /// The prefix it begins with (bots' names begin with it).
        prefix: &'static str,
    },
}

/// The prefixes of names that are not persons' (compared in lower case, without white space).
pub const RESERVED_PREFIXES: &[&str] = &["bot:", "bot\u{ff1a}"];

/// True for a format character (Unicode general category Cf, as of Unicode 15.1).
pub fn is_format(c: char) -> bool {
    matches!(c as u32,
        0x00AD
        | 0x0600..=0x0605
        | 0x061C
        | 0x06DD
        | 0x070F
        | 0x0890..=0x0891
        | 0x08E2
        | 0x180E
        | 0x200B..=0x200F
        | 0x202A..=0x202E
        | 0x2060..=0x2064
        | 0x2066..=0x206F
        | 0xFEFF
        | 0xFFF9..=0xFFFB
        | 0x110BD
        | 0x110CD
        | 0x13430..=0x1343F
        | 0x1BCA0..=0x1BCA3
        | 0x1D173..=0x1D17A
        | 0xE0001
        | 0xE0020..=0xE007F)
}

/// True for a character that shows nothing by itself: white space, controls, format characters,
/// the fillers that render blank, variation selectors and combining marks.
pub fn is_invisible(c: char) -> bool {
    c.is_whitespace()
        || c.is_control()
        || is_format(c)
        || matches!(c as u32,
            0x034F                     // combining grapheme joiner
            | 0x115F | 0x1160          // Hangul choseong/jungseong fillers
            | 0x3164 | 0xFFA0          // Hangul fillers
            | 0x2800                   // braille blank
            | 0x17B4 | 0x17B5          // Khmer inherent vowels
            | 0x0300..=0x036F          // combining diacritical marks
            | 0x1AB0..=0x1AFF
            | 0x1DC0..=0x1DFF
            | 0x20D0..=0x20FF
            | 0xFE20..=0xFE2F
            | 0xFE00..=0xFE0F          // variation selectors
            | 0xE0100..=0xE01EF
            | 0xFFFC)
}

/// Checks (and for chat, cleans) what a person wrote, by the rules of `kind` (see the module's
/// documentation); `max` is the most characters it may have. Returns the text as it is stored.
pub fn check_text(kind: TextKind, text: &str, max: usize) -> Result<String, TextError> {
    let what = kind.what();
    let text = text.trim();
    let cleaned: String = match kind {
        TextKind::Chat => text.chars().filter(|c| !is_format(*c)).collect(),
        TextKind::PersonName | TextKind::TableName => {
            if let Some(c) = text.chars().find(|c| is_format(*c)) {
                return Err(TextError::Format { what, code: c as u32 });
            }
            text.to_string()
        }
    };
    let cleaned = cleaned.trim();
    if cleaned.chars().any(char::is_control) {
        return Err(TextError::Control { what });
    }
    let len = cleaned.chars().count();
    if len == 0 || len > max {
        return Err(TextError::Length { what, max, len });
    }
    if cleaned.chars().all(is_invisible) {
        return Err(TextError::Invisible { what });
    }
    if kind == TextKind::PersonName {
        let squeezed: String =
            cleaned.chars().filter(|c| !is_invisible(*c)).flat_map(char::to_lowercase).collect();
        if let Some(prefix) = RESERVED_PREFIXES.iter().find(|p| squeezed.starts_with(**p)) {
            return Err(TextError::Reserved { what, prefix });
        }
    }
    Ok(cleaned.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_of_people_are_checked() {
        let name = |s: &str| check_text(TextKind::PersonName, s, 24);
        assert_eq!(name("  Ann 安 "), Ok("Ann 安".to_string()));
        assert_eq!(name("Zoë"), Ok("Zoë".to_string()));
        for bad in [
            "bot:heuristic",
            "BOT:random",
            " Bot : x",
            "bot\u{ff1a}x",
            "\u{202E}",
            "\u{FEFF}",
            "\u{200B}\u{200B}",
        ] {
            assert!(name(bad).is_err(), "{bad:?} is accepted");
        }
        assert!(matches!(name("\u{202E}nnA"), Err(TextError::Format { code: 0x202E, .. })));
        assert!(matches!(name("\u{3164}"), Err(TextError::Invisible { .. })));
        assert!(matches!(name("\u{2800}\u{0301}"), Err(TextError::Invisible { .. })));
        assert!(matches!(name("a\nb"), Err(TextError::Control { .. })));
        assert!(matches!(name(""), Err(TextError::Length { len: 0, .. })));
        // A bot's name is fine inside a name, and a table may be called anything visible.
        assert!(name("robot:x").is_ok());
        assert!(check_text(TextKind::TableName, "bot: practice", 60).is_ok());
    }

    #[test]
    fn chat_lines_lose_format_characters() {
        let chat = |s: &str| check_text(TextKind::Chat, s, 500);
        assert_eq!(chat("hi \u{202E}there\u{202C}"), Ok("hi there".to_string()));
        assert_eq!(chat("\u{FEFF}ok"), Ok("ok".to_string()));
        assert!(matches!(chat("\u{202E}\u{200B}"), Err(TextError::Length { len: 0, .. })));
        assert!(matches!(chat(" \u{3000}\u{3164} "), Err(TextError::Invisible { .. })));
        assert!(matches!(chat("a\tb"), Err(TextError::Control { .. })));
    }
}
