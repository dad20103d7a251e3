//! The requests of the session: ids, the ones in flight (with what they are for), and the log
//! the `L` overlay shows (every request, and every message the status bar showed). The log held
//! in memory is bounded: its newest [`LOG_KEPT`] lines; an older line goes to the log file
//! (tracing, `diagtui.log`) as it leaves, so a session left open all day on a live document
//! stays flat.

use std::cell::Cell;
use std::collections::{BTreeMap, VecDeque};
use std::fmt;
use std::time::Duration;

use crate::document::RequestId;
use crate::requests::api::Call;
use crate::requests::call::{Failure, Reply, Request};
use crate::requests::purpose::{Answered, Batch, Outcome, Sent, Then};
use crate::text::notification::Notification;

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

/// How many lines of the log are held in memory (about 0.3 KB each).
pub const LOG_KEPT: usize = 2_000;

/// One line of the log: a request or a message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LogLine {
    /// A request and its answer.
    Request(LogEntry),
    /// A message the status bar showed.
    Message(Notification),
}

/// A request in flight.
#[derive(Debug)]
pub struct InFlight {
    /// What it was.
    pub request: Request,
    /// What becomes of its answer.
    pub then: Then,
    /// The requests it was sent together with, if any.
    pub batch: Option<Batch>,
    /// Its line's number in the log since the session began.
    log_line: usize,
}

/// Every request of the session.
#[derive(Debug, Default)]
pub struct Requests {
    last_id: Cell<RequestId>,
    in_flight: BTreeMap<RequestId, InFlight>,
    /// The newest lines, oldest first.
    log: VecDeque<LogLine>,
    /// How many older lines left for the log file: the number of `log`'s first line.
    gone: usize,
}

impl Requests {
    /// Call `call` under a fresh id, not yet sent (a component returns it as an action); its
    /// answer becomes the reply `then` makes of it.
    pub fn prepare<A: 'static>(
        &self,
        call: Call<A>,
        then: impl FnOnce(Outcome<A>) -> Answered + Send + 'static,
    ) -> Sent {
        let id = self.last_id.get() + 1;
        self.last_id.set(id);
        let (request, take) = call.into_parts();
        let then = Then(Box::new(move |outcome| {
            then(outcome.and_then(|answer| take(answer).ok_or_else(Failure::unexpected)))
        }));
        Sent {
            id,
            request,
            then,
            batch: None,
        }
    }

    /// Records `sent` as in flight and in the log; its id and request, for the runner.
    pub fn register(&mut self, sent: Sent) -> (RequestId, Request) {
        let (method, path) = sent.request.route();
        let log_line = self.push(LogLine::Request(LogEntry {
            method,
            path,
            status: None,
            latency: None,
            error: None,
        }));
        let request = sent.request.clone();
        self.in_flight.insert(
            sent.id,
            InFlight {
                request: sent.request,
                then: sent.then,
                batch: sent.batch,
                log_line,
            },
        );
        (sent.id, request)
    }

    /// Adds `line` as the newest, sending the oldest to the log file once [`LOG_KEPT`] are
    /// held; its number since the session began.
    fn push(&mut self, line: LogLine) -> usize {
        if self.log.len() == LOG_KEPT
            && let Some(old) = self.log.pop_front()
        {
            self.gone += 1;
            tracing::info!(target: "diagtui::request_log", "{old}");
        }
        self.log.push_back(line);
        self.gone + self.log.len() - 1
    }

    /// The request entry of line number `number`, while it is held.
    fn entry(&mut self, number: usize) -> Option<&mut LogEntry> {
        match self.log.get_mut(number.checked_sub(self.gone)?) {
            Some(LogLine::Request(entry)) => Some(entry),
            _ => None,
        }
    }

    /// Takes the request `reply` answers out of flight and logs the answer; `None` for a reply
    /// to nothing in flight.
    pub fn answered(&mut self, reply: &Reply) -> Option<InFlight> {
        let flight = self.in_flight.remove(&reply.id)?;
        let Some(entry) = self.entry(flight.log_line) else {
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
            && let Some(entry) = self.entry(flight.log_line)
        {
            entry.status = Some(0);
            entry.error = Some("cancelled".into());
        }
    }

    /// How many requests are in flight.
    pub fn in_flight(&self) -> usize {
        self.in_flight.len()
    }

    /// Whether any request of `batch` is in flight.
    pub fn waiting(&self, batch: Batch) -> bool {
        self.in_flight.values().any(|f| f.batch == Some(batch))
    }

    /// Whether an object write to `doc` is in flight.
    pub fn writing(&self, doc: &str) -> bool {
        self.in_flight
            .values()
            .any(|f| f.request.written_doc() == Some(doc))
    }

    /// Keeps a message of the status bar in the log.
    pub fn note(&mut self, message: Notification) {
        self.push(LogLine::Message(message));
    }

    /// The log's newest lines, oldest first.
    pub fn log(&self) -> &VecDeque<LogLine> {
        &self.log
    }

    /// How many older lines are only in the log file.
    pub fn gone(&self) -> usize {
        self.gone
    }
}

impl fmt::Display for LogLine {
    /// The line as the log file keeps it: `GET /api/v1/doc/… 200 3.1 ms`, a message with its
    /// level.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LogLine::Request(entry) => {
                write!(f, "{} {}", entry.method, entry.path)?;
                match entry.status {
                    None => write!(f, " (no answer yet)")?,
                    Some(0) => write!(f, " —")?,
                    Some(status) => write!(f, " {status}")?,
                }
                if let Some(latency) = entry.latency {
                    write!(f, " {:.1} ms", latency.as_secs_f64() * 1000.0)?;
                }
                if let Some(error) = &entry.error {
                    write!(f, " {error}")?;
                }
                Ok(())
            }
            LogLine::Message(message) => write!(f, "{:?}: {}", message.level, message.text),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::requests::api;
    use crate::requests::call::Answer;
    use crate::text::notification::Notification;
    use diagtui_model::UserRef;

    #[test]
    fn an_answer_whose_line_has_left_is_still_taken_out_of_flight() {
        let mut requests = Requests::default();
        let sent = requests.prepare(api::who_am_i(), Answered::Account);
        let (id, _) = requests.register(sent);
        for _ in 0..LOG_KEPT {
            requests.note(Notification::info("busy"));
        }
        let reply = Reply {
            id,
            latency: Duration::from_millis(3),
            outcome: Err(crate::requests::call::Failure {
                status: Some(500),
                code: None,
                message: "late".into(),
                stale: None,
            }),
        };
        assert!(requests.answered(&reply).is_some());
        assert_eq!(requests.in_flight(), 0);
        assert!(
            requests
                .log()
                .iter()
                .all(|line| matches!(line, LogLine::Message(_)))
        );
    }

    /// The reply `outcome` makes of request `id`, taken out of flight as App does.
    fn answer(requests: &mut Requests, id: RequestId, outcome: Outcome<Answer>) -> Answered {
        let reply = Reply {
            id,
            latency: Duration::ZERO,
            outcome,
        };
        let flight = requests.answered(&reply).expect("in flight");
        flight.then.answer(reply.outcome)
    }

    #[test]
    fn an_answer_goes_to_the_reply_its_call_was_sent_with_and_another_calls_answer_fails() {
        let mut requests = Requests::default();
        let me = UserRef {
            id: "u".into(),
            email: "me@example.com".into(),
        };

        let sent = requests.prepare(api::who_am_i(), Answered::Account);
        let (id, request) = requests.register(sent);
        assert_eq!(request, Request::WhoAmI);
        let Answered::Account(Err(failure)) = answer(&mut requests, id, Ok(Answer::Done)) else {
            panic!("the account's reply")
        };
        assert_eq!(failure, Failure::unexpected());

        let shout = |mut user: UserRef| {
            user.email.make_ascii_uppercase();
            user
        };
        let sent = requests.prepare(api::who_am_i().map(shout), Answered::Account);
        let (id, _) = requests.register(sent);
        let Answered::Account(Ok(user)) = answer(&mut requests, id, Ok(Answer::Me(me))) else {
            panic!("the account's reply")
        };
        assert_eq!(user.email, "ME@EXAMPLE.COM");
    }

    #[test]
    fn a_batch_waits_while_any_of_its_requests_is_in_flight() {
        let mut requests = Requests::default();
        let batch = Batch::Recreating(7);
        let sent: Vec<RequestId> = (0..2)
            .map(|_| {
                let sent = requests.prepare(api::who_am_i(), Answered::Account);
                requests.register(sent.in_batch(batch)).0
            })
            .collect();
        let other = requests.prepare(api::who_am_i(), Answered::Account);
        requests.register(other);
        for (n, id) in sent.into_iter().enumerate() {
            assert!(requests.waiting(batch), "before answer {n}");
            requests.cancel(id);
        }
        assert!(!requests.waiting(batch));
        assert!(!requests.waiting(Batch::Recreating(8)));
    }

    #[test]
    fn the_log_keeps_its_newest_lines_and_counts_the_rest() {
        let mut requests = Requests::default();
        for i in 0..LOG_KEPT + 5 {
            requests.note(Notification::info(format!("line {i}")));
        }
        assert_eq!(requests.log().len(), LOG_KEPT);
        assert_eq!(requests.gone(), 5);
        assert_eq!(
            requests.log().front(),
            Some(&LogLine::Message(Notification::info("line 5")))
        );
        assert_eq!(
            requests.log().back(),
            Some(&LogLine::Message(Notification::info(format!(
                "line {}",
                LOG_KEPT + 4
            ))))
        );
    }
}
