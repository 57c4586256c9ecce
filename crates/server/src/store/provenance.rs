//! Who wrote a table's stored rows, and whether any of them was written by a stale owner.
//!
//! With PostgreSQL, every action and chat line a node stores names the lease it was written
//! under (its epoch and the node), and every epoch of a table's lease is kept with the node that
//! held it and how long the log and the chat were when it began
//! ([`super::postgres::PgStore::provenance`]). Fencing means that once an epoch has begun, no
//! write of an older one commits; so a stored row is a **stale owner's write** when it was written
//! under an epoch older than one that had begun before the row's place (or than a row earlier in
//! the log), or by a node that did not hold the epoch it names. [`Provenance::audit`] counts
//! them; the cluster's fault harness expects 0.

use super::Epoch;

/// The lease one stored row (an action or a chat line) was written under.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stamp {
    /// The row's place: the action's or the chat line's number in its table, from 0.
    pub seq: u64,
    /// The epoch its writer named (`None`: stored before rows recorded their lease, or by a
    /// write that names none).
    pub epoch: Option<Epoch>,
    /// The node that wrote it (`None` as for `epoch`).
    pub node: Option<String>,
}

/// One epoch of a table's lease, as recorded when it began.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LeaseEpoch {
    /// The epoch.
    pub epoch: Epoch,
    /// The node that held the lease in this epoch.
    pub node: String,
    /// How many actions the log held when the epoch began: the epoch's first action, if it
    /// wrote any, is at this place (`None`: the epoch began before this was recorded).
    pub log_from: Option<u64>,
    /// How many chat lines the table held when the epoch began (`None` as for `log_from`).
    pub chat_from: Option<u64>,
}

/// What one table's stored rows say of who wrote them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Provenance {
    /// The log's actions, in order.
    pub actions: Vec<Stamp>,
    /// The chat lines, in order.
    pub chat: Vec<Stamp>,
    /// The lease's epochs, in order.
    pub leases: Vec<LeaseEpoch>,
}

/// What [`Provenance::audit`] found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Audit {
    /// Rows looked at (actions and chat lines).
    pub rows: usize,
    /// Rows that name no lease (stored before rows recorded it): they cannot be judged.
    pub unstamped: usize,
    /// The stale owners' writes found, one line each saying which row and why.
    pub stale: Vec<String>,
}

impl Provenance {
    /// Counts the rows written by a stale owner (see the module's documentation).
    pub fn audit(&self, table: &str) -> Audit {
        let mut audit = Audit::default();
        self.audit_rows(table, "action", &self.actions, |l| l.log_from, &mut audit);
        self.audit_rows(table, "chat line", &self.chat, |l| l.chat_from, &mut audit);
        audit
    }

    fn audit_rows(
        &self,
        table: &str,
        kind: &str,
        rows: &[Stamp],
        from: impl Fn(&LeaseEpoch) -> Option<u64>,
        audit: &mut Audit,
    ) {
        // The newest epoch of the rows before this one, and the row that had it.
        let mut newest: Option<(Epoch, u64)> = None;
        for row in rows {
            audit.rows += 1;
            let (Some(epoch), Some(node)) = (row.epoch, row.node.as_deref()) else {
                audit.unstamped += 1;
                continue;
            };
            let at = format!("table {table}: {kind} {} (epoch {epoch}, node {node})", row.seq);
            let why = match self.leases.iter().find(|l| l.epoch == epoch) {
                None => Some(format!("{at}: no lease of epoch {epoch} was recorded")),
                Some(l) if l.node != node => Some(format!("{at}: epoch {epoch} was held by node {}", l.node)),
                Some(_) => {
                    let later =
                        self.leases.iter().find(|l| l.epoch > epoch && from(l).is_some_and(|f| f <= row.seq));
                    match (later, newest) {
                        (Some(l), _) => Some(format!(
                            "{at}: written after epoch {} began (at {kind} {})",
                            l.epoch,
                            from(l).unwrap_or_default()
                        )),
                        (None, Some((e, seq))) if e > epoch => {
                            Some(format!("{at}: written after {kind} {seq} of epoch {e}"))
                        }
                        _ => None,
                    }
                }
            };
            if let Some(why) = why {
                audit.stale.push(why);
            }
            if newest.is_none_or(|(e, _)| epoch > e) {
                newest = Some((epoch, row.seq));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stamp(seq: u64, epoch: Epoch, node: &str) -> Stamp {
        Stamp { seq, epoch: Some(epoch), node: Some(node.to_string()) }
    }

    fn lease(epoch: Epoch, node: &str, log_from: u64, chat_from: u64) -> LeaseEpoch {
        LeaseEpoch { epoch, node: node.to_string(), log_from: Some(log_from), chat_from: Some(chat_from) }
    }

    /// Two epochs on two nodes, each writing only after it began and only before the next one:
    /// nothing is stale.
    fn clean() -> Provenance {
        Provenance {
            actions: vec![stamp(0, 1, "a"), stamp(1, 1, "a"), stamp(2, 3, "b"), stamp(3, 3, "b")],
            chat: vec![stamp(0, 1, "a"), stamp(1, 3, "b")],
            leases: vec![lease(1, "a", 0, 0), lease(2, "c", 2, 1), lease(3, "b", 2, 1)],
        }
    }

    #[test]
    fn a_log_written_by_each_epochs_holder_in_turn_has_no_stale_write() {
        let audit = clean().audit("t");
        assert_eq!(audit, Audit { rows: 6, unstamped: 0, stale: Vec::new() });
    }

    #[test]
    fn a_row_of_an_epoch_written_after_a_newer_epoch_began_is_stale() {
        // Node a (epoch 1) writes action 2 after epoch 2 began with the log at 2 actions, and
        // before anyone else wrote: only the lease history can tell.
        let mut p = clean();
        p.actions = vec![stamp(0, 1, "a"), stamp(1, 1, "a"), stamp(2, 1, "a"), stamp(3, 3, "b")];
        let audit = p.audit("t");
        assert_eq!(audit.stale.len(), 1, "{:?}", audit.stale);
        assert!(audit.stale[0].contains("action 2 (epoch 1, node a): written after epoch 2 began"));
        // The same in the chat.
        let mut p = clean();
        p.chat = vec![stamp(0, 1, "a"), stamp(1, 1, "a")];
        let audit = p.audit("t");
        assert_eq!(audit.stale.len(), 1, "{:?}", audit.stale);
        assert!(audit.stale[0].contains("chat line 1"));
    }

    #[test]
    fn a_row_older_than_one_before_it_in_the_log_is_stale_even_without_the_history() {
        let mut p = clean();
        p.actions = vec![stamp(0, 1, "a"), stamp(1, 3, "b"), stamp(2, 1, "a")];
        for l in &mut p.leases {
            l.log_from = None;
        }
        let audit = p.audit("t");
        assert_eq!(
            audit.stale,
            vec!["table t: action 2 (epoch 1, node a): written after action 1 of epoch 3"]
        );
    }

    #[test]
    fn a_row_by_a_node_that_did_not_hold_its_epoch_or_of_an_unknown_epoch_is_stale() {
        let mut p = clean();
        p.actions[3] = stamp(3, 3, "c");
        p.chat[1] = stamp(1, 7, "b");
        let audit = p.audit("t");
        assert_eq!(audit.stale.len(), 2, "{:?}", audit.stale);
        assert!(audit.stale[0].contains("epoch 3 was held by node b"));
        assert!(audit.stale[1].contains("no lease of epoch 7"));
    }

    #[test]
    fn rows_stored_before_leases_were_recorded_are_counted_apart() {
        let mut p = clean();
        p.actions.insert(0, Stamp { seq: 0, epoch: None, node: None });
        for (i, a) in p.actions.iter_mut().enumerate() {
            a.seq = i as u64;
        }
        p.leases[1].log_from = Some(3);
        p.leases[2].log_from = Some(3);
        let audit = p.audit("t");
        assert_eq!((audit.rows, audit.unstamped, audit.stale.len()), (7, 1, 0), "{:?}", audit.stale);
    }
}
