//! Measures three DOT parser crates on diagtui's DOT test files and on one snippet per grammar
//! item: which each reads (accepts without an error; what it makes of it is not checked). For
//! docs/create-diagram.md: `cargo run --release -- ../../crates/layout/tests/data/dot`.
use std::convert::TryFrom;

fn snippets() -> Vec<(&'static str, &'static str)> {
    vec![
        ("strict digraph", "strict digraph { a -> b }"),
        ("undirected graph --", "graph { a -- b }"),
        (
            "node/edge/graph defaults",
            "digraph { node [shape=box]; edge [color=red]; graph [rankdir=LR]; a -> b }",
        ),
        ("ID = ID statement", "digraph { rankdir = LR; a }"),
        (
            "nested clusters",
            "digraph { subgraph cluster_a { subgraph cluster_b { a } } }",
        ),
        ("anonymous subgraph", "digraph { { rank=same; a b } }"),
        ("edge to subgraph", "digraph { a -> {b c} }"),
        ("edge chain", "digraph { a -> b -> c }"),
        ("ports", "digraph { a:p1:n -> b:s }"),
        ("HTML label", "digraph { a [label=<<b>x</b><br/>y>] }"),
        (
            "record label",
            "digraph { a [shape=record, label=\"{a|<p>b}\"] }",
        ),
        ("escaped quote", "digraph { a [label=\"say \\\"hi\\\"\"] }"),
        ("line continuation", "digraph { a [label=\"one\\\ntwo\"] }"),
        ("+ concatenation", "digraph { a [label=\"one\" + \"two\"] }"),
        ("// and /* */ comments", "digraph { // c\n a /* c */ }"),
        ("# lines", "# preprocessor line\ndigraph { a }"),
        ("CRLF", "digraph {\r\n a -> b\r\n}\r\n"),
        ("UTF-8 ids", "digraph { café -> 東京 }"),
        ("numeral ids", "digraph { 1 -> -2.5 -> .5 }"),
        (
            "attr list with ; and several lists",
            "digraph { a [x=1; y=2][z=3] }",
        ),
        ("keywords in any case", "DiGraph { NODE [shape=box] a }"),
        ("subgraph keyword alone", "digraph { subgraph { a } }"),
    ]
}

fn main() {
    let dir = std::env::args().nth(1).expect("data dir");
    let mut inputs: Vec<(String, String)> = snippets()
        .into_iter()
        .map(|(n, t)| (format!("item: {n}"), t.to_owned()))
        .collect();
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    for f in files {
        inputs.push((
            format!("file: {}", f.file_name().unwrap().to_string_lossy()),
            std::fs::read_to_string(&f).unwrap(),
        ));
    }
    let mut totals = [0usize; 3];
    println!("| input | dot-parser 0.6.1 | graphviz-rust 0.9.9 | layout-rs 0.1.3 |");
    println!("|---|---|---|---|");
    for (name, text) in &inputs {
        let a = dot_parser::ast::Graph::try_from(text.as_str()).is_ok();
        let b = graphviz_rust::parse(text).is_ok();
        let c = std::panic::catch_unwind(|| layout::gv::DotParser::new(text).process().is_ok())
            .unwrap_or(false);
        for (t, ok) in totals.iter_mut().zip([a, b, c]) {
            *t += ok as usize;
        }
        let m = |ok: bool| if ok { "reads" } else { "refuses" };
        println!("| {name} | {} | {} | {} |", m(a), m(b), m(c));
    }
    println!(
        "| **read** (of {}) | {} | {} | {} |",
        inputs.len(),
        totals[0],
        totals[1],
        totals[2]
    );
}
