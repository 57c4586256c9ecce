//! The host's table management that needs more than the table itself: making a rematch's table.
//! Closing a table and removing an away person are the table's own (`table::machine`); see
//! `docs/protocol.md`, "Table management".

use std::sync::Arc;

use table::machine::{RematchOrder, Request};
use table::settings::Guest;

use crate::App;
use crate::actor::{self, Cmd};
use crate::ids;
use crate::store::{FIRST_EPOCH, SeatRow, TableRow, TableStatus};

/// Makes the table of a rematch: the same game and settings and a new seed; the host's seat his,
/// the bots as bots, every other person's seat open and kept for him until the match begins,
/// an open seat open. Gives the new table's id, or why it could not be made (the host's limit
/// of unfinished tables counts it like any other).
pub async fn make_rematch(app: &Arc<App>, order: RematchOrder) -> Result<String, String> {
    let hosted = app.store.hosted_tables(&order.host).await.map_err(|e| e.to_string())?;
    if hosted >= app.limits.tables_per_guest {
        return Err(format!(
            "you host {hosted} unfinished tables; the limit is {}",
            app.limits.tables_per_guest
        ));
    }
    let mut invited: [Option<Guest>; 4] = Default::default();
    let seats: [SeatRow; 4] = std::array::from_fn(|i| match &order.seats[i] {
        SeatRow::Person { guest, .. } if *guest == order.host => order.seats[i].clone(),
        SeatRow::Person { guest, name } => {
            invited[i] = Some(Guest { id: guest.clone(), name: name.clone() });
            SeatRow::Open
        }
        other => other.clone(),
    });
    let all_bots = seats.iter().all(|s| matches!(s, SeatRow::Bot(_)));
    let row = TableRow {
        id: ids::new_id("t").map_err(|e| e.to_string())?,
        game: order.settings.game.name().to_string(),
        settings: serde_json::to_string(&order.settings).map_err(|e| e.to_string())?,
        seed: ids::new_seed().map_err(|e| e.to_string())?,
        host: Some(order.host.clone()),
        status: TableStatus::Waiting,
        created_ms: crate::http::now_ms(),
        seats,
    };
    let taken = tokio::time::Instant::now();
    app.store.create_table(&row).await.map_err(|e| e.to_string())?;
    let id = row.id.clone();
    let handle = actor::spawn(app.clone(), row, FIRST_EPOCH, taken, Vec::new(), Vec::new())?;
    if crate::cluster::install(app, &id, &handle) {
        app.cluster.running(&id, true).await;
    }
    let first = if all_bots { Request::AutoStart } else { Request::Invite { guests: invited } };
    let _ = handle.send(Cmd::Request(first)).await;
    Ok(id)
}
