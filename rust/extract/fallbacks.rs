//! The fallbacks when no anchor decides: a response that is only an answer (a bare expression),
//! or one short word ("C", "yes", "June"). The driver ([`super::extract`]) tries them around the
//! box, math-span and last-number fallbacks.

/// Longest response read as a bare answer.
const MAX_BARE_ANSWER: usize = 200;

/// Words that may appear in a bare answer (function names, connectives); any other run of two or
/// more letters outside LaTeX commands makes the text prose.
const BARE_WORDS: &[&str] = &[
    "sin", "cos", "tan", "cot", "sec", "csc", "arcsin", "arccos", "arctan", "sinh", "cosh", "tanh",
    "log", "ln", "lg", "exp", "det", "gcd", "lcm", "min", "max", "mod", "sqrt", "pi", "and", "or",
];

/// Commands whose braced argument is a name or text, not mathematics: its words are skipped.
const NAME_ARGUMENT: &[&str] = &[
    "text",
    "textbf",
    "textit",
    "textrm",
    "mathrm",
    "mathbf",
    "mathit",
    "mathsf",
    "mathbb",
    "mathcal",
    "mbox",
    "operatorname",
    "begin",
    "end",
];

/// A response that is only an answer: one line of at most [`MAX_BARE_ANSWER`] bytes, without math
/// delimiters (`$`, `\(`, `\[`), and without prose: no run of two or more letters outside LaTeX
/// commands and their name arguments except [`BARE_WORDS`], and no letter outside ASCII (a CJK
/// or accented word is prose). Anchors and boxes were tried first.
pub(super) fn bare_answer(text: &str) -> Option<&str> {
    let t = text.trim();
    // "####" or "..." alone is not an answer.
    if !t.bytes().any(|c| c.is_ascii_alphanumeric())
        || t.len() > MAX_BARE_ANSWER
        || t.bytes().any(|c| matches!(c, b'\n' | b'\r' | b'$'))
        || (t.contains('\\') && (t.contains("\\(") || t.contains("\\[")))
    {
        return None;
    }
    let b = t.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c == b'\\' {
            let start = i + 1;
            let mut j = start;
            while j < b.len() && b[j].is_ascii_alphabetic() {
                j += 1;
            }
            let name = &t[start..j];
            i = j.max(i + 1);
            if NAME_ARGUMENT.contains(&name) {
                while i < b.len() && b[i] == b' ' {
                    i += 1;
                }
                if i < b.len() && b[i] == b'{' {
                    let mut depth = 0usize;
                    while i < b.len() {
                        match b[i] {
                            b'{' => depth += 1,
                            b'}' => {
                                depth -= 1;
                                if depth == 0 {
                                    i += 1;
                                    break;
                                }
                            }
                            _ => {}
                        }
                        i += 1;
                    }
                }
            }
            continue;
        }
        if !c.is_ascii() {
            let ch = t[i..].chars().next()?;
            if ch.is_alphabetic() {
                return None;
            }
            i += ch.len_utf8();
            continue;
        }
        if c.is_ascii_alphabetic() {
            let mut j = i;
            while j < b.len() && b[j].is_ascii_alphabetic() {
                j += 1;
            }
            // A letter glued to a non-ASCII letter ("xé") is prose too: checked at the next byte.
            let word = &t[i..j];
            if word.len() >= 2 && !BARE_WORDS.iter().any(|w| w.eq_ignore_ascii_case(word)) {
                return None;
            }
            i = j;
            continue;
        }
        i += 1;
    }
    Some(t)
}

/// A response with no anchor, box, math or number that is itself a short answer: one word of at
/// most 40 bytes ("C", "(B)", "\\text{(D)}", "yes", "June", "twelve"), without
/// its final period.
pub(super) fn short_whole_answer(text: &str) -> Option<&str> {
    let t = text.trim().trim_end_matches('.').trim_end();
    let one_word = t.len() <= 40 && {
        // Exactly one word, without counting the rest.
        let mut words = t.split_whitespace();
        words.next().is_some() && words.next().is_none()
    };
    // A word, a letter or a number word: "####" or "..." alone is not an answer.
    (one_word && t.chars().any(char::is_alphanumeric)).then_some(t)
}

/// Words that, right before a math span, make it the object of the task the question sets ("To
/// find the value of \(\frac{7+21}{14+42}\), we ...", "we need to simplify $\sqrt{50}$"): the span
/// restates the question and is no answer.
const TASK_WORDS: &[&str] = &[
    "value of",
    "find",
    "compute",
    "calculate",
    "evaluate",
    "simplify",
    "solve",
    "determine",
    "expand",
    "factor",
    "rationalize",
    "expression",
];

/// Does the text before a math span end with one of [`TASK_WORDS`] (then only spaces, a colon
/// or a comma)? Only the last 40 bytes are looked at.
pub(super) fn restates_question(before: &str) -> bool {
    let mut start = before.len().saturating_sub(40);
    while !before.is_char_boundary(start) {
        start += 1;
    }
    let tail = before[start..]
        .trim_end_matches(|c: char| c.is_whitespace() || c == ':' || c == ',')
        .to_ascii_lowercase();
    TASK_WORDS.iter().any(|w| {
        tail.strip_suffix(w)
            .is_some_and(|head| head.is_empty() || head.ends_with(|c: char| !c.is_alphanumeric()))
    })
}

#[cfg(test)]
mod tests {
    use crate::extract::{ex, extract, ExtractedBy};

    #[test]
    fn fallbacks() {
        assert_eq!(
            ex("we get \\boxed{5} and \\fbox{6}").as_deref(),
            Some("5, 6")
        );
        assert_eq!(
            ex("first \\boxed{5}, no wait: it is \\boxed{6}").as_deref(),
            Some("6")
        );
        assert_eq!(ex("so $\\sqrt3 $").as_deref(), Some("\\sqrt3"));
        assert_eq!(
            ex("matrix $ \\begin{pmatrix}1\\end{pmatrix} $.").as_deref(),
            Some("\\begin{pmatrix}1\\end{pmatrix}")
        );
        assert_eq!(
            ex("so $$x=2$$. Therefore there are 12 ways.").as_deref(),
            Some("12")
        );
        assert_eq!(ex("it is 1 000").as_deref(), Some("1 000"));
        assert_eq!(ex("Soucis : 2,74 $ a..").as_deref(), Some("2,74"));
        assert_eq!(ex("we have 3, 74").as_deref(), Some("74"));
        assert_eq!(
            ex("so \\[ x = \\frac{1}{2} \\]").as_deref(),
            Some("x = \\frac{1}{2}")
        );
        assert_eq!(ex("ends in $$\\sqrt{2}$$").as_deref(), Some("\\sqrt{2}"));
        assert_eq!(ex("She pays $5 and gets $3 back").as_deref(), Some("3"));
        assert_eq!(
            ex("the zoo-keeper fed 12 animals. x-axis").as_deref(),
            Some("12")
        );
        assert_eq!(ex("value is 3.5e-3").as_deref(), Some("3.5e-3"));
        assert_eq!(ex("no numbers"), None);
    }

    /// A response that is only an answer is its own answer (issue 13, bare answers); prose, lone
    /// numbers, delimiters and several lines keep the earlier fallbacks.
    #[test]
    fn bare_answers_are_whole() {
        for (text, want) in [
            ("x^2 - 4x + 4", "x^2 - 4x + 4"),
            (" (3, 4)\n", "(3, 4)"),
            ("[2, 5)", "[2, 5)"),
            ("\\{1, 3\\}", "\\{1, 3\\}"),
            ("918\\frac{1}{2}", "918\\frac{1}{2}"),
            ("3 + 2", "3 + 2"),
            ("a = 3, b = -2", "a = 3, b = -2"),
            ("\\cos x + \\sin x", "\\cos x + \\sin x"),
            (
                "\\begin{pmatrix} 1 \\\\ 2 \\end{pmatrix}",
                "\\begin{pmatrix} 1 \\\\ 2 \\end{pmatrix}",
            ),
            ("5\\text{ cm}^2", "5\\text{ cm}^2"),
            ("x = 1 or x = 2", "x = 1 or x = 2"),
        ] {
            let e = extract(text, &[]).unwrap();
            assert_eq!(
                (e.answer.as_str(), e.by),
                (want, ExtractedBy::WholeResponse),
                "{text:?}"
            );
        }
        // Prose (a word of two or more letters, any non-ASCII letter), several lines, delimiters, a
        // lone number: as before.
        for (text, want, by) in [
            ("12 apples", "12", ExtractedBy::LastNumber),
            ("so we get 12", "12", ExtractedBy::LastNumber),
            ("答案 12", "12", ExtractedBy::LastNumber),
            ("x^2\n+ 1", "1", ExtractedBy::LastNumber),
            ("we get $x^2+1$", "x^2+1", ExtractedBy::MathSpan),
            ("-5", "-5", ExtractedBy::LastNumber),
            ("1,000", "1,000", ExtractedBy::LastNumber),
            ("yes", "yes", ExtractedBy::WholeResponse),
        ] {
            let e = extract(text, &[]).unwrap();
            assert_eq!((e.answer.as_str(), e.by), (want, by), "{text:?}");
        }
        assert_eq!(ex("####"), None);
        // Over 200 bytes: not read as a bare answer.
        assert_eq!(ex(&"x+".repeat(101)), None);
        assert_eq!(ex(&format!("{}1", "x+".repeat(100))).as_deref(), Some("1"));
    }

    /// Boxes are read one way everywhere (`crate::scan::boxes`): braced or one token, and
    /// consecutive boxes join across connectives. A response cut off inside its last box has no
    /// answer (issue 34: paying a truncated answer teaches a policy to stop early).
    #[test]
    fn boxes_read_one_way() {
        assert_eq!(ex("so \\boxed 5").as_deref(), Some("5"));
        assert_eq!(ex("so \\boxed\n{5}").as_deref(), Some("5"));
        assert_eq!(ex("cut off: \\boxed{12").as_deref(), None);
        assert_eq!(ex("The answer is \\boxed{12").as_deref(), None);
        assert_eq!(ex("The answer is $\\boxed{12$").as_deref(), None);
        assert_eq!(ex("\\boxed{3} and \\boxed 4").as_deref(), Some("3, 4"));
    }
}
