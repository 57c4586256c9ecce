//! Da Bai Fen burial puzzles: the starter has taken the kitty and must bury six of his eighteen
//! cards (docs/rules/dabaifen.md §7). No exact solver values a whole deal, so a burial is valued
//! by its **expected payoff over sampled worlds** (docs/puzzles.md, "Burial puzzles"):
//!
//! - **worlds**: [`BURIAL_WORLDS`] deals of the 36 cards the starter cannot see among the three
//!   other hands, consistent with what he knows (the draw's declaration, a kitty turned face up),
//!   drawn by [`Problem::sample`] from a generator seeded by the puzzle's seed;
//! - **playing a world out**: after the burial every seat plays the `heuristic` with what it
//!   could know (its hand, the cards seen, the voids shown: `pimc`'s honest rollouts), and the
//!   exact solver takes over once every hand holds at most 4 cards
//!   ([`crate::dabaifen::pimc::Search::rollout`]); the value is [`payoff`] of the defenders'
//!   points for the starter's team (game levels, card points 1/400 of a level);
//! - **the burials valued** (the family): the `heuristic`'s burials, one per choice of suits to
//!   void, with and without unprotected points ([`bury_options`], up to [`OPTIONS`]), and every
//!   burial that differs from the best of them by one card (6 × 12 = 72), all in the same worlds.
//!
//! **The answer is a rule**, not one set of six: the burials within [`BURIAL_SMALL`] of the best
//! are the accepted ones; the cards all of them bury must be buried, the cards none of them
//! buries must be kept, the others are free. A burial is right when it buries every must-bury
//! card and no must-keep card. A position is a puzzle only when, among the family, every burial
//! that follows the rule is within [`BURIAL_SMALL`] of the best and every one that breaks it is
//! worse than the best by at least [`BURIAL_WIDE`], and at least one of the heuristic's own
//! sensible burials breaks it (so the puzzle is more than "do not bury your ace").
//!
//! **Confirmed in other worlds.** Compared in the same worlds, a family of 70–85 burials favours
//! whichever burial those worlds happen to suit, so a verdict that passes in its own worlds is
//! tested once more: the same family is valued in [`CONFIRM_WORLDS`] other worlds (drawn from
//! [`confirm_seed`] of the puzzle's seed, so none is shared), and the position is a puzzle only
//! when there too the best burial follows the rule and the best burial that follows it leads the
//! best one that breaks it by at least [`CONFIRM_LEAD`]. The rule itself stays the one of the
//! puzzle's own worlds: the confirmation worlds test it, they never shape it.

use cards::{Rng, Seat};
use dabaifen::{Action, Card, Cards, Phase, State};
use serde::{Deserialize, Serialize};

use super::{DABAIFEN_MARGIN, DabaifenPuzzle, Move, PuzzleError, Theme, difficulty, r4, solved_line};
use crate::Dabaifen;
use crate::dabaifen::heuristic::{bury_style, heuristic_action};
use crate::dabaifen::know::Knowledge;
use crate::dabaifen::pimc::{Params, Search, bury_options, one_card_changes, payoff, pos_after_burial};
use crate::dabaifen::pos::{Pos, bits};
use crate::dabaifen::sample::Problem;
use crate::hint::dabaifen_reason;
use crate::{Budget, dabaifen::policy};

/// Sampled worlds per burial position.
pub const BURIAL_WORLDS: u32 = 48;
/// The burials within this much of the best (in game levels, averaged over the worlds) are right.
pub const BURIAL_SMALL: f64 = DABAIFEN_MARGIN;
/// Every burial that breaks the rule is worse than the best by at least this much (game levels,
/// averaged over the worlds: 0.15 is 60 card points, or a level in three deals of twenty).
pub const BURIAL_WIDE: f64 = 0.15;
/// Other worlds in which a burial puzzle's family is valued again before it is accepted (chosen
/// by measurement: docs/puzzles.md, "Burial puzzles").
pub const CONFIRM_WORLDS: u32 = 240;
/// In those worlds, the best burial that follows the rule must lead the best one that breaks it
/// by at least this much (game levels, averaged over the worlds: the small margin, 20 card points).
pub const CONFIRM_LEAD: f64 = BURIAL_SMALL;
/// The most worlds a file may ask the check to value a burial puzzle in (its own or its
/// confirmation's).
pub const MOST_WORLDS: u32 = 10_000;
/// The heuristic's burials valued (one per choice of voids, with and without points).
pub const OPTIONS: usize = 12;
/// Longest line kept after the answer (the first two tricks).
const LINE: usize = 8;

/// What a right burial does (a burial puzzle's answer), and how it was valued.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BurialRule {
    /// Cards every right burial buries.
    pub must_bury: Vec<Card>,
    /// Cards no right burial buries.
    pub must_keep: Vec<Card>,
    /// The seed of the sampled worlds (so that the values can be computed again).
    pub seed: u64,
    /// Sampled worlds.
    pub worlds: u32,
    /// Burials valued.
    pub family: u32,
    /// A right burial is within this much of the best (game levels, averaged).
    pub small: f64,
    /// A wrong burial is worse than the best by at least this much.
    pub wide: f64,
    /// The rule confirmed in other worlds (absent in a file made before the generator confirmed
    /// its rules: such a file still reads, but its burial puzzles do not pass the check).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub confirm: Option<Confirmation>,
}

/// How a burial puzzle's rule was confirmed: its family valued again in other worlds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Confirmation {
    /// The seed of those worlds ([`confirm_seed`] of the rule's seed).
    pub seed: u64,
    /// How many of them.
    pub worlds: u32,
    /// The least lead required there of the best burial that follows the rule over the best one
    /// that breaks it (game levels, averaged).
    pub margin: f64,
    /// That lead as measured there (rounded to 4 places).
    pub lead: f64,
}

impl BurialRule {
    /// True when `set` buries every must-bury card and no must-keep card.
    pub fn admits(&self, set: Cards) -> bool {
        self.must_bury.iter().all(|&c| set.contains(c)) && !self.must_keep.iter().any(|&c| set.contains(c))
    }
}

fn mask(cards: &[Card]) -> u64 {
    cards.iter().fold(0, |m, c| m | 1u64 << c.number())
}

/// True when burial `b` buries every card of `bury` and none of `keep` (a rule's cards as masks).
fn follows(b: u64, bury: u64, keep: u64) -> bool {
    b & bury == bury && b & keep == 0
}

fn cards_of(m: u64) -> Vec<Card> {
    bits(m).filter_map(|c| Card::from_number(c as u8)).collect()
}

fn bury(m: u64) -> Action {
    Action::Bury(Cards::from_bits(m))
}

/// The burials of a position valued in sampled worlds.
pub(crate) struct Valued {
    /// The family: the heuristic's options first (`options` of them), then one-card changes.
    pub family: Vec<u64>,
    /// How many of `family` are the heuristic's options.
    pub options: usize,
    /// Each burial's payoff in each world: `payoffs[b][w]`.
    pub payoffs: Vec<Vec<f64>>,
}

impl Valued {
    fn mean(&self, b: usize) -> f64 {
        self.payoffs[b].iter().sum::<f64>() / self.payoffs[b].len().max(1) as f64
    }
}

/// The verdict on a valued position: the rule, the best burial, the right ones, the averages.
pub(crate) struct Verdict {
    pub rule_bury: u64,
    pub rule_keep: u64,
    pub best: usize,
    pub right: Vec<usize>,
    pub ev: Vec<f64>,
    /// The best average of a burial breaking the rule.
    pub wrong_best: f64,
}

/// The seat, its knowledge and the search of a burial position (`None` when `st` is not one).
fn setup(st: &State) -> Option<(Seat, dabaifen::View, Knowledge)> {
    if st.phase() != Phase::Burying {
        return None;
    }
    let seat = st.to_move()?;
    let view = st.view(seat);
    let k = Knowledge::from_view(&view, &[])?;
    (k.hand.count_ones() == 18).then_some((seat, view, k))
}

fn search() -> Search {
    Search::new(Params::for_budget(Budget { think_ms: 20 }))
}

/// The sampled worlds of a burial position, and the search that plays burials out in them.
struct Worlds {
    view: dabaifen::View,
    k: Knowledge,
    ws: Vec<[u64; 5]>,
    defends: bool,
    s: Search,
}

impl Worlds {
    /// `worlds` worlds of the position `st` drawn from `seed` (`None` when `st` is not a burial
    /// position or no world fits it).
    fn draw(st: &State, seed: u64, worlds: u32) -> Option<Worlds> {
        let (seat, view, k) = setup(st)?;
        let problem = Problem::of(&k);
        if !problem.feasible() {
            return None;
        }
        let mut rng = Rng::from_seed(seed);
        let ws = (0..worlds).map(|_| problem.sample(&mut rng)).collect();
        let defends = seat.team() != view.starter.team();
        Some(Worlds { view, k, ws, defends, s: search() })
    }

    /// Plays out the burials of `family` not yet in `out` (those from `out.len()` on) in every
    /// world, appending each one's payoffs: `out[b][w]`.
    fn play(&mut self, family: &[u64], out: &mut Vec<Vec<f64>>) {
        let from = out.len();
        out.extend(family[from..].iter().map(|_| Vec::with_capacity(self.ws.len())));
        for w in &self.ws {
            self.s.solver.new_world();
            for (j, &b) in family.iter().enumerate().skip(from) {
                let pos = pos_after_burial(&self.view, &self.k, w, b);
                let t = self.s.rollout(pos, self.s.params.tail_cards);
                out[j].push(payoff(t, self.defends));
            }
        }
    }
}

/// Values the family of burials of the position `st` in `worlds` worlds drawn from `seed`.
/// With `spread`, gives up (`None`) after valuing the heuristic's options when no option is
/// worse than the best option by at least `spread` (a cheap filter: such a position rarely
/// passes, and it never changes the values of a position that goes on).
pub(crate) fn value(st: &State, seed: u64, worlds: u32, spread: Option<f64>) -> Option<Valued> {
    let mut w = Worlds::draw(st, seed, worlds)?;
    let mut family = bury_options(w.k.t, w.k.hand, OPTIONS);
    let options = family.len();
    let mut payoffs = Vec::new();
    w.play(&family, &mut payoffs);
    let means: Vec<f64> = payoffs.iter().map(|p| p.iter().sum::<f64>() / f64::from(worlds.max(1))).collect();
    let top = crate::dabaifen::pimc::argmax(&means);
    if let Some(wide) = spread
        && !means.iter().any(|&m| m <= means[top] - wide + 1e-9)
    {
        return None;
    }
    for b in one_card_changes(w.k.hand, family[top]) {
        if !family.contains(&b) {
            family.push(b);
        }
    }
    w.play(&family, &mut payoffs);
    Some(Valued { family, options, payoffs })
}

/// `family` valued at the position `st` in `worlds` worlds drawn from `seed`: `payoffs[b][w]`
/// (played out as [`value`] plays them; `None` when `st` is not a burial position or no world
/// can be drawn).
pub(crate) fn value_family(st: &State, seed: u64, worlds: u32, family: &[u64]) -> Option<Vec<Vec<f64>>> {
    let mut out = Vec::new();
    Worlds::draw(st, seed, worlds)?.play(family, &mut out);
    Some(out)
}

/// The seed of a burial puzzle's confirmation worlds, from the seed of its own worlds (another
/// stream of the generator: no world is shared).
pub fn confirm_seed(seed: u64) -> u64 {
    super::mix(seed, 0x0063_6f6e_6669_726d, 3)
}

/// The outcome of the confirmation of a rule in other worlds: whether the best burial of the
/// family there follows the rule, and the lead of the best burial that follows it over the best
/// one that breaks it (game levels, averaged; negative when one that breaks it is better).
fn confirmation(payoffs: &[Vec<f64>], family: &[u64], follows: impl Fn(u64) -> bool) -> (bool, f64) {
    let ev: Vec<f64> = payoffs.iter().map(|p| p.iter().sum::<f64>() / p.len().max(1) as f64).collect();
    let best = crate::dabaifen::pimc::argmax(&ev);
    let top = |right: bool| {
        (0..ev.len())
            .filter(|&b| follows(family[b]) == right)
            .map(|b| ev[b])
            .fold(f64::NEG_INFINITY, f64::max)
    };
    (follows(family[best]), top(true) - top(false))
}

/// The rule a valued position teaches, if it is a puzzle (see the module's documentation).
pub(crate) fn verdict(v: &Valued, hand: u64, small: f64, wide: f64) -> Option<Verdict> {
    let ev: Vec<f64> = (0..v.family.len()).map(|b| v.mean(b)).collect();
    let best = crate::dabaifen::pimc::argmax(&ev);
    let right: Vec<usize> = (0..ev.len()).filter(|&b| ev[b] >= ev[best] - small - 1e-9).collect();
    let rule_bury = right.iter().fold(hand, |m, &b| m & v.family[b]);
    let rule_keep = hand & !right.iter().fold(0, |m, &b| m | v.family[b]);
    let follows = |b: u64| follows(b, rule_bury, rule_keep);
    let mut wrong_best = f64::NEG_INFINITY;
    for (b, &set) in v.family.iter().enumerate() {
        if follows(set) {
            if ev[b] < ev[best] - small - 1e-9 {
                return None;
            }
        } else {
            if ev[b] > ev[best] - wide + 1e-9 {
                return None;
            }
            wrong_best = wrong_best.max(ev[b]);
        }
    }
    // A sensible burial (one of the heuristic's) must break the rule.
    if (0..v.options).all(|b| follows(v.family[b])) {
        return None;
    }
    Some(Verdict { rule_bury, rule_keep, best, right, ev, wrong_best })
}

/// What became of a burial position: whether it passed in its own worlds (and so was valued in
/// the confirmation worlds), and its puzzle if the confirmation held too.
pub(crate) struct Examined {
    pub passed: bool,
    pub puzzle: Option<DabaifenPuzzle>,
}

/// The burial puzzle of the position `st` (the starter to bury), if it is one. `id` names it,
/// `seed` draws its worlds (and, through [`confirm_seed`], its confirmation worlds).
pub(crate) fn examine_burial(st: &State, id: &str, seed: u64) -> Examined {
    let Some(vd) = setup(st).and_then(|(_, _, k)| {
        let v = value(st, seed, BURIAL_WORLDS, Some(BURIAL_WIDE))?;
        let vd = verdict(&v, k.hand, BURIAL_SMALL, BURIAL_WIDE)?;
        Some((v, vd))
    }) else {
        return Examined { passed: false, puzzle: None };
    };
    Examined { passed: true, puzzle: confirmed_puzzle(st, id, seed, vd.0, vd.1) }
}

/// The puzzle of a position that passed in its own worlds, if its rule holds in the
/// confirmation worlds.
fn confirmed_puzzle(st: &State, id: &str, seed: u64, v: Valued, vd: Verdict) -> Option<DabaifenPuzzle> {
    let (seat, view, k) = setup(st)?;
    let cseed = confirm_seed(seed);
    let cp = value_family(st, cseed, CONFIRM_WORLDS, &v.family)?;
    let (best_follows, lead) = confirmation(&cp, &v.family, |b| follows(b, vd.rule_bury, vd.rule_keep));
    if !best_follows || lead < CONFIRM_LEAD - 1e-9 {
        return None;
    }
    let follows = |b: u64| follows(b, vd.rule_bury, vd.rule_keep);
    // The moves shown: the right burials, the heuristic's options and the best wrong change.
    let mut shown: Vec<usize> = vd.right.clone();
    shown.extend((0..v.options).filter(|b| !vd.right.contains(b)));
    if let Some(w) = (v.options..v.family.len())
        .filter(|&b| !follows(v.family[b]))
        .max_by(|&a, &b| vd.ev[a].total_cmp(&vd.ev[b]))
        && !shown.contains(&w)
    {
        shown.push(w);
    }
    shown.sort_by(|&a, &b| vd.ev[b].total_cmp(&vd.ev[a]));
    // The actual deal, played out the same way after each shown burial.
    let defends = seat.team() != view.starter.team();
    let mut s = search();
    let mut actual = |b: u64| -> f64 {
        let mut after = st.clone();
        if after.apply(bury(b)).is_err() {
            return f64::NAN;
        }
        s.solver.new_world();
        Pos::from_state(&after).map_or(f64::NAN, |p| payoff(s.rollout(p, s.params.tail_cards), defends))
    };
    let moves: Vec<Move<Action>> = shown
        .iter()
        .map(|&b| Move {
            action: bury(v.family[b]),
            face_up: r4(actual(v.family[b])),
            expected: r4(vd.ev[b]),
            reason: dabaifen_reason(&view, &[], bury(v.family[b])),
        })
        .collect();
    if moves.iter().any(|m| m.face_up.is_nan()) {
        return None;
    }
    let best_set = v.family[vd.best];
    let face_best = moves.iter().find(|m| m.action == bury(best_set)).map_or(0.0, |m| m.face_up);
    let face_wrong = moves
        .iter()
        .filter(|m| matches!(m.action, Action::Bury(c) if !follows(c.bits())))
        .map(|m| m.face_up)
        .fold(f64::NEG_INFINITY, f64::max);
    let agree = (0..BURIAL_WORLDS as usize)
        .filter(|&w| {
            let a = v.payoffs[vd.best][w];
            (0..v.family.len()).filter(|&b| !follows(v.family[b])).all(|b| v.payoffs[b][w] <= a + 1e-9)
        })
        .count() as u32;
    let heuristic = policy::bury(k.t, k.hand, bury_style(k.t, k.hand));
    let line = solved_line::<Dabaifen>(st, bury(best_set), LINE, |st, seat| {
        heuristic_action(&st.view(seat), &st.legal_actions())
    });
    let mut hand = dabaifen::record::hand_record(st);
    hand.result = None;
    Some(DabaifenPuzzle {
        id: id.to_string(),
        hand,
        seat,
        answers: vd.right.iter().map(|&b| bury(v.family[b])).collect(),
        moves,
        face_up_gap: r4(face_best - face_wrong),
        expected_gap: r4(vd.ev[vd.best] - vd.wrong_best),
        worlds: BURIAL_WORLDS,
        agree,
        line,
        themes: vec![Theme::Burial],
        difficulty: difficulty(follows(heuristic), v.family.len(), true),
        burial: Some(BurialRule {
            must_bury: cards_of(vd.rule_bury),
            must_keep: cards_of(vd.rule_keep),
            seed,
            worlds: BURIAL_WORLDS,
            family: v.family.len() as u32,
            small: BURIAL_SMALL,
            wide: BURIAL_WIDE,
            confirm: Some(Confirmation {
                seed: cseed,
                worlds: CONFIRM_WORLDS,
                margin: CONFIRM_LEAD,
                lead: r4(lead),
            }),
        }),
    })
}

/// Checks a burial puzzle again from its data: the position replays to the starter's burial,
/// the family is valued again in the same worlds (the rule's seed), and the same rule comes
/// out: every burial of the family that follows it within the small margin of the best, every
/// one that breaks it worse by the wide margin; every listed answer follows it; and valued in
/// its confirmation worlds, the best burial follows it and leads every one that breaks it by the
/// confirmation's margin, the lead the file states.
pub(crate) fn check_burial(
    p: &DabaifenPuzzle,
    st: &State,
    rule: &BurialRule,
) -> Result<super::Checked, PuzzleError> {
    let bad = |reason: String| PuzzleError::Bad { id: p.id.clone(), reason };
    let (seat, _, k) = setup(st).ok_or_else(|| bad("not the starter's burial".into()))?;
    if seat != p.seat {
        return Err(bad(format!("{} is not to bury", p.seat)));
    }
    // A file may be stricter than the generator, never looser.
    if rule.small > BURIAL_SMALL + 1e-9 || rule.wide < BURIAL_WIDE - 1e-9 {
        return Err(bad(format!("margins {} and {} are looser than the generator's", rule.small, rule.wide)));
    }
    let (small, wide) = (rule.small, rule.wide);
    for a in &p.answers {
        match a {
            Action::Bury(set) if st.clone().apply(*a).is_ok() && rule.admits(*set) => {}
            _ => return Err(bad(format!("the answer {a} is not a legal burial that follows the rule"))),
        }
    }
    // A file's counts of worlds are bounded, so that a bad file costs a clear refusal, not hours.
    let most = rule.worlds.max(rule.confirm.as_ref().map_or(0, |c| c.worlds));
    if most > MOST_WORLDS {
        return Err(bad(format!("{most} worlds are more than the check values ({MOST_WORLDS} at most)")));
    }
    let v =
        value(st, rule.seed, rule.worlds, None).ok_or_else(|| bad("the worlds cannot be drawn".into()))?;
    let vd = verdict(&v, k.hand, small, wide)
        .ok_or_else(|| bad("the burials are not split by the margins any more".into()))?;
    if vd.rule_bury != mask(&rule.must_bury) || vd.rule_keep != mask(&rule.must_keep) {
        return Err(bad("the rule computed again differs from the file's".into()));
    }
    // The confirmation, again: in other worlds, no fewer and no looser than the generator's.
    let c =
        rule.confirm.as_ref().ok_or_else(|| bad("the rule was never confirmed in other worlds".into()))?;
    if c.seed == rule.seed {
        return Err(bad("the rule is confirmed in the same worlds that made it".into()));
    }
    if c.worlds < CONFIRM_WORLDS || c.margin < CONFIRM_LEAD - 1e-9 {
        return Err(bad(format!(
            "the confirmation ({} worlds, margin {}) is looser than the generator's",
            c.worlds, c.margin
        )));
    }
    let cp = value_family(st, c.seed, c.worlds, &v.family)
        .ok_or_else(|| bad("the confirmation worlds cannot be drawn".into()))?;
    let (best_follows, lead) = confirmation(&cp, &v.family, |b| follows(b, vd.rule_bury, vd.rule_keep));
    if !best_follows || lead < c.margin - 1e-9 {
        return Err(bad(format!(
            "in the confirmation worlds the rule leads by {lead:.4}, under {}",
            c.margin
        )));
    }
    if (r4(lead) - c.lead).abs() > 1e-9 {
        return Err(bad(format!("the confirmation's lead is {:.4}, not the file's {}", r4(lead), c.lead)));
    }
    Ok(super::Checked { face_up_gap: r4(vd.ev[vd.best] - vd.wrong_best), moves: v.family.len() })
}

/// A burial puzzle's family valued again in `worlds` other worlds drawn from `seed` (not the
/// puzzle's): whether the best burial there follows the puzzle's rule, and how much the best
/// burial that follows it leads the best one that breaks it (negative when one that breaks it is
/// better). `None` when the puzzle is not a burial puzzle or its position is not the burial. It
/// measures how much a puzzle's verdict owes to the luck of its own worlds.
pub fn revalue_burial(p: &DabaifenPuzzle, rules: &str, seed: u64, worlds: u32) -> Option<(bool, f64)> {
    let rule = p.burial.as_ref()?;
    let st = super::dabaifen_position(&p.hand, rules).ok()?;
    let v = value(&st, seed, worlds, None)?;
    Some(confirmation(&v.payoffs, &v.family, |b| rule.admits(Cards::from_bits(b))))
}

/// A burial puzzle's own family (built again in its own worlds) valued in `worlds` other worlds
/// drawn from `seed`: for each burial of the family, whether it follows the puzzle's rule, and
/// its payoff in each of those worlds (in the order they are drawn, so the first `n` are the
/// worlds of a run with `n`). `None` when the puzzle is not a burial puzzle or its position is not
/// the burial. It is what the generator's confirmation looks at, for choosing its parameters.
pub fn family_in_other_worlds(
    p: &DabaifenPuzzle,
    rules: &str,
    seed: u64,
    worlds: u32,
) -> Option<Vec<(bool, Vec<f64>)>> {
    let rule = p.burial.as_ref()?;
    let st = super::dabaifen_position(&p.hand, rules).ok()?;
    let v = value(&st, rule.seed, rule.worlds, None)?;
    let payoffs = value_family(&st, seed, worlds, &v.family)?;
    Some(v.family.iter().map(|&b| rule.admits(Cards::from_bits(b))).zip(payoffs).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::MakeOptions;

    /// Seed 27's self-play deal `deal` at the burial, examined as the generator examines it.
    fn examined(deal: u64) -> (bool, bool, Option<DabaifenPuzzle>) {
        let opts = MakeOptions {
            seed: 27,
            count: 0,
            max_deals: 4000,
            rules: "standard".into(),
            bot: "heuristic".into(),
            records: Vec::new(),
            burials: 1,
        };
        let variants = dabaifen::Variants::preset(&opts.rules).unwrap();
        let (_, reached, passed, p) = super::super::dabaifen_gen::burial_of(&opts, variants, deal);
        (reached, passed, p)
    }

    /// Deal 2840 of seed 27 passes in its own 48 worlds (its rule was shipped as `b27-2840`
    /// before the confirmation), but in its confirmation worlds a burial that breaks the rule is
    /// better by more than 0.4 level: it is no puzzle.
    #[test]
    fn a_rule_that_fails_in_other_worlds_is_no_puzzle() {
        let (reached, passed, p) = examined(2840);
        assert!(reached && passed, "deal 2840 passes in its own worlds");
        assert!(p.is_none(), "the confirmation refuses it");
    }

    /// A position accepted carries its confirmation: other worlds than its own, the lead measured
    /// there at least the margin.
    #[test]
    fn an_accepted_rule_states_its_confirmation() {
        let (_, passed, p) = examined(14);
        let p = p.expect("deal 14 is a burial puzzle");
        let rule = p.burial.unwrap();
        let c = rule.confirm.expect("confirmed");
        assert!(passed && c.seed == confirm_seed(rule.seed) && c.seed != rule.seed);
        assert_eq!((c.worlds, c.margin), (CONFIRM_WORLDS, CONFIRM_LEAD));
        assert!(c.lead >= c.margin, "{}", c.lead);
    }
}
