//! The staged move picker: TT move, good captures (MVV-LVA, SEE >= 0), killers, counter move,
//! quiet moves by history, then bad captures. Moves come from the legal generator, so a TT,
//! killer or counter move is played only if it is found in the generated list.

use crate::chess::check::CheckSquares;
use crate::chess::position::see_value;
use crate::chess::{Bitboard, Color, GenType, Move, MoveList, Position};

use super::history::{History, PieceTo};

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
enum Stage {
    TtMove,
    GenNoisy,
    GoodNoisy,
    Killer1,
    Killer2,
    Counter,
    GenQuiet,
    Quiet,
    BadNoisy,
    Done,
}

/// What the picker needs to know about the node beyond the position.
#[derive(Clone, Copy, Default)]
pub struct Context {
    pub tt_move: Option<Move>,
    pub killers: [Option<Move>; 2],
    pub counter: Option<Move>,
    /// Continuation keys of the moves one and two plies back.
    pub prev: [Option<PieceTo>; 2],
}

pub struct MovePicker {
    stage: Stage,
    ctx: Context,
    noisy: MoveList,
    noisy_scores: [i32; 256],
    noisy_next: usize,
    noisy_generated: bool,
    bad: MoveList,
    bad_next: usize,
    quiet: MoveList,
    quiet_scores: [i32; 256],
    quiet_next: usize,
    quiet_generated: bool,
    /// The quiets left are the checks `keep_quiet_checks` kept.
    only_checks_left: bool,
    /// Quiescence: no quiet moves at all (unless in check), no bad captures.
    captures_only: bool,
    /// Made on the first question about checks, for all of the node's moves.
    check_squares: Option<CheckSquares>,
    /// The squares the opponent attacks (a key of the butterfly history), found when a quiet
    /// move is first scored.
    threats: Option<Bitboard>,
}

/// MVV-LVA: the most valuable victim first, the cheapest attacker breaking ties; queening too.
fn noisy_score(pos: &Position, m: Move) -> i32 {
    let victim = pos.captured_role(m).map_or(0, see_value);
    let attacker = pos.moved_piece(m).map_or(0, |p| p.role.index() as i32);
    let promo = m.promotion_role().map_or(0, see_value);
    8 * (victim + promo) - attacker
}

/// Index of the best-scored move from `start` on, swapped to `start`.
fn select_best(list: &mut MoveList, scores: &mut [i32; 256], start: usize) {
    let mut best = start;
    for i in start + 1..list.len() {
        if scores[i] > scores[best] {
            best = i;
        }
    }
    list.as_mut_slice().swap(start, best);
    scores.swap(start, best);
}

impl MovePicker {
    pub fn new(ctx: Context) -> MovePicker {
        MovePicker {
            stage: Stage::TtMove,
            ctx,
            noisy: MoveList::new(),
            noisy_scores: [0; 256],
            noisy_next: 0,
            noisy_generated: false,
            bad: MoveList::new(),
            bad_next: 0,
            quiet: MoveList::new(),
            quiet_scores: [0; 256],
            quiet_next: 0,
            quiet_generated: false,
            only_checks_left: false,
            captures_only: false,
            check_squares: None,
            threats: None,
        }
    }

    /// For quiescence search: noisy moves only, unless `in_check` (then every evasion).
    pub fn new_qsearch(tt_move: Option<Move>, in_check: bool) -> MovePicker {
        let mut picker = MovePicker::new(Context {
            tt_move,
            ..Context::default()
        });
        picker.captures_only = !in_check;
        picker
    }

    fn gen_noisy(&mut self, pos: &Position) {
        if !self.noisy_generated {
            pos.generate(GenType::Noisy, &mut self.noisy);
            self.noisy_generated = true;
        }
    }

    fn gen_quiet(&mut self, pos: &Position) {
        if !self.quiet_generated {
            pos.generate(GenType::Quiet, &mut self.quiet);
            self.quiet_generated = true;
        }
    }

    fn is_special(&self, m: Move) -> bool {
        Some(m) == self.ctx.tt_move
            || Some(m) == self.ctx.killers[0]
            || Some(m) == self.ctx.killers[1]
            || Some(m) == self.ctx.counter
    }

    /// Whether `m`, a legal move of `pos` (this node's position), gives check.
    pub fn gives_check(&mut self, pos: &Position, m: Move) -> bool {
        self.check_squares
            .get_or_insert_with(|| CheckSquares::new(pos))
            .gives_check(pos, m)
    }

    /// The squares the side not to move in `pos` (this node's position) attacks.
    pub fn threats(&mut self, pos: &Position) -> Bitboard {
        *self
            .threats
            .get_or_insert_with(|| pos.attacked_squares(!pos.turn()))
    }

    /// [`MovePicker::threats`] if a quiet move needed them.
    pub fn threats_found(&self) -> Option<Bitboard> {
        self.threats
    }

    /// Drops the quiet moves not yet returned that do not give check (or were returned as the
    /// TT move, a killer or the counter), keeping the others' order and scores: once pruning
    /// skips quiets, the picker scores and selects among the few checks instead of every quiet.
    fn keep_quiet_checks(&mut self, pos: &Position) {
        let mut kept = self.quiet_next;
        for i in self.quiet_next..self.quiet.len() {
            let m = self.quiet[i];
            if !self.is_special(m) && self.gives_check(pos, m) {
                self.quiet_scores[kept] = self.quiet_scores[i];
                self.quiet.as_mut_slice()[kept] = m;
                kept += 1;
            }
        }
        self.quiet.truncate(kept);
        self.only_checks_left = true;
    }

    /// The next move to search. With `skip_quiets`, quiet moves not yet returned are dropped
    /// unless they give check (late-move and futility pruning must not hide a mating attack);
    /// captures still follow.
    pub fn next(&mut self, pos: &Position, history: &History, skip_quiets: bool) -> Option<Move> {
        loop {
            match self.stage {
                Stage::TtMove => {
                    self.stage = Stage::GenNoisy;
                    if let Some(tt) = self.ctx.tt_move {
                        let legal = if tt.is_noisy() {
                            self.gen_noisy(pos);
                            self.noisy.contains(tt)
                        } else if !self.captures_only {
                            self.gen_quiet(pos);
                            self.quiet.contains(tt)
                        } else {
                            false
                        };
                        if legal {
                            return Some(tt);
                        }
                    }
                }
                Stage::GenNoisy => {
                    self.gen_noisy(pos);
                    for i in 0..self.noisy.len() {
                        self.noisy_scores[i] = noisy_score(pos, self.noisy[i]);
                    }
                    self.stage = Stage::GoodNoisy;
                }
                Stage::GoodNoisy => {
                    if self.noisy_next >= self.noisy.len() {
                        self.stage = Stage::Killer1;
                        continue;
                    }
                    select_best(&mut self.noisy, &mut self.noisy_scores, self.noisy_next);
                    let m = self.noisy[self.noisy_next];
                    self.noisy_next += 1;
                    if Some(m) == self.ctx.tt_move {
                        continue;
                    }
                    // Under-promotions and losing captures wait until the end.
                    let under = m
                        .promotion_role()
                        .is_some_and(|r| r != crate::chess::Role::Queen);
                    if under || !pos.see_ge(m, 0) {
                        self.bad.push(m);
                        continue;
                    }
                    return Some(m);
                }
                Stage::Killer1 | Stage::Killer2 | Stage::Counter => {
                    let candidate = match self.stage {
                        Stage::Killer1 => self.ctx.killers[0],
                        Stage::Killer2 => self.ctx.killers[1],
                        _ => self.ctx.counter,
                    };
                    let dup = match self.stage {
                        Stage::Killer2 => candidate == self.ctx.killers[0],
                        Stage::Counter => {
                            candidate == self.ctx.killers[0] || candidate == self.ctx.killers[1]
                        }
                        _ => false,
                    };
                    self.stage = match self.stage {
                        Stage::Killer1 => Stage::Killer2,
                        Stage::Killer2 => Stage::Counter,
                        _ => Stage::GenQuiet,
                    };
                    if self.captures_only || dup {
                        continue;
                    }
                    if let Some(m) =
                        candidate.filter(|&m| Some(m) != self.ctx.tt_move && !m.is_noisy())
                    {
                        self.gen_quiet(pos);
                        if self.quiet.contains(m) && (!skip_quiets || self.gives_check(pos, m)) {
                            return Some(m);
                        }
                    }
                }
                Stage::GenQuiet => {
                    if self.captures_only {
                        self.stage = Stage::BadNoisy;
                        continue;
                    }
                    self.gen_quiet(pos);
                    // Pruning may already skip quiets: then only the checks need scores.
                    if skip_quiets {
                        self.keep_quiet_checks(pos);
                    }
                    let us: Color = pos.turn();
                    let threats = self.threats(pos);
                    for i in 0..self.quiet.len() {
                        let m = self.quiet[i];
                        let piece_to = PieceTo {
                            piece: pos.moved_piece(m).expect("generated move has a piece"),
                            to: m.to(),
                        };
                        self.quiet_scores[i] =
                            history.quiet_score(us, m, piece_to, &self.ctx.prev, threats);
                    }
                    self.stage = Stage::Quiet;
                }
                Stage::Quiet => {
                    if skip_quiets && !self.only_checks_left {
                        self.keep_quiet_checks(pos);
                    }
                    if self.captures_only || self.quiet_next >= self.quiet.len() {
                        self.stage = Stage::BadNoisy;
                        continue;
                    }
                    select_best(&mut self.quiet, &mut self.quiet_scores, self.quiet_next);
                    let m = self.quiet[self.quiet_next];
                    self.quiet_next += 1;
                    if !self.is_special(m) {
                        return Some(m);
                    }
                }
                Stage::BadNoisy => {
                    if self.captures_only || self.bad_next >= self.bad.len() {
                        self.stage = Stage::Done;
                        continue;
                    }
                    let m = self.bad[self.bad_next];
                    self.bad_next += 1;
                    return Some(m);
                }
                Stage::Done => return None,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(pos: &Position, ctx: Context) -> Vec<Move> {
        let mut picker = MovePicker::new(ctx);
        let history = History::default();
        std::iter::from_fn(|| picker.next(pos, &history, false)).collect()
    }

    #[test]
    fn yields_every_legal_move_once_in_stage_order() {
        // White: Qd1xd5 loses the queen to ...e6xd5? No: d5 is defended by the e6 pawn; Nc3xd5
        // wins a pawn for a knight only if undefended. Check order: TT, good captures, killer,
        // quiets, bad captures.
        let pos = Position::from_fen("4k3/8/4p3/3p4/8/2N5/8/3QK3 w - - 0 1").unwrap();
        let qxd5 = pos.parse_uci("d1d5").unwrap();
        let nxd5 = pos.parse_uci("c3d5").unwrap();
        let tt = pos.parse_uci("e1f2").unwrap();
        let killer = pos.parse_uci("c3b5").unwrap();
        let bogus_counter = Position::startpos().parse_uci("e2e4").unwrap();
        let ctx = Context {
            tt_move: Some(tt),
            killers: [Some(killer), None],
            counter: Some(bogus_counter),
            prev: [None, None],
        };
        let moves = all(&pos, ctx);
        let legal = pos.legal_moves();
        assert_eq!(moves.len(), legal.len());
        for m in legal.iter() {
            assert_eq!(moves.iter().filter(|&&x| x == *m).count(), 1);
        }
        assert_eq!(moves[0], tt);
        assert_eq!(
            moves[1], killer,
            "both captures lose material, so the killer comes next"
        );
        let n = moves.len();
        let tail = &moves[n - 2..];
        assert!(
            tail.contains(&qxd5) && tail.contains(&nxd5),
            "bad captures last"
        );
        // In this order the knight (cheaper attacker) is tried first among equal victims.
        assert!(!moves.contains(&bogus_counter));
    }

    #[test]
    fn good_captures_by_mvv_lva() {
        let pos = Position::from_fen("4k3/8/8/1q1r4/2P5/8/8/4K3 w - - 0 1").unwrap();
        let moves = all(&pos, Context::default());
        assert_eq!(pos.uci(moves[0]), "c4b5", "queen before rook");
        assert_eq!(pos.uci(moves[1]), "c4d5");
    }

    #[test]
    fn skipped_quiets_still_include_checks() {
        // After the first capture, quiets are skipped: the other capture comes, and of the quiet
        // moves the checks alone, the killer's among them.
        let pos = Position::from_fen("4k3/8/8/3p4/8/2N5/8/3QK3 w - - 0 1").unwrap();
        let killer = pos.parse_uci("d1e2").unwrap();
        let mut picker = MovePicker::new(Context {
            killers: [Some(killer), None],
            ..Context::default()
        });
        let h = History::default();
        let first = picker.next(&pos, &h, false).unwrap();
        assert_eq!(pos.uci(first), "c3d5");
        let rest: Vec<_> = std::iter::from_fn(|| picker.next(&pos, &h, true)).collect();
        assert!(rest.contains(&pos.parse_uci("d1d5").unwrap()));
        let quiets: Vec<_> = rest.iter().filter(|m| !m.is_noisy()).collect();
        assert!(quiets.iter().all(|&&m| pos.gives_check(m)), "only checks");
        assert!(quiets.contains(&&killer));
        let checks = pos
            .legal_moves()
            .iter()
            .filter(|&&m| !m.is_noisy() && pos.gives_check(m))
            .count();
        assert_eq!(quiets.len(), checks);
    }

    #[test]
    fn qsearch_picker_only_captures_unless_in_check() {
        let pos = Position::from_fen("4k3/8/8/1q1r4/2P5/8/8/4K3 w - - 0 1").unwrap();
        let mut picker = MovePicker::new_qsearch(None, false);
        let h = History::default();
        let moves: Vec<_> = std::iter::from_fn(|| picker.next(&pos, &h, false)).collect();
        assert_eq!(moves.len(), 2);
        let check = Position::from_fen("4k3/8/8/8/8/8/3q4/4K3 w - - 0 1").unwrap();
        let mut picker = MovePicker::new_qsearch(None, true);
        let moves: Vec<_> = std::iter::from_fn(|| picker.next(&check, &h, false)).collect();
        assert_eq!(moves.len(), check.legal_moves().len());
    }
}
