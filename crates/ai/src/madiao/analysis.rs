//! The analysis of a finished Madiao hand ([`crate::analysis`] says what is measured): each
//! decision of the seat searched as a fresh `pimc` would, and its face-up verdict from the exact
//! solver (docs/rules/madiao.md for the rules it plays by).

use ::madiao::record::MadiaoHand;
use cards::record::{GameKind, Record};

use cards::{Rng, Seat};

use crate::Budget;
use crate::analysis::model::{
    Analysis, AnalysisError, Candidate, Decision, FACE_UP_TRICKS, FaceUp, MADIAO_MARKS, Mark, Options,
    Position, Progress, Search, TrickPlay, Unit, Verdict, VoidShown, Why, check_hand, decision_seed, r4,
    summarize,
};
use crate::hint::{Reason, madiao_reason};
use crate::madiao::heuristic;
use crate::madiao::know::Knowledge;
use crate::madiao::pimc::{
    BANKER_WORK, FRESH_HAND, MAX_SAMPLES, MIN_SAMPLES, PlayerObjective, ROLLOUT_COST, Settings, candidates,
    objective,
};
use crate::madiao::pos::{Ctx, Mv, Pos as MPos, discard_penalties, from_state};
use crate::madiao::solver::{Objective, Solver as MSolver};

/// Analyses a Madiao record's hand.
pub fn analyse_madiao(
    record: &Record<MadiaoHand>,
    opts: &Options,
    progress: &mut dyn FnMut(Progress),
) -> Result<Analysis, AnalysisError> {
    check_hand(opts.hand, record.hands.len())?;
    let rep = madiao::record::replay(record);
    let Some(h) = rep.hands.get(opts.hand) else {
        return Err(AnalysisError::Replay(
            rep.error.map_or("the hand was not replayed".into(), |e| e.to_string()),
        ));
    };
    if let Some(e) = &rep.error
        && e.hand.is_none_or(|x| x <= opts.hand)
    {
        return Err(AnalysisError::Replay(e.to_string()));
    }
    if !h.state.is_over() {
        return Err(AnalysisError::Unfinished(opts.hand));
    }
    let mut a = analyse_madiao_hand(&h.state, opts.seat, opts.seed, opts.budget, progress);
    a.hand = opts.hand;
    Ok(a)
}

/// Analyses a finished Madiao hand (its final engine state) for `seat`; the analysis's `hand` is
/// 0.
pub fn analyse_madiao_hand(
    finished: &madiao::State,
    seat: Seat,
    seed: u64,
    budget: Budget,
    progress: &mut dyn FnMut(Progress),
) -> Analysis {
    let setup = madiao::HandSetup {
        banker: finished.banker(),
        stake: finished.stake(),
        deck: *finished.deck(),
        variants: *finished.variants(),
        progress: finished.progress(),
    };
    let history = finished.history();
    let total = history.iter().filter(|(s, _)| *s == seat).count();
    let mut decisions = Vec::with_capacity(total);
    progress(Progress { done: 0, total });
    if let Ok(mut st) = madiao::State::new(setup) {
        for (s, action) in history {
            if s == seat {
                let trick = (st.phase() == madiao::Phase::Play).then(|| st.trick_number() + 1);
                let verdict = match action {
                    madiao::Action::Redeal(_) => {
                        madiao_redeal(&st, action, decision_seed(seed, decisions.len()), budget)
                    }
                    _ => madiao_play(&st, action, decision_seed(seed, decisions.len()), budget),
                };
                let view = st.view(seat);
                let position = Some(madiao_position(&view));
                let why = madiao_why(&view, &st.legal_actions(), action, &verdict);
                decisions.push(Decision { trick, played: action.to_string(), verdict, position, why });
                progress(Progress { done: decisions.len(), total });
            }
            if st.apply(action).is_err() {
                break;
            }
        }
    }
    let mut summary = summarize(&decisions, Unit::Stakes);
    summary.result = finished.is_over().then(|| r4(finished.payoffs()[seat].to_f64()));
    Analysis {
        game: GameKind::Madiao,
        hand: 0,
        seat,
        seed,
        think_ms: budget.think_ms,
        unit: Unit::Stakes,
        marks: MADIAO_MARKS,
        decisions,
        summary,
    }
}

/// What a Madiao seat saw at a decision (its view): its hand, the trick so far, the cards seen
/// played, the voids shown and the upcard.
fn madiao_position(view: &madiao::View) -> Position {
    let tracker = madiao::Tracker::from_view(view);
    let current = view.tricks.last().filter(|t| t.winner.is_none());
    let trick = current.map_or(Vec::new(), |t| {
        t.plays
            .iter()
            .map(|p| TrickPlay {
                seat: p.seat,
                cards: p.card.filter(|_| p.face_up).map(|c| vec![c.to_string()]).unwrap_or_default(),
                face_down: !p.face_up,
            })
            .collect()
    });
    let played = view
        .tricks
        .iter()
        .flat_map(|t| t.plays.iter())
        .filter(|p| p.face_up)
        .filter_map(|p| p.card.map(|c| c.to_string()))
        .collect();
    Position {
        hand: view.hand.iter().map(|c| c.to_string()).collect(),
        trick,
        played,
        voids: tracker.voids.iter().map(|v| VoidShown { seat: v.seat, suit: v.suit.to_string() }).collect(),
        upcard: Some(view.upcard.to_string()),
        trump: None,
    }
}

/// The reasons of a Madiao decision: the hints' reason for the best move ([`madiao_reason`]), and
/// when the move made cost something, its reason with what it cost against the best.
fn madiao_why(
    view: &madiao::View,
    legal: &[madiao::Action],
    action: madiao::Action,
    verdict: &Verdict,
) -> Option<Why> {
    let Verdict::Searched(x) = verdict else { return None };
    let bot = legal.iter().copied().find(|a| a.to_string() == x.bot)?;
    let best = madiao_reason(view, bot);
    let played = (x.cost > 0.0 && bot != action).then(|| {
        let r = madiao_reason(view, action);
        Reason {
            kind: r.kind,
            en: format!(
                "{}; but it is worth {:.2} stakes less on average than {} ({:+.2} against {:+.2})",
                r.en,
                x.cost,
                crate::madiao::hint::action_en(bot),
                x.played_value,
                x.bot_value
            ),
            zh: format!(
                "{}；但平均比{}少得{:.2}注（{:+.2}对{:+.2}）",
                r.zh,
                crate::madiao::hint::action_zh(bot),
                x.cost,
                x.played_value,
                x.bot_value
            ),
        }
    });
    Some(Why { best, played })
}

/// The verdict on one Madiao decision: `action`, made by the seat to move in `st`, searched as
/// the analysis searches its decisions (a fresh `pimc` seeded `seed`, the budget `budget`; a
/// redeal choice or a play). The analysis of a hand gives its `i`-th decision this verdict with
/// the seed [`crate::analysis::decision_seed`]`(seed, i)`.
pub fn madiao_decision(st: &madiao::State, action: madiao::Action, seed: u64, budget: Budget) -> Verdict {
    match action {
        madiao::Action::Redeal(_) => madiao_redeal(st, action, seed, budget),
        _ => madiao_play(st, action, seed, budget),
    }
}

/// A face-up card that is not a lead or a capture (a face-up discard): its card.
pub(crate) fn madiao_discard(pos: &MPos, action: madiao::Action) -> Option<u8> {
    match action {
        madiao::Action::Play(c) if pos.pos > 0 && pos.captures() & (1u64 << c.number()) == 0 => {
            Some(c.number())
        }
        _ => None,
    }
}

/// The value, in half-stakes for `obj`, of a face-up discard of `card` in a world: the card
/// leaves the hand as a slough would, the discard's penalty is owed, and the card counts as
/// played face up for the stock check. Exact when `exact`, else a rollout hands over to the
/// solver as `pimc`'s do.
pub(crate) fn madiao_discard_value(
    solver: &mut MSolver,
    ctx: &Ctx,
    pos: &MPos,
    obj: Objective,
    card: u8,
    exact: bool,
    rollout_to: u8,
) -> i32 {
    let mut ctx2 = *ctx;
    let pen = discard_penalties(ctx.banker, [pos.to_move]);
    for (b, p) in ctx2.base.iter_mut().zip(pen) {
        *b += p;
    }
    let mut child = *pos;
    child.play(&ctx2, Mv::down(card));
    if ctx.check.is_some_and(|(c, _)| c == card) {
        child.check_up = true;
    }
    if !exact {
        heuristic::rollout(&ctx2, &mut child, rollout_to);
    }
    if child.is_over() { obj.value(&child.payoffs(&ctx2)) } else { solver.value(&ctx2, &child, obj) }
}

/// One Madiao play decision: the search of a fresh `pimc` (seed `seed`) from the seat's view,
/// the move made valued in the same worlds, and the face-up verdict.
fn madiao_play(st: &madiao::State, action: madiao::Action, seed: u64, budget: Budget) -> Verdict {
    let Some(seat) = st.to_move() else {
        return Verdict::NotAnalysed { reason: "nobody was to move".into() };
    };
    let legal = st.legal_actions();
    let view = st.view(seat);
    let k = Knowledge::from_view(&view);
    let settings = Settings::new(budget, PlayerObjective::Own);
    let mut mine = k.pos;
    mine.hands[k.me as usize] = k.hand;
    let moves = candidates(&mine, &legal, k.unknown, k.reward);
    let discard = madiao_discard(&mine, action);
    let played_class = if discard.is_some() {
        None
    } else {
        candidates(&mine, &[action], k.unknown, k.reward)
            .first()
            .and_then(|c| moves.iter().position(|m| m.1 == c.1))
    };
    if moves.len() <= 1 && discard.is_none() {
        return Verdict::Forced;
    }
    let obj = objective(k.me, k.banker, settings.objective);
    // As `pimc` plays: the same worlds, work and tie-break.
    let mut rng = Rng::from_seed(seed);
    let mut solver = MSolver::new(15);
    let mut side = MSolver::new(15);
    let mut totals = vec![0i64; moves.len()];
    let mut discard_total = 0i64;
    let mut work = 0u64;
    let mut n = 0u32;
    let limit = if k.me == k.banker { settings.work * BANKER_WORK } else { settings.work };
    while (work < limit || n < MIN_SAMPLES) && n < MAX_SAMPLES {
        let w = k.sample(&mut rng, 60);
        let (ctx, pos) = k.search(&w);
        let n0 = solver.nodes;
        let mut rollout_moves = 0u64;
        let exact = pos.tricks_left() <= settings.exact_tricks;
        if exact {
            let values = solver.move_values(&ctx, &pos, obj);
            for (o, &(_, mv)) in totals.iter_mut().zip(&moves) {
                *o += i64::from(MSolver::lookup(&ctx, &pos, &values, mv).unwrap_or(i32::MIN / 4));
            }
        } else {
            for (o, &(_, mv)) in totals.iter_mut().zip(&moves) {
                let mut child = pos;
                child.play(&ctx, mv);
                rollout_moves += u64::from(heuristic::rollout(&ctx, &mut child, settings.rollout_to));
                let v = if child.is_over() {
                    obj.value(&child.payoffs(&ctx))
                } else {
                    solver.value(&ctx, &child, obj)
                };
                *o += i64::from(v);
            }
        }
        work += solver.nodes - n0 + rollout_moves * ROLLOUT_COST;
        if let Some(c) = discard {
            discard_total +=
                i64::from(madiao_discard_value(&mut side, &ctx, &pos, obj, c, exact, settings.rollout_to));
        }
        n += 1;
    }
    let h = heuristic::choose(&k, &legal);
    let prefer = candidates(&mine, &[h], k.unknown, k.reward)
        .first()
        .and_then(|c| moves.iter().position(|m| m.1 == c.1));
    let max = totals.iter().copied().max().unwrap_or(0);
    let best = match prefer {
        Some(p) if totals.get(p) == Some(&max) => p,
        _ => totals.iter().position(|&t| t == max).unwrap_or(0),
    };
    // Half-stakes summed over `n` worlds → stakes on average.
    let stakes = |t: i64| r4(t as f64 / f64::from(n) / 2.0);
    let mut cands: Vec<Candidate> = moves
        .iter()
        .zip(&totals)
        .map(|(m, &t)| Candidate {
            action: m.0.to_string(),
            value: stakes(t),
            points: None,
            considered: true,
        })
        .collect();
    let played_value = match (discard, played_class) {
        (Some(_), _) => {
            cands.push(Candidate {
                action: action.to_string(),
                value: stakes(discard_total),
                points: None,
                considered: false,
            });
            stakes(discard_total)
        }
        (None, Some(i)) => stakes(totals[i]),
        (None, None) => {
            return Verdict::NotAnalysed { reason: format!("{action} is not a move the bot's model knows") };
        }
    };
    let bot_value = stakes(totals[best]);
    let cost = r4((bot_value - played_value).max(0.0));
    Verdict::Searched(Search {
        bot: moves[best].0.to_string(),
        samples: n,
        candidates: cands,
        played_value,
        bot_value,
        cost,
        mark: Mark::of(cost, MADIAO_MARKS),
        face_up: madiao_face_up(st, action, &legal),
    })
}

/// A Madiao redeal choice, as a fresh `pimc` (seed `seed`) weighs it: declining is worth the
/// hand played out by the rules from the first lead, averaged over sampled deals consistent
/// with the seat's view; forcing a redeal is worth what a fresh hand is worth on average to the
/// seat ([`crate::madiao::pimc::FRESH_HAND`]). No exact solver values a whole hand: the face-up verdict is unsolved.
fn madiao_redeal(st: &madiao::State, action: madiao::Action, seed: u64, budget: Budget) -> Verdict {
    let Some(seat) = st.to_move() else {
        return Verdict::NotAnalysed { reason: "nobody was to move".into() };
    };
    let k = Knowledge::from_view(&st.view(seat));
    let settings = Settings::new(budget, PlayerObjective::Own);
    let obj = objective(k.me, k.banker, settings.objective);
    let mut rng = Rng::from_seed(seed);
    let (mut total, mut work, mut n) = (0.0f64, 0u64, 0u32);
    while (work < settings.work || n < MIN_SAMPLES) && n < MAX_SAMPLES * 4 {
        let w = k.sample(&mut rng, 60);
        let (ctx, mut pos) = k.search(&w);
        pos.to_move = k.first;
        pos.leader = k.first;
        pos.best_seat = k.first;
        let moves = heuristic::rollout(&ctx, &mut pos, 0);
        total += f64::from(obj.value(&pos.payoffs(&ctx)));
        work += u64::from(moves) * ROLLOUT_COST;
        n += 1;
    }
    let row = usize::from(k.variants.banker_shortfall != madiao::variants::BankerShortfall::Winners);
    let fresh: f64 = (0..4u8)
        .map(|s| f64::from(obj.weights[s as usize]) * FRESH_HAND[row][usize::from(s != k.banker)])
        .sum();
    let force = total < fresh * f64::from(n);
    // Half-stakes → stakes.
    let decline_value = r4(total / f64::from(n) / 2.0);
    let force_value = r4(fresh / 2.0);
    let (bot, bot_value) = if force {
        (madiao::Action::Redeal(true), force_value)
    } else {
        (madiao::Action::Redeal(false), decline_value)
    };
    let played_value = if action == madiao::Action::Redeal(true) { force_value } else { decline_value };
    let cost = r4((bot_value - played_value).max(0.0));
    Verdict::Searched(Search {
        bot: bot.to_string(),
        samples: n,
        candidates: vec![
            Candidate {
                action: madiao::Action::Redeal(true).to_string(),
                value: force_value,
                points: None,
                considered: true,
            },
            Candidate {
                action: madiao::Action::Redeal(false).to_string(),
                value: decline_value,
                points: None,
                considered: true,
            },
        ],
        played_value,
        bot_value,
        cost,
        mark: Mark::of(cost, MADIAO_MARKS),
        face_up: FaceUp::Unsolved {
            reason: "a redeal choice concerns the whole hand, which no exact solver values".into(),
        },
    })
}

/// The Madiao face-up verdict at a decision: the exact values of the seat's moves (its own
/// payoff, everyone else against it) with every card known — one per class of equivalent cards,
/// and every face-up discard the rules allow.
pub fn madiao_face_up(st: &madiao::State, action: madiao::Action, legal: &[madiao::Action]) -> FaceUp {
    let Some((ctx, pos)) = from_state(st) else {
        return FaceUp::Unsolved { reason: "not a play position".into() };
    };
    let left = pos.tricks_left();
    if left > FACE_UP_TRICKS {
        return FaceUp::Unsolved {
            reason: format!("{left} tricks remain; the exact solver is used from {FACE_UP_TRICKS}"),
        };
    }
    let me = pos.to_move;
    let obj = objective(me, ctx.banker, PlayerObjective::Own);
    let others = (0..4).filter(|&x| x != me as usize).fold(0u64, |m, x| m | pos.hands[x]);
    let moves = candidates(&pos, legal, others, ctx.reward);
    let mut solver = MSolver::new(16);
    let values = solver.move_values(&ctx, &pos, obj);
    let mut valued: Vec<(madiao::Action, i32)> = moves
        .iter()
        .filter_map(|&(a, mv)| MSolver::lookup(&ctx, &pos, &values, mv).map(|v| (a, v)))
        .collect();
    let mut side = MSolver::new(14);
    let mut played = None;
    for &a in legal {
        if let Some(c) = madiao_discard(&pos, a) {
            let v = madiao_discard_value(&mut side, &ctx, &pos, obj, c, true, 0);
            valued.push((a, v));
            if a == action {
                played = Some(v);
            }
        }
    }
    if madiao_discard(&pos, action).is_none() {
        played = Mv::from_action(action).and_then(|mv| MSolver::lookup(&ctx, &pos, &values, mv));
    }
    let (Some(played), Some(&(best, best_v))) = (played, valued.iter().max_by_key(|x| x.1)) else {
        return FaceUp::Unsolved { reason: format!("{action} has no exact value") };
    };
    let half = |v: i32| r4(f64::from(v) / 2.0);
    FaceUp::Solved {
        best: best.to_string(),
        best_value: half(best_v),
        played_value: half(played),
        cost: r4(half(best_v) - half(played)),
    }
}
