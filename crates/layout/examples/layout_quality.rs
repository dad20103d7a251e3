//! Our layout against Graphviz dot's on the same graphs: for each input file (a folder: its
//! files; the format by the extension: `.mmd` Mermaid, `.dot`/`.gv` DOT, `.json`, `.csv`), lays
//! it out, writes the same graph (nodes, links, clusters, taken from the checked entries) as
//! DOT, has `dot -Tjson` lay that out, and prints the measures of both (diagtui_layout::quality)
//! per file and summed. Run by scripts/layout-quality.sh:
//! `cargo run --release -p diagtui-layout --example layout_quality -- FILES|DIRS`.

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use diagtui_layout::geometry::Rect;
use diagtui_layout::model::{Direction, End, Model};
use diagtui_layout::quality::{Drawing, Measures};
use diagtui_layout::{Format, Settings, check, lay_out_parsed};
use serde_json::Value;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.is_empty() {
        eprintln!("usage: layout_quality FILES|DIRS");
        std::process::exit(2);
    }
    let files = files_of(&args);
    let has_dot = Command::new("dot")
        .arg("-V")
        .stderr(Stdio::null())
        .status()
        .is_ok();
    if !has_dot {
        println!("note: Graphviz dot is not installed: only our figures are printed");
    }
    println!(
        "{:<44} {:>24} | {:>24} | {:>6} {:>6}",
        "file",
        "ours: X thr ovl aln flow% out sib lbl",
        "dot: X thr ovl aln flow% out sib lbl",
        "ms",
        "dot ms"
    );
    let (mut ours_sum, mut dot_sum) = (Measures::default(), Measures::default());
    let (mut laid, mut refused, mut slowest) = (0, 0, 0.0f64);
    for file in &files {
        let name = file
            .file_name()
            .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
        let Some(format) = format_of(file) else {
            println!("{name:<44} no reader for this format yet");
            refused += 1;
            continue;
        };
        let body = std::fs::read(file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        let started = Instant::now();
        let result = format.parse(&body).and_then(|parsed| {
            lay_out_parsed(parsed.clone(), &Settings::default()).map(|l| (parsed, l))
        });
        let ms = started.elapsed().as_secs_f64() * 1000.0;
        let (parsed, laid_out) = match result {
            Ok(r) => r,
            Err(e) => {
                println!("{name:<44} refused: {e}");
                refused += 1;
                continue;
            }
        };
        laid += 1;
        slowest = slowest.max(ms);
        let model = check::check(parsed.entries, parsed.direction.unwrap_or_default())
            .expect("laid out, so checked");
        let drawing = Drawing::of_objects(&model, &laid_out.objects);
        let ours = drawing.measure(&model);
        if let Some(dir) = std::env::var_os("LAYOUT_QUALITY_SVG") {
            let out = Path::new(&dir).join(format!("{name}.svg"));
            std::fs::write(&out, svg(&model, &drawing))
                .unwrap_or_else(|e| panic!("{}: {e}", out.display()));
        }
        ours_sum.add(&ours);
        let (dot_text, dot_ms) = if has_dot {
            let started = Instant::now();
            match dot_drawing(&model) {
                Ok(d) => {
                    let ms = started.elapsed().as_secs_f64() * 1000.0;
                    if let Some(dir) = std::env::var_os("LAYOUT_QUALITY_SVG") {
                        let out = Path::new(&dir).join(format!("{name}.dot.svg"));
                        std::fs::write(&out, svg(&model, &d))
                            .unwrap_or_else(|e| panic!("{}: {e}", out.display()));
                    }
                    let m = d.measure(&model);
                    dot_sum.add(&m);
                    (row(&m), format!("{ms:.1}"))
                }
                Err(e) => (format!("dot failed: {e}"), String::new()),
            }
        } else {
            (String::new(), String::new())
        };
        println!(
            "{name:<44} {} | {dot_text} | {ms:>6.1} {dot_ms:>6}",
            row(&ours)
        );
    }
    println!(
        "{:<44} {} | {} |",
        format!("SUM over {laid} laid out ({refused} refused)"),
        row(&ours_sum),
        if has_dot {
            row(&dot_sum)
        } else {
            String::new()
        }
    );
    println!("slowest layout: {slowest:.1} ms (a debug build is much slower than --release)");
}

/// The files the arguments name: a file itself, a folder its files of a known format, by name.
fn files_of(args: &[String]) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = Vec::new();
    for a in args {
        let p = PathBuf::from(a);
        if p.is_dir() {
            let mut inside: Vec<PathBuf> = std::fs::read_dir(&p)
                .unwrap_or_else(|e| panic!("{a}: {e}"))
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| format_of(p).is_some() || is_dot(p))
                .collect();
            inside.sort();
            files.extend(inside);
        } else {
            files.push(p);
        }
    }
    files
}

/// A plain picture of a drawing (boxes, areas, lines, names), to look at what the measures
/// count: written per file into the folder `LAYOUT_QUALITY_SVG` names, when set (ours as
/// `NAME.svg`, dot's as `NAME.dot.svg`). The picture is 1,200 pixels on its longer side,
/// scaled to what the drawing covers, so dot's points and our cells both fill it.
fn svg(model: &Model, d: &Drawing) -> String {
    const SIDE: f64 = 1200.0;
    let (mut x0, mut y0, mut x1, mut y1) = (f64::MAX, f64::MAX, f64::MIN, f64::MIN);
    let mut cover = |x: f64, y: f64| {
        (x0, y0, x1, y1) = (x0.min(x), y0.min(y), x1.max(x), y1.max(y));
    };
    for r in d.groups.iter().chain(&d.components).flatten() {
        cover(r.x0, r.y0);
        cover(r.x1, r.y1);
    }
    for p in d.links.iter().flatten().flatten() {
        cover(p.0, p.1);
    }
    let scale = SIDE * 0.95 / (x1 - x0).max(y1 - y0).max(1.0);
    let (left, top) = (x0 - SIDE * 0.025 / scale, y0 - SIDE * 0.025 / scale);
    let (at_x, at_y) = (|v: f64| (v - left) * scale, |v: f64| (v - top) * scale);
    let mut out = format!(
        "<svg xmlns='http://www.w3.org/2000/svg' width='{SIDE}' height='{SIDE}' \
         style='background:white;font:7px sans-serif'>\n"
    );
    let rect = |r: &Rect, style: &str| {
        format!(
            "<rect x='{}' y='{}' width='{}' height='{}' style='{style}'/>\n",
            at_x(r.x0),
            at_y(r.y0),
            (r.x1 - r.x0) * scale,
            (r.y1 - r.y0) * scale
        )
    };
    for r in d.groups.iter().flatten() {
        out += &rect(r, "fill:#eef;stroke:#99c");
    }
    for (c, r) in d.components.iter().enumerate() {
        let Some(r) = r else { continue };
        out += &rect(r, "fill:#ddd;stroke:#555");
        let name = model.components[c].label.as_deref().unwrap_or("");
        for (i, line) in name.lines().enumerate() {
            let _ = writeln!(
                out,
                "<text x='{}' y='{}' text-anchor='middle'>{}</text>",
                at_x((r.x0 + r.x1) / 2.0),
                at_y(r.y1) + 8.0 * (i + 1) as f64,
                line.replace('&', "&amp;").replace('<', "&lt;")
            );
        }
    }
    for (l, centre) in d.labels.iter().enumerate() {
        let (Some((x, y)), Some(text)) = (centre, &model.links[l].label) else {
            continue;
        };
        let _ = writeln!(
            out,
            "<text x='{}' y='{}' text-anchor='middle' fill='#06c'>{}</text>",
            at_x(*x),
            at_y(*y) + 2.5,
            text.replace('&', "&amp;").replace('<', "&lt;")
        );
    }
    for line in d.links.iter().flatten() {
        let points: Vec<String> = line
            .iter()
            .map(|p| format!("{},{}", at_x(p.0), at_y(p.1)))
            .collect();
        let _ = writeln!(
            out,
            "<polyline points='{}' style='fill:none;stroke:#c06;stroke-width:1'/>",
            points.join(" ")
        );
    }
    out + "</svg>\n"
}

/// One row of measures.
fn row(m: &Measures) -> String {
    format!(
        "{:>3} {:>3} {:>3} {:>3} {:>5.1} {:>3} {:>3} {:>3}",
        m.crossings,
        m.through,
        m.overlapping,
        m.along,
        m.following_percent(),
        m.outside,
        m.sibling_overlaps,
        m.astray
    )
}

fn is_dot(p: &Path) -> bool {
    matches!(p.extension().and_then(|e| e.to_str()), Some("dot" | "gv"))
}

/// The format of a file by its extension (DOT once a reader for `text/vnd.graphviz` exists).
fn format_of(p: &Path) -> Option<Format> {
    match p.extension()?.to_str()? {
        "mmd" => Some(Format::Mermaid),
        "json" => Some(Format::Json),
        "csv" => Some(Format::Csv),
        "dot" | "gv" => Format::from_media_type("text/vnd.graphviz"),
        _ => None,
    }
}

fn quote(s: &str) -> String {
    format!(
        "\"{}\"",
        s.replace('\\', "\\\\")
            .replace('"', "\\\"")
            .replace('\n', "\\n")
    )
}

/// The model as DOT: components as boxes with their labels, groups as clusters (nested), links
/// as edges (to a group: to its first member, clipped at the cluster), invisible ones `invis`.
fn to_dot(model: &Model) -> String {
    let rankdir = match model.direction {
        Direction::TopBottom => "TB",
        Direction::BottomTop => "BT",
        Direction::LeftRight => "LR",
        Direction::RightLeft => "RL",
    };
    let mut out =
        format!("digraph G {{\n  compound=true;\n  rankdir={rankdir};\n  node [shape=box];\n");
    let mut children: Vec<Vec<usize>> = vec![Vec::new(); model.groups.len() + 1];
    for (g, group) in model.groups.iter().enumerate() {
        children[group.parent.map_or(0, |p| p + 1)].push(g);
    }
    fn cluster(
        model: &Model,
        children: &[Vec<usize>],
        slot: usize,
        indent: usize,
        out: &mut String,
    ) {
        let pad = "  ".repeat(indent);
        for (c, comp) in model.components.iter().enumerate() {
            if comp.group.map_or(0, |g| g + 1) == slot {
                let label = comp.label.as_deref().unwrap_or(&comp.id);
                let _ = writeln!(out, "{pad}n{c} [label={}];", quote(label));
            }
        }
        for &g in &children[slot] {
            let _ = writeln!(out, "{pad}subgraph cluster_{g} {{");
            if let Some(l) = &model.groups[g].label {
                let _ = writeln!(out, "{pad}  label={};", quote(&l.text));
            }
            cluster(model, children, g + 1, indent + 1, out);
            let _ = writeln!(out, "{pad}}}");
        }
    }
    cluster(model, &children, 0, 1, &mut out);
    for (l, link) in model.links.iter().enumerate() {
        let (Some(a), Some(b)) = (member(model, link.from), member(model, link.to)) else {
            continue;
        };
        if a == b {
            continue;
        }
        let mut attrs = vec![format!("lid={l}")];
        if let End::Group(g) = link.from {
            attrs.push(format!("ltail=cluster_{g}"));
        }
        if let End::Group(g) = link.to {
            attrs.push(format!("lhead=cluster_{g}"));
        }
        if link.invisible {
            attrs.push("style=invis".into());
        }
        if link.min_length > 1 {
            attrs.push(format!("minlen={}", link.min_length));
        }
        if let Some(text) = &link.label {
            attrs.push(format!("label={}", quote(text)));
        }
        let _ = writeln!(out, "  n{a} -> n{b} [{}];", attrs.join(", "));
    }
    out.push_str("}\n");
    out
}

/// The component a link end stands for in DOT: itself, or a group's first member.
fn member(model: &Model, e: End) -> Option<usize> {
    match e {
        End::Component(c) => Some(c),
        End::Group(g) => model.components.iter().position(|c| {
            let mut at = c.group;
            while let Some(x) = at {
                if x == g {
                    return true;
                }
                at = model.groups[x].parent;
            }
            false
        }),
    }
}

fn numbers(s: &str) -> Vec<f64> {
    s.split(',').filter_map(|v| v.trim().parse().ok()).collect()
}

/// Graphviz dot's drawing of the model (points, y turned to grow downwards).
fn dot_drawing(model: &Model) -> Result<Drawing, String> {
    let mut child = Command::new("dot")
        .arg("-Tjson")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| e.to_string())?;
    child
        .stdin
        .take()
        .expect("piped")
        .write_all(to_dot(model).as_bytes())
        .map_err(|e| e.to_string())?;
    let output = child.wait_with_output().map_err(|e| e.to_string())?;
    if !output.status.success() {
        return Err(String::from_utf8_lossy(&output.stderr).into_owned());
    }
    let json: Value = serde_json::from_slice(&output.stdout).map_err(|e| e.to_string())?;
    let mut d = Drawing {
        components: vec![None; model.components.len()],
        groups: vec![None; model.groups.len()],
        links: vec![None; model.links.len()],
        labels: vec![None; model.links.len()],
        tolerance: 0.2,
    };
    let mut node_of_gvid = std::collections::HashMap::new();
    for o in json["objects"].as_array().into_iter().flatten() {
        let name = o["name"].as_str().unwrap_or("");
        if let Some(g) = name
            .strip_prefix("cluster_")
            .and_then(|g| g.parse::<usize>().ok())
        {
            if let [x0, y0, x1, y1] = numbers(o["bb"].as_str().unwrap_or(""))[..] {
                d.groups[g] = Some(Rect {
                    x0,
                    y0: -y1,
                    x1,
                    y1: -y0,
                });
            }
        } else if let Some(c) = name.strip_prefix('n').and_then(|c| c.parse::<usize>().ok()) {
            if let ([x, y], Some(w), Some(h)) = (
                &numbers(o["pos"].as_str().unwrap_or(""))[..],
                o["width"].as_str().and_then(|v| v.parse::<f64>().ok()),
                o["height"].as_str().and_then(|v| v.parse::<f64>().ok()),
            ) {
                d.components[c] = Some(Rect::centred(*x, -y, w * 72.0, h * 72.0));
            }
            if let Some(id) = o["_gvid"].as_u64() {
                node_of_gvid.insert(id, c);
            }
        }
    }
    for e in json["edges"].as_array().into_iter().flatten() {
        let Some(l) = e["lid"].as_str().and_then(|v| v.parse::<usize>().ok()) else {
            continue;
        };
        if model.links[l].invisible {
            continue;
        }
        let Some(points) = e["_draw_"]
            .as_array()
            .into_iter()
            .flatten()
            .find(|op| op["op"] == "b")
            .and_then(|op| op["points"].as_array())
        else {
            continue;
        };
        let pts: Vec<(f64, f64)> = points
            .iter()
            .filter_map(|p| Some((p[0].as_f64()?, -p[1].as_f64()?)))
            .collect();
        d.links[l] = Some(sample_beziers(&pts));
        if let [x, y] = numbers(e["lp"].as_str().unwrap_or(""))[..] {
            d.labels[l] = Some((x, -y));
        }
    }
    Ok(d)
}

/// A polyline along a chain of cubic Bézier pieces (p0, c1, c2, p1, c1, c2, p2, ...).
fn sample_beziers(p: &[(f64, f64)]) -> Vec<(f64, f64)> {
    let mut out = vec![p[0]];
    let mut i = 0;
    while i + 3 < p.len() {
        let (a, b, c, d) = (p[i], p[i + 1], p[i + 2], p[i + 3]);
        for k in 1..=8 {
            let t = k as f64 / 8.0;
            let u = 1.0 - t;
            let f = |a: f64, b: f64, c: f64, d: f64| {
                u * u * u * a + 3.0 * u * u * t * b + 3.0 * u * t * t * c + t * t * t * d
            };
            out.push((f(a.0, b.0, c.0, d.0), f(a.1, b.1, c.1, d.1)));
        }
        i += 3;
    }
    out
}
