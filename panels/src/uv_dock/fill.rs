//! The UV dock's fill for many faces: the screen cells they cover, as runs along
//! rows, so that thousands of faces are a few hundred rectangles to redraw.

/// Up to this many picked triangles the dock fills each one; beyond, it fills
/// the screen cells of [`FILL_CELL`] points they cover, as runs along rows: the
/// same picture at that scale with a few hundred rectangles where there were
/// thousands of triangles, which a software rasterizer redraws every frame of a
/// drag.
pub(super) const FILL_TRIANGLES_UP_TO: usize = 2000;
pub(super) const FILL_CELL: f32 = 2.0;

/// The cells of `cell` points that the triangles `tris` (screen points) cover
/// inside `rect`, as rectangles of runs along rows. A cell is covered when its
/// centre is inside a triangle, or when a triangle too small to hold a centre
/// has its middle in it, so no triangle vanishes.
///
/// The work is bounded by the distinct triangles times the rows each spans:
/// triangles landing on the same cells (faces fitted alike, all on one patch
/// of the texture) count once, and each row of a triangle is one span.
pub(super) fn covered_runs(
    tris: &[[egui::Pos2; 3]],
    rect: egui::Rect,
    cell: f32,
) -> Vec<egui::Rect> {
    let columns = (rect.width() / cell).ceil().max(0.0) as usize;
    let rows = (rect.height() / cell).ceil().max(0.0) as usize;
    if columns == 0 || rows == 0 {
        return Vec::new();
    }
    let to_cell = |p: egui::Pos2| ((p.x - rect.min.x) / cell, (p.y - rect.min.y) / cell);
    // Alike to a quarter of a cell: the same coverage.
    let distinct: Vec<[i32; 6]> = tris
        .iter()
        .filter_map(|t| {
            let c = t.map(to_cell);
            let q = |v: f32| round_i32((v * 4.0).clamp(-1e9, 1e9));
            c.iter()
                .all(|(x, y)| x.is_finite() && y.is_finite())
                .then(|| {
                    [
                        q(c[0].0),
                        q(c[0].1),
                        q(c[1].0),
                        q(c[1].1),
                        q(c[2].0),
                        q(c[2].1),
                    ]
                })
        })
        .collect();
    // Faces alike usually come in a repeating order (a quad's two triangles,
    // face after face): those against the last few kept go at once, and sorting
    // finds the rest.
    let mut kept: Vec<[i32; 6]> = Vec::with_capacity(distinct.len());
    for q in distinct {
        if !kept.iter().rev().take(4).any(|k| *k == q) {
            kept.push(q);
        }
    }
    let mut distinct = kept;
    distinct.sort_unstable();
    distinct.dedup();
    // Per row, +1 where a span starts and -1 after it ends.
    let width = columns + 1;
    let mut starts = vec![0i32; width * rows];
    let mut mark = |y: usize, first: usize, last: usize| {
        starts[y * width + first] += 1;
        starts[y * width + last + 1] -= 1;
    };
    for q in &distinct {
        let corner = |k: usize| (q[2 * k] as f32 / 4.0, q[2 * k + 1] as f32 / 4.0);
        let [a, b, c] = [corner(0), corner(1), corner(2)];
        let (lo_x, hi_x) = (a.0.min(b.0).min(c.0), a.0.max(b.0).max(c.0));
        let (lo_y, hi_y) = (a.1.min(b.1).min(c.1), a.1.max(b.1).max(c.1));
        if hi_x < 0.0 || hi_y < 0.0 || lo_x >= columns as f32 || lo_y >= rows as f32 {
            continue;
        }
        let mut any = false;
        // Rows whose centres (whole + 0.5) the triangle's height holds.
        let first_row = ceil_i64(lo_y - 0.5).max(0) as usize;
        let last_row = (floor_i64(hi_y - 0.5) as isize).min(rows as isize - 1);
        for y in first_row..(last_row + 1).max(0) as usize {
            let cy = y as f32 + 0.5;
            // Where the row's centre line crosses the triangle's edges.
            let (mut from, mut to) = (f32::INFINITY, f32::NEG_INFINITY);
            for (p, r) in [(a, b), (b, c), (c, a)] {
                if (p.1 <= cy && cy <= r.1) || (r.1 <= cy && cy <= p.1) {
                    let x = if p.1 == r.1 {
                        from = from.min(p.0.min(r.0));
                        p.0.max(r.0)
                    } else {
                        p.0 + (cy - p.1) * (r.0 - p.0) / (r.1 - p.1)
                    };
                    from = from.min(x);
                    to = to.max(x);
                }
            }
            let first = ceil_i64(from - 0.5).max(0);
            let last = floor_i64(to - 0.5).min(columns as i64 - 1);
            if first <= last {
                mark(y, first as usize, last as usize);
                any = true;
            }
        }
        if !any {
            let (mx, my) = ((a.0 + b.0 + c.0) / 3.0, (a.1 + b.1 + c.1) / 3.0);
            if mx >= 0.0 && my >= 0.0 && (mx as usize) < columns && (my as usize) < rows {
                mark(my as usize, mx as usize, mx as usize);
            }
        }
    }
    let mut covered = vec![false; columns * rows];
    for y in 0..rows {
        let mut depth = 0;
        for x in 0..columns {
            depth += starts[y * width + x];
            covered[y * columns + x] = depth > 0;
        }
    }
    let mut runs = Vec::new();
    for y in 0..rows {
        let row = &covered[y * columns..(y + 1) * columns];
        let mut x = 0;
        while x < columns {
            if !row[x] {
                x += 1;
                continue;
            }
            let start = x;
            while x < columns && row[x] {
                x += 1;
            }
            let min = rect.min + egui::vec2(start as f32 * cell, y as f32 * cell);
            let max = egui::pos2(
                (rect.min.x + x as f32 * cell).min(rect.max.x),
                (rect.min.y + (y + 1) as f32 * cell).min(rect.max.y),
            );
            runs.push(egui::Rect::from_min_max(min, max));
        }
    }
    runs
}

// Rounding by hand: without SSE4.1 (not in the x86-64 baseline) `f32::round`,
// `ceil` and `floor` are calls into a software routine, and a drag over ten
// thousand faces makes tens of thousands of them a frame. `as` truncates toward
// zero and saturates (NaN gives 0); the fraction left decides the step.

/// `v.round() as i32` (halves away from zero).
fn round_i32(v: f32) -> i32 {
    let t = v as i32;
    let rest = v - t as f32;
    if rest >= 0.5 {
        t.saturating_add(1)
    } else if rest <= -0.5 {
        t.saturating_sub(1)
    } else {
        t
    }
}

/// `v.ceil() as i64`.
fn ceil_i64(v: f32) -> i64 {
    let t = v as i64;
    if (t as f32) < v {
        t.saturating_add(1)
    } else {
        t
    }
}

/// `v.floor() as i64`.
fn floor_i64(v: f32) -> i64 {
    let t = v as i64;
    if (t as f32) > v {
        t.saturating_sub(1)
    } else {
        t
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounding_by_hand_matches_the_standard_library() {
        let mut values = vec![
            0.0f32,
            -0.0,
            0.5,
            -0.5,
            1.5,
            -1.5,
            2.5,
            -2.5,
            0.49999997,
            -0.49999997,
        ];
        values.extend((-4000..4000).map(|k| k as f32 * 0.125 + 0.0625));
        values.extend((-4000..4000).map(|k| k as f32 * 0.37));
        values.extend([
            1e9,
            -1e9,
            8_388_607.5,
            -8_388_607.5,
            16_777_216.0,
            3.0e7,
            -3.0e7,
        ]);
        for v in values {
            assert_eq!(round_i32(v), v.round() as i32, "round {v}");
            assert_eq!(ceil_i64(v), v.ceil() as i64, "ceil {v}");
            assert_eq!(floor_i64(v), v.floor() as i64, "floor {v}");
        }
        assert_eq!(ceil_i64(f32::NEG_INFINITY), i64::MIN);
        assert_eq!(floor_i64(f32::INFINITY), i64::MAX);
    }

    #[test]
    fn many_faces_fill_the_cells_they_cover_as_runs_along_rows() {
        let rect = egui::Rect::from_min_size(egui::pos2(10.0, 20.0), egui::vec2(40.0, 40.0));
        let p = |x: f32, y: f32| egui::pos2(x, y);
        // A square of two triangles, 10 by 10 points from (20, 30): five cells
        // of 2 points each way, each row one run.
        let square = [
            [p(20.0, 30.0), p(30.0, 30.0), p(30.0, 40.0)],
            [p(20.0, 30.0), p(30.0, 40.0), p(20.0, 40.0)],
        ];
        let runs = covered_runs(&square, rect, 2.0);
        assert_eq!(runs.len(), 5, "{runs:?}");
        for (k, r) in runs.iter().enumerate() {
            assert_eq!(
                *r,
                egui::Rect::from_min_max(
                    p(20.0, 30.0 + 2.0 * k as f32),
                    p(30.0, 32.0 + 2.0 * k as f32)
                )
            );
        }
        // Either winding; a speck smaller than a cell still shows; nothing
        // outside the dock; a triangle across its edge is cut there.
        let specks = [
            [p(45.1, 21.1), p(45.3, 21.1), p(45.2, 21.4)],
            [p(-50.0, -50.0), p(-40.0, -50.0), p(-45.0, -40.0)],
            [p(44.0, 50.0), p(80.0, 50.0), p(44.0, 56.0)],
        ];
        let runs = covered_runs(&specks, rect, 2.0);
        assert!(runs.iter().any(|r| r.contains(p(45.2, 21.2))), "{runs:?}");
        assert!(runs.iter().all(|r| rect.contains_rect(*r)), "{runs:?}");
        assert!(
            runs.iter().any(|r| r.max.x == 50.0 && r.min.y >= 50.0),
            "{runs:?}"
        );
        let flipped: Vec<[egui::Pos2; 3]> = square.iter().map(|[a, b, c]| [*a, *c, *b]).collect();
        assert_eq!(covered_runs(&flipped, rect, 2.0).len(), 5);
        assert!(covered_runs(&square, egui::Rect::NOTHING, 2.0).is_empty());
        // Ten thousand faces fitted alike count once; one covering the whole
        // dock is a run per row, cut at the dock's edges.
        let alike: Vec<[egui::Pos2; 3]> = (0..10_000).map(|k| square[k % 2]).collect();
        assert_eq!(
            covered_runs(&alike, rect, 2.0),
            covered_runs(&square, rect, 2.0)
        );
        let huge = [[p(-1e6, -1e6), p(1e6, -1e6), p(0.0, 1e6)]];
        let runs = covered_runs(&huge, rect, 2.0);
        assert_eq!(runs.len(), 20, "{runs:?}");
        assert!(runs.iter().all(|r| r.width() == 40.0), "{runs:?}");
    }
}
