//! The HTTP/1.1 server under the application: accepting connections up to a cap, closing the
//! ones that sit idle or send their request head too slowly, and answering the HTTP layer's own
//! rejections in the error contract.
//!
//! Timeouts: a connection may wait for its next request at most the idle timeout; from a
//! request's first byte (or the connection's opening) its head must arrive within the header
//! timeout. Bodies have their own timeout, enforced where they are read. At the connection cap,
//! a new connection makes room by closing the connection idle the longest, else the one
//! streaming events the longest (its subscriber comes back and resumes); when every one is
//! busy, it waits.
//!
//! A long-lived answer (an event stream, marked [`Streaming`]) has no timeout. When the server
//! stops, the application ends its streams and their connections close after; a streaming
//! connection told to close to make room is closed at once.
//!
//! A connection closed while its client is still sending (a request refused before it was read
//! whole) is drained first, so that the answer reaches the client (see [`linger`]); it counts
//! against the cap meanwhile.

mod connections;
mod io;
mod linger;

use std::convert::Infallible;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use axum::body::Body;
use bytes::Bytes;
use hyper::body::{Frame, Incoming, SizeHint};
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper_util::rt::TokioIo;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;
use tower::ServiceExt;

use super::routes::App;

pub use self::connections::Timeouts;
use self::connections::{Connection, Phase, Registered, Registry};
use self::io::Stream;
use crate::streaming::Streaming;

/// The largest request head (request line and headers) accepted; a larger one is answered 431.
/// Set explicitly: hyper's read buffer bound alone is not a limit, as a head that arrives in
/// one read may pass it (the same request answered 431 or read, by timing).
pub const MAX_HEAD_BYTES: usize = 400 << 10;

/// How the HTTP layer treats connections.
#[derive(Debug, Clone, Copy)]
pub struct HttpOptions {
    /// The idle and header timeouts.
    pub timeouts: Timeouts,
    /// The most connections open at once.
    pub max_connections: usize,
}

/// Serves `app` on `listener` until `shutdown` resolves; then stops accepting, lets the
/// requests in flight finish and returns once every connection has closed.
pub async fn serve(
    listener: TcpListener,
    app: App,
    options: HttpOptions,
    shutdown: impl Future<Output = ()>,
) {
    let registry = Registry::new(options.max_connections);
    let (stop, stopped) = watch::channel(false);
    tokio::pin!(shutdown);
    loop {
        let accepted = tokio::select! {
            () = &mut shutdown => break,
            accepted = listener.accept() => accepted,
        };
        let stream = match accepted {
            Ok((stream, _)) => stream,
            Err(e) => {
                // Out of file descriptors, most likely: give connections time to close.
                tracing::warn!("cannot accept a connection: {e}");
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        registry.make_room().await;
        let registered = registry.register();
        tokio::spawn(connection(
            stream,
            registered,
            app.clone(),
            options.timeouts,
            stopped.clone(),
        ));
    }
    let _ = stop.send(true);
    registry.all_closed().await;
}

/// Serves one connection until it closes, times out, is told to close or the server stops,
/// then closes it (see [`linger`]).
async fn connection(
    mut stream: TcpStream,
    registered: Registered,
    app: App,
    timeouts: Timeouts,
    stopped: watch::Receiver<bool>,
) {
    let _ = stream.set_nodelay(true);
    let state = Arc::clone(registered.connection());
    serve_connection(&mut stream, &state, app, timeouts, stopped).await;
    state.draining();
    linger::close(stream, state.sent_closing_answer()).await;
    drop(registered);
}

/// Serves the requests of one connection until it closes, times out, is told to close or the
/// server stops.
async fn serve_connection(
    stream: &mut TcpStream,
    state: &Arc<Connection>,
    app: App,
    timeouts: Timeouts,
    mut stopped: watch::Receiver<bool>,
) {
    let io = TokioIo::new(Stream::new(stream, Arc::clone(state)));
    let service_state = Arc::clone(state);
    let service = service_fn(move |request: hyper::Request<Incoming>| {
        service_state.request_started();
        let finished = Finished(Arc::clone(&service_state));
        let answer = app.clone().oneshot(request);
        async move {
            let response = answer.await.unwrap_or_else(|never| match never {});
            if response.extensions().get::<Streaming>().is_some() {
                finished.0.streaming_started();
            }
            Ok::<_, Infallible>(response.map(|body| Tracked {
                body,
                _finished: finished,
            }))
        }
    });
    let conn = http1::Builder::new()
        .keep_alive(true)
        .max_header_size(MAX_HEAD_BYTES)
        .serve_connection(io, service);
    tokio::pin!(conn);
    let mut stopping = false;
    loop {
        let wait = state
            .time_left(&timeouts)
            .unwrap_or(timeouts.idle.max(timeouts.header));
        tokio::select! {
            _ = conn.as_mut() => break,
            () = tokio::time::sleep(wait) => {
                if state.time_left(&timeouts) == Some(Duration::ZERO) {
                    break;
                }
            }
            // Told to close (to make room, or the server stops): a connection answering a
            // request closes after its answer (a stream's ends as the server stops), any other
            // at once (a stream told to make room too: it is `Closing` by then).
            _ = async { tokio::select! { () = state.closing() => {}, _ = stopped.changed() => {} } },
                if !stopping =>
            {
                if !matches!(state.phase(), Phase::Busy | Phase::Streaming) {
                    break;
                }
                conn.as_mut().graceful_shutdown();
                stopping = true;
            }
        }
    }
}

/// Marks the connection's request finished when dropped: with its answer's body, once written.
struct Finished(Arc<Connection>);

impl Drop for Finished {
    fn drop(&mut self) {
        self.0.request_finished();
    }
}

/// An answer's body that marks the request finished when hyper drops it.
struct Tracked {
    body: Body,
    _finished: Finished,
}

impl hyper::body::Body for Tracked {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, axum::Error>>> {
        Pin::new(&mut self.body).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.body.size_hint()
    }
}
