//! The analysis of a finished Da Bai Fen deal ([`crate::analysis`] says what is measured): each
//! decision of the seat searched as a fresh `pimc` would, and its face-up verdict from the exact
//! solver (docs/rules/dabaifen.md for the rules it plays by).

use ::dabaifen::record::{DabaifenAction, DabaifenHand};
use cards::record::{GameKind, Record};

use cards::{Rng, Seat};

use crate::Budget;
use crate::analysis::model::{
    Analysis, AnalysisError, Candidate, DABAIFEN_MARKS, Decision, FACE_UP_CARDS, FACE_UP_NODES, FaceUp, Mark,
    Options, Position, Progress, Search, TrickPlay, Unit, Verdict, VoidShown, Why, check_hand, decision_seed,
    r4, summarize,
};
use crate::dabaifen::expert::{ExpertBot, Params as ExpertParams};
use crate::dabaifen::heuristic::legal_or_fallback;
use crate::dabaifen::infer;
use crate::dabaifen::know::Knowledge;
use crate::dabaifen::pimc::{
    Params, PimcBot, Search as DSearch, payoff, play_candidates, pos_from_view, resample, resplit_burial,
};
use crate::dabaifen::pos::Pos as DPos;
use crate::dabaifen::sample::Problem;
use crate::dabaifen::solver::{Solver as DSolver, for_each_reduced_play};
use crate::hint::{Reason, dabaifen_reason};

/// Analyses a Da Bai Fen record's hand (deal).
pub fn analyse_dabaifen(
    record: &Record<DabaifenHand>,
    opts: &Options,
    progress: &mut dyn FnMut(Progress),
) -> Result<Analysis, AnalysisError> {
    check_hand(opts.hand, record.hands.len())?;
    let rep = dabaifen::record::replay(record);
    if let Some(e) = &rep.error
        && e.hand.is_none_or(|x| x <= opts.hand)
    {
        return Err(AnalysisError::Replay(e.to_string()));
    }
    let Some(h) = rep.hands.get(opts.hand) else {
        return Err(AnalysisError::Replay("the hand was not replayed".into()));
    };
    if h.state.result().is_none() {
        return Err(AnalysisError::Unfinished(opts.hand));
    }
    let mut a = analyse_dabaifen_hand(
        &h.state,
        &record.hands[opts.hand].actions,
        opts.seat,
        opts.seed,
        opts.budget,
        progress,
    );
    a.hand = opts.hand;
    Ok(a)
}

/// Analyses a finished Da Bai Fen deal (its final engine state and its record actions) for
/// `seat`; the analysis's `hand` is 0.
pub fn analyse_dabaifen_hand(
    finished: &dabaifen::State,
    actions: &[DabaifenAction],
    seat: Seat,
    seed: u64,
    budget: Budget,
    progress: &mut dyn FnMut(Progress),
) -> Analysis {
    let total = actions.iter().filter(|a| a.seat() == seat).count();
    let mut decisions = Vec::with_capacity(total);
    progress(Progress { done: 0, total });
    if let Ok(mut st) = dabaifen::State::new(&finished.setup()) {
        for a in actions {
            if a.seat() == seat {
                let playing = st.phase() == dabaifen::Phase::Playing && st.to_move() == Some(seat);
                let trick = playing.then(|| st.tricks().len() as u8);
                let (played, verdict) = match a {
                    DabaifenAction::Play { .. } if playing => {
                        let mut probe = st.clone();
                        let played = (dabaifen::record::apply_recorded(&mut probe, a).is_ok())
                            .then(|| probe.history_last_play(seat))
                            .flatten();
                        match played {
                            Some(set) => (
                                dabaifen::Action::Play(set).to_string(),
                                dabaifen_play(&st, set, decision_seed(seed, decisions.len()), budget),
                            ),
                            None => (
                                format!("{a:?}"),
                                Verdict::NotAnalysed { reason: "the play could not be read".into() },
                            ),
                        }
                    }
                    other => dabaifen_before_play(&st, other, decision_seed(seed, decisions.len()), budget),
                };
                // A showing is recorded with its own draw poll, later than this state: its
                // position and reasons are not shown.
                let here = st.to_move() == Some(seat) && !matches!(a, DabaifenAction::Declare { .. });
                let (position, why) = if here {
                    let view = st.view(seat);
                    (Some(dabaifen_position(&view)), dabaifen_why(&st, &view, &played, &verdict))
                } else {
                    (None, None)
                };
                decisions.push(Decision { trick, played, verdict, position, why });
                progress(Progress { done: decisions.len(), total });
            }
            if dabaifen::record::apply_recorded(&mut st, a).is_err() {
                break;
            }
        }
    }
    let mut summary = summarize(&decisions, Unit::Levels);
    summary.result = finished
        .result()
        .filter(|r| r.outcome == dabaifen::Outcome::Played)
        .and_then(|r| r.defender_points.map(|t| r4(payoff(t, seat.team() != r.starter.team()))));
    Analysis {
        game: GameKind::Dabaifen,
        hand: 0,
        seat,
        seed,
        think_ms: budget.think_ms,
        unit: Unit::Levels,
        marks: DABAIFEN_MARKS,
        decisions,
        summary,
    }
}

/// What a Da Bai Fen seat saw at a decision (its view): its hand, the trick so far, the cards
/// played, the voids shown and the trump.
fn dabaifen_position(view: &dabaifen::View) -> Position {
    let current = view.tricks.last().filter(|t| t.winner.is_none());
    let codes = |cs: &[dabaifen::Card]| cs.iter().map(|c| c.to_string()).collect::<Vec<_>>();
    let trick = current.map_or(Vec::new(), |t| {
        t.plays.iter().map(|p| TrickPlay { seat: p.seat, cards: codes(&p.cards), face_down: false }).collect()
    });
    let played = view.tricks.iter().flat_map(|t| t.plays.iter()).flat_map(|p| codes(&p.cards)).collect();
    let voids = dabaifen::Tracker::from_view(view).map_or(Vec::new(), |t| {
        t.voids.iter().map(|v| VoidShown { seat: v.seat, suit: v.suit.clone() }).collect()
    });
    Position {
        hand: codes(&view.hand),
        trick,
        played,
        voids,
        upcard: None,
        trump: view.trump.map(|t| format!("{}{}", t.rank, t.suit.letter())),
    }
}

/// A move of the analysis's words (`play AS KS`, `bury …`, `declare 2S`, `pass`, `annul`,
/// `decline to annul`) as an action.
fn read_move(text: &str) -> Option<dabaifen::Action> {
    let mut words = text.split_whitespace();
    let verb = words.next()?;
    let rest: Vec<&str> = words.collect();
    let cards = || -> Option<dabaifen::Cards> {
        let mut set = dabaifen::Cards::EMPTY;
        for w in &rest {
            set.insert(w.parse::<dabaifen::Card>().ok()?);
        }
        Some(set)
    };
    match verb {
        "play" => Some(dabaifen::Action::Play(cards()?)),
        "bury" => Some(dabaifen::Action::Bury(cards()?)),
        "declare" => Some(dabaifen::Action::Declare(rest.first()?.parse().ok()?)),
        "annul" => Some(dabaifen::Action::Annul),
        "pass" | "decline" => Some(dabaifen::Action::Pass),
        _ => None,
    }
}

/// The reasons of a Da Bai Fen decision: the hints' reason for the best move
/// ([`dabaifen_reason`]), and when the move made cost something, its reason with what it cost:
/// the levels, and the card points it gave the other team on average.
fn dabaifen_why(st: &dabaifen::State, view: &dabaifen::View, played: &str, verdict: &Verdict) -> Option<Why> {
    let Verdict::Searched(x) = verdict else { return None };
    let legal = if st.phase() == dabaifen::Phase::Playing { st.legal_actions() } else { Vec::new() };
    let bot = read_move(&x.bot)?;
    let made = read_move(played)?;
    let best = dabaifen_reason(view, &legal, bot);
    let against = (x.cost > 0.0 && bot != made).then(|| {
        let r = dabaifen_reason(view, &legal, made);
        let points = |a: &str| x.candidates.iter().find(|c| c.action == a).and_then(|c| c.points);
        let defends = view.seat.is_some_and(|s| s.team() != view.starter.team());
        let gift = match (points(&x.bot), points(played)) {
            (Some(b), Some(p)) => {
                if defends {
                    b - p
                } else {
                    p - b
                }
            }
            _ => 0.0,
        };
        let bot_zh = crate::dabaifen::hint::action_zh(view, bot);
        let bot_en = crate::dabaifen::hint::action_en(view, bot);
        let (points_en, points_zh) = if gift >= 1.0 && defends {
            (
                format!("; your team takes {gift:.0} card points fewer on average than with {bot_en}"),
                format!("；你方平均比{bot_zh}少得{gift:.0}分"),
            )
        } else if gift >= 1.0 {
            (
                format!("; it gives the defenders {gift:.0} card points more on average than {bot_en}"),
                format!("；平均比{bot_zh}多送守方{gift:.0}分"),
            )
        } else {
            (String::new(), String::new())
        };
        // A burial near the best: which cards to swap.
        let (change_en, change_zh) = match (made, bot) {
            (dabaifen::Action::Bury(m), dabaifen::Action::Bury(b)) => {
                crate::dabaifen::hint::bury_change(view, m, b)
                    .map_or((String::new(), String::new()), |(en, zh)| (format!("; {en}"), format!("；{zh}")))
            }
            _ => (String::new(), String::new()),
        };
        Reason {
            kind: r.kind,
            en: format!(
                "{}; but it is worth {:.2} levels less on average than {bot_en}{points_en}{change_en}",
                r.en, x.cost
            ),
            zh: format!("{}；但平均比{bot_zh}少{:.2}级{points_zh}{change_zh}", r.zh, x.cost),
        }
    });
    Some(Why { best, played: against })
}

/// Why a decision before play has no face-up verdict.
const BEFORE_PLAY_FACE_UP: &str = "a decision before play: no exact solver values a whole deal";

/// A move before play in words (at an annulment poll, passing is declining to annul; at a draw
/// poll it is showing nothing).
fn before_play_label(a: dabaifen::Action, annul_poll: bool) -> String {
    match a {
        dabaifen::Action::Pass if annul_poll => "decline to annul".into(),
        other => other.to_string(),
    }
}

/// One Da Bai Fen decision before play (showing a trump, an annulment poll, the burial): the
/// move made, and what a fresh `pimc` (seed `seed`) weighs there from the seat's view, with the
/// move made valued beside its candidates.
fn dabaifen_before_play(
    st: &dabaifen::State,
    action: &DabaifenAction,
    seed: u64,
    budget: Budget,
) -> (String, Verdict) {
    let made = match action {
        DabaifenAction::Declare { card, .. } => {
            card.parse::<dabaifen::Card>().ok().map(dabaifen::Action::Declare)
        }
        DabaifenAction::Annul { annul: true, .. } => Some(dabaifen::Action::Annul),
        DabaifenAction::Annul { annul: false, .. } => Some(dabaifen::Action::Pass),
        DabaifenAction::Bury { cards, .. } => {
            let mut set = dabaifen::Cards::EMPTY;
            let all = cards.iter().all(|code| code.parse::<dabaifen::Card>().is_ok_and(|c| set.insert(c)));
            all.then_some(dabaifen::Action::Bury(set))
        }
        DabaifenAction::Play { .. } => None,
    };
    let Some(made) = made else {
        return (
            describe_dabaifen(action),
            Verdict::NotAnalysed { reason: "the move could not be read".into() },
        );
    };
    let annul_poll = matches!(action, DabaifenAction::Annul { .. });
    (before_play_label(made, annul_poll), weigh_before_play(st, action.seat(), action, made, seed, budget))
}

/// How many times the analysis's budget its burial search is given (`docs/analysis.md`): the
/// burial is one decision of a deal, and its verdict is worth the work (at the default 100 ms,
/// `expert`'s burial at 1000 ms: about 12,000 rollouts, under a second of CPU in a debug build).
pub const BURY_EFFORT: u32 = 10;

/// The verdict of a decision before play (see [`dabaifen_before_play`]).
fn weigh_before_play(
    st: &dabaifen::State,
    seat: Seat,
    action: &DabaifenAction,
    made: dabaifen::Action,
    seed: u64,
    budget: Budget,
) -> Verdict {
    let mut at = st.clone();
    // A showing is recorded with the draw poll it was made at: every poll before it passes.
    if let DabaifenAction::Declare { drawn, .. } = *action {
        for _ in 0..600 {
            if at.phase() != dabaifen::Phase::Drawing
                || at.drawn() > drawn
                || (at.drawn() == drawn && at.to_move() == Some(seat))
            {
                break;
            }
            at.apply_unchecked(dabaifen::Action::Pass);
        }
    }
    if at.to_move() != Some(seat) {
        return Verdict::NotAnalysed { reason: "the seat was not to move".into() };
    }
    let legal = at.legal_actions();
    if !legal.contains(&made) {
        return Verdict::NotAnalysed { reason: format!("{made} was not legal there") };
    }
    if legal.len() <= 1 {
        return Verdict::Forced;
    }
    let view = at.view(seat);
    let annul_poll = matches!(action, DabaifenAction::Annul { .. });
    let mut bot = PimcBot::new(seed, budget);
    let weighed = match made {
        dabaifen::Action::Declare(_) => bot.weigh_declare(&view, &legal, Some(made)),
        dabaifen::Action::Annul | dabaifen::Action::Pass => bot.weigh_annul(&view, &legal),
        // The burial: `expert`'s widened search at `BURY_EFFORT` times the budget (its screen
        // of one-card changes), then a last pass over `pimc`'s candidates, the screen's
        // finalists and the burial made.
        dabaifen::Action::Bury(set) => {
            let wide = Budget { think_ms: budget.think_ms.saturating_mul(BURY_EFFORT) };
            let worlds = ExpertParams::for_budget(wide).bury_final;
            ExpertBot::new(seed, wide).weigh_bury_wide(&view, &legal, set.bits(), worlds)
        }
        dabaifen::Action::Play(_) => None,
    };
    let Some(w) = weighed else {
        return Verdict::NotAnalysed { reason: "no world consistent with the seat's view was found".into() };
    };
    let Some(pi) = w.actions.iter().position(|&a| a == made) else {
        return Verdict::NotAnalysed { reason: format!("{made} was not valued") };
    };
    if w.samples == 0 {
        // The bot weighs nothing when it would not show any card: passing is its only candidate.
        return Verdict::NotAnalysed {
            reason: "the bot would not show a card the hand does not support, and did not weigh it".into(),
        };
    }
    let m = f64::from(w.samples);
    let valued: Vec<usize> = (0..w.actions.len()).filter(|&j| w.sums[j].is_finite()).collect();
    if !valued.contains(&pi) || !valued.contains(&w.choice) {
        return Verdict::NotAnalysed { reason: "the move could not be played in the sampled deals".into() };
    }
    let candidates: Vec<Candidate> = valued
        .iter()
        .map(|&j| Candidate {
            action: before_play_label(w.actions[j], annul_poll),
            value: r4(w.sums[j] / m),
            points: w.points.as_ref().map(|p| r4(p[j] / m)),
            considered: j < w.considered,
        })
        .collect();
    let value = |j: usize| r4(w.sums[j] / m);
    let (played_value, bot_value) = (value(pi), value(w.choice));
    let cost = r4((bot_value - played_value).max(0.0));
    Verdict::Searched(Search {
        bot: before_play_label(w.actions[w.choice], annul_poll),
        samples: w.samples,
        candidates,
        played_value,
        bot_value,
        cost,
        mark: Mark::of(cost, DABAIFEN_MARKS),
        face_up: FaceUp::Unsolved { reason: BEFORE_PLAY_FACE_UP.into() },
    })
}

/// A record action other than a play, in words.
fn describe_dabaifen(a: &DabaifenAction) -> String {
    match a {
        DabaifenAction::Declare { card, .. } => format!("declare {card}"),
        DabaifenAction::Annul { annul: true, .. } => "annul".into(),
        DabaifenAction::Annul { annul: false, .. } => "decline to annul".into(),
        DabaifenAction::Bury { cards, .. } => format!("bury {}", cards.join(" ")),
        DabaifenAction::Play { cards, .. } => format!("play {}", cards.join(" ")),
    }
}

/// The cards `seat` played last in a state's current or last trick.
trait LastPlay {
    fn history_last_play(&self, seat: Seat) -> Option<dabaifen::Cards>;
}

impl LastPlay for dabaifen::State {
    fn history_last_play(&self, seat: Seat) -> Option<dabaifen::Cards> {
        self.tricks().iter().rev().find_map(|t| t.in_order().find(|(s, _)| *s == seat).map(|(_, c)| c))
    }
}

/// The verdict on one Da Bai Fen play: `played`, by the seat to move in `st` (in the play),
/// searched as the analysis searches its plays (a fresh `pimc` seeded `seed`, the budget
/// `budget`), with its face-up verdict.
pub fn dabaifen_play_decision(
    st: &dabaifen::State,
    played: dabaifen::Cards,
    seed: u64,
    budget: Budget,
) -> Verdict {
    dabaifen_play(st, played, seed, budget)
}

/// Why a revoke is not valued.
const REVOKE: &str =
    "a revoke (a multi-card lead of cards not all top cards): its penalty is outside the search's model";

/// True when `set`, played by `seat` now, is a revoke: a lead of two or more cards not all of
/// them top cards.
fn is_revoke(st: &dabaifen::State, seat: Seat, set: dabaifen::Cards) -> bool {
    let leading = st.tricks().last().is_some_and(|t| t.count == 0);
    leading && set.len() >= 2 && !set.is_subset(st.top_cards(seat))
}

/// One Da Bai Fen play decision: the search of a fresh `pimc` (seed `seed`) from the seat's
/// view, the play made valued in the same worlds, and the face-up verdict.
fn dabaifen_play(st: &dabaifen::State, played: dabaifen::Cards, seed: u64, budget: Budget) -> Verdict {
    let Some(seat) = st.to_move() else {
        return Verdict::NotAnalysed { reason: "nobody was to move".into() };
    };
    let legal = st.legal_actions();
    let view = st.view(seat);
    let played_bits = played.bits();
    if is_revoke(st, seat, played) {
        return Verdict::NotAnalysed { reason: REVOKE.into() };
    }
    let params = Params::for_budget(budget);
    let Some(k) = Knowledge::from_view(&view, &legal) else {
        return Verdict::NotAnalysed {
            reason: "the seat's knowledge could not be read from its view".into(),
        };
    };
    let cands = play_candidates(&view, &k, &legal, params.max_candidates);
    if cands.len() <= 1 && legal.len() <= 1 {
        return Verdict::Forced;
    }
    if cands.len() <= 1 && cands.first() == Some(&played_bits) {
        return Verdict::Forced;
    }
    // As `pimc` plays: the same worlds (drawn, weighted and resampled) and values.
    let mut rng = Rng::from_seed(seed);
    let mut search = DSearch::new(params);
    let problem = Problem::of(&k);
    let n = params.samples as usize;
    let obs = infer::observed(&view, &k);
    let draws = if obs.is_empty() { 1 } else { params.draws.max(1) as usize };
    let mut drawn: Vec<([u64; 5], f64)> = Vec::with_capacity(n * draws);
    for _ in 0..n * draws {
        let mut w = problem.sample(&mut rng);
        resplit_burial(&k, &mut w);
        let weight = if draws == 1 { 1.0 } else { infer::weight(&view, &k, &obs, &w, params.miss) };
        drawn.push((w, weight));
    }
    let worlds: Vec<DPos> =
        resample(&drawn, n, &mut rng).into_iter().map(|w| pos_from_view(&view, &k, &w)).collect();
    let sizes_ok = |p: &DPos| (0..4).all(|s| p.hands[s].count_ones() == u32::from(view.hand_sizes[s]));
    if !worlds.iter().all(sizes_ok) {
        return Verdict::NotAnalysed { reason: "no world consistent with the seat's view was found".into() };
    }
    let defends = seat.team() != view.starter.team();
    let extra = !cands.contains(&played_bits);
    let mut all = cands.clone();
    if extra {
        all.push(played_bits);
    }
    let mut sums = vec![0.0f64; all.len()];
    let mut points = vec![0.0f64; all.len()];
    for w in &worlds {
        search.solver.new_world();
        for (j, &c) in all.iter().enumerate() {
            let t = search.value_of(w, c);
            sums[j] += payoff(t, defends);
            points[j] += f64::from(t);
        }
    }
    // `pimc`'s choice: the best average among its candidates, ties to the earlier.
    let mut best = 0;
    for j in 0..cands.len() {
        if sums[j] > sums[best] + 1e-9 {
            best = j;
        }
    }
    let m = worlds.len() as f64;
    let candidates: Vec<Candidate> = all
        .iter()
        .enumerate()
        .map(|(j, &c)| Candidate {
            action: dabaifen::Action::Play(dabaifen::Cards::from_bits(c)).to_string(),
            value: r4(sums[j] / m),
            points: Some(r4(points[j] / m)),
            considered: j < cands.len(),
        })
        .collect();
    let pi = all.iter().position(|&c| c == played_bits).unwrap_or(0);
    let played_value = candidates[pi].value;
    let bot_value = candidates[best].value;
    let cost = r4((bot_value - played_value).max(0.0));
    let bot =
        legal_or_fallback(Some(dabaifen::Action::Play(dabaifen::Cards::from_bits(cands[best]))), &legal);
    Verdict::Searched(Search {
        bot: bot.to_string(),
        samples: worlds.len() as u32,
        candidates,
        played_value,
        bot_value,
        cost,
        mark: Mark::of(cost, DABAIFEN_MARKS),
        face_up: dabaifen_face_up(st, played, &legal),
    })
}

/// The Da Bai Fen face-up verdict at a decision: the exact values, for the seat's team, of its
/// plays (one per class of interchangeable plays, and the play made) with every card known. A
/// revoke is never among them (its penalty is outside the solver's model); when the play made is
/// one, the verdict is unsolved.
pub fn dabaifen_face_up(st: &dabaifen::State, played: dabaifen::Cards, legal: &[dabaifen::Action]) -> FaceUp {
    let Some(pos) = DPos::from_state(st) else {
        return FaceUp::Unsolved { reason: "not a play position".into() };
    };
    if st.to_move().is_some_and(|s| is_revoke(st, s, played)) {
        return FaceUp::Unsolved { reason: REVOKE.into() };
    }
    let per_hand = pos.cards_per_hand();
    if per_hand > FACE_UP_CARDS {
        return FaceUp::Unsolved {
            reason: format!(
                "{per_hand} cards per hand remain; the exact solver is tried from {FACE_UP_CARDS}"
            ),
        };
    }
    let defends = pos.to_move() & 1 == pos.defenders;
    let legal_plays: Vec<u64> = legal
        .iter()
        .filter_map(|a| match a {
            dabaifen::Action::Play(s) => Some(s.bits()),
            _ => None,
        })
        .collect();
    let mut plays = vec![played.bits()];
    for_each_reduced_play(&pos, |m| {
        if legal_plays.contains(&m) && !plays.contains(&m) {
            plays.push(m);
        }
    });
    let mut solver = DSolver::new();
    let mut valued = Vec::with_capacity(plays.len());
    for &p in &plays {
        match solver.value_after(&pos, p, FACE_UP_NODES) {
            Ok(v) => valued.push((p, payoff(pos.def_points + v as u32, defends))),
            Err(_) => {
                return FaceUp::Unsolved {
                    reason: format!("the exact solver needed more than {FACE_UP_NODES} nodes for one play"),
                };
            }
        }
    }
    let played_v = valued[0].1;
    let mut best = 0;
    for (j, v) in valued.iter().enumerate() {
        if v.1 > valued[best].1 + 1e-9 {
            best = j;
        }
    }
    FaceUp::Solved {
        best: dabaifen::Action::Play(dabaifen::Cards::from_bits(valued[best].0)).to_string(),
        best_value: r4(valued[best].1),
        played_value: r4(played_v),
        cost: r4(valued[best].1 - played_v),
    }
}
