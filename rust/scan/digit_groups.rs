//! Thousands separators: one table and one matcher for the number reader (`crate::number`) and
//! the LaTeX lexer (`crate::latex::lexer`).
//!
//! A separator joins a leading group of one to three digits (not starting with `0`: `0,111` is a
//! decimal comma) to a following group of exactly three digits (and no fourth). When several
//! separators match, the longest wins.
//!
//! The two readers do not accept the same separators, and the table says where: the number reader
//! knows the thin spaces U+2009 and U+202F but not the LaTeX spacing combinations (`\!`, ` {,}`,
//! ...); the lexer the other way round. Making them agree would move verdicts on the bundled
//! suites (`1\u{2009}000` is `1000` to the number reader but `1*000` to the engine; `14 {, }916`
//! would be decided by the number reader instead of the engine's literal path), so the differences
//! are kept as data here and left to the fidelity work to settle (`docs/policies.md`, "Digit
//! groups").

/// Which reader asks, and where.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Context {
    /// `crate::number` on a whole answer (`parse_number`): a bare space groups digits (`10 000`).
    NumberAnswer,
    /// `crate::number` scanning free text (`scan_numbers`): no bare space, since "3 000 people"
    /// and "in 3 100 m runs" cannot be told apart (extraction joins space groups by its own rule).
    NumberText,
    /// The LaTeX lexer outside brackets.
    Latex,
    /// The LaTeX lexer inside `(`/`[`: a bare comma or space separates items (`(1,000, 2)`).
    LatexInBrackets,
}

struct Separator {
    text: &'static str,
    /// Read by `crate::number`.
    number: bool,
    /// Read by the LaTeX lexer.
    latex: bool,
    /// Starts with a bare comma or is a bare space: never inside brackets.
    bare: bool,
}

const fn sep(text: &'static str, number: bool, latex: bool, bare: bool) -> Separator {
    Separator {
        text,
        number,
        latex,
        bare,
    }
}

#[rustfmt::skip]
const SEPARATORS: &[Separator] = &[
    //   text         number latex  bare
    sep(",",          true,  true,  true),
    sep("{,}",        true,  true,  false),
    sep("\\,",        true,  true,  false),
    sep("\\ ",        true,  true,  false),
    sep(" ",          true,  true,  true),  // the number reader: whole answers only
    sep("\u{2009}",   true,  false, false), // thin space: the lexer reads `1*000` (see above)
    sep("\u{202f}",   true,  false, false), // narrow no-break space: likewise
    sep(",\\,",       false, true,  true),
    sep(",\\!",       false, true,  false),
    sep(",\\! ",      false, true,  false),
    sep("\\!",        false, true,  false),
    sep("{, }",       false, true,  false),
    sep(" {,}",       false, true,  false),
    sep(" {, }",      false, true,  false),
];

/// May this run of digits be the leading group of a grouped number?
pub fn can_lead(digits: &[u8]) -> bool {
    (1..=3).contains(&digits.len()) && digits[0] != b'0'
}

/// If `rest` starts with a separator followed by exactly three digits (and no fourth), that
/// separator (the longest when several match). Callers advance by its `len()` in bytes or its
/// `chars().count()` in characters, then read the three digits.
pub fn separator_at<I>(rest: I, context: Context) -> Option<&'static str>
where
    I: Iterator<Item = char> + Clone,
{
    let first = rest.clone().next()?;
    if !matches!(first, ',' | '{' | '\\' | ' ' | '\u{2009}' | '\u{202f}') {
        return None; // the common case: a digit run followed by anything else
    }
    let mut best: Option<&'static str> = None;
    for s in SEPARATORS {
        let allowed = match context {
            Context::NumberAnswer => s.number,
            Context::NumberText => s.number && s.text != " ",
            Context::Latex => s.latex,
            Context::LatexInBrackets => s.latex && !s.bare,
        };
        if !allowed || best.is_some_and(|b| b.len() >= s.text.len()) {
            continue;
        }
        let mut it = rest.clone();
        if !s.text.chars().all(|c| it.next() == Some(c)) {
            continue;
        }
        let three = (0..3).all(|_| it.next().is_some_and(|c| c.is_ascii_digit()));
        if three && !it.next().is_some_and(|c| c.is_ascii_digit()) {
            best = Some(s.text);
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use Context::*;

    fn at(s: &str, c: Context) -> Option<&'static str> {
        separator_at(s.chars(), c)
    }

    const ALL: [Context; 4] = [NumberAnswer, NumberText, Latex, LatexInBrackets];

    #[test]
    fn every_separator_needs_exactly_three_digits() {
        for s in SEPARATORS {
            let c = ALL
                .into_iter()
                .find(|c| at(&format!("{}000", s.text), *c).is_some())
                .unwrap_or_else(|| panic!("{:?} is read nowhere", s.text));
            assert_eq!(at(&format!("{}000 x", s.text), c), Some(s.text));
            assert_eq!(at(&format!("{}0000", s.text), c), None, "{:?}", s.text);
            assert_eq!(at(&format!("{}00", s.text), c), None, "{:?}", s.text);
            assert_eq!(at(&format!("{}00x", s.text), c), None, "{:?}", s.text);
        }
    }

    /// Which reader takes which separator: the pinned behaviour (each reader as it was before the
    /// table was shared; the differences are the open policy question in the module docs).
    #[test]
    fn who_reads_what() {
        #[rustfmt::skip]
        let table = [
            // text       NumberAnswer NumberText Latex LatexInBrackets
            (",",         [true,  true,  true,  false]),
            ("{,}",       [true,  true,  true,  true]),
            ("\\,",       [true,  true,  true,  true]),
            ("\\ ",       [true,  true,  true,  true]),
            (" ",         [true,  false, true,  false]),
            ("\u{2009}",  [true,  true,  false, false]),
            ("\u{202f}",  [true,  true,  false, false]),
            (",\\,",      [false, false, true,  false]),
            (",\\!",      [false, false, true,  true]),
            (",\\! ",     [false, false, true,  true]),
            ("\\!",       [false, false, true,  true]),
            ("{, }",      [false, false, true,  true]),
            (" {,}",      [false, false, true,  true]),
            (" {, }",     [false, false, true,  true]),
        ];
        assert_eq!(table.len(), SEPARATORS.len());
        for (text, want) in table {
            for (c, w) in ALL.into_iter().zip(want) {
                let got = at(&format!("{text}000"), c) == Some(text);
                assert_eq!(got, w, "{text:?} in {c:?}");
            }
        }
    }

    #[test]
    fn the_longest_separator_wins() {
        assert_eq!(at(",\\! 000", Latex), Some(",\\! "));
        assert_eq!(at(" {, }000", Latex), Some(" {, }"));
        assert_eq!(at(",\\,000", Latex), Some(",\\,"));
    }

    #[test]
    fn leading_groups() {
        assert!(can_lead(b"1") && can_lead(b"999"));
        assert!(!can_lead(b"1000") && !can_lead(b"") && !can_lead(b"0") && !can_lead(b"012"));
    }
}
