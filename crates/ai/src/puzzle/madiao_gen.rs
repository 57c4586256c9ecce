//! Madiao puzzles ([`crate::puzzle`] says what a puzzle is): made from self-play hands and
//! recorded ones, and checked again from their data (docs/rules/madiao.md for the rules).

use cards::record::GameKind;
use cards::{Rng, Seat};
use madiao::record::MadiaoHand;

use super::PER_HAND;
use super::{
    MADIAO_MARGIN, MADIAO_TRICKS, MadeBy, MadiaoFile, MadiaoPuzzle, MakeOptions, PositionError, PuzzleError,
    Step, Theme, WORLDS, difficulty, mix, puzzle_file, r4, ranked, sampled_test, seat_u8, solved_line,
    top_two,
};
use crate::hint::madiao_reason;
use crate::madiao::analysis::{madiao_discard, madiao_discard_value};
use crate::madiao::heuristic;
use crate::madiao::know::Knowledge;
use crate::madiao::pimc::{PlayerObjective, candidates, objective};
use crate::madiao::pos::{Ctx, Mv, Pos, from_state};
use crate::madiao::solver::{Objective, Solver};
use crate::{Bot, Budget, Madiao, Registry};

/// Longest line kept after the answer.
const LINE: usize = 12;

/// The position of a puzzle's hand: the state after its actions (an error if it does not replay
/// under `rules`).
pub fn madiao_position(hand: &MadiaoHand, rules: &str) -> Result<madiao::State, PositionError> {
    let variants = madiao::Variants::preset(rules).map_err(PositionError::MadiaoRules)?;
    let deck = madiao::record::parse_deck(&hand.deck).map_err(PositionError::MadiaoDeck)?;
    let setup = madiao::HandSetup {
        banker: hand.banker,
        stake: hand.stake,
        deck,
        variants,
        progress: madiao::MatchProgress::default(),
    };
    let mut st = madiao::State::new(setup).map_err(PositionError::MadiaoSetup)?;
    for (index, a) in hand.actions.iter().enumerate() {
        madiao::record::apply_record_action(&mut st, a)
            .map_err(|error| PositionError::MadiaoAction { index, error })?;
    }
    Ok(st)
}

/// The exact face-up values (half-stakes) of `moves` and the best face-up discard's value.
fn face_up_values(
    solver: &mut Solver,
    ctx: &Ctx,
    pos: &Pos,
    obj: Objective,
    moves: &[(madiao::Action, Mv)],
    legal: &[madiao::Action],
) -> Option<(Vec<i32>, Option<i32>)> {
    let values = solver.move_values(ctx, pos, obj);
    let v: Option<Vec<i32>> = moves.iter().map(|&(_, mv)| Solver::lookup(ctx, pos, &values, mv)).collect();
    let mut discard = None::<i32>;
    for &a in legal {
        if let Some(c) = madiao_discard(pos, a) {
            let d = madiao_discard_value(solver, ctx, pos, obj, c, true, 0);
            discard = Some(discard.map_or(d, |x| x.max(d)));
        }
    }
    Some((v?, discard))
}

struct Gen {
    solver: Solver,
    made: MadeBy,
}

impl Gen {
    /// Looks at the position `st` (the seat to move choosing); a puzzle if it is one.
    fn examine(&mut self, st: &madiao::State, id: &str, seed: u64) -> Option<MadiaoPuzzle> {
        let seat = st.to_move()?;
        if st.phase() != madiao::Phase::Play {
            return None;
        }
        let (ctx, pos) = from_state(st)?;
        if pos.tricks_left() > MADIAO_TRICKS {
            return None;
        }
        let legal = st.legal_actions();
        let view = st.view(seat);
        let k = Knowledge::from_view(&view);
        let mut mine = k.pos;
        mine.hands[k.me as usize] = k.hand;
        let moves = candidates(&mine, &legal, k.unknown, k.reward);
        if moves.len() < 2 {
            return None;
        }
        self.made.examined += 1;
        let obj = objective(k.me, k.banker, PlayerObjective::Own);
        let (face, discard) = face_up_values(&mut self.solver, &ctx, &pos, obj, &moves, &legal)?;
        let fv: Vec<f64> = face.iter().map(|&x| f64::from(x) / 2.0).collect();
        let (best, bv, second) = top_two(&fv);
        let second = second.max(discard.map_or(f64::NEG_INFINITY, |d| f64::from(d) / 2.0));
        if bv - second < MADIAO_MARGIN {
            return None;
        }
        self.made.sampled += 1;
        let mut rng = Rng::from_seed(seed);
        let (ev, gap, agree) = sampled_test(best, MADIAO_MARGIN, || {
            let w = k.sample(&mut rng, 60);
            let (wctx, wpos) = k.search(&w);
            let values = self.solver.move_values(&wctx, &wpos, obj);
            let v: Vec<f64> = moves
                .iter()
                .map(|&(_, mv)| {
                    Solver::lookup(&wctx, &wpos, &values, mv)
                        .map_or(f64::NEG_INFINITY, |x| f64::from(x) / 2.0)
                })
                .collect();
            v.iter().all(|x| x.is_finite()).then_some(v)
        })?;
        let best_mv = moves[best].1;
        let answers: Vec<madiao::Action> = legal
            .iter()
            .copied()
            .filter(|&a| {
                madiao_discard(&mine, a).is_none()
                    && candidates(&mine, &[a], k.unknown, k.reward).first().map(|c| c.1) == Some(best_mv)
            })
            .collect();
        let listed = ranked(&fv, &ev, |i| (moves[i].0, madiao_reason(&view, moves[i].0)));
        let line = self.line(st, moves[best].0);
        let h = heuristic::choose(&k, &legal);
        let heuristic_right = answers.contains(&h);
        let themes = themes(&k, &pos, &ctx, &moves, best);
        let mut hand = madiao::record::hand_to_record(st);
        hand.result = None;
        self.made.accepted += 1;
        Some(MadiaoPuzzle {
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
            difficulty: difficulty(heuristic_right, moves.len(), pos.tricks_left() >= 3),
            burial: None,
        })
    }

    /// The line after `answer` with every card known: each seat plays its exact best for its own
    /// payoff.
    fn line(&mut self, st: &madiao::State, answer: madiao::Action) -> Vec<Step<madiao::Action>> {
        solved_line::<Madiao>(st, answer, LINE, |st, seat| {
            let (ctx, pos) = from_state(st)?;
            let obj = objective(seat_u8(seat), ctx.banker, PlayerObjective::Own);
            let values = self.solver.move_values(&ctx, &pos, obj);
            values.iter().max_by_key(|x| x.1).map(|&(mv, _)| mv.action())
        })
    }
}

/// The themes of a Madiao puzzle.
fn themes(k: &Knowledge, pos: &Pos, ctx: &Ctx, moves: &[(madiao::Action, Mv)], best: usize) -> Vec<Theme> {
    let mut t = Vec::new();
    let following = pos.pos > 0;
    if following && moves.iter().any(|m| m.1.is_up()) && moves.iter().any(|m| !m.1.is_up()) {
        t.push(Theme::CaptureOrSlough);
    }
    let bit = |mv: Mv| 1u64 << mv.card();
    if k.reward & k.hand != 0
        && bit(moves[best].1) & k.reward == 0
        && moves.iter().any(|m| bit(m.1) & k.reward != 0)
    {
        t.push(Theme::RewardCard);
    }
    if pos.tricks_left() <= 2 && pos.tricks.contains(&0) {
        t.push(Theme::LastTrick);
    }
    let bt = pos.tricks[ctx.banker as usize];
    if bt < 2 && pos.tricks_left() >= 2 - bt {
        t.push(Theme::BankerCount);
    }
    if t.is_empty() {
        t.push(if following { Theme::CaptureOrSlough } else { Theme::Lead });
    }
    t
}

/// Walks one hand (from its start, replaying `history`, or by self-play when `history` is
/// `None`) and collects its puzzles.
#[allow(clippy::too_many_arguments)]
fn walk(
    g: &mut Gen,
    start: madiao::State,
    history: Option<Vec<(Seat, madiao::Action)>>,
    opts: &MakeOptions,
    tag: &str,
    deal: u64,
    out: &mut Vec<MadiaoPuzzle>,
    on_puzzle: &mut dyn FnMut(&MadiaoPuzzle, &MadeBy),
) {
    let mut st = start;
    let mut bots: Vec<Box<dyn Bot<Madiao>>> = (0..4)
        .map(|s| {
            Madiao::bot(&opts.bot, mix(opts.seed, deal, s), Budget { think_ms: 20 })
                .unwrap_or_else(|_| Box::new(heuristic::HeuristicBot::new()))
        })
        .collect();
    let mut ply = 0usize;
    let mut found = 0usize;
    let mut recorded = history.map(|h| h.into_iter());
    while let Some(seat) = st.to_move() {
        if out.len() >= opts.count {
            return;
        }
        let id = format!("m{tag}-{deal}-{ply}");
        if found < PER_HAND
            && let Some(p) = g.examine(&st, &id, mix(opts.seed, deal, 1000 + ply as u64))
        {
            on_puzzle(&p, &g.made);
            out.push(p);
            found += 1;
        }
        let action = match recorded.as_mut() {
            Some(it) => match it.next() {
                Some((_, a)) => a,
                None => return,
            },
            None => {
                let legal = st.legal_actions();
                bots[seat.index()].choose(&st.view(seat), &legal)
            }
        };
        if st.apply(action).is_err() {
            return;
        }
        ply += 1;
    }
}

/// Makes Madiao puzzles: recorded hands first, then self-play deals `0, 1, …` of `opts.seed`
/// (deck `madiao::deck_from_seed(seed, i)`, banker seat `i mod 4`) until `opts.count` are
/// accepted or `opts.max_deals` are played. `on_puzzle` is told of each accepted puzzle.
pub fn make_madiao(
    opts: &MakeOptions,
    on_puzzle: &mut dyn FnMut(&MadiaoPuzzle, &MadeBy),
) -> Result<MadiaoFile, PuzzleError> {
    let variants = madiao::Variants::preset(&opts.rules)
        .map_err(|e| PuzzleError::Bad { id: "-".into(), reason: e.to_string() })?;
    let mut g = Gen { solver: Solver::new(18), made: MadeBy { seed: opts.seed, ..MadeBy::default() } };
    let mut out = Vec::new();
    for (ri, rec) in opts.records.iter().enumerate() {
        let crate::record::AnyRecord::Madiao(rec) = rec else { continue };
        let rep = madiao::record::replay(rec);
        for (hi, h) in rep.hands.iter().enumerate() {
            if !h.state.is_over() || out.len() >= opts.count {
                continue;
            }
            let f = &h.state;
            let setup = madiao::HandSetup {
                banker: f.banker(),
                stake: f.stake(),
                deck: *f.deck(),
                variants: *f.variants(),
                progress: madiao::MatchProgress::default(),
            };
            let Ok(start) = madiao::State::new(setup) else { continue };
            g.made.recorded += 1;
            walk(&mut g, start, Some(f.history()), opts, &format!("r{ri}"), hi as u64, &mut out, on_puzzle);
        }
    }
    let mut deal = 0u64;
    while out.len() < opts.count && deal < opts.max_deals {
        let setup = madiao::HandSetup {
            banker: Seat::wrapping((deal % 4) as usize),
            stake: 2,
            deck: madiao::deck_from_seed(opts.seed, deal),
            variants,
            progress: madiao::MatchProgress::default(),
        };
        if let Ok(start) = madiao::State::new(setup) {
            g.made.deals += 1;
            walk(&mut g, start, None, opts, &format!("{}", opts.seed), deal, &mut out, on_puzzle);
        }
        deal += 1;
    }
    Ok(puzzle_file(GameKind::Madiao, opts, MADIAO_MARGIN, g.made, out))
}

/// Checks a Madiao puzzle again from its data alone: the position replays, the seat is to move,
/// every answer is legal and of one class, and with every card face up the answer beats every
/// other legal move by at least the margin. Returns the face-up gap.
pub fn check_madiao(p: &MadiaoPuzzle, rules: &str) -> Result<super::Checked, PuzzleError> {
    let bad = |reason: String| PuzzleError::Bad { id: p.id.clone(), reason };
    let st = madiao_position(&p.hand, rules).map_err(|e| bad(e.to_string()))?;
    if st.to_move() != Some(p.seat) {
        return Err(bad(format!("{} is not to move", p.seat)));
    }
    let legal = st.legal_actions();
    let Some(&answer) = p.answers.first() else { return Err(bad("no answer".into())) };
    for a in &p.answers {
        if !legal.contains(a) {
            return Err(bad(format!("the answer {a} is not legal")));
        }
    }
    let (ctx, pos) = from_state(&st).ok_or_else(|| bad("not a play position".into()))?;
    let view = st.view(p.seat);
    let k = Knowledge::from_view(&view);
    let mut mine = k.pos;
    mine.hands[k.me as usize] = k.hand;
    let moves = candidates(&mine, &legal, k.unknown, k.reward);
    let class = |a: madiao::Action| candidates(&mine, &[a], k.unknown, k.reward).first().map(|c| c.1);
    let best_mv = class(answer).ok_or_else(|| bad("the answer is not a move".into()))?;
    if p.answers.iter().any(|&a| class(a) != Some(best_mv)) {
        return Err(bad("the answers are not one move".into()));
    }
    let obj = objective(k.me, k.banker, PlayerObjective::Own);
    let mut solver = Solver::new(16);
    let (face, discard) = face_up_values(&mut solver, &ctx, &pos, obj, &moves, &legal)
        .ok_or_else(|| bad("a move has no exact value".into()))?;
    let bi =
        moves.iter().position(|m| m.1 == best_mv).ok_or_else(|| bad("the answer is not a move".into()))?;
    let bv = f64::from(face[bi]) / 2.0;
    let other = face
        .iter()
        .enumerate()
        .filter(|&(i, _)| i != bi)
        .map(|(_, &x)| f64::from(x) / 2.0)
        .chain(discard.map(|d| f64::from(d) / 2.0))
        .fold(f64::NEG_INFINITY, f64::max);
    let gap = bv - other;
    if gap < MADIAO_MARGIN - 1e-9 {
        return Err(bad(format!("the answer leads the next move by {gap} stakes, under the margin")));
    }
    Ok(super::Checked { face_up_gap: r4(gap), moves: moves.len() })
}

/// The index in `p.moves` of the move `action` is in the puzzle's position `st` (equivalent
/// cards alike); `None` for a move the puzzle does not list (a face-up discard, an illegal move).
pub fn madiao_move_index(p: &MadiaoPuzzle, st: &madiao::State, action: madiao::Action) -> Option<usize> {
    let k = Knowledge::from_view(&st.view(p.seat));
    let mut mine = k.pos;
    mine.hands[k.me as usize] = k.hand;
    if madiao_discard(&mine, action).is_some() || !st.legal_actions().contains(&action) {
        return None;
    }
    let class = |a: madiao::Action| candidates(&mine, &[a], k.unknown, k.reward).first().map(|c| c.1);
    let want = class(action)?;
    p.moves.iter().position(|m| class(m.action) == Some(want))
}
