//! Yes / no stated in words (issue 33, docs/policies.md "Yes and no in words"): against a gold
//! `Yes` or `No`, a response that ends "There are no integer solutions to $x^2-3y^2=17$." or "It is
//! impossible to label the cube this way." answers no; "Thus such a coloring exists." answers
//! yes. Read only when the gold is one of these words and the response commits to no value of its
//! own (no box, no anchored number): the closing sentence's negation or affirmation of existence or
//! possibility decides. A sentence that holds both, or neither, decides nothing.

/// A gold that is the word yes or no (`Yes`, `\text{No}`, `$\text{YES}$`, `no.`): `Some(true)`
/// for yes.
pub fn gold_polarity(gold: &str) -> Option<bool> {
    if gold.len() > 24 {
        return None;
    }
    let w = bare_word(gold);
    if w.eq_ignore_ascii_case("yes") {
        Some(true)
    } else if w.eq_ignore_ascii_case("no") {
        Some(false)
    } else {
        None
    }
}

/// A text without `$`, `\text{…}` / `\textbf{…}` / `\mathrm{…}` wrappers and a final period.
fn bare_word(s: &str) -> &str {
    let mut t = s.trim();
    loop {
        let before = t.len();
        t = t.trim_matches('$').trim();
        for open in ["\\text{", "\\textbf{", "\\mathrm{", "\\boxed{"] {
            if let Some(inner) = t.strip_prefix(open).and_then(|r| r.strip_suffix('}')) {
                t = inner.trim();
            }
        }
        t = t.trim_end_matches(['.', '!']).trim();
        if t.len() == before {
            return t;
        }
    }
}

/// Phrases that deny existence or possibility: the answer is no.
const DENIES: &[&str] = &[
    "there is no ",
    "there are no ",
    "there exists no ",
    "there exist no ",
    "there is not ",
    "there are not ",
    "no such ",
    "does not exist",
    "do not exist",
    "doesn't exist",
    "don't exist",
    "cannot exist",
    "can't exist",
    "impossible",
    "not possible",
    "cannot be",
    "can't be",
    "can not be",
    "cannot ",
    "can't ",
    "is not ",
    "are not ",
    "isn't ",
    "aren't ",
    "does not ",
    "do not ",
    "doesn't ",
    "don't ",
    "never ",
    "no solution",
    "no integer",
    "no real",
    "no positive",
    "no natural",
    "not always",
    "not true",
    "false",
];

/// Phrases that assert existence or possibility: the answer is yes.
const AFFIRMS: &[&str] = &[
    " exists",
    " exist ",
    " exist.",
    "is possible",
    "are possible",
    "it is possible",
    " can be ",
    "is indeed ",
    "are indeed ",
    "is always ",
    "are always ",
    "there is a ",
    "there is an ",
    "there are infinitely many",
    "is true",
    "does exist",
    "do exist",
];

/// Sentences that close a response without stating anything ("This completes the proof.").
const BOILERPLATE: &[&str] = &[
    "completes the proof",
    "q.e.d",
    "qed",
    "i hope",
    "\\blacksquare",
    "\\square",
    "∎",
    "□",
];

/// The last sentence of `text` that states something, lower-cased, with a space at each end.
fn closing_sentence(text: &str) -> Option<String> {
    let t = text.trim();
    // The last 600 bytes hold the closing sentence (work per item stays bounded).
    let mut start = t.len().saturating_sub(600);
    while !t.is_char_boundary(start) {
        start += 1;
    }
    let tail = t[start..].to_lowercase();
    crate::work::count(tail.len());
    let mut sentences: Vec<&str> = tail
        .split(['\n', '!', '?'])
        .flat_map(|l| l.split(". "))
        .map(|s| s.trim().trim_end_matches(['.', '*']).trim())
        .filter(|s| s.chars().any(char::is_alphanumeric))
        .collect();
    while sentences
        .last()
        .is_some_and(|s| BOILERPLATE.iter().any(|b| s.contains(b)))
    {
        sentences.pop();
    }
    sentences.last().map(|s| format!(" {s} "))
}

/// What the closing sentence of `text` answers: `Some(true)` yes, `Some(false)` no, `None` when it
/// does not say (or says both).
pub fn says(text: &str) -> Option<bool> {
    let closing = closing_sentence(text)?;
    // "Yes, ...", "No, it is not possible", "No.", "So yes, ..." open the sentence.
    let mut opening = closing.trim_start();
    for opener in [
        "so ",
        "thus ",
        "hence ",
        "therefore ",
        "so, ",
        "thus, ",
        "hence, ",
        "therefore, ",
    ] {
        if let Some(r) = opening.strip_prefix(opener) {
            opening = r.trim_start();
            break;
        }
    }
    let first: String = opening.chars().take_while(|c| c.is_alphabetic()).collect();
    let after_first = opening[first.len()..].chars().next();
    if matches!(first.as_str(), "yes" | "no")
        && after_first.is_none_or(|c| ",;:—-. ".contains(c))
        && !(first == "no" && after_first == Some(' '))
    {
        return Some(first == "yes");
    }
    let denies = DENIES.iter().any(|p| closing.contains(p))
        || closing.contains(" not ")
        || closing.starts_with(" no ");
    // An affirmation inside a denial ("does not exist") is not one.
    let mut rest = closing.clone();
    for p in DENIES {
        rest = rest.replace(p, " ");
    }
    let affirms = AFFIRMS.iter().any(|p| rest.contains(p));
    match (denies, affirms) {
        (true, false) => Some(false),
        (false, true) => Some(true),
        // "no such n exists": the denial holds the verb of existence.
        (true, true) if closing.contains("no such ") || closing.contains("there is no ") => {
            Some(false)
        }
        _ => None,
    }
}

/// Does the closing sentence deny that anything exists ("There are no integer solutions", "no
/// such function exists")? A gold `none` / `no solution` accepts it.
pub fn denies_existence(text: &str) -> bool {
    let Some(closing) = closing_sentence(text) else {
        return false;
    };
    [
        "there is no ",
        "there are no ",
        "there exists no ",
        "there exist no ",
        "no such ",
        "does not exist",
        "do not exist",
        "doesn't exist",
        "don't exist",
        "has no solution",
        "have no solution",
        "no solutions",
    ]
    .iter()
    .any(|p| closing.contains(p))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn golds() {
        for (g, want) in [
            ("Yes", Some(true)),
            ("no", Some(false)),
            ("\\text{No}", Some(false)),
            ("$\\text{YES}$", Some(true)),
            ("No.", Some(false)),
            ("None", None),
            ("7", None),
            ("No solution", None),
        ] {
            assert_eq!(gold_polarity(g), want, "{g}");
        }
    }

    #[test]
    fn closing_sentences() {
        for (t, want) in [
            (
                "We check all residues.\n\nTherefore, there are no integer solutions to $x^2-3y^2=17$.",
                Some(false),
            ),
            ("Hence it is impossible to label the cube this way.", Some(false)),
            ("Yes, it is possible: take $n=3$.", Some(true)),
            ("Thus such a coloring exists.", Some(true)),
            ("Thus $91 = 7 \\cdot 13$ is not prime.", Some(false)),
            ("So 561 is indeed a Carmichael number.", Some(true)),
            ("No such $n$ exists.\n\nThis completes the proof.", Some(false)),
            ("No, because 3 is odd.", Some(false)),
            ("So yes, every such number is divisible by 3.", Some(true)),
            ("Therefore, such a triangle does not exist.", Some(false)),
            ("So the sum is 12.", None),
            ("It is possible for n = 3 but not for n = 4.", None),
        ] {
            assert_eq!(says(t), want, "{t}");
        }
    }

    #[test]
    fn denials_of_existence() {
        assert!(denies_existence("There is no such function."));
        assert!(denies_existence(
            "So the equation has no solutions in integers."
        ));
        assert!(!denies_existence("So $f(x) = x$ is the only function."));
        assert!(!denies_existence("It is not prime."));
    }
}
