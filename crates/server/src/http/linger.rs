//! Closing a connection whose client may still be sending. A request refused before its body
//! (or the rest of its head) was read (413, 414, 431, ...) is answered at once; closing the
//! socket then, with bytes of the request still arriving, makes the kernel answer them with a
//! reset, which can destroy the answer before the client has read it. So after an answer that
//! closes the connection, or when unread bytes wait, the answer is ended (FIN) and what arrives
//! is read and dropped until the client closes, up to [`DRAIN_BYTES`], for at most
//! [`DRAIN_TIME`] and only while something arrives every [`DRAIN_GAP`]; then the socket is
//! closed.

use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// The most bytes of a refused request read and dropped before closing: more than a client
/// sends past the body limit by mistake (say 20 MB to a 16 MiB limit).
pub const DRAIN_BYTES: usize = 64 << 20;
/// The longest time spent reading and dropping them.
pub const DRAIN_TIME: Duration = Duration::from_secs(30);
/// The longest wait for more of them.
pub const DRAIN_GAP: Duration = Duration::from_secs(2);

/// Closes a connection the server is done with, draining it first when the client may still
/// be sending: after an answer that `refused` the rest of a request, or while bytes wait.
pub async fn close(mut socket: TcpStream, refused: bool) {
    if !refused && !unread(&socket) {
        return;
    }
    let _ = socket.shutdown().await;
    let mut buffer = vec![0u8; 64 << 10];
    let mut left = DRAIN_BYTES;
    let until = tokio::time::Instant::now() + DRAIN_TIME;
    while left > 0 {
        let next = until.min(tokio::time::Instant::now() + DRAIN_GAP);
        match tokio::time::timeout_at(next, socket.read(&mut buffer)).await {
            Ok(Ok(read)) if read > 0 => left = left.saturating_sub(read),
            _ => return,
        }
    }
}

/// Whether bytes the server has not read wait on the socket.
#[cfg(unix)]
#[allow(unsafe_code, reason = "FFI: recv")]
fn unread(socket: &TcpStream) -> bool {
    use std::os::fd::AsRawFd;
    let mut byte = 0u8;
    // SAFETY: `recv` writes at most one byte, into `byte` on this stack; `MSG_PEEK` leaves it
    // queued and `MSG_DONTWAIT` keeps the call from blocking.
    let peeked = unsafe {
        libc::recv(
            socket.as_raw_fd(),
            (&raw mut byte).cast(),
            1,
            libc::MSG_PEEK | libc::MSG_DONTWAIT,
        )
    };
    peeked > 0
}

/// Whether bytes the server has not read may wait on the socket: assumed, without a way to
/// look.
#[cfg(not(unix))]
fn unread(_socket: &TcpStream) -> bool {
    true
}
