//! Hints: the action the strongest practical bot ([`HINT_BOT`]) would take from a seat's view,
//! with a short reason in English and Chinese.
//!
//! The reason is built from the position and the bot's choice, never canned: its kind says which
//! situation holds (a top card led, a capture, a slough while a fellow player wins the trick, a
//! multi-card lead of top cards, …) and its words name the cards and the facts behind it — the
//! tracker's facts of the engines ([`madiao::Tracker`], [`dabaifen::Tracker`]): top cards, unseen
//! cards, voids — and the tricks and points on the table. The bot's search is not explained; the
//! reason says what is true of the move it chose.

use cards::Seat;
use serde::{Deserialize, Serialize};

use crate::{Budget, Dabaifen, Madiao, Registry};

/// The bot whose choice a hint is: `pimc`, the strongest bot that plays at tables (see
/// `docs/strength.md`).
pub const HINT_BOT: &str = "pimc";

/// Which situation a reason describes.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ReasonKind {
    // Madiao.
    /// Madiao §4.3: force a redeal.
    RedealForce,
    /// Madiao §4.3: keep the deal.
    RedealKeep,
    /// Lead a top card: nothing unseen can capture it.
    LeadTop,
    /// Lead a card that is not a top card.
    Lead,
    /// Capture with a top card: the trick is sure.
    CaptureTop,
    /// Capture with a card that may still be beaten.
    Capture,
    /// Madiao §5: a face-up card that neither leads nor captures (a discard).
    Discard,
    /// Madiao: slough when no card can capture.
    SloughCannotWin,
    /// Madiao: slough while a fellow player (not the banker) wins the trick.
    SloughFellowWins,
    /// Madiao: slough although a capture was possible, keeping the capturing cards.
    SloughKeep,
    /// Madiao §5: the last trick, which a seat without a trick cannot win.
    LastTrickBarred,
    // Da Bai Fen.
    /// §4: show a trump-rank card.
    Declare,
    /// §4: do not show now.
    Wait,
    /// §6: annul a hand without trumps.
    Annul,
    /// §6: keep the deal.
    KeepDeal,
    /// §7: the burial.
    Bury,
    /// §8: a lead of two or more top cards.
    LeadTops,
    /// Win the trick with a play of the led suit.
    FollowWin,
    /// Win the trick with trumps, being void in the led suit.
    TrumpIn,
    /// The partner is winning the trick.
    PartnerWins,
    /// An opponent is winning the trick and stays so.
    OpponentWins,
    /// The only legal play.
    Forced,
}

impl ReasonKind {
    /// The kind's name on the wire (`lead_top`, `capture`, …).
    pub fn name(self) -> &'static str {
        match self {
            ReasonKind::RedealForce => "redeal_force",
            ReasonKind::RedealKeep => "redeal_keep",
            ReasonKind::LeadTop => "lead_top",
            ReasonKind::Lead => "lead",
            ReasonKind::CaptureTop => "capture_top",
            ReasonKind::Capture => "capture",
            ReasonKind::Discard => "discard",
            ReasonKind::SloughCannotWin => "slough_cannot_win",
            ReasonKind::SloughFellowWins => "slough_fellow_wins",
            ReasonKind::SloughKeep => "slough_keep",
            ReasonKind::LastTrickBarred => "last_trick_barred",
            ReasonKind::Declare => "declare",
            ReasonKind::Wait => "wait",
            ReasonKind::Annul => "annul",
            ReasonKind::KeepDeal => "keep_deal",
            ReasonKind::Bury => "bury",
            ReasonKind::LeadTops => "lead_tops",
            ReasonKind::FollowWin => "follow_win",
            ReasonKind::TrumpIn => "trump_in",
            ReasonKind::PartnerWins => "partner_wins",
            ReasonKind::OpponentWins => "opponent_wins",
            ReasonKind::Forced => "forced",
        }
    }
}

/// Why the hinted action, in words.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Reason {
    /// The situation.
    pub kind: ReasonKind,
    /// The reason in English.
    pub en: String,
    /// The reason in Chinese (简体中文).
    pub zh: String,
}

/// A hinted action and its reason.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hint<A> {
    /// The action the bot would take (one of the legal actions).
    pub action: A,
    /// Why.
    pub reason: Reason,
}

fn reason(kind: ReasonKind, en: String, zh: String) -> Reason {
    Reason { kind, en, zh }
}

fn plural(n: usize, one: &str, many: &str) -> String {
    if n == 1 { format!("1 {one}") } else { format!("{n} {many}") }
}

// ---------------------------------------------------------------------------------------------
// Madiao

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

// ---------------------------------------------------------------------------------------------
// Da Bai Fen

/// A Da Bai Fen card in English: rank and suit symbol (`10♠`, `A♥`), or the joker's name.
fn db_en(c: dabaifen::Card) -> String {
    match (c.rank(), c.suit()) {
        (Some(r), Some(s)) => format!("{}{}", rank_text(r), suit_symbol(s)),
        _ if c.to_string() == "BJ" => "the big joker".into(),
        _ => "the small joker".into(),
    }
}

/// A Da Bai Fen card in Chinese: 黑桃A, 红桃10, 大王, 小王.
fn db_zh(c: dabaifen::Card) -> String {
    match (c.rank(), c.suit()) {
        (Some(r), Some(s)) => format!("{}{}", suit_zh(s), rank_text(r)),
        _ if c.to_string() == "BJ" => "大王".into(),
        _ => "小王".into(),
    }
}

fn rank_text(r: dabaifen::Rank) -> String {
    match r.letter() {
        'T' => "10".into(),
        l => l.to_string(),
    }
}

fn suit_symbol(s: dabaifen::Suit) -> char {
    match s {
        dabaifen::Suit::Spades => '♠',
        dabaifen::Suit::Hearts => '♥',
        dabaifen::Suit::Diamonds => '♦',
        dabaifen::Suit::Clubs => '♣',
    }
}

fn suit_zh(s: dabaifen::Suit) -> &'static str {
    match s {
        dabaifen::Suit::Spades => "黑桃",
        dabaifen::Suit::Hearts => "红桃",
        dabaifen::Suit::Diamonds => "方块",
        dabaifen::Suit::Clubs => "梅花",
    }
}

fn eff_en(s: dabaifen::EffSuit) -> String {
    match s.as_plain() {
        Some(p) => p.name().to_string(),
        None => "trumps".into(),
    }
}

fn eff_zh(s: dabaifen::EffSuit) -> String {
    match s.as_plain() {
        Some(p) => suit_zh(p).to_string(),
        None => "主牌".into(),
    }
}

fn db_list(set: &[dabaifen::Card], f: fn(dabaifen::Card) -> String, sep: &str) -> String {
    set.iter().map(|&c| f(c)).collect::<Vec<_>>().join(sep)
}

fn sorted(view: &dabaifen::View, set: dabaifen::Cards) -> Vec<dabaifen::Card> {
    match view.trump {
        Some(t) => dabaifen::Tables::of(t).sorted(set),
        None => dabaifen::trump::sorted_plain(set),
    }
}

/// The number of trumps among `hand` were `trump` the trumps.
fn trumps_with(hand: &[dabaifen::Card], trump: dabaifen::Trump) -> usize {
    let t = dabaifen::Tables::of(trump);
    hand.iter().filter(|c| t.trumps().contains(**c)).count()
}

/// The reason for `action` from a Da Bai Fen seat's view (the view of the seat to move);
/// `legal` are its legal actions.
pub fn dabaifen_reason(
    view: &dabaifen::View,
    legal: &[dabaifen::Action],
    action: dabaifen::Action,
) -> Reason {
    use dabaifen::{Action, Phase};
    let me = view.seat.or(view.to_move).unwrap_or(view.starter);
    match action {
        Action::Declare(c) => {
            let rank = c.rank().unwrap_or(dabaifen::Rank::Two);
            let suit = c.suit().unwrap_or(dabaifen::Suit::Spades);
            let n = trumps_with(&view.hand, dabaifen::Trump { suit, rank });
            reason(
                ReasonKind::Declare,
                format!(
                    "show {}: with {} as trumps you hold {} of the {} cards drawn",
                    db_en(c),
                    suit.name(),
                    plural(n, "trump", "trumps"),
                    view.hand.len()
                ),
                format!(
                    "亮{}：以{}为主，你手中{}张牌里有{n}张主牌",
                    db_zh(c),
                    suit_zh(suit),
                    view.hand.len()
                ),
            )
        }
        Action::Pass if view.phase == Phase::Drawing => {
            let best = legal
                .iter()
                .filter_map(|a| match a {
                    Action::Declare(c) => {
                        let t = dabaifen::Trump { suit: c.suit()?, rank: c.rank()? };
                        Some((trumps_with(&view.hand, t), *c))
                    }
                    _ => None,
                })
                .max_by_key(|&(n, c)| (n, c.number()));
            match best {
                Some((n, c)) => reason(
                    ReasonKind::Wait,
                    format!(
                        "do not show yet: with {} you would hold only {} of {} cards; you may show later",
                        db_en(c),
                        plural(n, "trump", "trumps"),
                        view.hand.len()
                    ),
                    format!("先不亮：亮{}只有{n}张主牌（共{}张），以后还能亮", db_zh(c), view.hand.len()),
                ),
                None => reason(
                    ReasonKind::Wait,
                    "pass: you hold no card of the trump rank to show".into(),
                    "不亮：你没有可亮的级牌".into(),
                ),
            }
        }
        Action::Annul => reason(
            ReasonKind::Annul,
            "annul the deal: none of your 12 cards is a trump (§6)".into(),
            "亮牌作废：你的12张牌里没有一张主牌（§6）".into(),
        ),
        Action::Pass => {
            let n = view.trump.map_or(0, |t| trumps_with(&view.hand, t));
            reason(
                ReasonKind::KeepDeal,
                format!("keep the deal: you hold {}", plural(n, "trump", "trumps")),
                format!("不作废：你有{n}张主牌"),
            )
        }
        Action::Bury(set) => {
            let buried = sorted(view, set);
            let points = dabaifen::card::points(set);
            let keep: dabaifen::Cards = view.hand.iter().copied().filter(|c| !set.contains(*c)).collect();
            let (trumps_kept, voids_en, voids_zh) = match view.trump {
                Some(tr) => {
                    let t = dabaifen::Tables::of(tr);
                    let voids: Vec<dabaifen::Suit> = dabaifen::Suit::ALL
                        .into_iter()
                        .filter(|&s| {
                            let suit = t.cards_of(dabaifen::EffSuit::plain(s));
                            !suit.is_empty() && (keep & suit).is_empty()
                        })
                        .collect();
                    (
                        (keep & t.trumps()).len(),
                        voids.iter().map(|s| s.name()).collect::<Vec<_>>().join(", "),
                        voids.iter().map(|&s| suit_zh(s)).collect::<Vec<_>>().join("、"),
                    )
                }
                None => (0, String::new(), String::new()),
            };
            let void_en =
                if voids_en.is_empty() { String::new() } else { format!(", and you have no {voids_en}") };
            let void_zh =
                if voids_zh.is_empty() { String::new() } else { format!("，并且{voids_zh}已绝门") };
            reason(
                ReasonKind::Bury,
                format!(
                    "bury {}: {points} points go under (counted twice if the defenders take the last trick); you keep {}{void_en}",
                    db_list(&buried, db_en, " "),
                    plural(trumps_kept as usize, "trump", "trumps")
                ),
                format!(
                    "埋底{}：底牌{points}分（守方得末墩则加倍）；你留{}张主牌{void_zh}",
                    db_list(&buried, db_zh, " "),
                    trumps_kept
                ),
            )
        }
        Action::Play(set) => db_play_reason(view, legal, me, set),
    }
}

fn db_play_reason(
    view: &dabaifen::View,
    legal: &[dabaifen::Action],
    me: Seat,
    set: dabaifen::Cards,
) -> Reason {
    use dabaifen::track::{leading_with, points_in_trick};
    let Some(trump) = view.trump else {
        return reason(ReasonKind::Forced, "play".into(), "出牌".into());
    };
    let t = dabaifen::Tables::of(trump);
    let tracker = dabaifen::Tracker::from_view(view);
    let cards = t.sorted(set);
    let en = db_list(&cards, db_en, " ");
    let zh = db_list(&cards, db_zh, " ");
    let Some(&first) = cards.first() else {
        return reason(ReasonKind::Forced, "play".into(), "出牌".into());
    };
    let suit = t.suit_of(first);
    let partner = me.offset(2);
    let in_progress = view.tricks.last().is_some_and(|tr| tr.winner.is_none() && !tr.plays.is_empty());
    if !in_progress {
        let is_top = |c: &dabaifen::Card| tracker.as_ref().is_some_and(|k| k.is_top(*c));
        if cards.len() >= 2 {
            return reason(
                ReasonKind::LeadTops,
                format!(
                    "lead the top {} {en} together: no other player can hold a stronger one (§8)",
                    eff_en(suit)
                ),
                format!("甩{zh}：这些{}都是大牌，别人没有更大的（§8）", eff_zh(suit)),
            );
        }
        if is_top(&first) {
            return reason(
                ReasonKind::LeadTop,
                format!("lead {en}: nobody can hold a stronger card of {}", eff_en(suit)),
                format!("出{zh}：{}中没有人有比它更大的牌", eff_zh(suit)),
            );
        }
        let stronger =
            tracker.as_ref().map_or(0, |k| k.unseen().iter().filter(|u| t.beats(**u, first)).count());
        let partner_void = tracker.as_ref().is_some_and(|k| {
            k.voids.iter().any(|v| v.seat == partner && v.suit == dabaifen::track::suit_name(suit))
        }) && suit != dabaifen::EffSuit::TRUMPS;
        let (pv_en, pv_zh) = if partner_void {
            (
                format!("; your partner has no {} and may trump it", eff_en(suit)),
                format!("；对家{}已绝门，可以毙", eff_zh(suit)),
            )
        } else {
            (String::new(), String::new())
        };
        return reason(
            ReasonKind::Lead,
            format!(
                "lead {en}: {} of {} {} still out{pv_en}",
                plural(stronger, "stronger card", "stronger cards"),
                eff_en(suit),
                if stronger == 1 { "is" } else { "are" }
            ),
            format!("出{zh}：{}中还有{stronger}张更大的牌未出{pv_zh}", eff_zh(suit)),
        );
    }
    let points_now = points_in_trick(view);
    let mine = dabaifen::card::points(set);
    let total = points_now + mine;
    if legal.len() == 1 {
        return reason(
            ReasonKind::Forced,
            format!("play {en}: it is your only legal play"),
            format!("出{zh}：这是你唯一合规的出法"),
        );
    }
    let leader = leading_with(view, set);
    let led = view
        .tricks
        .last()
        .and_then(|tr| tr.plays.first())
        .and_then(|p| p.cards.first())
        .map(|&c| t.suit_of(c))
        .unwrap_or(suit);
    if leader == Some(me) {
        if led != dabaifen::EffSuit::TRUMPS && (set & t.trumps()) == set {
            return reason(
                ReasonKind::TrumpIn,
                format!("trump with {en}: you have no {}, and the trick holds {total} points", eff_en(led)),
                format!("用{zh}毙：你{}已绝门，这一墩有{total}分", eff_zh(led)),
            );
        }
        return reason(
            ReasonKind::FollowWin,
            format!("win the trick with {en}: it holds {total} points"),
            format!("用{zh}赢这一墩：墩里有{total}分"),
        );
    }
    if leader == Some(partner) {
        let (give_en, give_zh) = if mine > 0 {
            (format!("give it {mine} points with {en}"), format!("出{zh}送上{mine}分"))
        } else {
            (format!("play {en} and keep your stronger cards"), format!("出{zh}，留住大牌"))
        };
        return reason(
            ReasonKind::PartnerWins,
            format!("your partner is winning the trick: {give_en}"),
            format!("对家正赢这一墩：{give_zh}"),
        );
    }
    let could_win = legal.iter().any(|a| match a {
        dabaifen::Action::Play(s) => leading_with(view, *s) == Some(me),
        _ => false,
    });
    let w = leader.map_or(0, |s| s.number());
    let (why_en, why_zh) = if could_win {
        ("winning it is not worth your stronger cards".to_string(), "不值得用大牌去赢".to_string())
    } else {
        ("you cannot beat it".to_string(), "你赢不了".to_string())
    };
    reason(
        ReasonKind::OpponentWins,
        format!(
            "play {en}: seat {w}, an opponent, is winning the trick and {why_en}; you give {mine} points"
        ),
        format!("出{zh}：对手{w}号座正赢这一墩，{why_zh}；送出{mine}分"),
    )
}

/// The hint for the seat to move in a Da Bai Fen view: the choice of [`HINT_BOT`] among `legal`
/// (seeded, with `budget`) and its reason. `None` when `legal` is empty.
pub fn dabaifen_hint(
    view: &dabaifen::View,
    legal: &[dabaifen::Action],
    seed: u64,
    budget: Budget,
) -> Option<Hint<dabaifen::Action>> {
    if legal.is_empty() {
        return None;
    }
    let mut bot = Dabaifen::bot(HINT_BOT, seed, budget).ok()?;
    let action = bot.choose(view, legal);
    Some(Hint { action, reason: dabaifen_reason(view, legal, action) })
}

/// A game that gives hints: [`madiao_hint`] or [`dabaifen_hint`] by the game's type.
pub trait Hinted: crate::Game {
    /// The hint for the seat to move whose view is `view`, among `legal` (see [`madiao_hint`]).
    fn hint(
        view: &Self::View,
        legal: &[Self::Action],
        seed: u64,
        budget: Budget,
    ) -> Option<Hint<Self::Action>>;
}

impl Hinted for Madiao {
    fn hint(
        view: &madiao::View,
        legal: &[madiao::Action],
        seed: u64,
        budget: Budget,
    ) -> Option<Hint<madiao::Action>> {
        madiao_hint(view, legal, seed, budget)
    }
}

impl Hinted for Dabaifen {
    fn hint(
        view: &dabaifen::View,
        legal: &[dabaifen::Action],
        seed: u64,
        budget: Budget,
    ) -> Option<Hint<dabaifen::Action>> {
        dabaifen_hint(view, legal, seed, budget)
    }
}
