//! Drawing the interface: the table with the four seats and the current trick, the side panel
//! (the match, trumps or the upcard, the last trick, the log of the hand), the hand with the
//! cursor and the selection, the prompt for the decision at hand, and the overlays (a hand's
//! result, the end of the match, the help, quitting). Below [`MIN_WIDTH`]×[`MIN_HEIGHT`] a message
//! asks for a larger terminal.

use std::time::Instant;

use cards::Seat;
use cards::record::GameKind;
use ratatui::Frame;
use ratatui::layout::{Alignment, Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span, Text};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Wrap};

use crate::app::{App, madiao_best};
use crate::model::{
    Connection, DabaifenView, GameView, HandResult, Legal, MadiaoView, MatchSummary, Model, TableStatus,
    Timer, timer_remaining, timer_seat,
};
use crate::names;
use wire::{ActAction, Tracker};

/// The smallest terminal the interface draws in.
pub const MIN_WIDTH: u16 = 80;
/// The smallest terminal the interface draws in.
pub const MIN_HEIGHT: u16 = 24;

const HAND_ROWS: u16 = 7;

fn bold() -> Style {
    Style::default().add_modifier(Modifier::BOLD)
}

fn dim() -> Style {
    Style::default().fg(Color::DarkGray)
}

fn accent() -> Style {
    Style::default().fg(Color::Yellow).add_modifier(Modifier::BOLD)
}

fn seat_short(m: &Model, s: Seat) -> String {
    if Some(s) == m.me { "you".into() } else { format!("s{}", s.number()) }
}

fn signed(x: f64) -> String {
    if x == 0.0 {
        "0".into()
    } else if x.fract() == 0.0 {
        format!("{x:+.0}")
    } else {
        format!("{x:+.1}")
    }
}

/// Draws the whole interface.
pub fn draw(f: &mut Frame, app: &App, now: Instant) {
    let area = f.area();
    if area.width < MIN_WIDTH || area.height < MIN_HEIGHT {
        let text = vec![
            Line::styled("yezi play", bold()),
            Line::raw(""),
            Line::raw(format!("The terminal is {}×{}.", area.width, area.height)),
            Line::raw(format!("yezi play needs at least {MIN_WIDTH}×{MIN_HEIGHT}:")),
            Line::raw("please enlarge the window."),
            Line::raw(""),
            Line::styled("Esc quits (Ctrl-C at once).", dim()),
        ];
        f.render_widget(Paragraph::new(text).alignment(Alignment::Center).wrap(Wrap { trim: true }), area);
        if app.ui.confirm_quit {
            confirm_quit(f, area, app);
        }
        return;
    }
    let [title, body, bottom] =
        Layout::vertical([Constraint::Length(1), Constraint::Min(10), Constraint::Length(HAND_ROWS)])
            .areas(area);
    title_bar(f, title, app);
    let m = &app.model;
    if m.view.is_none() {
        if m.lobby.is_some() {
            lobby(f, body.union(bottom), app);
        } else {
            waiting(f, body.union(bottom), app);
        }
    } else {
        let side_w = (area.width * 36 / 100).clamp(30, 46);
        let [table_area, side] =
            Layout::horizontal([Constraint::Min(40), Constraint::Length(side_w)]).areas(body);
        table(f, table_area, app);
        side_panel(f, side, app);
        hand_area(f, bottom, app, now);
        if app.showing_result() {
            result_popup(f, body, app);
        }
    }
    if let Some(lines) = &app.ui.analysis {
        analysis(f, body.union(bottom), app, lines);
    }
    if let Some(e) = &app.fatal {
        popup_text(
            f,
            area,
            " Cannot go on ",
            vec![Line::raw(e.clone()), Line::raw(""), Line::styled("Enter or Esc quits.", dim())],
        );
    }
    if app.ui.help {
        help(f, area, app);
    }
    if app.ui.confirm_quit {
        confirm_quit(f, area, app);
    }
}

fn title_bar(f: &mut Frame, area: Rect, app: &App) {
    let m = &app.model;
    let mut spans = vec![Span::styled(" yezi ", accent())];
    match m.game {
        Some(GameKind::Madiao) => spans.push(Span::styled("馬弔 Madiao", bold())),
        Some(GameKind::Dabaifen) => spans.push(Span::styled("打百分 Da Bai Fen", bold())),
        None => {}
    }
    if let Some(t) = &m.table {
        spans.push(Span::raw(format!(
            " · {} · {} {}",
            t.rules,
            if m.game == Some(GameKind::Dabaifen) { "deal" } else { "hand" },
            m.hand + 1
        )));
    }
    spans.push(Span::styled(format!(" · {}", app.place), dim()));
    if let Some(w) = m.watchers_line() {
        spans.push(Span::styled(format!(" · {w}"), dim()));
    }
    if let Connection::Connecting(_) = &m.connection
        && m.table.is_some()
    {
        spans.push(Span::styled(
            " · not connected",
            Style::default().fg(Color::Red).add_modifier(Modifier::BOLD),
        ));
    }
    let right = Span::styled("  ? help · Esc quit ", dim());
    let [l, r] =
        Layout::horizontal([Constraint::Min(10), Constraint::Length(right.width() as u16)]).areas(area);
    f.render_widget(Paragraph::new(Line::from(spans)), l);
    f.render_widget(Paragraph::new(Line::from(right)), r);
}

/// Madiao: each finished hand's payoffs in chips (its payoffs times its stake), from the results.
fn hand_chips(m: &Model) -> Vec<[f64; 4]> {
    let Some(MatchSummary::Madiao(s)) = &m.summary else { return Vec::new() };
    m.results
        .iter()
        .zip(&s.stakes)
        .filter_map(|(r, &stake)| match r {
            HandResult::Madiao(r) => Some(r.payoffs.0.map(|x| x.to_f64() * f64::from(stake))),
            _ => None,
        })
        .collect()
}

fn waiting(f: &mut Frame, area: Rect, app: &App) {
    let m = &app.model;
    let mut lines = vec![Line::raw("")];
    match &m.connection {
        Connection::Connecting(s) => lines.push(Line::styled(s.clone(), accent())),
        Connection::Connected if m.table.as_ref().is_some_and(|t| t.status != TableStatus::Waiting) => {
            // Madiao, before a hand is dealt: its banker names the stake (§2).
            match (&m.legal, &m.timer) {
                (Some(Legal::Stake { low, high }), _) => {
                    lines.push(Line::styled(format!("Hand {}: you are the banker", m.hand + 1), bold()));
                    lines.push(Line::styled(
                        format!(
                            "name its stake, {low} to {high} chips · ←→ change · Enter names {} chips",
                            app.stake_choice(*low, *high)
                        ),
                        accent(),
                    ));
                }
                (_, Some(t)) if timer_seat(t).is_some() => {
                    let seat = timer_seat(t).unwrap_or(Seat::ALL[0]);
                    lines.push(Line::styled(
                        format!("Hand {}: the banker, {}, names the stake…", m.hand + 1, m.seat_name(seat)),
                        accent(),
                    ));
                }
                _ => lines.push(Line::styled("The next hand is dealt…", accent())),
            }
            if let Some(MatchSummary::Madiao(s)) = &m.summary {
                for (i, (stake, chips)) in s.stakes.iter().zip(hand_chips(m)).enumerate() {
                    let chips: Vec<String> = chips.iter().map(|c| format!("{c:+}")).collect();
                    lines.push(Line::raw(format!(
                        "hand {}: stake {stake} · chips {}",
                        i + 1,
                        chips.join(" ")
                    )));
                }
                let total: Vec<String> = s.chips.iter().map(|c| format!("{c:+}")).collect();
                lines.push(Line::styled(format!("match in chips: {}", total.join(" ")), bold()));
            }
        }
        Connection::Connected => {
            lines.push(Line::styled("Waiting for the match to begin…", accent()));
            if let Some(t) = &m.table {
                lines.push(Line::raw(format!("table {} ({}), {}", t.name, t.id, t.status.name())));
                for s in &t.seats {
                    lines.push(Line::raw(format!(
                        "seat {}: {}",
                        s.seat,
                        s.name.clone().unwrap_or_else(|| "open".into())
                    )));
                }
                if let Some(w) = m.watchers_line() {
                    lines.push(Line::raw(w));
                }
            }
        }
    }
    if let Some(e) = &m.error {
        lines.push(Line::styled(e.clone(), Style::default().fg(Color::Red)));
    }
    if let Some(s) = &m.status {
        lines.push(Line::raw(s.clone()));
    }
    f.render_widget(
        Paragraph::new(lines).alignment(Alignment::Center).wrap(Wrap { trim: true }).block(Block::bordered()),
        area,
    );
}

fn lobby(f: &mut Frame, area: Rect, app: &App) {
    let m = &app.model;
    let tables = m.lobby.as_deref().unwrap_or(&[]);
    let mut lines = vec![Line::styled(format!("Tables at {}", m.lobby_server), bold()), Line::raw("")];
    if tables.is_empty() {
        lines.push(Line::raw("No open table right now."));
    }
    for (i, t) in tables.iter().enumerate() {
        let mark = if i == app.ui.lobby_cursor { "▶ " } else { "  " };
        let game = match t.game {
            GameKind::Madiao => "Madiao",
            GameKind::Dabaifen => "Da Bai Fen",
        };
        let style = if i == app.ui.lobby_cursor { accent() } else { Style::default() };
        lines.push(Line::styled(
            format!(
                "{mark}{:<28} {:<10} {} · {} open seat(s) · {} hand(s)",
                t.name,
                game,
                t.status.name(),
                t.open_seats,
                t.hands
            ),
            style,
        ));
    }
    lines.push(Line::raw(""));
    lines.push(Line::styled(
        "↑↓ choose · Enter joins · m opens a Madiao table, d a Da Bai Fen table (with bots) · g refreshes · Esc quits",
        dim(),
    ));
    if let Some(e) = app.ui.message.as_ref().or(m.error.as_ref()) {
        lines.push(Line::styled(e.clone(), Style::default().fg(Color::Red)));
    }
    f.render_widget(
        Paragraph::new(lines).wrap(Wrap { trim: false }).block(Block::bordered().title(" Lobby ")),
        area,
    );
}

// ---------------------------------------------------------------------------------------------
// The table

/// What one seat shows around the table.
struct SeatBlock {
    head: Line<'static>,
    stats: String,
    play: Line<'static>,
}

fn card_span(game: GameKind, code: &str, style: Style) -> Span<'static> {
    let s = if names::is_red(game, code) { style.fg(Color::Red) } else { style };
    Span::styled(names::label(game, code), s)
}

fn madiao_blocks(m: &Model, v: &MadiaoView) -> [SeatBlock; 4] {
    let best = madiao_best(v);
    let current = v.tricks.last();
    let totals = match &m.summary {
        Some(MatchSummary::Madiao(s)) => s.totals,
        _ => [0.0; 4],
    };
    std::array::from_fn(|i| {
        let s = Seat::ALL[i];
        let mut head = Vec::new();
        if v.to_move == Some(s) {
            head.push(Span::styled("▶ ", accent()));
        }
        head.push(Span::styled(m.seat_label(s), bold()));
        if s == v.banker {
            head.push(Span::styled(" · 莊 banker", Style::default().fg(Color::Cyan)));
        }
        let stats = format!(
            "{} card{} · {} trick{} · {}",
            v.hand_sizes[s],
            if v.hand_sizes[s] == 1 { "" } else { "s" },
            v.tricks_won[s],
            if v.tricks_won[s] == 1 { "" } else { "s" },
            signed(totals[i])
        );
        let mut play = Vec::new();
        if let Some(t) = current
            && let Some(p) = t.plays.iter().find(|p| p.seat == s)
        {
            match (p.face_up, p.card) {
                (true, Some(c)) => {
                    play.push(card_span(GameKind::Madiao, c.code(), bold()));
                    if p.kind == madiao::PlayKind::Discard {
                        play.push(Span::styled(" discard", dim()));
                    }
                    if !p.can_win && p.kind == madiao::PlayKind::Capture {
                        play.push(Span::styled(" (cannot win)", dim()));
                    }
                }
                (false, Some(c)) => {
                    play.push(Span::styled(format!("{} ", c.code()), dim()));
                    play.push(Span::styled("↓ face down", dim()));
                }
                (_, None) => play.push(Span::styled("▒▒ face down", dim())),
            }
            let wins = match (t.winner, best) {
                (Some(w), _) => w == s,
                (None, Some((_, _, b))) => b == s,
                _ => false,
            };
            if wins {
                play.push(Span::styled(if t.winner.is_some() { " ★ won" } else { " ★" }, accent()));
            }
        }
        SeatBlock { head: Line::from(head), stats, play: Line::from(play) }
    })
}

/// The seat winning Da Bai Fen's current trick so far, as the engine's view says.
pub fn dabaifen_winning(v: &DabaifenView) -> Option<Seat> {
    v.tricks.last().filter(|t| t.winner.is_none() && !t.plays.is_empty())?.leading
}

fn dabaifen_blocks(m: &Model, v: &DabaifenView) -> [SeatBlock; 4] {
    let current = v.tricks.last();
    let winning = dabaifen_winning(v);
    std::array::from_fn(|i| {
        let s = Seat::ALL[i];
        let mut head = Vec::new();
        if v.to_move == Some(s) {
            head.push(Span::styled("▶ ", accent()));
        }
        head.push(Span::styled(m.seat_label(s), bold()));
        let starter_known = v.starter_settled();
        if s == v.starter && starter_known {
            head.push(Span::styled(" · 親 starter", Style::default().fg(Color::Cyan)));
        }
        let team = s.team();
        let stats = format!(
            "{} card{} · team {}",
            v.hand_sizes[i],
            if v.hand_sizes[i] == 1 { "" } else { "s" },
            team
        );
        let mut play = Vec::new();
        if let Some(t) = current
            && let Some(p) = t.plays.iter().find(|p| p.seat == s)
        {
            for (k, c) in p.cards.iter().enumerate() {
                if k > 0 {
                    play.push(Span::raw(" "));
                }
                play.push(card_span(GameKind::Dabaifen, &c.to_string(), bold()));
            }
            if t.winner == Some(s) {
                play.push(Span::styled(" ★ won", accent()));
            } else if winning == Some(s) {
                play.push(Span::styled(" ★", accent()));
            }
        } else if let Some(d) = &v.declaration
            && d.seat == s
            && v.tricks.iter().all(|t| t.plays.is_empty())
        {
            play.push(Span::styled(format!("showed {}", d.card), accent()));
        }
        SeatBlock { head: Line::from(head), stats, play: Line::from(play) }
    })
}

fn table(f: &mut Frame, area: Rect, app: &App) {
    let m = &app.model;
    let Some(view) = &m.view else { return };
    let (title, blocks, center) = match view {
        GameView::Madiao(v) => {
            let n = v.tricks.len();
            let title = match v.phase {
                madiao::Phase::Redeal => " Table · the deal: long suits may force a redeal ".to_string(),
                madiao::Phase::Over => " Table · the hand is over ".to_string(),
                madiao::Phase::Play => format!(" Table · trick {}/8 ", n.max(1)),
            };
            let mut center = Vec::new();
            if let Some(t) = v.tricks.last() {
                let lead = t.plays.first().and_then(|p| p.card);
                match (t.winner, lead) {
                    (Some(w), _) => center.push(format!("trick {} won by {}", t.number, m.seat_label(w))),
                    (None, Some(c)) => center.push(format!("{} led {}", m.seat_label(t.leader), c.suit())),
                    _ => {}
                }
            } else if v.phase == madiao::Phase::Play {
                center.push(format!(
                    "{} lead{}",
                    m.seat_label(v.first_recipient),
                    if Some(v.first_recipient) == m.me { "" } else { "s" }
                ));
            }
            (title, madiao_blocks(m, v), center)
        }
        GameView::Dabaifen(v) => {
            let title = match v.phase {
                dabaifen::Phase::Drawing => format!(" Table · drawing {}/48 ", v.drawn),
                dabaifen::Phase::Annulling => {
                    " Table · trumps fixed: a hand without trumps may annul ".to_string()
                }
                dabaifen::Phase::Burying => {
                    " Table · the starter takes the kitty and buries six ".to_string()
                }
                dabaifen::Phase::Over => " Table · the deal is over ".to_string(),
                dabaifen::Phase::Playing => format!(" Table · trick {} ", v.tricks.len().max(1)),
            };
            let mut center = Vec::new();
            if v.phase == dabaifen::Phase::Drawing {
                let w = 24usize;
                let filled = usize::from(v.drawn.min(48)) * w / 48;
                center.push(format!(
                    "drawing {:>2}/48 [{}{}]",
                    v.drawn,
                    "█".repeat(filled),
                    "·".repeat(w - filled)
                ));
            } else if let Some(t) = v.tricks.last().filter(|t| !t.plays.is_empty()) {
                match t.winner {
                    Some(w) => center.push(format!(
                        "won by {} · {} point{}",
                        m.seat_label(w),
                        t.points.unwrap_or(0),
                        if t.points == Some(1) { "" } else { "s" }
                    )),
                    None => {
                        let n = t.plays[0].cards.len();
                        center.push(format!(
                            "{} led {} card{}",
                            m.seat_label(t.leader),
                            n,
                            if n == 1 { "" } else { "s" }
                        ))
                    }
                }
            }
            (title, dabaifen_blocks(m, v), center)
        }
    };
    let block = Block::bordered().title(title);
    let inner = block.inner(area);
    f.render_widget(block, area);
    let me = m.me.unwrap_or(Seat::ALL[0]);
    let (right, top, left) = (me.offset(1), me.offset(2), me.offset(3));
    let h = inner.height;
    let row = |y: u16, hgt: u16| Rect {
        x: inner.x,
        y: inner.y + y.min(h.saturating_sub(1)),
        width: inner.width,
        height: hgt.min(h.saturating_sub(y)),
    };
    // Top: the seat opposite.
    let b = &blocks[top.index()];
    let top_text = vec![b.head.clone(), Line::raw(b.stats.clone()), b.play.clone()];
    f.render_widget(Paragraph::new(top_text).alignment(Alignment::Center), row(0, 3));
    // Middle: left and right.
    let mid = (h / 2).saturating_sub(1);
    let half = Rect { width: inner.width / 2, ..row(mid, 3) };
    let lb = &blocks[left.index()];
    f.render_widget(
        Paragraph::new(vec![lb.head.clone(), Line::raw(lb.stats.clone()), lb.play.clone()]),
        half,
    );
    let rb = &blocks[right.index()];
    let rhalf = Rect { x: inner.x + inner.width - inner.width / 2, ..half };
    f.render_widget(
        Paragraph::new(vec![rb.head.clone(), Line::raw(rb.stats.clone()), rb.play.clone()])
            .alignment(Alignment::Right),
        rhalf,
    );
    // Between the top and the middle: what the trick is.
    let c: Vec<Line> =
        center.into_iter().map(|s| Line::styled(s, Style::default().fg(Color::Cyan))).collect();
    if mid > 3 {
        f.render_widget(Paragraph::new(c).alignment(Alignment::Center), row(mid - 1, 1));
    }
    // Bottom: the person.
    let mb = &blocks[me.index()];
    f.render_widget(
        Paragraph::new(vec![mb.play.clone(), mb.head.clone(), Line::raw(mb.stats.clone())])
            .alignment(Alignment::Center),
        row(h.saturating_sub(3), 3),
    );
}

// ---------------------------------------------------------------------------------------------
// The side panel

fn madiao_match_lines(m: &Model, v: &MadiaoView) -> Vec<Line<'static>> {
    let mut lines = vec![Line::raw(format!("hand {} · stake {} chips", m.hand + 1, v.stake))];
    lines.push(Line::from(vec![Span::raw("upcard "), card_span(GameKind::Madiao, v.upcard.code(), bold())]));
    // The reward cards, as the engine's rules give them for this upcard, highest first.
    let rewards: Vec<String> =
        madiao::card::reward_cards(v.upcard).iter().rev().map(|c| c.code().to_string()).collect();
    lines.push(Line::raw(format!("rewards {}", rewards.join(" "))));
    if let Some(MatchSummary::Madiao(madiao_match)) = &m.summary {
        let (banked, totals) = (&madiao_match.banked, &madiao_match.totals);
        let b: Vec<String> =
            Seat::ALL.iter().filter(|s| banked[s.index()]).map(|&s| seat_short(m, s)).collect();
        lines.push(Line::raw(format!(
            "banked: {}",
            if b.is_empty() { "nobody yet".into() } else { b.join(" ") }
        )));
        let t: Vec<String> = Seat::ALL
            .iter()
            .map(|&s| format!("{} {}", seat_short(m, s), signed(totals[s.index()])))
            .collect();
        lines.push(Line::raw(format!("score {}", t.join(" "))));
    }
    let forbidden = v.variants.faceup_discard == madiao::variants::FaceupDiscard::Forbidden;
    lines.push(Line::styled(
        format!("face-up discard: {}", if forbidden { "forbidden" } else { "penalty 2" }),
        dim(),
    ));
    lines
}

fn dabaifen_match_lines(m: &Model, v: &DabaifenView) -> Vec<Line<'static>> {
    let mut lines = Vec::new();
    let kind = if v.first_deal {
        " (first deal)"
    } else if v.open {
        " (open deal)"
    } else {
        ""
    };
    lines.push(Line::raw(format!("deal {}{kind}", m.hand + 1)));
    match v.trump {
        Some(t) => {
            let l = t.suit.letter();
            let style = if l == 'H' || l == 'D' { accent().fg(Color::Red) } else { accent() };
            lines.push(Line::from(vec![
                Span::raw("trumps "),
                Span::styled(format!("{} {} {}", names::suit_symbol(l), l, names::suit_name(l)), style),
                Span::raw(format!(" · rank {}", t.rank)),
            ]));
        }
        None if v.open => lines.push(Line::raw("open deal: show your team's rank")),
        None => lines.push(Line::raw(format!(
            "trump rank {} · suit not fixed",
            v.ranks[v.provisional_starter.team() as usize]
        ))),
    }
    let me = m.me.unwrap_or(Seat::ALL[0]);
    let declarers = v.starter.team();
    let starter_known = v.starter_settled();
    for team in 0..2u8 {
        let who = if me.team() == team { "us" } else { "them" };
        let role = if !starter_known {
            ""
        } else if team == declarers {
            " · declare"
        } else {
            " · defend"
        };
        lines.push(Line::raw(format!("team {team} {who}: rank {}{role}", v.ranks[team as usize])));
    }
    if starter_known {
        lines.push(Line::raw(format!("defenders' points {}", v.team_points[1 - declarers as usize])));
    }
    if let Some(MatchSummary::Dabaifen(dm)) = &m.summary {
        let deals_won = dm.deals_won;
        lines.push(Line::raw(format!("deals won {}–{}", deals_won[0], deals_won[1])));
    }
    if let Some(b) = &v.buried {
        let codes: Vec<String> = b.iter().map(ToString::to_string).collect();
        lines.push(Line::raw(format!("buried {}", codes.join(" "))));
    } else if !v.kitty_turned.is_empty() {
        let codes: Vec<String> = v.kitty_turned.iter().map(ToString::to_string).collect();
        lines.push(Line::raw(format!("kitty turned {}", codes.join(" "))));
    }
    lines
}

fn madiao_play_text(m: &Model, p: &madiao::view::PlayView) -> String {
    let who = seat_short(m, p.seat);
    match (p.face_up, p.card) {
        (true, Some(c)) => format!("{who} {}", c.code()),
        (false, Some(c)) => format!("{who} {}↓", c.code()),
        (_, None) => format!("{who} ▒▒"),
    }
}

/// A Da Bai Fen play as the log and the last trick show it: the seat, then its cards.
fn dabaifen_play_text(m: &Model, p: &dabaifen::view::PlayView) -> String {
    let c: Vec<String> = p.cards.iter().map(ToString::to_string).collect();
    format!("{} {}", seat_short(m, p.seat), c.join(" "))
}

/// The hand so far, one line per event, for the log.
pub fn log_lines(m: &Model) -> Vec<String> {
    let mut out = Vec::new();
    match &m.view {
        Some(GameView::Madiao(v)) => {
            for c in &v.redeal_choices {
                out.push(format!(
                    "{} {} a redeal",
                    seat_short(m, c.seat),
                    if c.redeal { "forced" } else { "declined" }
                ));
            }
            for t in &v.tricks {
                let plays: Vec<String> = t.plays.iter().map(|p| madiao_play_text(m, p)).collect();
                let mut line = format!("{}: {}", t.number, plays.join(", "));
                if let Some(w) = t.winner {
                    line.push_str(&format!(" → {}", seat_short(m, w)));
                }
                out.push(line);
            }
        }
        Some(GameView::Dabaifen(v)) => {
            if let Some(d) = &v.declaration {
                out.push(format!("{} showed {} after {} cards", seat_short(m, d.seat), d.card, d.drawn));
            }
            if let (Some(k), Some(t)) = (&v.kitty_turn, v.trump) {
                out.push(format!("kitty turned to {}: trumps {}", k.card, t));
            }
            if let Some((s, _)) = &v.annulment {
                out.push(format!("{} annulled the deal", seat_short(m, *s)));
            }
            for (i, t) in v.tricks.iter().enumerate() {
                if t.plays.is_empty() {
                    continue;
                }
                let plays: Vec<String> = t.plays.iter().map(|p| dabaifen_play_text(m, p)).collect();
                let mut line = format!("{}: {}", i + 1, plays.join(", "));
                if let Some(w) = t.winner {
                    line.push_str(&format!(" → {} ({})", seat_short(m, w), t.points.unwrap_or(0)));
                }
                out.push(line);
            }
            if let Some(s) = v.revoke {
                out.push(format!("{} revoked: the deal ends", seat_short(m, s)));
            }
        }
        None => {}
    }
    out.extend(m.notes.iter().cloned());
    out
}

fn last_trick_lines(m: &Model) -> Vec<Line<'static>> {
    match &m.view {
        Some(GameView::Madiao(v)) => {
            let Some(t) = v.tricks.iter().rev().find(|t| t.winner.is_some()) else {
                return vec![Line::styled("none yet", dim())];
            };
            let plays: Vec<String> = t.plays.iter().map(|p| madiao_play_text(m, p)).collect();
            vec![
                Line::raw(format!("trick {} → {}", t.number, seat_short(m, t.winner.unwrap_or(t.leader)))),
                Line::raw(plays.join(" ")),
            ]
        }
        Some(GameView::Dabaifen(v)) => {
            let Some((i, t)) = v.tricks.iter().enumerate().rev().find(|(_, t)| t.winner.is_some()) else {
                return vec![Line::styled("none yet", dim())];
            };
            let plays: Vec<String> = t.plays.iter().map(|p| dabaifen_play_text(m, p)).collect();
            vec![
                Line::raw(format!(
                    "trick {} → {} ({} pts)",
                    i + 1,
                    seat_short(m, t.winner.unwrap_or(t.leader)),
                    t.points.unwrap_or(0)
                )),
                Line::raw(plays.join(" · ")),
            ]
        }
        None => Vec::new(),
    }
}

fn side_panel(f: &mut Frame, area: Rect, app: &App) {
    let m = &app.model;
    let match_lines = match &m.view {
        Some(GameView::Madiao(v)) => madiao_match_lines(m, v),
        Some(GameView::Dabaifen(v)) => dabaifen_match_lines(m, v),
        None => Vec::new(),
    };
    let mh = (match_lines.len() as u16 + 2).min(area.height.saturating_sub(6));
    let [top, mid, bot] =
        Layout::vertical([Constraint::Length(mh), Constraint::Length(4), Constraint::Min(2)]).areas(area);
    f.render_widget(Paragraph::new(match_lines).block(Block::bordered().title(" Match ")), top);
    f.render_widget(
        Paragraph::new(last_trick_lines(m))
            .wrap(Wrap { trim: true })
            .block(Block::bordered().title(" Last trick ")),
        mid,
    );
    let (title, lines) = match assist_lines(app) {
        Some(a) => a,
        None => (" Log of the hand ", log_lines(m)),
    };
    let inner_h = bot.height.saturating_sub(2) as usize;
    // The newest lines, wrapped to the width: count from the end.
    let width = bot.width.saturating_sub(2).max(1) as usize;
    let mut shown: Vec<Line> = Vec::new();
    let mut used = 0;
    for l in lines.iter().rev() {
        let rows = l.chars().count().div_ceil(width).max(1);
        if used + rows > inner_h {
            break;
        }
        used += rows;
        shown.push(Line::raw(l.clone()));
    }
    shown.reverse();
    f.render_widget(
        Paragraph::new(shown).wrap(Wrap { trim: false }).block(Block::bordered().title(title)),
        bot,
    );
}

/// The hint on show and the card tracker, when either is (in place of the log of the hand).
pub fn assist_lines(app: &App) -> Option<(&'static str, Vec<String>)> {
    let m = &app.model;
    let game = m.game?;
    let mut lines = Vec::new();
    if let Some(h) = &m.hint {
        let cards: Vec<String> =
            crate::app::hint_cards(&h.action).iter().map(|c| names::label(game, c)).collect();
        let verb = match h.action {
            ActAction::Madiao(madiao::Action::Slough(_)) => "slough",
            ActAction::Dabaifen(dabaifen::Action::Bury(_)) => "bury",
            _ => "play",
        };
        lines.push(format!("hint: {verb} {}", cards.join(" ")));
        lines.push(h.reason.en.clone());
    }
    if app.ui.tracker {
        lines.extend(tracker_lines(game, m.tracker.as_ref()));
    }
    if lines.is_empty() {
        return None;
    }
    let title = match (m.hint.is_some(), app.ui.tracker) {
        (true, true) => " Hint · card tracker ",
        (true, false) => " Hint ",
        _ => " Card tracker ",
    };
    Some((title, lines))
}

/// The tracker's facts in lines: each suit's cards played and unseen, the top cards, the voids.
pub fn tracker_lines(game: GameKind, tracker: Option<&Tracker>) -> Vec<String> {
    let Some(t) = tracker else { return vec!["tracker: nothing to track yet".into()] };
    fn codes<C: ToString>(cs: &[C]) -> String {
        if cs.is_empty() { "—".into() } else { cs.iter().map(C::to_string).collect::<Vec<_>>().join(" ") }
    }
    // Each suit's letter with its cards played and unseen; the cards played face down; the top
    // cards; the voids (seat, suit).
    type Suits = Vec<(String, String, String)>;
    let (suits, hidden, top, voids): (Suits, u8, String, Vec<(u8, String)>) = match t {
        Tracker::Madiao(t) => (
            t.suits
                .iter()
                .map(|s| (s.suit.to_string(), codes(&s.played[..]), codes(&s.unseen[..])))
                .collect(),
            t.hidden_plays,
            codes(&t.top[..]),
            t.voids.iter().map(|v| (v.seat.number(), v.suit.to_string())).collect(),
        ),
        Tracker::Dabaifen(t) => (
            t.suits.iter().map(|s| (s.suit.clone(), codes(&s.played[..]), codes(&s.unseen[..]))).collect(),
            0,
            codes(&t.top[..]),
            t.voids.iter().map(|v| (v.seat.number(), v.suit.clone())).collect(),
        ),
    };
    let suit_name = |s: &str| -> String {
        match (game, s) {
            (GameKind::Madiao, "T") => "十 tens".into(),
            (GameKind::Madiao, "M") => "萬 myriads".into(),
            (GameKind::Madiao, "S") => "索 strings".into(),
            (GameKind::Madiao, "W") => "文 cash".into(),
            (_, other) => other.to_string(),
        }
    };
    let mut out = Vec::new();
    for (suit, played, unseen) in suits {
        out.push(format!("{}: played {played} · unseen {unseen}", suit_name(&suit)));
    }
    if hidden > 0 {
        out.push(format!("{hidden} cards played face down by others"));
    }
    out.push(format!("your top cards: {top}"));
    let voids: Vec<String> =
        voids.into_iter().map(|(seat, suit)| format!("seat {seat} has no {}", suit_name(&suit))).collect();
    out.push(format!("voids shown: {}", if voids.is_empty() { "—".into() } else { voids.join("; ") }));
    out
}

// ---------------------------------------------------------------------------------------------
// The hand and the prompt

/// The effective suit group of a Da Bai Fen card for showing (trumps first once fixed).
fn dabaifen_group(v: &DabaifenView, c: dabaifen::Card) -> u8 {
    match v.trump {
        Some(t) => match dabaifen::Tables::of(t).suit_of(c).as_plain() {
            Some(s) => s.index(),
            None => 9,
        },
        None => c.suit().map_or(9, |s| s.index()),
    }
}

fn hand_area(f: &mut Frame, area: Rect, app: &App, now: Instant) {
    let m = &app.model;
    let Some(game) = m.game else { return };
    let hand = app.hand();
    let marks = app.marks();
    let deciding = m.legal.is_some();
    let (cell, groups): (usize, Vec<u8>) = match &m.view {
        Some(GameView::Madiao(v)) => (7, v.hand.iter().map(|c| c.suit() as u8).collect()),
        Some(GameView::Dabaifen(v)) => {
            (if hand.len() > 16 { 4 } else { 5 }, v.hand.iter().map(|&c| dabaifen_group(v, c)).collect())
        }
        None => (4, Vec::new()),
    };
    let trump_group = |i: usize| game == GameKind::Dabaifen && groups.get(i) == Some(&9);
    let mut rows: [Vec<Span>; 4] = Default::default();
    for (i, code) in hand.iter().enumerate() {
        if i > 0 && groups.get(i) != groups.get(i - 1) {
            for r in rows.iter_mut() {
                r.push(Span::raw(if cell <= 4 { " " } else { "  " }));
            }
        }
        let selected = app.ui.selected.contains(code);
        let legal = marks.legal.contains(code);
        let mark = if selected {
            "✓"
        } else if marks.capture.contains(code) {
            "↑"
        } else if marks.kitty.contains(code) {
            "k"
        } else {
            ""
        };
        let mut style = if !deciding {
            Style::default()
        } else if legal {
            bold()
        } else {
            dim()
        };
        if names::is_red(game, code) && (legal || !deciding) {
            style = style.fg(Color::Red);
        } else if trump_group(i) && (legal || !deciding) {
            style = style.fg(Color::Yellow);
        }
        if i == app.ui.cursor {
            style = style.add_modifier(Modifier::REVERSED);
        }
        let pad = |s: &str, w: usize| {
            let n = Span::raw(s.to_string()).width();
            format!("{s}{}", " ".repeat(w.saturating_sub(n)))
        };
        rows[0].push(Span::styled(pad(mark, cell), accent()));
        rows[1].push(Span::styled(code.clone(), style));
        rows[1].push(Span::raw(" ".repeat(cell.saturating_sub(code.len()))));
        let second = match game {
            GameKind::Madiao => names::madiao_name(code).unwrap_or_default(),
            GameKind::Dabaifen => match code.parse::<dabaifen::Card>().map(|c| c.points()) {
                Ok(p) if p > 0 => format!("{p}"),
                _ => String::new(),
            },
        };
        rows[2].push(Span::styled(
            pad(&second, cell),
            if legal || !deciding { Style::default() } else { dim() },
        ));
        let cur = if i == app.ui.cursor { "━━" } else { "" };
        rows[3].push(Span::styled(pad(cur, cell), accent()));
    }
    let title = match &m.view {
        Some(GameView::Dabaifen(v)) if v.phase == dabaifen::Phase::Drawing => {
            format!("Your cards ({} drawn)", hand.len())
        }
        _ => format!("Your hand ({} card{})", hand.len(), if hand.len() == 1 { "" } else { "s" }),
    };
    let mut header = vec![Span::styled(format!("── {title} "), bold())];
    if game == GameKind::Dabaifen {
        header.push(Span::styled("· points under point cards ", dim()));
    }
    let [h0, h1, h2, h3, h4, p, s] = Layout::vertical([Constraint::Length(1); 7]).areas(area);
    f.render_widget(Paragraph::new(Line::from(header)), h0);
    for (r, a) in rows.into_iter().zip([h1, h2, h3, h4]) {
        let mut spans = vec![Span::raw(" ")];
        spans.extend(r);
        f.render_widget(Paragraph::new(Line::from(spans)), a);
    }
    let (prompt, style) = prompt(app, now);
    f.render_widget(Paragraph::new(Line::styled(format!(" {prompt}"), style)), p);
    f.render_widget(Paragraph::new(status_line(app)), s);
}

fn status_line(app: &App) -> Line<'static> {
    let m = &app.model;
    if let Connection::Connecting(s) = &m.connection {
        return Line::styled(format!(" {s}"), Style::default().fg(Color::Red).add_modifier(Modifier::BOLD));
    }
    if !app.ui.typed.is_empty() {
        return Line::styled(
            format!(" code: {}_  (Esc clears)", app.ui.typed.to_ascii_uppercase()),
            accent(),
        );
    }
    if let Some((_, q)) = &app.ui.confirm {
        return Line::styled(format!(" {q}"), accent());
    }
    if let Some(msg) = &app.ui.message {
        return Line::styled(format!(" {msg}"), Style::default().fg(Color::Magenta));
    }
    if let Some(e) = &m.error {
        return Line::styled(format!(" {e}"), Style::default().fg(Color::Red));
    }
    if let Some(figure) = chosen_figure(app) {
        let mut spans = vec![Span::styled(format!(" {figure}"), accent())];
        if let Some(s) = &m.status {
            spans.push(Span::styled(format!(" · {s}"), dim()));
        }
        return Line::from(spans);
    }
    if let Some(s) = &m.status {
        return Line::styled(format!(" {s}"), dim());
    }
    Line::raw("")
}

/// The figure on the Madiao card under the cursor, named (`docs/rules/madiao.md` §1), as the
/// table's deck draws it: "TQ 千萬: 武松 Wu Song, a hero of the Water Margin".
fn chosen_figure(app: &App) -> Option<String> {
    let m = &app.model;
    let Some(GameView::Madiao(v)) = &m.view else { return None };
    if v.phase == madiao::Phase::Over {
        return None;
    }
    let code = app.hand().get(app.ui.cursor).cloned()?;
    let zero_cash = m.table.as_ref().and_then(|t| t.zero_cash).unwrap_or_default();
    let figure = names::madiao_figure(&code, zero_cash)?;
    Some(format!("{code} {}: {figure}", names::madiao_name(&code).unwrap_or_default()))
}

/// The prompt for the decision at hand.
pub fn prompt(app: &App, now: Instant) -> (String, Style) {
    let m = &app.model;
    let your = accent();
    let countdown = |base: &str| -> String {
        match (&m.timer, m.timer_at) {
            // A finished trick's time on show is not the person's clock; an untimed table's
            // turn and pause have no time left to show.
            (Some(t), Some(at)) if timer_remaining(t).is_some() && !matches!(t, Timer::Trick { .. }) => {
                let left = timer_remaining(t)
                    .unwrap_or(0)
                    .saturating_sub(now.saturating_duration_since(at).as_millis() as u64);
                format!("{base} ({}s)", left.div_ceil(1000))
            }
            _ => base.to_string(),
        }
    };
    if let Some(view) = &m.view
        && view.is_over()
    {
        return if m.match_over() {
            ("The match is over. Enter or Esc quits · Tab shows the table".into(), your)
        } else {
            ("The hand is over. Enter: next hand · Tab: the table · ↑↓ scroll the result".into(), your)
        };
    }
    let hand = app.hand();
    let cur = hand.get(app.ui.cursor).cloned().unwrap_or_default();
    match &m.legal {
        Some(Legal::Stake { low, high }) => {
            let t = format!(
                "You bank this hand: name its stake, {low} to {high} chips · ←→ change · Enter names {} chips",
                app.stake_choice(*low, *high)
            );
            (countdown(&t), your)
        }
        Some(Legal::Actions { .. }) => {
            let game = GameKind::Madiao;
            let best = match &m.view {
                Some(GameView::Madiao(v)) => madiao_best(v),
                _ => None,
            };
            let text = match best {
                None => format!(
                    "Your lead: ←→ or a code (S9) chooses · Enter leads {} face up",
                    names::label(game, &cur)
                ),
                Some((led, b, _)) => {
                    let caps = app.marks().capture;
                    if caps.is_empty() {
                        format!("{led} led, best {b}: you cannot capture · Enter sloughs {cur} face down")
                    } else if caps.contains(&cur) {
                        format!("{led} led, best {b} · Enter captures with {cur} · d sloughs it face down")
                    } else {
                        format!(
                            "{led} led, best {b} · ↑ cards capture ({}) · Enter sloughs {cur} face down",
                            caps.join(" ")
                        )
                    }
                }
            };
            (countdown(&text), your)
        }
        Some(Legal::Redeal { requested }) => {
            let t = if *requested {
                "You asked to force a redeal; it is applied when the window closes. Enter withdraws"
                    .to_string()
            } else {
                "You hold a long suit (5+ cards of a suit): r forces a redeal · Enter plays on".to_string()
            };
            (countdown(&t), your)
        }
        Some(Legal::Annul { requested }) => {
            let t = if *requested {
                "You asked to annul; applied when the window closes. Enter withdraws".to_string()
            } else {
                "Your hand has no trump: n annuls the deal (your hand is shown) · Enter plays on".to_string()
            };
            (countdown(&t), your)
        }
        Some(Legal::Declare { cards, requested }) => {
            let cards: Vec<String> = cards.iter().map(ToString::to_string).collect();
            let drawn = match &m.view {
                Some(GameView::Dabaifen(v)) => v.drawn,
                _ => 0,
            };
            let t = match (requested, cards.is_empty()) {
                (Some(r), _) => format!(
                    "Drawing {drawn}/48 · you asked to show {r}: shown when you are next asked · p withdraws"
                ),
                (None, true) => {
                    format!("Drawing {drawn}/48 · a card of the trump rank may be shown as it comes")
                }
                (None, false) => {
                    let suits: Vec<String> = cards
                        .iter()
                        .filter_map(|c| c.chars().nth(1))
                        .map(|l| format!("{} {}", names::suit_symbol(l), names::suit_name(l)))
                        .collect();
                    format!(
                        "Drawing {drawn}/48 · d shows {} (trumps {}) · or wait",
                        cards.join("/"),
                        suits.join("/")
                    )
                }
            };
            (t, your)
        }
        Some(Legal::Cards { action, count, must, .. }) => {
            let must: Vec<String> = must.iter().map(ToString::to_string).collect();
            let n = app.ui.selected.len();
            let t = if *action == wire::CardsAction::Bury {
                format!("Bury 6 cards (k: from the kitty): Space selects ({n}/6 chosen), Enter buries")
            } else if *count == 1 {
                if must.is_empty() {
                    "Follow: Enter plays the card (follow suit if you can)".to_string()
                } else {
                    format!("Follow: you must play {}: Enter", must.join(" "))
                }
            } else if !must.is_empty() {
                format!(
                    "Follow with {count} cards: {} must go; Space selects the rest ({n}/{count}), Enter plays",
                    must.join(" ")
                )
            } else {
                format!("Follow with {count} cards of the led suit: Space selects ({n}/{count}), Enter plays")
            };
            (countdown(&t), your)
        }
        Some(Legal::Lead { revoke, .. }) => {
            let n = app.ui.selected.len();
            let t = if n >= 2 {
                let warn = if *revoke == wire::RevokeRule::Refuse {
                    "only top cards"
                } else {
                    "a card that is not a top card is a revoke"
                };
                format!("Lead {n} cards of one suit: Enter plays them ({warn})")
            } else {
                "Your lead: Enter plays the card · Space selects two or more top cards of one suit"
                    .to_string()
            };
            (countdown(&t), your)
        }
        None => {
            let t = match &m.timer {
                Some(Timer::Draw { .. }) => "The cards are being drawn…".to_string(),
                Some(Timer::Window { .. }) => "Waiting for the other players' answers…".to_string(),
                Some(Timer::Trick { .. }) => "The trick is complete; the next lead follows…".to_string(),
                Some(t) => match timer_seat(t) {
                    Some(s) if Some(s) == m.me => countdown("Your turn"),
                    Some(s) => countdown(&format!("{} is thinking…", m.seat_label(s))),
                    None => "Waiting…".into(),
                },
                None => "Waiting…".into(),
            };
            (t, Style::default())
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Overlays

fn centered(area: Rect, w: u16, h: u16) -> Rect {
    let w = w.min(area.width);
    let h = h.min(area.height);
    Rect { x: area.x + (area.width - w) / 2, y: area.y + (area.height - h) / 2, width: w, height: h }
}

fn popup_text(f: &mut Frame, area: Rect, title: &str, lines: Vec<Line<'static>>) {
    let h = lines.len() as u16 + 2;
    let w = lines.iter().map(|l| l.width() as u16).max().unwrap_or(20).max(title.len() as u16) + 4;
    let r = centered(area, w, h);
    f.render_widget(Clear, r);
    f.render_widget(
        Paragraph::new(lines)
            .wrap(Wrap { trim: false })
            .block(Block::bordered().title(title.to_string()).border_style(accent())),
        r,
    );
}

fn confirm_quit(f: &mut Frame, area: Rect, app: &App) {
    let saved = if app.record.is_some() || app.place.starts_with("offline") {
        "The match so far is saved as a record."
    } else {
        "The server keeps the table; you can come back."
    };
    popup_text(
        f,
        area,
        " Quit? ",
        vec![
            Line::raw("Leave the match?"),
            Line::raw(saved),
            Line::raw(""),
            Line::styled("y or Enter quits · any other key goes back", dim()),
        ],
    );
}

/// The analysis of the last hand, over the table, scrolled as the person chose.
fn analysis(f: &mut Frame, area: Rect, app: &App, lines: &[String]) {
    let r = area.inner(ratatui::layout::Margin { horizontal: 1, vertical: 0 });
    f.render_widget(Clear, r);
    let text: Vec<Line> = lines.iter().map(|l| Line::raw(l.clone())).collect();
    f.render_widget(
        Paragraph::new(text).wrap(Wrap { trim: false }).scroll((app.ui.analysis_scroll, 0)).block(
            Block::bordered()
                .title(" Analysis of your decisions ")
                .title_bottom(Line::styled(" ↑↓ PgUp PgDn scroll · any other key closes ", dim()))
                .border_style(accent()),
        ),
        r,
    );
}

fn help(f: &mut Frame, area: Rect, app: &App) {
    let mut lines: Vec<Line> = vec![
        Line::styled("Keys", bold()),
        Line::raw("←/→ Home/End   choose a card (the highlighted cards may be used)"),
        Line::raw("type a code    go to that card: S9, TW, W0 (Madiao), AS, 10h, BJ (Da Bai Fen)"),
        Line::raw("Enter          the obvious action: play the card, play/bury the selection,"),
        Line::raw("               answer a prompt with its default, start the next hand"),
        Line::raw("Space or ↑/↓   select / unselect a card (burial, multi-card plays)"),
        Line::raw("Tab            show the table behind a hand's result"),
        Line::raw("a              after a hand: the analysis of your decisions (offline)"),
        Line::raw("Esc            clear the code or selection, else quit (asks first)"),
        Line::raw("Ctrl-C         quit at once (the record is saved)"),
        Line::raw("h              a hint on your turn: the bot's move, chosen for you, and why"),
        Line::raw("c              show or hide the card tracker (cards played, unseen, top, voids)"),
        Line::raw(""),
    ];
    match app.model.game {
        Some(GameKind::Madiao) => {
            lines.push(Line::styled("Madiao 馬弔", bold()));
            lines.push(Line::raw(
                "Enter          lead, or capture: a higher card of the led suit, face up (↑)",
            ));
            lines.push(Line::raw("               any other card: Enter sloughs it face down (滅)"));
            lines.push(Line::raw("d              slough the card face down (滅): it cannot win"));
            lines.push(Line::raw("u u            discard the card face up (penalty: 2 stakes)"));
            lines.push(Line::raw("r              force a redeal when you hold 5+ cards of a suit"));
            lines.push(Line::raw("Suits high→low: 十 tens TW 萬萬 TQ 千萬 TB 百萬 T9…T2 · 萬 myriads M9…M1"));
            lines.push(Line::raw("               索 strings S9…S1 · 文 cash W0 空沒文 WH 半文 W1…W9"));
            lines.push(Line::raw(
                "Make 2 tricks or pay; reward cards and the HM (TB) earn extra (see the result).",
            ));
        }
        Some(GameKind::Dabaifen) => {
            lines.push(Line::styled("Da Bai Fen 打百分", bold()));
            lines.push(Line::raw(
                "d / p          during the draw: show a trump-rank card / withdraw the request",
            ));
            lines.push(Line::raw("n              annul the deal when your hand holds no trump"));
            lines.push(Line::raw(
                "Space + Enter  bury six cards; lead 2+ top cards of one suit; follow with n",
            ));
            lines.push(Line::raw(
                "Trumps: BJ SJ, the trump rank, the trump suit. Points: K and 10 = 10, 5 = 5.",
            ));
            lines
                .push(Line::raw("Defenders need 40 points. A multi-card lead with a card that is not a top"));
            lines.push(Line::raw("card (another hand holds a stronger one of the suit) is a revoke."));
        }
        None => {}
    }
    lines.push(Line::raw(""));
    lines.push(Line::styled("Any key closes the help.", dim()));
    popup_text(f, area, " Help ", lines);
}

fn result_popup(f: &mut Frame, area: Rect, app: &App) {
    let m = &app.model;
    let over = m.match_over();
    // The summary first (who won what, the match), then the details in order.
    let mut head: Vec<Line> = Vec::new();
    let mut lines: Vec<Line> = Vec::new();
    let me = m.me.unwrap_or(Seat::ALL[0]);
    match &m.view {
        Some(GameView::Madiao(v)) => {
            let outcome = match v.result.as_ref().map(|r| r.outcome) {
                Some(madiao::record::MadiaoOutcome::FourLowest) => {
                    "the four lowest: paid, the banker is drawn again"
                }
                Some(madiao::record::MadiaoOutcome::Meld) => "a meld wins at once",
                Some(madiao::record::MadiaoOutcome::Redeal) => "a redeal was forced",
                _ => "played",
            };
            head.push(Line::styled(
                format!("Hand {} · {outcome} · banker {}", m.hand + 1, m.seat_label(v.banker)),
                accent(),
            ));
            if let Some(s) = &v.settlement {
                let totals: Vec<String> = Seat::ALL
                    .iter()
                    .map(|&x| format!("{} {}", seat_short(m, x), signed(s.totals[x].to_f64())))
                    .collect();
                head.push(Line::styled(format!("this hand (stakes): {}", totals.join(" · ")), bold()));
                let chips: Vec<String> = Seat::ALL
                    .iter()
                    .map(|&x| {
                        format!("{} {}", seat_short(m, x), signed(s.totals[x].to_f64() * f64::from(v.stake)))
                    })
                    .collect();
                head.push(Line::raw(format!("at {} chips a stake: {}", v.stake, chips.join(" · "))));
            }
            if let Some(MatchSummary::Madiao(mm)) = &m.summary
                && !mm.stakes.is_empty()
            {
                let per: Vec<String> =
                    mm.stakes.iter().enumerate().map(|(i, s)| format!("{}: {s}", i + 1)).collect();
                let chips: Vec<String> = Seat::ALL
                    .iter()
                    .map(|&x| format!("{} {}", seat_short(m, x), signed(mm.chips[x.index()])))
                    .collect();
                head.push(Line::raw(format!(
                    "stakes by hand {} · match in chips: {}",
                    per.join(" "),
                    chips.join(" · ")
                )));
            }
            if let Some(MatchSummary::Madiao(mm)) = &m.summary {
                let (totals, next_banker, banked, hands) =
                    (&mm.totals, &mm.next_banker, &mm.banked, mm.hands);
                let t: Vec<String> = Seat::ALL
                    .iter()
                    .map(|&x| format!("{} {}", seat_short(m, x), signed(totals[x.index()])))
                    .collect();
                head.push(Line::styled(
                    format!(
                        "{}: {}",
                        if over { "final score".to_string() } else { format!("match after {hands} hand(s)") },
                        t.join(" · ")
                    ),
                    bold(),
                ));
                if !over {
                    let left = banked.iter().filter(|b| !**b).count();
                    head.push(Line::raw(match next_banker {
                        Some(b) => format!("next banker: {} · seats yet to bank: {left}", m.seat_label(*b)),
                        None => format!("the next banker is drawn · seats yet to bank: {left}"),
                    }));
                }
            }
            let tricks: Vec<String> =
                Seat::ALL.iter().map(|&s| format!("{} {}", seat_short(m, s), v.tricks_won[s])).collect();
            lines.push(Line::raw(format!("tricks: {}", tricks.join(" · "))));
            for d in &v.declared {
                let cards: Vec<&str> = d.cards.iter().map(|c| c.code()).collect();
                lines.push(Line::raw(format!(
                    "{} shows {}: {}",
                    m.seat_label(d.seat),
                    match d.what {
                        madiao::view::DeclaredKind::Meld => "a meld",
                        madiao::view::DeclaredKind::FourLowest => "the four lowest",
                        madiao::view::DeclaredKind::LongSuit => "a long suit",
                        madiao::view::DeclaredKind::HmExemption => "the HM exemption",
                    },
                    cards.join(" ")
                )));
            }
            if let Some(c) = v.exposed_stock_card {
                lines.push(Line::raw(format!(
                    "stock check: under the upcard {} lies {}",
                    v.upcard.code(),
                    names::label(GameKind::Madiao, c.code())
                )));
            }
            if let Some(s) = &v.settlement {
                lines.push(Line::styled("Settlement, line by line (in stakes):", bold()));
                for l in &s.lines {
                    let style = if l.counted { Style::default() } else { dim() };
                    lines.push(Line::styled(format!("  {}", l.text), style));
                }
            }
        }
        Some(GameView::Dabaifen(v)) => {
            let r = v.result.as_ref();
            let outcome = match r.map(|r| r.outcome) {
                Some(dabaifen::Outcome::Annulled) => "annulled",
                Some(dabaifen::Outcome::Revoke) => "ended by a revoke",
                _ => "played",
            };
            head.push(Line::styled(format!("Deal {} · {outcome}", m.hand + 1), accent()));
            if let Some(r) = r
                && let (Some(t), Some(w)) = (r.defender_points, r.winner)
            {
                let declarers = r.starter.team();
                let who = if w == me.team() { "your team" } else { "the other team" };
                let role = if w == declarers { "declarers" } else { "defenders" };
                head.push(Line::styled(
                    format!(
                        "defenders' points {t}: {who} ({role}, team {w}) wins the deal, +{} rank(s)",
                        r.levels
                    ),
                    bold(),
                ));
            }
            if let Some(MatchSummary::Dabaifen(dm)) = &m.summary {
                let (ranks, deals_won, winner, next_starter) =
                    (&dm.ranks, &dm.deals_won, &dm.winner, &dm.next_starter);
                head.push(Line::styled(
                    format!(
                        "ranks: team 0 {} · team 1 {} (you are team {}) · deals won {}–{}",
                        ranks[0],
                        ranks[1],
                        me.team(),
                        deals_won[0],
                        deals_won[1]
                    ),
                    bold(),
                ));
                match winner {
                    Some(w) => head.push(Line::styled(
                        format!("team {w} wins the game{}", if *w == me.team() { ": you win!" } else { "" }),
                        accent(),
                    )),
                    None => head.push(Line::raw(format!("next starter: {}", m.seat_label(*next_starter)))),
                }
            }
            if let Some(a) = &v.account {
                lines.push(Line::styled("The deal, in order:", bold()));
                for l in &a.lines {
                    lines.push(Line::raw(format!("  {l}")));
                }
            }
        }
        None => {}
    }
    if over {
        head.insert(0, Line::styled("The match is over.", accent()));
        if let Some(MatchSummary::Madiao(mm)) = &m.summary {
            let totals = &mm.totals;
            let best = totals.iter().cloned().fold(f64::MIN, f64::max);
            if totals[me.index()] == best {
                head.insert(1, Line::styled("You finish on top!", accent()));
            }
        }
        if let Some(p) = &app.record {
            head.push(Line::raw(format!("record: {}", p.display())));
        }
    }
    head.push(Line::raw(""));
    head.extend(lines);
    f.render_widget(Clear, area);
    let title = if over { " Match over " } else { " Result " };
    let hint = if over {
        " Enter or Esc quits · Tab: the table · ↑↓ scroll "
    } else {
        " Enter: next hand · Tab: the table · ↑↓ scroll "
    };
    f.render_widget(
        Paragraph::new(Text::from(head)).wrap(Wrap { trim: false }).scroll((app.ui.scroll, 0)).block(
            Block::default()
                .borders(Borders::ALL)
                .title(title)
                .title_bottom(Line::styled(hint, dim()))
                .border_style(accent()),
        ),
        area,
    );
}
