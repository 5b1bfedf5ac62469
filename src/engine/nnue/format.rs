//! The network file format, version 1. All integers little-endian.
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 8 | magic `KBZNNUE\0` |
//! | 8 | 4 | format version (1) |
//! | 12 | 4 | architecture: inputs per perspective, 768 x K king buckets (K: 1, 3 or 6; `network.rs` has the buckets) |
//! | 16 | 4 | architecture: hidden width H per perspective (a multiple of 16) |
//! | 20 | 4 | architecture: activation (1 = SCReLU) |
//! | 24 | 4 | quantisation QA (255) |
//! | 28 | 4 | quantisation QB (64) |
//! | 32 | 4 | output scale: centipawns per unit of output (400 as trained; 100..=1600) |
//! | 36 | 4 | output buckets B by material (1..=16; 0 in files from before buckets means 1) |
//! | 40 | 8 | payload length in bytes |
//! | 48 | 8 | FNV-1a 64 checksum of the payload |
//! | 56 | ... | payload: feature weights i16 `[768 K][H]`, feature bias i16 `[H]`, output weights i16 `[B][2H]` (side to move, then the other side), output biases i32 `[B]` |

use super::network::{
    BUCKET_RANGE, INPUTS, KING_BUCKETS, Network, QA, QB, SCALE_RANGE, valid_hidden_width,
};

pub const MAGIC: &[u8; 8] = b"KBZNNUE\0";
pub const VERSION: u32 = 1;
const ACTIVATION_SCRELU: u32 = 1;
const HEADER_LEN: usize = 56;

#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub enum NetworkFileError {
    #[error("not a kibitzer network file (bad magic)")]
    Magic,
    #[error("file is {0} bytes, too short for the header")]
    TooShort(usize),
    #[error("format version {0} is not supported (expected {VERSION})")]
    Version(u32),
    #[error("architecture mismatch: {0}")]
    Architecture(String),
    #[error("payload is {actual} bytes, header says {expected}")]
    PayloadLength { expected: u64, actual: usize },
    #[error("checksum mismatch: the file is corrupt")]
    Checksum,
    #[error(
        "bad layer shapes: hidden {hidden}, {feature_weights} feature weights, {output_weights} output weights"
    )]
    Shape {
        hidden: usize,
        feature_weights: usize,
        output_weights: usize,
    },
}

/// FNV-1a, 64-bit: enough to catch truncation and corruption.
pub fn checksum(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

pub fn encode(net: &Network) -> Vec<u8> {
    let mut payload = Vec::with_capacity(
        2 * (net.feature_weights.len() + net.feature_bias.len() + net.output_weights.len())
            + 4 * net.buckets(),
    );
    for v in net
        .feature_weights
        .iter()
        .chain(&net.feature_bias)
        .chain(&net.output_weights)
    {
        payload.extend_from_slice(&v.to_le_bytes());
    }
    for b in &net.output_bias {
        payload.extend_from_slice(&b.to_le_bytes());
    }

    let mut out = Vec::with_capacity(HEADER_LEN + payload.len());
    out.extend_from_slice(MAGIC);
    for field in [
        VERSION,
        (INPUTS * net.king_buckets()) as u32,
        net.hidden() as u32,
        ACTIVATION_SCRELU,
        QA as u32,
        QB as u32,
        net.scale() as u32,
        net.buckets() as u32,
    ] {
        out.extend_from_slice(&field.to_le_bytes());
    }
    out.extend_from_slice(&(payload.len() as u64).to_le_bytes());
    out.extend_from_slice(&checksum(&payload).to_le_bytes());
    out.extend_from_slice(&payload);
    out
}

fn u32_at(bytes: &[u8], offset: usize) -> u32 {
    u32::from_le_bytes(bytes[offset..offset + 4].try_into().expect("4 bytes"))
}

fn u64_at(bytes: &[u8], offset: usize) -> u64 {
    u64::from_le_bytes(bytes[offset..offset + 8].try_into().expect("8 bytes"))
}

pub fn decode(bytes: &[u8]) -> Result<Network, NetworkFileError> {
    if bytes.len() < HEADER_LEN {
        return Err(if bytes.starts_with(MAGIC) || bytes.len() < MAGIC.len() {
            NetworkFileError::TooShort(bytes.len())
        } else {
            NetworkFileError::Magic
        });
    }
    if &bytes[..8] != MAGIC {
        return Err(NetworkFileError::Magic);
    }
    let version = u32_at(bytes, 8);
    if version != VERSION {
        return Err(NetworkFileError::Version(version));
    }
    let expect = |name: &str, offset: usize, want: u32| {
        let got = u32_at(bytes, offset);
        if got == want {
            Ok(())
        } else {
            Err(NetworkFileError::Architecture(format!(
                "{name} is {got}, this build needs {want}"
            )))
        }
    };
    let inputs = u32_at(bytes, 12) as usize;
    let king_buckets = inputs / INPUTS;
    if !inputs.is_multiple_of(INPUTS) || !KING_BUCKETS.contains(&king_buckets) {
        return Err(NetworkFileError::Architecture(format!(
            "{inputs} inputs, this build reads 768 x {KING_BUCKETS:?} king buckets"
        )));
    }
    expect("activation", 20, ACTIVATION_SCRELU)?;
    expect("QA", 24, QA as u32)?;
    expect("QB", 28, QB as u32)?;
    let scale = u32_at(bytes, 32);
    if !SCALE_RANGE.contains(&(scale as i32)) {
        return Err(NetworkFileError::Architecture(format!(
            "output scale {scale} is outside {}..={}",
            SCALE_RANGE.start(),
            SCALE_RANGE.end()
        )));
    }
    let hidden = u32_at(bytes, 16) as usize;
    if !valid_hidden_width(hidden) {
        return Err(NetworkFileError::Architecture(format!(
            "hidden width {hidden} is not a multiple of 16 in 16..=4096"
        )));
    }
    let buckets = (u32_at(bytes, 36) as usize).max(1);
    if !BUCKET_RANGE.contains(&buckets) {
        return Err(NetworkFileError::Architecture(format!(
            "{buckets} output buckets, this build reads {}..={}",
            BUCKET_RANGE.start(),
            BUCKET_RANGE.end()
        )));
    }
    let payload = &bytes[HEADER_LEN..];
    let expected = u64_at(bytes, 40);
    let needed = 2 * (inputs * hidden + hidden + 2 * hidden * buckets) + 4 * buckets;
    if expected != payload.len() as u64 || payload.len() != needed {
        return Err(NetworkFileError::PayloadLength {
            expected: needed as u64,
            actual: payload.len(),
        });
    }
    if checksum(payload) != u64_at(bytes, 48) {
        return Err(NetworkFileError::Checksum);
    }

    let (words, tail) = payload.split_at(payload.len() - 4 * buckets);
    let mut values = words
        .chunks_exact(2)
        .map(|c| i16::from_le_bytes([c[0], c[1]]));
    let feature_weights: Vec<i16> = values.by_ref().take(inputs * hidden).collect();
    let feature_bias: Vec<i16> = values.by_ref().take(hidden).collect();
    let output_weights: Vec<i16> = values.collect();
    let output_bias = tail
        .chunks_exact(4)
        .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    Network::new(feature_weights, feature_bias, output_weights, output_bias)
        .map(|net| net.with_scale(scale as i32))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn small_net_with(buckets: usize) -> Network {
        small_net_with_kings(buckets, 1)
    }

    fn small_net_with_kings(buckets: usize, king_buckets: usize) -> Network {
        let hidden = 16;
        Network::new(
            (0..INPUTS * king_buckets * hidden)
                .map(|i| (i % 97) as i16 - 48)
                .collect(),
            (0..hidden).map(|i| i as i16).collect(),
            (0..2 * hidden * buckets)
                .map(|i| (i % 11) as i16 - 5)
                .collect(),
            (0..buckets as i32).map(|b| -1234 + b).collect(),
        )
        .unwrap()
    }

    fn small_net() -> Network {
        small_net_with(1)
    }

    #[test]
    fn round_trip() {
        let net = small_net();
        assert_eq!(decode(&encode(&net)), Ok(net.clone()));
        let bucketed = small_net_with(8);
        assert_eq!(decode(&encode(&bucketed)), Ok(bucketed.clone()));
        for king_buckets in [3, 6] {
            let kings = small_net_with_kings(2, king_buckets);
            assert_eq!(decode(&encode(&kings)), Ok(kings.clone()));
        }
        // Four or eight king buckets were mirrored layouts, which this build no longer reads.
        let mut four_kings = encode(&small_net_with_kings(1, 3));
        four_kings[12..16].copy_from_slice(&(4 * 768u32).to_le_bytes());
        assert!(matches!(
            decode(&four_kings),
            Err(NetworkFileError::Architecture(_))
        ));
        // Files from before buckets have 0 where the count now is.
        let mut old = encode(&net);
        old[36..40].copy_from_slice(&0u32.to_le_bytes());
        assert_eq!(decode(&old), Ok(net.clone()));
        let mut too_many = encode(&net);
        too_many[36..40].copy_from_slice(&17u32.to_le_bytes());
        assert!(matches!(
            decode(&too_many),
            Err(NetworkFileError::Architecture(_))
        ));
        // A fitted output scale is kept; one out of range is refused.
        let fitted = net.with_scale(292);
        assert_eq!(decode(&encode(&fitted)).map(|n| n.scale()), Ok(292));
        let mut bytes = encode(&fitted);
        bytes[32..36].copy_from_slice(&5000u32.to_le_bytes());
        assert!(matches!(
            decode(&bytes),
            Err(NetworkFileError::Architecture(_))
        ));
    }

    #[test]
    fn corrupt_files_are_refused() {
        let bytes = encode(&small_net());
        assert_eq!(decode(&bytes[..10]), Err(NetworkFileError::TooShort(10)));
        assert_eq!(
            decode(b"hello world, this is not a network file at all, really!!"),
            Err(NetworkFileError::Magic)
        );
        let mut flipped = bytes.clone();
        let last = flipped.len() - 7;
        flipped[last] ^= 1;
        assert_eq!(decode(&flipped), Err(NetworkFileError::Checksum));
        assert!(matches!(
            decode(&bytes[..bytes.len() - 2]),
            Err(NetworkFileError::PayloadLength { .. })
        ));
        let mut version = bytes.clone();
        version[8] = 9;
        assert_eq!(decode(&version), Err(NetworkFileError::Version(9)));
        let mut hidden = bytes;
        hidden[16] = 17;
        assert!(matches!(
            decode(&hidden),
            Err(NetworkFileError::Architecture(_))
        ));
    }
}
