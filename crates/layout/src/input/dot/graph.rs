//! The statements of a DOT graph carried out as Graphviz does: `node`, `edge` and `graph`
//! defaults scoped to their subgraph (a subgraph starts with its parent's), a node's defaults
//! taken when it is made, edges made between every node of each end (`a -> {b c}`), a
//! `strict` graph's repeated edges merged, a node put in every subgraph it is named in, and
//! a named subgraph named again reopened. Out comes the graph as data: nodes, subgraphs and
//! edges with their attributes and lines.

use std::collections::{HashMap, HashSet};

use super::syntax::{self, Attr, End, Id, Stmt, Target};

/// Attributes by name, the last value given winning.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Attrs(Vec<(String, Id)>);

impl Attrs {
    /// The value of `name`, if set.
    pub fn get(&self, name: &str) -> Option<&Id> {
        self.0.iter().find(|(n, _)| n == name).map(|(_, v)| v)
    }

    /// The text of `name`, if set.
    pub fn text(&self, name: &str) -> Option<&str> {
        self.get(name).map(|id| id.text.as_str())
    }

    /// Sets `name`, replacing its value.
    fn set(&mut self, attr: &Attr) {
        match self.0.iter_mut().find(|(n, _)| *n == attr.name) {
            Some(slot) => slot.1 = attr.value.clone(),
            None => self.0.push((attr.name.clone(), attr.value.clone())),
        }
    }

    fn extend(&mut self, attrs: &[Attr]) {
        for attr in attrs {
            self.set(attr);
        }
    }
}

/// A node: its name, attributes and the line it was first named on.
#[derive(Debug, Clone)]
pub struct Node {
    /// Its name (its id in the text).
    pub name: String,
    /// Its attributes (the defaults when it was made, then its own statements').
    pub attrs: Attrs,
    /// The line it was first named on.
    pub line: usize,
}

/// A subgraph (named or not), a cluster or not.
#[derive(Debug, Clone)]
pub struct Subgraph {
    /// Its name, if it has one.
    pub name: Option<String>,
    /// The subgraph it is in (none: the graph itself).
    pub parent: Option<usize>,
    /// Its own graph attributes (its parent's when it was made, then its own).
    pub attrs: Attrs,
    /// The nodes named in it or in its subgraphs (indices), in the order first named.
    pub members: Vec<usize>,
    /// The same nodes, to look up.
    held: HashSet<usize>,
    /// The line it starts on.
    pub line: usize,
}

impl Subgraph {
    /// Whether node `node` is in it.
    pub fn holds(&self, node: usize) -> bool {
        self.held.contains(&node)
    }

    fn add(&mut self, node: usize) {
        if self.held.insert(node) {
            self.members.push(node);
        }
    }

    /// A cluster: a name starting with `cluster` (any case), or `cluster=true`.
    pub fn is_cluster(&self) -> bool {
        let named = self.name.as_deref().is_some_and(|n| {
            n.get(..7)
                .is_some_and(|p| p.eq_ignore_ascii_case("cluster"))
        });
        named || self.attrs.text("cluster").is_some_and(is_true)
    }
}

/// Graphviz's reading of a boolean attribute.
pub fn is_true(value: &str) -> bool {
    let v = value.trim().to_ascii_lowercase();
    v == "true" || v == "yes" || v.parse::<i64>().is_ok_and(|n| n != 0)
}

/// An edge: its tail and head (node indices), attributes and line.
#[derive(Debug, Clone)]
pub struct Edge {
    /// Where it starts.
    pub tail: usize,
    /// Where it ends.
    pub head: usize,
    /// Its attributes (the defaults when it was made, then its statement's).
    pub attrs: Attrs,
    /// The line of its statement.
    pub line: usize,
}

/// A graph carried out.
#[derive(Debug, Clone, Default)]
pub struct Graph {
    /// `digraph` rather than `graph`.
    pub directed: bool,
    /// Its name, or empty.
    pub name: String,
    /// Its own attributes.
    pub attrs: Attrs,
    /// The line each of its attributes was set on.
    pub attr_lines: HashMap<String, usize>,
    /// The nodes, in the order first named.
    pub nodes: Vec<Node>,
    /// The subgraphs, in the order first opened.
    pub subgraphs: Vec<Subgraph>,
    /// The edges, in the order made.
    pub edges: Vec<Edge>,
    /// Subgraphs with `rank` set (their line), which the layout does not keep.
    pub ranks: Vec<usize>,
}

/// Defaults in force in one subgraph (or the graph).
#[derive(Clone, Default)]
struct Scope {
    node: Attrs,
    edge: Attrs,
    graph: Attrs,
    /// The subgraph (none: the graph itself).
    subgraph: Option<usize>,
}

/// Carries out a graph's statements.
pub fn build(parsed: &syntax::Graph) -> Graph {
    let mut b = Builder {
        graph: Graph {
            directed: parsed.directed,
            name: parsed.name.clone().unwrap_or_default(),
            ..Graph::default()
        },
        strict: parsed.strict,
        node_index: HashMap::new(),
        subgraph_index: HashMap::new(),
        edge_index: HashMap::new(),
    };
    let mut scope = Scope::default();
    b.statements(&parsed.body, &mut scope);
    b.graph.attrs = scope.graph;
    b.graph
}

struct Builder {
    graph: Graph,
    strict: bool,
    node_index: HashMap<String, usize>,
    subgraph_index: HashMap<String, usize>,
    /// For a strict graph: the edge between two nodes (in order for a digraph).
    edge_index: HashMap<(usize, usize), usize>,
}

impl Builder {
    fn statements(&mut self, body: &[Stmt], scope: &mut Scope) {
        for stmt in body {
            match stmt {
                Stmt::Node { id, attrs, line } => {
                    let node = self.node(id, *line, scope);
                    self.graph.nodes[node].attrs.extend(attrs);
                }
                Stmt::Edge { ends, attrs, line } => self.edges(ends, attrs, *line, scope),
                Stmt::Defaults {
                    target,
                    attrs,
                    line,
                } => match target {
                    Target::Node => scope.node.extend(attrs),
                    Target::Edge => scope.edge.extend(attrs),
                    Target::Graph => {
                        scope.graph.extend(attrs);
                        match scope.subgraph {
                            Some(s) => {
                                self.graph.subgraphs[s].attrs.extend(attrs);
                                if attrs.iter().any(|a| a.name == "rank") {
                                    self.graph.ranks.push(*line);
                                }
                            }
                            None => {
                                for attr in attrs {
                                    self.graph.attr_lines.insert(attr.name.clone(), *line);
                                }
                            }
                        }
                    }
                },
                Stmt::Subgraph(subgraph) => {
                    self.subgraph(subgraph, scope);
                }
            }
        }
    }

    /// The node named `name`, made with the scope's defaults when new, and put in the scope's
    /// subgraph and those around it.
    fn node(&mut self, name: &str, line: usize, scope: &Scope) -> usize {
        let index = match self.node_index.get(name) {
            Some(&index) => index,
            None => {
                let index = self.graph.nodes.len();
                self.graph.nodes.push(Node {
                    name: name.to_owned(),
                    attrs: scope.node.clone(),
                    line,
                });
                self.node_index.insert(name.to_owned(), index);
                index
            }
        };
        let mut at = scope.subgraph;
        while let Some(s) = at {
            let subgraph = &mut self.graph.subgraphs[s];
            subgraph.add(index);
            at = subgraph.parent;
        }
        index
    }

    /// Opens a subgraph (or reopens a named one), carries out its statements in a scope of
    /// its own, and answers the nodes it holds.
    fn subgraph(&mut self, subgraph: &syntax::Subgraph, outer: &Scope) -> Vec<usize> {
        let existing = subgraph
            .name
            .as_ref()
            .and_then(|n| self.subgraph_index.get(n).copied());
        let index = existing.unwrap_or_else(|| {
            let index = self.graph.subgraphs.len();
            self.graph.subgraphs.push(Subgraph {
                name: subgraph.name.clone(),
                parent: outer.subgraph,
                attrs: outer.graph.clone(),
                members: Vec::new(),
                held: HashSet::new(),
                line: subgraph.line,
            });
            if let Some(name) = &subgraph.name {
                self.subgraph_index.insert(name.clone(), index);
            }
            index
        });
        let mut scope = Scope {
            subgraph: Some(index),
            graph: self.graph.subgraphs[index].attrs.clone(),
            ..outer.clone()
        };
        self.statements(&subgraph.body, &mut scope);
        // The nodes of a reopened subgraph are in its parents too.
        let members = self.graph.subgraphs[index].members.clone();
        let mut at = outer.subgraph;
        while let Some(s) = at {
            for &m in &members {
                self.graph.subgraphs[s].add(m);
            }
            at = self.graph.subgraphs[s].parent;
        }
        members
    }

    /// An edge statement: every node of each end joined to every node of the next.
    fn edges(&mut self, ends: &[End], attrs: &[Attr], line: usize, scope: &Scope) {
        let sets: Vec<Vec<usize>> = ends
            .iter()
            .map(|end| match end {
                End::Node(name) => vec![self.node(name, line, scope)],
                End::Subgraph(subgraph) => self.subgraph(subgraph, scope),
            })
            .collect();
        for pair in sets.windows(2) {
            for &tail in &pair[0] {
                for &head in &pair[1] {
                    self.edge(tail, head, attrs, line, scope);
                }
            }
        }
    }

    fn edge(&mut self, tail: usize, head: usize, attrs: &[Attr], line: usize, scope: &Scope) {
        let key = if self.graph.directed || tail <= head {
            (tail, head)
        } else {
            (head, tail)
        };
        if self.strict
            && let Some(&existing) = self.edge_index.get(&key)
        {
            self.graph.edges[existing].attrs.extend(attrs);
            return;
        }
        let mut all = scope.edge.clone();
        all.extend(attrs);
        self.edge_index.insert(key, self.graph.edges.len());
        self.graph.edges.push(Edge {
            tail,
            head,
            attrs: all,
            line,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::super::{lexer::tokens, syntax::parse};
    use super::*;

    fn graph(text: &str) -> Graph {
        build(&parse(&tokens(text).unwrap()).unwrap())
    }

    fn names(g: &Graph, nodes: &[usize]) -> Vec<String> {
        nodes.iter().map(|&n| g.nodes[n].name.clone()).collect()
    }

    fn edges(g: &Graph) -> Vec<(String, String)> {
        g.edges
            .iter()
            .map(|e| (g.nodes[e.tail].name.clone(), g.nodes[e.head].name.clone()))
            .collect()
    }

    #[test]
    fn defaults_are_scoped_and_taken_when_a_node_is_made() {
        let g = graph(
            "digraph { node [shape=box] a\n subgraph s { node [shape=circle] b; a } c\n a [shape=egg] }",
        );
        let shape = |i: usize| g.nodes[i].attrs.text("shape").unwrap().to_owned();
        assert_eq!(
            (shape(0), shape(1), shape(2)),
            ("egg".into(), "circle".into(), "box".into())
        );
    }

    #[test]
    fn edges_to_subgraphs_lists_and_chains() {
        let g = graph("digraph { a -> {b c} -> d; {e f} -> subgraph s {g} [color=red] }");
        assert_eq!(
            edges(&g),
            [
                ("a", "b"),
                ("a", "c"),
                ("b", "d"),
                ("c", "d"),
                ("e", "g"),
                ("f", "g")
            ]
            .map(|(a, b)| (a.to_owned(), b.to_owned()))
        );
        assert_eq!(g.edges[5].attrs.text("color"), Some("red"));
    }

    #[test]
    fn strict_merges_repeated_edges() {
        let g = graph("strict digraph { a -> b; a -> b [color=red]; b -> a }");
        assert_eq!(g.edges.len(), 2);
        assert_eq!(g.edges[0].attrs.text("color"), Some("red"));
        let g = graph("strict graph { a -- b; b -- a }");
        assert_eq!(g.edges.len(), 1);
        let g = graph("digraph { a -> b; a -> b }");
        assert_eq!(g.edges.len(), 2);
    }

    #[test]
    fn membership_and_reopened_subgraphs() {
        let g = graph(
            "digraph { x; subgraph cluster_a { a; subgraph cluster_b { b -> x } }\n subgraph cluster_b { c } }",
        );
        assert_eq!(g.subgraphs.len(), 2);
        assert_eq!(names(&g, &g.subgraphs[0].members), ["a", "b", "x", "c"]);
        assert_eq!(names(&g, &g.subgraphs[1].members), ["b", "x", "c"]);
        assert!(g.subgraphs[1].is_cluster());
    }

    #[test]
    fn graph_attributes_are_inherited_by_later_subgraphs() {
        let g = graph(
            "digraph { subgraph s1 { a } label=\"T\"; rankdir=LR\n subgraph s2 { cluster=1; b } }",
        );
        assert_eq!(g.subgraphs[0].attrs.text("label"), None);
        assert_eq!(g.subgraphs[1].attrs.text("label"), Some("T"));
        assert!(!g.subgraphs[0].is_cluster() && g.subgraphs[1].is_cluster());
        assert_eq!(g.attrs.text("rankdir"), Some("LR"));
        assert_eq!(g.attr_lines["rankdir"], 1);
    }
}
