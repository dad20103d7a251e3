//! A team database for the PostgreSQL tests of the server's suite and of the binary's
//! (`tests/serve` includes this file): a new database with an account, and a store on it in
//! this process.

use std::time::Duration;

use diagtui_store::{Location, PgOptions, Store, StoreOptions};
use diagtui_testkit::postgres::shared;

/// A bound on waiting for what must happen far sooner, against hanging.
pub(crate) const PATIENCE: Duration = Duration::from_secs(60);

/// A new database with one account; its URL and the account's key.
pub(crate) fn team_database() -> (String, String) {
    let url = shared().new_database();
    let location = Location::Postgres(PgOptions {
        url: url.clone(),
        pool_size: 2,
    });
    let key = diagtui_server::create_account(&location, "team@example.com").unwrap();
    (url, key)
}

/// A store on the database at `url`, in this process: an instance without its HTTP layer.
pub(crate) async fn open_store(url: &str) -> Store<diagtui_store::AnyEngine> {
    let at = Location::Postgres(PgOptions {
        url: url.to_owned(),
        pool_size: 2,
    });
    Store::open_at(&at, StoreOptions::default()).await.unwrap()
}
