//! What a sentence of prose asserts (issue 33): "Gerald's new time is 36 seconds" → `36`, "So there
//! are 239 such strings of length 6" → `239`, "The number of diagonals is n(n-3)/2" → `n(n-3)/2`,
//! "Hence the maximum is $\frac12$, attained at $x = 1$" → `\frac12`, "Therefore, $a = 3$ and
//! $b = -4$" → `a = 3, b = -4`, "So the car travels 250 km in 5 hours" → `250`. A careful grader
//! reads the value the sentence states, not its last number or math span. Runs only on a sentence
//! that is prose with more than one value (the anchored sentence, or the closing sentence of a
//! response without anchor or box), never on the common path of a box or a bare answer.
//!
//! The sentence is read as tokens (words, plain numbers, math spans, signs), and three readings
//! are tried in order: values that open the sentence ("$x = 4$ is the only root"), the values
//! after its first copula that takes one ("... is 2, attained when ..."), and the first number
//! after the main verb ("she spent 45 dollars on 3 books"). Each accepts only what follows the
//! value when it is unit words, a condition or a prepositional phrase: a value it cannot read with
//! certainty gives `None`, and the caller keeps what it had (a wrong answer must stay wrong).

use super::spans::{math_span_or_dead_end, Span, Unclosed};

/// Longest sentence read (bytes); a longer one is not a closing sentence of prose.
const MAX_SENTENCE: usize = 1200;

/// Words that may open a sentence before what it asserts ("Therefore, ...", "We conclude that").
const OPENER_WORDS: &[&str] = &[
    "therefore",
    "thus",
    "so",
    "hence",
    "finally",
    "then",
    "consequently",
    "overall",
    "altogether",
    "accordingly",
    "ultimately",
    "clearly",
    "now",
    "approximately",
    "about",
    "roughly",
    "exactly",
];

/// Phrases that may open a sentence before what it asserts.
const OPENER_PHRASES: &[&[&str]] = &[
    &["we", "conclude", "that"],
    &["we", "conclude"],
    &["it", "follows", "that"],
    &["this", "means", "that"],
    &["this", "shows", "that"],
    &["we", "find", "that"],
    &["we", "see", "that"],
    &["we", "get"],
    &["we", "have"],
    &["we", "obtain"],
    &["we", "find"],
    &["this", "gives"],
    &["this", "gives", "us"],
    &["in", "conclusion"],
    &["in", "summary"],
    &["in", "total"],
    &["as", "a", "result"],
    &["that", "is"],
    &["that", "means"],
    &["this", "means"],
    &["which", "means"],
];

/// Copulas: after one the sentence states its value ("is equal to" before "is").
const COPULAS: &[&[&str]] = &[
    &["is", "equal", "to"],
    &["are", "equal", "to"],
    &["is", "given", "by"],
    &["will", "be"],
    &["would", "be"],
    &["must", "be"],
    &["should", "be"],
    &["comes", "to"],
    &["is"],
    &["are"],
    &["was"],
    &["were"],
    &["equals"],
    &["measures"],
    &["becomes"],
    &["totals"],
];

/// Words between a copula and its value that do not change it ("is exactly 5", "is therefore 5").
const ADVERBS: &[&str] = &[
    "exactly",
    "therefore",
    "thus",
    "then",
    "just",
    "simply",
    "indeed",
    "also",
    "still",
    "now",
    "precisely",
    "clearly",
    "hence",
];

/// Words that start a prepositional phrase after a value ("45 dollars on 3 books", "6 hours for
/// 3 workers"): its numbers are circumstances, not the answer.
const PREPOSITIONS: &[&str] = &[
    "in", "on", "for", "after", "before", "to", "from", "per", "at", "with", "by", "over",
    "within", "during", "of", "into", "out", "under", "between", "among", "than", "since", "until",
    "each", "every", "about", "around", "across", "through",
];

/// Words that start a condition after a value ("2, attained when x = 1", "4 when divided by 7").
const CONDITIONS: &[&str] = &[
    "when",
    "where",
    "if",
    "for",
    "at",
    "since",
    "because",
    "as",
    "attained",
    "achieved",
    "reached",
    "occurring",
    "with",
    "given",
    "provided",
    "whenever",
    "that",
    "who",
    "whose",
];

/// Words that open a subordinate clause after the main one ("... because 10 - 4 = 6").
const SUBORDINATORS: &[&str] = &["because", "since", "if", "although", "though", "unless"];

/// Words that start a second assertion ("3 ways and so 6 pairs", "5 boys and 7 girls"), also
/// inside a prepositional phrase ("on 3 books and 2 pens"; "after giving 3 to Ann" is one
/// circumstance).
const SECOND_ASSERTION: &[&str] = &[
    "and",
    "or",
    "but",
    "so",
    "hence",
    "thus",
    "therefore",
    "while",
    "whereas",
    "which",
    "then",
    "plus",
    "minus",
    "namely",
];

/// Words that join a derived value to the one before it ("3 ways, giving 6 pairs", "i.e."), as
/// well as [`SECOND_ASSERTION`]'s.
const DERIVES: &[&str] = &[
    "giving", "gives", "yielding", "yields", "making", "makes", "i", "times",
];

/// Verbs after a value that opens the sentence ("$x = 4$ is the only root", "$n = 5$ works").
const SUBJECT_PREDICATES: &[&[&str]] = &[
    &["is", "the"],
    &["are", "the"],
    &["is", "a"],
    &["is", "our"],
    &["works"],
    &["work"],
    &["satisfies"],
    &["satisfy"],
];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// Letters, as written (compared in lower case).
    Word,
    /// A plain number: sign, digits, groups, decimals, a percent sign (`$` before it left out).
    Num,
    /// A math span's content.
    Math,
    /// One sign or punctuation character.
    Sign(char),
    /// What the reader does not read (`2^{5}`, `5!`, `4t`, a LaTeX command outside math).
    Other,
}

#[derive(Clone, Copy, Debug)]
struct Tok {
    kind: Kind,
    /// The token's text in the sentence (a math span's content for `Math`).
    start: usize,
    end: usize,
}

struct Tokens<'a> {
    s: &'a str,
    toks: Vec<Tok>,
    /// Lower-cased words, by token index (empty for other tokens).
    lower: Vec<String>,
}

impl<'a> Tokens<'a> {
    fn new(s: &'a str) -> Self {
        let b = s.as_bytes();
        let mut toks = Vec::new();
        let mut unclosed = Unclosed::default();
        let mut i = 0;
        while i < b.len() {
            let c = b[i];
            if c.is_ascii_whitespace() {
                i += 1;
                continue;
            }
            if c == b'$' || (c == b'\\' && matches!(b.get(i + 1), Some(b'[' | b'('))) {
                if let Span::Found(_, end) = math_span_or_dead_end(s, i, &mut unclosed) {
                    // The content's place in `s`: after the opener, before the closer.
                    let open = if s[i..].starts_with("$$") || c == b'\\' {
                        2
                    } else {
                        1
                    };
                    let inner = &s[i + open..end - open];
                    let lead = inner.len() - inner.trim_start().len();
                    let start = i + open + lead;
                    let len = inner.trim().len();
                    if len > 0 {
                        toks.push(Tok {
                            kind: Kind::Math,
                            start,
                            end: start + len,
                        });
                    }
                    i = end;
                    continue;
                }
            }
            if let Some(end) = number_at(b, i, toks.last().map(|t| t.kind)) {
                let start = i + usize::from(c == b'$');
                let kind = if b
                    .get(end)
                    .is_some_and(|&c| c.is_ascii_alphanumeric() || b"^_!({\\".contains(&c))
                {
                    Kind::Other
                } else {
                    Kind::Num
                };
                // An ordinal or a glued name ("12th", "4t") is one token the reader leaves alone.
                let mut e = end;
                if kind == Kind::Other {
                    while e < b.len() && b[e].is_ascii_alphanumeric() {
                        e += 1;
                    }
                }
                toks.push(Tok {
                    kind,
                    start,
                    end: e.max(end),
                });
                i = e.max(end);
                continue;
            }
            let ch = s[i..].chars().next().unwrap_or(' ');
            if ch.is_alphabetic() {
                let mut e = i;
                for (k, c) in s[i..].char_indices() {
                    if c.is_alphabetic()
                        || ((c == '\'' || c == '’' || c == '-')
                            && s[i + k + c.len_utf8()..]
                                .chars()
                                .next()
                                .is_some_and(char::is_alphabetic))
                    {
                        e = i + k + c.len_utf8();
                    } else {
                        break;
                    }
                }
                toks.push(Tok {
                    kind: Kind::Word,
                    start: i,
                    end: e,
                });
                i = e;
                continue;
            }
            if c == b'\\' {
                // A command outside math: the reader does not read it.
                let mut e = i + 1;
                while e < b.len() && b[e].is_ascii_alphabetic() {
                    e += 1;
                }
                toks.push(Tok {
                    kind: Kind::Other,
                    start: i,
                    end: e.max(i + 2).min(b.len()),
                });
                i = e.max(i + 2).min(b.len());
                while i < b.len() && !s.is_char_boundary(i) {
                    i += 1;
                }
                continue;
            }
            let len = ch.len_utf8();
            toks.push(Tok {
                kind: Kind::Sign(ch),
                start: i,
                end: i + len,
            });
            i += len;
        }
        let lower = toks
            .iter()
            .map(|t| {
                if t.kind == Kind::Word {
                    s[t.start..t.end].to_lowercase()
                } else {
                    String::new()
                }
            })
            .collect();
        Tokens { s, toks, lower }
    }

    fn len(&self) -> usize {
        self.toks.len()
    }

    fn kind(&self, i: usize) -> Option<Kind> {
        self.toks.get(i).map(|t| t.kind)
    }

    fn text(&self, i: usize) -> &'a str {
        let t = self.toks[i];
        &self.s[t.start..t.end]
    }

    /// Is token `i` the word `w` (lower case)?
    fn word(&self, i: usize, w: &str) -> bool {
        self.kind(i) == Some(Kind::Word) && self.lower[i] == w
    }

    fn word_in(&self, i: usize, set: &[&str]) -> bool {
        self.kind(i) == Some(Kind::Word) && set.contains(&self.lower[i].as_str())
    }

    /// Do the words of `phrase` start at token `i`?
    fn phrase(&self, i: usize, phrase: &[&str]) -> bool {
        phrase.iter().enumerate().all(|(k, w)| self.word(i + k, w))
    }

    fn sign(&self, i: usize, c: char) -> bool {
        self.kind(i) == Some(Kind::Sign(c))
    }

    /// Is token `i` a value: a number, or a math span that is more than a name (`$n$`, `$x_1$`)?
    fn is_value(&self, i: usize) -> bool {
        match self.kind(i) {
            Some(Kind::Num) => true,
            Some(Kind::Math) => !is_name(self.text(i)),
            _ => false,
        }
    }
}

/// A number starting at byte `i` (`12`, `-4`, `1,234.5`, `$9360`, `60%`); its end. A sign is a
/// sign of the number only where no value precedes it (`5 - 3` is a difference).
fn number_at(b: &[u8], i: usize, prev: Option<Kind>) -> Option<usize> {
    let mut j = i;
    if b[j] == b'$' {
        j += 1;
    }
    if b.get(j).is_some_and(|&c| c == b'-' || c == b'+')
        && !matches!(prev, Some(Kind::Num | Kind::Math | Kind::Other))
    {
        j += 1;
    }
    let digits = j;
    while j < b.len()
        && (b[j].is_ascii_digit()
            || ((b[j] == b',' || b[j] == b'.')
                && j > digits
                && b.get(j + 1).is_some_and(u8::is_ascii_digit)))
    {
        j += 1;
    }
    if j == digits {
        return None;
    }
    if b.get(j) == Some(&b'%') {
        j += 1;
    }
    Some(j)
}

/// A math span that only names something: `n`, `x_1`, `AB`, `\alpha`, `f(x)`.
pub(super) fn is_name(m: &str) -> bool {
    let m = m.trim();
    if m.bytes().any(|c| c.is_ascii_digit()) || m.contains(['=', '<', '>', '+', ',']) {
        return false;
    }
    let b = m.as_bytes();
    let letters = b.iter().filter(|c| c.is_ascii_alphabetic()).count();
    // One or two letters with an index, or one Greek letter.
    (letters <= 2 && !m.contains('\\'))
        || (m.starts_with('\\') && m[1..].bytes().all(|c| c.is_ascii_alphabetic()) && m.len() <= 8)
}

/// The value a sentence of prose asserts, or `None` when it cannot be read with certainty.
pub(crate) fn sentence_value(sentence: &str) -> Option<String> {
    let s = sentence.trim();
    if s.len() > MAX_SENTENCE {
        return None;
    }
    crate::work::count(s.len());
    let t = Tokens::new(s);
    let start = skip_openers(&t, 0);
    // "There are 16 cups in 1 gallon so she drinks 240/16 = 15 gallons": the consequence after
    // the last "so" / "hence" / "thus" / "therefore" is what the sentence concludes.
    if let Some(k) = (start + 1..t.len())
        .rev()
        .find(|&k| t.word_in(k, &["so", "hence", "thus", "therefore"]))
    {
        let c = skip_openers(&t, k + 1);
        if let Some(v) = values_opening(&t, c) {
            return Some(v);
        }
        if let Some(Some(v)) = after_copula(&t, c) {
            return Some(v);
        }
        if let Some(i) = after_main_verb(&t, c) {
            return Some(t.text(i).to_string());
        }
    }
    if let Some(v) = values_opening(&t, start) {
        return Some(v);
    }
    if let Some(v) = after_copula(&t, start) {
        return v;
    }
    after_main_verb(&t, start).map(|i| t.text(i).to_string())
}

/// The first token after the words and phrases that open the sentence ("Therefore, we get").
fn skip_openers(t: &Tokens, mut i: usize) -> usize {
    loop {
        if t.word_in(i, OPENER_WORDS) || t.sign(i, ',') || t.sign(i, ':') {
            i += 1;
            continue;
        }
        if let Some(p) = OPENER_PHRASES.iter().find(|p| t.phrase(i, p)) {
            i += p.len();
            continue;
        }
        // An opening phrase that ends with a comma ("In 5 years, she ...", "After 3 days, ..."):
        // a preposition, then at most six words or numbers.
        if t.word_in(i, PREPOSITIONS) {
            if let Some(k) = (i + 1..(i + 8).min(t.len())).find(|&k| t.sign(k, ',')) {
                if (i + 1..k).all(|j| matches!(t.kind(j), Some(Kind::Word | Kind::Num))) {
                    i = k + 1;
                    continue;
                }
            }
        }
        return i;
    }
}

/// Values joined by commas, "and" or "or" from token `i`: their texts and the token after them.
fn value_list<'a>(t: &Tokens<'a>, mut i: usize) -> Option<(Vec<&'a str>, usize)> {
    let mut out = Vec::new();
    loop {
        // `a = 3` outside math: a one-letter name, `=`, a number.
        if t.kind(i) == Some(Kind::Word)
            && t.text(i).len() == 1
            && t.sign(i + 1, '=')
            && t.kind(i + 2) == Some(Kind::Num)
        {
            let (a, b) = (t.toks[i].start, t.toks[i + 2].end);
            out.push(&t.s[a..b]);
            i += 3;
        } else if let Some((r, after)) = chain_result(t, i) {
            // "4 + 4 = 8 years old": the computed value.
            out.push(t.text(r));
            i = after;
        } else if t.kind(i) == Some(Kind::Num) && is_operator(t, i + 1) {
            // An expression that is not computed ("$9360 − $360"): not one value.
            return None;
        } else if t.is_value(i) {
            out.push(t.text(i));
            i += 1;
        } else {
            return None;
        }
        // Another value after ",", "and", ", and", "or".
        let mut j = i;
        if t.sign(j, ',') {
            j += 1;
        }
        if t.word(j, "and") || t.word(j, "or") {
            j += 1;
        }
        let next_is_value = t.is_value(j)
            || (t.kind(j) == Some(Kind::Word)
                && t.text(j).len() == 1
                && t.sign(j + 1, '=')
                && t.kind(j + 2) == Some(Kind::Num));
        if j > i && next_is_value {
            i = j;
            continue;
        }
        return Some((out, i));
    }
}

/// Does token `i` join a second or derived assertion?
fn joins(t: &Tokens, i: usize) -> bool {
    t.word_in(i, SECOND_ASSERTION) || t.word_in(i, DERIVES)
}

/// An arithmetic sign between numbers: `+ - * / × · x`, "times".
fn is_operator(t: &Tokens, i: usize) -> bool {
    matches!(
        t.kind(i),
        Some(Kind::Sign('+' | '-' | '−' | '*' | '/' | '×' | '·' | '÷'))
    ) || t.word(i, "x")
        || t.word(i, "times")
}

/// A computation from token `i` ("5+3=8", "16 x 3 = 48", "240/16 = 15", "$4 + $2 = $6"): the
/// token of its result (after the last `=`) and the token after that.
fn chain_result(t: &Tokens, i: usize) -> Option<(usize, usize)> {
    if t.kind(i) != Some(Kind::Num) {
        return None;
    }
    let mut k = i + 1;
    let mut result = None;
    let mut operators = 0;
    while k < t.len() {
        if is_operator(t, k) || t.sign(k, '(') || t.sign(k, ')') {
            operators += usize::from(is_operator(t, k));
            k += 1;
        } else if t.sign(k, '=') && t.kind(k + 1) == Some(Kind::Num) {
            result = Some(k + 1);
            k += 2;
        } else if t.kind(k) == Some(Kind::Num) && (is_operator(t, k - 1) || t.sign(k - 1, '(')) {
            k += 1;
        } else {
            break;
        }
    }
    let r = result?;
    (operators > 0 && r + 1 == k).then_some((r, k))
}

/// Is what follows a value (from token `i`) something that leaves the value the answer: nothing,
/// unit words ("36 seconds"), a condition ("when divided by 7", ", attained at $x = 1$"), or a
/// prepositional phrase ("on 3 books")? A second assertion ("and 7 girls", ", hence 6 pairs", "=
/// 9000") is not.
fn tail_leaves_value(t: &Tokens, mut i: usize) -> bool {
    // Unit words and signs of units: "liters of water", "°", "square units".
    while i < t.len() {
        match t.kind(i) {
            Some(Kind::Word)
                if !joins(t, i)
                    && !t.word_in(i, CONDITIONS)
                    && !t.word_in(i, PREPOSITIONS)
                    && !t.word_in(i, &["is", "are", "was", "were", "equals"]) =>
            {
                i += 1;
            }
            Some(Kind::Sign('°' | '%' | '²' | '³' | '\'' | '*' | '.' | '!')) => i += 1,
            _ => break,
        }
    }
    if i >= t.len() {
        return true;
    }
    // A clause after a comma or a semicolon: a condition, or one without values of its own.
    let clause = if t.sign(i, ',') || t.sign(i, ';') || t.sign(i, '(') {
        i + 1
    } else {
        i
    };
    crate::work::count(t.len() - clause);
    let rest_has_value = (clause..t.len()).any(|k| t.is_value(k));
    // A relative clause ("16 people that think ...") describes the value, unless it computes
    // another ("90 bees that left - 15 bees = 75 bees").
    if t.word_in(clause, &["that", "who", "whose"]) {
        return !(clause..t.len()).any(|k| t.sign(k, '='));
    }
    // "14 apples, which is 7 more than John's": a clause about the value.
    if clause > i && t.word(clause, "which") && t.word_in(clause + 1, &["is", "are", "was", "were"])
    {
        return !(clause..t.len()).any(|k| t.sign(k, '='));
    }
    if t.word_in(clause, CONDITIONS)
        || t.phrase(clause, &["which", "occurs"])
        || t.phrase(clause, &["which", "is", "attained"])
        || t.phrase(clause, &["which", "is", "achieved"])
        || t.phrase(clause, &["and", "equality"])
        || t.phrase(clause, &["this", "occurs"])
    {
        return true;
    }
    if clause > i {
        return !rest_has_value && !joins(t, clause);
    }
    // A prepositional phrase: its numbers are circumstances, as long as no second assertion
    // follows ("on 3 books and 2 pens" is two).
    if t.word_in(i, PREPOSITIONS) {
        crate::work::count(t.len() - i);
        return (i..t.len()).all(|k| {
            !t.word_in(k, SECOND_ASSERTION)
                && !matches!(
                    t.kind(k),
                    Some(Kind::Sign(',' | ';' | '=' | '+' | '−' | '*' | '×' | '/'))
                )
        });
    }
    false
}

/// "3.46, i.e. $2\sqrt{3}$", "0.5, that is, $\frac12$": the values a restatement after token
/// `after` gives (the exact form the sentence settles on), and the token after them.
fn restated<'a>(t: &Tokens<'a>, after: usize) -> Option<(Vec<&'a str>, usize)> {
    let mut k = after;
    if t.sign(k, ',') || t.sign(k, '(') {
        k += 1;
    }
    if t.word(k, "i") && t.sign(k + 1, '.') && t.word(k + 2, "e") {
        k += 3 + usize::from(t.sign(k + 3, '.'));
    } else if t.phrase(k, &["that", "is"]) {
        k += 2;
    } else {
        return None;
    }
    if t.sign(k, ',') {
        k += 1;
    }
    let (vals, end) = value_list(t, k)?;
    let end = end + usize::from(t.sign(end, ')'));
    tail_leaves_value(t, end).then_some((vals, end))
}

/// Values that open the sentence, followed by nothing that asserts more: "$x = 4$ is the only
/// real root", "Therefore, $a = 3$ and $b = -4$.", "Thus $f(x) = x$ for all real $x$",
/// "7 is the remainder when ...".
fn values_opening(t: &Tokens, i: usize) -> Option<String> {
    let (vals, after) = value_list(t, i)?;
    if let Some((exact, _)) = restated(t, after) {
        return Some(exact.join(", "));
    }
    if let Some(p) = SUBJECT_PREDICATES.iter().find(|p| t.phrase(after, p)) {
        // "is the only root", "7 is the remainder when ...", "works".
        return (!t.word(after + p.len(), "not")).then(|| vals.join(", "));
    }
    // Not after a number that is the subject ("5 friends get 12 cookies"): only math spans,
    // `a = 3` pairs, or a value that ends the sentence or its clause.
    let spans_only = vals.iter().all(|v| !v.bytes().all(|c| c.is_ascii_digit()));
    // "we have 3, 74": plain numbers listed without a copula are not read as a list.
    if vals.len() > 1 && !spans_only {
        return None;
    }
    if (spans_only || after >= t.len() || t.sign(after, ',')) && tail_leaves_value(t, after) {
        // A bare number with unit words ("12 students passed") is a subject, not an answer.
        let next_word = t.kind(after) == Some(Kind::Word) && !t.word_in(after, CONDITIONS);
        if !spans_only && next_word {
            return None;
        }
        if !list_may_end(t, &vals, after) {
            return None;
        }
        return Some(vals.join(", "));
    }
    // "8 of the 20 apples were red": the part is the answer.
    if vals.len() == 1
        && !spans_only
        && t.word(after, "of")
        && (t.word_in(
            after + 1,
            &[
                "the", "them", "these", "those", "its", "his", "her", "their",
            ],
        ) || t.kind(after + 1) == Some(Kind::Num))
        && tail_leaves_value(t, after)
    {
        return Some(vals.join(", "));
    }
    None
}

/// Several values end the statement: nothing but punctuation, a condition or a phrase follows
/// them ("$n = 23$, and $n = 24$ fails" is two statements).
fn list_may_end(t: &Tokens, vals: &[&str], after: usize) -> bool {
    vals.len() == 1
        || t.kind(after) != Some(Kind::Word)
        || t.word_in(after, CONDITIONS)
        || t.word_in(after, PREPOSITIONS)
}

/// The value after the first copula that takes one: `Some(Some(v))`; `Some(None)` when a value
/// follows a copula but the sentence says more than it (the caller keeps what it had); `None`
/// when no copula takes a value.
fn after_copula(t: &Tokens, from: usize) -> Option<Option<String>> {
    let mut i = from;
    while i < t.len() {
        crate::work::count(1);
        // "They make 10% more because 1000 + 100 = 1,100 if X = 10": a subordinate clause's
        // values are reasons, not what the sentence asserts.
        if i > from && t.word_in(i, SUBORDINATORS) {
            return None;
        }
        // ", which is 7 more than ...": a relative clause describes what came before it.
        if i > from && t.sign(i - 1, ',') && t.word_in(i, &["which", "who"]) {
            return None;
        }
        // ':' announces a value only before a space ("The solutions: 3 and 5"; not "9:15").
        let colon = t.sign(i, ':') && t.s[t.toks[i].end..].starts_with(' ');
        let len = if t.sign(i, '=') || colon {
            1
        } else {
            match COPULAS.iter().find(|c| t.phrase(i, c)) {
                Some(c) => c.len(),
                None => {
                    i += 1;
                    continue;
                }
            }
        };
        // "we find a = 3 and b = -4": the name belongs to the value.
        if t.sign(i, '=')
            && i > from
            && t.kind(i - 1) == Some(Kind::Word)
            && t.text(i - 1).len() == 1
        {
            // Several named values keep their names; one is its value ("so x = 18" → 18).
            if let Some((vals, after)) = value_list(t, i - 1).filter(|(v, _)| v.len() > 1) {
                return Some(tail_leaves_value(t, after).then(|| vals.join(", ")));
            }
        }
        let mut j = i + len;
        while t.word_in(j, ADVERBS) {
            j += 1;
        }
        // "is not 5 but 6 when x = 2": a negation makes the sentence more than one assertion.
        if t.word(j, "not") {
            return Some(None);
        }
        if let Some((vals, after)) = value_list(t, j) {
            if let Some((exact, _)) = restated(t, after) {
                return Some(Some(exact.join(", ")));
            }
            let ok = list_may_end(t, &vals, after) && tail_leaves_value(t, after);
            return Some(ok.then(|| vals.join(", ")));
        }
        // An expression without prose words to the end of the sentence: "n(n-3)/2", "x^2 + 2x + 1".
        if let Some(tok) = t.toks.get(j) {
            let e = t.s[tok.start..]
                .trim()
                .trim_end_matches(['.', '!'])
                .trim_end();
            if is_plain_expression(e) {
                return Some(Some(e.to_string()));
            }
        }
        i = j.max(i + 1);
    }
    None
}

/// Symbols, digits and one-letter names only, with a digit: `n(n-3)/2`, `x^2 + 2x + 1`.
fn is_plain_expression(e: &str) -> bool {
    // The first word of two letters ends the test: prose after a copula costs a few bytes, so a
    // sentence of many copulas stays linear.
    let mut run = 0;
    let mut digit = false;
    for c in e.bytes() {
        crate::work::count(1);
        if c.is_ascii_alphabetic() {
            run += 1;
            if run > 1 {
                return false;
            }
        } else {
            run = 0;
            if !(c.is_ascii_digit() || b" +-*/^()_{}.".contains(&c)) {
                return false;
            }
            digit |= c.is_ascii_digit();
        }
    }
    digit
}

/// The first number after the main verb, when what follows it is unit words and circumstances:
/// "she spent 45 dollars on 3 books" → 45, "it takes 6 hours for 3 workers to finish" → 6. Not a
/// number after a preposition ("in 5 years"), not in a computation, not one of two assertions.
fn after_main_verb(t: &Tokens, from: usize) -> Option<usize> {
    let main_end = (from + 1..t.len())
        .find(|&k| t.word_in(k, SUBORDINATORS))
        .unwrap_or(t.len());
    if (from..main_end).any(|k| matches!(t.kind(k), Some(Kind::Other | Kind::Math))) {
        return None;
    }
    let n = (from..t.len()).find(|&k| t.kind(k) == Some(Kind::Num))?;
    // Words only before it (the subject and the verb), and a verb-like word right before it.
    if n == from
        || !(from..n).all(|k| t.kind(k) == Some(Kind::Word))
        || (t.word_in(n - 1, PREPOSITIONS) && !of_a_quantity(t, n - 1))
        || joins(t, n - 1)
        || t.word_in(
            n - 1,
            &["the", "a", "an", "least", "most", "only", "first", "last"],
        )
    {
        return None;
    }
    // "she drinks 240/16 = 15 gallons": the computed value.
    if let Some((r, after)) = chain_result(t, n) {
        return tail_leaves_value(t, after).then_some(r);
    }
    if is_operator(t, n + 1) || t.sign(n + 1, '=') {
        return None;
    }
    tail_leaves_value(t, n + 1).then_some(n)
}

/// "a total of 14", "the sum of 14": `of` after a noun that names the quantity.
fn of_a_quantity(t: &Tokens, of: usize) -> bool {
    of > 0
        && t.word(of, "of")
        && t.word_in(
            of - 1,
            &[
                "total",
                "sum",
                "product",
                "difference",
                "quotient",
                "number",
                "count",
                "amount",
            ],
        )
}

#[cfg(test)]
mod tests;
