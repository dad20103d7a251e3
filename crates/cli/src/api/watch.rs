//! `diagtui doc watch DOC`: a document's change events, one line of JSON each on stdout, until
//! interrupted or the document is deleted (exit 0); reconnecting when the connection is lost;
//! polling the document's details against a server without the event stream.

use std::io::Write;
use std::time::Duration;

use serde_json::{Value, json};

use super::Failure;
use diagtui_client::{ApiError, Client, DocStreamEvent, Watched};
use diagtui_model::events::{DocEventKind, EVENT_CHANGE, EVENT_CURRENT, EVENT_RESYNC};

/// How `doc watch` runs.
#[derive(Debug, Clone, clap::Args)]
pub struct WatchArgs {
    /// The document id.
    pub doc: String,
    /// Exit after the first change (or resync) instead of running until interrupted.
    #[arg(long)]
    pub once: bool,
}

/// Whether to go on after a line.
#[derive(PartialEq)]
enum Next {
    Go,
    Stop,
}

impl WatchArgs {
    /// Watches until interrupted (or the first change with `--once`); polls every `poll`
    /// (zero: never) a server without the event stream.
    pub(crate) async fn execute(self, client: &Client, poll: Duration) -> Result<(), Failure> {
        let interrupted = diagtui_server::signals::stop_requested().map_err(Failure::Other)?;
        tokio::select! {
            watched = self.watch(client, poll) => watched,
            () = interrupted => Ok(()),
        }
    }

    async fn watch(&self, client: &Client, poll: Duration) -> Result<(), Failure> {
        let mut watch = client.watch_doc(&self.doc);
        while let Some(watched) = watch.next().await {
            match watched {
                Watched::Connected => {}
                Watched::Event(event) => {
                    let deleted = matches!(&event, DocStreamEvent::Change(change)
                        if change.document == Some(DocEventKind::Deleted));
                    if self.print(line(watch.last_id(), &event))? == Next::Stop || deleted {
                        return Ok(());
                    }
                }
                Watched::Lost { error, retry_in } => eprintln!(
                    "diagtui: lost the event stream ({error}); trying again in {:.1} s",
                    retry_in.as_secs_f64()
                ),
                Watched::Unsupported(error) if poll.is_zero() => {
                    return Err(Failure::Other(anyhow::anyhow!(
                        "the server has no event stream ({error}), and polling is off (--poll 0)"
                    )));
                }
                Watched::Unsupported(error) => {
                    eprintln!(
                        "diagtui: the server has no event stream ({error}); polling the \
                         document every {} s",
                        poll.as_secs_f64()
                    );
                    return self.poll(client, poll).await;
                }
                Watched::Failed(error) => return Err(error.into()),
            }
        }
        Ok(())
    }

    /// Polls the document's details, printing a line when its `lastChange` moved.
    async fn poll(&self, client: &Client, every: Duration) -> Result<(), Failure> {
        let mut known: Option<String> = None;
        let mut ticks = tokio::time::interval(every);
        ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            ticks.tick().await;
            let details = match client.doc_details(&self.doc).await {
                Ok(details) => details,
                Err(error) if transient(&error) => {
                    eprintln!("diagtui: cannot read the document ({error}); trying again");
                    continue;
                }
                Err(error) => return Err(error.into()),
            };
            let event = match &known {
                None => EVENT_CURRENT,
                Some(last) if *last != details.last_change => EVENT_CHANGE,
                Some(_) => continue,
            };
            let line = json!({"event": event, "lastChange": details.last_change, "polled": true});
            known = Some(details.last_change);
            if self.print(line)? == Next::Stop {
                return Ok(());
            }
        }
    }

    /// Prints one line; whether to go on.
    fn print(&self, line: Value) -> Result<Next, Failure> {
        let mut out = std::io::stdout().lock();
        writeln!(out, "{line}")
            .and_then(|()| out.flush())
            .map_err(|e| Failure::Other(e.into()))?;
        let change = line["event"] != EVENT_CURRENT;
        Ok(if self.once && change {
            Next::Stop
        } else {
            Next::Go
        })
    }
}

/// An event as one line: its name, its id and its data's fields.
fn line(id: Option<&str>, event: &DocStreamEvent) -> Value {
    let (name, data) = match event {
        DocStreamEvent::Current(data) => (EVENT_CURRENT, json!(data)),
        DocStreamEvent::Change(data) => (EVENT_CHANGE, json!(data)),
        DocStreamEvent::Resync(data) => (EVENT_RESYNC, json!(data)),
    };
    let mut line = json!({"event": name, "id": id});
    if let (Some(line), Value::Object(data)) = (line.as_object_mut(), data) {
        line.extend(data);
    }
    line
}

/// Whether a failed poll is worth trying again.
fn transient(error: &ApiError) -> bool {
    error.status().is_none_or(|status| status >= 500)
}
