//! A uniform grid over the scene for the rectangle and point queries, stored flat: a query
//! reads only the cells it overlaps, plus the few shapes too large to file cell by cell.

use super::geometry::{Point, Rect};

/// Values filed under small integer keys, stored flat (the layout of a sparse matrix's rows):
/// one allocation however many keys.
#[derive(Debug, Clone, Default)]
pub struct Buckets<T> {
    /// Where each key's values start in `values`; one more entry than there are keys.
    starts: Vec<u32>,
    values: Vec<T>,
}

impl<T: Copy + Default> Buckets<T> {
    /// Files each `(key, value)` under its key (< `keys`), keeping their order within a key.
    pub fn new(keys: usize, pairs: &[(u32, T)]) -> Buckets<T> {
        let mut starts = vec![0u32; keys + 1];
        for &(key, _) in pairs {
            starts[key as usize + 1] += 1;
        }
        for k in 0..keys {
            starts[k + 1] += starts[k];
        }
        let mut next = starts.clone();
        let mut values = vec![T::default(); pairs.len()];
        for &(key, value) in pairs {
            let at = &mut next[key as usize];
            values[*at as usize] = value;
            *at += 1;
        }
        Buckets { starts, values }
    }

    /// The values filed under `key` (none for a key out of range).
    pub fn get(&self, key: usize) -> &[T] {
        match (self.starts.get(key), self.starts.get(key + 1)) {
            (Some(&start), Some(&end)) => &self.values[start as usize..end as usize],
            _ => &[],
        }
    }
}

/// A shape spanning more cells than this is kept in the list every query reads, so that a few
/// huge areas cannot fill every cell.
const MOST_CELLS: usize = 16;

/// About this many shapes per cell.
const PER_CELL: usize = 2;

/// A query that reads more than the items over this (with repeats) gathers them with a bit
/// each rather than by sorting.
const CROWDED: usize = 16;

/// The grid: items (numbered by the caller, here by draw rank) filed by the cells their
/// rectangles overlap.
#[derive(Debug, Clone, Default)]
pub struct Grid {
    origin: Point,
    cell_width: f64,
    cell_height: f64,
    columns: usize,
    rows: usize,
    cells: Buckets<u32>,
    large: Vec<u32>,
    items: usize,
}

impl Grid {
    /// Files `rects[i]` as item `i`; `bounds` holds them all.
    pub fn new(bounds: Rect, rects: &[Rect]) -> Grid {
        let cells = (rects.len() / PER_CELL).clamp(1, 1 << 20) as f64;
        let (width, height) = (bounds.width().max(1e-6), bounds.height().max(1e-6));
        let side = (width * height / cells).sqrt();
        let columns = (width / side).ceil().clamp(1.0, 4096.0) as usize;
        let rows = (height / side).ceil().clamp(1.0, 4096.0) as usize;
        let mut grid = Grid {
            origin: bounds.min,
            cell_width: width / columns as f64,
            cell_height: height / rows as f64,
            columns,
            rows,
            items: rects.len(),
            ..Grid::default()
        };
        let mut pairs = Vec::with_capacity(rects.len() * 2);
        for (item, rect) in rects.iter().enumerate() {
            let item = item as u32;
            let (c0, c1, r0, r1) = grid.span(*rect);
            if (c1 - c0 + 1) * (r1 - r0 + 1) > MOST_CELLS {
                grid.large.push(item);
                continue;
            }
            for row in r0..=r1 {
                for column in c0..=c1 {
                    pairs.push(((row * columns + column) as u32, item));
                }
            }
        }
        grid.cells = Buckets::new(columns * rows, &pairs);
        grid
    }

    /// The columns and rows a rectangle overlaps, clamped to the grid: `(c0, c1, r0, r1)`.
    fn span(&self, rect: Rect) -> (usize, usize, usize, usize) {
        let at = |value: f64, origin: f64, size: f64, count: usize| {
            ((value - origin) / size)
                .floor()
                .clamp(0.0, (count - 1) as f64) as usize
        };
        (
            at(rect.min.x, self.origin.x, self.cell_width, self.columns),
            at(rect.max.x, self.origin.x, self.cell_width, self.columns),
            at(rect.min.y, self.origin.y, self.cell_height, self.rows),
            at(rect.max.y, self.origin.y, self.cell_height, self.rows),
        )
    }

    /// How many items [`Grid::candidates`] would look at for `rect`, at most (an item filed in
    /// several cells counts in each): what a query costs, known without making it.
    pub fn crowd(&self, rect: Rect) -> usize {
        if self.items == 0 {
            return 0;
        }
        let (c0, c1, r0, r1) = self.span(rect);
        let filed: usize = (r0..=r1)
            .flat_map(|row| (c0..=c1).map(move |column| row * self.columns + column))
            .map(|cell| self.cells.get(cell).len())
            .sum();
        (filed + self.large.len()).min(self.items)
    }

    /// The items that may overlap `rect`, ascending and each once (the caller checks each
    /// item's own rectangle).
    pub fn candidates(&self, rect: Rect) -> Vec<u32> {
        if self.items == 0 {
            return Vec::new();
        }
        let (c0, c1, r0, r1) = self.span(rect);
        if c0 == 0 && r0 == 0 && c1 == self.columns - 1 && r1 == self.rows - 1 {
            return (0..self.items as u32).collect();
        }
        let filed = || {
            (r0..=r1)
                .flat_map(move |row| (c0..=c1).map(move |column| row * self.columns + column))
                .flat_map(|cell| self.cells.get(cell))
                .chain(&self.large)
        };
        if self.crowd(rect) < self.items / CROWDED {
            let mut found: Vec<u32> = filed().copied().collect();
            found.sort_unstable();
            found.dedup();
            return found;
        }
        // Most of the items: a bit each puts them in order and once, without sorting.
        let mut seen = vec![0u64; self.items.div_ceil(64)];
        for &item in filed() {
            seen[item as usize / 64] |= 1 << (item % 64);
        }
        let mut found = Vec::with_capacity(self.items);
        for (word, &bits) in seen.iter().enumerate() {
            let mut bits = bits;
            while bits != 0 {
                found.push(word as u32 * 64 + bits.trailing_zeros());
                bits &= bits - 1;
            }
        }
        found
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn square(x: f64, y: f64, side: f64) -> Rect {
        Rect::new(Point::new(x, y), Point::new(x + side, y + side))
    }

    #[test]
    fn buckets_keep_their_values_in_order() {
        let buckets = Buckets::new(3, &[(2, 'a'), (0, 'b'), (2, 'c')]);
        assert_eq!(buckets.get(0), ['b']);
        assert_eq!(buckets.get(1), [] as [char; 0]);
        assert_eq!(buckets.get(2), ['a', 'c']);
        assert_eq!(buckets.get(9), [] as [char; 0]);
    }

    #[test]
    fn candidates_cover_every_overlapping_item() {
        let rects: Vec<Rect> = (0..400)
            .map(|i| square(f64::from(i % 20) * 5.0, f64::from(i / 20) * 5.0, 1.0))
            .chain([square(0.0, 0.0, 100.0)])
            .collect();
        let bounds = rects.iter().copied().reduce(Rect::union).unwrap();
        let grid = Grid::new(bounds, &rects);
        // A small query, one outside, most of the grid (gathered by bits), all of it.
        let most = square(3.0, 3.0, 80.0);
        for query in [
            square(12.0, 12.0, 10.0),
            square(-50.0, -50.0, 1.0),
            most,
            bounds,
        ] {
            let found = grid.candidates(query);
            let wanted: Vec<u32> = (0..rects.len() as u32)
                .filter(|&i| rects[i as usize].intersects(query))
                .collect();
            assert!(wanted.iter().all(|w| found.contains(w)), "{query:?}");
            assert!(
                found.windows(2).all(|w| w[0] < w[1]),
                "ascending, each once"
            );
        }
        assert!(grid.candidates(square(12.0, 12.0, 1.0)).len() < 10);
    }
}
