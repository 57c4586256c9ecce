//! The `madiao` side of `yezi replay`, `yezi sim` and `yezi bench`.

use std::fmt::Write as _;
use std::io::Write;
use std::time::Instant;

use anyhow::Context as _;
use cards::record::{self, Record};
use cards::{BySeat, Halves, Seat};
use madiao::card::mask_codes;
use madiao::random::{RandomPolicy, SimHand, Simulator, outcome_index};
use madiao::record::{MadiaoHand, MadiaoOutcome, MadiaoResult};
use madiao::record::{Replay, ReplayedHand};
use madiao::{BankerDraw, Item, Match, PlayKind, State, Suit, Variants, deck_from_seed};

use crate::bots_cli::BotTable;
use crate::{BenchArgs, SimArgs};

/// Replays a record; returns false when an action is illegal or a stored result differs.
pub fn replay(record: &Record<MadiaoHand>, json: bool, out: &mut impl Write) -> anyhow::Result<bool> {
    let rep = madiao::record::replay(record);
    if json {
        if rep.error.is_none() {
            let hands: Vec<Option<&MadiaoResult>> = rep.hands.iter().map(|h| h.result.as_ref()).collect();
            let doc = serde_json::json!({ "hands": hands });
            out.write_all(record::to_pretty_json(&doc).as_bytes())?;
        }
    } else {
        write_replay_text(record, &rep, out)?;
    }
    out.flush()?;
    for d in rep.differences() {
        eprintln!("{d}");
    }
    if let Some(e) = &rep.error {
        eprintln!("{e}");
    }
    Ok(rep.is_clean())
}

fn seat_role(s: Seat, banker: Seat) -> String {
    if s == banker { format!("{s} (banker)") } else { s.to_string() }
}

fn payoffs_text(p: &BySeat<Halves>) -> String {
    p.iter().map(|(s, x)| format!("{s} {x:+}")).collect::<Vec<_>>().join(", ")
}

fn outcome_text(o: MadiaoOutcome) -> &'static str {
    match o {
        MadiaoOutcome::Played => "played",
        MadiaoOutcome::Meld => "meld",
        MadiaoOutcome::FourLowest => "four_lowest",
        MadiaoOutcome::Redeal => "redeal",
    }
}

fn write_replay_text(record: &Record<MadiaoHand>, rep: &Replay, out: &mut impl Write) -> anyhow::Result<()> {
    let mut s = String::new();
    let _ = write!(s, "Madiao record, rules {}", record.rules);
    if !record.variants.is_empty() {
        let v: Vec<String> = record.variants.0.iter().map(|(k, v)| format!("{k}: {v}")).collect();
        let _ = write!(s, " with {}", v.join(", "));
    }
    let _ = writeln!(s, ", {} hand(s)", record.hands.len());
    if let Some(players) = &record.players {
        let p: Vec<String> = players.iter().map(|(s, n)| format!("{s} {n}")).collect();
        let _ = writeln!(s, "players: {}", p.join(", "));
    }
    if let Some(seed) = record.seed {
        let _ = writeln!(s, "seed: {seed}");
    }
    out.write_all(s.as_bytes())?;
    for (i, h) in rep.hands.iter().enumerate() {
        let stopped = rep.error.as_ref().filter(|e| e.hand == Some(i) && e.action.is_some());
        out.write_all(hand_text(i, h, stopped).as_bytes())?;
    }
    let mut end = String::new();
    let _ = writeln!(end);
    match &rep.error {
        Some(e) => {
            let _ = writeln!(end, "replay stopped: {e}");
        }
        None => {
            let finished = rep.hands.iter().filter(|h| h.result.is_some()).count();
            let checked = record.hands.iter().filter(|h| h.result.is_some()).count();
            let differing = rep.hands.iter().filter(|h| !h.differences.is_empty()).count();
            let _ = writeln!(
                end,
                "{} hand(s) replayed, {finished} finished; {checked} stored result(s) checked, {}",
                rep.hands.len(),
                if differing == 0 { "all match".to_string() } else { format!("{differing} differ") }
            );
            end.push_str(&chip_ledger(rep));
        }
    }
    out.write_all(end.as_bytes())?;
    Ok(())
}

/// The match's ledger in chips (rules §2): each finished hand's stake and its payoffs times that
/// stake, then each seat's total.
fn chip_ledger(rep: &Replay) -> String {
    let mut s = String::new();
    let mut total = [0f64; 4];
    let _ = writeln!(s, "ledger in chips (each hand's payoffs × its stake):");
    for (i, h) in rep.hands.iter().enumerate() {
        let Some(r) = &h.result else { continue };
        let stake = h.state.stake();
        let chips: Vec<String> = r
            .payoffs
            .iter()
            .map(|(seat, x)| {
                let c = x.to_f64() * f64::from(stake);
                total[seat.index()] += c;
                format!("{seat} {c:+}")
            })
            .collect();
        let _ = writeln!(s, "  hand {i}: stake {stake}: {}", chips.join(", "));
    }
    let t: Vec<String> = Seat::ALL.iter().map(|seat| format!("{seat} {:+}", total[seat.index()])).collect();
    let _ = writeln!(s, "  match: {}", t.join(", "));
    s
}

fn play_text(p: &madiao::Play) -> String {
    let s = p.seat;
    let c = p.card;
    match p.kind {
        PlayKind::Lead => format!("{s} leads {c}"),
        PlayKind::Capture if p.can_win => format!("{s} captures with {c}"),
        PlayKind::Capture => format!("{s} plays {c} face up (no trick before the last: it cannot win)"),
        PlayKind::Slough => format!("{s} sloughs {c} face down"),
        PlayKind::Discard => format!("{s} discards {c} face up"),
    }
}

/// One hand, trick by trick, with its declarations, settlement and result.
fn hand_text(i: usize, h: &ReplayedHand, stopped: Option<&madiao::record::ReplayError>) -> String {
    let st = &h.state;
    let b = st.banker();
    let mut s = String::new();
    let _ = writeln!(s);
    let _ = writeln!(s, "== hand {i}: banker {b}, stake {} chips ==", st.stake());
    let cut = st.upcard();
    let first = st.first_recipient();
    let role = match first.distance_from(b) {
        0 => "the banker",
        1 => "the dealer",
        2 => "the banker's opposite",
        _ => "the shuffler",
    };
    let _ = writeln!(s, "cut card {cut} (the upcard): {first}, {role}, is dealt first and leads");
    for seat in b.from_here() {
        let _ = writeln!(s, "  {:<17} {}", seat_role(seat, b), mask_codes(st.dealt(seat)));
    }
    let _ = writeln!(s, "  {:<17} {} (upcard {cut})", "stock", mask_codes(st.stock()));
    match st.outcome() {
        Some(MadiaoOutcome::Meld) => {
            for m in st.meld_holders() {
                let kinds: Vec<String> = st.melds(m).counted(st.variants()).map(|k| k.to_string()).collect();
                let _ = writeln!(s, "meld: {m} holds {}; the hand is not played", kinds.join(" + "));
            }
        }
        Some(MadiaoOutcome::FourLowest) => {
            if let Some(f) = st.four_lowest_holder() {
                let _ = writeln!(s, "four lowest: {f} holds T2 M1 S1 W9; the cards are dealt again");
            }
        }
        _ => {}
    }
    for (seat, forced) in st.redeal_choices() {
        let suits: Vec<&str> = madiao::declare::long_suits(st.dealt(seat)).map(Suit::name).collect();
        let what = if forced { "forces a redeal" } else { "declines a redeal" };
        let _ = writeln!(s, "long suit: {seat} ({}) {what}", suits.join(", "));
    }
    let plays: Vec<madiao::Play> = st.plays().collect();
    for (t, trick) in plays.chunks(4).enumerate() {
        let texts: Vec<String> = trick.iter().map(play_text).collect();
        let _ = write!(s, "trick {}: {}", t + 1, texts.join("; "));
        match st.trick_winner(t as u8) {
            Some(w) => {
                let card = trick.iter().filter(|p| p.seat == w && p.can_win).map(|p| p.card).next_back();
                let _ = match card {
                    Some(c) => writeln!(s, " → {w} wins with {c}"),
                    None => writeln!(s, " → {w} wins"),
                };
            }
            None => {
                let _ = writeln!(s);
            }
        }
    }
    if let Some(set) = st.settlement() {
        if st.outcome() == Some(MadiaoOutcome::Played) {
            let _ = writeln!(s, "under the upcard: {}", st.deck()[38]);
        }
        let _ = writeln!(s, "settlement:");
        if set.lines.is_empty() {
            let _ = writeln!(s, "  nothing to pay");
        }
        let _ = writeln!(s, "{set}");
    }
    match &h.result {
        Some(r) => {
            let next = r.next_banker.map_or("drawn again".to_string(), |n| n.to_string());
            let _ = writeln!(
                s,
                "result: {}, tricks {:?}, payoffs [{}], next banker {next}{}",
                outcome_text(r.outcome),
                r.tricks.0,
                payoffs_text(&r.payoffs),
                if r.game_over { ", the match is over" } else { "" }
            );
        }
        None => match (stopped, st.to_move()) {
            (Some(e), _) => {
                let _ = writeln!(s, "illegal: {e}");
            }
            (None, Some(t)) => {
                let _ = writeln!(s, "(unfinished: {t} to act)");
            }
            (None, None) => {}
        },
    }
    if !h.differences.is_empty() {
        let _ = writeln!(s, "the stored result differs:");
        for d in &h.differences {
            let _ = writeln!(s, "  {d}");
        }
    }
    s
}

/// Counts of everything a simulation saw.
#[derive(Default)]
struct SimStats {
    hands: u64,
    matches_begun: u64,
    matches_ended: u64,
    outcomes: [u64; 4],
    payoff: BySeat<i64>,
    banker_payoff: i64,
    player_payoff: i64,
    events: Vec<(&'static str, u64)>,
}

/// Every event the summary lists, in display order (those never seen show 0).
const EVENTS: [&str; 32] = [
    "banker drawn by high card",
    "meld: four_tops",
    "meld: four_tops_with_hm",
    "meld: flush_of_cash",
    "meld: flush_of_strings",
    "meld: flush_of_myriads",
    "meld: flush_of_tens",
    "meld: flush_of_tens_with_hm",
    "meld: eight_reds",
    "meld: eight_reds_with_hm",
    "meld: tops_and_lowest",
    "meld: several holders in one hand",
    "meld: extra stake (meld_extra_stake)",
    "four lowest",
    "long-suit redeal declined",
    "long-suit redeal forced",
    "trick won with a reward card",
    "stock-check payment",
    "banker short of the minimum",
    "tie for most tricks (½ each)",
    "slam (all 8 tricks)",
    "HM holder short of the minimum (+1)",
    "HM holder made the minimum (+2)",
    "HM won a trick (+3 HM line)",
    "knock",
    "banker keeps the bank (+3 HM line)",
    "won with TW, TQ and TB (+3)",
    "won with TW, TQ, TB and W0 (+4)",
    "bonus line not counted (largest_only)",
    "face-up discard",
    "trick 8: a capture in form that cannot win",
    "match ended",
];

impl SimStats {
    fn new() -> SimStats {
        SimStats { events: EVENTS.iter().map(|&e| (e, 0)).collect(), ..SimStats::default() }
    }

    fn event(&mut self, name: &'static str) {
        match self.events.iter_mut().find(|(e, _)| *e == name) {
            Some((_, n)) => *n += 1,
            None => self.events.push((name, 1)),
        }
    }

    fn add(&mut self, h: &madiao::random::SimHand) {
        let st = &h.state;
        let r = &h.result;
        self.hands += 1;
        if h.new_match {
            self.matches_begun += 1;
        }
        if r.game_over {
            self.matches_ended += 1;
            self.event("match ended");
        }
        self.outcomes[outcome_index(r.outcome)] += 1;
        for (s, p) in r.payoffs.iter() {
            self.payoff[s] += i64::from(p.0);
            if s == st.banker() {
                self.banker_payoff += i64::from(p.0);
            } else {
                self.player_payoff += i64::from(p.0);
            }
        }
        if h.draw.is_some() {
            self.event("banker drawn by high card");
        }
        match r.outcome {
            MadiaoOutcome::Meld => {
                if st.meld_holders().count() > 1 {
                    self.event("meld: several holders in one hand");
                }
            }
            MadiaoOutcome::FourLowest => self.event("four lowest"),
            MadiaoOutcome::Redeal => self.event("long-suit redeal forced"),
            MadiaoOutcome::Played => {
                if r.next_banker == Some(st.banker()) {
                    self.event("banker keeps the bank (+3 HM line)");
                }
                if st.plays().any(|p| p.trick == 7 && p.kind == PlayKind::Capture && !p.can_win) {
                    self.event("trick 8: a capture in form that cannot win");
                }
            }
        }
        if st.redeal_choices().iter().any(|&(_, f)| !f) {
            self.event("long-suit redeal declined");
        }
        if let Some(set) = st.settlement() {
            for l in &set.lines {
                let name: &'static str = match l.item {
                    Item::Meld { meld, .. } => EVENTS
                        .iter()
                        .copied()
                        .find(|e| e.strip_prefix("meld: ") == Some(meld.name()))
                        .unwrap_or("meld"),
                    Item::MeldExtraStake { .. } => "meld: extra stake (meld_extra_stake)",
                    Item::FourLowest => continue,
                    Item::StockCheck { .. } => "stock-check payment",
                    Item::FewerThanTwoTricks { .. } if l.seat == st.banker() => "banker short of the minimum",
                    Item::FewerThanTwoTricks { .. }
                    | Item::ExactlyTwoTricks
                    | Item::ThreeOrMoreTricks { .. } => {
                        continue;
                    }
                    Item::TiedForMostTricks { .. } => "tie for most tricks (½ each)",
                    Item::Slam => "slam (all 8 tricks)",
                    Item::RewardTrick { .. } => "trick won with a reward card",
                    Item::HmConsolation => "HM holder short of the minimum (+1)",
                    Item::HmMinimum => "HM holder made the minimum (+2)",
                    Item::HmWon { .. } => "HM won a trick (+3 HM line)",
                    Item::ThreeHonours => "won with TW, TQ and TB (+3)",
                    Item::FourHonours => "won with TW, TQ, TB and W0 (+4)",
                    Item::Knock => "knock",
                    Item::FaceUpDiscard { .. } => "face-up discard",
                };
                if !l.counted {
                    self.event("bonus line not counted (largest_only)");
                }
                self.event(name);
            }
        }
    }
}

/// Writes a record hand by hand, so that a long simulation never holds its hands in memory. The
/// text is exactly what `cards::record::to_pretty_json` gives for the whole record.
struct RecordWriter {
    out: std::io::BufWriter<std::fs::File>,
    path: std::path::PathBuf,
    tail: String,
    hands: u64,
    /// The match's seed, which every hand is dealt from, and the table id its commitments name.
    seed: u64,
    table: String,
}

impl RecordWriter {
    fn create(
        path: &std::path::Path,
        rules: &str,
        variants: &Variants,
        seed: u64,
        table: String,
        players: Option<[String; 4]>,
    ) -> anyhow::Result<RecordWriter> {
        let mut empty = madiao::record::to_record(rules, variants, Some(seed), std::iter::empty())?;
        empty.players = players.map(|p| BySeat(p.map(|n| format!("bot:{n}"))));
        empty.table = Some(table.clone());
        // The record's members one per line, as `to_pretty_json` lays out a record with hands.
        let value = serde_json::to_value(&empty)?;
        let mut head = String::from("{\n");
        for (k, v) in value.as_object().context("a record is an object")? {
            if k == "hands" {
                continue;
            }
            let v = match v {
                serde_json::Value::Object(o) => {
                    let items: Vec<String> = o
                        .iter()
                        .map(|(k, x)| format!("{}: {x}", serde_json::Value::from(k.as_str())))
                        .collect();
                    format!("{{{}}}", items.join(", "))
                }
                other => record::to_pretty_json(other).trim_end().to_string(),
            };
            let _ = writeln!(head, "  {}: {v},", serde_json::Value::from(k.as_str()));
        }
        head.push_str("  \"hands\": ");
        let tail = "\n}\n".to_string();
        let file = std::fs::File::create(path).with_context(|| format!("writing {}", path.display()))?;
        let mut out = std::io::BufWriter::new(file);
        out.write_all(head.as_bytes())?;
        Ok(RecordWriter { out, path: path.to_path_buf(), tail: tail.to_string(), hands: 0, seed, table })
    }

    /// Writes the next hand, dealt as hand `self.hands` of the match's seed, with that seed and
    /// its commitment (`docs/record.md`, "Deal verification").
    fn hand(&mut self, state: &State) -> anyhow::Result<()> {
        let mut hand = madiao::record::hand_to_record(state);
        hand.seed = Some(self.seed);
        let k = u32::try_from(self.hands).context("a match of more than 2^32 hands")?;
        hand.commitment = Some(cards::deal::commitment(self.seed, k, &self.table));
        let text = record::to_pretty_json(&hand);
        self.out.write_all(if self.hands == 0 { b"[\n" } else { b",\n" })?;
        let lines: Vec<&str> = text.trim_end().lines().collect();
        for (i, line) in lines.iter().enumerate() {
            self.out.write_all(b"    ")?;
            self.out.write_all(line.as_bytes())?;
            if i + 1 < lines.len() {
                self.out.write_all(b"\n")?;
            }
        }
        self.hands += 1;
        Ok(())
    }

    /// Ends the record; it holds at least one hand ([`RecordWriter::hand`] is called before).
    fn finish(mut self) -> anyhow::Result<u64> {
        self.out.write_all(b"\n  ]")?;
        self.out.write_all(self.tail.as_bytes())?;
        self.out.flush().with_context(|| format!("writing {}", self.path.display()))?;
        Ok(self.hands)
    }
}

/// Plays hands with random legal play (or with `--bots`) and prints a summary.
///
/// With `--out FILE`, every match is written as its own record (a record holds one match): to
/// FILE when the run holds a single match, else to FILE's name with `-m001`, `-m002`, … inserted
/// before the extension, as `yezi sim dabaifen` does. The last match is written as far as it got
/// when the run ends before its `game_over` (a valid record: its hands chain, each is finished).
/// Each record is written hand by hand, so a long simulation never holds its hands in memory.
pub fn sim(args: &SimArgs) -> anyhow::Result<()> {
    let overrides = crate::parse_variant_args(&args.variants)?;
    let variants = Variants::preset(&args.rules)
        .and_then(|v| v.with_overrides(&overrides))
        .context("--rules/--variant")?;
    let policy = RandomPolicy::default();
    anyhow::ensure!(
        args.stake_max.is_multiple_of(2) && (2..=cards::record::MAX_STAKE).contains(&args.stake_max),
        "--stake-max: a stake is an even number of chips from 2 to {}, not {}",
        cards::record::MAX_STAKE,
        args.stake_max
    );
    let mut simulator = Simulator::new(args.seed, variants, 2, policy).with_stake_max(args.stake_max);
    let mut bots = match &args.bots {
        Some(spec) => Some(BotHands {
            stake_max: args.stake_max,
            ..BotHands::new(BotTable::new(spec, args.think_ms)?, variants, args.seed)
        }),
        None => None,
    };
    let mut stats = SimStats::new();
    // One record per match (spec: a record holds one match): match m goes to `FILE-m00m.ext`
    // while the run goes on; when the run held a single match it is renamed to FILE at the end.
    let players = bots.as_ref().map(|b| b.table.names().clone());
    let mut writer: Option<RecordWriter> = None;
    let mut written: Vec<(std::path::PathBuf, u64)> = Vec::new();
    for _ in 0..args.hands {
        let h = match bots.as_mut() {
            Some(b) => b.play_hand()?,
            None => simulator.play_hand()?,
        };
        stats.add(&h);
        if let Some(path) = &args.out {
            if h.new_match
                && let Some(w) = writer.take()
            {
                let file = w.path.clone();
                written.push((file, w.finish()?));
            }
            let w = match &mut writer {
                Some(w) => w,
                None => writer.insert(RecordWriter::create(
                    &crate::numbered(path, written.len() + 1),
                    &args.rules,
                    &variants,
                    h.seed,
                    cards::deal::sim_table_id(args.seed, h.match_index),
                    players.clone(),
                )?),
            };
            anyhow::ensure!(
                w.seed == h.seed && w.hands == h.hand,
                "hand {}: not the record's next hand",
                h.number
            );
            w.hand(&h.state)?;
        }
    }
    if let Some(w) = writer.take() {
        let file = w.path.clone();
        written.push((file, w.finish()?));
    }
    if let (Some(path), [(only, _)]) = (&args.out, written.as_mut_slice()) {
        std::fs::rename(&*only, path).with_context(|| format!("writing {}", path.display()))?;
        *only = path.clone();
    }
    let mut s = String::new();
    let n = stats.hands.max(1) as f64;
    let _ = writeln!(
        s,
        "madiao sim: {} hands, seed {}, rules {} ({variants})",
        stats.hands, args.seed, args.rules
    );
    match &bots {
        Some(b) => {
            let _ = writeln!(s, "bots: {} (think {} ms)", b.table.describe(), args.think_ms);
        }
        None => {
            let _ = writeln!(
                s,
                "random policy: force a redeal {:.0}%, capture when the drawn card can {:.0}%, face-up discard {:.2}% (under penalty)",
                policy.force_redeal * 100.0,
                policy.capture * 100.0,
                policy.faceup_discard * 100.0
            );
        }
    }
    let _ = writeln!(s, "matches: {} begun, {} ended", stats.matches_begun, stats.matches_ended);
    let _ = writeln!(s, "outcomes:");
    for (name, count) in ["played", "meld", "four_lowest", "redeal"].iter().zip(stats.outcomes) {
        let _ = writeln!(s, "  {name:<12} {count:>9}  {:>6.2}%", count as f64 * 100.0 / n);
    }
    let _ = writeln!(s, "payoff per seat (stakes; chips = stakes × 2):");
    for (seat, p) in stats.payoff.iter() {
        let total = *p as f64 / 2.0;
        let _ = writeln!(s, "  {seat}: {total:>+12.1}  ({:+.4} per hand)", total / n);
    }
    let _ = writeln!(s, "payoff per role:");
    let bank = stats.banker_payoff as f64 / 2.0;
    let players = stats.player_payoff as f64 / 2.0;
    let _ = writeln!(s, "  banker:  {bank:>+12.1}  ({:+.4} per hand)", bank / n);
    let _ = writeln!(s, "  players: {players:>+12.1}  ({:+.4} per player per hand)", players / n / 3.0);
    let _ = writeln!(s, "events seen (lines or hands):");
    for (name, count) in &stats.events {
        let _ = writeln!(s, "  {name:<45} {count:>9}");
    }
    if let Some(b) = &bots {
        let _ = writeln!(s, "decision times (view building included):");
        s.push_str(&b.table.times_text());
    }
    let mut stdout = std::io::stdout().lock();
    stdout.write_all(s.as_bytes())?;
    for (file, n) in &written {
        writeln!(stdout, "wrote {} ({n} hands)", file.display())?;
    }
    Ok(())
}

/// Hands of matches from a seed, played by bots: hand `k` of match `m` has the deck, stake and
/// banker draw of hand `k` of the match's seed (`cards::deal::sim_match_seed`), as the random
/// simulation does.
struct BotHands {
    table: BotTable<ai::Madiao>,
    seed: u64,
    /// The highest stake (2: every hand at 2).
    stake_max: u32,
    current: Match,
    next: u64,
    /// The current match's number (from 0) and the next hand's number in it.
    match_index: u32,
    in_match: u64,
}

impl BotHands {
    fn new(table: BotTable<ai::Madiao>, variants: Variants, seed: u64) -> BotHands {
        BotHands {
            table,
            seed,
            stake_max: 2,
            current: Match::new(variants),
            next: 0,
            match_index: 0,
            in_match: 0,
        }
    }

    fn play_hand(&mut self) -> anyhow::Result<SimHand> {
        let number = self.next;
        self.next += 1;
        let new_match = self.current.is_over() || self.current.hands_finished() == 0;
        if self.current.is_over() {
            self.current = Match::new(*self.current.variants());
            self.match_index += 1;
            self.in_match = 0;
        }
        let seed = cards::deal::sim_match_seed(self.seed, self.match_index);
        let k = self.in_match;
        self.in_match += 1;
        let draw = self.current.next_banker().is_none().then(|| BankerDraw::from_seed(seed, k));
        let banker = self.current.next_banker().or(draw.map(|d| d.banker)).unwrap_or(cards::Seat::ALL[0]);
        let setup = self
            .current
            .setup(banker, madiao::deal::stake_from_seed(seed, k, self.stake_max), deck_from_seed(seed, k))
            .with_context(|| format!("hand {number}"))?;
        let mut state = State::new(setup).with_context(|| format!("hand {number}"))?;
        self.table.play(&mut state, seed, k)?;
        let result = self.current.finish(&state).with_context(|| format!("hand {number}"))?;
        Ok(SimHand { number, seed, match_index: self.match_index, hand: k, new_match, draw, state, result })
    }
}

/// Times the bots' decisions over hands of matches.
fn bench_bots(args: &BenchArgs, spec: &str) -> anyhow::Result<()> {
    let variants = Variants::preset(&args.rules).context("--rules")?;
    let mut hands = BotHands::new(BotTable::new(spec, args.think_ms)?, variants, args.seed);
    let start = Instant::now();
    let n = args.hands();
    for _ in 0..n {
        hands.play_hand()?;
    }
    let secs = start.elapsed().as_secs_f64();
    let mut stdout = std::io::stdout().lock();
    writeln!(
        stdout,
        "madiao bench: bots {} (think {} ms), {n} hands (rules {}, seed {}) in {:.3} s on one core: {:.2} hands/s",
        hands.table.describe(),
        args.think_ms,
        args.rules,
        args.seed,
        secs,
        n as f64 / secs.max(1e-9)
    )?;
    writeln!(stdout, "decision times (view building included):")?;
    stdout.write_all(hands.table.times_text().as_bytes())?;
    Ok(())
}

/// Measures random playouts per second, or with `--bots` the bots' decision times.
pub fn bench(args: &BenchArgs) -> anyhow::Result<()> {
    if let Some(spec) = &args.bots {
        return bench_bots(args, spec);
    }
    let variants = Variants::preset(&args.rules).context("--rules")?;
    let policy = RandomPolicy::default();
    let hands = args.hands();
    // A short warm-up so the timing does not include first-touch costs.
    let _ = madiao::random::bench(args.seed ^ 0x5eed, hands.min(20_000), variants, policy);
    let start = Instant::now();
    let tally = madiao::random::bench(args.seed, hands, variants, policy);
    let secs = start.elapsed().as_secs_f64();
    let mut stdout = std::io::stdout().lock();
    writeln!(
        stdout,
        "madiao bench: {} random full hands (rules {}, seed {}) in {:.3} s on one core: {:.0} hands/s",
        tally.hands,
        args.rules,
        args.seed,
        secs,
        tally.hands as f64 / secs.max(1e-9)
    )?;
    writeln!(
        stdout,
        "outcomes: played {}, meld {}, four_lowest {}, redeal {}; checksum {:016x}",
        tally.outcomes[0], tally.outcomes[1], tally.outcomes[2], tally.outcomes[3], tally.checksum
    )?;
    Ok(())
}
