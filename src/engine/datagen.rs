//! Training data by self-play: each worker runs its own single-threaded [`Engine`] at a fixed
//! node budget from randomised openings, adjudicates, and hands back finished games as
//! [`GameRecord`]s: the start, each searched move with its score, and the result.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Receiver;

use crate::chess::{Color, Move, Outcome, Position};

use super::nnue::data::WhiteResult;
use super::nnue::games::{GameRecord, white_result};
use super::{Engine, EngineOptions, Evaluation, Score, SearchEvent, SearchLimits};
use crate::chess::Rng;

/// How games are generated.
#[derive(Clone, Debug)]
pub struct DatagenConfig {
    /// Search budget per move.
    pub nodes: u64,
    /// Random plies played from the opening before the engine takes over: min..=max.
    pub random_plies: (u32, u32),
    /// Start positions to pick from (the start position if empty).
    pub openings: Vec<Position>,
    /// Openings scored beyond this by a quick search are thrown away as already decided.
    pub max_opening_score: i32,
    /// A game is adjudicated as won once the score stays beyond this for `win_plies` plies.
    pub win_score: i32,
    pub win_plies: u32,
    /// A game is adjudicated drawn once, after `draw_after_ply`, the score stays within
    /// `draw_score` for `draw_plies` plies.
    pub draw_score: i32,
    pub draw_plies: u32,
    pub draw_after_ply: u32,
    /// Games longer than this are drawn.
    pub max_plies: u32,
    pub hash_mb: usize,
    /// The evaluation that plays (the current best network makes the next one's data).
    pub evaluation: Evaluation,
}

impl Default for DatagenConfig {
    fn default() -> Self {
        DatagenConfig {
            nodes: 5_000,
            random_plies: (8, 10),
            openings: Vec::new(),
            max_opening_score: 1_000,
            win_score: 2_000,
            win_plies: 4,
            draw_score: 10,
            draw_plies: 12,
            draw_after_ply: 80,
            max_plies: 400,
            hash_mb: 16,
            evaluation: Evaluation::default(),
        }
    }
}

/// One worker's engine and its event stream.
pub struct SelfPlay {
    engine: Engine,
    events: Receiver<SearchEvent>,
    rng: Rng,
}

/// Score and move of one search.
struct Verdict {
    score: Score,
    best: Option<Move>,
}

impl SelfPlay {
    pub fn new(config: &DatagenConfig, seed: u64) -> SelfPlay {
        let (engine, events) = Engine::new(EngineOptions {
            hash_mb: config.hash_mb,
            threads: 1,
            evaluation: config.evaluation.clone(),
            ..EngineOptions::default()
        });
        SelfPlay {
            engine,
            events,
            rng: Rng::new(seed),
        }
    }

    fn search(&mut self, start: &Position, moves: &[Move], nodes: u64) -> Verdict {
        // The moves were generated legal from `start`, so this cannot fail.
        let _ = self.engine.set_position(start.clone(), moves);
        self.engine.search_here(SearchLimits::nodes(nodes));
        let mut score = Score::Cp(0);
        for event in self.events.try_iter() {
            match event {
                SearchEvent::Info(info) if info.multipv == 1 => score = info.score,
                SearchEvent::BestMove { best, .. } => return Verdict { score, best },
                _ => {}
            }
        }
        Verdict { score, best: None }
    }

    /// A start position with random plies played, not yet decided by a quick look.
    fn opening(&mut self, config: &DatagenConfig) -> (Position, Vec<Move>) {
        loop {
            let start = if config.openings.is_empty() {
                Position::startpos()
            } else {
                let i = (self.rng.next_u64() % config.openings.len() as u64) as usize;
                config.openings[i].clone()
            };
            let (lo, hi) = config.random_plies;
            let plies = lo + (self.rng.next_u64() % u64::from(hi.saturating_sub(lo) + 1)) as u32;
            let mut pos = start.clone();
            let mut moves = Vec::new();
            for _ in 0..plies {
                let legal = pos.legal_moves();
                if legal.is_empty() {
                    break;
                }
                let m = legal[(self.rng.next_u64() % legal.len() as u64) as usize];
                pos.play_unchecked(m);
                moves.push(m);
            }
            if pos.legal_moves().is_empty() {
                continue;
            }
            self.engine.new_game();
            let verdict = self.search(&start, &moves, config.nodes);
            if matches!(verdict.score, Score::Cp(cp) if cp.abs() <= config.max_opening_score) {
                return (start, moves);
            }
        }
    }

    /// Plays one game.
    pub fn play_game(&mut self, config: &DatagenConfig) -> GameRecord {
        let (start, mut moves) = self.opening(config);
        let mut pos = start.clone();
        for &m in &moves {
            pos.play_unchecked(m);
        }
        let mut history: Vec<u64> = Vec::new();
        {
            let mut replay = start.clone();
            for &m in &moves {
                history.push(replay.hash());
                replay.play_unchecked(m);
            }
        }
        let first = pos.clone();
        let mut plies: Vec<(Move, i16)> = Vec::new();
        let (mut win_streak, mut loss_streak, mut draw_streak) = (0u32, 0u32, 0u32);
        let mut ply = moves.len() as u32;

        let result = loop {
            if let Some(outcome) = pos.outcome(&history) {
                break match outcome {
                    Outcome::Checkmate { winner } => white_result(winner),
                    Outcome::Draw(_) => WhiteResult::Draw,
                };
            }
            if ply >= config.max_plies {
                break WhiteResult::Draw;
            }
            let verdict = self.search(&start, &moves, config.nodes);
            let Some(best) = verdict.best else {
                break WhiteResult::Draw;
            };
            let stm_cp = match verdict.score {
                Score::Cp(cp) => cp,
                // A found mate decides the game: the mating side wins.
                Score::Mate(n) => break white_result(if n > 0 { pos.turn() } else { !pos.turn() }),
            };
            let white_cp = if pos.turn() == Color::White {
                stm_cp
            } else {
                -stm_cp
            };

            // Win adjudication counts from White's view so both sides' searches agree.
            if white_cp >= config.win_score {
                win_streak += 1;
                loss_streak = 0;
            } else if white_cp <= -config.win_score {
                loss_streak += 1;
                win_streak = 0;
            } else {
                win_streak = 0;
                loss_streak = 0;
            }
            if win_streak >= config.win_plies {
                break WhiteResult::Win;
            }
            if loss_streak >= config.win_plies {
                break WhiteResult::Loss;
            }
            if ply >= config.draw_after_ply && white_cp.abs() <= config.draw_score {
                draw_streak += 1;
                if draw_streak >= config.draw_plies {
                    break WhiteResult::Draw;
                }
            } else {
                draw_streak = 0;
            }

            plies.push((best, white_cp.clamp(-32_000, 32_000) as i16));
            history.push(pos.hash());
            pos.play_unchecked(best);
            moves.push(best);
            ply += 1;
        };
        GameRecord {
            start: first,
            result,
            plies,
        }
    }
}

/// Runs `workers` self-play loops until `stop` is set or `on_game` returns false; `on_game`
/// receives each finished game (called from the worker threads).
pub fn run(
    config: &DatagenConfig,
    workers: usize,
    seed: u64,
    stop: &AtomicBool,
    on_game: &(dyn Fn(GameRecord) -> bool + Sync),
) {
    std::thread::scope(|s| {
        for worker in 0..workers.max(1) {
            s.spawn(move || {
                let mut selfplay =
                    SelfPlay::new(config, seed ^ ((worker as u64 + 1) * 0x9e37_79b9));
                while !stop.load(Ordering::Relaxed) {
                    let game = selfplay.play_game(config);
                    if !on_game(game) {
                        stop.store(true, Ordering::Relaxed);
                    }
                }
            });
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn self_play_games_give_consistent_records() {
        let config = DatagenConfig {
            nodes: 300,
            max_plies: 60,
            hash_mb: 1,
            ..DatagenConfig::default()
        };
        let mut selfplay = SelfPlay::new(&config, 42);
        for _ in 0..3 {
            let records = selfplay.play_game(&config).positions();
            let Some(first) = records.first() else {
                continue;
            };
            assert!(records.iter().all(|r| r.result == first.result));
            for record in &records {
                assert!(record.best_move.is_some());
                assert!(record.occupancy.count() >= 2);
            }
        }
    }
}
