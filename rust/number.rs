//! Number literals and rounding-aware numeric comparison (filled in by the foundation work).

/// A parsed number literal.
#[derive(Debug, Clone, PartialEq)]
pub struct Number {
    pub value: f64,
}

/// Light normalisation of an extracted answer before literal comparison.
pub fn normalize_answer(s: &str) -> String {
    s.trim().to_string()
}

/// Parse a whole string as one number.
pub fn parse_number(s: &str) -> Option<Number> {
    s.trim().parse::<f64>().ok().map(|value| Number { value })
}

/// Are two numbers the same answer?
pub fn numbers_equal(gold: &Number, pred: &Number, _rounding: bool) -> bool {
    gold.value == pred.value
}
