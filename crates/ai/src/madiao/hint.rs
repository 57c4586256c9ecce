//! Madiao's hints ([`crate::hint`]): the reason for the bot's choice from the seat's view, in
//! English and Chinese (docs/rules/madiao.md for the rules it names).

use cards::Seat;

use crate::hint::model::{HINT_BOT, Hint, Reason, ReasonKind, plural, reason};
use crate::{Budget, Madiao, Registry};

const DIGITS: [&str; 10] = ["〇", "一", "二", "三", "四", "五", "六", "七", "八", "九"];

/// A Madiao card in English words, with its printed Chinese name: "9 myriads 九萬".
fn md_en(c: madiao::Card) -> String {
    format!("{} {}", c.name(), md_printed(c))
}

/// A Madiao card's name in simplified characters, for Chinese running text (九万, 空没文): the
/// traditional forms are the card faces'.
fn md_zh(c: madiao::Card) -> String {
    md_printed(c).replace('萬', "万").replace('沒', "没")
}

/// A Madiao card's printed Chinese name (九萬, 萬萬, 空沒文, …).
fn md_printed(c: madiao::Card) -> String {
    let code = c.code();
    let v = &code[1..];
    let digit = |d: &str| d.parse::<usize>().map_or("", |n| DIGITS[n % 10]);
    match (&code[..1], v) {
        ("T", "W") => "萬萬".into(),
        ("T", "Q") => "千萬".into(),
        ("T", "B") => "百萬".into(),
        ("T", d) => format!("{}十萬", digit(d)),
        ("W", "0") => "空沒文".into(),
        ("W", "H") => "半文".into(),
        ("W", d) => format!("{}文", digit(d)),
        ("M", d) => format!("{}萬", digit(d)),
        (_, d) => format!("{}索", digit(d)),
    }
}

fn md_suit_zh(s: madiao::Suit) -> &'static str {
    match s {
        madiao::Suit::Tens => "十",
        madiao::Suit::Myriads => "万",
        madiao::Suit::Strings => "索",
        madiao::Suit::Cash => "文",
    }
}

/// What the seat to move in a Madiao view would be told about the banker and its own tricks.
fn md_context(view: &madiao::View, me: Seat) -> (String, String) {
    let banker = view.banker;
    let bt = usize::from(view.tricks_won[banker]);
    let mine = usize::from(view.tricks_won[me]);
    if me != banker && bt < 2 {
        if bt == 0 {
            ("the banker has not yet taken a trick".into(), "庄家尚未得墩".into())
        } else {
            (
                "the banker has taken only 1 trick (under 2 he pays)".into(),
                "庄家只得一墩（不足两墩要输）".into(),
            )
        }
    } else if mine < 2 {
        (
            format!("you have taken {}; 2 make the minimum", plural(mine, "trick", "tricks")),
            format!("你已得{}墩，两墩才够本", mine),
        )
    } else {
        (format!("you have taken {} already", plural(mine, "trick", "tricks")), format!("你已得{}墩", mine))
    }
}

/// The reason for `action` from a Madiao seat's view (the view of the seat to move).
pub fn madiao_reason(view: &madiao::View, action: madiao::Action) -> Reason {
    use madiao::Action;
    let me = view.seat.or(view.to_move).unwrap_or(view.banker);
    let tracker = madiao::Tracker::from_view(view);
    let unseen = tracker.unseen();
    let higher_unseen = |c: madiao::Card| unseen.iter().filter(|u| u.suit() == c.suit() && **u > c).count();
    let current = view.tricks.last().filter(|t| t.winner.is_none() && !t.plays.is_empty());
    let (ctx_en, ctx_zh) = md_context(view, me);
    match action {
        Action::Redeal(force) => {
            let tops = tracker.top.len();
            let long: Vec<madiao::Suit> = madiao::Suit::ALL
                .into_iter()
                .filter(|s| view.hand.iter().filter(|c| c.suit() == *s).count() >= 5)
                .collect();
            let suit_en = long.iter().map(|s| s.name()).collect::<Vec<_>>().join(", ");
            let suit_zh = long.iter().map(|s| md_suit_zh(*s)).collect::<Vec<_>>().join("、");
            if force {
                reason(
                    ReasonKind::RedealForce,
                    format!(
                        "force a redeal: your long suit ({suit_en}) leaves you only {} that nothing unseen can beat",
                        plural(tops, "card", "cards")
                    ),
                    format!("要求重发：你虽有长门（{suit_zh}），却只有{tops}张牌无人能捉"),
                )
            } else {
                reason(
                    ReasonKind::RedealKeep,
                    format!(
                        "keep this deal: besides your long suit ({suit_en}) you hold {} that nothing unseen can beat",
                        plural(tops, "card", "cards")
                    ),
                    format!("不必重发：你有长门（{suit_zh}），且有{tops}张牌无人能捉"),
                )
            }
        }
        Action::Play(c) | Action::Slough(c)
            if view.tricks.len() == 8 && view.tricks_won[me] == 0 && current.is_some() =>
        {
            let how = if matches!(action, Action::Slough(_)) { "slough" } else { "play" };
            reason(
                ReasonKind::LastTrickBarred,
                format!("{how} {}: you have taken no trick, so you cannot win the last one (§5)", md_en(c)),
                format!("出{}：你一墩未得，末墩不能赢（§5）", md_zh(c)),
            )
        }
        Action::Play(c) if current.is_none() => {
            if tracker.is_top(c) {
                reason(
                    ReasonKind::LeadTop,
                    format!("lead {}: no card you have not seen can capture it; {ctx_en}", md_en(c)),
                    format!("出{}：未见的牌中无一能捉它；{ctx_zh}", md_zh(c)),
                )
            } else {
                let n = higher_unseen(c);
                reason(
                    ReasonKind::Lead,
                    format!(
                        "lead {}: {} of its suit {} unseen, so it may be captured; {ctx_en}",
                        md_en(c),
                        plural(n, "higher card", "higher cards"),
                        if n == 1 { "is" } else { "are" }
                    ),
                    format!("出{}：同门尚有{n}张更大的牌未见，可能被捉；{ctx_zh}", md_zh(c)),
                )
            }
        }
        Action::Play(c) if view.captures.contains(&c) => {
            let best = current.and_then(|t| t.best);
            let leading = current.and_then(|t| t.leading);
            let beats_en = best.map_or(String::new(), |b| format!(", beating {}", md_en(b)));
            let beats_zh = best.map_or(String::new(), |b| format!("，压过{}", md_zh(b)));
            let (why_en, why_zh) = if leading == Some(view.banker) && me != view.banker {
                (format!("it takes the trick from the banker; {ctx_en}"), format!("从庄家手中夺墩；{ctx_zh}"))
            } else {
                (ctx_en, ctx_zh)
            };
            if tracker.is_top(c) {
                reason(
                    ReasonKind::CaptureTop,
                    format!("capture with {}{beats_en}: nothing unseen can beat it, {why_en}", md_en(c)),
                    format!("用{}捉{beats_zh}：未见的牌中无一能压它，{why_zh}", md_zh(c)),
                )
            } else {
                let n = higher_unseen(c);
                reason(
                    ReasonKind::Capture,
                    format!(
                        "capture with {}{beats_en}: {why_en} ({} of its suit still unseen)",
                        md_en(c),
                        plural(n, "higher card", "higher cards")
                    ),
                    format!("用{}捉{beats_zh}：{why_zh}（同门尚有{n}张更大的牌未见）", md_zh(c)),
                )
            }
        }
        Action::Play(c) => reason(
            ReasonKind::Discard,
            format!(
                "play {} face up: it cannot capture, and showing it is worth the discard's cost",
                md_en(c)
            ),
            format!("明弃{}：它捉不了，明出虽要受罚仍然值得", md_zh(c)),
        ),
        Action::Slough(c) => {
            let best = current.and_then(|t| t.best);
            let leading = current.and_then(|t| t.leading);
            let best_en = best.map_or("the card led".to_string(), md_en);
            let best_zh = best.map_or("所出之牌".to_string(), md_zh);
            if view.captures.is_empty() {
                reason(
                    ReasonKind::SloughCannotWin,
                    format!("slough {} face down: none of your cards can capture {best_en}", md_en(c)),
                    format!("灭{}：你没有牌能捉{best_zh}", md_zh(c)),
                )
            } else if let Some(w) = leading.filter(|&w| me != view.banker && w != view.banker && w != me) {
                reason(
                    ReasonKind::SloughFellowWins,
                    format!(
                        "slough {} face down: seat {}, a player against the banker like you, is winning the trick with {best_en}",
                        md_en(c),
                        w.number()
                    ),
                    format!("灭{}：{}号座与你同为闲家，正以{best_zh}领先", md_zh(c), w.number()),
                )
            } else {
                let mut capturing = view.captures.clone();
                capturing.sort_by(|a, b| b.cmp(a));
                let keep: Vec<String> = capturing.iter().map(|&k| md_en(k)).collect();
                let keep_zh: Vec<String> = capturing.iter().map(|&k| md_zh(k)).collect();
                let them = if keep.len() == 1 { "it" } else { "them" };
                reason(
                    ReasonKind::SloughKeep,
                    format!(
                        "slough {} face down: keep {} for a later trick rather than spend {them} on {best_en}; {ctx_en}",
                        md_en(c),
                        keep.join(", ")
                    ),
                    format!(
                        "灭{}：留着{}以后再用，不必在{best_zh}上花掉；{ctx_zh}",
                        md_zh(c),
                        keep_zh.join("、")
                    ),
                )
            }
        }
    }
}

/// A Madiao action in English words with the cards' names (`play 9 myriads 九萬`, `slough 3 cash
/// 三文`, `force a redeal`, `decline a redeal`), for the analysis's reasons.
pub(crate) fn action_en(action: madiao::Action) -> String {
    match action {
        madiao::Action::Play(c) => format!("play {}", md_en(c)),
        madiao::Action::Slough(c) => format!("slough {}", md_en(c)),
        other => other.to_string(),
    }
}

/// A Madiao action in Chinese words (出九万, 灭三文, 要求重发, 不重发), for the analysis's reasons.
pub(crate) fn action_zh(action: madiao::Action) -> String {
    match action {
        madiao::Action::Play(c) => format!("出{}", md_zh(c)),
        madiao::Action::Slough(c) => format!("灭{}", md_zh(c)),
        madiao::Action::Redeal(true) => "要求重发".into(),
        madiao::Action::Redeal(false) => "不重发".into(),
    }
}

/// The hint for the seat to move in a Madiao view: the choice of [`HINT_BOT`] among `legal`
/// (seeded, with `budget`) and its reason. `None` when `legal` is empty.
pub fn madiao_hint(
    view: &madiao::View,
    legal: &[madiao::Action],
    seed: u64,
    budget: Budget,
) -> Option<Hint<madiao::Action>> {
    if legal.is_empty() {
        return None;
    }
    let mut bot = Madiao::bot(HINT_BOT, seed, budget).ok()?;
    let action = bot.choose(view, legal);
    Some(Hint { action, reason: madiao_reason(view, action) })
}
