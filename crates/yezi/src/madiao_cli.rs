//! The `madiao` side of `yezi replay`, `yezi sim` and `yezi bench`.
//! (Skeleton: filled in by the madiao engine work.)

use std::io::Write;

use cards::record::{MadiaoHand, Record};

use crate::{BenchArgs, SimArgs};

/// Replays a record; returns false when an action is illegal or a stored result differs.
pub fn replay(_record: &Record<MadiaoHand>, _json: bool, _out: &mut impl Write) -> anyhow::Result<bool> {
    anyhow::bail!("madiao replay is not built yet")
}

/// Plays hands with random legal play and prints a summary.
pub fn sim(_args: &SimArgs) -> anyhow::Result<()> {
    anyhow::bail!("madiao sim is not built yet")
}

/// Measures random playouts per second.
pub fn bench(_args: &BenchArgs) -> anyhow::Result<()> {
    anyhow::bail!("madiao bench is not built yet")
}
