//! Shared by the integration tests: positions from stone lists, and a naive model of the
//! rules (a plain grid, whole lines rescanned, boards cloned) to check the fast one against.

#![allow(dead_code)]

use duel_core::{Game, GameInfo, Side};
use duel_gomoku::{Cell, Gomoku, Rule};

/// The path of a file in `data/gomoku/`.
pub fn data_path(name: &str) -> String {
    format!("{}/../../../data/gomoku/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// The position of variant `spec` with Black's and White's stones (space-separated cells in
/// either notation), played alternately from Black's first with no legality check, so that
/// any board can be set up: Black has as many stones as White (Black to move) or one more.
pub fn setup(spec: &str, black: &str, white: &str) -> Gomoku {
    let mut pos = Gomoku::variant(spec).unwrap();
    let cells = |s: &str, pos: &Gomoku| -> Vec<Cell> {
        s.split_whitespace()
            .map(|c| pos.parse_cell(c).unwrap())
            .collect()
    };
    let (b, w) = (cells(black, &pos), cells(white, &pos));
    assert!(
        b.len() == w.len() || b.len() == w.len() + 1,
        "{black} / {white}"
    );
    for (i, &c) in b.iter().enumerate() {
        assert!(pos.is_empty(c), "{black}: twice");
        pos.play(c);
        if let Some(&c) = w.get(i) {
            assert!(pos.is_empty(c), "{white}: twice");
            pos.play(c);
        }
    }
    pos
}

/// The empty cells where `side` would complete five.
pub fn fives(pos: &Gomoku, side: Side) -> Vec<Cell> {
    (0..pos.height())
        .flat_map(|y| (0..pos.width()).map(move |x| Cell::new(x, y)))
        .filter(|&c| pos.is_empty(c) && pos.makes_five(c, side))
        .collect()
}

/// The empty cells where `side` would complete five on the lines through `mv`, within four
/// cells: the fives that `mv` can have made possible.
pub fn fives_through(pos: &Gomoku, mv: Cell, side: Side) -> Vec<Cell> {
    let mut out = Vec::new();
    for (dx, dy) in [(1, 0), (0, 1), (1, 1), (1, -1)] {
        for k in (-4..=4).filter(|&k| k != 0) {
            let (x, y) = (mv.x() as i32 + k * dx, mv.y() as i32 + k * dy);
            if x < 0 || y < 0 {
                continue;
            }
            if let Some(c) = pos.cell(x as u32, y as u32) {
                if pos.is_empty(c) && pos.makes_five(c, side) {
                    out.push(c);
                }
            }
        }
    }
    out
}

/// The cell named `name` in `pos`'s notation.
pub fn cell(pos: &Gomoku, name: &str) -> Cell {
    pos.parse_cell(name).unwrap()
}

/// A plain grid: `cells[y][x]`, 0 empty, 1 Black, 2 White.
#[derive(Clone)]
pub struct Grid {
    pub rule: Rule,
    pub w: i32,
    pub h: i32,
    pub cells: Vec<Vec<u8>>,
    /// Who played last (1 or 2), 0 on the empty board.
    pub last: u8,
}

const DIRS: [(i32, i32); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];

impl Grid {
    pub fn of(pos: &Gomoku) -> Grid {
        let (w, h) = (pos.width() as i32, pos.height() as i32);
        let mut cells = vec![vec![0u8; w as usize]; h as usize];
        for (y, row) in cells.iter_mut().enumerate() {
            for (x, v) in row.iter_mut().enumerate() {
                *v = match pos.stone(Cell::new(x as u8, y as u8)) {
                    Some(Side::First) => 1,
                    Some(Side::Second) => 2,
                    None => 0,
                };
            }
        }
        let last = match pos.ply() {
            0 => 0,
            n if n % 2 == 1 => 1,
            _ => 2,
        };
        Grid {
            rule: pos.rule(),
            w,
            h,
            cells,
            last,
        }
    }

    pub fn get(&self, x: i32, y: i32) -> Option<u8> {
        (x >= 0 && y >= 0 && x < self.w && y < self.h).then(|| self.cells[y as usize][x as usize])
    }

    fn to_move(&self) -> u8 {
        if self.last == 1 {
            2
        } else {
            1
        }
    }

    /// The run of `c` through (x, y) along (dx, dy): first and last step from (x, y).
    fn run(&self, x: i32, y: i32, (dx, dy): (i32, i32), c: u8) -> (i32, i32) {
        let mut a = 0;
        while self.get(x - (a + 1) * dx, y - (a + 1) * dy) == Some(c) {
            a += 1;
        }
        let mut b = 0;
        while self.get(x + (b + 1) * dx, y + (b + 1) * dy) == Some(c) {
            b += 1;
        }
        (-a, b)
    }

    /// Does some line of `c` on the whole board win under the rule?
    pub fn has_win(&self, c: u8) -> bool {
        for y in 0..self.h {
            for x in 0..self.w {
                if self.get(x, y) != Some(c) {
                    continue;
                }
                for d in DIRS {
                    // Only from the first stone of each run.
                    if self.get(x - d.0, y - d.1) == Some(c) {
                        continue;
                    }
                    let (_, b) = self.run(x, y, d, c);
                    let n = b + 1;
                    let opp = 3 - c;
                    let before = self.get(x - d.0, y - d.1);
                    let after = self.get(x + n * d.0, y + n * d.1);
                    let wins = match self.rule {
                        Rule::Freestyle => n >= 5,
                        Rule::Standard => n == 5,
                        Rule::Renju if c == 1 => n == 5,
                        Rule::Renju => n >= 5,
                        Rule::Caro => {
                            n > 5 || (n == 5 && !(before == Some(opp) && after == Some(opp)))
                        }
                    };
                    if wins {
                        return true;
                    }
                }
            }
        }
        false
    }

    /// The legal moves, in index order: none once the last player has a winning line.
    pub fn moves(&self) -> Vec<(i32, i32)> {
        if self.last != 0 && self.has_win(self.last) {
            return Vec::new();
        }
        let me = self.to_move();
        let mut out = Vec::new();
        for y in 0..self.h {
            for x in 0..self.w {
                if self.cells[y as usize][x as usize] != 0 {
                    continue;
                }
                if self.rule == Rule::Renju && me == 1 && self.forbidden(x, y, 0).is_some() {
                    continue;
                }
                out.push((x, y));
            }
        }
        out
    }

    pub fn play(&mut self, (x, y): (i32, i32)) {
        let me = self.to_move();
        self.cells[y as usize][x as usize] = me;
        self.last = me;
    }

    /// Perft by the grid: clones all the way down.
    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = self.moves();
        if depth == 1 {
            return moves.len() as u64;
        }
        moves
            .into_iter()
            .map(|m| {
                let mut g = self.clone();
                g.play(m);
                g.perft(depth - 1)
            })
            .sum()
    }

    /// With Black on the empty (x, y): does Black have exactly five through it along d?
    fn black_run_len(&self, x: i32, y: i32, d: (i32, i32)) -> i32 {
        let (a, b) = self.run(x, y, d, 1);
        b - a + 1
    }

    /// The RIF test, by brute force: Black put on (x, y) of a cloned grid, every empty cell of
    /// each whole line tried. `depth` counts the recursion, as a guard.
    pub fn forbidden(&self, x: i32, y: i32, depth: u32) -> Option<&'static str> {
        let mut g = self.clone();
        g.cells[y as usize][x as usize] = 1;
        if DIRS.iter().any(|&d| g.black_run_len(x, y, d) == 5) {
            return None;
        }
        if DIRS.iter().any(|&d| g.black_run_len(x, y, d) >= 6) {
            return Some("overline");
        }
        let line_cells = |d: (i32, i32)| -> Vec<(i32, i32)> {
            (-30..=30)
                .map(|k| (x + k * d.0, y + k * d.1))
                .filter(|&(a, b)| g.get(a, b) == Some(0))
                .collect()
        };
        let contains = |(a, b): (i32, i32), d: (i32, i32), (lo, hi): (i32, i32)| {
            // Is (x, y) within the run from (a, b) + lo*d to (a, b) + hi*d?
            (lo..=hi).any(|k| (a + k * d.0, b + k * d.1) == (x, y))
        };
        let mut fours = 0;
        let mut four_dir = [false; 4];
        for (i, &d) in DIRS.iter().enumerate() {
            let mut points = Vec::new();
            for (a, b) in line_cells(d) {
                let mut h = g.clone();
                h.cells[b as usize][a as usize] = 1;
                let r = h.run(a, b, d, 1);
                if r.1 - r.0 + 1 == 5 && contains((a, b), d, r) {
                    points.push((a, b));
                }
            }
            let mut n = points.len();
            // The two ends of one straight four: five apart, four Black stones between.
            'pairs: for (i1, p) in points.iter().enumerate() {
                for q in &points[i1 + 1..] {
                    if (q.0 - p.0).abs().max((q.1 - p.1).abs()) == 5 {
                        n -= 1;
                        break 'pairs;
                    }
                }
            }
            fours += n;
            four_dir[i] = n > 0;
        }
        if fours >= 2 {
            return Some("double four");
        }
        if depth > 20 {
            return None;
        }
        let mut threes = 0;
        for (i, &d) in DIRS.iter().enumerate() {
            if four_dir[i] {
                continue;
            }
            let real = line_cells(d).into_iter().any(|(a, b)| {
                let mut h = g.clone();
                h.cells[b as usize][a as usize] = 1;
                let r = h.run(x, y, d, 1);
                if r.1 - r.0 + 1 != 4 || !(r.0..=r.1).any(|k| (x + k * d.0, y + k * d.1) == (a, b))
                {
                    return false;
                }
                // Both ends empty and each makes exactly five.
                let ends = [
                    (x + (r.0 - 1) * d.0, y + (r.0 - 1) * d.1),
                    (x + (r.1 + 1) * d.0, y + (r.1 + 1) * d.1),
                ];
                let straight = ends.iter().all(|&(ex, ey)| {
                    h.get(ex, ey) == Some(0) && {
                        let mut k = h.clone();
                        k.cells[ey as usize][ex as usize] = 1;
                        k.black_run_len(ex, ey, d) == 5
                    }
                });
                straight && g.forbidden(a, b, depth + 1).is_none()
            });
            threes += real as u32;
        }
        (threes >= 2).then_some("double three")
    }
}

/// A board of `data/gomoku/vcf-puzzles.txt`.
pub struct Puzzle {
    pub title: String,
    pub black: Vec<Cell>,
    pub white: Vec<Cell>,
    pub to_move: Side,
    pub last: String,
}

fn cells(list: &str) -> Vec<Cell> {
    list.split_whitespace()
        .map(|xy| {
            let (x, y) = xy.split_once(',').unwrap();
            Cell::new(x.parse().unwrap(), y.parse().unwrap())
        })
        .collect()
}

/// The boards of `data/gomoku/vcf-puzzles.txt`, in order.
pub fn load() -> Vec<Puzzle> {
    let path = data_path("vcf-puzzles.txt");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut out: Vec<Puzzle> = Vec::new();
    for line in text.lines() {
        if let Some(title) = line.strip_prefix("## ") {
            let to_move = if title.ends_with("to move: white") {
                Side::Second
            } else {
                Side::First
            };
            out.push(Puzzle {
                title: title.to_string(),
                black: Vec::new(),
                white: Vec::new(),
                to_move,
                last: String::new(),
            });
        } else if let Some(list) = line.strip_prefix("black x,y:") {
            out.last_mut().unwrap().black = cells(list);
        } else if let Some(list) = line.strip_prefix("white x,y:") {
            out.last_mut().unwrap().white = cells(list);
        } else if let Some(sq) = line.strip_prefix("mintaka (renju) asserted last VCF move:") {
            out.last_mut().unwrap().last = sq.trim().to_string();
        }
    }
    out
}

/// The board as a move list from the empty board, Black and White alternately.
pub fn move_list(p: &Puzzle, spec: &str) -> String {
    let pos = Gomoku::start();
    let mut words = vec![spec.to_string()];
    for i in 0..p.black.len() {
        words.push(pos.format_move(p.black[i]));
        if let Some(&w) = p.white.get(i) {
            words.push(pos.format_move(w));
        }
    }
    words.join(" ").trim().to_string()
}
