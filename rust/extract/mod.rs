//! Final-answer extraction of the fixed mode (docs/policies.md, "Extraction").
//!
//! Priority: an anchor phrase ("The answer is", "final answer is", "Answer:", "####", and the
//! configured patterns) takes the answer that follows it, up to the end of its sentence (a box
//! or display in that sentence, or on the next line after "...:", wins over its prose); the
//! last anchor whose answer is real wins, so a later "The answer is correct because ..." does
//! not replace it, and an anchored sentence of prose gives way to a box. Else the last `\boxed{}`/`\fbox{}`; else the last math span (`$..$`, `$$..$$`,
//! `\(..\)`, `\[..\]`); else the last number. A hyphen is never a number.
//!
//! This file is the driver ([`extract`]); each file finds one thing:
//! - `anchors`: anchor phrases in seven languages, the configured patterns, the backward scan;
//! - `anchored`: the answer in an anchored sentence (box, display, number before a connective);
//! - `languages`: the words of those languages that decide what follows an anchor;
//! - `spans`: math spans; `numbers`: the last number (digit groups, clock times);
//! - `fallbacks`: a response that is only an answer, or one short word.

use memchr::memmem::Finder;

use crate::scan::boxes;

mod anchored;
mod anchors;
mod fallbacks;
mod languages;
mod numbers;
pub(crate) mod sentence;
mod spans;

use anchored::{answer_after_anchor, AfterAnchor};
pub use anchors::starts_with_anchor;
use anchors::{anchor_ends_last_first, uncovered_patterns};
use fallbacks::{bare_answer, short_whole_answer};
use numbers::{last_number_span, widen_clock};
use spans::last_math_span_from;

/// How the answer was found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExtractedBy {
    Anchor,
    Boxed,
    MathSpan,
    LastNumber,
    /// The whole response is one short answer ("C", "(B)", "yes", "June", "twelve").
    WholeResponse,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Extracted {
    pub answer: String,
    pub by: ExtractedBy,
}

/// Extract the final answer from a response.
pub fn extract(text: &str, patterns: &[String]) -> Option<Extracted> {
    // A response cut off inside its last box (`... \boxed{\frac{1}{3}`, a generation that hit its
    // token limit) has no final answer: paying it would teach a policy to stop early (issue 34).
    if ends_inside_a_box(text) {
        return None;
    }
    let mut extra: Vec<usize> = Vec::new();
    // A configured phrase the built-in anchors already find ("The answer is: ") adds nothing.
    uncovered_patterns(patterns, |p| {
        let f = Finder::new(p.as_bytes());
        extra.extend(f.find_iter(text.as_bytes()).map(|i| i + p.len()));
    });
    extra.sort_unstable();
    let mut builtin = anchor_ends_last_first(text.as_bytes())
        .into_iter()
        .peekable();
    let mut last_tried = usize::MAX;
    let mut has_box = None;
    loop {
        // Merge the two descending streams of anchor ends.
        let pos = match (builtin.peek().copied(), extra.last().copied()) {
            (Some(a), Some(e)) if e >= a => extra.pop(),
            (Some(_), _) => builtin.next(),
            (None, Some(_)) => extra.pop(),
            (None, None) => None,
        };
        let Some(pos) = pos else { break };
        if pos == last_tried {
            continue;
        }
        last_tried = pos;
        match answer_after_anchor(text, pos, &mut has_box) {
            AfterAnchor::Answer(a) => {
                // Boxes after the anchor: the last run of them is the final answer, whether it
                // joins the anchored box (`The answer is \boxed{1}, \boxed{2}`) or corrects it
                // (`The answer is \boxed{2}. Wait, actually \boxed{3}`), as without the anchor.
                let answer = boxes_after(text, pos).unwrap_or(a);
                return Some(Extracted {
                    answer,
                    by: ExtractedBy::Anchor,
                });
            }
            // The anchored sentence is prose and the response has a box: the box is the answer.
            AfterAnchor::Prose => break,
            AfterAnchor::Nothing => {}
        }
    }
    // Several boxes joined by "and", commas or nothing are one answer: `\boxed{1}, \boxed{2}`.
    if let Some(b) = boxes::boxed_answer(text) {
        return Some(Extracted {
            answer: b,
            by: ExtractedBy::Boxed,
        });
    }
    // A response that is only an answer (`x^2 - 4x + 4`, `(3, 4)`, `[2, 5)`, `3 + 2`): the whole of it,
    // not the last number in it. A lone number goes on to the number fallback as before.
    if let Some(a) = bare_answer(text) {
        if last_number_span(a) != Some((0, a.len())) {
            return Some(Extracted {
                answer: a.to_string(),
                by: ExtractedBy::WholeResponse,
            });
        }
    }
    // A closing check of the answer ("Check: 36 / 3 = 12 ✓", "**Verification:** …") is not the
    // answer: the fallbacks read the response before it.
    let text = before_verification(text);
    // The last math span, unless a number comes after it ("... $$x$$. So there are 12 ways").
    let span = last_math_span_from(text);
    let number = last_number_span(text).map(|sp| widen_clock(text, sp));
    // A span the response restates from the question ("To find the value of \(\frac{7+21}{14+42}\),
    // we ...") is no answer, and neither are the numbers inside it: only a number after it is.
    if let Some((_, start, end)) = &span {
        if fallbacks::restates_question(&text[..*start]) {
            return number
                .filter(|&(ns, _)| ns >= *end)
                .map(|(ns, ne)| Extracted {
                    answer: text[ns..ne].to_string(),
                    by: ExtractedBy::LastNumber,
                });
        }
    }
    match (span, number) {
        (Some((_, _, end)), Some((ns, ne))) if ns >= end => Some(Extracted {
            answer: closing_number_value(text, ns, ne),
            by: ExtractedBy::LastNumber,
        }),
        (Some((m, start, end)), _) => Some(Extracted {
            answer: closing_sentence_value(text, start, end, &m).unwrap_or(m),
            by: ExtractedBy::MathSpan,
        }),
        (None, Some((ns, ne))) => Some(Extracted {
            answer: closing_number_value(text, ns, ne),
            by: ExtractedBy::LastNumber,
        }),
        (None, None) => short_whole_answer(text).map(|a| Extracted {
            answer: a.to_string(),
            by: ExtractedBy::WholeResponse,
        }),
    }
}

/// The last number of a response without anchor or box, `text[ns..ne]`, or the value its
/// sentence asserts when that sentence is prose with several values ("So there are 239 such
/// strings of length 6." -> `239`, not `6`; issue 33). Only this fallback pays for the reading.
fn closing_number_value(text: &str, ns: usize, ne: usize) -> String {
    // A computed result ("$40 + $10 + $7 = $57.00", "500-250 = 250 customers") is the answer, as
    // in a GSM8K solution: only a number after a name ("x = 1") or in prose is read further.
    let before = text[..ns].trim_end_matches([' ', '$']);
    if let Some(lhs) = before.strip_suffix('=') {
        if lhs
            .trim_end_matches([' ', '$'])
            .ends_with(|c: char| c.is_ascii_digit() || c == ')' || c == '}')
        {
            return text[ns..ne].to_string();
        }
    }
    // A clock time ("9:15 P.M.") is read as it is.
    if text[ns..ne].contains(':') {
        return text[ns..ne].to_string();
    }
    closing_sentence_value(text, ns, ne, &text[ns..ne]).unwrap_or_else(|| text[ns..ne].to_string())
}

/// The value the closing sentence asserts, around the last value `text[vs..ve]` (a number or a
/// math span whose content is `last`), when the sentence is prose with several values or the last
/// span only names something ("Thus $f(x) = x$ for all real $x$"); `None` to keep `last`.
fn closing_sentence_value(text: &str, vs: usize, ve: usize, last: &str) -> Option<String> {
    let b = text.as_bytes();
    // The sentence: from the last '\n' or sentence end (". ", "! ", "? ") before the value.
    let sentence_start = |from: usize| {
        let mut start = from;
        while start > 0 {
            let c = b[start - 1];
            if c == b'\n' || (matches!(c, b'.' | b'!' | b'?') && b.get(start) == Some(&b' ')) {
                break;
            }
            start -= 1;
        }
        start
    };
    let mut start = sentence_start(vs);
    // A display on its own line continues the sentence that announces it ("the maximum is\n\[
    // \frac12 \]"), when that line does not end a sentence.
    if start > 0 && start == vs && (text[vs..].starts_with("\\[") || text[vs..].starts_with("$$")) {
        let prev = text[..start - 1].trim_end();
        if prev.ends_with(|c: char| c.is_alphabetic() || c == ':' || c == ',') {
            start = sentence_start(prev.len());
        }
    }
    let mut end = ve;
    while end < b.len()
        && b[end] != b'\n'
        && !(b[end] == b'.' && b.get(end + 1).is_none_or(|&c| c == b' ' || c == b'\n'))
    {
        end += 1;
    }
    let sentence = &text[start..end];
    let words = sentence
        .split(|c: char| !c.is_ascii_alphabetic())
        .filter(|w| w.len() >= 2)
        .count();
    let values = crate::number::scan_numbers(sentence).len()
        + sentence.bytes().filter(|&c| c == b'$').count() / 2
        + sentence.matches("\\(").count()
        + sentence.matches("\\[").count();
    // Prose: two words, or one ("So $p = 2$, $q = 3$.") between math spans.
    let spans = sentence.bytes().filter(|&c| c == b'$').count() / 2;
    let prose = words >= 2 || (words == 1 && spans >= 2);
    if prose && (values >= 2 || sentence::is_name(last)) {
        crate::work::count(sentence.len());
        return sentence::sentence_value(sentence);
    }
    None
}

/// Words that open a paragraph checking an answer already given.
const VERIFICATION: &[&str] = &[
    "check:",
    "checking:",
    "verification",
    "verify:",
    "verifying:",
    "let's verify",
    "let us verify",
    "let me verify",
    "let's check",
    "let us check",
    "let me check",
    "to verify",
    "to double-check",
    "double-check",
    "double check",
    "sanity check",
];

/// `text` without its last paragraph when that paragraph checks the answer ("Check: 36 / 3 = 12
/// ✓") and a value comes before it; else `text`.
fn before_verification(text: &str) -> &str {
    let t = text.trim_end();
    let Some(cut) = t.rfind('\n') else {
        return text;
    };
    let last = t[cut..].trim_start_matches(['\n', ' ', '*', '#', '>', '-']);
    let head: String = last.chars().take(20).collect::<String>().to_lowercase();
    if VERIFICATION.iter().any(|v| head.starts_with(v))
        && t[..cut].bytes().any(|c| c.is_ascii_digit())
    {
        crate::work::count(20);
        return &text[..cut];
    }
    text
}

/// The last run of joined boxes after byte `pos`, when there is a box there.
fn boxes_after(text: &str, pos: usize) -> Option<String> {
    let rest = &text[pos..];
    if memchr::memmem::find(rest.as_bytes(), b"\\boxed").is_none()
        && memchr::memmem::find(rest.as_bytes(), b"\\fbox").is_none()
    {
        return None;
    }
    boxes::boxed_answer(rest)
}

/// Does the text end inside its last `\boxed{` / `\fbox{` (never closed)?
fn ends_inside_a_box(text: &str) -> bool {
    let b = text.as_bytes();
    let last = [
        memchr::memmem::rfind(b, b"\\boxed"),
        memchr::memmem::rfind(b, b"\\fbox"),
    ]
    .into_iter()
    .flatten()
    .max();
    // An unclosed brace runs its box to the end of the text (`scan::boxes::box_at`).
    last.and_then(|i| boxes::box_at(text, i))
        .is_some_and(|bx| bx.content.1 == text.len() && b[bx.content.0 - 1] == b'{')
}

/// The answer `extract` finds with no configured patterns (the tests' shorthand).
#[cfg(test)]
fn ex(t: &str) -> Option<String> {
    extract(t, &[]).map(|e| e.answer)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 33: a later box corrects or completes the anchored one; a numbered heading is no
    /// `####` answer line. Issue 34: a response cut off inside its box has no answer.
    #[test]
    fn the_final_box_and_headings_and_truncated_boxes() {
        let cases = [
            (
                "The answer is \\boxed{2}. Wait, actually \\boxed{3}",
                Some("3"),
            ),
            ("The answer is \\boxed{1}, \\boxed{2}.", Some("1, 2")),
            ("The answer is \\boxed{2} and \\boxed{3}", Some("2, 3")),
            (
                "The final answer is $\\boxed{12}$. I hope it is correct.",
                Some("12"),
            ),
            (
                "The answer is 2. Let me double-check: $\\boxed{2}$",
                Some("2"),
            ),
            (
                "#### 3. Probability of heads\nSo \\[ P = \\boxed{0.6875} \\]",
                Some("0.6875"),
            ),
            (
                "#### 3) Counting the cases\nThere are 12 of them.",
                Some("12"),
            ),
            ("She pays 3 + 4 = 7 dollars.\n#### 7", Some("7")),
            ("#### 18.", Some("18")),
            ("so the answer is \\boxed{\\frac{1}{3}", None),
            (
                "so the answer is \\boxed{\\frac{1}{3}}",
                Some("\\frac{1}{3}"),
            ),
        ];
        for (t, want) in cases {
            assert_eq!(ex(t).as_deref(), want, "{t}");
        }
    }

    /// Issue 33: a closing check of the answer is not the answer.
    #[test]
    fn a_closing_check_is_not_the_answer() {
        for (t, want) in [
            (
                "3 boxes with 12 apples each.\nSo there are 36 apples.\n\nCheck: 36 / 3 = 12 ✓",
                "36",
            ),
            (
                "So Mark needs 5 more days.\n\n**Double-check:** 5 × 20 = 100 pages. ✓",
                "5",
            ),
            ("So it is 7.\nLet me check the units: 7 m is right.", "7"),
            // A conclusion that starts with "Checking" is no check.
            (
                "Case x ≥ 4 gives x = 5.\nChecking both cases, the solutions are x = 3 and x = 5.",
                "x = 3, x = 5",
            ),
            // The check is the whole response: read as before.
            ("Check: 36 / 3 = 12", "12"),
        ] {
            assert_eq!(ex(t).as_deref(), Some(want), "{t}");
        }
    }

    /// Issue 22: a response cut after restating the question has no answer.
    #[test]
    fn a_restated_expression_is_no_answer() {
        for t in [
            "To find the value of \\(\\frac{7+21}{14+42}\\), we",
            "We need to simplify $\\sqrt{50}$ first.",
            "Let's evaluate: $3 + 4 \\cdot 2$",
        ] {
            assert_eq!(ex(t), None, "{t}");
        }
        // A number after the restated span is the answer; a span after other words is one.
        assert_eq!(
            ex("To find the value of $\\frac{7+21}{14+42}$, we add: it is 1/2 = 0.5"),
            Some("0.5".to_string())
        );
        assert_eq!(ex("so we get $x^2+1$"), Some("x^2+1".to_string()));
        assert_eq!(
            ex("Thus the value of $x$ is $\\frac12$."),
            Some("\\frac12".to_string())
        );
    }

    /// Work (bytes the span and anchor scans looked at) for `make(n)` and `make(2n)`.
    fn work_at(make: impl Fn(usize) -> String, n: usize) -> (usize, usize) {
        let mut out = [0; 2];
        for (slot, size) in out.iter_mut().zip([n, 2 * n]) {
            let text = make(size);
            *slot = (crate::work::measure(|| extract(&text, &[])).1 as usize).max(1);
        }
        (out[0], out[1])
    }

    #[test]
    fn adversarial_runs_take_linear_work() {
        type Make = fn(usize) -> String;
        let cases: [(&str, Make); 12] = [
            ("die Antwort", |n| "die Antwort ".repeat(n)),
            ("Réponse : 答案是", |n| "Réponse : 答案是".repeat(n)),
            ("spaces before Antwort", |n| {
                " ".repeat(n) + "Antwort " + &" ".repeat(n) + "ist"
            }),
            ("####", |n| "####".repeat(n)),
            ("\\$", |n| "\\$".repeat(n) + "5"),
            ("\\[", |n| "\\[".repeat(n) + "5"),
            ("\\(", |n| "\\(".repeat(n) + "5"),
            ("$$", |n| "$$ x ".repeat(n) + "$$"),
            ("The answer is ####", |n| "The answer is ####".repeat(n)),
            ("answer is:\\n\\[", |n| "answer is:\n\\[".repeat(n)),
            ("answer is:\\n\\boxed{", |n| {
                "answer is:\n\\boxed{".repeat(n)
            }),
            ("prose anchors with a box", |n| {
                "\\boxed{1}\n".to_string() + &"answer is ab cd ef\n".repeat(n)
            }),
        ];
        for (name, make) in cases {
            let n = 4_000;
            let (small, big) = work_at(make, n);
            // Linear work doubles; the quadratic paths these inputs once took grew 4x, and
            // spent about n^2/2 = 8e6 bytes at this size.
            assert!(big <= 2 * small + 64, "{name}: work {small} -> {big}");
            assert!(big <= 40 * n, "{name}: work {big} for n = {n}");
        }
    }
}
