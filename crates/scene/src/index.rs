//! A uniform grid over the scene for the rectangle and point queries, stored flat: a query
//! reads only the cells it overlaps, and those of the coarser grids where shapes too large to
//! file cell by cell are.

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

/// A shape spanning more cells than this is filed in a coarser grid, so that a few huge areas
/// cannot fill every cell.
const MOST_CELLS: usize = 16;

/// A coarser grid's cells are this many times as wide and as high.
const COARSER: usize = 4;

/// Up to this many shapes too large for a grid's cells are kept in a list every query reads
/// (cheaper than a coarser grid to walk); more go to a coarser grid.
const FEW_LARGE: usize = 32;

/// About this many shapes per cell.
const PER_CELL: usize = 2;

/// A query that reads more than the items over this (with repeats) gathers them with a bit
/// each rather than by sorting.
const CROWDED: usize = 16;

/// The grid: items (numbered by the caller, here by draw rank) filed by the cells their
/// rectangles overlap. Items too large for its cells, when there are more than [`FEW_LARGE`],
/// are filed in a coarser grid over the same bounds (cells [`COARSER`] times as wide and high),
/// and so on, so a query reads the items near it at every size: many group titles over a dense
/// diagram no longer put a long list in every query. A few are kept in a list.
#[derive(Debug, Clone, Default)]
pub struct Grid {
    origin: Point,
    cell_width: f64,
    cell_height: f64,
    columns: usize,
    rows: usize,
    cells: Buckets<u32>,
    /// The items too large for these cells, when there are many.
    coarser: Option<Box<Grid>>,
    /// The items too large for these cells, when there are few (or this grid is one cell).
    large: Vec<u32>,
    /// How many items there are in all the levels.
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
        let items = (0..rects.len() as u32).collect();
        Grid::level(bounds, rects, items, (columns, rows))
    }

    /// Files `items` of `rects` in `columns × rows` cells over `bounds`; those spanning more
    /// than [`MOST_CELLS`] in a list when they are few, else in a coarser grid.
    fn level(
        bounds: Rect,
        rects: &[Rect],
        items: Vec<u32>,
        (columns, rows): (usize, usize),
    ) -> Grid {
        let (width, height) = (bounds.width().max(1e-6), bounds.height().max(1e-6));
        let mut grid = Grid {
            origin: bounds.min,
            cell_width: width / columns as f64,
            cell_height: height / rows as f64,
            columns,
            rows,
            items: rects.len(),
            ..Grid::default()
        };
        let mut pairs = Vec::with_capacity(items.len() * 2);
        let mut larger = Vec::new();
        for item in items {
            let (c0, c1, r0, r1) = grid.span(rects[item as usize]);
            if (c1 - c0 + 1) * (r1 - r0 + 1) > MOST_CELLS {
                larger.push(item);
                continue;
            }
            for row in r0..=r1 {
                for column in c0..=c1 {
                    pairs.push(((row * columns + column) as u32, item));
                }
            }
        }
        grid.cells = Buckets::new(columns * rows, &pairs);
        if larger.len() <= FEW_LARGE || columns * rows == 1 {
            grid.large = larger;
        } else {
            let coarser = (columns.div_ceil(COARSER), rows.div_ceil(COARSER));
            grid.coarser = Some(Box::new(Grid::level(bounds, rects, larger, coarser)));
        }
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

    /// Hands `found` each item filed in the cells `rect` overlaps, at every level, and those in
    /// the lists (an item filed in several cells comes once for each); plain loops, as this is
    /// every query's inner loop.
    fn visit(&self, rect: Rect, mut found: impl FnMut(u32)) {
        let mut level = Some(self);
        while let Some(grid) = level {
            let (c0, c1, r0, r1) = grid.span(rect);
            for row in r0..=r1 {
                let first = row * grid.columns;
                for cell in first + c0..=first + c1 {
                    grid.cells.get(cell).iter().for_each(|&item| found(item));
                }
            }
            grid.large.iter().for_each(|&item| found(item));
            level = grid.coarser.as_deref();
        }
    }

    /// How many items [`Grid::candidates`] would look at for `rect`, at most (an item filed in
    /// several cells counts in each): what a query costs, known without making it.
    pub fn crowd(&self, rect: Rect) -> usize {
        if self.items == 0 {
            return 0;
        }
        let mut level = Some(self);
        let mut filed = 0;
        while let Some(grid) = level {
            let (c0, c1, r0, r1) = grid.span(rect);
            for row in r0..=r1 {
                let first = row * grid.columns;
                filed += (first + c0..=first + c1)
                    .map(|cell| grid.cells.get(cell).len())
                    .sum::<usize>();
            }
            filed += grid.large.len();
            level = grid.coarser.as_deref();
        }
        filed.min(self.items)
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
        if self.crowd(rect) < self.items / CROWDED {
            let mut found = Vec::new();
            self.visit(rect, |item| found.push(item));
            found.sort_unstable();
            found.dedup();
            return found;
        }
        // Most of the items: a bit each puts them in order and once, without sorting.
        let mut seen = vec![0u64; self.items.div_ceil(64)];
        self.visit(rect, |item| seen[item as usize / 64] |= 1 << (item % 64));
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

    #[test]
    fn a_point_among_many_large_shapes_reads_only_those_near_it() {
        // 40,000 small squares 0.3 apart, and 1,000 bands each over about 13 × 3 of their
        // cells: too large to file in those cells.
        let small =
            (0..40_000).map(|i| square(f64::from(i % 200) * 0.3, f64::from(i / 200) * 0.3, 0.1));
        let band = |i: u32| {
            let (x, y) = (f64::from(i % 25) * 2.4, f64::from(i / 25) * 1.5);
            Rect::new(Point::new(x, y), Point::new(x + 4.0, y + 0.75))
        };
        let rects: Vec<Rect> = small.chain((0..1_000).map(band)).collect();
        let bounds = rects.iter().copied().reduce(Rect::union).unwrap();
        let grid = Grid::new(bounds, &rects);
        let point = Point::new(30.05, 30.05);
        let found = grid.candidates(Rect::new(point, point));
        let wanted: Vec<u32> = (0..rects.len() as u32)
            .filter(|&i| rects[i as usize].intersects(Rect::new(point, point)))
            .collect();
        assert!(wanted.iter().all(|w| found.contains(w)));
        assert!(
            wanted.iter().any(|&w| w >= 40_000),
            "a band is under the point"
        );
        assert!(found.len() < 100, "{} candidates", found.len());
    }
}
