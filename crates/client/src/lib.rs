//! A client of the server: the HTTP API and the WebSocket protocol, with the version check a
//! client must do (a gap in `v` asks for a resync). The tests, `yezi loadtest` and terminal
//! clients use it.

pub mod page;

use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use http_body_util::{BodyExt, Full};
use hyper::body::Bytes;
use hyper_util::client::legacy::Client as HyperClient;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::rt::TokioExecutor;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};
use wire::{
    AccountInfo, AccountTables, ActAction, CardsAction, ClientMsg, DeleteAccount, Legal, LobbyReply,
    NewAccount, NewGuest, NewGuestReply, NewPassword, NewTable, NewTableReply, ServerMsg, SessionReply,
    SignIn, SignedOut, StatsReply, TableMsg,
};

/// What went wrong talking to a server.
#[derive(Debug, thiserror::Error)]
pub enum ClientError {
    /// The HTTP request failed.
    #[error("HTTP: {0}")]
    Http(String),
    /// The server answered with an error status.
    #[error("HTTP {status}: {body}")]
    Status {
        /// The status code.
        status: u16,
        /// The body.
        body: String,
    },
    /// The WebSocket failed.
    #[error("WebSocket: {0}")]
    Ws(String),
    /// The server closed the connection.
    #[error("the server closed the connection")]
    Closed,
    /// A message was not the JSON expected.
    #[error("unexpected message: {0}")]
    Unexpected(String),
    /// Nothing came in time.
    #[error("timed out waiting for {0}")]
    Timeout(String),
}

/// A server's address and an HTTP client for it.
#[derive(Clone)]
pub struct Client {
    addr: String,
    http: HyperClient<HttpConnector, Full<Bytes>>,
}

/// A guest identity as `POST /api/guests` returns it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GuestToken {
    /// The guest's id.
    pub id: String,
    /// The guest's name.
    pub name: String,
    /// The secret token.
    pub token: String,
}

impl Client {
    /// A client of the server at `addr` (`host:port`).
    pub fn new(addr: &str) -> Client {
        let addr = addr.trim_start_matches("http://").trim_end_matches('/').to_string();
        Client { addr, http: HyperClient::builder(TokioExecutor::new()).build_http() }
    }

    /// A client of the server at `addr` whose HTTP requests leave from the local address
    /// `local` (on Linux any of 127.0.0.0/8 reaches a server on the loopback interface: the load
    /// tool and the tests stand for other machines so).
    pub fn with_local_address(addr: &str, local: std::net::IpAddr) -> Client {
        let addr = addr.trim_start_matches("http://").trim_end_matches('/').to_string();
        let mut connector = HttpConnector::new();
        connector.set_local_address(Some(local));
        Client { addr, http: HyperClient::builder(TokioExecutor::new()).build(connector) }
    }

    /// The server's address.
    pub fn addr(&self) -> &str {
        &self.addr
    }

    /// `METHOD path` with an optional JSON body and an optional token: the status and the body
    /// as text.
    pub async fn request(
        &self,
        method: &str,
        path: &str,
        body: Option<&Value>,
        token: Option<&str>,
    ) -> Result<(u16, String), ClientError> {
        let body = body.map(|b| ("application/json", Bytes::from(b.to_string())));
        self.request_raw(method, path, body, token).await
    }

    async fn request_raw(
        &self,
        method: &str,
        path: &str,
        body: Option<(&str, Bytes)>,
        token: Option<&str>,
    ) -> Result<(u16, String), ClientError> {
        let mut req = hyper::Request::builder().method(method).uri(format!("http://{}{path}", self.addr));
        if let Some(t) = token {
            req = req.header("authorization", format!("Bearer {t}"));
        }
        let body = match body {
            Some((content_type, b)) => {
                req = req.header("content-type", content_type);
                Full::new(b)
            }
            None => Full::new(Bytes::new()),
        };
        let req = req.body(body).map_err(|e| ClientError::Http(e.to_string()))?;
        let res = self.http.request(req).await.map_err(|e| ClientError::Http(e.to_string()))?;
        let status = res.status().as_u16();
        let bytes = res.into_body().collect().await.map_err(|e| ClientError::Http(e.to_string()))?.to_bytes();
        Ok((status, String::from_utf8_lossy(&bytes).into_owned()))
    }

    /// `GET path`: the status and the body as JSON (`null` when it is not JSON).
    pub async fn get(&self, path: &str) -> Result<(u16, Value), ClientError> {
        let (s, b) = self.request("GET", path, None, None).await?;
        Ok((s, serde_json::from_str(&b).unwrap_or(Value::Null)))
    }

    /// `GET path` with a token: the status and the body as JSON (`null` when it is not JSON).
    pub async fn get_authed(&self, token: &str, path: &str) -> Result<(u16, Value), ClientError> {
        let (s, b) = self.request("GET", path, None, Some(token)).await?;
        Ok((s, serde_json::from_str(&b).unwrap_or(Value::Null)))
    }

    /// `GET path`: the status and the body as text.
    pub async fn get_text(&self, path: &str) -> Result<(u16, String), ClientError> {
        self.request("GET", path, None, None).await
    }

    /// `POST path` with a JSON body and an optional token.
    pub async fn post(
        &self,
        path: &str,
        body: &Value,
        token: Option<&str>,
    ) -> Result<(u16, Value), ClientError> {
        let (s, b) = self.request("POST", path, Some(body), token).await?;
        Ok((s, serde_json::from_str(&b).unwrap_or(Value::Null)))
    }

    /// `POST path` with a body given as it is (`text`, of type `content_type`) and an optional
    /// token: the status and the body as text.
    pub async fn post_text(
        &self,
        path: &str,
        content_type: &str,
        text: impl Into<Bytes>,
        token: Option<&str>,
    ) -> Result<(u16, String), ClientError> {
        self.request_raw("POST", path, Some((content_type, text.into())), token).await
    }

    /// `POST path` with a typed body and an optional token, expecting `expect`: the typed answer.
    /// Any other status is [`ClientError::Status`]; an answer of another shape is
    /// [`ClientError::Unexpected`].
    pub async fn call<B: Serialize, R: DeserializeOwned>(
        &self,
        path: &str,
        body: &B,
        token: Option<&str>,
        expect: u16,
    ) -> Result<R, ClientError> {
        self.exchange_json("POST", path, Some(body), token, expect).await
    }

    /// A new guest.
    pub async fn guest(&self, name: &str) -> Result<GuestToken, ClientError> {
        let r: NewGuestReply =
            self.call("/api/guests", &NewGuest { name: name.to_string() }, None, 201).await?;
        Ok(GuestToken { id: r.id, name: r.name, token: r.token })
    }

    /// `GET path`, expecting 200: the typed answer.
    pub async fn get_json<R: DeserializeOwned>(&self, path: &str) -> Result<R, ClientError> {
        self.exchange_json::<(), R>("GET", path, None, None, 200).await
    }

    /// The lobby's first page of up to `limit` tables (those with open seats first).
    pub async fn lobby(&self, limit: u32) -> Result<LobbyReply, ClientError> {
        self.get_json(&format!("/api/tables?limit={limit}")).await
    }

    /// The server's load (`GET /api/stats`).
    pub async fn stats(&self) -> Result<StatsReply, ClientError> {
        self.get_json("/api/stats").await
    }

    /// A new table, created by the guest of `token`.
    pub async fn create_table(&self, token: &str, table: &NewTable) -> Result<NewTableReply, ClientError> {
        self.call("/api/tables", table, Some(token), 201).await
    }

    /// `method path` with an optional typed body and token, expecting `expect`: the answer's
    /// text. Any other status is [`ClientError::Status`].
    async fn exchange<B: Serialize>(
        &self,
        method: &str,
        path: &str,
        body: Option<&B>,
        token: Option<&str>,
        expect: u16,
    ) -> Result<String, ClientError> {
        let body = body
            .map(|b| serde_json::to_value(b).map_err(|e| ClientError::Unexpected(e.to_string())))
            .transpose()?;
        let (status, text) = self.request(method, path, body.as_ref(), token).await?;
        if status != expect {
            return Err(ClientError::Status { status, body: text });
        }
        Ok(text)
    }

    /// [`Client::exchange`], with the answer read as `R`.
    async fn exchange_json<B: Serialize, R: DeserializeOwned>(
        &self,
        method: &str,
        path: &str,
        body: Option<&B>,
        token: Option<&str>,
        expect: u16,
    ) -> Result<R, ClientError> {
        let text = self.exchange(method, path, body, token, expect).await?;
        serde_json::from_str(&text).map_err(|e| ClientError::Unexpected(format!("{e}: {text}")))
    }

    // Accounts (`docs/protocol.md`, "Accounts").

    /// The guest of `guest_token` claims an account: its first session.
    pub async fn claim_account(
        &self,
        guest_token: &str,
        username: &str,
        password: &str,
    ) -> Result<SessionReply, ClientError> {
        let body = NewAccount { username: username.to_string(), password: password.to_string() };
        self.exchange_json("POST", "/api/account", Some(&body), Some(guest_token), 201).await
    }

    /// Signs in: a new session of the account.
    pub async fn sign_in(&self, username: &str, password: &str) -> Result<SessionReply, ClientError> {
        let body = SignIn { username: username.to_string(), password: password.to_string() };
        self.exchange_json("POST", "/api/sessions", Some(&body), None, 201).await
    }

    /// The account of a session.
    pub async fn account(&self, token: &str) -> Result<AccountInfo, ClientError> {
        self.exchange_json::<(), _>("GET", "/api/account", None, Some(token), 200).await
    }

    /// The tables the token's guest hosts or sits at, newest first.
    pub async fn account_tables(&self, token: &str) -> Result<AccountTables, ClientError> {
        self.exchange_json::<(), _>("GET", "/api/account/tables", None, Some(token), 200).await
    }

    /// Signs this session out.
    pub async fn sign_out(&self, token: &str) -> Result<(), ClientError> {
        self.exchange::<()>("DELETE", "/api/sessions/current", None, Some(token), 204).await.map(drop)
    }

    /// Signs out every session of the account.
    pub async fn sign_out_everywhere(&self, token: &str) -> Result<SignedOut, ClientError> {
        self.exchange_json::<(), _>("DELETE", "/api/sessions", None, Some(token), 200).await
    }

    /// Changes the account's password (every other session is signed out).
    pub async fn change_password(
        &self,
        token: &str,
        current: &str,
        password: &str,
    ) -> Result<SignedOut, ClientError> {
        let body = NewPassword { current: current.to_string(), password: password.to_string() };
        self.exchange_json("POST", "/api/account/password", Some(&body), Some(token), 200).await
    }

    /// Deletes the account (its games stay, under a neutral name).
    pub async fn delete_account(&self, token: &str, password: &str) -> Result<(), ClientError> {
        let body = DeleteAccount { password: password.to_string() };
        self.exchange("POST", "/api/account/delete", Some(&body), Some(token), 204).await.map(drop)
    }

    /// A WebSocket connection to the server.
    pub async fn connect(&self) -> Result<Socket, ClientError> {
        let (ws, _) = tokio_tungstenite::connect_async(format!("ws://{}/ws", self.addr))
            .await
            .map_err(|e| ClientError::Ws(e.to_string()))?;
        Ok(Socket { ws, v: None, gaps: 0 })
    }

    /// A connection that has said hello with `token` (the `welcome` is consumed).
    pub async fn connect_as(&self, token: &str) -> Result<Socket, ClientError> {
        let mut s = self.connect().await?;
        s.send_msg(&ClientMsg::Hello { token: token.to_string() }).await?;
        match s.recv_msg().await? {
            ServerMsg::Welcome(_) => Ok(s),
            other => Err(ClientError::Unexpected(other.text())),
        }
    }
}

/// An open WebSocket connection.
pub struct Socket {
    ws: WebSocketStream<MaybeTlsStream<TcpStream>>,
    /// The table version of the last message.
    pub v: Option<u64>,
    /// How many gaps in `v` were seen (each answered with a resync).
    pub gaps: u64,
}

/// A message's table version, and whether it is an event whose `v` must be the next one (a
/// `sync` sets the version).
fn version(msg: &ServerMsg) -> (Option<u64>, bool) {
    match msg {
        ServerMsg::Update(m) => (Some(m.v), true),
        ServerMsg::Seats(m) => (Some(m.v), true),
        ServerMsg::Chat(m) => (Some(m.v), true),
        ServerMsg::ChatRemoved(m) => (Some(m.v), true),
        ServerMsg::Sync(m) => (Some(m.v), false),
        ServerMsg::Host(m) => (Some(m.v), true),
        ServerMsg::Ack(m) => (Some(m.v), false),
        ServerMsg::Hint(m) => (Some(m.v), false),
        ServerMsg::Tracker(m) => (Some(m.v), false),
        ServerMsg::Error(m) => (m.v, false),
        ServerMsg::Welcome(_)
        | ServerMsg::Pong
        | ServerMsg::Moved(_)
        | ServerMsg::Deal(_)
        | ServerMsg::Friend(_)
        | ServerMsg::Challenge(_)
        | ServerMsg::Invited(_) => (None, false),
    }
}

impl Socket {
    /// Sends a message given as JSON (for tests that send what the protocol does not have).
    pub async fn send(&mut self, msg: &Value) -> Result<(), ClientError> {
        self.send_text(msg.to_string()).await
    }

    /// Sends a message.
    pub async fn send_msg(&mut self, msg: &ClientMsg) -> Result<(), ClientError> {
        let text = serde_json::to_string(msg).map_err(|e| ClientError::Unexpected(e.to_string()))?;
        self.send_text(text).await
    }

    /// Sends a text frame as it is (for testing hostile input).
    pub async fn send_text(&mut self, text: String) -> Result<(), ClientError> {
        self.ws.send(Message::Text(text.into())).await.map_err(|e| ClientError::Ws(e.to_string()))
    }

    /// Sends a binary frame (for testing hostile input).
    pub async fn send_binary(&mut self, data: Vec<u8>) -> Result<(), ClientError> {
        self.ws.send(Message::Binary(data.into())).await.map_err(|e| ClientError::Ws(e.to_string()))
    }

    /// The next message as JSON (see [`Socket::recv_msg`]).
    pub async fn recv(&mut self) -> Result<Value, ClientError> {
        let m = self.recv_msg().await?;
        serde_json::to_value(&m).map_err(|e| ClientError::Unexpected(e.to_string()))
    }

    /// The next message. Checks the version: a `sync` sets it; an `update`, `seats` or `chat`
    /// must be the next one, else a resync is asked for (and counted in `gaps`).
    pub async fn recv_msg(&mut self) -> Result<ServerMsg, ClientError> {
        loop {
            let m = match self.ws.next().await {
                Some(Ok(m)) => m,
                Some(Err(e)) => return Err(ClientError::Ws(e.to_string())),
                None => return Err(ClientError::Closed),
            };
            let text = match m {
                Message::Text(t) => t,
                Message::Close(_) => return Err(ClientError::Closed),
                _ => continue,
            };
            let msg: ServerMsg = serde_json::from_str(text.as_str())
                .map_err(|e| ClientError::Unexpected(format!("{e}: {text}")))?;
            let (ver, event) = version(&msg);
            if matches!(msg, ServerMsg::Sync(_)) {
                self.v = ver;
            } else if event {
                match (self.v, ver) {
                    (Some(old), Some(new)) if new == old + 1 => self.v = Some(new),
                    (Some(old), Some(new)) if new <= old => {}
                    (None, _) => {}
                    _ => {
                        self.gaps += 1;
                        self.v = None;
                        self.send_msg(&ClientMsg::Table(TableMsg::Resync)).await?;
                    }
                }
            }
            return Ok(msg);
        }
    }

    /// The next message, or `None` after `wait`.
    pub async fn recv_timeout(&mut self, wait: Duration) -> Result<Option<Value>, ClientError> {
        match tokio::time::timeout(wait, self.recv()).await {
            Ok(r) => r.map(Some),
            Err(_) => Ok(None),
        }
    }

    /// Reads messages until one satisfies `pred` (returned), for at most `wait`.
    pub async fn until(
        &mut self,
        wait: Duration,
        what: &str,
        mut pred: impl FnMut(&Value) -> bool,
    ) -> Result<Value, ClientError> {
        let end = tokio::time::Instant::now() + wait;
        loop {
            let left = end.saturating_duration_since(tokio::time::Instant::now());
            match tokio::time::timeout(left, self.recv()).await {
                Ok(Ok(v)) if pred(&v) => return Ok(v),
                Ok(Ok(_)) => {}
                Ok(Err(e)) => return Err(e),
                Err(_) => return Err(ClientError::Timeout(what.to_string())),
            }
        }
    }

    /// Closes the connection.
    pub async fn close(mut self) {
        let _ = self.ws.close(None).await;
    }
}

/// A uniformly random legal action from a `legal` description (see `wire::Legal`), in
/// JSON, for bot clients that have no rules code: `None` when the description is not a decision of
/// the seat to move (nothing, a request during the draw or a window, or not a `legal` at all).
pub fn random_action(legal: &Value, rng: &mut cards::Rng) -> Option<Value> {
    let legal: Legal = serde_json::from_value(legal.clone()).ok()?;
    serde_json::to_value(random_act(&legal, rng)?).ok()
}

/// A uniformly random legal action from `legal` (see [`random_action`]).
pub fn random_act(legal: &Legal, rng: &mut cards::Rng) -> Option<ActAction> {
    match legal {
        Legal::Actions { actions, .. } => {
            (!actions.is_empty()).then(|| ActAction::Madiao(actions[rng.index(actions.len())]))
        }
        Legal::Cards { action, count, must, from } => {
            let count = usize::from(*count);
            let mut chosen = must.clone();
            let mut from = from.clone();
            rng.shuffle(&mut from);
            let need = count.checked_sub(chosen.len())?;
            chosen.extend(from.into_iter().take(need));
            (chosen.len() == count).then(|| ActAction::Dabaifen(action.action(chosen)))
        }
        Legal::Lead { singles, groups, .. } => {
            // Mostly single cards; sometimes two or more top cards of one suit (only where the
            // tops are known, under `refuse`: elsewhere a guess might be a revoke).
            let multi: Vec<&Vec<dabaifen::Card>> =
                groups.iter().filter_map(|g| g.tops.as_ref()).filter(|t| t.len() >= 2).collect();
            let play = |cards: Vec<dabaifen::Card>| ActAction::Dabaifen(CardsAction::Play.action(cards));
            if !multi.is_empty() && rng.chance(0.2) {
                let mut tops = multi[rng.index(multi.len())].clone();
                rng.shuffle(&mut tops);
                let n = 2 + rng.index(tops.len() - 1);
                tops.truncate(n);
                return Some(play(tops));
            }
            (!singles.is_empty()).then(|| play(vec![singles[rng.index(singles.len())]]))
        }
        Legal::Stake { low, high } => {
            let n = (high.saturating_sub(*low) / 2 + 1) as usize;
            let stake = low + 2 * rng.index(n) as u32;
            Some(ActAction::Stake(wire::StakeChoice { stake }))
        }
        Legal::Declare { .. } | Legal::Annul { .. } | Legal::Redeal { .. } => None,
    }
}
