//! EPD lines: the first four FEN fields, then operations, each an opcode with operands and a
//! closing `;` (`bm Qd1+; id "WAC.001";`). The `hmvc` and `fmvn` operations set the move
//! counters; other opcodes are kept as they are.

use super::Position;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Epd {
    pub position: Position,
    /// Opcodes with their operands (quotes removed), in order.
    pub operations: Vec<(String, Vec<String>)>,
}

impl Epd {
    /// The operands of the first operation named `opcode`.
    pub fn operands(&self, opcode: &str) -> Option<&[String]> {
        self.operations
            .iter()
            .find(|(op, _)| op == opcode)
            .map(|(_, operands)| operands.as_slice())
    }
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EpdError {
    #[error("fewer than the four position fields")]
    Short,
    #[error("{0}")]
    Position(String),
    #[error("quoted operand not closed: {0}")]
    UnclosedQuote(String),
    #[error("operation '{0}' has no closing ';'")]
    Unterminated(String),
    #[error("{opcode} '{value}': expected a number from {min} to {max}")]
    Counter {
        opcode: &'static str,
        value: String,
        min: u32,
        max: u32,
    },
}

/// Reads one EPD line.
pub fn parse(line: &str) -> Result<Epd, EpdError> {
    let mut rest = line.trim();
    let mut fields = Vec::with_capacity(4);
    for _ in 0..4 {
        let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
        if end == 0 {
            return Err(EpdError::Short);
        }
        fields.push(&rest[..end]);
        rest = rest[end..].trim_start();
    }
    let operations = operations(rest)?;
    let mut counters = (0, 1);
    for (opcode, operands) in &operations {
        match opcode.as_str() {
            "hmvc" => counters.0 = counter("hmvc", operands, 0)?,
            "fmvn" => counters.1 = counter("fmvn", operands, 1)?,
            _ => {}
        }
    }
    let fen = format!("{} {} {}", fields.join(" "), counters.0, counters.1);
    let position = Position::from_fen(&fen).map_err(|e| EpdError::Position(e.to_string()))?;
    Ok(Epd {
        position,
        operations,
    })
}

/// The largest move counter FEN takes (the halfmove clock and the move number are `u32`s, and
/// the move number must leave room to count on).
const COUNTER_MAX: u32 = 100_000;

fn counter(opcode: &'static str, operands: &[String], min: u32) -> Result<u32, EpdError> {
    let value = operands.first().cloned().unwrap_or_default();
    value
        .parse::<u32>()
        .ok()
        .filter(|n| (min..=COUNTER_MAX).contains(n))
        .ok_or(EpdError::Counter {
            opcode,
            value,
            min,
            max: COUNTER_MAX,
        })
}

fn operations(mut rest: &str) -> Result<Vec<(String, Vec<String>)>, EpdError> {
    let mut out = Vec::new();
    while !rest.is_empty() {
        let mut words = Vec::new();
        loop {
            rest = rest.trim_start();
            if let Some(after) = rest.strip_prefix(';') {
                rest = after.trim_start();
                break;
            }
            if rest.is_empty() {
                let opcode = words.first().cloned().unwrap_or_default();
                return Err(EpdError::Unterminated(opcode));
            }
            if let Some(quoted) = rest.strip_prefix('"') {
                let end = quoted
                    .find('"')
                    .ok_or_else(|| EpdError::UnclosedQuote(quoted.to_owned()))?;
                words.push(quoted[..end].to_owned());
                rest = &quoted[end + 1..];
            } else {
                let end = rest
                    .find(|c: char| c.is_whitespace() || c == ';')
                    .unwrap_or(rest.len());
                words.push(rest[..end].to_owned());
                rest = &rest[end..];
            }
        }
        if let Some((opcode, operands)) = words.split_first() {
            out.push((opcode.clone(), operands.to_vec()));
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_operations_and_counters() {
        let wac = "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - bm Qg6; id \"WAC.001\";";
        let epd = parse(wac).unwrap();
        assert_eq!(epd.operands("bm"), Some(&["Qg6".to_owned()][..]));
        assert_eq!(epd.operands("id"), Some(&["WAC.001".to_owned()][..]));
        assert_eq!(epd.position.fullmoves(), 1);
        let counted = parse("4k3/8/8/8/8/8/8/4K3 b - - hmvc 12; fmvn 40;").unwrap();
        assert_eq!(counted.position.fen(), "4k3/8/8/8/8/8/8/4K3 b - - 12 40");
        assert_eq!(parse("4k3/8/8/8/8/8/8/4K3 b - -").unwrap().operations, []);
    }

    #[test]
    fn bad_lines_say_why() {
        assert_eq!(parse("4k3/8/8/8/8/8/8/4K3 w -"), Err(EpdError::Short));
        assert!(matches!(
            parse("4k3/8/8/8/8/8/8/4K3 w - - fmvn 99999999999;"),
            Err(EpdError::Counter { opcode: "fmvn", .. })
        ));
        assert!(matches!(
            parse("4k3/8/8/8/8/8/8/4K3 w - - hmvc -1;"),
            Err(EpdError::Counter { .. })
        ));
        assert!(matches!(
            parse("4k3/8/8/8/8/8/8/4K3 w - - id \"open;"),
            Err(EpdError::UnclosedQuote(_))
        ));
        assert!(matches!(
            parse("4k3/8/8/8/8/8/8/4K3 w - - bm Kd1"),
            Err(EpdError::Unterminated(op)) if op == "bm"
        ));
        assert!(matches!(
            parse("4k3/8/8/8/8/8/8/4K9 w - - bm Kd1;"),
            Err(EpdError::Position(_))
        ));
    }
}
