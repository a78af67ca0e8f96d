//! UMWP's "mathematical expression" test (`check_contains_math_expression`): tokenise one split
//! item, drop punctuation tokens, join runs of non-dictionary tokens into expressions, and flag an
//! expression made only of letters, digits and `()+-*/[]` that has a letter in it.

use super::dictionary::{self, ExtraWords};
use super::tokenize::tokenizer;
use crate::names::str_enum;

/// What a standalone capital "I" is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CapitalI {
    /// A one-letter variable, as in the original (its exception list names only "a", "A" and
    /// lower-case "i"): "I hope this helps!" is flagged.
    Variable,
    /// A word, like "a" and "i": checked in the dictionary.
    Word,
}
str_enum!(CapitalI, "capital_i" { Variable => "variable", Word => "word" });

/// What an "=" token does to the run it sits in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EqualsSign {
    /// As the original: "=" is a non-word token, so it joins the run ("x=5"), which then fails
    /// the allowed-character test: "x = 5" is never flagged.
    HidesRun,
    /// "=" closes the run like a word does, so both sides are tested on their own.
    Separates,
}
str_enum!(EqualsSign, "equals" { HidesRun => "hides_run", Separates => "separates" });

/// The switches of the rule; `Default` is the original.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct MathOptions {
    pub capital_i: CapitalI,
    pub equals: EqualsSign,
    pub extra_words: ExtraWords,
}

impl Default for MathOptions {
    fn default() -> Self {
        Self {
            capital_i: CapitalI::Variable,
            equals: EqualsSign::HidesRun,
            extra_words: ExtraWords::EnchantCase,
        }
    }
}

/// spaCy's `Token.is_quote` (`spacy.lang.lex_attrs.is_quote`).
fn is_quote(t: &str) -> bool {
    matches!(
        t,
        "\"" | "'"
            | "`"
            | "«"
            | "»"
            | "‘"
            | "’"
            | "‚"
            | "‛"
            | "“"
            | "”"
            | "„"
            | "‟"
            | "‹"
            | "›"
            | "❮"
            | "❯"
            | "''"
            | "``"
    )
}

/// `is_english_word`: all ASCII letters, not a single letter other than "a", "A", "i" (and "I"
/// when [`CapitalI::Word`]), and in the dictionary.
pub fn is_common_word(t: &str, opts: &MathOptions) -> bool {
    if t.is_empty() || !t.bytes().all(|b| b.is_ascii_alphabetic()) {
        return false;
    }
    if t.len() < 2
        && !(t == "a" || t == "A" || t == "i" || (t == "I" && opts.capital_i == CapitalI::Word))
    {
        return false;
    }
    dictionary::check(t, opts.extra_words)
}

/// Python `re.match(pattern + "$")`: `$` also matches before one final newline.
fn strip_final_newline(s: &str) -> &str {
    s.strip_suffix('\n').unwrap_or(s)
}

/// The allowed-character and has-a-letter tests of one expression.
pub fn is_variable_expression(e: &str) -> bool {
    e.bytes().any(|b| b.is_ascii_alphabetic())
        && strip_final_newline(e)
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"()+-*/[]".contains(&b))
}

/// Every expression (run of joined non-word tokens) of one item, in order.
pub fn expressions(item: &str, opts: &MathOptions) -> Vec<String> {
    let mut out = Vec::new();
    let mut run = String::new();
    for t in tokenizer().tokens(item) {
        if t == "," || t == "." || t == "'s" || is_quote(t) {
            continue;
        }
        let closes = is_common_word(t, opts) || (t == "=" && opts.equals == EqualsSign::Separates);
        if closes {
            if !run.is_empty() {
                out.push(std::mem::take(&mut run));
            }
        } else {
            run.push_str(t);
        }
    }
    if !run.is_empty() {
        out.push(run);
    }
    out
}

/// The expressions of `item` that pass the test (non-empty means the item is flagged).
pub fn variable_expressions(item: &str, opts: &MathOptions) -> Vec<String> {
    expressions(item, opts)
        .into_iter()
        .filter(|e| is_variable_expression(e))
        .collect()
}

/// The longest passing expression (the first of that length), as the original tracks it.
pub fn longest_variable_expression(item: &str, opts: &MathOptions) -> Option<String> {
    let mut best: Option<String> = None;
    for e in variable_expressions(item, opts) {
        if best.as_ref().is_none_or(|b| e.len() > b.len()) {
            best = Some(e);
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ve(s: &str) -> Vec<String> {
        variable_expressions(s, &MathOptions::default())
    }

    #[test]
    fn quirks_of_the_original() {
        assert_eq!(ve("x + 5 = 10, so x = 5"), Vec::<String>::new());
        assert_eq!(ve("Let x be the number of apples, so x = 10"), ["x"]);
        assert_eq!(ve("I hope this helps"), ["I"]);
        assert!(ve("I'm not sure").is_empty());
        let word_i = MathOptions {
            capital_i: CapitalI::Word,
            ..MathOptions::default()
        };
        assert!(variable_expressions("I hope this helps", &word_i).is_empty());
        let sep = MathOptions {
            equals: EqualsSign::Separates,
            ..MathOptions::default()
        };
        assert_eq!(variable_expressions("so x = 5", &sep), ["x"]);
        assert!(ve("the 5-year plan").is_empty());
        assert_eq!(ve("so it is x-5 now"), ["x-5"]);
        assert!(ve("a well-known fact").is_empty());
    }

    #[test]
    fn longest_is_first_of_max_length() {
        assert_eq!(
            longest_variable_expression("so n and then 2x+3 and m", &MathOptions::default()),
            Some("2x+3".into())
        );
        assert!(is_variable_expression("x\n"));
        assert!(!is_variable_expression("x\n\n"));
        assert!(!is_variable_expression("12"));
    }
}
