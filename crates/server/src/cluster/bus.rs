//! The bus between nodes: named channels carrying text, published by any node and heard by the
//! nodes subscribed to them. Delivery is at most once and in order from one publisher; a message
//! lost (the bus restarting, a slow subscriber) is repaired by the protocol's versions and
//! `resync`, and a connection whose table's node is gone enters the table again.
//!
//! Two implementations: Redis pub/sub (`--bus redis://HOST:PORT`) and PostgreSQL
//! `LISTEN`/`NOTIFY` on the database the nodes share (`--bus postgres`), for installs without
//! Redis.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use async_trait::async_trait;
use futures_util::StreamExt;
use tokio::sync::mpsc;

/// What went wrong on the bus.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BusError {
    /// The bus cannot be reached or refused the operation.
    #[error("bus: {0}")]
    Backend(String),
    /// The bus URL names no bus this server has.
    #[error("unsupported bus {0:?}: use redis://HOST[:PORT] or postgres")]
    BadUrl(String),
}

/// A message heard on a channel: the channel's name and the text.
pub type Heard = (String, String);

/// Not a channel: what a bus gives its receiver (with an empty text) when it has connected again
/// after losing its connection and hears its channels again. Whatever was sent to this node
/// meanwhile, or was on its way when the connection broke, is lost without its sender knowing
/// (Redis counted the subscriber that was about to go away).
pub const RECONNECTED: &str = "";

/// A bus: publish to a channel, subscribe to channels (what they carry arrives on the receiver
/// given when the bus was opened).
#[async_trait]
pub trait Bus: Send + Sync + 'static {
    /// A short name of the implementation (`redis`, `postgres`).
    fn kind(&self) -> &'static str;
    /// Sends `text` to whoever is subscribed to `channel` now; how many subscribers heard it,
    /// when the bus can tell (Redis can; PostgreSQL's `NOTIFY` cannot: `None`). A message heard
    /// by nobody is lost.
    async fn publish(&self, channel: &str, text: &str) -> Result<Option<u64>, BusError>;
    /// Hears `channel` from now on (again after the bus reconnects). With `confirmed`, returns
    /// once the bus hears the channel for this node, so that a message published after the call
    /// returns reaches it (or after [`SUBSCRIBE_WAIT`], an error, when the bus does not confirm
    /// it in time; it goes on trying); without, once the subscription is asked for.
    async fn subscribe(&self, channel: &str, confirmed: bool) -> Result<(), BusError>;
    /// Stops hearing `channel`.
    async fn unsubscribe(&self, channel: &str) -> Result<(), BusError>;
    /// Names this bus's connections after the node that uses them, so that other nodes can
    /// ask [`Bus::hears`] about it.
    async fn name(&self, _node: &str) -> Result<(), BusError> {
        Ok(())
    }
    /// Whether `node`'s bus connection is up now, for a bus that cannot count who heard a
    /// message (PostgreSQL): a node whose connection is gone (killed, its machine lost) hears
    /// nothing, and waiting for its answer is in vain. `None` when the bus cannot tell, or need
    /// not (Redis counts the subscribers of each message).
    async fn hears(&self, _node: &str) -> Option<bool> {
        None
    }
}

/// Opens the bus a URL names (`redis://…`, `rediss://…`, or `postgres` for `LISTEN`/`NOTIFY` on
/// the database at `db_url`), with the receiver of what it hears.
pub async fn open(
    url: &str,
    db_url: &str,
) -> Result<(Arc<dyn Bus>, mpsc::UnboundedReceiver<Heard>), BusError> {
    if url.starts_with("redis://") || url.starts_with("rediss://") {
        let (bus, rx) = RedisBus::connect(url).await?;
        Ok((Arc::new(bus), rx))
    } else if url == "postgres" {
        if !(db_url.starts_with("postgres://") || db_url.starts_with("postgresql://")) {
            return Err(BusError::BadUrl("--bus postgres needs --db postgres://…".into()));
        }
        let (bus, rx) = PgBus::connect(db_url).await?;
        Ok((Arc::new(bus), rx))
    } else {
        Err(BusError::BadUrl(crate::store::redact(url)))
    }
}

/// How long to wait before connecting again to a bus that went away.
const RECONNECT: Duration = Duration::from_millis(500);

/// How long a confirmed subscription ([`Bus::subscribe`]) waits for the bus at most.
pub const SUBSCRIBE_WAIT: Duration = Duration::from_secs(1);

/// A change of the channels heard, for the Redis subscriber task: subscribe (`true`) or
/// unsubscribe, and who waits to hear that Redis confirmed it.
type Change = (bool, String, Option<tokio::sync::oneshot::Sender<()>>);

/// Redis pub/sub: one connection publishes, another subscribes; the subscriber reconnects and
/// subscribes again to every channel when Redis comes back.
pub struct RedisBus {
    publisher: redis::aio::ConnectionManager,
    channels: Arc<Mutex<HashSet<String>>>,
    /// Subscriptions and unsubscriptions for the subscriber task, in the order asked.
    changes: mpsc::UnboundedSender<Change>,
}

impl RedisBus {
    /// Connects to Redis at `url`.
    pub async fn connect(url: &str) -> Result<(RedisBus, mpsc::UnboundedReceiver<Heard>), BusError> {
        let bad =
            |e: redis::RedisError| BusError::Backend(crate::store::redact(&format!("Redis {url}: {e}")));
        let client = redis::Client::open(url).map_err(bad)?;
        let publisher = redis::aio::ConnectionManager::new(client.clone()).await.map_err(bad)?;
        let channels: Arc<Mutex<HashSet<String>>> = Arc::default();
        let (heard_tx, heard_rx) = mpsc::unbounded_channel();
        let (changes, mut changes_rx) = mpsc::unbounded_channel::<Change>();
        let wanted = channels.clone();
        tokio::spawn(async move {
            let mut again = false;
            loop {
                let pubsub = match client.get_async_pubsub().await {
                    Ok(p) => p,
                    Err(e) => {
                        tracing::error!(error = %e, "the Redis bus is unreachable");
                        tokio::time::sleep(RECONNECT).await;
                        if heard_tx.is_closed() {
                            return;
                        }
                        continue;
                    }
                };
                let (mut sink, mut stream) = pubsub.split();
                let now: Vec<String> = wanted.lock().map(|c| c.iter().cloned().collect()).unwrap_or_default();
                let mut ok = true;
                for ch in now {
                    ok &= sink.subscribe(&ch).await.is_ok();
                }
                if ok && again && heard_tx.send((RECONNECTED.to_string(), String::new())).is_err() {
                    return;
                }
                again = true;
                while ok {
                    tokio::select! {
                        m = stream.next() => match m {
                            Some(msg) => {
                                let text: String = msg.get_payload().unwrap_or_default();
                                if heard_tx.send((msg.get_channel_name().to_string(), text)).is_err() {
                                    return;
                                }
                            }
                            None => break,
                        },
                        c = changes_rx.recv() => match c {
                            // Redis confirms a subscription before the call returns: whoever
                            // waits is told then (a failure drops the sender: not confirmed).
                            Some((true, ch, done)) => {
                                ok = sink.subscribe(&ch).await.is_ok();
                                if let (true, Some(done)) = (ok, done) {
                                    let _ = done.send(());
                                }
                            }
                            Some((false, ch, _)) => ok = sink.unsubscribe(&ch).await.is_ok(),
                            None => return,
                        },
                    }
                }
                tracing::warn!("the Redis bus went away: connecting again");
                tokio::time::sleep(RECONNECT).await;
            }
        });
        Ok((RedisBus { publisher, channels, changes }, heard_rx))
    }
}

#[async_trait]
impl Bus for RedisBus {
    fn kind(&self) -> &'static str {
        "redis"
    }

    async fn publish(&self, channel: &str, text: &str) -> Result<Option<u64>, BusError> {
        let mut c = self.publisher.clone();
        redis::cmd("PUBLISH")
            .arg(channel)
            .arg(text)
            .query_async::<i64>(&mut c)
            .await
            .map(|n| Some(u64::try_from(n).unwrap_or(0)))
            .map_err(|e| BusError::Backend(e.to_string()))
    }

    async fn subscribe(&self, channel: &str, confirmed: bool) -> Result<(), BusError> {
        if let Ok(mut c) = self.channels.lock() {
            c.insert(channel.to_string());
        }
        let (done, heard) = tokio::sync::oneshot::channel();
        self.changes
            .send((true, channel.to_string(), confirmed.then_some(done)))
            .map_err(|_| BusError::Backend("the subscriber has stopped".into()))?;
        if !confirmed {
            return Ok(());
        }
        match tokio::time::timeout(SUBSCRIBE_WAIT, heard).await {
            Ok(Ok(())) => Ok(()),
            _ => Err(BusError::Backend(format!(
                "Redis did not confirm the subscription to {channel} within {SUBSCRIBE_WAIT:?} (it is tried again when Redis is back)"
            ))),
        }
    }

    async fn unsubscribe(&self, channel: &str) -> Result<(), BusError> {
        if let Ok(mut c) = self.channels.lock() {
            c.remove(channel);
        }
        self.changes
            .send((false, channel.to_string(), None))
            .map_err(|_| BusError::Backend("the subscriber has stopped".into()))
    }
}

/// The most text one `NOTIFY` carries here (PostgreSQL's limit is 8,000 bytes); longer messages
/// go in parts.
const NOTIFY_PART: usize = 7_000;

/// PostgreSQL `LISTEN`/`NOTIFY`: one connection listens, another notifies. A message longer than
/// a notification may be goes in parts (`ID:PART/COUNT ` before each), put together again by the
/// listener: the parts of one message are sent in one transaction, so they arrive together.
///
/// The notifier is one task with a queue (`notifier`): while one statement is on its way, the
/// messages published meanwhile wait, and the next statement sends all of them (up to
/// [`NOTIFY_BATCH`]) in one transaction, in the order they were published. One statement a
/// message, behind a lock, was the limit of a cluster's cross-node traffic on this bus
/// (`docs/performance.md`).
pub struct PgBus {
    notifier: mpsc::UnboundedSender<Notify>,
    listener: Arc<tokio::sync::Mutex<Option<tokio_postgres::Client>>>,
    /// The `application_name` of the listening connection (`yezi-bus NODE`), set again when it
    /// reconnects; [`Bus::hears`] looks for it among the database's sessions.
    named: Arc<Mutex<Option<String>>>,
    channels: Arc<Mutex<HashSet<String>>>,
    next: std::sync::atomic::AtomicU64,
    prefix: String,
}

/// The most messages (or parts of messages) one statement of the notifier sends.
pub const NOTIFY_BATCH: usize = 512;

/// How long one statement of the notifier may take before its connection is taken to be broken
/// (its messages fail, and the next statement connects again).
const NOTIFY_WAIT: Duration = Duration::from_secs(3);

/// One message for the notifier: its channel, its payloads (one, or its parts), and who waits to
/// hear whether they were sent.
type Notify = (String, Vec<String>, tokio::sync::oneshot::Sender<Result<(), BusError>>);

/// A channel's name quoted for `LISTEN` (names are ours: letters, digits, `.`, `_`, `-`).
fn quoted(channel: &str) -> String {
    format!("\"{}\"", channel.replace('"', ""))
}

/// The notifier's task: takes every message waiting in `queue` (up to [`NOTIFY_BATCH`]
/// payloads), sends them in one statement, tells each publisher how it went; connects again
/// after a failure. Ends when the bus is dropped.
async fn notifier(url: String, mut queue: mpsc::UnboundedReceiver<Notify>) {
    let mut client: Option<tokio_postgres::Client> = None;
    while let Some(first) = queue.recv().await {
        let mut batch = vec![first];
        let mut count = batch[0].1.len();
        while count < NOTIFY_BATCH {
            match queue.try_recv() {
                Ok(m) => {
                    count += m.1.len();
                    batch.push(m);
                }
                Err(_) => break,
            }
        }
        let result = notify_batch(&url, &mut client, &batch).await;
        if result.is_err() {
            client = None;
        }
        for (_, _, done) in batch {
            let _ = done.send(result.clone());
        }
    }
}

/// Sends a batch of messages in one statement (one transaction, in order) on `client`,
/// connecting first if it has no open connection.
async fn notify_batch(
    url: &str,
    client: &mut Option<tokio_postgres::Client>,
    batch: &[Notify],
) -> Result<(), BusError> {
    if client.as_ref().is_none_or(|c| c.is_closed()) {
        let connecting = tokio_postgres::connect(url, tokio_postgres::NoTls);
        let (c, conn) = tokio::time::timeout(NOTIFY_WAIT, connecting)
            .await
            .map_err(|_| BusError::Backend("PostgreSQL did not answer the bus's connection".into()))?
            .map_err(|e| BusError::Backend(crate::store::redact(&e.to_string())))?;
        tokio::spawn(conn);
        // A transaction that notifies commits holding a lock every notifying transaction of the
        // database takes, so that the queue of notifications keeps the commits' order; with
        // durable commits it holds it through a flush of the log to disk, and the nodes'
        // notifiers wait for each other's flushes. Notifications need no durability (nothing
        // is stored): this connection's commits do not wait for the disk.
        tokio::time::timeout(NOTIFY_WAIT, c.batch_execute("SET synchronous_commit = off"))
            .await
            .map_err(|_| BusError::Backend("PostgreSQL did not answer the bus's connection".into()))?
            .map_err(|e| BusError::Backend(e.to_string()))?;
        *client = Some(c);
    }
    let Some(c) = client.as_ref() else { return Err(BusError::Backend("no connection".into())) };
    let mut channels: Vec<&str> = Vec::new();
    let mut payloads: Vec<&str> = Vec::new();
    for (channel, parts, _) in batch {
        for p in parts {
            channels.push(channel);
            payloads.push(p);
        }
    }
    let params: [&(dyn tokio_postgres::types::ToSql + Sync); 2] = [&channels, &payloads];
    let sent = c.execute(
        "SELECT pg_notify(c, p) FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS t (c, p, i) ORDER BY i",
        &params,
    );
    match tokio::time::timeout(NOTIFY_WAIT, sent).await {
        Ok(Ok(_)) => Ok(()),
        Ok(Err(e)) => Err(BusError::Backend(e.to_string())),
        Err(_) => Err(BusError::Backend(format!(
            "PostgreSQL did not take the bus's messages within {NOTIFY_WAIT:?}"
        ))),
    }
}

impl PgBus {
    /// Connects to the database at `url`.
    pub async fn connect(url: &str) -> Result<(PgBus, mpsc::UnboundedReceiver<Heard>), BusError> {
        let (heard_tx, heard_rx) = mpsc::unbounded_channel();
        let channels: Arc<Mutex<HashSet<String>>> = Arc::default();
        let listener = Arc::new(tokio::sync::Mutex::new(None));
        let (notify_tx, notify_rx) = mpsc::unbounded_channel();
        tokio::spawn(notifier(url.to_string(), notify_rx));
        let named: Arc<Mutex<Option<String>>> = Arc::default();
        let bus = PgBus {
            notifier: notify_tx,
            listener: listener.clone(),
            named: named.clone(),
            channels: channels.clone(),
            next: std::sync::atomic::AtomicU64::new(0),
            prefix: crate::ids::new_id("m").map_err(|e| BusError::Backend(e.to_string()))?,
        };
        let first = listen(url, &heard_tx).await?;
        *listener.lock().await = Some(first);
        // Keeps the listener connected: when it breaks, connect again and listen again.
        let url = url.to_string();
        tokio::spawn(async move {
            loop {
                tokio::time::sleep(RECONNECT).await;
                if heard_tx.is_closed() {
                    return;
                }
                let mut l = listener.lock().await;
                if l.as_ref().is_some_and(|c| !c.is_closed()) {
                    continue;
                }
                match listen(&url, &heard_tx).await {
                    Ok(c) => {
                        let name = named.lock().ok().and_then(|n| n.clone());
                        if let Some(name) = name {
                            let _ = c.batch_execute(&format!("SET application_name = '{name}'")).await;
                        }
                        let now: Vec<String> =
                            channels.lock().map(|c| c.iter().cloned().collect()).unwrap_or_default();
                        for ch in now {
                            let _ = c.batch_execute(&format!("LISTEN {}", quoted(&ch))).await;
                        }
                        *l = Some(c);
                        let _ = heard_tx.send((RECONNECTED.to_string(), String::new()));
                    }
                    Err(e) => tracing::error!(error = %e, "the PostgreSQL bus is unreachable"),
                }
            }
        });
        Ok((bus, heard_rx))
    }

    /// The payloads that carry `text`: one (`ID text`), or its parts (`ID:PART/COUNT piece`).
    /// Every payload starts with an id of its own: PostgreSQL delivers only one of identical
    /// notifications sent in one transaction, and a batch may hold two equal messages.
    fn payloads(&self, text: &str) -> Vec<String> {
        let id = format!("{}{}", self.prefix, self.next.fetch_add(1, std::sync::atomic::Ordering::Relaxed));
        if text.len() <= NOTIFY_PART {
            return vec![format!("{id} {text}")];
        }
        let mut pieces = Vec::new();
        let mut rest = text;
        while !rest.is_empty() {
            let mut cut = rest.len().min(NOTIFY_PART);
            while !rest.is_char_boundary(cut) {
                cut -= 1;
            }
            pieces.push(&rest[..cut]);
            rest = &rest[cut..];
        }
        pieces.iter().enumerate().map(|(i, p)| format!("{id}:{i}/{} {p}", pieces.len())).collect()
    }
}

/// A listening connection whose notifications (put together again) go to `heard`.
async fn listen(url: &str, heard: &mpsc::UnboundedSender<Heard>) -> Result<tokio_postgres::Client, BusError> {
    let (client, mut conn) = tokio_postgres::connect(url, tokio_postgres::NoTls)
        .await
        .map_err(|e| BusError::Backend(crate::store::redact(&e.to_string())))?;
    let heard = heard.clone();
    tokio::spawn(async move {
        let mut parts: HashMap<String, Vec<String>> = HashMap::new();
        let mut messages = futures_util::stream::poll_fn(move |cx| conn.poll_message(cx));
        while let Some(Ok(m)) = messages.next().await {
            let tokio_postgres::AsyncMessage::Notification(n) = m else { continue };
            let payload = n.payload();
            let whole = match payload.split_once(' ') {
                Some((head, rest)) if head.contains('/') && head.contains(':') => {
                    let Some((id, count)) = head.split_once('/') else { continue };
                    let Some((id, _part)) = id.split_once(':') else { continue };
                    let count: usize = count.parse().unwrap_or(1);
                    let got = parts.entry(id.to_string()).or_default();
                    got.push(rest.to_string());
                    if got.len() < count {
                        continue;
                    }
                    parts.remove(id).unwrap_or_default().concat()
                }
                Some((_, rest)) => rest.to_string(),
                None => continue,
            };
            if heard.send((n.channel().to_string(), whole)).is_err() {
                return;
            }
        }
    });
    Ok(client)
}

#[async_trait]
impl Bus for PgBus {
    fn kind(&self) -> &'static str {
        "postgres"
    }

    async fn publish(&self, channel: &str, text: &str) -> Result<Option<u64>, BusError> {
        let (done, sent) = tokio::sync::oneshot::channel();
        self.notifier
            .send((channel.to_string(), self.payloads(text), done))
            .map_err(|_| BusError::Backend("the notifier has stopped".into()))?;
        sent.await.map_err(|_| BusError::Backend("the notifier has stopped".into()))??;
        Ok(None)
    }

    /// `LISTEN` is in effect when its statement returns, confirmed or not.
    async fn subscribe(&self, channel: &str, _confirmed: bool) -> Result<(), BusError> {
        if let Ok(mut c) = self.channels.lock() {
            c.insert(channel.to_string());
        }
        let l = self.listener.lock().await;
        if let Some(c) = l.as_ref() {
            c.batch_execute(&format!("LISTEN {}", quoted(channel)))
                .await
                .map_err(|e| BusError::Backend(e.to_string()))?;
        }
        Ok(())
    }

    async fn unsubscribe(&self, channel: &str) -> Result<(), BusError> {
        if let Ok(mut c) = self.channels.lock() {
            c.remove(channel);
        }
        let l = self.listener.lock().await;
        if let Some(c) = l.as_ref() {
            c.batch_execute(&format!("UNLISTEN {}", quoted(channel)))
                .await
                .map_err(|e| BusError::Backend(e.to_string()))?;
        }
        Ok(())
    }

    /// The listening connection's `application_name` becomes `yezi-bus NODE`.
    async fn name(&self, node: &str) -> Result<(), BusError> {
        let name = listener_name(node);
        if let Ok(mut n) = self.named.lock() {
            *n = Some(name.clone());
        }
        let l = self.listener.lock().await;
        if let Some(c) = l.as_ref() {
            c.batch_execute(&format!("SET application_name = '{name}'"))
                .await
                .map_err(|e| BusError::Backend(e.to_string()))?;
        }
        Ok(())
    }

    /// Whether the database has a session named after `node`'s listening connection: when a
    /// node dies, PostgreSQL ends its session as soon as its connection closes. `None` when the
    /// database cannot be asked (no listening connection, or no answer in a tenth of a second).
    async fn hears(&self, node: &str) -> Option<bool> {
        let l = self.listener.lock().await;
        let c = l.as_ref()?;
        let name = listener_name(node);
        let params: [&(dyn tokio_postgres::types::ToSql + Sync); 1] = [&name];
        let asked = c.query_one("SELECT count(*) FROM pg_stat_activity WHERE application_name = $1", &params);
        let row = tokio::time::timeout(Duration::from_millis(100), asked).await.ok()?.ok()?;
        Some(row.get::<_, i64>(0) > 0)
    }
}

/// The `application_name` of `node`'s listening connection (PostgreSQL keeps 63 bytes of it;
/// node ids are far shorter, and only letters, digits and `-` are kept).
fn listener_name(node: &str) -> String {
    let node: String = node.chars().filter(|c| c.is_ascii_alphanumeric() || *c == '-').take(50).collect();
    format!("yezi-bus {node}")
}
