//! Following the server's change event streams for the app: the account's from the start, the
//! open document's while it is open, each in a task of its own that hands every bit of news to
//! the loop as a [`Live`] message. The streams reconnect by themselves (`client::Watch`).

use tokio::sync::mpsc::UnboundedSender;
use tokio::task::JoinHandle;

use crate::requests::liveness::{Follow, Live};
use diagtui_client::{Client, StreamEvent, Watch, Watched};

/// The streams followed.
pub struct Followers {
    client: Client,
    news: UnboundedSender<Live>,
    account: Option<JoinHandle<()>>,
    doc: Option<(String, JoinHandle<()>)>,
}

impl Followers {
    /// Follows nothing yet; news will go to `news`.
    pub fn new(client: Client, news: UnboundedSender<Live>) -> Followers {
        Followers {
            client,
            news,
            account: None,
            doc: None,
        }
    }

    /// Follows what the app asks: the account's stream, or another document's (none: stops
    /// following the one followed).
    pub fn follow(&mut self, what: Follow) {
        match what {
            Follow::Account => {
                if self.account.is_none() {
                    let watch = self.client.watch_account();
                    self.account = Some(spawn(watch, self.news.clone(), Live::Account));
                }
            }
            Follow::Doc(doc) => {
                if self.doc.as_ref().map(|(id, _)| id) == doc.as_ref() {
                    return;
                }
                if let Some((_, task)) = self.doc.take() {
                    task.abort();
                }
                if let Some(doc) = doc {
                    let watch = self.client.watch_doc(&doc);
                    let id = doc.clone();
                    let task = spawn(watch, self.news.clone(), move |watched| Live::Doc {
                        doc: id.clone(),
                        watched,
                    });
                    self.doc = Some((doc, task));
                }
            }
        }
    }
}

impl Drop for Followers {
    fn drop(&mut self) {
        if let Some(task) = self.account.take() {
            task.abort();
        }
        if let Some((_, task)) = self.doc.take() {
            task.abort();
        }
    }
}

/// A task handing a watch's news to the loop until the watch is over or the loop is gone.
fn spawn<T: StreamEvent + Send + Sync + 'static>(
    mut watch: Watch<T>,
    news: UnboundedSender<Live>,
    wrap: impl Fn(Watched<T>) -> Live + Send + 'static,
) -> JoinHandle<()> {
    tokio::spawn(async move {
        while let Some(watched) = watch.next().await {
            if news.send(wrap(watched)).is_err() {
                return;
            }
        }
    })
}
