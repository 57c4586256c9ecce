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
/// a notification may be goes in parts (`ID PART/COUNT ` before each), put together again by the
/// listener: the parts of one message are sent in one transaction, so they arrive together.
pub struct PgBus {
    url: String,
    notifier: tokio::sync::Mutex<Option<tokio_postgres::Client>>,
    listener: Arc<tokio::sync::Mutex<Option<tokio_postgres::Client>>>,
    channels: Arc<Mutex<HashSet<String>>>,
    next: std::sync::atomic::AtomicU64,
    prefix: String,
}

/// A channel's name quoted for `LISTEN` (names are ours: letters, digits, `.`, `_`, `-`).
fn quoted(channel: &str) -> String {
    format!("\"{}\"", channel.replace('"', ""))
}

impl PgBus {
    /// Connects to the database at `url`.
    pub async fn connect(url: &str) -> Result<(PgBus, mpsc::UnboundedReceiver<Heard>), BusError> {
        let (heard_tx, heard_rx) = mpsc::unbounded_channel();
        let channels: Arc<Mutex<HashSet<String>>> = Arc::default();
        let listener = Arc::new(tokio::sync::Mutex::new(None));
        let bus = PgBus {
            url: url.to_string(),
            notifier: tokio::sync::Mutex::new(None),
            listener: listener.clone(),
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
                        let now: Vec<String> =
                            channels.lock().map(|c| c.iter().cloned().collect()).unwrap_or_default();
                        for ch in now {
                            let _ = c.batch_execute(&format!("LISTEN {}", quoted(&ch))).await;
                        }
                        *l = Some(c);
                    }
                    Err(e) => tracing::error!(error = %e, "the PostgreSQL bus is unreachable"),
                }
            }
        });
        Ok((bus, heard_rx))
    }

    async fn notifier(
        &self,
    ) -> Result<tokio::sync::MutexGuard<'_, Option<tokio_postgres::Client>>, BusError> {
        let mut n = self.notifier.lock().await;
        if n.as_ref().is_none_or(|c| c.is_closed()) {
            let (c, conn) = tokio_postgres::connect(&self.url, tokio_postgres::NoTls)
                .await
                .map_err(|e| BusError::Backend(crate::store::redact(&e.to_string())))?;
            tokio::spawn(conn);
            *n = Some(c);
        }
        Ok(n)
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
        let n = self.notifier().await?;
        let Some(c) = n.as_ref() else { return Err(BusError::Backend("no connection".into())) };
        let fail = |e: tokio_postgres::Error| BusError::Backend(e.to_string());
        if text.len() <= NOTIFY_PART {
            c.execute("SELECT pg_notify($1, $2)", &[&channel, &format!("- {text}")]).await.map_err(fail)?;
            return Ok(None);
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
        let id = format!("{}{}", self.prefix, self.next.fetch_add(1, std::sync::atomic::Ordering::Relaxed));
        let payloads: Vec<String> =
            pieces.iter().enumerate().map(|(i, p)| format!("{id}:{i}/{} {p}", pieces.len())).collect();
        // One statement: the parts are notified in one transaction, so they arrive together.
        c.execute(
            "SELECT pg_notify($1, p) FROM unnest($2::text[]) WITH ORDINALITY AS t (p, i) ORDER BY i",
            &[&channel, &payloads],
        )
        .await
        .map_err(fail)?;
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
}
