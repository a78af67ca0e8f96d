//! Multiple-choice letters (issue 13, fidelity_round2.md §2), used only when the gold is a choice
//! letter: `B`, `(B)`, `B.`, `\text{(B)}`, a letter with its option text (`(D) Alina`, `C. x = 42`),
//! or such an option after an anchor (`... and the answer is\n(C) Cecile`).
//!
//! The response's letter, in this order: the first standalone letter of the text after the last
//! anchor ("The answer is for sure D, it can't be A or B" -> D); the letter that starts the response
//! ("D. it can't be A or B", "B。不是 A"); the last letter named by "is", "it's", "be", "option",
//! "choice" (or French/Spanish/German "est", "es", "ist"): "therefore I think it's B"; else the
//! usual extraction reduced to a lone letter (`\boxed{\text{(C)}}`). Letters run from A to E, or to
//! the gold's letter when it is later, so the pronoun "I" is not a choice unless options reach I.

use crate::extract;
use crate::scan::trim;

/// The gold's choice letter, if the gold is a choice (see the module documentation).
pub fn gold_letter(gold: &str) -> Option<u8> {
    // A choice letter (A-J) and the word "answer" are ASCII letters: most golds ("18") have none.
    if !gold.bytes().any(|c| c.is_ascii_alphabetic()) {
        return None;
    }
    let g = unwrap_text(trim(trim(gold).trim_matches('$')));
    if let Some(l) = option_letter(g) {
        return Some(l);
    }
    // "Alina and the answer is\n(C) Cecile": the option after the last anchor (only a gold with
    // the word "answer" is extracted: every gold passes here).
    if !g
        .as_bytes()
        .windows(6)
        .any(|w| w.eq_ignore_ascii_case(b"answer"))
    {
        return None;
    }
    let e = extract::extract(g, &[])?;
    (e.by == extract::ExtractedBy::Anchor)
        .then(|| option_letter(unwrap_text(e.answer.trim())))
        .flatten()
}

/// The option text of a gold that names its choice (`(B) 12`, `C. x = 42`, `(D) Alina`): what a
/// response that answers with the option's content instead of its letter is compared with.
pub fn gold_option_text(gold: &str) -> Option<&str> {
    let g = unwrap_text(trim(trim(gold).trim_matches('$')));
    option_letter(g)?;
    let b = g.as_bytes();
    let rest = match b {
        [b'(', _, b')', ..] => &g[3..],
        [_, b'.' | b')' | b':', ..] => &g[2..],
        _ => return None,
    };
    let text = rest.trim();
    (!text.is_empty()).then_some(text)
}

/// `\text{(C)}`, `\textbf{C}`, `\mathrm{C}` -> their argument; anything else unchanged.
fn unwrap_text(s: &str) -> &str {
    for mac in ["\\text{", "\\textbf{", "\\mathrm{", "\\mathbf{"] {
        if let Some(inner) = s.strip_prefix(mac).and_then(|r| r.strip_suffix('}')) {
            return inner.trim();
        }
    }
    s
}

/// A letter A–J alone (`C`, `(C)`, `C.`, `C)`), or followed by option text: a space and a letter
/// or digit after `(C)`/`C.`/`C)` (`(D) Alina`, `C. x = 42`), or a space and a capitalised word
/// after a bare letter (`C Cecile`, `A Peter`). `A = 5` and `B C` are not choices.
fn option_letter(s: &str) -> Option<u8> {
    let b = s.as_bytes();
    let (letter, after) = match b {
        [b'(', l, b')', ..] => (*l, 3),
        [l, ..] => (*l, 1),
        [] => return None,
    };
    // Checked before slicing: an ASCII letter ends on a character boundary.
    if !(b'A'..=b'J').contains(&letter) {
        return None;
    }
    let rest = &s[after..];
    let marked = b[0] == b'(' || rest.starts_with(['.', ')', ':']);
    let rest = if b[0] == b'(' {
        rest
    } else {
        rest.strip_prefix(['.', ')', ':']).unwrap_or(rest)
    };
    if rest.trim().is_empty() {
        return Some(letter);
    }
    if !rest.starts_with(char::is_whitespace) {
        return None;
    }
    let text = rest.trim_start();
    let first = text.chars().next()?;
    let option_text = if marked {
        first.is_alphanumeric() || first == '$' || first == '\\'
    } else {
        // A bare letter and a capitalised word that is not itself a lone letter.
        first.is_uppercase() && text.chars().nth(1).is_some_and(char::is_lowercase)
    };
    option_text.then_some(letter)
}

/// The response's choice letter (see the module documentation), or `None`.
pub fn response_letter(
    response: &str,
    gold: u8,
    anchors_only: bool,
    split: &[String],
) -> Option<u8> {
    let last = gold.max(b'E');
    let allowed = |c: u8| (b'A'..=last).contains(&c);
    let extracted = extract::extract(response, split);
    if let Some(e) = &extracted {
        if e.by == extract::ExtractedBy::Anchor {
            if let Some(l) = first_standalone_letter(&e.answer, &allowed) {
                return Some(l);
            }
        }
    }
    if anchors_only {
        return None;
    }
    if let Some(l) = leading_letter(response.trim_start(), &allowed) {
        return Some(l);
    }
    if let Some(l) = named_letter(response, &allowed) {
        return Some(l);
    }
    let e = extracted?;
    // Two letter boxes with reasoning between them (`\boxed{C} … \boxed{E}`): the last is the
    // final choice (a list `\boxed{A}, \boxed{C}` stays a list).
    if e.by == extract::ExtractedBy::Boxed {
        let boxes = crate::scan::boxes::find_boxes(response);
        if let [.., a, b] = boxes.as_slice() {
            let between = &response[a.end..b.start];
            let separated = between
                .split(|c: char| c.is_whitespace() || c == ',' || c == '$')
                .any(|w| !w.is_empty() && !matches!(w, "and" | "or"));
            let last = lone_letter(b.content(response));
            if separated && lone_letter(a.content(response)).is_some() {
                if let Some(l) = last.filter(|&l| allowed(l)) {
                    return Some(l);
                }
            }
        }
    }
    let t = e.answer.trim().trim_matches(['$', '.', ' ']);
    if let Some(l) = lone_letter(t).filter(|&l| allowed(l)) {
        return Some(l);
    }
    // `\boxed{E: A polygenic risk score}`: a letter with its option text.
    option_letter(unwrap_text(t)).filter(|&l| allowed(l))
}

/// `C`, `(C)`, `\text{C}`, `\text{(C)}`: the letter.
fn lone_letter(s: &str) -> Option<u8> {
    let t = unwrap_text(s.trim().trim_matches(['$', '.', ' ']));
    let t = t
        .strip_prefix('(')
        .and_then(|r| r.strip_suffix(')'))
        .unwrap_or(t);
    let t = unwrap_text(t);
    (t.len() == 1 && t.as_bytes()[0].is_ascii_uppercase()).then(|| t.as_bytes()[0])
}

fn is_letter_byte(c: u8) -> bool {
    c.is_ascii_alphabetic()
}

/// A capital letter at byte `i` that is not part of a word (ASCII letters, `_`, `\`-commands).
fn standalone_at(b: &[u8], i: usize) -> bool {
    let before_ok = i == 0 || !(is_letter_byte(b[i - 1]) || b[i - 1] == b'\\' || b[i - 1] == b'_');
    let after_ok = i + 1 >= b.len() || !(is_letter_byte(b[i + 1]) || b[i + 1] == b'\'');
    before_ok && after_ok
}

fn first_standalone_letter(s: &str, allowed: &impl Fn(u8) -> bool) -> Option<u8> {
    let b = s.as_bytes();
    (0..b.len()).find_map(|i| (allowed(b[i]) && standalone_at(b, i)).then_some(b[i]))
}

/// "D. it can't", "(B) since", "B。不是 A", "C" at the very start of the response.
fn leading_letter(s: &str, allowed: &impl Fn(u8) -> bool) -> Option<u8> {
    let b = s.as_bytes();
    let (i, close) = if b.first() == Some(&b'(') {
        (1, true)
    } else {
        (0, false)
    };
    let l = *b.get(i)?;
    if !allowed(l) {
        return None;
    }
    let mut j = i + 1;
    if close {
        if b.get(j) != Some(&b')') {
            return None;
        }
        j += 1;
    }
    match b.get(j) {
        None => Some(l),
        // A mark after the letter, or a non-ASCII character ("B。", "B不是").
        Some(&c) if matches!(c, b'.' | b')' | b':' | b',') || c >= 0x80 => Some(l),
        // A space: only after a marked letter ("(B) since") or before a lowercase word ("D it").
        Some(&c) if c.is_ascii_whitespace() => {
            let next = s[j..].trim_start().chars().next();
            (close || next.is_none_or(|n| !n.is_uppercase())).then_some(l)
        }
        _ => None,
    }
}

/// Words after which a letter is the choice the response names ("it's B", "must be D").
const NAMING_WORDS: &[&str] = &[
    "is", "it's", "its", "be", "option", "choice", "answer", "est", "es", "ist",
];

/// The last allowed letter that follows one of [`NAMING_WORDS`] (a `(`, `\text{` or `**` between
/// them allowed).
fn named_letter(s: &str, allowed: &impl Fn(u8) -> bool) -> Option<u8> {
    let b = s.as_bytes();
    let mut found = None;
    for i in 0..b.len() {
        if !(allowed(b[i]) && standalone_at(b, i)) {
            continue;
        }
        let before = s[..i].trim_end_matches(['(', '*', ' ', ':']);
        let before = before.strip_suffix("\\text{").unwrap_or(before).trim_end();
        let word_start = before
            .rfind(|c: char| !(c.is_alphabetic() || c == '\''))
            .map_or(0, |k| {
                k + before[k..].chars().next().map_or(1, char::len_utf8)
            });
        let word = &before[word_start..];
        if NAMING_WORDS.iter().any(|w| w.eq_ignore_ascii_case(word)) {
            found = Some(b[i]);
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    fn letter(r: &str, g: &str) -> Option<char> {
        let gl = gold_letter(g)?;
        response_letter(r, gl, false, &[]).map(char::from)
    }

    #[test]
    fn golds() {
        for (g, want) in [
            ("B", Some('B')),
            ("(D)", Some('D')),
            ("C.", Some('C')),
            ("\\text{(C)}", Some('C')),
            ("$\\textbf{A}$", Some('A')),
            ("(D) Alina", Some('D')),
            ("C Cecile", Some('C')),
            ("C. x = 42", Some('C')),
            ("A Peter\nCelina bum", Some('A')),
            ("Alina and the answer is\n(C) Cecile", Some('C')),
            ("A = 5", None),
            ("B C", None),
            ("x", None),
            ("K", None),
            ("12", None),
            ("AB", None),
            ("\\frac{1}{2}", None),
            ("E = mc^2", None),
            ("٣\\.", None),
            ("(é) x", None),
        ] {
            assert_eq!(gold_letter(g).map(char::from), want, "{g:?}");
        }
    }

    #[test]
    fn responses() {
        for (r, g, want) in [
            (
                "Let's think. It's not A because it doesn't make sense, therefore I think it's B",
                "B",
                Some('B'),
            ),
            (
                "The answer is for sure D, it can't be A or B",
                "D",
                Some('D'),
            ),
            (
                "The answer: D, it doesn't make sense for it to be A or B",
                "D",
                Some('D'),
            ),
            ("D. it can't be A or B", "D", Some('D')),
            // Issue 33 (reported in NeMo-Gym's PR 1844): a letter with its option text in the
            // box; a first letter box, reasoning, then the final one; a list stays a list.
            ("\\boxed{E: A polygenic risk score}", "E", Some('E')),
            ("So \\boxed{C}? No: redo it. \\boxed{E}", "E", Some('E')),
            ("\\boxed{C} ... \\boxed{E}", "E", Some('E')),
            ("\\boxed{A}, \\boxed{C}", "C", None),
            ("réponse est C non A", "C", Some('C')),
            ("B。 不是 A", "B", Some('B')),
            ("B不是 A", "B", Some('B')),
            ("After ruling out A and C, it must be D.", "D", Some('D')),
            (
                "Comparing them, I think the correct option is B",
                "B",
                Some('B'),
            ),
            (
                "The answer is (E) since the others are too small.",
                "E",
                Some('E'),
            ),
            ("so \\boxed{\\text{(C)}}", "C", Some('C')),
            ("C", "(C) Cecile", Some('C')),
            ("I think so.", "B", None),
            ("Answer: C, because A overcounts.", "B", Some('C')),
            ("A Bayesian would say 3.", "A", None),
        ] {
            assert_eq!(letter(r, g), want, "{r:?} / {g:?}");
        }
    }
}
