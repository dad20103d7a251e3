//! Layer assignment: each node's layer, every edge spanning at least its minimum length.
//! Longest path first (each node as high as its predecessors allow), then a few passes that
//! move each node within the room its edges leave towards the side with more edges, which
//! shortens the edges as Graphviz's network simplex does, in a good approximation.

/// How many passes move the nodes.
const PASSES: usize = 8;

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
/// node's `breadth` with its gap): the nodes, in the order of their unbounded layers, each on
/// the first layer below its predecessors that has room (a layer always takes one node). The
/// diagram grows longer along the flow and narrower across it.
pub(crate) fn layers_bounded(n: usize, edges: &[Span], breadth: &[f64], bound: f64) -> Vec<usize> {
    let free = layers(n, edges);
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by_key(|&v| (free[v], v));
    let mut inn: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (e, &(_, to, _)) in edges.iter().enumerate() {
        inn[to].push(e);
    }
    let mut rank = vec![0usize; n];
    let mut used: Vec<f64> = Vec::new();
    for v in order {
        let mut r = inn[v]
            .iter()
            .map(|&e| rank[edges[e].0] + edges[e].2)
            .max()
            .unwrap_or(0);
        loop {
            if used.len() <= r {
                used.resize(r + 1, 0.0);
            }
            if used[r] == 0.0 || used[r] + breadth[v] <= bound {
                break;
            }
            r += 1;
        }
        used[r] += breadth[v];
        rank[v] = r;
    }
    rank
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
        let r = layers_bounded(5, &edges, &[3.0; 5], 7.0);
        assert_eq!(r, vec![0, 1, 1, 2, 2]);
        for (from, to, len) in edges {
            assert!(r[to] >= r[from] + len);
        }
    }

    #[test]
    fn a_source_sits_just_above_what_it_feeds() {
        // a -> b -> c -> d, and e -> d: e belongs on d's previous layer, not on top.
        let edges = [(0, 1, 1), (1, 2, 1), (2, 3, 1), (4, 3, 1)];
        let r = layers(5, &edges);
        assert_eq!(r, vec![0, 1, 2, 3, 2]);
    }
}
