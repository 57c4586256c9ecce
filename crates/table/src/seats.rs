//! Who a seat belongs to, as a table's row keeps it (the log and the rated match read it).

/// Who a seat belongs to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SeatRow {
    /// Free for a person to take (a bot plays it while a match runs).
    Open,
    /// A bot, by its registry name.
    Bot(String),
    /// A person: the guest who took it, and the name shown.
    Person {
        /// The guest's id.
        guest: String,
        /// The name shown at the table.
        name: String,
    },
}
