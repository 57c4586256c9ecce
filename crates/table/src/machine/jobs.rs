//! The computations a table asks its driver to run off the table's thread: a bot's move, the
//! answers to the hidden polls, a hint ([`Job`]), and what each gives back ([`Done`]).

use super::*;

/// The budget of a bot answering a hidden poll: small and fixed, so that answering is quick.
const POLL_BUDGET: Budget = Budget { think_ms: 20 };

/// A computation for the driver to run off the table's thread ([`Job::run`]).
pub struct Job<G: TableGame>
where
    G::Action: DeserializeOwned,
{
    /// Which request this is (a result for a request the table no longer waits for is ignored).
    pub id: u64,
    pub(super) work: Work<G>,
}

pub(super) enum Work<G: TableGame>
where
    G::Action: DeserializeOwned,
{
    Bot {
        state: G::State,
        seat: Seat,
        bot: String,
        seed: u64,
        budget: Budget,
    },
    Polls {
        state: G::State,
        polls: Polls,
        persons: [bool; 4],
        bots: [String; 4],
        requests: [G::Request; 4],
        seed: u64,
    },
    /// A hint for `seat`, asked by `conn` at move `move_no`: the hint bot on the seat's view.
    Hint {
        view: G::View,
        legal: Vec<G::Action>,
        seat: Seat,
        conn: ConnId,
        move_no: u64,
        seed: u64,
    },
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum Polls {
    Draw { drawn: u8, position: u64 },
    Window { position: u64 },
}

/// The result of a [`Job`].
pub struct Done<G: TableGame>
where
    G::Action: DeserializeOwned,
{
    /// The job's id.
    pub id: u64,
    pub(super) result: Result<Outcome<G>, JobError>,
}

/// Why a [`Job`] gave no result (the table tries a bot's move or a poll again a second later).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum JobError {
    /// The bot could not choose.
    #[error(transparent)]
    Bot(#[from] BotError),
    /// The engine refused a poll's answer (its reason, in words).
    #[error("{0}")]
    Refused(String),
    /// The hidden polls went on past any hand's number of them.
    #[error("the polls do not end")]
    EndlessPolls,
    /// A hint was asked for a seat with no legal action.
    #[error("no hint for {0}: no legal action")]
    NoHint(Seat),
}

pub(super) enum Outcome<G: TableGame>
where
    G::Action: DeserializeOwned,
{
    Bot {
        seat: Seat,
        action: G::Action,
    },
    /// The state after the polls (boxed: a job result waits in a queue whose slots are as
    /// large as the largest result).
    Polls {
        state: Box<G::State>,
        answered: Vec<(Seat, G::Action)>,
    },
    /// A hint worked out (boxed, as the polls' state is).
    Hint(Box<HintOutcome<G::Action>>),
}

/// A hint worked out for `seat`, asked by `conn` at move `move_no`.
pub(super) struct HintOutcome<A> {
    pub(super) seat: Seat,
    pub(super) conn: ConnId,
    pub(super) move_no: u64,
    pub(super) action: A,
    pub(super) reason: ai::hint::Reason,
}

impl<G: TableGame> Job<G>
where
    G::Action: DeserializeOwned,
{
    /// True when running it takes no thinking (every poll answered from persons' requests):
    /// the driver may run it in place.
    pub fn is_quick(&self) -> bool {
        matches!(&self.work, Work::Polls { persons, .. } if persons.iter().all(|&p| p))
    }

    /// True when running it asks an operator's external bot (`crate::bots::external_bot`): its
    /// time is spent waiting for another process, within that bot's time limit, so the driver
    /// may run it apart from the built-in bots' computations.
    pub fn asks_external(&self) -> bool {
        let external = |name: &str| crate::bots::external_bot(G::KIND, name).is_some();
        match &self.work {
            Work::Bot { bot, .. } => external(bot),
            Work::Polls { persons, bots, .. } => {
                bots.iter().zip(persons).any(|(b, &person)| !person && external(b))
            }
            Work::Hint { .. } => false,
        }
    }

    /// The seat and bot name of a bot's move, if that is what this is.
    pub fn bot(&self) -> Option<(Seat, &str)> {
        match &self.work {
            Work::Bot { seat, bot, .. } => Some((*seat, bot)),
            Work::Polls { .. } | Work::Hint { .. } => None,
        }
    }

    /// The same job with a bot's move given `budget` to think (the terminal's `--think-ms`);
    /// hidden polls keep their small fixed budget.
    pub fn with_budget(mut self, budget: Budget) -> Job<G> {
        if let Work::Bot { budget: b, .. } = &mut self.work {
            *b = budget;
        }
        self
    }

    /// Runs it (a bot thinks: this may take its budget).
    pub fn run(self) -> Done<G> {
        let result = match self.work {
            Work::Bot { state, seat, bot, seed, budget } => bot_choice::<G>(&bot, &state, seat, seed, budget)
                .map(|action| Outcome::Bot { seat, action })
                .map_err(JobError::from),
            Work::Polls { state, polls, persons, bots, requests, seed } => {
                answer_polls::<G>(state, polls, persons, bots, requests, seed)
            }
            Work::Hint { view, legal, seat, conn, move_no, seed } => {
                match G::hint(&view, &legal, seed, Budget::default()) {
                    Some(h) => Ok(Outcome::Hint(Box::new(HintOutcome {
                        seat,
                        conn,
                        move_no,
                        action: h.action,
                        reason: h.reason,
                    }))),
                    None => Err(JobError::NoHint(seat)),
                }
            }
        };
        Done { id: self.id, result }
    }
}

/// Answers the engine's hidden polls: a person's from his request, a bot seat's by its bot.
fn answer_polls<G: TableGame>(
    mut st: G::State,
    polls: Polls,
    persons: [bool; 4],
    bots: [String; 4],
    requests: [G::Request; 4],
    seed: u64,
) -> Result<Outcome<G>, JobError>
where
    G::Action: DeserializeOwned,
{
    let mut answered = Vec::new();
    let position = match polls {
        Polls::Draw { position, .. } | Polls::Window { position } => position,
    };
    loop {
        let asked = match polls {
            Polls::Draw { drawn, .. } => match G::next(&st) {
                Next::Draw { drawn: k, seat } if k == drawn => Some(seat),
                _ => None,
            },
            Polls::Window { .. } => match G::next(&st) {
                Next::Window { seat } => Some(seat),
                _ => None,
            },
        };
        let Some(s) = asked else { break };
        let a = if persons[s.index()] {
            G::answer(&st, requests[s.index()])
        } else {
            let seed = decision_seed(seed, s, position + answered.len() as u64);
            bot_choice::<G>(&bots[s.index()], &st, s, seed, POLL_BUDGET)?
        };
        G::apply(&mut st, a).map_err(|e| JobError::Refused(e.to_string()))?;
        answered.push((s, a));
        if answered.len() > 64 {
            return Err(JobError::EndlessPolls);
        }
    }
    Ok(Outcome::Polls { state: Box::new(st), answered })
}
