//! Usage errors, connection errors, help, and the connection settings: flags, environment,
//! profiles and local mode.

use diagtui_testkit::net::closed_url;

use super::{Env, run};

#[test]
fn usage_errors_exit_2_before_any_server_is_contacted() {
    // A closed port: a usage error must be found without connecting (else it would exit 1).
    let url = closed_url();
    let base = ["--url", url.as_str(), "--api-key", "some-key-1234567890"];
    let cases: &[(&[&str], &str)] = &[
        (&["doc", "create"], "<TITLE>"),
        (&["doc", "frobnicate"], "frobnicate"),
        (&["obj", "where", "D", "status", "eq"], "2 words"),
        (
            &["obj", "where", "D", "status", "like", "x"],
            "unknown operator",
        ),
        (&["obj", "where", "D", "[1,2"], "not valid JSON"),
        (&["obj", "create", "D", "blob"], "unknown object type"),
        (&["obj", "create", "D", "label", "{nope"], "not valid JSON"),
        (&["obj", "update", "D", "O", "[1]"], "must be a JSON object"),
        (
            &["obj", "update", "D", "O", "@/nonexistent/p.json"],
            "cannot read",
        ),
        (&["obj", "bulk", "D", r#"{"o":1}"#], "objects:"),
        (&["obj", "set-where", "D", "a", "eq", "{}"], "2 words"),
        (
            &["doc", "import", "D", "/nonexistent/c.json", "--yes"],
            "cannot read",
        ),
        (&["doc", "delete", "D"], "without --yes"),
        (&["--timeout", "0", "doc", "list"], "not a timeout"),
    ];
    for (args, expected) in cases {
        let mut all = base.to_vec();
        all.extend_from_slice(args);
        let out = run(&all, None, &[]).fails(2);
        assert!(out.stderr.contains(expected), "{args:?}: {out:?}");
    }
}

#[test]
fn connection_errors_exit_1() {
    let url = closed_url();
    let key = "secret-key-0123456789";
    let out = run(&["--url", &url, "--api-key", key, "doc", "list"], None, &[]).fails(1);
    assert!(
        out.stderr
            .starts_with(&format!("diagtui: could not connect to {url}: ")),
        "{out:?}"
    );
    assert!(!out.stderr.contains(key));

    let out = run(&["--url", &url, "doc", "list"], None, &[]).fails(1);
    assert!(out.stderr.contains("--api-key"), "{out:?}");
    let out = run(
        &["--url", "ftp://x", "--api-key", key, "doc", "list"],
        None,
        &[],
    )
    .fails(1);
    assert!(out.stderr.contains("bad server URL"), "{out:?}");

    let env = Env::start();
    let url = env.server().url();
    let out = run(
        &[
            "--url",
            url,
            "--api-key",
            "wrong-key-0000000",
            "doc",
            "list",
        ],
        None,
        &[],
    );
    let out = out.fails(1);
    assert!(out.stderr.contains("HTTP 401 UNAUTHORIZED"), "{out:?}");
}

#[test]
fn every_command_has_help_with_an_example() {
    let commands: &[&[&str]] = &[
        &[],
        &["doc"],
        &["obj"],
        &["folder"],
        &["doc", "list"],
        &["doc", "show"],
        &["doc", "content"],
        &["doc", "create"],
        &["doc", "rename"],
        &["doc", "clone"],
        &["doc", "empty"],
        &["doc", "share"],
        &["doc", "delete"],
        &["doc", "import"],
        &["doc", "export"],
        &["obj", "get"],
        &["obj", "where"],
        &["obj", "create"],
        &["obj", "update"],
        &["obj", "bulk"],
        &["obj", "set-where"],
        &["obj", "delete"],
        &["folder", "list"],
        &["folder", "create"],
        &["folder", "rename"],
        &["folder", "delete"],
    ];
    for command in commands {
        let mut args = command.to_vec();
        args.push("--help");
        let out = run(&args, None, &[("DIAGTUI_API_KEY", "hidden-key-123456789")]).ok();
        assert!(out.stdout.contains("Example"), "{args:?}: {}", out.stdout);
        assert!(
            out.stdout.contains(
                &format!("diagtui {}", command.join(" "))
                    .trim_end()
                    .to_owned()
            )
        );
        assert!(!out.stdout.contains("hidden-key"), "{args:?}");
    }
}

#[test]
fn environment_and_profiles_name_the_server() {
    let env = Env::start();
    let server = env.server();
    let doc = env.new_doc("Found");

    let out = run(
        &["doc", "show", &doc],
        None,
        &[
            ("DIAGTUI_URL", server.url()),
            ("DIAGTUI_API_KEY", server.api_key()),
        ],
    );
    assert_eq!(out.ok().json()["title"], "Found");

    let config = env.file(
        "config.toml",
        &format!(
            "[profiles.default]\nurl = \"{url}\"\napi_key = \"{key}\"\n\n[profiles.other]\nurl = \"{url}\"\napi_key = \"not-the-key-0000000\"\ntimeout = 5\n",
            url = server.url(),
            key = server.api_key()
        ),
    );
    let with_config = [("DIAGTUI_CONFIG", config.as_str())];
    let out = run(&["doc", "show", &doc], None, &with_config);
    assert_eq!(out.ok().json()["title"], "Found");
    let out = run(
        &["--profile", "other", "doc", "show", &doc],
        None,
        &with_config,
    )
    .fails(1);
    assert!(out.stderr.contains("UNAUTHORIZED"), "{out:?}");
    let out = run(
        &[
            "--profile",
            "other",
            "--api-key",
            server.api_key(),
            "doc",
            "show",
            &doc,
        ],
        None,
        &with_config,
    );
    assert_eq!(
        out.ok().json()["title"],
        "Found",
        "flags win over the profile"
    );
    let out = run(&["--profile", "nope", "doc", "list"], None, &with_config).fails(1);
    assert!(out.stderr.contains("no profile \"nope\""), "{out:?}");
}

#[test]
fn with_nothing_configured_the_local_server_runs_in_process() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let data = data.to_str().unwrap();
    let out = run(&["--data-dir", data, "doc", "create", "Local"], None, &[]).ok();
    let doc = out.json()["docId"].as_str().unwrap().to_owned();
    let out = run(&["doc", "show", &doc], None, &[("DIAGTUI_DATA_DIR", data)]);
    let details = out.ok().json();
    assert_eq!(details["title"], "Local");
    assert!(details["user"]["email"].is_string());
}

#[test]
fn connection_flags_are_refused_where_nothing_connects() {
    let out = run(&["serve", "--url", "http://127.0.0.1:1"], None, &[]).fails(2);
    assert!(
        out.stderr
            .contains("--url does not apply to `diagtui serve`"),
        "{out:?}"
    );
    let out = run(
        &["--api-key", "k", "account", "create", "a@example.com"],
        None,
        &[],
    )
    .fails(2);
    assert!(out.stderr.contains("--api-key does not apply"), "{out:?}");
}

#[test]
fn a_config_file_named_by_the_variable_or_the_flag_must_exist() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("typo.toml");
    let missing = missing.to_str().unwrap();
    let data = dir.path().join("data");
    let data = data.to_str().unwrap();
    let env = [("DIAGTUI_CONFIG", missing), ("DIAGTUI_DATA_DIR", data)];
    for args in [&["doc", "list"][..], &["keys"][..], &[][..]] {
        let out = run(args, None, &env).fails(2);
        assert!(
            out.stderr.contains(&format!(
                "the config file {missing} (DIAGTUI_CONFIG) does not exist"
            )),
            "{args:?}: {out:?}"
        );
    }
    let out = run(&["--config", missing, "doc", "list"], None, &[]).fails(2);
    assert!(
        out.stderr.contains(&format!(
            "the config file {missing} (--config) does not exist"
        )),
        "{out:?}"
    );
    // The flag wins over the variable; a command that reads no config refuses the flag.
    let config = dir.path().join("config.toml");
    std::fs::write(&config, "[keys.objects]\ndelete = \"x\"\n").unwrap();
    let config = config.to_str().unwrap();
    let out = run(&["keys", "--config", config], None, &env).ok();
    assert!(
        out.stdout
            .starts_with(&format!("Keys read from {config} (--config)\n")),
        "{out:?}"
    );
    let args = ["account", "create", "x@example.com", "--config", config];
    let out = run(&args, None, &[]).fails(2);
    assert!(
        out.stderr
            .contains("--config does not apply to `diagtui account`, which reads no config file"),
        "{out:?}"
    );
}
