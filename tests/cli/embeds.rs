//! `diagtui doc embed` (see `docs/embeds.md`), and `serve --public-url` with the config file's
//! `[serve] public_url`.

use std::process::Stdio;

use diagtui_testkit::Bin;
use diagtui_testkit_server::serve::Server;

use crate::{Env, run};

#[test]
fn doc_embed_creates_lists_rotates_and_deletes() {
    let env = Env::start();
    let doc = env.new_doc("Shown elsewhere");
    let made = env
        .run(&["doc", "embed", "create", &doc, "--title", "May"])
        .ok()
        .json();
    let id = made["id"].as_str().unwrap().to_owned();
    let url = made["url"].as_str().unwrap();
    assert!(
        url.starts_with(&format!("{}/app/embed.html?id={id}", env.server().url())),
        "{made}"
    );
    let live = env.run(&["doc", "embed", "live", &doc]).ok().json();
    assert_eq!(live["key"].as_str().unwrap().len(), 32, "{live}");
    assert_eq!(env.run(&["doc", "embed", "live", &doc]).ok().json(), live);
    let rotated = env
        .run(&["doc", "embed", "live", &doc, "--rotate"])
        .ok()
        .json();
    assert_ne!(rotated["key"], live["key"]);

    let table = env.run(&["doc", "embed", "list", &doc]).ok().stdout;
    let lines: Vec<&str> = table.lines().collect();
    assert_eq!(lines.len(), 2, "{table}");
    assert!(lines[0].starts_with(&format!("live    {doc}  ")), "{table}");
    assert!(
        lines[0].ends_with(rotated["url"].as_str().unwrap()),
        "{table}"
    );
    assert!(lines[1].starts_with(&format!("static  {id}  ")), "{table}");
    assert!(lines[1].contains("  May  "), "{table}");
    let listed = env
        .run(&["doc", "embed", "list", &doc, "--json"])
        .ok()
        .json();
    assert_eq!(listed["embeds"][1]["url"], made["url"]);

    for args in [
        vec!["doc", "embed", "delete", &id],
        vec!["doc", "embed", "live", &doc, "--off"],
    ] {
        let out = env.run(&args).fails(2);
        assert!(out.stderr.contains("without --yes"), "{out:?}");
    }
    env.run(&["doc", "embed", "delete", &id, "--yes"]).ok();
    env.run(&["doc", "embed", "live", &doc, "--off", "--yes"])
        .ok();
    let table = env.run(&["doc", "embed", "list", &doc]).ok().stdout;
    assert_eq!(table, "(no embeds)\n");
    let out = env.run(&["doc", "embed", "delete", &id, "--yes"]).fails(1);
    assert!(out.stderr.contains("EMBED_NOT_FOUND"), "{out:?}");
    let unknown = "00000000-0000-4000-8000-000000000000";
    let out = env.run(&["doc", "embed", "create", unknown]).fails(1);
    assert!(out.stderr.contains("DOC_NOT_FOUND"), "{out:?}");
}

/// The URL of a static embed made on a served server.
fn static_url(server: &Server) -> String {
    let doc = run(&server.args(&["doc", "create", "Proxied"]), None, &[])
        .ok()
        .json()["docId"]
        .as_str()
        .unwrap()
        .to_owned();
    let made = run(&server.args(&["doc", "embed", "create", &doc]), None, &[])
        .ok()
        .json();
    made["url"].as_str().unwrap().to_owned()
}

#[test]
fn serve_takes_the_public_url_from_the_flag_else_the_config_file() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("config.toml");
    std::fs::write(
        &config,
        "[serve]\npublic_url = \"https://conf.example.com/\"\n",
    )
    .unwrap();
    let config = config.to_str().unwrap();
    let bin = Bin::new(env!("CARGO_BIN_EXE_diagtui"));

    let flag = Server::start_temp(&bin, &["--public-url", "https://flag.example.com/team/"]);
    let url = static_url(&flag);
    assert!(
        url.starts_with("https://flag.example.com/team/app/embed.html?id="),
        "{url}"
    );
    let from_file = Server::start_temp(&bin, &["--config", config]);
    let url = static_url(&from_file);
    assert!(
        url.starts_with("https://conf.example.com/app/embed.html?id="),
        "{url}"
    );
    let both = Server::start_temp(
        &bin,
        &[
            "--config",
            config,
            "--public-url",
            "http://flag.example.com",
        ],
    );
    let url = static_url(&both);
    assert!(
        url.starts_with("http://flag.example.com/app/embed.html?id="),
        "{url}"
    );
    let plain = Server::start_temp(&bin, &[]);
    let url = static_url(&plain);
    assert!(
        url.starts_with(&format!("{}/app/embed.html?id=", plain.url)),
        "{url}"
    );

    let bad = dir.path().join("bad.toml");
    std::fs::write(
        &bad,
        "theme = \"light\"\n[serve]\npublic_url = \"ftp://x\"\n",
    )
    .unwrap();
    let data = dir.path().join("data");
    for args in [
        vec!["--config", bad.to_str().unwrap()],
        vec!["--public-url", "diagrams.example.com"],
    ] {
        let out = bin
            .serve_command(&data)
            .args(&args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(
            stderr.contains("must start with http:// or https://"),
            "{stderr}"
        );
    }
}
