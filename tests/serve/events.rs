//! The event streams and the binary: a write by the CLI in local mode on the data dir a server
//! serves reaches the server's streams as a resync.

use crate::BIN;
use crate::common::Harness;
use crate::stream::Stream;

#[tokio::test(flavor = "multi_thread")]
async fn a_write_by_another_process_on_the_data_dir_is_a_resync() {
    if crate::engine::POSTGRES {
        eprintln!("skipped on PostgreSQL: there is no data dir (other instances: api/postgres.rs)");
        return;
    }
    let h = Harness::new().await;
    let doc = h.new_doc("Shared file").await;
    let mut stream = Stream::doc(&h, &doc, None).await;
    stream.expect("current").await;
    let output = std::process::Command::new(BIN)
        .args(["doc", "rename", &doc, "Renamed by the CLI", "--data-dir"])
        .arg(h.dir.path())
        .env_remove("DIAGTUI_URL")
        .env_remove("DIAGTUI_API_KEY")
        .env_remove("DIAGTUI_DATA_DIR")
        .env("DIAGTUI_CONFIG", "/dev/null")
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    let (_, resync) = stream.expect("resync").await;
    assert_eq!(resync["reason"], "elsewhere");
}
