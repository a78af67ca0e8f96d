//! What a sentence of prose asserts (issue 33): "Gerald's new time is 36 seconds" → `36`, "So there
//! are 239 such strings of length 6" → `239`, "The number of diagonals is n(n-3)/2" → `n(n-3)/2`,
//! "Therefore 7 is the remainder when 2^{100} is divided by 9" → `7`. A careful grader reads the
//! value the sentence states, not its last number. Runs only on a sentence that is prose with more
//! than one number or a math span (the anchored sentence, or the closing sentence of a response
//! without anchor or box), never on the common path of a box or a bare answer.
//!
//! The reader is deliberately narrow: a value it cannot read with certainty gives `None`, and the
//! caller keeps what it had (a wrong answer must stay wrong).

/// Verbs after which a sentence states its value, longest first ("is equal to" before "is").
const COPULAS: &[&str] = &[
    " is equal to ",
    " is ",
    " are ",
    " equals ",
    " will be ",
    " would be ",
    " was ",
    " were ",
    " measures ",
    " = ",
];

/// Words that may open a sentence before its subject ("Therefore 7 is the remainder ...").
const OPENERS: &[&str] = &["therefore", "thus", "so", "hence", "finally", "then"];

/// The value a sentence of prose asserts, or `None` when it cannot be read with certainty.
pub(crate) fn sentence_value(sentence: &str) -> Option<&str> {
    let s = sentence.trim().trim_end_matches(['.', '!', ' ', '*']);
    let lower = s.to_ascii_lowercase();
    // "There are 239 such strings": the count.
    for p in ["there are ", "there is ", "there were "] {
        if let Some(i) = lower.find(p) {
            let rest = &s[i + p.len()..];
            if let Some((num, tail)) = leading_number(rest) {
                // One clause: "there are 3 ways, hence 6 pairs" asserts more than the count.
                let t = tail.to_ascii_lowercase();
                if tail.starts_with(' ')
                    && !tail.contains([',', ';', '='])
                    && ![" so ", " hence ", " thus ", " giving ", " which ", " and "]
                        .iter()
                        .any(|w| t.contains(w))
                {
                    return Some(num);
                }
            }
            return None;
        }
    }
    // "7 is the remainder when ...": a number that is the subject of the sentence.
    let mut head = s;
    loop {
        let h = head.trim_start_matches([' ', ',']);
        let word: String = h
            .chars()
            .take_while(char::is_ascii_alphabetic)
            .collect::<String>()
            .to_ascii_lowercase();
        if !word.is_empty() && OPENERS.contains(&word.as_str()) {
            head = &h[word.len()..];
            continue;
        }
        head = h;
        break;
    }
    if let Some((num, tail)) = leading_number(head) {
        if tail.starts_with(" is the ") || tail.starts_with(" are the ") {
            return Some(num);
        }
    }
    // The first copula followed by a value: "the smallest value is 2, attained when x = 1" → 2.
    let mut from = 0;
    while let Some((at, len)) = COPULAS
        .iter()
        .filter_map(|c| lower[from..].find(c).map(|i| (from + i, c.len())))
        .min_by_key(|&(i, len)| (i, usize::MAX - len))
    {
        let after = &s[at + len..];
        if let Some(v) = value_after_copula(after) {
            return Some(v);
        }
        // A number it could not take ("a = 3 and b = -4"): the sentence asserts several things.
        if leading_number(after.trim_start()).is_some() {
            return None;
        }
        from = at + 1;
    }
    None
}

/// A number (sign, currency, digits, thousands groups, decimals) at the start of `s`, and the rest.
fn leading_number(s: &str) -> Option<(&str, &str)> {
    let b = s.as_bytes();
    let mut i = 0;
    if b.first() == Some(&b'$') {
        i += 1;
    }
    let start = i;
    if b.get(i).is_some_and(|&c| c == b'-' || c == b'+') {
        i += 1;
    }
    let digits = i;
    while i < b.len()
        && (b[i].is_ascii_digit()
            || ((b[i] == b',' || b[i] == b'.') && b.get(i + 1).is_some_and(u8::is_ascii_digit)))
    {
        i += 1;
    }
    if i == digits || !b[digits].is_ascii_digit() {
        return None;
    }
    // "12abc", "3x", "2^{5}", "5!" are not a plain number.
    if b.get(i)
        .is_some_and(|&c| c.is_ascii_alphanumeric() || b"^_!(/{\\".contains(&c))
    {
        return None;
    }
    // "60%" keeps its percent sign: the number checker reads it.
    if b.get(i) == Some(&b'%') {
        i += 1;
    }
    Some((&s[start..i], &s[i..]))
}

fn has_digit(s: &str) -> bool {
    s.bytes().any(|c| c.is_ascii_digit())
}

/// The value right after a copula: a number followed by nothing, unit words, a degree or percent
/// sign, or a clause after a comma ("2, attained when ..."); or an expression without prose words
/// that runs to the end of the sentence ("n(n-3)/2", "x^2 + 2x + 1").
fn value_after_copula(rest: &str) -> Option<&str> {
    let rest = rest.trim_start();
    if let Some((num, tail)) = leading_number(rest) {
        let t = tail.trim_start();
        if t.is_empty() || t.starts_with([',', ';']) {
            return Some(num);
        }
        // Unit words only: "36 seconds", "15 liters of water", "52 degrees", "55°".
        if !has_digit(t)
            && t.chars()
                .all(|c| c.is_alphabetic() || c == ' ' || c == '\'' || "°%²³".contains(c))
        {
            return Some(num);
        }
        return None;
    }
    // An expression: symbols, digits and one-letter names only, up to the end of the sentence.
    let e = rest.trim();
    let ok = !e.is_empty()
        && has_digit(e)
        && e.chars()
            .all(|c| c.is_ascii() && (c.is_ascii_alphanumeric() || " +-*/^()_{}.".contains(c)))
        && e.as_bytes()
            .split(|c| !c.is_ascii_alphabetic())
            .all(|w| w.len() <= 1);
    ok.then_some(e)
}

#[cfg(test)]
mod tests {
    use super::sentence_value;

    #[test]
    fn reads_the_asserted_value() {
        for (s, want) in [
            ("Gerald's new time is 36 seconds", "36"),
            ("So there are 239 such strings of length 6.", "239"),
            ("The number of diagonals is n(n-3)/2.", "n(n-3)/2"),
            (
                "Thus the smallest possible value is 2, attained when x = 1.",
                "2",
            ),
            (
                "Therefore 7 is the remainder when 2^{100} is divided by 9.",
                "7",
            ),
            (
                "Therefore, the remainder when 2^{100} is divided by 9 is 7.",
                "7",
            ),
            ("Expanding, the polynomial is x^2 + 2x + 1.", "x^2 + 2x + 1"),
            ("$\\angle 2$ measures 52 degrees", "52"),
            ("her salary will be $9360", "9360"),
        ] {
            assert_eq!(sentence_value(s), Some(want), "{s}");
        }
    }

    #[test]
    fn leaves_what_it_cannot_read() {
        for s in [
            "the mixture contains 45 liters in total, of which 15 liters are water",
            "the car travels 250 km in 5 hours",
            "her salary will be $9360 − $360 = $9000",
            "there are 3 ways, hence 6 ordered pairs",
            "there are 3 ways and so 6 ordered pairs",
            "a = 3 and b = -4 hold",
            "the answer is 5! ways",
            "Hence the class has 5 boys and 7 girls.",
        ] {
            assert_eq!(sentence_value(s), None, "{s}");
        }
    }
}
