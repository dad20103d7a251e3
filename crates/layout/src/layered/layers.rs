//! Layer assignment: each node's layer, every edge spanning at least its minimum length.
//! Longest path first (each node as high as its predecessors allow), then a few passes that
//! move each node within the room its edges leave towards the side with more edges, which
//! shortens the edges as Graphviz's network simplex does, in a good approximation.

use std::cmp::Reverse;
use std::collections::HashMap;

/// How many passes move the nodes.
const PASSES: usize = 8;

/// The most layers a diagram may have along its flow and still fit the grid's 100 cells:
/// each layer holds a node (a component is two cells deep) and half a cell lies between
/// layers, so 40 at most; past 67 (a cell and a half a layer), layers bounded across the flow
/// stop moving nodes down. The diagram is too long whatever more they do, and each move that
/// pushes a node's successors counts the lines passing every layer again: a random 1,000-node
/// graph spent over a quarter of an hour there, 600 nodes 17 s.
const MOST_LAYERS: usize = 67;

/// An edge for layering: from, to, the least number of layers it spans.
pub(crate) type Span = (usize, usize, usize);

/// The layer of each of `n` nodes (0 at the top), for an acyclic graph.
pub(crate) fn layers(n: usize, edges: &[Span]) -> Vec<usize> {
    let mut out: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut inn: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (e, &(from, to, _)) in edges.iter().enumerate() {
        out[from].push(e);
        inn[to].push(e);
    }
    let order = topological(n, edges, &out, &inn);
    let mut rank = vec![0i64; n];
    for &v in &order {
        for &e in &out[v] {
            let (_, to, len) = edges[e];
            rank[to] = rank[to].max(rank[v] + len as i64);
        }
    }
    let top = rank.iter().copied().max().unwrap_or(0);
    for pass in 0..PASSES {
        let mut moved = false;
        let forward: Box<dyn Iterator<Item = &usize>> = if pass % 2 == 0 {
            Box::new(order.iter().rev())
        } else {
            Box::new(order.iter())
        };
        for &v in forward {
            let lo = inn[v]
                .iter()
                .map(|&e| rank[edges[e].0] + edges[e].2 as i64)
                .max();
            let hi = out[v]
                .iter()
                .map(|&e| rank[edges[e].1] - edges[e].2 as i64)
                .min();
            let pull = out[v].len() as i64 - inn[v].len() as i64;
            let target = match pull.signum() {
                1 => hi.unwrap_or(top),
                -1 => lo.unwrap_or(0),
                _ => continue,
            };
            if target != rank[v] {
                rank[v] = target;
                moved = true;
            }
        }
        if !moved {
            break;
        }
    }
    let least = rank.iter().copied().min().unwrap_or(0);
    rank.into_iter().map(|r| (r - least) as usize).collect()
}

/// The layer of each of `n` nodes when no layer may hold more than `bound` of breadth (each
/// node's `breadth` with its gap, each line passing a layer `dummy`, the lines marked in
/// `shared` that leave one node one `dummy` for all, as they pass it as one). From the unbounded
/// layers, top down: while a layer is too broad, one of its nodes moves one layer down. First
/// a node that moves no other (its lines below all have a layer to spare, a sink first of
/// all), taken from the largest family of siblings there, so that a wide fan-out folds into
/// the layers under its source; only when none can, the node with the fewest lines below,
/// pushing what it feeds down with it, and the diagram grows longer. A layer always keeps
/// one node.
pub(crate) fn layers_bounded(
    n: usize,
    edges: &[Span],
    breadth: &[f64],
    dummy: f64,
    shared: &[bool],
    bound: f64,
) -> Vec<usize> {
    let mut rank = layers(n, edges);
    let mut out: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut inn: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (e, &(from, to, _)) in edges.iter().enumerate() {
        out[from].push(e);
        inn[to].push(e);
    }
    let mut passing = Passing::new(edges, shared, dummy);
    let mut used = passing.breadths(&rank, breadth);
    let mut by_layer = nodes_by_layer(&rank, used.len());
    // The family of a node: its first source above (none: a family of its own).
    let family = |v: usize| inn[v].first().map(|&e| edges[e].0);
    let mut r = 0;
    while r < by_layer.len() && by_layer.len() <= MOST_LAYERS {
        let mut members = std::mem::take(&mut by_layer[r]);
        let mut siblings: HashMap<usize, usize> = HashMap::new();
        for f in members.iter().filter_map(|&v| family(v)) {
            *siblings.entry(f).or_default() += 1;
        }
        while used[r] > bound && members.len() > 1 {
            let free = |v: usize| out[v].iter().all(|&e| rank[edges[e].1] > r + edges[e].2);
            let weight = |v: usize| {
                let family_size = family(v).map_or(0, |f| siblings[&f]);
                (family_size, out[v].is_empty(), v)
            };
            let chosen = (0..members.len())
                .filter(|&i| free(members[i]))
                .max_by_key(|&i| weight(members[i]));
            let at = chosen.unwrap_or_else(|| {
                (0..members.len())
                    .min_by_key(|&i| (out[members[i]].len(), Reverse(members[i])))
                    .expect("a layer with two nodes at least")
            });
            let v = members.swap_remove(at);
            if let Some(f) = family(v) {
                *siblings.get_mut(&f).expect("counted") -= 1;
            }
            if chosen.is_some() {
                if by_layer.len() <= r + 1 {
                    by_layer.push(Vec::new());
                    used.push(0.0);
                }
                used[r] -= breadth[v];
                used[r + 1] += breadth[v];
                for &e in &inn[v] {
                    passing.add(e, r, &mut used);
                }
                for &e in out[v].iter().filter(|&&e| rank[edges[e].1] > r + 1) {
                    passing.remove(e, r + 1, &mut used);
                }
                rank[v] = r + 1;
                by_layer[r + 1].push(v);
            } else {
                let before = rank.clone();
                push_down(v, r + 1, &mut rank, &out, edges);
                passing.follow(&before, &rank, breadth, [&inn, &out], &mut used);
                let below = nodes_by_layer(&rank, used.len());
                by_layer.resize(used.len(), Vec::new());
                by_layer[r + 1..].clone_from_slice(&below[r + 1..]);
            }
        }
        r += 1;
    }
    rank
}

/// The lines passing each layer, counted as the layers' breadth: a `dummy` for each line, one
/// for all the shared lines that leave one node.
struct Passing<'a> {
    edges: &'a [Span],
    shared: &'a [bool],
    dummy: f64,
    /// How many lines pass a layer as one: (owner, layer) -> lines, the owner a shared
    /// line's upper end, else the line itself (past the nodes' indices).
    lines: HashMap<(usize, usize), usize>,
}

impl<'a> Passing<'a> {
    fn new(edges: &'a [Span], shared: &'a [bool], dummy: f64) -> Passing<'a> {
        Passing {
            edges,
            shared,
            dummy,
            lines: HashMap::new(),
        }
    }

    /// Who a line passes a layer as: its upper end when it shares, else itself.
    fn owner(&self, e: usize) -> usize {
        if self.shared[e] {
            self.edges[e].0
        } else {
            usize::MAX - e
        }
    }

    /// Line `e` passes `layer` now.
    fn add(&mut self, e: usize, layer: usize, used: &mut [f64]) {
        let lines = self.lines.entry((self.owner(e), layer)).or_default();
        *lines += 1;
        if *lines == 1 {
            used[layer] += self.dummy;
        }
    }

    /// Line `e` no longer passes `layer`.
    fn remove(&mut self, e: usize, layer: usize, used: &mut [f64]) {
        let key = (self.owner(e), layer);
        let lines = self.lines.get_mut(&key).expect("the line passed the layer");
        *lines -= 1;
        if *lines == 0 {
            self.lines.remove(&key);
            used[layer] -= self.dummy;
        }
    }

    /// The nodes that moved down from layers `before` to `rank` take their breadth and their
    /// lines' passing with them (`used` grows to the new layers; the lines of the nodes that
    /// stayed pass the same layers as before, so they are not counted again).
    fn follow(
        &mut self,
        before: &[usize],
        rank: &[usize],
        breadth: &[f64],
        [inn, out]: [&[Vec<usize>]; 2],
        used: &mut Vec<f64>,
    ) {
        let layers = rank.iter().copied().max().map_or(0, |l| l + 1);
        if used.len() < layers {
            used.resize(layers, 0.0);
        }
        let mut lines: Vec<usize> = Vec::new();
        for v in (0..rank.len()).filter(|&v| before[v] != rank[v]) {
            used[before[v]] -= breadth[v];
            used[rank[v]] += breadth[v];
            lines.extend(inn[v].iter().chain(&out[v]).copied());
        }
        lines.sort_unstable();
        lines.dedup();
        for &e in &lines {
            let (from, to, _) = self.edges[e];
            for layer in (before[from] + 1).min(before[to])..before[to] {
                self.remove(e, layer, used);
            }
            for layer in (rank[from] + 1).min(rank[to])..rank[to] {
                self.add(e, layer, used);
            }
        }
    }

    /// The breadth each layer holds with the nodes on layers `rank`: its nodes' and the lines
    /// passing it, counted afresh.
    fn breadths(&mut self, rank: &[usize], breadth: &[f64]) -> Vec<f64> {
        let layers = rank.iter().copied().max().map_or(0, |l| l + 1);
        let mut used = vec![0.0; layers];
        for (v, &r) in rank.iter().enumerate() {
            used[r] += breadth[v];
        }
        self.lines.clear();
        for (e, &(from, to, _)) in self.edges.iter().enumerate() {
            for layer in (rank[from] + 1).min(rank[to])..rank[to] {
                self.add(e, layer, &mut used);
            }
        }
        used
    }
}

/// The nodes of each of `layers` layers, in node order.
fn nodes_by_layer(rank: &[usize], layers: usize) -> Vec<Vec<usize>> {
    let mut by_layer = vec![Vec::new(); layers];
    for (v, &r) in rank.iter().enumerate() {
        by_layer[r].push(v);
    }
    by_layer
}

/// Moves node `v` down to layer `to`, and what it feeds as far down as its edges' lengths
/// need.
fn push_down(v: usize, to: usize, rank: &mut [usize], out: &[Vec<usize>], edges: &[Span]) {
    rank[v] = to;
    let mut stack = vec![v];
    while let Some(u) = stack.pop() {
        for &e in &out[u] {
            let (_, w, len) = edges[e];
            if rank[w] < rank[u] + len {
                rank[w] = rank[u] + len;
                stack.push(w);
            }
        }
    }
}

/// The nodes in an order where every edge runs forward (Kahn's, ties in input order).
fn topological(n: usize, edges: &[Span], out: &[Vec<usize>], inn: &[Vec<usize>]) -> Vec<usize> {
    let mut missing: Vec<usize> = inn.iter().map(Vec::len).collect();
    let mut ready: std::collections::BTreeSet<usize> =
        (0..n).filter(|&v| missing[v] == 0).collect();
    let mut order = Vec::with_capacity(n);
    while let Some(v) = ready.pop_first() {
        order.push(v);
        for &e in &out[v] {
            let to = edges[e].1;
            missing[to] -= 1;
            if missing[to] == 0 {
                ready.insert(to);
            }
        }
    }
    debug_assert_eq!(order.len(), n, "the graph is acyclic");
    order
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_edge_spans_its_minimum_length() {
        // a -> b (2 layers), b -> c, a -> c
        let edges = [(0, 1, 2), (1, 2, 1), (0, 2, 1)];
        let r = layers(3, &edges);
        for (from, to, len) in edges {
            assert!(r[to] >= r[from] + len, "{r:?}");
        }
        assert_eq!(r, vec![0, 2, 3]);
    }

    #[test]
    fn a_bound_on_breadth_moves_nodes_to_later_layers() {
        // a feeds b, c, d, e: four of breadth 3 under a bound of 7 take two layers.
        let edges = [(0, 1, 1), (0, 2, 1), (0, 3, 1), (0, 4, 1)];
        let r = layers_bounded(5, &edges, &[3.0; 5], 0.0, &[false; 4], 7.0);
        assert_eq!(r, vec![0, 1, 1, 2, 2]);
        for (from, to, len) in edges {
            assert!(r[to] >= r[from] + len);
        }
    }

    #[test]
    fn a_wide_fan_out_folds_into_the_layers_below_without_lengthening() {
        // a feeds the chain b -> c -> d -> e and four leaves l1..l4, all of breadth 3 under a
        // bound of 8: the leaves fold beside the chain, one to a layer, and the chain keeps its
        // layers (moving a node of the chain would push the rest of it down). A line passing a
        // layer takes half a cell of it.
        let edges = [
            (0, 1, 1),
            (1, 2, 1),
            (2, 3, 1),
            (3, 4, 1),
            (0, 5, 1),
            (0, 6, 1),
            (0, 7, 1),
            (0, 8, 1),
        ];
        let r = layers_bounded(9, &edges, &[3.0; 9], 0.5, &[false; 8], 8.0);
        assert_eq!(&r[..5], &[0, 1, 2, 3, 4], "{r:?}");
        let mut leaves = r[5..].to_vec();
        leaves.sort_unstable();
        assert_eq!(leaves, vec![1, 2, 3, 4], "{r:?}");
    }

    #[test]
    fn shared_lines_from_one_source_take_one_dummy_of_a_layer() {
        // a feeds six leaves of breadth 3 under a bound of 7: two to a layer, the rest folded
        // below. Each line passing a layer takes 2 cells; a's lines, shared, take 2 together,
        // so two leaves still fit beside them and the fan takes three layers, not six.
        let edges: Vec<Span> = (1..7).map(|v| (0, v, 1)).collect();
        let shared = layers_bounded(7, &edges, &[3.0; 7], 2.0, &[true; 6], 8.0);
        assert_eq!(shared.iter().max(), Some(&3), "{shared:?}");
        let apart = layers_bounded(7, &edges, &[3.0; 7], 2.0, &[false; 6], 8.0);
        assert!(apart.iter().max() > Some(&3), "{apart:?}");
    }

    #[test]
    fn a_layer_with_nothing_free_to_move_narrows_by_pushing_what_it_feeds() {
        // a, b and c all feed d: none moves down alone, so c takes d down with it.
        let edges = [(0, 3, 1), (1, 3, 1), (2, 3, 1)];
        let r = layers_bounded(4, &edges, &[3.0; 4], 0.0, &[false; 3], 7.0);
        assert_eq!(r, vec![0, 0, 1, 2]);
    }

    #[test]
    fn the_lines_pushed_down_with_a_node_pass_the_layers_a_fresh_count_finds() {
        // a -> b -> c, a -> c, d -> c, a -> e (e shared with a's others): b pushed down two
        // layers takes c with it; the count kept up move by move equals one made afresh.
        let edges = [(0, 1, 1), (1, 2, 1), (0, 2, 1), (3, 2, 1), (0, 4, 1)];
        let shared = [true, false, true, false, true];
        let breadth = [2.0, 3.0, 1.0, 2.5, 1.5];
        let (mut inn, mut out) = (vec![Vec::new(); 5], vec![Vec::new(); 5]);
        for (e, &(from, to, _)) in edges.iter().enumerate() {
            out[from].push(e);
            inn[to].push(e);
        }
        let mut rank = layers(5, &edges);
        let mut passing = Passing::new(&edges, &shared, 0.5);
        let mut used = passing.breadths(&rank, &breadth);
        let before = rank.clone();
        push_down(1, rank[1] + 2, &mut rank, &out, &edges);
        assert_ne!(before[2], rank[2], "c moved with b");
        passing.follow(&before, &rank, &breadth, [&inn, &out], &mut used);
        let mut fresh = Passing::new(&edges, &shared, 0.5);
        assert_eq!(used, fresh.breadths(&rank, &breadth));
        assert_eq!(passing.lines, fresh.lines);
    }

    #[test]
    fn a_diagram_too_long_for_the_grid_is_not_narrowed_further() {
        // A chain of 80 nodes and a fan of 10 from its top, under a bound of two nodes: the
        // chain alone is longer than the grid holds, so the fan is left as it is.
        let mut edges: Vec<Span> = (0..79).map(|v| (v, v + 1, 1)).collect();
        edges.extend((80..90).map(|v| (0, v, 1)));
        let r = layers_bounded(90, &edges, &[2.0; 90], 0.0, &[false; 89], 4.0);
        assert_eq!((80..90).filter(|&v| r[v] == 1).count(), 10, "{r:?}");
    }

    #[test]
    fn a_source_sits_just_above_what_it_feeds() {
        // a -> b -> c -> d, and e -> d: e belongs on d's previous layer, not on top.
        let edges = [(0, 1, 1), (1, 2, 1), (2, 3, 1), (4, 3, 1)];
        let r = layers(5, &edges);
        assert_eq!(r, vec![0, 1, 2, 3, 2]);
    }
}
