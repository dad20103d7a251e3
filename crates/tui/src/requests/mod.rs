//! Requests: [`call`] is a request to the server, its answer and its reply; [`api`] each call
//! with the type of its answer; [`purpose`] what each request is for, with its typed answer (the
//! reply goes back to it); [`ledger`] hands out the ids and keeps the
//! requests in flight and the log; [`liveness`] keeps what the change events said and
//! [`fresh`] which objects to read again after a change elsewhere.
//!
//! May import `document` (the content an answer carries), `text` and `settings`; nothing above.

pub mod api;
pub mod call;
pub(crate) mod fresh;
pub(crate) mod ledger;
pub mod liveness;
pub(crate) mod purpose;
