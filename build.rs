//! Build-time tables for the chess core: a magic-number search for rook and bishop attacks, the
//! attack table it indexes, and the between/line tables. Everything is written to OUT_DIR, so
//! start-up does no work and the source tree holds no generated code.

use std::env;
use std::fs;
use std::path::Path;

const ROOK_DIRS: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const BISHOP_DIRS: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

/// Slow reference: attacks of a slider on `sq` along `dirs`, stopping at the first blocker.
fn slider_attacks(sq: usize, occupied: u64, dirs: &[(i32, i32)]) -> u64 {
    let mut attacks = 0;
    for &(df, dr) in dirs {
        let (mut f, mut r) = ((sq % 8) as i32, (sq / 8) as i32);
        loop {
            f += df;
            r += dr;
            if !(0..8).contains(&f) || !(0..8).contains(&r) {
                break;
            }
            let bit = 1u64 << (r * 8 + f);
            attacks |= bit;
            if occupied & bit != 0 {
                break;
            }
        }
    }
    attacks
}

/// The squares whose occupancy matters: the rays without their last square.
fn relevant_mask(sq: usize, dirs: &[(i32, i32)]) -> u64 {
    let mut mask = 0;
    for &(df, dr) in dirs {
        let (mut f, mut r) = ((sq % 8) as i32, (sq / 8) as i32);
        loop {
            f += df;
            r += dr;
            let (nf, nr) = (f + df, r + dr);
            if !(0..8).contains(&nf) || !(0..8).contains(&nr) {
                break;
            }
            mask |= 1u64 << (r * 8 + f);
        }
    }
    mask
}

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        // xorshift64*
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn sparse(&mut self) -> u64 {
        self.next() & self.next() & self.next()
    }
}

struct Magic {
    mask: u64,
    magic: u64,
    shift: u32,
    offset: usize,
}

/// Finds a magic for every square and appends each square's attack table to `table`.
fn find_magics(dirs: &[(i32, i32)], rng: &mut Rng, table: &mut Vec<u64>) -> Vec<Magic> {
    let mut magics = Vec::with_capacity(64);
    for sq in 0..64 {
        let mask = relevant_mask(sq, dirs);
        let bits = mask.count_ones();
        let size = 1usize << bits;
        // Every subset of the mask (Carry-Rippler) with its attack set.
        let mut occupancies = Vec::with_capacity(size);
        let mut subset = 0u64;
        loop {
            occupancies.push((subset, slider_attacks(sq, subset, dirs)));
            subset = subset.wrapping_sub(mask) & mask;
            if subset == 0 {
                break;
            }
        }
        let shift = 64 - bits;
        let mut slots = vec![0u64; size];
        let mut used = vec![0u32; size];
        let mut attempt = 0u32;
        let magic = loop {
            let candidate = rng.sparse();
            if (mask.wrapping_mul(candidate) >> 56).count_ones() < 6 {
                continue;
            }
            attempt += 1;
            let ok = occupancies.iter().all(|&(occ, attacks)| {
                let index = (occ.wrapping_mul(candidate) >> shift) as usize;
                if used[index] != attempt {
                    used[index] = attempt;
                    slots[index] = attacks;
                    true
                } else {
                    slots[index] == attacks
                }
            });
            if ok {
                break candidate;
            }
        };
        let offset = table.len();
        table.extend_from_slice(&slots);
        magics.push(Magic {
            mask,
            magic,
            shift,
            offset,
        });
    }
    magics
}

fn magic_source(name: &str, magics: &[Magic]) -> String {
    let mut s = format!("pub(crate) static {name}: [Magic; 64] = [\n");
    for m in magics {
        s += &format!(
            "    Magic {{ mask: {:#018x}, magic: {:#018x}, shift: {}, offset: {} }},\n",
            m.mask, m.magic, m.shift, m.offset
        );
    }
    s + "];\n"
}

fn write_u64s(path: &Path, values: &[u64], big_endian: bool) {
    let bytes: Vec<u8> = values
        .iter()
        .flat_map(|v| {
            if big_endian {
                v.to_be_bytes()
            } else {
                v.to_le_bytes()
            }
        })
        .collect();
    fs::write(path, bytes).expect("write table");
}

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let out = env::var("OUT_DIR").expect("OUT_DIR");
    let out = Path::new(&out);
    let big_endian = env::var("CARGO_CFG_TARGET_ENDIAN").as_deref() == Ok("big");

    let mut rng = Rng(0x4b69_6269_747a_6572); // "Kibitzer": a fixed seed keeps builds reproducible.
    let mut table = Vec::new();
    let rook = find_magics(&ROOK_DIRS, &mut rng, &mut table);
    let bishop = find_magics(&BISHOP_DIRS, &mut rng, &mut table);

    let mut between = vec![0u64; 64 * 64];
    let mut line = vec![0u64; 64 * 64];
    for a in 0..64 {
        for b in 0..64 {
            if a == b {
                continue;
            }
            let bit_b = 1u64 << b;
            for dirs in [&ROOK_DIRS, &BISHOP_DIRS] {
                if slider_attacks(a, 0, dirs) & bit_b != 0 {
                    between[a * 64 + b] =
                        slider_attacks(a, bit_b, dirs) & slider_attacks(b, 1u64 << a, dirs);
                    line[a * 64 + b] = (slider_attacks(a, 0, dirs) & slider_attacks(b, 0, dirs))
                        | 1u64 << a
                        | bit_b;
                }
            }
        }
    }

    write_u64s(&out.join("slider_attacks.bin"), &table, big_endian);
    write_u64s(&out.join("between.bin"), &between, big_endian);
    write_u64s(&out.join("line.bin"), &line, big_endian);
    let source = format!(
        "pub(crate) const SLIDER_TABLE_LEN: usize = {};\n{}{}",
        table.len(),
        magic_source("ROOK_MAGICS", &rook),
        magic_source("BISHOP_MAGICS", &bishop)
    );
    fs::write(out.join("magics.rs"), source).expect("write magics.rs");
}
