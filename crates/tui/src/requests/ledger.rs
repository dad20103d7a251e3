//! The requests of the session: ids, the ones in flight (with what they are for), and the log
//! the `L` overlay shows (every request, and every message the status bar showed).

use std::cell::Cell;
use std::collections::BTreeMap;
use std::time::Duration;

use crate::app::notification::Notification;
use crate::requests::call::{Reply, Request, RequestId};
use crate::requests::purpose::{Purpose, Sent};

/// One line of the request log.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LogEntry {
    /// HTTP method.
    pub method: &'static str,
    /// Path (the key never appears in it).
    pub path: String,
    /// `None` while in flight, `Some(200)` for a success, the error status else (`Some(0)`
    /// when no answer came at all).
    pub status: Option<u16>,
    /// Latency once answered.
    pub latency: Option<Duration>,
    /// The error text when it failed.
    pub error: Option<String>,
}

/// One line of the log: a request or a message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LogLine {
    /// A request and its answer.
    Request(LogEntry),
    /// A message the status bar showed.
    Message(Notification),
}

/// A request in flight.
#[derive(Debug, Clone, PartialEq)]
pub struct InFlight {
    /// What it was.
    pub request: Request,
    /// What its answer is for.
    pub purpose: Purpose,
    log_index: usize,
}

/// Every request of the session.
#[derive(Debug, Default)]
pub struct Requests {
    last_id: Cell<RequestId>,
    in_flight: BTreeMap<RequestId, InFlight>,
    log: Vec<LogLine>,
}

impl Requests {
    /// A request with a fresh id, not yet sent: a component returns it as an action.
    pub fn prepare(&self, request: Request, purpose: Purpose) -> Sent {
        let id = self.last_id.get() + 1;
        self.last_id.set(id);
        Sent {
            id,
            request,
            purpose,
        }
    }

    /// Records `sent` as in flight and in the log.
    pub fn register(&mut self, sent: &Sent) {
        let (method, path) = sent.request.route();
        self.log.push(LogLine::Request(LogEntry {
            method,
            path,
            status: None,
            latency: None,
            error: None,
        }));
        self.in_flight.insert(
            sent.id,
            InFlight {
                request: sent.request.clone(),
                purpose: sent.purpose.clone(),
                log_index: self.log.len() - 1,
            },
        );
    }

    /// Takes the request `reply` answers out of flight and logs the answer; `None` for a reply
    /// to nothing in flight.
    pub fn answered(&mut self, reply: &Reply) -> Option<InFlight> {
        let flight = self.in_flight.remove(&reply.id)?;
        let LogLine::Request(entry) = &mut self.log[flight.log_index] else {
            return Some(flight);
        };
        entry.latency = Some(reply.latency);
        match &reply.outcome {
            Ok(_) => entry.status = Some(200),
            Err(failure) => {
                entry.status = Some(failure.status.unwrap_or(0));
                entry.error = Some(failure.message.clone());
            }
        }
        Some(flight)
    }

    /// Takes request `id` out of flight, logged as cancelled: its reply, should one come, is
    /// dropped.
    pub fn cancel(&mut self, id: RequestId) {
        if let Some(flight) = self.in_flight.remove(&id)
            && let LogLine::Request(entry) = &mut self.log[flight.log_index]
        {
            entry.status = Some(0);
            entry.error = Some("cancelled".into());
        }
    }

    /// How many requests are in flight.
    pub fn in_flight(&self) -> usize {
        self.in_flight.len()
    }

    /// Whether any request in flight is for a purpose `matches` accepts.
    pub fn waiting(&self, matches: impl Fn(&Purpose) -> bool) -> bool {
        self.in_flight.values().any(|f| matches(&f.purpose))
    }

    /// Whether an object write to `doc` is in flight.
    pub fn writing(&self, doc: &str) -> bool {
        self.in_flight
            .values()
            .any(|f| f.request.written_doc() == Some(doc))
    }

    /// Keeps a message of the status bar in the log.
    pub fn note(&mut self, message: Notification) {
        self.log.push(LogLine::Message(message));
    }

    /// The log, oldest first.
    pub fn log(&self) -> &[LogLine] {
        &self.log
    }
}
