//! The WebSocket protocol's messages (documented message by message in `docs/protocol.md`).
//!
//! Every message is one JSON object in a text frame with a `type`. The client's messages are
//! [`ClientMsg`]; the server's are built by the table and the connection (`welcome`, `sync`,
//! `update`, `seats`, `chat`, `ack`, `error`, `pong`), each at a table carrying the table's
//! version `v`.

use axum::extract::ws::Utf8Bytes;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// A message from a client.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ts_rs::TS)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ClientMsg {
    /// Identifies the connection with a guest token (the first message).
    Hello {
        /// The token `POST /api/guests` gave.
        token: String,
    },
    /// Takes a seat at a table: the seat this guest already holds there, else `seat` if it is
    /// open, else the first open seat.
    Join {
        /// The table's id.
        table: String,
        /// The seat wanted (0–3).
        #[serde(default)]
        #[ts(optional)]
        seat: Option<u8>,
    },
    /// Watches a table as a spectator.
    Watch {
        /// The table's id.
        table: String,
    },
    /// An action of the seat, in the engine's JSON shape (`{"play": "M9"}`, `{"play": ["AS"]}`, …).
    Act {
        /// The action.
        #[ts(type = "MadiaoAction | DabaifenAction")]
        action: Value,
        /// The move number the action answers (the `move` of the last update); when given and no
        /// longer current, the action is refused as stale.
        #[serde(default, rename = "move")]
        #[ts(optional)]
        move_no: Option<u64>,
        /// The seat acting, if the client names it: refused unless it is the connection's own.
        #[serde(default)]
        #[ts(optional)]
        seat: Option<u8>,
    },
    /// A chat line for the table.
    Chat {
        /// The text (1–500 characters, no control characters).
        text: String,
    },
    /// Asks for the full state again (after a gap in `v`).
    Resync,
    /// Gives up the seat (it becomes open; a bot plays it meanwhile); the connection stays as a
    /// spectator.
    Leave,
    /// Takes the seat back from the bot that played for it after a timeout.
    Back,
    /// The host starts the match with bots in the open seats.
    Start,
    /// Ready for the next hand (skips the rest of the pause once every present person is ready).
    Next,
    /// Asks for a `pong`.
    Ping,
}

/// Why a message was refused.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ts_rs::TS)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    /// Not JSON.
    BadJson,
    /// JSON, but not a message of the protocol (missing or wrong fields).
    BadMessage,
    /// A `type` the protocol does not have.
    UnknownType,
    /// A message over the size limit.
    TooLarge,
    /// A binary frame (the protocol is text).
    Binary,
    /// Too many messages: this one was dropped.
    RateLimited,
    /// The first message must be `hello`.
    NotAuthenticated,
    /// A second `hello`.
    AlreadyAuthenticated,
    /// The token is unknown.
    BadToken,
    /// No such table.
    NoTable,
    /// The message needs a table: `join` or `watch` first.
    NotAtTable,
    /// The connection is at a table already.
    AlreadyAtTable,
    /// No seat is open.
    NoSeat,
    /// The seat asked for is not open.
    SeatTaken,
    /// Only a seated player can do this.
    NotSeated,
    /// Only the table's host can do this.
    NotHost,
    /// The match has not begun.
    NotStarted,
    /// The match has begun already.
    AlreadyStarted,
    /// Another seat is to act.
    NotYourTurn,
    /// The action names a seat that is not the connection's.
    NotYourSeat,
    /// The action is not legal now; the message says why.
    Illegal,
    /// The action answers a move that is no longer current.
    Stale,
    /// A request for the draw or a window that has already ended.
    TooLate,
    /// There is nothing to decide now.
    NothingToDecide,
    /// A chat line that is empty, too long, has control characters or nothing visible (format
    /// characters are stripped, not refused).
    BadChat,
    /// The table's storage failed; nothing changed, try again.
    Storage,
    /// The match is over.
    Finished,
    /// The server is shutting the table down or is overloaded.
    Unavailable,
    /// No valid `hello` came in time after the connection opened: it is closed.
    HelloTimeout,
    /// The guest holds as many WebSocket connections as the server allows: this one is closed.
    TooManyConnections,
}

/// An `error` message.
pub fn error(code: ErrorCode, message: impl Into<String>, v: Option<u64>) -> Utf8Bytes {
    crate::wire::ServerMsg::Error(crate::wire::ErrorMsg { code, message: message.into(), v }).text()
}

/// A JSON value as a text frame's payload.
pub fn text(v: &Value) -> Utf8Bytes {
    Utf8Bytes::from(v.to_string())
}

/// Reads a client message: `Err` with the error to send when it is not JSON, not a message, or of
/// an unknown type.
pub fn parse(msg: &str) -> Result<ClientMsg, (ErrorCode, String)> {
    let v: Value =
        serde_json::from_str(msg).map_err(|e| (ErrorCode::BadJson, format!("not valid JSON: {e}")))?;
    let Some(obj) = v.as_object() else {
        return Err((ErrorCode::BadMessage, "a message is a JSON object with a \"type\"".into()));
    };
    let Some(ty) = obj.get("type") else {
        return Err((ErrorCode::BadMessage, "a message needs a \"type\"".into()));
    };
    let Some(ty) = ty.as_str().map(str::to_string) else {
        return Err((ErrorCode::BadMessage, "\"type\" must be a string".into()));
    };
    let ty = ty.as_str();
    const TYPES: [&str; 11] =
        ["hello", "join", "watch", "act", "chat", "resync", "leave", "back", "start", "next", "ping"];
    if !TYPES.contains(&ty) {
        let shown: String = ty.chars().take(40).collect();
        return Err((
            ErrorCode::UnknownType,
            format!("unknown message type {shown:?}; the types are {}", TYPES.join(", ")),
        ));
    }
    serde_json::from_value(v).map_err(|e| (ErrorCode::BadMessage, format!("{ty}: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn messages_parse_or_say_why_not() {
        assert_eq!(parse(r#"{"type":"hello","token":"x"}"#).unwrap(), ClientMsg::Hello { token: "x".into() });
        assert_eq!(
            parse(r#"{"type":"act","action":{"play":"M9"},"move":7}"#).unwrap(),
            ClientMsg::Act { action: json!({"play":"M9"}), move_no: Some(7), seat: None }
        );
        assert_eq!(
            parse(r#"{"type":"join","table":"t1"}"#).unwrap(),
            ClientMsg::Join { table: "t1".into(), seat: None }
        );
        assert_eq!(parse("{nope").unwrap_err().0, ErrorCode::BadJson);
        assert_eq!(parse("[1]").unwrap_err().0, ErrorCode::BadMessage);
        assert_eq!(parse(r#"{"x":1}"#).unwrap_err().0, ErrorCode::BadMessage);
        assert_eq!(parse(r#"{"type":3}"#).unwrap_err().0, ErrorCode::BadMessage);
        let (code, msg) = parse(r#"{"type":"fly"}"#).unwrap_err();
        assert_eq!(code, ErrorCode::UnknownType);
        assert!(msg.contains("\"fly\"") && msg.contains("hello, join"), "{msg}");
        let (code, msg) = parse(r#"{"type":"join","seat":1}"#).unwrap_err();
        assert_eq!(code, ErrorCode::BadMessage);
        assert!(msg.contains("missing field `table`"), "{msg}");
        let (code, _) = parse(r#"{"type":"join","table":"t","seat":9999}"#).unwrap_err();
        assert_eq!(code, ErrorCode::BadMessage);
    }

    #[test]
    fn errors_carry_code_message_and_version() {
        let e = error(ErrorCode::NotYourTurn, "it is seat 2's turn", Some(7));
        let v: Value = serde_json::from_str(e.as_str()).unwrap();
        assert_eq!(
            v,
            json!({"type": "error", "code": "not_your_turn", "message": "it is seat 2's turn", "v": 7})
        );
    }
}
