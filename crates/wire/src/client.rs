//! What a client sends over the WebSocket: [`ClientMsg`], read by [`parse`]. The messages of the
//! connection itself (`hello`, `ping`, `join`, `watch`) are the socket tier's; every other is a
//! [`TableMsg`], which the server carries to the table unchanged (to its task on this node, or over
//! the bus to the node that runs it).

use serde::de;
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::Value;

use crate::error::ErrorCode;
use crate::game::ActAction;

/// A message from a client.
#[derive(Clone, Debug, PartialEq, Serialize, ts_rs::TS)]
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
    /// Watches a table through its delayed stream (the TV): as a spectator, each message held
    /// back until the table has passed its TV delay in trick boundaries (`docs/protocol.md`,
    /// "Live tables (TV)").
    Tv {
        /// The table's id.
        table: String,
    },
    /// Asks for a `pong`.
    Ping,
    /// A message for the table the connection is at.
    #[serde(untagged)]
    Table(TableMsg),
}

/// A message of a connection for the table it is at (after a `join` or a `watch`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ts_rs::TS)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum TableMsg {
    /// An action of the seat, in the engine's JSON shape (`{"play": "M9"}`, `{"play": ["AS"]}`, …).
    Act {
        /// The action.
        #[ts(type = "MadiaoAction | DabaifenAction")]
        action: ActAction,
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
    /// The host closes the table: the match ends at once, without a record; with `keep`, at a
    /// table where hands were finished, the match ends with a record of its finished hands.
    Close {
        /// End the match and keep its finished hands.
        #[serde(default)]
        #[ts(optional, as = "Option<bool>")]
        keep: bool,
    },
    /// The player alone with bots at an unrated table takes back his last play of the hand (and
    /// the bots' answers after it).
    TakeBack,
    /// The player alone with bots at an unrated table pauses the match.
    Pause,
    /// He resumes it.
    Resume,
    /// The host removes a person who is away (his turn clock ran out, or his connection is
    /// gone) from his seat, which becomes open.
    Remove {
        /// The seat (0–3).
        seat: u8,
    },
    /// The host offers a rematch at the end of a finished match.
    Rematch,
    /// Asks for a hint on the seat's own turn (casual tables only): answered with a `hint` to
    /// this connection alone, and noted in the table's record.
    Hint,
    /// Asks for the card tracker of the seat's view (casual tables only): answered with a
    /// `tracker` to this connection alone.
    Tracker,
}

impl From<TableMsg> for ClientMsg {
    fn from(m: TableMsg) -> ClientMsg {
        ClientMsg::Table(m)
    }
}

/// The messages of the connection itself as serde reads them: [`ClientMsg`] without its table's
/// messages (whose types serde knows from [`TableMsg`]).
#[derive(Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum Connection {
    Hello {
        token: String,
    },
    Join {
        table: String,
        #[serde(default)]
        seat: Option<u8>,
    },
    Watch {
        table: String,
    },
    Tv {
        table: String,
    },
    Ping,
}

impl From<Connection> for ClientMsg {
    fn from(m: Connection) -> ClientMsg {
        match m {
            Connection::Hello { token } => ClientMsg::Hello { token },
            Connection::Join { table, seat } => ClientMsg::Join { table, seat },
            Connection::Watch { table } => ClientMsg::Watch { table },
            Connection::Tv { table } => ClientMsg::Tv { table },
            Connection::Ping => ClientMsg::Ping,
        }
    }
}

/// The `type`s of an internally tagged enum, as serde's derive lists them: asked of the enum
/// with a tag no type has, the derive answers with every type it knows.
fn types<'de, T: Deserialize<'de>>() -> &'static [&'static str] {
    /// The error of that question: the types named in it.
    #[derive(Debug)]
    struct Types(&'static [&'static str]);
    impl std::fmt::Display for Types {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            write!(f, "{}", self.0.join(", "))
        }
    }
    impl std::error::Error for Types {}
    impl de::Error for Types {
        fn custom<M: std::fmt::Display>(_: M) -> Types {
            Types(&[])
        }
        fn unknown_variant(_: &str, expected: &'static [&'static str]) -> Types {
            Types(expected)
        }
    }
    let probe = de::value::MapDeserializer::<'de, _, Types>::new(std::iter::once(("type", "\u{0}")));
    T::deserialize(probe).err().map_or(&[], |t| t.0)
}

impl ClientMsg {
    /// Every `type` of a client message, the connection's first.
    pub fn types() -> Vec<&'static str> {
        types::<Connection>().iter().chain(types::<TableMsg>()).copied().collect()
    }

    /// Reads a message from its JSON value: `Err` saying why when it is not an object with a
    /// `type`, of an unknown type, or not a message of its type.
    fn from_value(v: Value) -> Result<ClientMsg, ParseError> {
        let Some(obj) = v.as_object() else {
            return Err(ParseError::NotObject);
        };
        let Some(ty) = obj.get("type") else {
            return Err(ParseError::NoType);
        };
        let Some(ty) = ty.as_str().map(str::to_string) else {
            return Err(ParseError::TypeNotString);
        };
        if types::<Connection>().contains(&ty.as_str()) {
            Connection::deserialize(v)
                .map(ClientMsg::from)
                .map_err(|e| ParseError::Fields { ty, why: e.to_string() })
        } else if types::<TableMsg>().contains(&ty.as_str()) {
            TableMsg::deserialize(v)
                .map(ClientMsg::Table)
                .map_err(|e| ParseError::Fields { ty, why: e.to_string() })
        } else {
            Err(ParseError::UnknownType { shown: ty.chars().take(40).collect() })
        }
    }
}

/// Why a client message was refused: [`ParseError::code`] is the [`ErrorCode`] of the `error`
/// message the server sends back, and its text (`Display`) that message's `message`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseError {
    /// The text is not JSON (serde_json's reason).
    #[error("not valid JSON: {0}")]
    Json(String),
    /// JSON, but not an object.
    #[error("a message is a JSON object with a \"type\"")]
    NotObject,
    /// An object without a `type`.
    #[error("a message needs a \"type\"")]
    NoType,
    /// A `type` that is not a string.
    #[error("\"type\" must be a string")]
    TypeNotString,
    /// A known `type` whose fields are wrong (missing, of the wrong kind, out of range).
    #[error("{ty}: {why}")]
    Fields {
        /// The message's type.
        ty: String,
        /// What is wrong with its fields (serde_json's reason).
        why: String,
    },
    /// A `type` the protocol does not have.
    #[error("unknown message type {shown:?}; the types are {}", ClientMsg::types().join(", "))]
    UnknownType {
        /// The type as sent, cut to its first 40 characters.
        shown: String,
    },
}

impl ParseError {
    /// The code of the `error` message that answers it.
    pub fn code(&self) -> ErrorCode {
        match self {
            ParseError::Json(_) => ErrorCode::BadJson,
            ParseError::NotObject
            | ParseError::NoType
            | ParseError::TypeNotString
            | ParseError::Fields { .. } => ErrorCode::BadMessage,
            ParseError::UnknownType { .. } => ErrorCode::UnknownType,
        }
    }
}

impl<'de> Deserialize<'de> for ClientMsg {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<ClientMsg, D::Error> {
        ClientMsg::from_value(Value::deserialize(d)?).map_err(de::Error::custom)
    }
}

/// Reads a client message: `Err` saying why (and with which [`ErrorCode`] to answer) when it is
/// not JSON, not a message, or of an unknown type. The text is parsed once; the message's fields are then read by its type's
/// enum, so that a refusal says what is wrong with it.
pub fn parse(msg: &str) -> Result<ClientMsg, ParseError> {
    let v: Value = serde_json::from_str(msg).map_err(|e| ParseError::Json(e.to_string()))?;
    ClientMsg::from_value(v)
}
