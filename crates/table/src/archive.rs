//! The public archive's wire types (`docs/protocol.md`, "The public archive"): the finished games
//! of tables that were not private, as the Replays page lists them, and the cursor of its pages.

pub use wire::archive::*;

/// A place in the archive's order (newest first): the games strictly after it are those that
/// ended earlier, or at the same millisecond with a smaller id. Written `FINISHED_MS.ID`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArchiveCursor {
    /// The end time of the last game seen.
    pub finished_ms: i64,
    /// The id of the last game seen.
    pub id: String,
}

impl ArchiveCursor {
    /// The cursor just after `game`.
    pub fn after(game: &ArchivedGame) -> ArchiveCursor {
        ArchiveCursor { finished_ms: game.finished_ms, id: game.id.clone() }
    }

    /// Reads a cursor written by [`ArchiveCursor::text`] (`None`: not one).
    pub fn parse(text: &str) -> Option<ArchiveCursor> {
        let (ms, id) = text.split_once('.')?;
        let finished_ms = ms.parse().ok()?;
        (!id.is_empty() && id.len() <= 64 && id.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'))
            .then(|| ArchiveCursor { finished_ms, id: id.to_string() })
    }

    /// The cursor as text, for a query parameter.
    pub fn text(&self) -> String {
        format!("{}.{}", self.finished_ms, self.id)
    }
}

/// The prefix by which a record's `players` names a bot (`bot:heuristic`).
pub const BOT_PREFIX: &str = "bot:";

/// The seats of a record's `players` list.
pub fn seats_of(players: &[String]) -> Vec<ArchivedSeat> {
    players
        .iter()
        .map(|p| match p.strip_prefix(BOT_PREFIX) {
            Some(b) => ArchivedSeat { name: b.to_string(), bot: true },
            None => ArchivedSeat { name: p.clone(), bot: false },
        })
        .collect()
}

/// The key a person's name is searched by: its lower case.
pub fn name_key(name: &str) -> String {
    name.trim().to_lowercase()
}

/// The UTC month `YYYY-MM` as the milliseconds of its first instant and of the next month's.
pub fn month_range(month: &str) -> Option<(i64, i64)> {
    let (y, m) = month.split_once('-')?;
    if y.len() != 4 || m.len() != 2 {
        return None;
    }
    let (y, m): (i64, i64) = (y.parse().ok()?, m.parse().ok()?);
    if !(1970..=9999).contains(&y) || !(1..=12).contains(&m) {
        return None;
    }
    let (ny, nm) = if m == 12 { (y + 1, 1) } else { (y, m + 1) };
    Some((days_from_civil(y, m) * DAY_MS, days_from_civil(ny, nm) * DAY_MS))
}

const DAY_MS: i64 = 86_400_000;

/// The date (year, month 1–12, day 1–31; proleptic Gregorian) `days` days after 1970-01-01
/// (before it when negative), by Howard Hinnant's algorithm; the inverse of this module's day count.
pub fn civil_from_days(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

/// Days from 1970-01-01 to the first day of month `m` of year `y` (proleptic Gregorian).
fn days_from_civil(y: i64, m: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_months_first_day_and_its_day_count_are_inverses() {
        for y in [1900, 1969, 1970, 2000, 2024, 2026, 2100, 9999] {
            for m in 1..=12 {
                assert_eq!(civil_from_days(days_from_civil(y, m)), (y, m, 1), "{y}-{m}");
            }
        }
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(-1), (1969, 12, 31));
        assert_eq!(civil_from_days(20_786), (2026, 11, 29));
    }

    #[test]
    fn months_are_their_utc_milliseconds() {
        assert_eq!(month_range("1970-01"), Some((0, 31 * DAY_MS)));
        // 2026-11-01T00:00:00Z and 2026-12-01T00:00:00Z.
        assert_eq!(month_range("2026-11"), Some((1_793_491_200_000, 1_796_083_200_000)));
        // A leap February.
        let (a, b) = month_range("2024-02").unwrap();
        assert_eq!((b - a) / DAY_MS, 29);
        let (a, b) = month_range("2026-12").unwrap();
        assert_eq!((a, (b - a) / DAY_MS), (1_796_083_200_000, 31));
        for bad in ["2026-13", "2026-00", "2026-1", "26-11", "2026/11", "", "1969-12", "abcd-ef"] {
            assert_eq!(month_range(bad), None, "{bad}");
        }
    }

    #[test]
    fn cursors_read_back_and_refuse_garbage() {
        let c = ArchiveCursor { finished_ms: 1_700_000_000_123, id: "t_abc9".into() };
        assert_eq!(ArchiveCursor::parse(&c.text()), Some(c));
        for bad in ["", "12", "x.t1", "12.", "12.t'1", "12.t 1"] {
            assert_eq!(ArchiveCursor::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn a_records_players_become_seats() {
        let seats = seats_of(&["Ann".into(), "bot:heuristic".into()]);
        assert_eq!(seats[0], ArchivedSeat { name: "Ann".into(), bot: false });
        assert_eq!(seats[1], ArchivedSeat { name: "heuristic".into(), bot: true });
    }
}
