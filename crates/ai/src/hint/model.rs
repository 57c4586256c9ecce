//! What a hint is: the bot's action with a reason in two languages, and the kinds of reason
//! (the [`crate::hint`] module's shared vocabulary, read by each game's hints).

use serde::{Deserialize, Serialize};

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

pub(crate) fn reason(kind: ReasonKind, en: String, zh: String) -> Reason {
    Reason { kind, en, zh }
}

pub(crate) fn plural(n: usize, one: &str, many: &str) -> String {
    if n == 1 { format!("1 {one}") } else { format!("{n} {many}") }
}
