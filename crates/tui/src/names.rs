//! How cards are shown: the ASCII code always, Madiao's Chinese names (九索, 萬萬, 空沒文…), the
//! colour of a card, and reading a code the player types.

use cards::record::GameKind;

/// The Chinese digits one to nine.
const DIGITS: [&str; 9] = ["一", "二", "三", "四", "五", "六", "七", "八", "九"];

/// The Chinese name of a Madiao card by its code (`S9` → 九索, `TW` → 萬萬, `W0` → 空沒文,
/// `T3` → 三十萬), or `None` for a code that is not a Madiao card.
pub fn madiao_name(code: &str) -> Option<String> {
    let mut it = code.chars();
    let (suit, rank) = (it.next()?, it.next()?);
    if it.next().is_some() {
        return None;
    }
    let digit = |r: char| r.to_digit(10).filter(|d| (1..=9).contains(d)).map(|d| DIGITS[d as usize - 1]);
    Some(match (suit, rank) {
        ('T', 'W') => "萬萬".to_string(),
        ('T', 'Q') => "千萬".to_string(),
        ('T', 'B') => "百萬".to_string(),
        ('T', r) if ('2'..='9').contains(&r) => format!("{}十萬", digit(r)?),
        ('M', r) => format!("{}萬", digit(r)?),
        ('S', r) => format!("{}索", digit(r)?),
        ('W', '0') => "空沒文".to_string(),
        ('W', 'H') => "半文".to_string(),
        ('W', r) => format!("{}文", digit(r)?),
        _ => return None,
    })
}

/// The figure drawn on a Madiao card in a deck that draws the zero cash as `zero_cash`
/// (`docs/rules/madiao.md` §1), in words: "武松 Wu Song, a hero of the Water Margin", "an unnamed
/// figure"; `None` for a card without a figure or a code that is not a Madiao card.
pub fn madiao_figure(code: &str, zero_cash: madiao::ZeroCash) -> Option<String> {
    let card = code.parse::<madiao::Card>().ok()?;
    let figure = madiao::figure(card, zero_cash)?;
    Some(match figure.hero {
        Some(h) => format!("{} {}, a hero of the Water Margin", h.name, h.reading),
        None => "an unnamed figure".to_string(),
    })
}

/// The Chinese name of a Madiao suit letter.
pub fn madiao_suit_name(letter: char) -> &'static str {
    match letter {
        'T' => "十 tens",
        'M' => "萬 myriads",
        'S' => "索 strings",
        'W' => "文 cash",
        _ => "?",
    }
}

/// The symbol of a Da Bai Fen suit letter.
pub fn suit_symbol(letter: char) -> &'static str {
    match letter {
        'S' => "♠",
        'H' => "♥",
        'D' => "♦",
        'C' => "♣",
        _ => "",
    }
}

/// The English name of a Da Bai Fen suit letter.
pub fn suit_name(letter: char) -> &'static str {
    match letter {
        'S' => "spades",
        'H' => "hearts",
        'D' => "diamonds",
        'C' => "clubs",
        _ => "?",
    }
}

/// True when a card is printed red: Madiao's ten red cards (§1), Da Bai Fen's hearts, diamonds and
/// the big joker.
pub fn is_red(game: GameKind, code: &str) -> bool {
    match game {
        GameKind::Madiao => code.parse::<madiao::Card>().is_ok_and(|c| c.is_red()),
        GameKind::Dabaifen => code == "BJ" || code.ends_with('H') || code.ends_with('D'),
    }
}

/// A card code as a player types it, made canonical: upper case, and for Da Bai Fen `10` read as
/// `T` (`10h` → `TH`). `None` when it is no card of the game.
pub fn parse_typed(game: GameKind, typed: &str) -> Option<String> {
    let up = typed.trim().to_ascii_uppercase();
    let up = match game {
        GameKind::Dabaifen if up.starts_with("10") => format!("T{}", &up[2..]),
        _ => up,
    };
    let ok = match game {
        GameKind::Madiao => up.parse::<madiao::Card>().is_ok(),
        GameKind::Dabaifen => up.parse::<dabaifen::Card>().is_ok(),
    };
    ok.then_some(up)
}

/// True when `typed` may still become a card code of the game by typing more (`S` for Madiao,
/// `1` or `10` for Da Bai Fen).
pub fn is_code_prefix(game: GameKind, typed: &str) -> bool {
    let up = typed.to_ascii_uppercase();
    if up.is_empty() {
        return false;
    }
    match game {
        GameKind::Madiao => madiao::Card::all().any(|c| c.code().starts_with(&up)),
        GameKind::Dabaifen => {
            up == "1"
                || up == "10"
                || dabaifen::Card::all().any(|c| c.to_string().starts_with(&up))
                || (up.starts_with("10")
                    && dabaifen::Card::all().any(|c| c.to_string().starts_with(&format!("T{}", &up[2..]))))
        }
    }
}

/// A card as the hand and the table show it: the code, and for Madiao the Chinese name.
pub fn label(game: GameKind, code: &str) -> String {
    match game {
        GameKind::Madiao => match madiao_name(code) {
            Some(n) => format!("{code} {n}"),
            None => code.to_string(),
        },
        GameKind::Dabaifen => code.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_madiao_card_has_a_chinese_name() {
        let names: Vec<String> = madiao::Card::all().map(|c| madiao_name(c.code()).unwrap()).collect();
        assert_eq!(names.len(), 40);
        let mut unique = names.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), 40, "names repeat: {names:?}");
        assert_eq!(madiao_name("S9").unwrap(), "九索");
        assert_eq!(madiao_name("TW").unwrap(), "萬萬");
        assert_eq!(madiao_name("TQ").unwrap(), "千萬");
        assert_eq!(madiao_name("TB").unwrap(), "百萬");
        assert_eq!(madiao_name("T2").unwrap(), "二十萬");
        assert_eq!(madiao_name("M1").unwrap(), "一萬");
        assert_eq!(madiao_name("W0").unwrap(), "空沒文");
        assert_eq!(madiao_name("WH").unwrap(), "半文");
        assert_eq!(madiao_name("W9").unwrap(), "九文");
        for bad in ["", "S", "S0", "T1", "X9", "S99", "M0"] {
            assert_eq!(madiao_name(bad), None, "{bad}");
        }
    }

    #[test]
    fn typed_codes() {
        assert_eq!(parse_typed(GameKind::Madiao, "s9").as_deref(), Some("S9"));
        assert_eq!(parse_typed(GameKind::Madiao, "wh").as_deref(), Some("WH"));
        assert_eq!(parse_typed(GameKind::Madiao, "AS"), None);
        assert_eq!(parse_typed(GameKind::Dabaifen, "as").as_deref(), Some("AS"));
        assert_eq!(parse_typed(GameKind::Dabaifen, "10h").as_deref(), Some("TH"));
        assert_eq!(parse_typed(GameKind::Dabaifen, "sj").as_deref(), Some("SJ"));
        assert_eq!(parse_typed(GameKind::Dabaifen, "S9"), None);
        assert!(is_code_prefix(GameKind::Madiao, "s"));
        assert!(!is_code_prefix(GameKind::Madiao, "a"));
        assert!(is_code_prefix(GameKind::Dabaifen, "1"));
        assert!(is_code_prefix(GameKind::Dabaifen, "10"));
        assert!(is_code_prefix(GameKind::Dabaifen, "b"));
        assert!(!is_code_prefix(GameKind::Dabaifen, "x"));
        assert!(!is_code_prefix(GameKind::Dabaifen, ""));
    }

    #[test]
    fn red_cards() {
        let red: Vec<&str> =
            madiao::Card::all().map(|c| c.code()).filter(|c| is_red(GameKind::Madiao, c)).collect();
        assert_eq!(red.len(), 10);
        assert!(is_red(GameKind::Dabaifen, "TH") && is_red(GameKind::Dabaifen, "BJ"));
        assert!(!is_red(GameKind::Dabaifen, "AS") && !is_red(GameKind::Dabaifen, "SJ"));
    }
}
