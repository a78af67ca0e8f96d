//! Golds that say a question has no answer, and responses that decline to answer one.
//!
//! Benchmarks with critical-thinking items (GSM-Plus) write the gold of a question that cannot be
//! answered as `None`. A response answers such an item correctly when it says so: its final
//! answer is itself a no-answer word (`\boxed{\text{None}}`, "The answer is: cannot be
//! determined"), or, without a committed answer, its closing part declines in words ("we are not
//! given enough information", "the question cannot be answered"). The phrases follow protocol B's
//! reference sentences (UMWP's `uncertain_list`). A committed answer (`\boxed{12}`, "The answer
//! is 12") is a wrong answer to such a gold, whatever the prose before it says.

use crate::scan::trim;

/// The words a gold (or a final answer) uses for "no answer".
const NO_ANSWER_WORDS: &[&str] = &[
    "none",
    "no answer",
    "no solution",
    "unanswerable",
    "not answerable",
    "unknown",
    "undetermined",
    "cannot be determined",
    "can't be determined",
    "cannot be answered",
    "can't be answered",
    "not enough information",
    "insufficient information",
    "n/a",
];

/// Phrases of a response that declines (lower-case, matched anywhere in its closing part).
const DECLINE_PHRASES: &[&str] = &[
    "cannot be answered",
    "can't be answered",
    "cannot be determined",
    "can't be determined",
    "cannot determine",
    "can't determine",
    "cannot be calculated",
    "cannot calculate",
    "can't calculate",
    "cannot be solved",
    "impossible to determine",
    "impossible to answer",
    "impossible to know",
    "not possible to determine",
    "not possible to answer",
    "not enough information",
    "insufficient information",
    "information is missing",
    "missing information",
    "need more information",
    "need additional information",
    "not given enough",
    "no definitive answer",
    "the answer is unknown",
    "the answer is uncertain",
    "the answer is unclear",
    "unanswerable",
    "we do not know",
    "we don't know",
];

/// Lower-cased, `$`/`\text{}`/`\boxed{}` unwrapped, trailing full stop dropped.
fn bare(s: &str) -> String {
    let mut t = trim(s).to_lowercase();
    loop {
        let before = t.len();
        for (open, close) in [
            ("$", "$"),
            ("\\text{", "}"),
            ("\\mathrm{", "}"),
            ("\\boxed{", "}"),
        ] {
            if let Some(inner) = t.strip_prefix(open).and_then(|r| r.strip_suffix(close)) {
                t = trim(inner).to_string();
            }
        }
        if let Some(inner) = t.strip_suffix('.') {
            t = trim(inner).to_string();
        }
        if t.len() == before {
            return t;
        }
    }
}

/// Is this gold (or final answer) a word for "there is no answer"?
pub fn is_no_answer(text: &str) -> bool {
    // Cheap test first: every such word is short and has a letter.
    if text.len() > 64 || !text.bytes().any(|c| c.is_ascii_alphabetic()) {
        return false;
    }
    let b = bare(text);
    NO_ANSWER_WORDS.contains(&b.as_str())
}

/// Does the closing part of a response (its last paragraph, at most its last 600 bytes) decline
/// to answer?
pub fn declines(response: &str) -> bool {
    let t = trim(response);
    let para = t.rsplit("\n\n").find(|p| !trim(p).is_empty()).unwrap_or(t);
    let mut start = para.len().saturating_sub(600);
    while !para.is_char_boundary(start) {
        start += 1;
    }
    let tail = para[start..].to_lowercase();
    DECLINE_PHRASES.iter().any(|p| tail.contains(p))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_answer_golds() {
        for g in [
            "None",
            "none",
            "$\\text{None}$",
            "Cannot be determined.",
            "N/A",
            "\\boxed{None}",
        ] {
            assert!(is_no_answer(g), "{g}");
        }
        for g in [
            "18",
            "0",
            "None of the above",
            "x = none",
            "\\text{Monday}",
            "",
        ] {
            assert!(!is_no_answer(g), "{g}");
        }
    }

    #[test]
    fn declining_responses() {
        assert!(declines("We know the price of apples but not of pears.\n\nSo the total cost cannot be determined."));
        assert!(declines("The problem does not say how many boys there are; we are not given enough information."));
        assert!(!declines("The total is 3 + 4 = 7.\n\nThe answer is 7."));
        // Declining early and answering in the end is answering.
        assert!(!declines(
            "At first it seems it cannot be determined.\n\nBut 3 + 4 = 7, so the answer is 7."
        ));
    }
}
