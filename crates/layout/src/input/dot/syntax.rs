//! DOT's grammar, read by recursive descent into statements: Graphviz's grammar as its
//! documentation gives it (`strict`, `graph`/`digraph`, node, edge and attribute statements,
//! `ID = ID`, subgraphs, ports). A token out of place is refused with its line and what was
//! expected there.

use super::lexer::{IdKind, Tok, Token};

/// An id as written: its text and kind.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Id {
    /// The text (a quoted string's without its quotes, an HTML string's without `<` `>`).
    pub text: String,
    /// How it was written.
    pub kind: IdKind,
}

/// An attribute `name = value`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Attr {
    /// Its name.
    pub name: String,
    /// Its value.
    pub value: Id,
}

/// A whole graph.
#[derive(Debug, Clone, PartialEq)]
pub struct Graph {
    /// `strict`: at most one edge between two nodes (in a direction, for a digraph).
    pub strict: bool,
    /// `digraph` rather than `graph`.
    pub directed: bool,
    /// Its name, if it has one.
    pub name: Option<String>,
    /// Its statements.
    pub body: Vec<Stmt>,
    /// The line of a second graph after this one, if the text holds one.
    pub more: Option<usize>,
}

/// Which defaults an attribute statement sets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    /// `graph [...]`: the (sub)graph's own attributes.
    Graph,
    /// `node [...]`.
    Node,
    /// `edge [...]`.
    Edge,
}

/// A subgraph: `subgraph NAME { ... }`, `subgraph { ... }` or `{ ... }`.
#[derive(Debug, Clone, PartialEq)]
pub struct Subgraph {
    /// Its name, if it has one.
    pub name: Option<String>,
    /// Its statements.
    pub body: Vec<Stmt>,
    /// The line it starts on.
    pub line: usize,
}

/// One end of an edge: a node (its port ignored) or a subgraph (all its nodes).
#[derive(Debug, Clone, PartialEq)]
pub enum End {
    /// A node's id.
    Node(String),
    /// A subgraph.
    Subgraph(Subgraph),
}

/// A statement, with the line it starts on.
#[derive(Debug, Clone, PartialEq)]
pub enum Stmt {
    /// `a [attrs]`.
    Node {
        /// The node's id.
        id: String,
        /// Its attributes.
        attrs: Vec<Attr>,
        /// Its line.
        line: usize,
    },
    /// `a -> b -> {c d} [attrs]`.
    Edge {
        /// The ends, in order (two or more).
        ends: Vec<End>,
        /// The attributes of every edge it makes.
        attrs: Vec<Attr>,
        /// Its line.
        line: usize,
    },
    /// `graph|node|edge [attrs]`, or `name = value` (a graph attribute).
    Defaults {
        /// What they apply to.
        target: Target,
        /// The attributes.
        attrs: Vec<Attr>,
        /// Its line.
        line: usize,
    },
    /// A subgraph standing alone.
    Subgraph(Subgraph),
}

/// Why the text is not DOT: the line and what was expected.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SyntaxError {
    /// The line (1-based).
    pub line: usize,
    /// What was found and what was expected.
    pub message: String,
}

/// Reads the tokens of one graph (the first, when there are more).
pub fn parse(tokens: &[Token]) -> Result<Graph, SyntaxError> {
    let mut p = Parser {
        tokens,
        at: 0,
        directed: false,
        depth: 0,
    };
    p.graph()
}

struct Parser<'a> {
    tokens: &'a [Token],
    at: usize,
    directed: bool,
    /// How many subgraphs are open around the next token.
    depth: usize,
}

/// The deepest nesting of subgraphs read (deeper input is refused rather than risking the
/// stack).
pub const MAX_DEPTH: usize = 100;

/// Whether `tok` is the keyword `word` (keywords are case-insensitive, and never quoted).
fn is_keyword(tok: Option<&Tok>, word: &str) -> bool {
    matches!(tok, Some(Tok::Id(text, IdKind::Plain)) if text.eq_ignore_ascii_case(word))
}

const KEYWORDS: [&str; 6] = ["strict", "graph", "digraph", "node", "edge", "subgraph"];

impl Parser<'_> {
    fn peek(&self) -> Option<&Tok> {
        self.tokens.get(self.at).map(|t| &t.tok)
    }

    fn peek2(&self) -> Option<&Tok> {
        self.tokens.get(self.at + 1).map(|t| &t.tok)
    }

    /// The line of the next token (else of the last one).
    fn line(&self) -> usize {
        self.tokens
            .get(self.at)
            .or(self.tokens.last())
            .map_or(1, |t| t.line)
    }

    fn eat(&mut self, tok: &Tok) -> bool {
        if self.peek() == Some(tok) {
            self.at += 1;
            true
        } else {
            false
        }
    }

    fn eat_keyword(&mut self, word: &str) -> bool {
        if is_keyword(self.peek(), word) {
            self.at += 1;
            true
        } else {
            false
        }
    }

    /// Refuses the next token, saying what was `expected` instead.
    fn expected<T>(&self, expected: &str) -> Result<T, SyntaxError> {
        let found = self
            .peek()
            .map_or("the end of the text".to_owned(), Tok::describe);
        Err(SyntaxError {
            line: self.line(),
            message: format!("{expected} was expected, not {found}"),
        })
    }

    fn expect(&mut self, tok: &Tok, expected: &str) -> Result<(), SyntaxError> {
        if self.eat(tok) {
            Ok(())
        } else {
            self.expected(expected)
        }
    }

    /// An id that is not a keyword.
    fn id(&mut self) -> Option<Id> {
        match self.peek() {
            Some(Tok::Id(text, kind)) => {
                if *kind == IdKind::Plain && KEYWORDS.iter().any(|k| text.eq_ignore_ascii_case(k)) {
                    return None;
                }
                let id = Id {
                    text: text.clone(),
                    kind: *kind,
                };
                self.at += 1;
                Some(id)
            }
            _ => None,
        }
    }

    fn graph(&mut self) -> Result<Graph, SyntaxError> {
        let strict = self.eat_keyword("strict");
        let directed = if self.eat_keyword("digraph") {
            true
        } else if self.eat_keyword("graph") {
            false
        } else {
            return self.expected(if strict {
                "`graph` or `digraph`"
            } else {
                "`graph`, `digraph` or `strict`"
            });
        };
        self.directed = directed;
        let name = self.id().map(|id| id.text);
        self.expect(&Tok::Open, "`{` (or the graph's name)")?;
        let body = self.statements()?;
        self.expect(&Tok::Close, "a statement or `}`")?;
        let more = self.peek().map(|_| self.line());
        if more.is_some()
            && !is_keyword(self.peek(), "graph")
            && !is_keyword(self.peek(), "digraph")
            && !is_keyword(self.peek(), "strict")
        {
            return self.expected("the end of the text (or another graph)");
        }
        Ok(Graph {
            strict,
            directed,
            name,
            body,
            more,
        })
    }

    /// Statements up to (not including) a `}`.
    fn statements(&mut self) -> Result<Vec<Stmt>, SyntaxError> {
        let mut body = Vec::new();
        while !matches!(self.peek(), Some(Tok::Close) | None) {
            body.push(self.statement()?);
            self.eat(&Tok::Semicolon);
        }
        Ok(body)
    }

    fn statement(&mut self) -> Result<Stmt, SyntaxError> {
        let line = self.line();
        for (word, target) in [
            ("graph", Target::Graph),
            ("node", Target::Node),
            ("edge", Target::Edge),
        ] {
            if self.eat_keyword(word) {
                let attrs = self.attr_lists()?;
                if attrs.is_none() {
                    return self.expected(&format!("`[` after `{word}`"));
                }
                return Ok(Stmt::Defaults {
                    target,
                    attrs: attrs.unwrap_or_default(),
                    line,
                });
            }
        }
        if self.peek2() == Some(&Tok::Equals) && matches!(self.peek(), Some(Tok::Id(..))) {
            let name = self.id().map(|id| id.text);
            let Some(name) = name else {
                return self.expected("a statement");
            };
            self.at += 1;
            let value = self.value()?;
            return Ok(Stmt::Defaults {
                target: Target::Graph,
                attrs: vec![Attr { name, value }],
                line,
            });
        }
        let first = self.end("a node id, a subgraph or `}`")?;
        if matches!(self.peek(), Some(Tok::Arrow | Tok::Line)) {
            let mut ends = vec![first];
            while let Some(op) = self.peek().cloned() {
                match (op, self.directed) {
                    (Tok::Arrow, true) | (Tok::Line, false) => {}
                    (Tok::Arrow, false) => {
                        return self.expected("`--` (edges of an undirected `graph`)");
                    }
                    (Tok::Line, true) => {
                        return self.expected("`->` (edges of a `digraph`)");
                    }
                    _ => break,
                }
                self.at += 1;
                let op = if self.directed { "`->`" } else { "`--`" };
                ends.push(self.end(&format!("a node id or a subgraph after {op}"))?);
            }
            let attrs = self.attr_lists()?.unwrap_or_default();
            return Ok(Stmt::Edge { ends, attrs, line });
        }
        match first {
            End::Subgraph(subgraph) => Ok(Stmt::Subgraph(subgraph)),
            End::Node(id) => {
                let attrs = self.attr_lists()?.unwrap_or_default();
                Ok(Stmt::Node { id, attrs, line })
            }
        }
    }

    /// A node id (with its port, read and dropped) or a subgraph; else a refusal saying that
    /// `expected` was expected.
    fn end(&mut self, expected: &str) -> Result<End, SyntaxError> {
        if is_keyword(self.peek(), "subgraph") || self.peek() == Some(&Tok::Open) {
            return self.subgraph().map(End::Subgraph);
        }
        let Some(id) = self.id() else {
            return self.expected(expected);
        };
        // A port: `:port`, `:port:compass` or `:compass`; ignored for the layout.
        for _ in 0..2 {
            if !self.eat(&Tok::Colon) {
                break;
            }
            if self.id().is_none() {
                return self.expected("a port name after `:`");
            }
        }
        Ok(End::Node(id.text))
    }

    fn subgraph(&mut self) -> Result<Subgraph, SyntaxError> {
        let line = self.line();
        let name = if self.eat_keyword("subgraph") {
            self.id().map(|id| id.text)
        } else {
            None
        };
        self.expect(&Tok::Open, "`{` (or the subgraph's name)")?;
        if self.depth == MAX_DEPTH {
            return Err(SyntaxError {
                line,
                message: format!("subgraphs are nested more than {MAX_DEPTH} deep"),
            });
        }
        self.depth += 1;
        let body = self.statements()?;
        self.depth -= 1;
        self.expect(&Tok::Close, "a statement or `}`")?;
        Ok(Subgraph { name, body, line })
    }

    fn value(&mut self) -> Result<Id, SyntaxError> {
        match self.id() {
            Some(id) => Ok(id),
            None => self.expected("a value after `=`"),
        }
    }

    /// `[a=b, c=d] [e=f]`: none when no `[` comes next.
    fn attr_lists(&mut self) -> Result<Option<Vec<Attr>>, SyntaxError> {
        let mut attrs = None;
        while self.eat(&Tok::OpenAttrs) {
            let list: &mut Vec<Attr> = attrs.get_or_insert_with(Vec::new);
            while !self.eat(&Tok::CloseAttrs) {
                let Some(name) = self.id() else {
                    return self.expected("an attribute name or `]`");
                };
                self.expect(&Tok::Equals, &format!("`=` after `{}`", name.text))?;
                let value = self.value()?;
                list.push(Attr {
                    name: name.text,
                    value,
                });
                if !self.eat(&Tok::Comma) {
                    self.eat(&Tok::Semicolon);
                }
            }
        }
        Ok(attrs)
    }
}

#[cfg(test)]
mod tests {
    use super::super::lexer::tokens;
    use super::*;

    fn graph(text: &str) -> Graph {
        parse(&tokens(text).unwrap()).unwrap()
    }

    fn refusal(text: &str) -> SyntaxError {
        parse(&tokens(text).unwrap()).unwrap_err()
    }

    #[test]
    fn headers() {
        let g = graph("strict digraph \"G 1\" {}");
        assert!(g.strict && g.directed);
        assert_eq!(g.name.as_deref(), Some("G 1"));
        let g = graph("GRAPH { }");
        assert!(!g.strict && !g.directed && g.name.is_none());
    }

    #[test]
    fn statements_of_every_kind() {
        let g = graph(
            "digraph {\n node [shape=box]; edge [color=red]\n graph [rankdir=LR]\n rankdir = TB\n \
             a [label=\"A\"][color=blue; style=filled]\n a:p1:n -> b:s -> {c d} [label=x]\n \
             subgraph cluster_x { e }\n { rank=same f g }\n subgraph { h }\n}",
        );
        assert_eq!(g.body.len(), 9);
        match &g.body[4] {
            Stmt::Node { id, attrs, line } => {
                assert_eq!((id.as_str(), attrs.len(), *line), ("a", 3, 5));
            }
            other => panic!("{other:?}"),
        }
        match &g.body[5] {
            Stmt::Edge { ends, attrs, line } => {
                assert_eq!(ends.len(), 3);
                assert_eq!(ends[0], End::Node("a".into()));
                assert_eq!(ends[1], End::Node("b".into()));
                assert!(matches!(&ends[2], End::Subgraph(s) if s.body.len() == 2));
                assert_eq!((attrs.len(), *line), (1, 6));
            }
            other => panic!("{other:?}"),
        }
        assert!(matches!(&g.body[6], Stmt::Subgraph(s) if s.name.as_deref() == Some("cluster_x")));
        assert!(matches!(&g.body[7], Stmt::Subgraph(s) if s.name.is_none() && s.body.len() == 3));
        assert!(matches!(
            &g.body[3],
            Stmt::Defaults {
                target: Target::Graph,
                line: 4,
                ..
            }
        ));
    }

    #[test]
    fn a_second_graph_is_seen() {
        let g = graph("digraph a { x }\ndigraph b { y }");
        assert_eq!(g.more, Some(2));
    }

    #[test]
    fn refusals_name_the_line_and_what_was_expected() {
        let deep = format!("digraph {{\n{}", "{".repeat(MAX_DEPTH + 1));
        for (text, line, expected) in [
            ("flowchart LR\n", 1, "`graph`, `digraph` or `strict`"),
            ("digraph {\n a -- b\n}", 2, "`->`"),
            ("graph {\n a -> b\n}", 2, "`--`"),
            ("digraph {\n a [label]\n}", 2, "`=` after `label`"),
            (
                "digraph {\n a ->\n}",
                3,
                "a node id or a subgraph after `->` was expected, not `}`",
            ),
            (
                "graph {\n a -- ;\n}",
                2,
                "a node id or a subgraph after `--`",
            ),
            ("digraph {\n = b\n}", 2, "a node id, a subgraph or `}`"),
            ("digraph {\n a\n", 2, "a statement or `}`"),
            ("digraph {\n node\n}", 3, "`[` after `node`"),
            ("digraph { a }\n}", 2, "the end of the text"),
            ("digraph {\n a:\n}", 3, "a port name"),
            ("digraph {\n a [x=]\n}", 2, "a value after `=`"),
            (deep.as_str(), 2, "nested more than"),
        ] {
            let e = refusal(text);
            assert_eq!(e.line, line, "{text}: {}", e.message);
            assert!(e.message.contains(expected), "{text}: {}", e.message);
        }
    }
}
