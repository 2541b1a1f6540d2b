//! The pattern evaluator's weights file, `weights/pattern.bin`: its binary format (magic,
//! version, the shape of the tables, an FNV-1a checksum, then the weights as LEB128 codes with
//! runs of zeros), reading it ([`Pattern::from_bytes`], and [`Pattern::default`] from the
//! committed file), writing it ([`Pattern::to_bytes`]) and why a file is refused
//! ([`PatternFileError`]). The evaluation itself is [`crate::pattern`]'s.

use std::sync::OnceLock;

use crate::pattern::{Pattern, CLASSES, COMMITTED, EXTRA_SIZES, PHASES, PHASE_LEN};

/// Why a pattern weights file was refused. (Not [`duel_core::weights::WeightsError`], which
/// refuses the text tables of chess, xiangqi and Gomoku.)
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PatternFileError {
    /// Shorter than the header.
    #[error("weights file too short ({0} bytes)")]
    TooShort(usize),
    /// The first bytes are not [`MAGIC`]: not a pattern weights file.
    #[error("not a duel pattern weights file (bad magic)")]
    BadMagic,
    /// Written by a format version this code does not read.
    #[error("weights format version {0}, this build reads {VERSION}")]
    Version(u32),
    /// Fitted for other patterns or phases than this code evaluates.
    #[error("weights shape mismatch: this build expects {expected:?}, the file has {found:?}")]
    Shape {
        /// What this code expects: phases, then the table size of each class and extra table.
        expected: Vec<u32>,
        /// What the file declares.
        found: Vec<u32>,
    },
    /// The weights end before all tables are filled, or a zero run overflows them.
    #[error("weights file truncated")]
    Truncated,
    /// A code in the weight stream that no writer produces (an overlong number, a weight
    /// outside i16, an empty zero run).
    #[error("invalid code in the weights stream")]
    BadCode,
    /// Bytes left after the last table.
    #[error("{0} unexpected bytes after the weights")]
    TrailingBytes(usize),
    /// The checksum over the weights does not match: the file was damaged.
    #[error("weights checksum mismatch (stored {stored:#018x}, computed {computed:#018x})")]
    Checksum {
        /// The checksum stored in the header.
        stored: u64,
        /// The checksum of the data read.
        computed: u64,
    },
}

/// The first eight bytes of a weights file.
pub const MAGIC: [u8; 8] = *b"DUELPAT\0";

/// The format version written and read.
pub const VERSION: u32 = 2;

/// The shape a file must declare: phases, then each table's size.
fn shape() -> Vec<u32> {
    let mut s = vec![PHASES as u32];
    s.extend(CLASSES.iter().map(|c| c.size() as u32));
    s.extend(EXTRA_SIZES.iter().map(|&n| n as u32));
    s
}

/// FNV-1a over the weight stream: cheap, and any flipped byte changes it.
fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xCBF2_9CE4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01B3);
    }
    h
}

/// A little-endian reader that reports running out as [`PatternFileError::Truncated`].
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn take<const N: usize>(&mut self) -> Result<[u8; N], PatternFileError> {
        let end = self.at.checked_add(N).ok_or(PatternFileError::Truncated)?;
        let s = self
            .bytes
            .get(self.at..end)
            .ok_or(PatternFileError::Truncated)?;
        self.at = end;
        let mut a = [0u8; N];
        a.copy_from_slice(s);
        Ok(a)
    }
    /// An unsigned LEB128 number of at most 32 bits.
    fn varint(&mut self) -> Result<u32, PatternFileError> {
        let mut v = 0u32;
        for k in 0..5 {
            let [b] = self.take::<1>()?;
            let bits = u32::from(b & 0x7F);
            if k == 4 && bits > 0x0F {
                return Err(PatternFileError::BadCode);
            }
            v |= bits << (7 * k);
            if b & 0x80 == 0 {
                return Ok(v);
            }
        }
        Err(PatternFileError::BadCode)
    }
    fn u32(&mut self) -> Result<u32, PatternFileError> {
        self.take::<4>().map(u32::from_le_bytes)
    }
    fn u64(&mut self) -> Result<u64, PatternFileError> {
        self.take::<8>().map(u64::from_le_bytes)
    }
}

impl Default for Pattern {
    /// The committed weights, parsed once per process.
    fn default() -> Self {
        static LOADED: OnceLock<Pattern> = OnceLock::new();
        LOADED
            .get_or_init(|| {
                // The file is part of the build and a test loads it, so failure is a bug in
                // the repository, not bad input.
                Pattern::from_bytes(COMMITTED).expect("the committed pattern weights are valid")
            })
            .clone()
    }
}

impl Pattern {
    /// Reads a weights file (the format [`Pattern::to_bytes`] writes), checking magic, version,
    /// shape, length and checksum.
    pub fn from_bytes(bytes: &[u8]) -> Result<Pattern, PatternFileError> {
        let expected = shape();
        let header = 8 + 4 + 4 + 4 * expected.len() + 8;
        if bytes.len() < 16 {
            return Err(PatternFileError::TooShort(bytes.len()));
        }
        let mut r = Reader { bytes, at: 0 };
        if r.take::<8>()? != MAGIC {
            return Err(PatternFileError::BadMagic);
        }
        let version = r.u32()?;
        if version != VERSION {
            return Err(PatternFileError::Version(version));
        }
        let count = r.u32()? as usize;
        if count != expected.len() {
            // Do not read an absurd count's worth of header: report what fits.
            let found = (0..count.min(64)).map_while(|_| r.u32().ok()).collect();
            return Err(PatternFileError::Shape { expected, found });
        }
        let found = (0..count).map(|_| r.u32()).collect::<Result<Vec<_>, _>>()?;
        if found != expected {
            return Err(PatternFileError::Shape { expected, found });
        }
        let stored = r.u64()?;
        debug_assert_eq!(r.at, header);
        let computed = fnv1a(&bytes[r.at..]);
        if stored != computed {
            return Err(PatternFileError::Checksum { stored, computed });
        }
        let total = PHASES * PHASE_LEN;
        let mut w = Vec::with_capacity(total);
        while w.len() < total {
            let code = r.varint()?;
            if code & 1 == 1 {
                let run = (code >> 1) as usize;
                if run == 0 {
                    return Err(PatternFileError::BadCode);
                }
                if w.len() + run > total {
                    return Err(PatternFileError::Truncated);
                }
                w.resize(w.len() + run, 0);
            } else {
                let zz = code >> 1;
                let v = (zz >> 1) as i32 ^ -((zz & 1) as i32);
                w.push(i16::try_from(v).map_err(|_| PatternFileError::BadCode)?);
            }
        }
        if r.at != bytes.len() {
            return Err(PatternFileError::TrailingBytes(bytes.len() - r.at));
        }
        Ok(Pattern::from_weights(w).expect("the loop filled every phase"))
    }

    /// The weights file: magic, version, shape, an FNV-1a checksum of what follows, then the
    /// weights as LEB128 codes: `2·zigzag(w)` for a weight, `2·n + 1` for a run of n zeros.
    /// Most entries are configurations the data never showed (zero), and most fitted weights
    /// are below half a disc (one byte).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut data = Vec::new();
        let mut put = |mut v: u32| loop {
            let b = (v & 0x7F) as u8;
            v >>= 7;
            if v == 0 {
                data.push(b);
                break;
            }
            data.push(b | 0x80);
        };
        let mut i = 0;
        let w = self.weights();
        while i < w.len() {
            let run = w[i..].iter().take_while(|&&x| x == 0).count();
            if run > 0 {
                put((run as u32) << 1 | 1);
                i += run;
            } else {
                let v = i32::from(w[i]);
                put((((v << 1) ^ (v >> 31)) as u32) << 1);
                i += 1;
            }
        }
        let shape = shape();
        let mut out = Vec::with_capacity(data.len() + 64);
        out.extend_from_slice(&MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.extend_from_slice(&(shape.len() as u32).to_le_bytes());
        for s in shape {
            out.extend_from_slice(&s.to_le_bytes());
        }
        out.extend_from_slice(&fnv1a(&data).to_le_bytes());
        out.extend_from_slice(&data);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A file with a valid header and checksum around the weight stream `data`.
    fn with_stream(data: &[u8]) -> Vec<u8> {
        let zero = Pattern::from_weights(vec![0; PHASES * PHASE_LEN]).unwrap();
        let mut b = zero.to_bytes();
        let header = b.len() - zero_stream_len();
        b.truncate(header);
        let n = b.len();
        b[n - 8..].copy_from_slice(&fnv1a(data).to_le_bytes());
        b.extend_from_slice(data);
        b
    }

    /// The stream of an all-zero file: runs of at most 2^30 zeros, here one run.
    fn zero_stream_len() -> usize {
        let code = ((PHASES * PHASE_LEN) as u32) << 1 | 1;
        (32 - code.leading_zeros()).div_ceil(7) as usize
    }

    #[test]
    fn bad_codes_are_refused() {
        let total = (PHASES * PHASE_LEN) as u32;
        let run = |n: u32| {
            let mut v = n << 1 | 1;
            let mut out = Vec::new();
            loop {
                let b = (v & 0x7F) as u8;
                v >>= 7;
                if v == 0 {
                    out.push(b);
                    return out;
                }
                out.push(b | 0x80);
            }
        };
        assert!(Pattern::from_bytes(&with_stream(&run(total))).is_ok());
        // A zero run one too long, an empty run, a weight beyond i16, an overlong number.
        let err = |d: &[u8]| Pattern::from_bytes(&with_stream(d)).unwrap_err();
        assert_eq!(err(&run(total + 1)), PatternFileError::Truncated);
        assert_eq!(err(&[0x01]), PatternFileError::BadCode);
        assert_eq!(err(&[0x80, 0x80, 0x08]), PatternFileError::BadCode);
        assert_eq!(
            err(&[0xFF, 0xFF, 0xFF, 0xFF, 0x7F]),
            PatternFileError::BadCode
        );
        assert_eq!(
            err(&[0x80, 0x80, 0x80, 0x80, 0x80, 0x01]),
            PatternFileError::BadCode
        );
        let mut short = run(total - 1);
        assert_eq!(err(&short), PatternFileError::Truncated);
        short.push(0x02); // the weight -1 fills the last slot
        assert!(Pattern::from_bytes(&with_stream(&short)).is_ok());
    }
}
