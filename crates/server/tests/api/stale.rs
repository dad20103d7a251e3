//! No stale read, ever: the load of issue 20 (`diagtui_testkit::soak`: 16 keep-alive clients on a
//! 2,000-object document, each writing only its own objects and checking every read of them),
//! then every object read back through the running server (`obj/all` and one GET each) and
//! again after a restart of the server on the same data.

use std::time::Duration;

use diagtui_server::{LocalServer, ServerOptions};
use diagtui_testkit::soak::{self, Kind, Shape, Target};

use crate::common::Harness;

/// The load: small enough for CI's two cores, long enough that reads, loads and commits
/// interleave thousands of times.
const SHAPE: Shape = Shape {
    objects: 2000,
    clients: 16,
    duration: Duration::from_secs(6),
};

#[tokio::test(flavor = "multi_thread")]
async fn every_acknowledged_write_reads_back_under_load_and_after_a_restart() {
    let h = Harness::new().await;
    let doc = soak::seed(&h.http, h.server.url(), &h.key(), &SHAPE).await;
    let target = Target {
        url: h.server.url().to_owned(),
        key: h.key(),
        doc,
    };
    let outcome = soak::run(&target, &SHAPE).await;
    assert_eq!(outcome.errors, 0, "failed requests");
    for kind in [Kind::Update, Kind::Bulk] {
        assert!(outcome.times.contains_key(&kind), "no {kind:?} was sent");
    }
    assert_eq!(
        outcome.stale_reads, 0,
        "reads during the load showed objects older than their last acknowledged write"
    );
    let (via_all, via_each) = soak::stale_objects(&target, &outcome.acked).await;
    assert_eq!(via_all, Vec::<String>::new(), "stale in obj/all");
    assert_eq!(via_each, Vec::<String>::new(), "stale read one by one");

    let Harness { server, dir, .. } = h;
    let location = server.location().clone();
    server.shutdown().await;
    let again = LocalServer::start_at(location, ServerOptions::default())
        .await
        .expect("the server starts again");
    let target = Target {
        url: again.url().to_owned(),
        key: again.api_key().to_owned(),
        ..target
    };
    let (via_all, via_each) = soak::stale_objects(&target, &outcome.acked).await;
    assert_eq!(
        via_all,
        Vec::<String>::new(),
        "stale in obj/all after a restart"
    );
    assert_eq!(
        via_each,
        Vec::<String>::new(),
        "stale one by one after a restart"
    );
    again.shutdown().await;
    drop(dir);
}
