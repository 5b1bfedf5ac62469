//! A validated Polyglot book held in memory, probed by binary search on the position key.

use std::borrow::Cow;
use std::io::Read;
use std::path::Path;

use super::entry::{ENTRY_SIZE, Entry, decode_move};
use super::error::BookError;
use crate::chess::{Move, Position};

/// One book move of a position.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct BookMove {
    pub mv: Move,
    pub weight: u16,
    pub learn: u32,
}

/// Everything a book says about a position: its legal moves, and the entries that name no legal
/// move (a corrupt or foreign book), which callers report as warnings.
#[derive(Clone, Debug, Default)]
pub struct Probe {
    pub moves: Vec<BookMove>,
    pub illegal: Vec<Entry>,
}

/// The largest book file read: 128 million entries, several times the largest books published.
pub const MAX_BOOK_BYTES: u64 = 2 << 30;

/// A Polyglot book: a whole number of 16-byte entries sorted by key (checked on opening).
#[derive(Clone, Debug)]
pub struct Book {
    data: Cow<'static, [u8]>,
}

/// The default book, built from books/openings.pgn by `kibitzer book build`.
static EMBEDDED: &[u8] = include_bytes!("../../books/kibitzer.bin");

impl Book {
    /// Reads a book file. Only a regular file of at most `MAX_BOOK_BYTES` is read: a FIFO
    /// would block for ever and a device such as /dev/zero would never end.
    pub fn open(path: &Path) -> Result<Book, BookError> {
        let io_error = |source| BookError::Io {
            path: path.to_path_buf(),
            source,
        };
        let meta = std::fs::metadata(path).map_err(io_error)?;
        if !meta.is_file() {
            return Err(BookError::NotAFile {
                path: path.to_path_buf(),
            });
        }
        if meta.len() > MAX_BOOK_BYTES {
            return Err(BookError::TooLarge {
                path: path.to_path_buf(),
                len: meta.len(),
            });
        }
        let mut data = Vec::with_capacity(meta.len() as usize);
        // Never more than the size seen: a file that grows meanwhile cannot grow the memory.
        std::fs::File::open(path)
            .and_then(|f| f.take(MAX_BOOK_BYTES + 1).read_to_end(&mut data))
            .map_err(io_error)?;
        if data.len() as u64 > MAX_BOOK_BYTES {
            return Err(BookError::TooLarge {
                path: path.to_path_buf(),
                len: data.len() as u64,
            });
        }
        Book::from_bytes(Cow::Owned(data), &path.display().to_string())
    }

    /// The book compiled into the binary (books/kibitzer.bin).
    pub fn embedded() -> Book {
        // A test checks that the committed book validates; this cannot fail at run time.
        Book::from_bytes(Cow::Borrowed(EMBEDDED), "embedded book")
            .expect("books/kibitzer.bin is a valid book")
    }

    /// Checks the size and the key order; `name` labels errors.
    pub fn from_bytes(data: Cow<'static, [u8]>, name: &str) -> Result<Book, BookError> {
        if !data.len().is_multiple_of(ENTRY_SIZE) {
            return Err(BookError::Truncated {
                name: name.to_string(),
                len: data.len(),
            });
        }
        let book = Book { data };
        for index in 1..book.len() {
            let (previous, key) = (book.key(index - 1), book.key(index));
            if key < previous {
                return Err(BookError::Unsorted {
                    name: name.to_string(),
                    index,
                    key,
                    previous,
                });
            }
        }
        Ok(book)
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.data.len() / ENTRY_SIZE
    }

    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }

    pub fn entry(&self, index: usize) -> Entry {
        let start = index * ENTRY_SIZE;
        let bytes: &[u8; ENTRY_SIZE] = self.data[start..start + ENTRY_SIZE]
            .try_into()
            .expect("slice of ENTRY_SIZE bytes");
        Entry::from_bytes(bytes)
    }

    fn key(&self, index: usize) -> u64 {
        let start = index * ENTRY_SIZE;
        u64::from_be_bytes(
            self.data[start..start + 8]
                .try_into()
                .expect("slice of 8 bytes"),
        )
    }

    /// The entries stored under `key`, in file order.
    pub fn entries(&self, key: u64) -> impl Iterator<Item = Entry> + '_ {
        let (mut lo, mut hi) = (0, self.len());
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if self.key(mid) < key {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        (lo..self.len())
            .take_while(move |&i| self.key(i) == key)
            .map(|i| self.entry(i))
    }

    /// The book's legal moves in `pos` (weight-0 entries included, in file order) and the
    /// entries that are not legal moves.
    pub fn probe_report(&self, pos: &Position) -> Probe {
        let mut probe = Probe::default();
        for entry in self.entries(pos.hash()) {
            match decode_move(pos, entry.raw_move) {
                Some(mv) => probe.moves.push(BookMove {
                    mv,
                    weight: entry.weight,
                    learn: entry.learn,
                }),
                None => probe.illegal.push(entry),
            }
        }
        probe
    }

    /// The book's legal moves in `pos`, in file order (weight-0 entries included; never picked).
    pub fn probe(&self, pos: &Position) -> Vec<BookMove> {
        self.probe_report(pos).moves
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::book::Variety;
    use crate::book::encode_move;
    use crate::chess::Rng;

    fn book_of(entries: &[Entry]) -> Result<Book, BookError> {
        let bytes: Vec<u8> = entries.iter().flat_map(|e| e.to_bytes()).collect();
        Book::from_bytes(Cow::Owned(bytes), "test")
    }

    fn entry(pos: &Position, uci: &str, weight: u16) -> Entry {
        Entry {
            key: pos.hash(),
            raw_move: encode_move(pos.parse_uci(uci).unwrap()),
            weight,
            learn: 0,
        }
    }

    #[test]
    fn truncated_book_is_an_error() {
        let err = Book::from_bytes(Cow::Owned(vec![0; 33]), "short.bin").unwrap_err();
        assert!(matches!(err, BookError::Truncated { len: 33, .. }));
        assert!(err.to_string().contains("short.bin"));
    }

    #[test]
    fn unsorted_book_is_an_error() {
        let e = |key| Entry {
            key,
            raw_move: 1,
            weight: 1,
            learn: 0,
        };
        let err = book_of(&[e(1), e(3), e(2)]).unwrap_err();
        assert!(matches!(err, BookError::Unsorted { index: 2, .. }), "{err}");
    }

    #[test]
    fn illegal_entries_are_reported_not_played() {
        let pos = Position::startpos();
        let mut bad = entry(&pos, "e2e4", 5);
        bad.raw_move = (28 << 6) | 36; // e4e5: no piece on e4
        let book = book_of(&[entry(&pos, "d2d4", 1), bad]).unwrap();
        let probe = book.probe_report(&pos);
        assert_eq!(probe.moves.len(), 1);
        assert_eq!(probe.illegal, vec![bad]);
        assert_eq!(pos.uci(book.best(&pos).unwrap().mv), "d2d4");
    }

    #[test]
    fn weight_zero_is_never_picked() {
        let pos = Position::startpos();
        let book = book_of(&[entry(&pos, "e2e4", 0), entry(&pos, "d2d4", 1)]).unwrap();
        let mut rng = Rng::new(7);
        for variety in [0.0, 0.5, 1.0, 10.0] {
            for _ in 0..200 {
                let m = book.pick(&pos, &mut rng, Variety::new(variety)).unwrap();
                assert_eq!(pos.uci(m), "d2d4");
            }
        }
        let only_zero = book_of(&[entry(&pos, "e2e4", 0)]).unwrap();
        assert_eq!(only_zero.pick(&pos, &mut rng, Variety::PROPORTIONAL), None);
        assert_eq!(only_zero.probe(&pos).len(), 1);
    }

    #[test]
    fn proportional_pick_follows_weights() {
        let pos = Position::startpos();
        let book = book_of(&[entry(&pos, "e2e4", 3), entry(&pos, "d2d4", 1)]).unwrap();
        let mut rng = Rng::new(1);
        let e4 = (0..4000)
            .filter(|_| {
                pos.uci(book.pick(&pos, &mut rng, Variety::PROPORTIONAL).unwrap()) == "e2e4"
            })
            .count();
        assert!((2800..3200).contains(&e4), "{e4} of 4000");
    }

    #[test]
    fn castling_decodes_from_king_takes_rook_and_king_two_squares() {
        let pos = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
        let king_takes_rook = (4 << 6) | 7; // e1h1
        let two_squares = (4 << 6) | 6; // e1g1
        for raw in [king_takes_rook, two_squares] {
            let m = decode_move(&pos, raw).unwrap();
            assert!(m.is_castle());
            assert_eq!(pos.san(m), "O-O");
        }
        let castle = decode_move(&pos, king_takes_rook).unwrap();
        assert_eq!(encode_move(castle), king_takes_rook);
    }

    #[test]
    fn chess960_castling_is_king_takes_rook() {
        let pos = Position::from_fen("4k3/8/8/8/8/8/8/1R2K1R1 w GB - 0 1").unwrap();
        let raw = (4 << 6) | 6; // e1g1: king takes the g1 rook
        let m = decode_move(&pos, raw).unwrap();
        assert!(m.is_castle());
        assert_eq!(encode_move(m), raw);
    }

    #[test]
    fn embedded_book_is_valid() {
        let book = Book::embedded();
        assert!(!book.probe(&Position::startpos()).is_empty());
    }
}
