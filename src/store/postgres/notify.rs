//! Commit reports between instances: each write transaction sends what its requests changed on
//! the `diagtui` channel (`NOTIFY`, delivered at commit, in commit order); every instance
//! listens (`LISTEN`) and hands the other instances' reports to its listeners
//! ([`CommitObserver::committed_elsewhere`]) with the changed objects as they are in the
//! database when the report arrives.
//!
//! A report longer than one notification's payload (8,000 bytes) travels in pieces, which
//! arrive together: a transaction's notifications are delivered one after the other. While the
//! listening connection is down (the database restarting), reports are missed; the listener
//! connects again by itself. What the store keeps in memory does not depend on them: the
//! freshness check (see `freshness`) notices other instances' commits exactly.

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use deadpool_postgres::{GenericClient, Pool};
use serde::{Deserialize, Serialize};
use tokio_postgres::AsyncMessage;
use tokio_postgres_rustls::MakeRustlsConnect;

use super::objects::load_objects;
use super::sql::execute;
use crate::store::StoreResult;
use crate::store::change::{Committed, DocChange, DocEvent};
use crate::store::engine::CommitObserver;

/// The channel commit reports travel on.
const CHANNEL: &str = "diagtui";
/// The most bytes of a report sent in one notification (the payload limit is 8,000).
const PIECE: usize = 7000;
/// The longest wait between two attempts to listen again.
const MAX_BACKOFF: Duration = Duration::from_secs(5);

/// A report as it travels: object ids without their data.
#[derive(Serialize, Deserialize)]
struct Wire {
    docs: Vec<WireDoc>,
    keys_changed: Vec<String>,
}

/// One document's change as it travels.
#[derive(Serialize, Deserialize)]
struct WireDoc {
    doc_id: String,
    last_change: Option<String>,
    changed: Vec<String>,
    deleted: Vec<String>,
    event: Option<DocEvent>,
}

/// Sends the committed requests' reports to the other instances, in one statement; nothing
/// for a report that changed no document and no key. Runs inside the write transaction, so
/// they are delivered at its commit, in order.
pub async fn send(
    c: &impl GenericClient,
    instance: &str,
    serial: &AtomicU64,
    reports: &[&Committed],
) -> StoreResult<()> {
    let mut payloads = Vec::new();
    for report in reports {
        if report.docs.is_empty() && report.keys_changed.is_empty() {
            continue;
        }
        let text = serde_json::to_string(&wire(report))?;
        let pieces = split(&text, PIECE);
        let last = pieces.len() - 1;
        for (at, piece) in pieces.into_iter().enumerate() {
            // The serial keeps two pieces of one transaction from being identical, which
            // PostgreSQL would deliver once.
            let serial = serial.fetch_add(1, Ordering::Relaxed);
            let more = u8::from(at < last);
            payloads.push(format!("{instance} {serial} {more} {piece}"));
        }
    }
    if !payloads.is_empty() {
        execute(
            c,
            "SELECT pg_notify($1, p) FROM unnest($2::text[]) WITH ORDINALITY AS t(p, n) ORDER BY n",
            &[&CHANNEL, &payloads],
        )
        .await?;
    }
    Ok(())
}

/// A report as it travels.
fn wire(report: &Committed) -> Wire {
    Wire {
        docs: report
            .docs
            .iter()
            .map(|change| WireDoc {
                doc_id: change.doc_id.clone(),
                last_change: change.last_change.clone(),
                changed: change.changed.iter().map(|(id, _)| id.clone()).collect(),
                deleted: change.deleted.clone(),
                event: change.event.clone(),
            })
            .collect(),
        keys_changed: report.keys_changed.clone(),
    }
}

/// `text` in pieces of at most `max` bytes, cut at character boundaries.
fn split(text: &str, max: usize) -> Vec<&str> {
    let mut pieces = Vec::new();
    let mut rest = text;
    while rest.len() > max {
        let mut cut = max;
        while !rest.is_char_boundary(cut) {
            cut -= 1;
        }
        let (piece, tail) = rest.split_at(cut);
        pieces.push(piece);
        rest = tail;
    }
    pieces.push(rest);
    pieces
}

/// A listening connection: `LISTEN` done, its notifications' payloads arriving.
pub struct Subscription {
    /// Kept for as long as the connection is to live.
    _client: tokio_postgres::Client,
    received: tokio::sync::mpsc::UnboundedReceiver<String>,
    driver: tokio::task::JoinHandle<()>,
}

impl Drop for Subscription {
    fn drop(&mut self) {
        self.driver.abort();
    }
}

/// Connects and listens; once it returns, every report committed after is received.
pub async fn subscribe(
    config: &tokio_postgres::Config,
    tls: &MakeRustlsConnect,
) -> StoreResult<Subscription> {
    let (client, mut connection) = config.connect(tls.clone()).await?;
    let (sender, received) = tokio::sync::mpsc::unbounded_channel();
    let driver = tokio::spawn(async move {
        loop {
            match std::future::poll_fn(|cx| connection.poll_message(cx)).await {
                Some(Ok(AsyncMessage::Notification(note))) => {
                    if sender.send(note.payload().to_owned()).is_err() {
                        return;
                    }
                }
                Some(Ok(_)) => {}
                Some(Err(e)) => {
                    tracing::warn!("the listening connection failed: {e}");
                    return;
                }
                None => return,
            }
        }
    });
    client.batch_execute(&format!("LISTEN {CHANNEL}")).await?;
    Ok(Subscription {
        _client: client,
        received,
        driver,
    })
}

/// What a listener needs besides its connection.
pub struct Listening {
    /// Where to connect again.
    pub config: tokio_postgres::Config,
    /// TLS for connecting again.
    pub tls: MakeRustlsConnect,
    /// Where the changed objects are read.
    pub pool: Pool,
    /// This instance's name: its own reports are not taken in again.
    pub instance: String,
    /// Who receives the reports.
    pub observer: Arc<dyn CommitObserver>,
}

/// Takes in the other instances' reports from `first` and, whenever the connection is lost,
/// from a new one, until the engine is dropped (the task is then aborted).
pub async fn listen(first: Subscription, listening: Listening) {
    let mut current = Some(first);
    let mut backoff = Duration::from_millis(250);
    loop {
        let subscription = match current.take() {
            Some(subscription) => subscription,
            None => match subscribe(&listening.config, &listening.tls).await {
                Ok(subscription) => {
                    backoff = Duration::from_millis(250);
                    subscription
                }
                Err(e) => {
                    tracing::warn!("listening for other instances' commits: {e}");
                    tokio::time::sleep(backoff).await;
                    backoff = (backoff * 2).min(MAX_BACKOFF);
                    continue;
                }
            },
        };
        take_in(subscription, &listening).await;
    }
}

/// Takes in the reports a connection receives, until it ends.
async fn take_in(mut subscription: Subscription, listening: &Listening) {
    let mut partial: HashMap<String, String> = HashMap::new();
    while let Some(payload) = subscription.received.recv().await {
        let mut fields = payload.splitn(4, ' ');
        let (Some(from), Some(_serial), Some(more), Some(piece)) =
            (fields.next(), fields.next(), fields.next(), fields.next())
        else {
            continue;
        };
        if from == listening.instance {
            continue;
        }
        let text = partial.entry(from.to_owned()).or_default();
        text.push_str(piece);
        if more == "1" {
            continue;
        }
        let text = partial.remove(from).unwrap_or_default();
        match serde_json::from_str::<Wire>(&text) {
            Ok(wire) => match received_report(&listening.pool, wire).await {
                Ok(report) => listening.observer.committed_elsewhere(Arc::new(report)),
                Err(e) => tracing::warn!("reading another instance's commit: {e}"),
            },
            Err(e) => tracing::warn!("another instance's commit report is unreadable: {e}"),
        }
    }
}

/// Another instance's report, with the changed objects read from the database (an object
/// deleted since is left out; its deletion is reported after).
async fn received_report(pool: &Pool, wire: Wire) -> StoreResult<Committed> {
    let mut docs = Vec::with_capacity(wire.docs.len());
    let client = pool.get().await?;
    for doc in wire.docs {
        let ids: Vec<&str> = doc.changed.iter().map(String::as_str).collect();
        let changed = if ids.is_empty() {
            Vec::new()
        } else {
            load_objects(&client, &doc.doc_id, Some(&ids))
                .await?
                .into_iter()
                .collect()
        };
        docs.push(DocChange {
            doc_id: doc.doc_id,
            last_change: doc.last_change,
            changed,
            deleted: doc.deleted,
            event: doc.event,
        });
    }
    Ok(Committed {
        keys_changed: wire.keys_changed,
        ..Committed::of_docs(docs)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_reports_are_cut_at_character_boundaries() {
        let text = "é".repeat(10);
        let pieces = split(&text, 5);
        assert_eq!(pieces.concat(), text);
        assert!(pieces.iter().all(|piece| piece.len() <= 5));
        assert_eq!(split("short", 7000), ["short"]);
    }
}
