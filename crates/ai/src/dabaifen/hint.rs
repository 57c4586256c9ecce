//! Da Bai Fen's hints ([`crate::hint`]): the reason for the bot's choice from the seat's view, in
//! English and Chinese (docs/rules/dabaifen.md for the rules it names).

use cards::Seat;

use crate::hint::model::{HINT_BOT, Hint, Reason, ReasonKind, plural, reason};
use crate::{Budget, Dabaifen, Registry};

/// A Da Bai Fen card in English: rank and suit symbol (`10♠`, `A♥`), or the joker's name.
pub fn db_en(c: dabaifen::Card) -> String {
    match (c.rank(), c.suit()) {
        (Some(r), Some(s)) => format!("{}{}", rank_text(r), suit_symbol(s)),
        _ if c.to_string() == "BJ" => "the big joker".into(),
        _ => "the small joker".into(),
    }
}

/// A Da Bai Fen card in Chinese: 黑桃A, 红桃10, 大王, 小王.
pub fn db_zh(c: dabaifen::Card) -> String {
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

/// A Da Bai Fen action in English words with the cards' symbols (`play Q♠`, `bury 3♠ 5♠ …`,
/// `show 2♥`, `pass`, `annul`), for the analysis's reasons.
pub(crate) fn action_en(view: &dabaifen::View, action: dabaifen::Action) -> String {
    match action {
        dabaifen::Action::Play(set) => format!("play {}", db_list(&sorted(view, set), db_en, " ")),
        dabaifen::Action::Bury(set) => format!("bury {}", db_list(&sorted(view, set), db_en, " ")),
        dabaifen::Action::Declare(c) => format!("show {}", db_en(c)),
        dabaifen::Action::Pass => "pass".into(),
        dabaifen::Action::Annul => "annul".into(),
    }
}

/// A Da Bai Fen action in Chinese words (出黑桃A, 埋底…, 亮…, 不亮, 作废), for the analysis's
/// reasons.
pub(crate) fn action_zh(view: &dabaifen::View, action: dabaifen::Action) -> String {
    match action {
        dabaifen::Action::Play(set) => format!("出{}", db_list(&sorted(view, set), db_zh, "、")),
        dabaifen::Action::Bury(set) => format!("埋底{}", db_list(&sorted(view, set), db_zh, "、")),
        dabaifen::Action::Declare(c) => format!("亮{}", db_zh(c)),
        dabaifen::Action::Pass => "不亮".into(),
        dabaifen::Action::Annul => "作废".into(),
    }
}

/// How a burial `made` differs from a better one `best` of the same hand, in English and
/// Chinese, for the analysis's reason against it: "one card away from the best burial: keep 9♠
/// and bury K♦ instead" (the cards
/// `made` buries that `best` keeps, then those `best` buries instead); `None` when they differ
/// by more than three cards (a list that long says nothing a player can use) or not at all.
pub(crate) fn bury_change(
    view: &dabaifen::View,
    made: dabaifen::Cards,
    best: dabaifen::Cards,
) -> Option<(String, String)> {
    let keep = made - best;
    let bury = best - made;
    if keep.is_empty() || keep.len() > 3 {
        return None;
    }
    let n = keep.len();
    Some((
        format!(
            "{} away from the best burial: keep {} and bury {} instead",
            if n == 1 { "one card".to_string() } else { format!("{n} cards") },
            db_list(&sorted(view, keep), db_en, " "),
            db_list(&sorted(view, bury), db_en, " ")
        ),
        format!(
            "与最佳埋法相差{n}张：留下{}，改埋{}",
            db_list(&sorted(view, keep), db_zh, "、"),
            db_list(&sorted(view, bury), db_zh, "、")
        ),
    ))
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
        // Still out: the unseen cards and the declaration card someone else still holds.
        let held = dabaifen::track::shown_held(view);
        let stronger = tracker
            .as_ref()
            .map_or(0, |k| k.unseen().into_iter().chain(held.iter()).filter(|u| t.beats(*u, first)).count());
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
