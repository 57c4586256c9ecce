//! Where the search disagrees with the heuristic in Da Bai Fen play, and what the search thinks
//! the heuristic's play costs (a study tool, not a test): plays arena-style deals with `expert`
//! in every seat and, at each play, compares the search's choice with the heuristic's, by kind
//! of situation.
//!
//! ```sh
//! cargo run --release -p ai --example dbf_teacher -- 200
//! ```
use std::collections::BTreeMap;

use ai::dabaifen::expert::ExpertBot;
use ai::dabaifen::heuristic::show;
use ai::{Bot, Budget};
use cards::{Rng, Seat};
use dabaifen::{Action, HandSetup, Phase, Rank, State, Tables, Variants, deck_from_seed};

fn main() {
    let n: u64 = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(100);
    let verbose = std::env::var("V").is_ok();
    let mut out =
        std::env::var("OUT").ok().map(|p| std::io::BufWriter::new(std::fs::File::create(p).unwrap()));
    let first: u64 = std::env::var("FROM").ok().and_then(|v| v.parse().ok()).unwrap_or(0);
    // (kind) -> (decisions, disagreements, summed loss)
    let mut stats: BTreeMap<String, (u32, u32, f64)> = BTreeMap::new();
    for d in first..first + n {
        let mut rng = Rng::from_seed_stream(11, d);
        let setup = HandSetup {
            deck: deck_from_seed(11, d),
            starter: Seat::wrapping((d % 4) as usize),
            first_deal: false,
            open: false,
            ranks: [Rank::from_index(rng.below(12) as u8), Rank::from_index(rng.below(12) as u8)],
            variants: Variants::STANDARD,
        };
        let mut st = State::new(&setup).unwrap();
        let mut params = ai::dabaifen::expert::Params::for_budget(Budget::default());
        if let Some(n) = std::env::var("SAMPLES").ok().and_then(|v| v.parse().ok()) {
            params.base.samples = n;
        }
        let mut bots: Vec<ExpertBot> = (0..4).map(|s| ExpertBot::with_params(1000 * d + s, params)).collect();
        while let Some(s) = st.to_move() {
            let legal = st.legal_actions();
            let view = st.view(s);
            let a = if st.phase() == Phase::Playing && legal.len() > 1 {
                let w = bots[s.index()].weigh_play(&view, &legal).unwrap();
                if let (Some(o), true) = (out.as_mut(), w.worlds > 0) {
                    use std::io::Write;
                    let k = ai::dabaifen::know::Knowledge::from_view(&view, &legal).unwrap();
                    let c = ai::dabaifen::heuristic::ctx_from_view(&view, &k);
                    let tr = view.trump.unwrap();
                    let line = serde_json::json!({
                        "suit": tr.suit.index(), "rank": tr.rank.index(), "me": c.me, "hand": c.hand,
                        "maybe": c.maybe, "void": c.void, "leader": c.leader, "count": c.count,
                        "size": c.size, "lsuit": c.suit, "plays": c.plays, "defenders": c.defenders,
                        "bonus": c.bonus, "cands": w.cands,
                        "q": w.sums.iter().map(|x| x / f64::from(w.worlds)).collect::<Vec<_>>(),
                    });
                    writeln!(o, "{line}").unwrap();
                }
                if w.worlds > 0 {
                    let t = Tables::of(view.trump.unwrap());
                    let tr = view.tricks.last().unwrap();
                    let pos = tr.plays.len();
                    let size = tr.plays.first().map_or(0, |p| p.cards.len());
                    let role = if s.team() == view.starter.team() { "decl" } else { "def" };
                    let trick = view.tricks.len();
                    let phase = if trick <= 4 {
                        "early"
                    } else if trick <= 8 {
                        "mid"
                    } else {
                        "late"
                    };
                    let kind = |m: u64| -> String {
                        let tr = m & t.suit_mask[4] != 0;
                        let pts = ai::dabaifen::solver::pts(m);
                        format!(
                            "{}{}{}",
                            m.count_ones(),
                            if tr { "T" } else { "p" },
                            if pts > 0 { "+" } else { "" }
                        )
                    };
                    let h = w.cands[0];
                    let c = w.cands[w.choice];
                    let loss = (w.sums[w.choice] - w.sums[0]) / f64::from(w.worlds);
                    let key = format!(
                        "{role:4} {} {phase:5}",
                        if pos == 0 {
                            "lead ".to_string()
                        } else {
                            format!("f{}/{}", pos, if size == 1 { "1" } else { "n" })
                        }
                    );
                    let e = stats.entry(key.clone()).or_default();
                    e.0 += 1;
                    if c != h {
                        e.1 += 1;
                        e.2 += loss;
                        let k2 = format!("  {key} heur {} -> search {}", kind(h), kind(c));
                        let e2 = stats.entry(k2).or_default();
                        e2.0 += 1;
                        e2.1 += 1;
                        e2.2 += loss;
                        if verbose && loss > 0.1 {
                            println!(
                                "deal {d} {key}: trump {} hand {} | heur {} search {} loss {loss:.3}",
                                view.trump.unwrap(),
                                show(dabaifen::Cards::from_iter(view.hand.iter().copied()).bits()),
                                show(h),
                                show(c)
                            );
                        }
                    }
                }
                Action::Play(dabaifen::Cards::from_bits(w.cands[w.choice]))
            } else {
                bots[s.index()].choose(&view, &legal)
            };
            st.apply(a).unwrap();
        }
    }
    let total: f64 = stats.iter().filter(|(k, _)| !k.starts_with(' ')).map(|(_, v)| v.2).sum();
    println!(
        "{n} deals; summed estimated loss of the heuristic's plays {total:.2} ({:.3} per deal)",
        total / n as f64
    );
    let mut rows: Vec<_> = stats.into_iter().collect();
    rows.sort_by(|a, b| b.1.2.partial_cmp(&a.1.2).unwrap());
    for (k, (dec, dis, loss)) in rows.iter().take(60) {
        println!("{k:48} {dec:6} {dis:6} {loss:8.2}");
    }
}
