//! Graphviz DOT (`text/vnd.graphviz`), read as Graphviz reads it: [`lexer`] splits the text
//! into tokens, [`syntax`] reads them by DOT's grammar (a token out of place is refused with
//! its line and what was expected), [`graph`] carries the statements out (scoped defaults,
//! edges to subgraphs, `strict`), [`entries`] makes components of nodes, groups of clusters
//! and connections of edges, noting what cannot be drawn. Label text is [`text`]'s, colours
//! [`colour`]'s. The rules in words: docs/create-diagram.md, "DOT graphs".

mod colour;
mod entries;
mod graph;
mod lexer;
mod syntax;
mod text;

use super::Parsed;
use crate::error::{LayoutError, LayoutResult};

/// Reads a DOT graph into raw entries, its direction and notes.
pub fn parse_dot(body: &[u8]) -> LayoutResult<Parsed> {
    let text = std::str::from_utf8(body)
        .map_err(|e| LayoutError::input(format!("the body is not valid UTF-8: {e}")))?;
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let refuse =
        |line: usize, message: String| LayoutError::setting(&format!("line {line}"), message);
    let tokens = lexer::tokens(text).map_err(|e| refuse(e.line, e.message))?;
    if tokens.is_empty() {
        return Err(LayoutError::input(
            "the body holds no graph (`digraph { ... }` or `graph { ... }`)",
        ));
    }
    let parsed = syntax::parse(&tokens).map_err(|e| refuse(e.line, e.message))?;
    let graph = graph::build(&parsed);
    let mut notes = entries::Notes::default();
    if let Some(line) = parsed.more {
        notes.add(
            Some(line),
            "the text holds more than one graph: only the first is drawn",
        );
    }
    let (entries, direction) = entries::entries(&graph, &mut notes);
    Ok(Parsed {
        entries,
        direction,
        notes: notes.into_vec(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// One snippet per grammar item (the same as scripts/dot-parser-comparison measures the
    /// parser crates with): the item, the text, the entry it gives and one of its fields, and
    /// that field's value as JSON.
    const GRAMMAR_ITEMS: [(&str, &str, &str, &str, &str); 22] = [
        (
            "strict",
            "strict digraph { a -> b; a -> b }",
            "a->b",
            "arrowEnd",
            "true",
        ),
        ("--", "graph { a -- b }", "a->b", "arrowEnd", "false"),
        (
            "defaults",
            "digraph { node [shape=cylinder]; edge [color=red]; a -> b }",
            "a->b",
            "lineColor",
            r##""#FF0000""##,
        ),
        (
            "ID = ID",
            "digraph { label = \"T\"; a }",
            "a",
            "label",
            r#""a""#,
        ),
        (
            "nested clusters",
            "digraph { subgraph cluster_a { subgraph cluster_b { a } } }",
            "a",
            "groups",
            r#"["cluster_a", "cluster_b"]"#,
        ),
        (
            "anonymous subgraph",
            "digraph { { rank=same; a b } }",
            "b",
            "groups",
            "[]",
        ),
        (
            "edge to subgraph",
            "digraph { a -> {b c} }",
            "a->c",
            "to",
            r#""c""#,
        ),
        ("chain", "digraph { a -> b -> c }", "b->c", "from", r#""b""#),
        ("ports", "digraph { a:p1:n -> b:s }", "a->b", "to", r#""b""#),
        (
            "HTML label",
            "digraph { a [label=<<b>x</b><br/>y>] }",
            "a",
            "label",
            r#""x\ny""#,
        ),
        (
            "record label",
            "digraph { a [shape=record, label=\"{a|<p>b}\"] }",
            "a",
            "label",
            r#""a\nb""#,
        ),
        (
            "escaped quote",
            "digraph { a [label=\"say \\\"hi\\\"\"] }",
            "a",
            "label",
            r#""say \"hi\"""#,
        ),
        (
            "continuation",
            "digraph { a [label=\"one\\\ntwo\"] }",
            "a",
            "label",
            r#""onetwo""#,
        ),
        (
            "+",
            "digraph { a [label=\"one\" + \"two\"] }",
            "a",
            "label",
            r#""onetwo""#,
        ),
        (
            "comments",
            "digraph { // c\n a /* c */ }",
            "a",
            "label",
            r#""a""#,
        ),
        (
            "# lines",
            "# preprocessor line\ndigraph { a }",
            "a",
            "label",
            r#""a""#,
        ),
        (
            "CRLF",
            "digraph {\r\n a -> b\r\n}\r\n",
            "a->b",
            "from",
            r#""a""#,
        ),
        (
            "UTF-8",
            "digraph { café -> 東京 }",
            "café->東京",
            "to",
            r#""東京""#,
        ),
        (
            "numerals",
            "digraph { 1 -> -2.5 -> .5 }",
            "-2.5->.5",
            "to",
            r#"".5""#,
        ),
        (
            "attribute lists",
            "digraph { a [label=x; color=red][shape=box] }",
            "a",
            "label",
            r#""x""#,
        ),
        (
            "keywords in any case",
            "DiGraph { NODE [label=n] a }",
            "a",
            "label",
            r#""n""#,
        ),
        (
            "subgraph alone",
            "digraph { subgraph { a } }",
            "a",
            "groups",
            "[]",
        ),
    ];

    /// Each grammar item read, and what it must give.
    #[test]
    fn every_grammar_item_reads() {
        for (item, text, id, field, value) in GRAMMAR_ITEMS {
            let value: serde_json::Value = serde_json::from_str(value).expect("JSON");
            let parsed = parse_dot(text.as_bytes()).unwrap_or_else(|e| panic!("{item}: {e}"));
            let entry = parsed
                .entries
                .iter()
                .find(|e| e.id == id)
                .unwrap_or_else(|| panic!("{item}: no {id} in {:?}", parsed.entries));
            assert_eq!(entry.fields.get(field), Some(&value), "{item}");
        }
    }

    /// The notes of reading `text`: (line, text).
    fn notes_of(text: &[u8]) -> Vec<(Option<usize>, String)> {
        let parsed = parse_dot(text).unwrap();
        parsed.notes.into_iter().map(|n| (n.line, n.text)).collect()
    }

    #[test]
    fn a_fill_the_pictures_do_not_show_is_noted() {
        let notes = notes_of(
            b"digraph {\n node [style=filled, fillcolor=white]\n a [label=Redis]\n \
              b [label=Kafka, fillcolor=gold]\n c [label=Orders, fillcolor=gold]\n}",
        );
        assert_eq!(notes.len(), 1, "{notes:?}");
        assert_eq!(notes[0].0, Some(4));
        assert!(notes[0].1.contains("node b: its fill #FFD700"), "{notes:?}");
    }

    #[test]
    fn notes_name_their_lines() {
        let notes = notes_of(
            b"digraph {\n a -> a\n b [shape=star]\n c [shape=blob]\n a -> b [xlabel=x, lhead=cluster_x]\n a -> c [minlen=0, color=\"/blues9/3\"]\n subgraph cluster_e { }\n}\ndigraph { }",
        );
        for (line, words) in [
            (9, "more than one graph"),
            (3, "shape=star has no likeness"),
            (4, "shape=blob is not a Graphviz shape"),
            (5, "xlabel"),
            (5, "lhead"),
            (6, "minlen=0"),
            (6, "/blues9/3"),
            (7, "cluster_e\" holds no node"),
        ] {
            assert!(
                notes
                    .iter()
                    .any(|(l, t)| *l == Some(line) && t.contains(words)),
                "{words} at line {line}: {notes:?}"
            );
        }
    }

    #[test]
    fn refusals_name_their_lines() {
        for (text, line) in [
            ("digraph {\n a -> b\n c -- d\n}", "line 3"),
            ("digraph {\n a [label=\"open\n}\n", "line 2"),
            ("digraph {\n a [label=<open\n}\n", "line 2"),
            ("digraph {\n a\n\n", "line 2"),
            ("sequenceDiagram\n", "line 1"),
        ] {
            let e = parse_dot(text.as_bytes()).unwrap_err();
            assert_eq!(e.field.as_deref(), Some(line), "{text}: {e}");
        }
        assert!(parse_dot(b"  // nothing\n").is_err());
        assert!(parse_dot(b"\xff").is_err());
    }

    #[test]
    fn a_point_is_named_empty_so_that_it_has_no_title() {
        let parsed =
            parse_dot(b"digraph { j [shape=point]; k [shape=point, label=K]; j -> k }").unwrap();
        let get = |id: &str| &parsed.entries.iter().find(|e| e.id == id).unwrap().fields;
        assert_eq!(get("j").get("name"), Some(&json!("")));
        assert_eq!(get("j").get("label"), None);
        assert_eq!(
            get("k").get("name"),
            Some(&json!("")),
            "a point draws no label"
        );
    }

    #[test]
    fn styles_colours_and_arrows() {
        let parsed = parse_dot(
            b"digraph { rankdir=BT\n subgraph cluster_x { label=<<b>X</b>>; style=\"filled,dashed\"; fillcolor=\"#abc\"; color=red; fontcolor=navy; penwidth=2; a }\n \
              a [style=filled, color=gold, shape=cylinder]\n a -> b [style=\"bold,dotted\", dir=both, arrowtail=none, minlen=3, id=e1]\n \
              b -> a [style=invis, penwidth=3, dir=back]\n b -> a [arrowhead=none]\n b [componentType=\"database.postgresql\"] }",
        )
        .unwrap();
        let get = |id: &str| &parsed.entries.iter().find(|e| e.id == id).unwrap().fields;
        assert_eq!(parsed.direction, Some(crate::model::Direction::BottomTop));
        let x = get("cluster_x");
        assert_eq!(
            (
                &x["label"],
                &x["fillColor"],
                &x["lineColor"],
                &x["labelFontColor"],
                &x["lineWidth"],
                &x["lineDash"]
            ),
            (
                &json!("X"),
                &json!("#AABBCC"),
                &json!("#FF0000"),
                &json!("#000080"),
                &json!(0.1),
                &json!("dashed")
            )
        );
        let a = get("a");
        let database = crate::catalogue::component_id("a", crate::catalogue::Shape::Cylinder);
        assert_eq!(
            (&a["primaryColor"], &a["componentType"]),
            (&json!("#FFD700"), &json!(database))
        );
        assert_eq!(get("b")["componentType"], "database.postgresql");
        let e1 = get("e1");
        assert_eq!(
            (
                &e1["arrowStart"],
                &e1["arrowEnd"],
                &e1["lineWidth"],
                &e1["lineDash"],
                &e1["minLength"]
            ),
            (
                &json!(false),
                &json!(true),
                &json!(0.1),
                &json!("dotted"),
                &json!(3)
            )
        );
        let back = get("b->a");
        assert_eq!(
            (
                &back["invisible"],
                &back["arrowStart"],
                &back["arrowEnd"],
                &back["lineWidth"]
            ),
            (&json!(true), &json!(true), &json!(false), &json!(0.15))
        );
        let second = get("b->a#2");
        assert_eq!(
            (&second["arrowStart"], &second["arrowEnd"]),
            (&json!(false), &json!(false))
        );
    }
}
