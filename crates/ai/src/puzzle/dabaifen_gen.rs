//! Da Bai Fen puzzles ([`crate::puzzle`] says what a puzzle is): made from self-play deals and
//! recorded ones, and checked again from their data (docs/rules/dabaifen.md for the rules).

use cards::record::GameKind;
use cards::{Rng, Seat};
use dabaifen::record::DabaifenHand;

use super::PER_HAND;
use super::{
    DABAIFEN_CARDS, DABAIFEN_MARGIN, DabaifenFile, DabaifenPuzzle, MadeBy, MakeOptions, PositionError,
    PuzzleError, Step, Theme, WORLDS, difficulty, mix, puzzle_file, r4, ranked, sampled_test, solved_line,
    top_two,
};
use crate::dabaifen::know::Knowledge;
use crate::dabaifen::pimc::{payoff, pos_from_view, resplit_burial};
use crate::dabaifen::pos::{Pos, TRUMPS};
use crate::dabaifen::sample::Problem;
use crate::dabaifen::solver::{Solver, classes, for_each_reduced_play, pts};
use crate::hint::dabaifen_reason;
use crate::{Bot, Budget, Dabaifen, Registry};

/// Most solver nodes one value may take (beyond, the position is not a puzzle).
const NODES: u64 = 400_000;
/// Longest line kept after the answer.
const LINE: usize = 8;

/// The position of a puzzle's hand: the deal after its actions, every poll after them passed
/// when that reaches the starter's burial (`dabaifen::record::replay_to_position`: a burial
/// puzzle's deal where nobody declared has no action); an error if it does not replay under
/// `rules`.
pub fn dabaifen_position(hand: &DabaifenHand, rules: &str) -> Result<dabaifen::State, PositionError> {
    let variants = dabaifen::Variants::preset(rules).map_err(PositionError::DabaifenRules)?;
    let setup = dabaifen::record::setup_of(hand, variants).map_err(PositionError::DabaifenHand)?;
    let mut st = dabaifen::State::new(&setup).map_err(PositionError::DabaifenSetup)?;
    dabaifen::record::replay_to_position(&mut st, &hand.actions).map_err(PositionError::DabaifenAction)?;
    Ok(st)
}

/// The distinct plays of the seat to move as it can tell them apart (its own hand known, the
/// other cards only as "elsewhere"), and the class signature of any play.
struct Classes {
    cls: [u64; 20],
    n: usize,
}

impl Classes {
    fn of(pos: &Pos, k: &Knowledge) -> Classes {
        let mut pseudo = *pos;
        let me = k.me as usize;
        pseudo.hands = [0; 4];
        pseudo.hands[me] = k.hand;
        pseudo.hands[(me + 1) & 3] = k.maybe_others();
        let mut cls = [0u64; 20];
        let n = classes(&pseudo, k.me, k.hand, &mut cls);
        Classes { cls, n }
    }

    fn sig(&self, m: u64) -> [u8; 20] {
        std::array::from_fn(|i| if i < self.n { (m & self.cls[i]).count_ones() as u8 } else { 0 })
    }

    /// One play per signature among the legal, non-revoking plays.
    fn moves(&self, pos: &Pos, k: &Knowledge, legal: &[u64]) -> Vec<u64> {
        let mut pseudo = *pos;
        let me = k.me as usize;
        pseudo.hands = [0; 4];
        pseudo.hands[me] = k.hand;
        pseudo.hands[(me + 1) & 3] = k.maybe_others();
        let mut out: Vec<u64> = Vec::new();
        let mut sigs = Vec::new();
        for_each_reduced_play(&pseudo, |m| {
            let s = self.sig(m);
            if legal.contains(&m) && !sigs.contains(&s) {
                sigs.push(s);
                out.push(m);
            }
        });
        out
    }
}

fn legal_plays(legal: &[dabaifen::Action]) -> Vec<u64> {
    legal
        .iter()
        .filter_map(|a| match a {
            dabaifen::Action::Play(s) => Some(s.bits()),
            _ => None,
        })
        .collect()
}

fn play(m: u64) -> dabaifen::Action {
    dabaifen::Action::Play(dabaifen::Cards::from_bits(m))
}

/// The exact values (the mover's team's payoff) of `moves` in `pos`.
fn values(solver: &mut Solver, pos: &Pos, moves: &[u64], defends: bool) -> Option<Vec<f64>> {
    moves
        .iter()
        .map(|&m| solver.value_after(pos, m, NODES).ok().map(|v| payoff(pos.def_points + v as u32, defends)))
        .collect()
}

struct Gen {
    solver: Solver,
    made: MadeBy,
}

impl Gen {
    fn examine(&mut self, st: &dabaifen::State, id: &str, seed: u64) -> Option<DabaifenPuzzle> {
        let seat = st.to_move()?;
        let pos = Pos::from_state(st)?;
        if pos.cards_per_hand() > DABAIFEN_CARDS {
            return None;
        }
        let legal = st.legal_actions();
        let lp = legal_plays(&legal);
        let view = st.view(seat);
        let k = Knowledge::from_view(&view, &legal)?;
        let cl = Classes::of(&pos, &k);
        let moves = cl.moves(&pos, &k, &lp);
        if moves.len() < 2 {
            return None;
        }
        self.made.examined += 1;
        let defends = seat.team() != st.starter().team();
        self.solver.new_world();
        let fv = values(&mut self.solver, &pos, &moves, defends)?;
        let (best, bv, second) = top_two(&fv);
        if bv - second < DABAIFEN_MARGIN {
            return None;
        }
        self.made.sampled += 1;
        let mut rng = Rng::from_seed(seed);
        let problem = Problem::of(&k);
        if !problem.feasible() {
            return None;
        }
        let (ev, gap, agree) = sampled_test(best, DABAIFEN_MARGIN, || {
            let mut w = problem.sample(&mut rng);
            resplit_burial(&k, &mut w);
            let wp = pos_from_view(&view, &k, &w);
            if !(0..4).all(|s| wp.hands[s].count_ones() == u32::from(view.hand_sizes[s])) {
                return None;
            }
            self.solver.new_world();
            values(&mut self.solver, &wp, &moves, defends)
        })?;
        let best_sig = cl.sig(moves[best]);
        let answers: Vec<dabaifen::Action> =
            lp.iter().filter(|&&m| cl.sig(m) == best_sig && pos.is_legal(m)).map(|&m| play(m)).collect();
        if answers.is_empty() {
            return None;
        }
        let listed = ranked(&fv, &ev, |i| (play(moves[i]), dabaifen_reason(&view, &legal, play(moves[i]))));
        let line = self.line(st, play(moves[best]));
        let heuristic_right = Dabaifen::bot("heuristic", 0, Budget::default())
            .map(|mut b| b.choose(&view, &legal))
            .is_ok_and(|h| answers.contains(&h));
        let themes = themes(&pos, &moves, best);
        let mut hand = dabaifen::record::hand_record(st);
        hand.result = None;
        self.made.accepted += 1;
        Some(DabaifenPuzzle {
            id: id.to_string(),
            hand,
            seat,
            answers,
            moves: listed,
            face_up_gap: r4(bv - second),
            expected_gap: r4(gap),
            worlds: WORLDS,
            agree,
            line,
            themes,
            difficulty: difficulty(heuristic_right, moves.len(), pos.cards_per_hand() >= 4),
            burial: None,
        })
    }

    /// The line after `answer` with every card known: each seat plays its team's exact best.
    fn line(&mut self, st: &dabaifen::State, answer: dabaifen::Action) -> Vec<Step<dabaifen::Action>> {
        solved_line::<Dabaifen>(st, answer, LINE, |st, seat| {
            let pos = Pos::from_state(st)?;
            let lp = legal_plays(&st.legal_actions());
            let mut moves = Vec::new();
            for_each_reduced_play(&pos, |m| {
                if lp.contains(&m) {
                    moves.push(m);
                }
            });
            let defends = seat.team() != st.starter().team();
            self.solver.new_world();
            let v = values(&mut self.solver, &pos, &moves, defends)?;
            if moves.is_empty() {
                return None;
            }
            let (b, _, _) = top_two(&v);
            Some(play(moves[b]))
        })
    }
}

/// The themes of a Da Bai Fen puzzle.
fn themes(pos: &Pos, moves: &[u64], best: usize) -> Vec<Theme> {
    let mut t = Vec::new();
    let leading = pos.count == 0;
    let trumps = pos.t.suit_mask[TRUMPS];
    if leading && moves.iter().any(|m| m.count_ones() >= 2) {
        t.push(Theme::MultiLead);
    }
    if !leading && usize::from(pos.suit) != TRUMPS && moves[best] & !trumps == 0 {
        t.push(Theme::Ruff);
    }
    if !leading && moves.iter().any(|&m| pts(m) != pts(moves[best])) {
        t.push(Theme::ProtectPoints);
    }
    if pos.cards_per_hand() <= 2 && pos.kitty_points > 0 {
        t.push(Theme::KittyEnd);
    }
    if t.is_empty() {
        t.push(Theme::Play);
    }
    t
}

/// Walks one deal (replaying `history` when given, else by self-play) and collects its puzzles.
#[allow(clippy::too_many_arguments)]
fn walk(
    g: &mut Gen,
    start: dabaifen::State,
    history: Option<&[dabaifen::record::DabaifenAction]>,
    opts: &MakeOptions,
    tag: &str,
    deal: u64,
    out: &mut Vec<DabaifenPuzzle>,
    on_puzzle: &mut dyn FnMut(&DabaifenPuzzle, &MadeBy),
) {
    let mut st = start;
    let mut bots: Vec<Box<dyn Bot<Dabaifen>>> = (0..4)
        .filter_map(|s| Dabaifen::bot(&opts.bot, mix(opts.seed, deal, s), Budget { think_ms: 20 }).ok())
        .collect();
    if bots.len() != 4 {
        return;
    }
    let mut ply = 0usize;
    let mut found = 0usize;
    let mut recorded = history.map(|h| h.iter());
    loop {
        if out.len() >= opts.count || st.phase() == dabaifen::Phase::Over {
            return;
        }
        if st.phase() == dabaifen::Phase::Playing {
            let id = format!("d{tag}-{deal}-{ply}");
            if found < PER_HAND
                && let Some(p) = g.examine(&st, &id, mix(opts.seed, deal, 1000 + ply as u64))
            {
                on_puzzle(&p, &g.made);
                out.push(p);
                found += 1;
            }
        }
        match recorded.as_mut() {
            Some(it) => {
                let Some(a) = it.next() else { return };
                if dabaifen::record::apply_recorded(&mut st, a).is_err() {
                    return;
                }
            }
            None => {
                let Some(seat) = st.to_move() else { return };
                let legal = st.legal_actions();
                let a = bots[seat.index()].choose(&st.view(seat), &legal);
                if st.apply(a).is_err() {
                    return;
                }
            }
        }
        ply += 1;
    }
}

/// Makes Da Bai Fen puzzles: recorded deals first, then self-play deals `0, 1, …` of `opts.seed`
/// (deck `dabaifen::deck_from_seed(seed, i)`, starter seat `i mod 4`, ranks 2 and 2) until
/// `opts.count` are accepted or `opts.max_deals` are played.
pub fn make_dabaifen(
    opts: &MakeOptions,
    on_puzzle: &mut dyn FnMut(&DabaifenPuzzle, &MadeBy),
) -> Result<DabaifenFile, PuzzleError> {
    let variants = dabaifen::Variants::preset(&opts.rules)
        .map_err(|e| PuzzleError::Bad { id: "-".into(), reason: e.to_string() })?;
    let mut g = Gen { solver: Solver::new(), made: MadeBy { seed: opts.seed, ..MadeBy::default() } };
    let mut out = Vec::new();
    for (ri, rec) in opts.records.iter().enumerate() {
        let crate::record::AnyRecord::Dabaifen(rec) = rec else { continue };
        let Ok(v) = dabaifen::record::variants_of(rec) else { continue };
        if v != variants {
            continue;
        }
        for (hi, h) in rec.hands.iter().enumerate() {
            if out.len() >= opts.count {
                break;
            }
            let Ok(setup) = dabaifen::record::setup_of(h, v) else { continue };
            let Ok(start) = dabaifen::State::new(&setup) else { continue };
            g.made.recorded += 1;
            walk(&mut g, start, Some(&h.actions), opts, &format!("r{ri}"), hi as u64, &mut out, on_puzzle);
        }
    }
    let mut deal = 0u64;
    while out.len() < opts.count && deal < opts.max_deals {
        let setup = dabaifen::HandSetup {
            deck: dabaifen::deck_from_seed(opts.seed, deal),
            starter: Seat::wrapping((deal % 4) as usize),
            first_deal: false,
            open: false,
            ranks: [dabaifen::Rank::Two; 2],
            variants,
        };
        if let Ok(start) = dabaifen::State::new(&setup) {
            g.made.deals += 1;
            walk(&mut g, start, None, opts, &format!("{}", opts.seed), deal, &mut out, on_puzzle);
        }
        deal += 1;
    }
    // Burial puzzles: self-play deals of the same seed played to the starter's burial, valued
    // in batches on every core; taken in deal order, so the file does not depend on the cores.
    let plays = out.len();
    let workers = std::thread::available_parallelism().map_or(1, |n| n.get()).clamp(1, 8);
    let mut deal = 0u64;
    'batches: while out.len() - plays < opts.burials && deal < opts.max_deals {
        let batch: Vec<u64> = (deal..(deal + 4 * workers as u64).min(opts.max_deals)).collect();
        deal += batch.len() as u64;
        let mut results: Vec<(u64, bool, bool, Option<DabaifenPuzzle>)> = std::thread::scope(|sc| {
            let handles: Vec<_> = (0..workers)
                .map(|w| {
                    let mine: Vec<u64> = batch.iter().copied().skip(w).step_by(workers).collect();
                    sc.spawn(move || {
                        mine.into_iter().map(|d| burial_of(opts, variants, d)).collect::<Vec<_>>()
                    })
                })
                .collect();
            handles.into_iter().flat_map(|h| h.join().unwrap_or_default()).collect()
        });
        results.sort_by_key(|r| r.0);
        for (_, reached, passed, p) in results {
            if out.len() - plays >= opts.burials {
                break 'batches;
            }
            if reached {
                g.made.burials_examined += 1;
            }
            if passed {
                g.made.burials_passed += 1;
            }
            if let Some(p) = p {
                g.made.burials += 1;
                g.made.accepted += 1;
                on_puzzle(&p, &g.made);
                out.push(p);
            }
        }
    }
    Ok(puzzle_file(GameKind::Dabaifen, opts, DABAIFEN_MARGIN, g.made, out))
}

/// Deal `deal` of the seed played to the starter's burial: whether it got there, whether its
/// position passed in its own worlds (and so went on to the confirmation), and its burial puzzle
/// if the position is one.
pub(super) fn burial_of(
    opts: &MakeOptions,
    variants: dabaifen::Variants,
    deal: u64,
) -> (u64, bool, bool, Option<DabaifenPuzzle>) {
    let setup = dabaifen::HandSetup {
        deck: dabaifen::deck_from_seed(opts.seed, deal),
        starter: Seat::wrapping((deal % 4) as usize),
        first_deal: false,
        open: false,
        ranks: [dabaifen::Rank::Two; 2],
        variants,
    };
    let Some(st) = dabaifen::State::new(&setup).ok().and_then(|s| to_burial(s, opts, deal)) else {
        return (deal, false, false, None);
    };
    let id = format!("b{}-{deal}", opts.seed);
    let e = super::burial::examine_burial(&st, &id, mix(opts.seed, deal, 2000));
    (deal, true, e.passed, e.puzzle)
}

/// A deal played by `opts.bot` up to the starter's burial (`None` when it never gets there: an
/// annulled deal).
fn to_burial(mut st: dabaifen::State, opts: &MakeOptions, deal: u64) -> Option<dabaifen::State> {
    let mut bots: Vec<Box<dyn Bot<Dabaifen>>> = (0..4)
        .filter_map(|s| Dabaifen::bot(&opts.bot, mix(opts.seed, deal, s), Budget { think_ms: 20 }).ok())
        .collect();
    if bots.len() != 4 {
        return None;
    }
    for _ in 0..1000 {
        match st.phase() {
            dabaifen::Phase::Burying => return Some(st),
            dabaifen::Phase::Drawing | dabaifen::Phase::Annulling => {
                let seat = st.to_move()?;
                let legal = st.legal_actions();
                let a = bots[seat.index()].choose(&st.view(seat), &legal);
                st.apply(a).ok()?;
            }
            _ => return None,
        }
    }
    None
}

/// Checks a Da Bai Fen puzzle again from its data alone: the position replays, the seat is to
/// move, every answer is legal and one play up to equivalent cards, and with every card face up
/// the answer beats every other distinct legal play by at least the margin.
pub fn check_dabaifen(p: &DabaifenPuzzle, rules: &str) -> Result<super::Checked, PuzzleError> {
    let bad = |reason: String| PuzzleError::Bad { id: p.id.clone(), reason };
    let st = dabaifen_position(&p.hand, rules).map_err(|e| bad(e.to_string()))?;
    if let Some(rule) = &p.burial {
        return super::burial::check_burial(p, &st, rule);
    }
    if st.phase() == dabaifen::Phase::Burying {
        return Err(bad("a burial position without its rule".into()));
    }
    if st.to_move() != Some(p.seat) {
        return Err(bad(format!("{} is not to move", p.seat)));
    }
    let legal = st.legal_actions();
    for a in &p.answers {
        if !legal.contains(a) {
            return Err(bad(format!("the answer {a} is not legal")));
        }
    }
    let Some(dabaifen::Action::Play(first)) = p.answers.first().copied() else {
        return Err(bad("no answer".into()));
    };
    let pos = Pos::from_state(&st).ok_or_else(|| bad("not a play position".into()))?;
    let view = st.view(p.seat);
    let k = Knowledge::from_view(&view, &legal)
        .ok_or_else(|| bad("the seat's knowledge is unreadable".into()))?;
    let cl = Classes::of(&pos, &k);
    let sig = cl.sig(first.bits());
    for a in &p.answers {
        if let dabaifen::Action::Play(s) = a
            && cl.sig(s.bits()) != sig
        {
            return Err(bad("the answers are not one play".into()));
        }
    }
    let lp = legal_plays(&legal);
    let mut moves = cl.moves(&pos, &k, &lp);
    let bi = match moves.iter().position(|&m| cl.sig(m) == sig) {
        Some(i) => i,
        None => {
            moves.push(first.bits());
            moves.len() - 1
        }
    };
    let defends = p.seat.team() != st.starter().team();
    let mut solver = Solver::new();
    let v = values(&mut solver, &pos, &moves, defends)
        .ok_or_else(|| bad("the solver ran out of nodes".into()))?;
    let other =
        v.iter().enumerate().filter(|&(i, _)| i != bi).map(|(_, &x)| x).fold(f64::NEG_INFINITY, f64::max);
    let gap = v[bi] - other;
    if gap < DABAIFEN_MARGIN - 1e-9 {
        return Err(bad(format!("the answer leads the next play by {gap} levels, under the margin")));
    }
    Ok(super::Checked { face_up_gap: r4(gap), moves: moves.len() })
}

/// The index in `p.moves` of the play `action` is in the puzzle's position `st` (equivalent
/// cards alike); `None` for a play the puzzle does not list (a revoke, an illegal play).
pub fn dabaifen_move_index(
    p: &DabaifenPuzzle,
    st: &dabaifen::State,
    action: dabaifen::Action,
) -> Option<usize> {
    if let dabaifen::Action::Bury(_) = action {
        return p.moves.iter().position(|m| m.action == action);
    }
    let dabaifen::Action::Play(set) = action else { return None };
    let legal = st.legal_actions();
    if !legal.contains(&action) {
        return None;
    }
    let pos = Pos::from_state(st)?;
    let k = Knowledge::from_view(&st.view(p.seat), &legal)?;
    let cl = Classes::of(&pos, &k);
    let want = cl.sig(set.bits());
    p.moves.iter().position(|m| matches!(m.action, dabaifen::Action::Play(s) if cl.sig(s.bits()) == want))
}
