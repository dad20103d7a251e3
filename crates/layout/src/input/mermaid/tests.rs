//! The grammar item by item: what each construct becomes, what is noted, what is refused and
//! on which line.

use serde_json::{Map, Value, json};

use super::parse_mermaid;
use crate::input::{Parsed, RawEntry};
use crate::model::Direction;

fn parsed(text: &str) -> Parsed {
    parse_mermaid(text.as_bytes()).unwrap_or_else(|e| panic!("{text}\n=> {e}"))
}

fn entries(text: &str) -> Vec<RawEntry> {
    parsed(text).entries
}

fn get<'a>(entries: &'a [RawEntry], id: &str) -> &'a Map<String, Value> {
    &entries
        .iter()
        .find(|e| e.id == id)
        .unwrap_or_else(|| {
            let ids: Vec<&str> = entries.iter().map(|e| e.id.as_str()).collect();
            panic!("no {id} among {ids:?}")
        })
        .fields
}

fn ids(entries: &[RawEntry], kind: &str) -> Vec<String> {
    entries
        .iter()
        .filter(|e| e.fields["type"] == kind)
        .map(|e| e.id.clone())
        .collect()
}

fn refused_on(text: &str) -> String {
    let e = parse_mermaid(text.as_bytes()).unwrap_err();
    e.field.clone().unwrap_or_else(|| format!("no line: {e}"))
}

#[test]
fn headers_in_every_direction_and_none() {
    for (header, direction) in [
        ("flowchart TD", Some(Direction::TopBottom)),
        ("flowchart TB", Some(Direction::TopBottom)),
        ("graph BT", Some(Direction::BottomTop)),
        ("graph LR;", Some(Direction::LeftRight)),
        ("flowchart RL", Some(Direction::RightLeft)),
        ("graph", None),
        ("flowchart", None),
        ("flowchart-elk LR", Some(Direction::LeftRight)),
        ("graph >", Some(Direction::LeftRight)),
    ] {
        let p = parsed(&format!("{header}\n  a --> b\n"));
        assert_eq!(p.direction, direction, "{header}");
        assert_eq!(ids(&p.entries, "connection"), ["a->b"], "{header}");
    }
    assert_eq!(refused_on("flowchart XY\na\n"), "line 1");
    assert_eq!(refused_on("sequenceDiagram\n"), "line 1");
}

#[test]
fn front_matter_directives_and_comments() {
    let p = parsed(
        "---\ntitle: Orders\nconfig:\n  layout: elk\n  look: handDrawn\n  flowchart:\n    curve: basis\n---\n\
         %%{init: {\"theme\": \"dark\"}}%%\nflowchart LR\n%% a comment a --> b\n  a --> b\n",
    );
    assert_eq!(ids(&p.entries, "component"), ["a", "b"]);
    assert_eq!(p.notes.len(), 1, "{:?}", p.notes);
    assert_eq!(p.notes[0].line, Some(2));
    assert!(p.notes[0].text.contains("Orders"));
    // Lines keep their numbers after front matter.
    assert_eq!(
        refused_on("---\nconfig:\n  look: neo\n---\nflowchart\na --> [\n"),
        "line 6"
    );
    assert_eq!(refused_on("---\nconfig: x\nflowchart LR\n"), "line 1");
}

#[test]
fn bracket_shapes_pick_their_component() {
    let e = entries(
        "flowchart LR\n  a[Rect] --- b(Round) --- c([Stadium]) --- d[[Sub]] --- e[(DB)]\n  \
         f((Circle)) --- g>Flag] --- h{Decision} --- i{{Prepare}} --- j[/In/] --- k[\\Out\\]\n  \
         l[/Trap\\] --- m[\\Inv/] --- n(((Stop))) --- o\n",
    );
    for (id, component, label) in [
        ("a", "generic.server", "Rect"),
        ("b", "generic.server", "Round"),
        ("c", "generic.server", "Stadium"),
        ("d", "generic.processor", "Sub"),
        ("e", "generic.database", "DB"),
        ("f", "generic.connection", "Circle"),
        ("g", "generic.message-queue", "Flag"),
        ("h", "generic.gateway", "Decision"),
        ("i", "generic.processor", "Prepare"),
        ("j", "generic.block", "In"),
        ("k", "generic.block", "Out"),
        ("l", "generic.block", "Trap"),
        ("m", "generic.block", "Inv"),
        ("n", "generic.connection", "Stop"),
        ("o", "generic.server", "o"),
    ] {
        let f = get(&e, id);
        assert_eq!(
            (f["componentType"].as_str(), f["label"].as_str()),
            (Some(component), Some(label)),
            "{id}"
        );
    }
}

#[test]
fn shape_data_names_every_new_shape() {
    let p = parsed(
        "flowchart RL\n  A@{ shape: manual-file, label: \"File Handling\"}\n  B@{ shape: cyl }\n  \
         C@{ shape: docs, label: \"Multiple\n    Documents\" }\n  D[Old]@{ shape: hex }\n  \
         E@{ shape: cloud, label: Sky }\n  F@{ shape: blob }\n  G@{\n    shape: diam\n    label: \"Q?\"\n  } --> A\n",
    );
    let e = &p.entries;
    assert_eq!(get(e, "A")["label"], "File Handling");
    assert_eq!(get(e, "A")["componentType"], "generic.billboard");
    assert_eq!(get(e, "B")["componentType"], "generic.database");
    assert_eq!(get(e, "B")["label"], "B");
    assert_eq!(get(e, "C")["label"], "Multiple\nDocuments");
    assert_eq!(get(e, "D")["label"], "Old");
    assert_eq!(get(e, "D")["componentType"], "generic.processor");
    assert_eq!(get(e, "E")["componentType"], "generic.server");
    assert_eq!(get(e, "G")["componentType"], "generic.gateway");
    assert_eq!(get(e, "G->A")["arrowEnd"], true);
    let noted: Vec<(Option<usize>, bool)> = p
        .notes
        .iter()
        .map(|n| (n.line, n.text.contains("drawn as a box")))
        .collect();
    assert_eq!(noted, [(Some(7), true), (Some(8), true)]);
}

#[test]
fn labels_quoted_markdown_multiline_entities_html_icons() {
    let p = parsed(
        "flowchart LR\n  a(\"`The **cat**\n  in the hat`\") -- \"edge label\" --> b{{\"`The **dog**`\"}}\n  \
         c[\"A #quot;quote#quot; #9829;\"] --> d[\"x &amp; y&nbsp;z\"]\n  \
         e[Line one<br>two<br/>three<br />four] --> f[\"a\\nb\"]\n  \
         g[OTEL\n             SDK] --> h[\"<small>small</small> <b>bold</b>\"]\n  \
         i[fa:fa-car Car] --> j[\"This ❤ Unicode\"]\n",
    );
    let e = &p.entries;
    for (id, label) in [
        ("a", "The cat\nin the hat"),
        ("b", "The dog"),
        ("c", "A \"quote\" ♥"),
        ("d", "x & y z"),
        ("e", "Line one\ntwo\nthree\nfour"),
        ("f", "a\nb"),
        ("g", "OTEL\nSDK"),
        ("h", "small bold"),
        ("i", "Car"),
        ("j", "This ❤ Unicode"),
    ] {
        assert_eq!(get(e, id)["label"], label, "{id}");
    }
    assert_eq!(get(e, "a->b")["label"], "edge label");
    let icon = p.notes.iter().find(|n| n.text.contains("fa-car")).unwrap();
    assert_eq!(icon.line, Some(8));
}

#[test]
fn long_node_and_edge_texts_wrap_as_mermaid_draws_them_titles_do_not() {
    let e = entries(
        "flowchart TD\n  a[\"PostgreSQL primary database for the orders service\"] \
         -- an edge label longer than twenty-six characters --> b\n  \
         subgraph s [A subgraph title longer than twenty-six characters]\n    b\n  end\n",
    );
    assert_eq!(
        get(&e, "a")["label"],
        "PostgreSQL primary\ndatabase for the orders\nservice"
    );
    assert_eq!(get(&e, "a")["componentType"], "database.postgres");
    assert_eq!(
        get(&e, "a->b")["label"],
        "an edge label longer than\ntwenty-six characters"
    );
    assert_eq!(
        get(&e, "s")["label"],
        "A subgraph title longer than twenty-six characters"
    );
}

#[test]
fn every_link_kind() {
    let p = parsed(
        "flowchart LR\n  a --> b\n  b --- c\n  c -.-> d\n  d -.- e\n  e ==> f\n  f === g\n  g ~~~ h\n  \
         h --o i\n  i --x j\n  j <--> k\n  k o--o l\n  l x--x m\n  m ----> n\n  n -...-> o\n  o ====> p\n",
    );
    let e = &p.entries;
    let kind = |id: &str| {
        let f = get(e, id);
        (
            f["arrowStart"].as_bool().unwrap(),
            f["arrowEnd"].as_bool().unwrap(),
            f.get("lineDash").and_then(Value::as_str),
            f.get("lineWidth").and_then(Value::as_f64),
            f.get("invisible").is_some(),
            f.get("minLength").and_then(Value::as_u64),
        )
    };
    assert_eq!(kind("a->b"), (false, true, None, None, false, None));
    assert_eq!(kind("b->c"), (false, false, None, None, false, None));
    assert_eq!(
        kind("c->d"),
        (false, true, Some("dotted"), None, false, None)
    );
    assert_eq!(
        kind("d->e"),
        (false, false, Some("dotted"), None, false, None)
    );
    assert_eq!(kind("e->f"), (false, true, None, Some(0.175), false, None));
    assert_eq!(kind("f->g"), (false, false, None, Some(0.175), false, None));
    assert_eq!(kind("g->h"), (false, false, None, None, true, None));
    assert_eq!(kind("h->i"), (false, false, None, None, false, None));
    assert_eq!(kind("i->j"), (false, false, None, None, false, None));
    assert_eq!(kind("j->k"), (true, true, None, None, false, None));
    assert_eq!(kind("k->l"), (false, false, None, None, false, None));
    assert_eq!(kind("m->n"), (false, true, None, None, false, Some(3)));
    assert_eq!(
        kind("n->o"),
        (false, true, Some("dotted"), None, false, Some(3))
    );
    assert_eq!(
        kind("o->p"),
        (false, true, None, Some(0.175), false, Some(3))
    );
    let noted: Vec<Option<usize>> = p.notes.iter().map(|n| n.line).collect();
    assert_eq!(noted, [Some(9), Some(10), Some(12), Some(13)]);
    assert!(
        p.notes[2]
            .text
            .contains("circle ends are drawn as a plain end")
    );
}

#[test]
fn link_text_in_every_form() {
    let e = entries(
        "flowchart TD\n  A -->|Yes| B\n  B -- No ----> C\n  C -. maybe .-> D\n  D == heavy ==> E\n  \
         E -- \"parentRef\" --> F\n  F -->|\"(1) get\"| G\n  G --> |spaced| H\n",
    );
    for (id, label) in [
        ("A->B", "Yes"),
        ("B->C", "No"),
        ("C->D", "maybe"),
        ("D->E", "heavy"),
        ("E->F", "parentRef"),
        ("F->G", "(1) get"),
        ("G->H", "spaced"),
    ] {
        assert_eq!(get(&e, id)["label"], label, "{id}");
    }
    assert_eq!(get(&e, "B->C")["minLength"], 3);
    assert_eq!(get(&e, "C->D")["lineDash"], "dotted");
}

#[test]
fn chains_ampersands_and_ids_with_punctuation() {
    let e = entries(
        "flowchart LR\n   a --> b & c--> d\n  A & B --> C & D\n  CLI::parse-->core.v2-->my-node\n  \
         x -- text --> y -- text2 --> z\n  timer1(\"One\") ~~~\n  timer2(\"Two\")\n",
    );
    assert_eq!(
        ids(&e, "connection"),
        [
            "a->b",
            "a->c",
            "b->d",
            "c->d",
            "A->C",
            "A->D",
            "B->C",
            "B->D",
            "CLI::parse->core.v2",
            "core.v2->my-node",
            "x->y",
            "y->z",
            "timer1->timer2"
        ]
    );
    assert_eq!(get(&e, "y->z")["label"], "text2");
}

#[test]
fn edge_ids_attributes_and_repeated_pairs() {
    let p = parsed(
        "flowchart LR\n  A e1@--> B\n  e1@{ animate: true }\n  A --> B\n  A --> B\n  B --> A\n  \
         A & B e2@--> C & D\n  C e1@--> D\n",
    );
    let e = &p.entries;
    assert_eq!(ids(e, "component"), ["A", "B", "C", "D"]);
    assert_eq!(
        ids(e, "connection"),
        [
            "e1", "A->B", "A->B#2", "B->A", "A->C", "A->D", "e2", "B->D", "C->D"
        ]
    );
    assert!(p.notes.is_empty(), "{:?}", p.notes);
}

#[test]
fn subgraph_headers_in_every_form() {
    let e = entries(
        "flowchart TB\n  subgraph one\n    a1\n  end\n  subgraph ns [my-namespace]\n    a2\n  end\n  \
         subgraph sub[\"For each path\"]\n    a3\n  end\n  subgraph \"Quoted title\"\n    a4\n  end\n  \
         subgraph Service Diagram\n    a5\n  end\n  subgraph\n    a6\n  end\n  subgraph \"`**Md**`\"\n    a7\n  end\n",
    );
    for (group, member, label) in [
        ("one", "a1", Some("one")),
        ("ns", "a2", Some("my-namespace")),
        ("sub", "a3", Some("For each path")),
        ("subGraph3", "a4", Some("Quoted title")),
        ("subGraph4", "a5", Some("Service Diagram")),
        ("subGraph5", "a6", None),
        ("**Md**", "a7", Some("Md")),
    ] {
        assert_eq!(
            get(&e, group).get("label").and_then(Value::as_str),
            label,
            "{group}"
        );
        assert_eq!(get(&e, member)["groups"], json!([group]), "{member}");
    }
}

#[test]
fn nesting_and_directions() {
    let e = entries(
        "flowchart LR\n  subgraph TOP\n    direction TB\n    subgraph B1\n        direction RL\n        i1 -->f1\n    end\n    \
         subgraph B2\n        i2 -->f2\n    end\n  end\n  A --> TOP --> B\n  B1 --> B2\n",
    );
    assert_eq!(get(&e, "TOP")["direction"], "TB");
    assert_eq!(get(&e, "B1")["direction"], "RL");
    assert!(get(&e, "B2").get("direction").is_none());
    assert_eq!(get(&e, "B1")["groups"], json!(["TOP"]));
    assert_eq!(get(&e, "i1")["groups"], json!(["TOP", "B1"]));
    assert_eq!(get(&e, "B")["groups"], json!([]));
    assert_eq!(ids(&e, "component"), ["i1", "f1", "i2", "f2", "A", "B"]);
    assert_eq!(get(&e, "TOP->B")["from"], "TOP");
    assert_eq!(get(&e, "B1->B2")["to"], "B2");
}

#[test]
fn membership_follows_mermaids_rule() {
    // A node declared outside but linked inside moves in; the first subgraph to close that
    // mentions a node keeps it; nested subgraphs close first.
    let e = entries(
        "flowchart TB\n  c1-->a2\n  subgraph one\n  a1-->a2\n  end\n  subgraph two\n  b1-->b2\n  end\n  \
         subgraph three\n  c1-->c2\n  end\n  one --> two\n  three --> two\n  two --> c2\n  \
         subgraph outer\n    x --> a1\n    subgraph inner\n      x\n    end\n  end\n",
    );
    for (node, groups) in [
        ("c1", json!(["three"])),
        ("a2", json!(["one"])),
        ("a1", json!(["one"])),
        ("c2", json!(["three"])),
        ("x", json!(["outer", "inner"])),
    ] {
        assert_eq!(get(&e, node)["groups"], groups, "{node}");
    }
    assert_eq!(ids(&e, "group"), ["one", "two", "three", "outer", "inner"]);
}

#[test]
fn a_subgraph_whose_id_is_also_a_node_is_the_group() {
    let e = entries(
        "graph\n  A[Start] --> sub\n  sub --> L[\"Out\"]\n  subgraph sub[\"For each\"]\n    C --> D\n  end\n  \
         E ~~~ Worker\n  subgraph Worker\n    G --> F\n  end\n",
    );
    assert_eq!(ids(&e, "component"), ["A", "L", "C", "D", "E", "G", "F"]);
    assert_eq!(get(&e, "A->sub")["to"], "sub");
    assert_eq!(get(&e, "sub")["label"], "For each");
    assert_eq!(get(&e, "E->Worker")["invisible"], true);
}

#[test]
fn styles_classes_and_link_styles_become_colours() {
    let p = parsed(
        "flowchart LR\n  id1(Start)-->id2(Stop)\n  A:::foo & B:::bar --> C\n  \
         subgraph left[\"x\"]\n    n1\n  end\n  style id1 fill:#f9f,stroke:#333,stroke-width:4px\n  \
         style id2 fill:#bbf,stroke:#f66,stroke-width:2px,color:#fff,stroke-dasharray: 5 5\n  \
         classDef foo fill:#f00\n  classDef bar fill:green;\n  class C foo\n  \
         style left fill:#eee,stroke:#2962FF,color:white\n  linkStyle 0 stroke:#ff3,stroke-width:4px,color:red;\n  \
         linkStyle 1,2 stroke-dasharray: 3\n  linkStyle default stroke:DarkGray\n  linkStyle 9 stroke:red\n  \
         style n1 fill:blurple\n",
    );
    let e = &p.entries;
    assert_eq!(get(e, "id1")["primaryColor"], "#FF99FF");
    assert_eq!(get(e, "id2")["primaryColor"], "#BBBBFF");
    assert_eq!(get(e, "A")["primaryColor"], "#FF0000");
    assert_eq!(get(e, "B")["primaryColor"], "#008000");
    assert_eq!(get(e, "C")["primaryColor"], "#FF0000");
    let left = get(e, "left");
    assert_eq!(
        (
            &left["fillColor"],
            &left["lineColor"],
            &left["labelFontColor"]
        ),
        (&json!("#EEEEEE"), &json!("#2962FF"), &json!("#FFFFFF"))
    );
    let first = get(e, "id1->id2");
    assert_eq!(
        (&first["lineColor"], &first["lineWidth"]),
        (&json!("#FFFF33"), &json!(0.2))
    );
    assert_eq!(get(e, "A->C")["lineDash"], "dashed");
    assert_eq!(get(e, "B->C")["lineColor"], "#A9A9A9");
    let lines: Vec<Option<usize>> = p.notes.iter().map(|n| n.line).collect();
    assert_eq!(lines, [Some(16), Some(17)], "{:?}", p.notes);
}

#[test]
fn click_accessibility_and_component_types() {
    let e = entries(
        "flowchart LR\n  %% componentType api networking.haproxy\n  user --> api[\"API\"]\n  \
         click user callback \"Tooltip; with a semicolon\"\n  click api href \"https://example.com\" _blank\n  \
         accTitle: The title\n  accDescr {\n    long\n    description\n  }\n  api --> pg[(PostgreSQL)]\n",
    );
    assert_eq!(get(&e, "api")["componentType"], "networking.haproxy");
    assert_eq!(ids(&e, "component"), ["user", "api", "pg"]);
}

#[test]
fn refusals_name_their_line() {
    for (text, line) in [
        ("flowchart TD\n  a --> b\n  a ?? b\n", "line 3"),
        ("graph TD\nend\n", "line 2"),
        ("graph TD\na[open\n", "line 2"),
        ("graph TD\n%% componentType a\n", "line 2"),
        ("graph TD\n%% componentType zz generic.pc\na\n", "line 2"),
        ("graph TD\n  a -- never closed\n", "line 2"),
        ("graph TD\n  a -->|open b\n", "line 2"),
        ("graph TD\n  a --> \n", "line 2"),
        ("graph TD\n  subgraph x\n  a\n", "line 2"),
        ("graph TD\n  direction sideways\n", "line 2"),
        ("graph TD\n  a@{ shape: rect\n", "line 2"),
        ("graph TD\n  style\n", "line 2"),
    ] {
        assert_eq!(refused_on(text), line, "{text}");
    }
    assert!(parse_mermaid(b"\n\n").is_err());
}

#[test]
fn every_prefix_of_a_flowchart_is_read_or_refused_never_a_panic() {
    for text in [
        include_str!("../../../tests/data/mermaid/links.mmd"),
        include_str!("../../../tests/data/mermaid/shapes.mmd"),
        include_str!("../../../tests/data/mermaid/subgraphs.mmd"),
        "flowchart LR\n  é[\"ü #quot;x&amp\"] -- ❤ ==> ß@{ shape: cyl, label: \"`**m**`\" }\n",
    ] {
        for (at, _) in text.char_indices() {
            let _ = parse_mermaid(&text.as_bytes()[..at]);
        }
    }
}

#[test]
fn a_fill_the_pictures_do_not_show_is_noted() {
    let p = parsed(
        "flowchart LR\n  db[(PostgreSQL)] --> box[(Orders)]\n  cache[(Redis)]\n  \
         style db fill:#bbf\n  style box fill:#bbf\n  style cache fill:#fff\n",
    );
    assert_eq!(get(&p.entries, "db")["primaryColor"], "#BBBBFF");
    let noted: Vec<(Option<usize>, &str)> =
        p.notes.iter().map(|n| (n.line, n.text.as_str())).collect();
    // The product's fill is noted where the node is declared; the generic database shows its
    // fill, and a white fill is no colour of its own.
    assert_eq!(noted.len(), 1, "{noted:?}");
    assert_eq!(noted[0].0, Some(2));
    assert!(
        noted[0].1.starts_with("node db: its fill #BBBBFF is kept"),
        "{noted:?}"
    );
}
