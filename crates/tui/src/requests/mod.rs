//! Requests and loading: [`call`] is a request to the server, its answer and its reply;
//! [`purpose`] says what each request is for (the reply goes back to it); [`ledger`] hands out
//! the ids and keeps the requests in flight and the log; [`load`] is a value being loaded and
//! [`fresh`] which objects to read again after a change elsewhere.
//!
//! May import `document` (the content an answer carries), `app::notification`, and
//! `runtime::liveness` (how much to refetch); never `app`'s other files, `panes` or `overlays`.

pub mod call;
pub(crate) mod fresh;
pub(crate) mod ledger;
pub mod liveness;
pub(crate) mod purpose;
