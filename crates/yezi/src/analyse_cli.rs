//! `yezi analyse`: the analysis of a finished hand of a record (docs/analysis.md).

use std::io::{IsTerminal as _, Write};
use std::path::PathBuf;

use ai::Budget;
use ai::analysis::{self, Options, Progress};
use ai::record::AnyRecord;
use anyhow::{Context as _, bail};
use cards::Seat;
use clap::Args;

#[derive(Args, Debug)]
pub struct AnalyseArgs {
    /// The record file (`-` for standard input): one record (`.json`), records one a line
    /// (`.jsonl`), or gzip-compressed JSON Lines (`.jsonl.gz`, as the server's archive downloads
    /// are).
    pub file: PathBuf,
    /// The seat whose decisions are analysed (0–3).
    #[arg(long, default_value_t = 0)]
    pub seat: u8,
    /// The hand of the record, from 0.
    #[arg(long, default_value_t = 0)]
    pub hand: usize,
    /// Which record of a file of several (JSON Lines), from 0.
    #[arg(long, default_value_t = 0)]
    pub record: usize,
    /// The seed of the bot's sampled worlds (same seed, same analysis).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The bot's thinking per decision, in nominal milliseconds.
    #[arg(long, default_value_t = 100)]
    pub think_ms: u32,
    /// Print the analysis as JSON (docs/analysis.md) instead of the step-by-step report.
    #[arg(long)]
    pub json: bool,
}

/// The first bytes of a gzip file.
const GZIP_MAGIC: [u8; 2] = [0x1f, 0x8b];

/// The records of a file: one record, or one a line (plain or gzip-compressed JSON Lines).
fn read_records(args: &AnalyseArgs) -> anyhow::Result<Vec<AnyRecord>> {
    read_record_file(&args.file)
}

/// The records of a file (`-` for standard input): one record, or one a line (plain or
/// gzip-compressed JSON Lines).
pub(crate) fn read_record_file(file: &std::path::Path) -> anyhow::Result<Vec<AnyRecord>> {
    let name = file.display();
    let bytes = if file.as_os_str() == "-" {
        let mut b = Vec::new();
        std::io::Read::read_to_end(&mut std::io::stdin(), &mut b).context("reading standard input")?;
        b
    } else {
        std::fs::read(file).with_context(|| format!("reading {name}"))?
    };
    let text = if bytes.starts_with(&GZIP_MAGIC) {
        let mut s = String::new();
        std::io::Read::read_to_string(&mut flate2::read::GzDecoder::new(&bytes[..]), &mut s)
            .with_context(|| format!("{name}: reading the gzip-compressed records"))?;
        s
    } else {
        String::from_utf8(bytes).with_context(|| format!("{name}: not UTF-8 text"))?
    };
    let whole = ai::record::parse(&text);
    let lines: Vec<(usize, &str)> = text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()).collect();
    match whole {
        Ok(r) => Ok(vec![r]),
        Err(e) if lines.len() <= 1 => Err(anyhow::anyhow!("{name}: {e}")),
        Err(_) => lines
            .into_iter()
            .map(|(i, l)| ai::record::parse(l).with_context(|| format!("{name}, line {}", i + 1)))
            .collect(),
    }
}

pub fn analyse(args: &AnalyseArgs) -> anyhow::Result<()> {
    let Some(seat) = Seat::new(args.seat) else {
        bail!("--seat {}: a seat is 0, 1, 2 or 3", args.seat);
    };
    let records = read_records(args)?;
    let Some(rec) = records.get(args.record) else {
        bail!(
            "--record {}: {} holds {} record(s), numbered from 0",
            args.record,
            args.file.display(),
            records.len()
        );
    };
    let opts = Options { seat, hand: args.hand, seed: args.seed, budget: Budget { think_ms: args.think_ms } };
    let show = std::io::stderr().is_terminal();
    let mut progress = |p: Progress| {
        if show {
            eprint!("\ranalysing: {}/{} decisions", p.done, p.total);
            if p.done == p.total {
                eprintln!();
            }
        }
    };
    let a = analysis::analyse(rec, &opts, &mut progress)
        .with_context(|| format!("{}: hand {}", args.file.display(), args.hand))?;
    let mut out = std::io::stdout().lock();
    if args.json {
        let mut s = serde_json::to_string_pretty(&a)?;
        s.push('\n');
        out.write_all(s.as_bytes())?;
    } else {
        out.write_all(analysis::report(&a).as_bytes())?;
    }
    out.flush()?;
    Ok(())
}
