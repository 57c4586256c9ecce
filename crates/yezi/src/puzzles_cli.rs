//! `yezi puzzles make|check` (the generator and its checks) and `yezi puzzle` (a puzzle in the
//! terminal, from the shipped data): docs/puzzles.md.

use std::io::{BufRead as _, Write as _};
use std::path::PathBuf;
use std::time::Instant;

use ai::puzzle::{self, MadeBy, MakeOptions, Theme};
use ai::{Budget, Dabaifen, Madiao, Registry as _};
use anyhow::{Context as _, bail};
use cards::record::GameKind;
use clap::{Args, Subcommand};
use server::puzzles::PlainText as _;

use crate::GameArg;

#[derive(Args, Debug)]
pub struct PuzzlesArgs {
    #[command(subcommand)]
    pub command: PuzzlesCommand,
}

#[derive(Subcommand, Debug)]
pub enum PuzzlesCommand {
    /// Make puzzles from self-play deals (and records): a versioned JSON file the server loads.
    Make(MakeArgs),
    /// Check a puzzle file again: every puzzle (or a sample) replays, its answer is legal and
    /// the unique best by the margin with every card face up; `--expert` also asks the `expert`
    /// bot at ten times its budget.
    Check(CheckArgs),
}

#[derive(Args, Debug)]
pub struct MakeArgs {
    /// The game.
    #[arg(long, value_enum)]
    pub game: GameArg,
    /// Stop once this many puzzles are accepted.
    #[arg(long, default_value_t = 500)]
    pub count: usize,
    /// The seed of the self-play deals.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Stop after this many self-play deals in any case.
    #[arg(long, default_value_t = 1_000_000)]
    pub max_deals: u64,
    /// The bot that plays the self-play deals.
    #[arg(long, default_value = "heuristic")]
    pub bot: String,
    /// The rules preset.
    #[arg(long, default_value = "standard")]
    pub rules: String,
    /// Record files (or the server's archive downloads) whose hands are looked at first.
    #[arg(long)]
    pub records: Vec<PathBuf>,
    /// Da Bai Fen: also make this many burial puzzles (the starter's six cards, valued over
    /// sampled deals: docs/puzzles.md), after the `--count` play puzzles.
    #[arg(long, default_value_t = 0)]
    pub burials: usize,
    /// The file to write (written again every 20 puzzles, so an interrupted run keeps its work).
    #[arg(long)]
    pub out: PathBuf,
}

#[derive(Args, Debug)]
pub struct CheckArgs {
    /// The game.
    #[arg(long, value_enum)]
    pub game: GameArg,
    /// The puzzle file (default: the data shipped in the binary).
    #[arg(long)]
    pub file: Option<PathBuf>,
    /// Check only every n-th puzzle up to this many (0: all).
    #[arg(long, default_value_t = 0)]
    pub sample: usize,
    /// Also ask the `expert` bot, at ten times its normal budget, for its choice.
    #[arg(long)]
    pub expert: bool,
    /// Check only the puzzles with this theme (its name in the file, e.g. `burial`); `--sample`
    /// then spreads over those.
    #[arg(long)]
    pub theme: Option<String>,
    /// Puzzles checked at once (0: one per core); the results do not depend on it.
    #[arg(long, default_value_t = 0)]
    pub jobs: usize,
}

fn write_json<T: serde::Serialize>(path: &PathBuf, value: &T) -> anyhow::Result<()> {
    let tmp = path.with_extension("json.tmp");
    let text = serde_json::to_string(value)?;
    std::fs::write(&tmp, text).with_context(|| format!("writing {}", tmp.display()))?;
    std::fs::rename(&tmp, path).with_context(|| format!("writing {}", path.display()))?;
    Ok(())
}

fn report(made: &MadeBy, start: Instant) -> String {
    let secs = start.elapsed().as_secs_f64();
    let per = if made.accepted > 0 { made.examined as f64 / made.accepted as f64 } else { f64::NAN };
    format!(
        "{} deals + {} recorded hands; {} positions examined, {} sampled, {} accepted; {:.1} examined per puzzle; {:.0} s ({:.2} s per puzzle){}",
        made.deals,
        made.recorded,
        made.examined,
        made.sampled,
        made.accepted,
        per,
        secs,
        secs / made.accepted.max(1) as f64,
        if made.burials_examined > 0 {
            format!(
                "; burial positions examined besides: {}, passed in their own worlds: {}, burial puzzles among the accepted (confirmed in other worlds): {} ({:.1} examined per burial puzzle)",
                made.burials_examined,
                made.burials_passed,
                made.burials,
                made.burials_examined as f64 / made.burials.max(1) as f64
            )
        } else {
            String::new()
        }
    )
}

pub fn puzzles(args: &PuzzlesArgs) -> anyhow::Result<()> {
    match &args.command {
        PuzzlesCommand::Make(a) => make(a),
        PuzzlesCommand::Check(a) => check(a),
    }
}

fn make(a: &MakeArgs) -> anyhow::Result<()> {
    let mut records = Vec::new();
    for f in &a.records {
        records.extend(crate::analyse_cli::read_record_file(f)?);
    }
    let opts = MakeOptions {
        seed: a.seed,
        count: a.count,
        max_deals: a.max_deals,
        rules: a.rules.clone(),
        bot: a.bot.clone(),
        records,
        burials: a.burials,
    };
    let start = Instant::now();
    let stderr = std::io::stderr();
    let margin = match a.game {
        GameArg::Madiao => puzzle::MADIAO_MARGIN,
        GameArg::Dabaifen => puzzle::DABAIFEN_MARGIN,
    };
    macro_rules! run {
        ($make:path, $file:ty) => {{
            let mut partial: Vec<_> = Vec::new();
            let mut on = |p: &_, made: &MadeBy| {
                partial.push(Clone::clone(p));
                if partial.len() % 20 == 0 {
                    let f: $file = puzzle::PuzzleFile {
                        format: puzzle::FORMAT,
                        game: GameKind::from(a.game),
                        rules: a.rules.clone(),
                        margin,
                        made: made.clone(),
                        puzzles: partial.clone(),
                    };
                    let _ = write_json(&a.out, &f);
                    let _ = writeln!(stderr.lock(), "yezi puzzles make: {}", report(made, start));
                }
            };
            let file = $make(&opts, &mut on)?;
            write_json(&a.out, &file)?;
            println!("yezi puzzles make: {}", report(&file.made, start));
            println!("wrote {} puzzles to {}", file.puzzles.len(), a.out.display());
        }};
    }
    match a.game {
        GameArg::Madiao => run!(puzzle::make_madiao, puzzle::MadiaoFile),
        GameArg::Dabaifen => run!(puzzle::make_dabaifen, puzzle::DabaifenFile),
    }
    Ok(())
}

impl From<GameArg> for GameKind {
    fn from(g: GameArg) -> GameKind {
        match g {
            GameArg::Madiao => GameKind::Madiao,
            GameArg::Dabaifen => GameKind::Dabaifen,
        }
    }
}

/// The text of a puzzle file: `--file`, else the shipped data.
fn file_text(game: GameArg, file: &Option<PathBuf>) -> anyhow::Result<String> {
    match file {
        Some(f) => std::fs::read_to_string(f).with_context(|| format!("reading {}", f.display())),
        None => Ok(server::puzzles::shipped(GameKind::from(game)).to_string()),
    }
}

/// The indices a check looks at among `of` (the puzzles of the theme asked, in file order): all,
/// or `n` spread evenly.
fn sample_of(of: &[usize], n: usize) -> Vec<usize> {
    if n == 0 || n >= of.len() {
        return of.to_vec();
    }
    (0..n).map(|i| of[i * of.len() / n]).collect()
}

/// The indices of the puzzles with `theme` (every index without one); an unknown theme is an
/// error that names the known ones.
fn of_theme(themes: &[Vec<Theme>], theme: &Option<String>) -> anyhow::Result<Vec<usize>> {
    let Some(name) = theme else { return Ok((0..themes.len()).collect()) };
    let known: std::collections::BTreeSet<&str> = themes.iter().flatten().map(|t| t.name()).collect();
    if !known.contains(name.as_str()) {
        bail!(
            "no puzzle has the theme {name:?} (the file's themes: {})",
            known.into_iter().collect::<Vec<_>>().join(", ")
        );
    }
    Ok((0..themes.len()).filter(|&i| themes[i].iter().any(|t| t.name() == name)).collect())
}

/// One puzzle checked: the check's failure if any, and (with `--expert`) whether the expert's
/// choice is right.
struct OneCheck {
    id: String,
    failure: Option<String>,
    expert_right: Option<bool>,
}

/// Runs `one` on each of `indices`, on `jobs` threads (each puzzle is checked alone and the
/// expert is seeded by the puzzle's index, so the results do not depend on the threads); the
/// results in the order of `indices`.
fn on_threads(
    indices: &[usize],
    jobs: usize,
    one: &(dyn Fn(usize) -> anyhow::Result<OneCheck> + Sync),
) -> anyhow::Result<Vec<OneCheck>> {
    let jobs = jobs.clamp(1, indices.len().max(1));
    let mut results: Vec<(usize, anyhow::Result<OneCheck>)> = std::thread::scope(|sc| {
        let handles: Vec<_> = (0..jobs)
            .map(|j| {
                sc.spawn(move || {
                    (j..indices.len()).step_by(jobs).map(|k| (k, one(indices[k]))).collect::<Vec<_>>()
                })
            })
            .collect();
        handles.into_iter().flat_map(|h| h.join().unwrap_or_default()).collect()
    });
    if results.len() != indices.len() {
        bail!("a check thread stopped early");
    }
    results.sort_by_key(|r| r.0);
    results.into_iter().map(|r| r.1).collect()
}

fn check(a: &CheckArgs) -> anyhow::Result<()> {
    let text = file_text(a.game, &a.file)?;
    let start = Instant::now();
    let expert_budget = Budget { think_ms: Budget::default().think_ms * 10 };
    let jobs = if a.jobs > 0 { a.jobs } else { std::thread::available_parallelism().map_or(1, |n| n.get()) };
    let results = match a.game {
        GameArg::Madiao => {
            let f: puzzle::MadiaoFile = puzzle::read_file(&text, GameKind::Madiao)?;
            let themes: Vec<Vec<Theme>> = f.puzzles.iter().map(|p| p.themes.clone()).collect();
            let indices = sample_of(&of_theme(&themes, &a.theme)?, a.sample);
            on_threads(&indices, jobs, &|i| {
                let p = &f.puzzles[i];
                let failure = puzzle::check_madiao(p, &f.rules).err().map(|e| e.to_string());
                let mut expert_right = None;
                if a.expert {
                    let st = puzzle::madiao_position(&p.hand, &f.rules).map_err(anyhow::Error::msg)?;
                    let mut bot = Madiao::bot("expert", i as u64, expert_budget)?;
                    let choice = bot.choose(&st.view(p.seat), &st.legal_actions());
                    expert_right = Some(p.answers.contains(&choice));
                }
                Ok(OneCheck { id: p.id.clone(), failure, expert_right })
            })?
        }
        GameArg::Dabaifen => {
            let f: puzzle::DabaifenFile = puzzle::read_file(&text, GameKind::Dabaifen)?;
            let themes: Vec<Vec<Theme>> = f.puzzles.iter().map(|p| p.themes.clone()).collect();
            let indices = sample_of(&of_theme(&themes, &a.theme)?, a.sample);
            on_threads(&indices, jobs, &|i| {
                let p = &f.puzzles[i];
                let failure = puzzle::check_dabaifen(p, &f.rules).err().map(|e| e.to_string());
                let mut expert_right = None;
                if a.expert {
                    let st = puzzle::dabaifen_position(&p.hand, &f.rules).map_err(anyhow::Error::msg)?;
                    let mut bot = Dabaifen::bot("expert", i as u64, expert_budget)?;
                    let choice = bot.choose(&st.view(p.seat), &st.legal_actions());
                    // A burial is right when it follows the puzzle's rule (its cards as listed
                    // or not), a play when it is one of the answers.
                    expert_right = Some(match (&p.burial, choice) {
                        (Some(rule), dabaifen::Action::Bury(set)) => rule.admits(set),
                        _ => p.answers.contains(&choice),
                    });
                }
                Ok(OneCheck { id: p.id.clone(), failure, expert_right })
            })?
        }
    };
    let ok = results.iter().filter(|r| r.failure.is_none()).count();
    let asked = results.iter().filter(|r| r.expert_right.is_some()).count();
    let agree = results.iter().filter(|r| r.expert_right == Some(true)).count();
    let theme = a.theme.as_ref().map_or(String::new(), |t| format!(", theme {t}"));
    println!("{ok} puzzle(s) checked{theme}: the answer is legal and the unique best by the margin face up");
    if a.expert {
        println!(
            "expert at {} ms per decision agrees on {agree} of {asked} ({:.1}%)",
            expert_budget.think_ms,
            100.0 * agree as f64 / asked.max(1) as f64
        );
        let differ: Vec<&str> =
            results.iter().filter(|r| r.expert_right == Some(false)).map(|r| r.id.as_str()).collect();
        if !differ.is_empty() {
            println!("the expert chose otherwise in: {}", differ.join(" "));
        }
    }
    println!("{:.0} s", start.elapsed().as_secs_f64());
    let failures: Vec<&String> = results.iter().filter_map(|r| r.failure.as_ref()).collect();
    for f in &failures {
        println!("FAILED: {f}");
    }
    if !failures.is_empty() {
        bail!("{} puzzle(s) failed the check", failures.len());
    }
    Ok(())
}

#[derive(Args, Debug)]
pub struct PuzzleArgs {
    /// The game.
    #[arg(long, value_enum, default_value = "madiao")]
    pub game: GameArg,
    /// The puzzle file (default: the data shipped in the binary).
    #[arg(long)]
    pub file: Option<PathBuf>,
    /// The puzzle's id (default: the puzzle of the day).
    #[arg(long)]
    pub id: Option<String>,
    /// Answer in Chinese.
    #[arg(long)]
    pub zh: bool,
}

/// `yezi puzzle`: shows a position, reads the player's choice on standard input, says right or
/// wrong and why, and shows the line.
pub fn puzzle_cmd(a: &PuzzleArgs) -> anyhow::Result<()> {
    let text = file_text(a.game, &a.file)?;
    let set = server::puzzles::PuzzleSet::parse(GameKind::from(a.game), &text).map_err(anyhow::Error::msg)?;
    let p = match &a.id {
        Some(id) => set.get(id).with_context(|| format!("no puzzle {id:?}"))?,
        None => set.daily(server::puzzles::today()).context("the puzzle file is empty")?,
    };
    let shown = set.show(p).map_err(anyhow::Error::msg)?;
    let out = std::io::stdout();
    let mut o = out.lock();
    writeln!(o, "{}", shown.text(a.zh))?;
    if shown.choices.is_empty() && shown.themes.iter().any(|t| t == "burial") {
        return burial_cmd(&set, p, &shown, a.zh, &mut o);
    }
    let legal = &shown.choices;
    for (i, l) in legal.iter().enumerate() {
        writeln!(o, "  {}. {}", i + 1, l.label)?;
    }
    write!(o, "{}", if a.zh { "你的选择（编号）：" } else { "your choice (number): " })?;
    o.flush()?;
    let mut line = String::new();
    std::io::stdin().lock().read_line(&mut line)?;
    let n: usize = line.trim().parse().with_context(|| format!("{:?} is not a number", line.trim()))?;
    let Some(choice) = n.checked_sub(1).and_then(|i| legal.get(i)) else {
        bail!("{n} is not one of 1–{}", legal.len());
    };
    let verdict = set.judge(p, &choice.action).map_err(anyhow::Error::msg)?;
    writeln!(o, "{}", verdict.text(a.zh))?;
    Ok(())
}

/// A burial puzzle in the terminal: the hand numbered, six cards chosen by their numbers or
/// names (`3 5 QS 9S …`), the burial judged.
fn burial_cmd(
    set: &server::puzzles::PuzzleSet,
    p: usize,
    shown: &server::puzzles::PuzzlePosition,
    zh: bool,
    o: &mut impl std::io::Write,
) -> anyhow::Result<()> {
    let v = serde_json::to_value(&shown.view)?;
    let hand: Vec<String> = v["hand"]
        .as_array()
        .map(|h| h.iter().filter_map(|c| c.as_str().map(String::from)).collect())
        .unwrap_or_default();
    for (i, c) in hand.iter().enumerate() {
        write!(o, "  {}. {c}", i + 1)?;
    }
    writeln!(o)?;
    write!(
        o,
        "{}",
        if zh {
            "要埋的六张牌（编号或牌名，空格分隔）："
        } else {
            "the six cards to bury (numbers or names): "
        }
    )?;
    o.flush()?;
    let mut line = String::new();
    std::io::stdin().lock().read_line(&mut line)?;
    let mut cards: Vec<String> = Vec::new();
    for word in line.split(|c: char| c.is_whitespace() || c == ',') {
        if word.is_empty() {
            continue;
        }
        let card = match word.parse::<usize>() {
            Ok(n) => n
                .checked_sub(1)
                .and_then(|i| hand.get(i))
                .cloned()
                .with_context(|| format!("{n} is not one of 1–{}", hand.len()))?,
            Err(_) => {
                let up = word.to_uppercase();
                if !hand.contains(&up) {
                    bail!("{word:?} is not a card of your hand");
                }
                up
            }
        };
        if cards.contains(&card) {
            bail!("{card} is chosen twice");
        }
        cards.push(card);
    }
    if cards.len() != 6 {
        bail!("bury exactly 6 cards, not {}", cards.len());
    }
    let verdict = set.judge(p, &serde_json::json!({ "bury": cards })).map_err(anyhow::Error::msg)?;
    writeln!(o, "{}", verdict.text(zh))?;
    Ok(())
}
