//! `diagtui doc render`: the picture is drawn here from the content, to a file or stdout.

use diagtui_testkit::net::closed_url;
use diagtui_testkit::pictures::{png_size, svg_size};
use serde_json::json;

use super::{Env, run};

/// A document holding two joined components and one object that cannot be placed.
fn diagram(env: &Env) -> String {
    let doc = env.new_doc("Render me");
    let content = json!({
        "1a": {"type": "component", "data": {"componentId": "networking.nginx", "name": "gateway",
               "position": {"x": -4, "y": 0}, "meta": {"health": "down"}}},
        "1b": {"type": "component", "data": {"componentId": "database.postgres",
               "position": {"x": 4, "y": 0}}},
        "1c": {"type": "line-group", "data": {"anchors": [{"type": 1, "id": "1a", "index": 1},
               {"type": 1, "id": "1b", "index": 3}], "lines": [[0, 1]], "arrowAnchorIndices": {"1": true}}},
        "1d": {"type": "label", "data": {"text": "nowhere"}},
    });
    let file = env.file("content.json", &content.to_string());
    env.run(&["doc", "import", &doc, &file, "--yes"]).ok();
    doc
}

#[test]
fn render_writes_svg_to_stdout_and_files_by_extension() {
    let env = Env::start();
    let doc = diagram(&env);

    let svg = env
        .run(&["doc", "render", &doc, "--view", "2d"])
        .ok()
        .stdout;
    let (width, height) = svg_size(&svg);
    assert_eq!(width, 1400.0);
    assert!(height < 600.0, "two components side by side: {height}");
    for text in [">gateway<", ">postgres<", ">1 object could not be placed<"] {
        assert!(svg.contains(text), "{text}: {svg}");
    }
    let status = env
        .run(&[
            "doc",
            "render",
            &doc,
            "--view",
            "2D",
            "--status-key",
            "health",
        ])
        .ok();
    assert!(
        status.stdout.contains("#C00000"),
        "gateway is down by meta.health"
    );
    assert!(!svg.contains("#C00000"), "no status under meta.status");

    let path = |name: &str| env.dir().join(name).to_str().unwrap().to_owned();
    let png = path("web.png");
    let out = env.run(&["doc", "render", &doc, "-o", &png]).ok();
    assert_eq!(out.stdout, "");
    assert_eq!(png_size(&std::fs::read(&png).unwrap()).0, 1400);
    env.run(&[
        "doc", "render", &doc, "--width", "300", "--height", "200", "-o", &png,
    ])
    .ok();
    assert_eq!(png_size(&std::fs::read(&png).unwrap()), (300, 200));

    let svg_file = path("web.svg");
    env.run(&["doc", "render", &doc, "--width", "640", "-o", &svg_file])
        .ok();
    assert_eq!(
        svg_size(&std::fs::read_to_string(&svg_file).unwrap()).0,
        640.0
    );
    let named = path("picture.out");
    env.run(&["doc", "render", &doc, "--format", "PNG", "-o", &named])
        .ok();
    assert_eq!(png_size(&std::fs::read(&named).unwrap()).0, 1400);
}

#[test]
fn render_draws_3d_by_default_and_the_component_size_sets_the_scale() {
    let env = Env::start();
    let doc = diagram(&env);
    let run = |args: &[&str]| {
        let mut all = vec!["doc", "render", doc.as_str()];
        all.extend(args);
        env.run(&all).ok().stdout
    };
    let default = run(&[]);
    assert_eq!(default, run(&["--view", "3D"]));
    assert_ne!(default, run(&["--view", "2d"]));
    // 3D: the floor under one transform, the components as blocks with their titles.
    assert!(default.contains("<g transform=\"matrix("));
    assert!(default.contains(">gateway<") && default.contains(">postgres<"));
    let small = svg_size(&run(&["--view", "2d", "--component-size", "20"]));
    let large = svg_size(&run(&["--view", "2d", "--component-size", "40"]));
    assert!(
        (large.0 - 2.0 * small.0).abs() <= 2.0,
        "{small:?} {large:?}"
    );
    let out = env
        .run(&["doc", "render", &doc, "--component-size", "5000"])
        .fails(2);
    assert!(
        out.stderr.contains("--component-size: 5000 pixels"),
        "{out:?}"
    );
}

#[test]
fn render_refuses_bad_arguments_before_calling_the_server() {
    let dir = tempfile::tempdir().unwrap();
    let jpg = dir.path().join("web.jpg");
    let jpg = jpg.to_str().unwrap();
    let url = closed_url();
    for (args, says) in [
        (vec!["-o", jpg], "cannot tell the format of"),
        (vec!["--width", "0"], "--width"),
        (
            vec!["--height", "8193"],
            "must be a whole number from 1 to 8192",
        ),
        (vec!["--format", "gif"], "must be png or svg, got \"gif\""),
        (vec!["--view", "4d"], "must be 2D or 3D, got \"4d\""),
        (vec!["--component-size", "0"], "--component-size"),
    ] {
        let mut all = vec!["--url", &url, "--api-key", "k", "doc", "render", "DOC"];
        all.extend(args);
        let out = run(&all, None, &[]).fails(2);
        assert!(out.stderr.contains(says), "{says}: {out:?}");
    }
    assert!(!std::path::Path::new(jpg).exists());
}

#[test]
fn render_of_a_missing_document_is_the_api_s_error() {
    let env = Env::start();
    let out = env.run(&["doc", "render", "no-such-doc"]).fails(1);
    assert!(out.stderr.contains("DOC_NOT_FOUND"), "{out:?}");
}
