//! Breaking cycles: the links to turn round so that every link runs forward. The back edges of
//! a depth-first search, started from the sources (nodes nothing points to) in input order and
//! then from the other nodes in input order, following each node's links in input order: so a
//! flowchart's links point the way they were written wherever that leaves no cycle.

/// For each edge `(from, to)` of a graph of `n` nodes, whether to turn it round.
pub(crate) fn back_edges(n: usize, edges: &[(usize, usize)]) -> Vec<bool> {
    let mut out: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut has_in = vec![false; n];
    for (e, &(from, to)) in edges.iter().enumerate() {
        out[from].push(e);
        has_in[to] = true;
    }
    // 0 unvisited, 1 on the search's path, 2 done.
    let mut state = vec![0u8; n];
    let mut reversed = vec![false; edges.len()];
    let starts = (0..n)
        .filter(|&v| !has_in[v])
        .chain((0..n).filter(|&v| has_in[v]));
    for start in starts {
        if state[start] != 0 {
            continue;
        }
        state[start] = 1;
        // (node, index of the next out-edge to follow)
        let mut stack = vec![(start, 0usize)];
        while let Some(&mut (v, ref mut next)) = stack.last_mut() {
            if let Some(&e) = out[v].get(*next) {
                *next += 1;
                let to = edges[e].1;
                match state[to] {
                    0 => {
                        state[to] = 1;
                        stack.push((to, 0));
                    }
                    1 => reversed[e] = true,
                    _ => {}
                }
            } else {
                state[v] = 2;
                stack.pop();
            }
        }
    }
    reversed
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cycle_is_broken_at_its_last_link() {
        // a -> b -> c -> a, and d -> a
        let edges = [(0, 1), (1, 2), (2, 0), (3, 0)];
        assert_eq!(back_edges(4, &edges), vec![false, false, true, false]);
    }

    #[test]
    fn an_acyclic_graph_keeps_every_link() {
        let edges = [(0, 1), (0, 2), (2, 1), (1, 3)];
        assert!(back_edges(4, &edges).iter().all(|r| !r));
    }

    #[test]
    fn two_links_between_a_pair_both_ways_turn_one() {
        let edges = [(0, 1), (1, 0)];
        assert_eq!(back_edges(2, &edges), vec![false, true]);
    }
}
