//! The `dabaifen` side of `yezi replay`, `yezi sim` and `yezi bench`.

use std::io::Write;
use std::time::Instant;

use anyhow::Context as _;
use cards::Seat;
use cards::record::{Record, to_pretty_json};
use dabaifen::random::{RandomPolicy, play_out_checked};
use dabaifen::record::DabaifenHand;
use dabaifen::record::{hand_record, match_record};
use dabaifen::{Action, Event, Match, Outcome, Phase, State, Variants, deal_from_seed, first_draw};

use crate::bots_cli::BotTable;
use crate::{BenchArgs, SimArgs, parse_variant_args};

fn write_hand(out: &mut impl Write, h: usize, st: &State) -> std::io::Result<()> {
    let [r0, r1] = st.ranks();
    let kind = if st.is_first_deal() {
        "first deal"
    } else if st.is_open() {
        "open deal"
    } else {
        "deal"
    };
    let starter = if st.is_first_deal() || st.is_open() { "provisional starter" } else { "starter" };
    writeln!(
        out,
        "Hand {h}: {kind}, {starter} {}, seat {} draws first; ranks: team 0 (seats 0, 2) {r0}, team 1 (seats 1, 3) {r1}",
        st.provisional_starter(),
        st.first_drawer().number()
    )?;
    let sorted = |set: dabaifen::Cards| match st.tables() {
        Some(t) => dabaifen::card::codes(t.sorted(set)),
        None => dabaifen::account::show_plain(set),
    };
    for s in Seat::ALL {
        writeln!(out, "  {s} drew: {}", sorted(st.dealt(s)))?;
    }
    writeln!(out, "  kitty: {}", sorted(st.kitty()))?;
    for line in st.settlement().lines {
        let indent = if matches!(line, Event::Trick { .. }) { "    " } else { "  " };
        writeln!(out, "{indent}{line}")?;
    }
    if let Some(r) = st.result() {
        let outcome = match r.outcome {
            Outcome::Played => "played",
            Outcome::Annulled => "annulled",
            Outcome::Revoke => "ended by a revoke",
        };
        let t = r.defender_points.map_or("-".to_string(), |t| t.to_string());
        writeln!(
            out,
            "  result: {outcome}; T = {t}; ranks now {} and {}; next starter seat {}{}",
            r.ranks[0],
            r.ranks[1],
            r.next_starter.number(),
            if r.game_over { "; game over" } else { "" }
        )?;
    } else if let Some(s) = st.to_move() {
        let phase = match st.phase() {
            Phase::Drawing => "in the draw",
            Phase::Annulling => "in the annulment polls",
            Phase::Burying => "before the burial",
            _ => "in play",
        };
        writeln!(out, "  unfinished {phase}: {s} to act")?;
    }
    writeln!(out)
}

/// Replays a record; returns false when an action is illegal or a stored result differs.
pub fn replay(record: &Record<DabaifenHand>, json: bool, out: &mut impl Write) -> anyhow::Result<bool> {
    let rep = dabaifen::record::replay(record);
    if json {
        if rep.error.is_none() {
            let results: Vec<_> = rep.hands.iter().map(|h| h.state.result().map(|r| r.to_record())).collect();
            let doc = serde_json::json!({ "hands": results });
            out.write_all(to_pretty_json(&doc).as_bytes())?;
        }
    } else {
        for (h, hand) in rep.hands.iter().enumerate() {
            write_hand(out, h, &hand.state)?;
        }
    }
    out.flush()?;
    let diffs = rep.differences();
    for d in &diffs {
        eprintln!("{d}");
    }
    if let Some(e) = rep.error {
        anyhow::bail!("{e}");
    }
    Ok(diffs.is_empty())
}

#[derive(Default)]
struct Summary {
    deals: u64,
    played: u64,
    annulled: u64,
    revokes: u64,
    revokes_by_declarers: u64,
    declared: u64,
    declared_first: u64,
    declared_open: u64,
    kitty_by_rank: u64,
    kitty_by_highest: u64,
    open_deals: u64,
    open_no_showing: u64,
    annulled_by_hand: u64,
    kept_without_trump: u64,
    declared_at_total: u64,
    levels: [u64; 5],
    defender_points_total: u64,
    scored: u64,
    kitty_bonus: u64,
    multi_leads: u64,
    leads: u64,
    matches_completed: u64,
    match_deals_total: u64,
    team_wins: [u64; 2],
}

fn record_stats(s: &mut Summary, st: &State, actions: &[(Seat, Action)]) {
    s.deals += 1;
    let r = st.result().expect("over");
    match r.outcome {
        Outcome::Played => s.played += 1,
        Outcome::Annulled => s.annulled += 1,
        Outcome::Revoke => {
            s.revokes += 1;
            if st.revoke().is_some_and(|x| x.team() == r.starter.team()) {
                s.revokes_by_declarers += 1;
            }
        }
    }
    if let Some(d) = st.declaration() {
        s.declared += 1;
        s.declared_at_total += u64::from(d.drawn);
        if st.is_first_deal() {
            s.declared_first += 1;
        }
        if st.is_open() {
            s.declared_open += 1;
        }
    }
    if let Some(k) = st.kitty_turn() {
        if k.by_rank {
            s.kitty_by_rank += 1;
        } else {
            s.kitty_by_highest += 1;
        }
    }
    if st.is_open() {
        s.open_deals += 1;
        if st.trump().is_none() {
            s.open_no_showing += 1;
        }
    }
    if st.annulled_by().is_some() {
        s.annulled_by_hand += 1;
    }
    s.kept_without_trump += st.annul_declined().count() as u64;
    if r.outcome != Outcome::Annulled {
        let declarers_win = r.winner == Some(r.starter.team());
        let idx = match (declarers_win, r.levels) {
            (true, 2) => 0,
            (true, _) => 1,
            (false, 0) => 2,
            (false, 1) => 3,
            _ => 4,
        };
        s.levels[idx] += 1;
        s.scored += 1;
        s.defender_points_total += u64::from(r.defender_points.unwrap_or(0));
        if r.kitty_bonus > 0 {
            s.kitty_bonus += 1;
        }
    }
    for trick in st.tricks() {
        if trick.count > 0 {
            s.leads += 1;
            if trick.size > 1 {
                s.multi_leads += 1;
            }
        }
    }
    let _ = actions;
}

fn pct(a: u64, b: u64) -> String {
    if b == 0 { "-".into() } else { format!("{:.1}%", 100.0 * a as f64 / b as f64) }
}

/// Plays hands with random legal play and prints a summary.
///
/// Match `m` (from 0) deals from its own seed, `cards::deal::sim_match_seed(seed, m)` (the run's
/// seed for the first match): its first-deal draw from that seed's stream `FIRST_DRAW_STREAM`,
/// its deal `k` (from 0 in the match) with the deck and policy stream of deal `k` of that seed, so
/// that each match's record verifies as a table's would (`docs/record.md`, "Deal verification").
/// A new match starts after every game over. With `--out FILE`, every match is written as its own record
/// (one record holds one match): to FILE when the run holds a single match, else to `FILE`'s name
/// with `-m001`, `-m002`, … inserted before the extension. The last match is written as far as
/// it got when the run ends before its game over (a valid record of consecutive hands).
pub fn sim(args: &SimArgs) -> anyhow::Result<()> {
    anyhow::ensure!(args.stake_max == 2, "--stake-max: Da Bai Fen has no stakes (it is Madiao's)");
    let variants = Variants::preset(&args.rules)?
        .with_overrides(&parse_variant_args(&args.variants)?)
        .context("--variant")?;
    let seed = args.seed;
    let mut summary = Summary::default();
    // Per match: its seed and its hands.
    let mut matches: Vec<(u64, Vec<DabaifenHand>)> = Vec::new();
    let mut current: Vec<DabaifenHand> = Vec::new();
    let mut match_index = 0u32;
    let mut match_seed = seed;
    let mut m = Match::from_draw(
        variants,
        &mut cards::Rng::from_seed_stream(match_seed, dabaifen::setup::FIRST_DRAW_STREAM),
    )
    .0;
    let mut match_start = 0u64;
    let mut bots = match &args.bots {
        Some(spec) => Some(BotTable::<ai::Dabaifen>::new(spec, args.think_ms)?),
        None => None,
    };
    let started = Instant::now();
    for k in 0..args.hands {
        if m.is_over() {
            summary.matches_completed += 1;
            summary.match_deals_total += k - match_start;
            summary.team_wins[m.winner().expect("over") as usize] += 1;
            matches.push((match_seed, std::mem::take(&mut current)));
            match_index += 1;
            match_seed = cards::deal::sim_match_seed(seed, match_index);
            let mut rng = cards::Rng::from_seed_stream(match_seed, dabaifen::setup::FIRST_DRAW_STREAM);
            m = Match::new(variants, first_draw(&mut rng).starter);
            match_start = k;
        }
        // The deal's number in its match.
        let j = k - match_start;
        let (deck, rng) = deal_from_seed(match_seed, j);
        let mut st = State::new(&m.setup(deck)).with_context(|| format!("deal {k}"))?;
        let actions = match bots.as_mut() {
            Some(table) => {
                table.play(&mut st, match_seed, j)?;
                Vec::new()
            }
            None => {
                let mut policy = RandomPolicy::new(rng);
                play_out_checked(&mut st, &mut policy).map_err(|e| anyhow::anyhow!("deal {k}: {e}"))?
            }
        };
        debug_assert_eq!(st.phase(), Phase::Over);
        record_stats(&mut summary, &st, &actions);
        if args.out.is_some() {
            let mut hand = hand_record(&st);
            hand.seed = Some(match_seed);
            let n = u32::try_from(j).context("a match of more than 2^32 deals")?;
            hand.commitment =
                Some(cards::deal::commitment(match_seed, n, &cards::deal::sim_table_id(seed, match_index)));
            current.push(hand);
        }
        m.record(st.result().expect("a played-out deal has a result"));
    }
    let unfinished = !current.is_empty() && !m.is_over();
    if m.is_over() && args.hands > 0 {
        summary.matches_completed += 1;
        summary.match_deals_total += args.hands - match_start;
        summary.team_wins[m.winner().expect("over") as usize] += 1;
    }
    if !current.is_empty() {
        matches.push((match_seed, current));
    }
    let elapsed = started.elapsed();
    let mut out = std::io::stdout().lock();
    print_summary(
        &mut out,
        &summary,
        args,
        &variants,
        unfinished || (!m.is_over() && args.hands > 0),
        elapsed,
    )?;
    if let Some(table) = &bots {
        writeln!(
            out,
            "  bots: {} (think {} ms); decision times (view building included):",
            table.describe(),
            args.think_ms
        )?;
        write!(out, "{}", table.times_text())?;
    }
    let players: [String; 4] = match &bots {
        Some(table) => table.names().clone().map(|n| format!("bot:{n}")),
        None => std::array::from_fn(|_| "bot:random".to_string()),
    };
    if let Some(path) = &args.out {
        let n = matches.len();
        for (i, (match_seed, hands)) in matches.into_iter().enumerate() {
            let file = if n == 1 { path.clone() } else { crate::numbered(path, i + 1) };
            let mut rec = match_record(&variants, Some(match_seed), hands);
            rec.players = Some(cards::BySeat(players.clone()));
            rec.table = Some(cards::deal::sim_table_id(seed, u32::try_from(i).context("too many matches")?));
            std::fs::write(&file, to_pretty_json(&rec))
                .with_context(|| format!("writing {}", file.display()))?;
            writeln!(out, "wrote {} ({} deals)", file.display(), rec.hands.len())?;
        }
    }
    Ok(())
}

fn print_summary(
    out: &mut impl Write,
    s: &Summary,
    args: &SimArgs,
    v: &Variants,
    unfinished: bool,
    elapsed: std::time::Duration,
) -> std::io::Result<()> {
    writeln!(out, "Da Bai Fen: {} deals, seed {}, rules {} ({v})", s.deals, args.seed, args.rules)?;
    writeln!(out, "  time: {:.2}s", elapsed.as_secs_f64())?;
    writeln!(
        out,
        "  matches completed: {} (team 0 won {}, team 1 won {}); average {:.1} deals per match{}",
        s.matches_completed,
        s.team_wins[0],
        s.team_wins[1],
        if s.matches_completed == 0 { 0.0 } else { s.match_deals_total as f64 / s.matches_completed as f64 },
        if unfinished { "; the last match is unfinished" } else { "" }
    )?;
    writeln!(
        out,
        "  outcomes: played {} ({}), annulled {} ({}), ended by a revoke {} ({})",
        s.played,
        pct(s.played, s.deals),
        s.annulled,
        pct(s.annulled, s.deals),
        s.revokes,
        pct(s.revokes, s.deals)
    )?;
    writeln!(
        out,
        "  trumps: declared in {} deals ({}; {} in first deals, {} in open deals; on average after {:.1} cards), \
         kitty turned in {} (a trump-rank card in {}, the highest card in {})",
        s.declared,
        pct(s.declared, s.deals),
        s.declared_first,
        s.declared_open,
        if s.declared == 0 { 0.0 } else { s.declared_at_total as f64 / s.declared as f64 },
        s.kitty_by_rank + s.kitty_by_highest,
        s.kitty_by_rank,
        s.kitty_by_highest
    )?;
    writeln!(
        out,
        "  annulments: {} for a hand with no trump ({} more such hands kept); open deals {} ({} with nobody showing)",
        s.annulled_by_hand, s.kept_without_trump, s.open_deals, s.open_no_showing
    )?;
    writeln!(
        out,
        "  revokes: {} by the declarers, {} by the defenders",
        s.revokes_by_declarers,
        s.revokes - s.revokes_by_declarers
    )?;
    writeln!(
        out,
        "  game points (scored deals): declarers +2: {}, declarers +1: {}, defenders 0: {}, defenders +1: {}, defenders +2: {}",
        s.levels[0], s.levels[1], s.levels[2], s.levels[3], s.levels[4]
    )?;
    writeln!(
        out,
        "  defenders' points: average {:.1}; kitty bonus to the defenders in {} deals ({})",
        if s.scored == 0 { 0.0 } else { s.defender_points_total as f64 / s.scored as f64 },
        s.kitty_bonus,
        pct(s.kitty_bonus, s.scored)
    )?;
    writeln!(out, "  leads: {} ({} multi-card, {})", s.leads, s.multi_leads, pct(s.multi_leads, s.leads))
}

/// Times the bots' decisions over deals of matches, chained as `yezi sim` chains them (first
/// deals, open deals and all).
fn bench_bots(args: &BenchArgs, spec: &str) -> anyhow::Result<()> {
    let variants = Variants::preset(&args.rules)?;
    let mut table = BotTable::<ai::Dabaifen>::new(spec, args.think_ms)?;
    let seed = args.seed;
    let n = args.hands();
    let mut m = Match::from_draw(
        variants,
        &mut cards::Rng::from_seed_stream(seed, dabaifen::setup::FIRST_DRAW_STREAM),
    )
    .0;
    let started = Instant::now();
    for k in 0..n {
        if m.is_over() {
            let mut rng = cards::Rng::from_seed_stream(seed, dabaifen::setup::FIRST_DRAW_STREAM + k);
            m = Match::new(variants, first_draw(&mut rng).starter);
        }
        let (deck, _) = deal_from_seed(seed, k);
        let mut st = State::new(&m.setup(deck)).with_context(|| format!("deal {k}"))?;
        table.play(&mut st, seed, k)?;
        m.record(st.result().context("a played-out deal has a result")?);
    }
    let secs = started.elapsed().as_secs_f64();
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "dabaifen bench: bots {} (think {} ms), {n} deals (rules {}, seed {seed}) in {secs:.3}s on one core: {:.2} deals/s",
        table.describe(),
        args.think_ms,
        args.rules,
        n as f64 / secs.max(1e-9)
    )?;
    writeln!(out, "decision times (view building included):")?;
    write!(out, "{}", table.times_text())?;
    Ok(())
}

/// Measures random playouts per second, or with `--bots` the bots' decision times.
pub fn bench(args: &BenchArgs) -> anyhow::Result<()> {
    if let Some(spec) = &args.bots {
        return bench_bots(args, spec);
    }
    let variants = Variants::preset(&args.rules)?;
    let started = Instant::now();
    let totals = dabaifen::random::bench(variants, args.seed, args.hands());
    let secs = started.elapsed().as_secs_f64();
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "dabaifen: {} deals ({} matches completed) in {:.3}s: {:.0} deals/s on one core; checksum {:016x}",
        totals.deals,
        totals.matches,
        secs,
        totals.deals as f64 / secs,
        totals.checksum
    )?;
    // Legal-action generation in the search path (enumeration without allocation), on a tenth
    // as many deals.
    let deals = (args.hands() / 10).max(1);
    let started = Instant::now();
    let legal = dabaifen::random::bench_legal(variants, args.seed, deals);
    let secs = started.elapsed().as_secs_f64();
    let calls = legal.lead_calls + legal.follow_calls;
    writeln!(
        out,
        "dabaifen legal actions: {calls} enumerations in {secs:.3}s over {deals} deals (with the playouts): \
         leads {:.1} actions each, follows {:.1}; {:.0} enumerations/s",
        legal.lead_actions as f64 / legal.lead_calls.max(1) as f64,
        legal.follow_actions as f64 / legal.follow_calls.max(1) as f64,
        calls as f64 / secs
    )?;
    Ok(())
}
