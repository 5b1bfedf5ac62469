//! The hot loops of inference: portable loops, and on x86-64 explicit AVX2 versions picked at run
//! time (the compiler's own vectorisation of the portable loops was poor). Integer arithmetic
//! makes every path give identical results; a test compares them.

use super::network::QA;

/// Sum over i of clamp(acc[i], 0, QA)^2 * weights[i], in units of QA^2 * QB.
#[inline]
pub fn screlu_dot(acc: &[i16], weights: &[i16]) -> i32 {
    assert!(acc.len().is_multiple_of(16) && weights.len() == acc.len());
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("avx2") {
        // SAFETY: AVX2 support was just checked; the lengths were.
        return unsafe { screlu_dot_avx2(acc, weights) };
    }
    screlu_dot_scalar(acc, weights)
}

/// `out = from + add - sub` for feature columns, element-wise with wrapping i16 arithmetic, in
/// one pass over the accumulator (a child's from its parent's, or a fresh one from the biases).
#[inline]
pub fn add_sub_from(out: &mut [i16], from: &[i16], add: &[&[i16]], sub: &[&[i16]]) {
    let n = out.len();
    assert!(n.is_multiple_of(16) && from.len() == n && add.iter().chain(sub).all(|c| c.len() == n));
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("avx2") {
        // SAFETY: AVX2 support was just checked; the lengths were.
        return unsafe { add_sub_from_avx2(out, from, add, sub) };
    }
    add_sub_from_scalar(out, from, add, sub)
}

pub(super) fn add_sub_from_scalar(out: &mut [i16], from: &[i16], add: &[&[i16]], sub: &[&[i16]]) {
    for (i, (o, &f)) in out.iter_mut().zip(from).enumerate() {
        let added = add.iter().fold(f, |v, c| v.wrapping_add(c[i]));
        *o = sub.iter().fold(added, |v, c| v.wrapping_sub(c[i]));
    }
}

pub(super) fn screlu_dot_scalar(acc: &[i16], weights: &[i16]) -> i32 {
    // (clamped * weight) fits i16 because output weights are clipped to |w| <= 127 (QB = 64);
    // multiplying once more by `clamped` widens to i32 (the madd pattern).
    acc.iter()
        .zip(weights)
        .map(|(&a, &w)| {
            let clamped = a.clamp(0, QA as i16);
            i32::from(clamped.wrapping_mul(w)) * i32::from(clamped)
        })
        .sum()
}

/// The same sum as [`screlu_dot_scalar`], in explicit 16-lane steps: the compiler's own
/// vectorisation of that loop loads lanes one at a time. Safety: the slices are as long as each
/// other, a multiple of 16.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn screlu_dot_avx2(acc: &[i16], weights: &[i16]) -> i32 {
    use std::arch::x86_64::*;
    let (zero, qa) = (_mm256_setzero_si256(), _mm256_set1_epi16(QA as i16));
    let mut sum = _mm256_setzero_si256();
    for (a, w) in acc.chunks_exact(16).zip(weights.chunks_exact(16)) {
        // SAFETY: each chunk is 16 i16s, 32 bytes; unaligned loads accept any address.
        let (a, w) = unsafe {
            (
                _mm256_loadu_si256(a.as_ptr().cast()),
                _mm256_loadu_si256(w.as_ptr().cast()),
            )
        };
        let clamped = _mm256_min_epi16(_mm256_max_epi16(a, zero), qa);
        let product = _mm256_mullo_epi16(clamped, w);
        sum = _mm256_add_epi32(sum, _mm256_madd_epi16(product, clamped));
    }
    let half = _mm_add_epi32(
        _mm256_castsi256_si128(sum),
        _mm256_extracti128_si256::<1>(sum),
    );
    let quarter = _mm_add_epi32(half, _mm_unpackhi_epi64(half, half));
    let pair = _mm_add_epi32(quarter, _mm_shuffle_epi32::<0b01>(quarter));
    _mm_cvtsi128_si32(pair)
}

/// Safety: every slice is as long as `out`, a multiple of 16.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn add_sub_from_avx2(out: &mut [i16], from: &[i16], add: &[&[i16]], sub: &[&[i16]]) {
    // A move changes one to four columns in a few fixed shapes (quiet, capture, castling); with
    // the counts known at compile time the column loops unroll, which takes about 40% off an
    // update's instructions (callgrind).
    // SAFETY: the caller's lengths hold for every shape.
    unsafe {
        match (add, sub) {
            (&[a], &[s]) => add_sub_fixed_avx2(out, from, [a], [s]),
            (&[a], &[s0, s1]) => add_sub_fixed_avx2(out, from, [a], [s0, s1]),
            (&[a0, a1], &[s0, s1]) => add_sub_fixed_avx2(out, from, [a0, a1], [s0, s1]),
            _ => add_sub_any_avx2(out, from, add, sub),
        }
    }
}

/// Safety: every slice is as long as `out`, a multiple of 16.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn add_sub_fixed_avx2<const ADD: usize, const SUB: usize>(
    out: &mut [i16],
    from: &[i16],
    add: [&[i16]; ADD],
    sub: [&[i16]; SUB],
) {
    use std::arch::x86_64::*;
    let (add, sub) = (add.map(<[i16]>::as_ptr), sub.map(<[i16]>::as_ptr));
    let (from, dest) = (from.as_ptr(), out.as_mut_ptr());
    for i in (0..out.len()).step_by(16) {
        // SAFETY: i + 16 <= len for every slice (the caller's lengths); unaligned accesses.
        unsafe {
            let mut v = _mm256_loadu_si256(from.add(i).cast());
            for column in add {
                v = _mm256_add_epi16(v, _mm256_loadu_si256(column.add(i).cast()));
            }
            for column in sub {
                v = _mm256_sub_epi16(v, _mm256_loadu_si256(column.add(i).cast()));
            }
            _mm256_storeu_si256(dest.add(i).cast(), v);
        }
    }
}

/// Safety: every slice is as long as `out`, a multiple of 16.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn add_sub_any_avx2(out: &mut [i16], from: &[i16], add: &[&[i16]], sub: &[&[i16]]) {
    use std::arch::x86_64::*;
    for i in (0..out.len()).step_by(16) {
        // SAFETY: i + 16 <= len for every slice (the caller's lengths); unaligned accesses.
        unsafe {
            let load = |s: &[i16]| _mm256_loadu_si256(s.as_ptr().add(i).cast());
            let mut v = load(from);
            for column in add {
                v = _mm256_add_epi16(v, load(column));
            }
            for column in sub {
                v = _mm256_sub_epi16(v, load(column));
            }
            _mm256_storeu_si256(out.as_mut_ptr().add(i).cast(), v);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dispatched_and_scalar_paths_agree() {
        let mut rng = crate::chess::Rng::new(0x9e37_79b9_7f4a_7c15);
        let mut next = || rng.next_u64();
        for _ in 0..200 {
            let acc: Vec<i16> = (0..256).map(|_| (next() % 700) as i16 - 200).collect();
            let weights: Vec<i16> = (0..256).map(|_| (next() % 255) as i16 - 127).collect();
            assert_eq!(
                screlu_dot(&acc, &weights),
                screlu_dot_scalar(&acc, &weights)
            );
            let (mut a, mut b) = (vec![0; 256], vec![0; 256]);
            for (add, sub) in [(0, 0), (1, 1), (1, 2), (2, 2), (2, 1), (32, 0)] {
                let add = vec![&weights[..]; add];
                let sub = vec![&acc[..]; sub];
                add_sub_from(&mut a, &acc, &add, &sub);
                add_sub_from_scalar(&mut b, &acc, &add, &sub);
                assert_eq!(a, b);
            }
        }
        // The largest sums: every input clamped to QA, every weight at its clip.
        for w in [127, -127] {
            let (acc, weights) = ([i16::MAX; 256], [w; 256]);
            assert_eq!(
                screlu_dot(&acc, &weights),
                screlu_dot_scalar(&acc, &weights)
            );
        }
    }
}
