//! Final-answer extraction of the fixed mode (docs/policies.md, "Extraction").
//!
//! Priority: an anchor phrase ("The answer is", "final answer is", "Answer:", "####", and the
//! configured patterns) takes the answer that follows it, up to the end of its sentence (a box
//! or display in that sentence, or on the next line after "...:", wins over its prose); the
//! last anchor whose answer is real wins, so a later "The answer is correct because ..." does
//! not replace it, and an anchored sentence of prose gives way to a box. Else the last `\boxed{}`/`\fbox{}`; else the last math span (`$..$`, `$$..$$`,
//! `\(..\)`, `\[..\]`); else the last number. A hyphen is never a number.

use std::sync::{LazyLock, OnceLock};

use memchr::memmem::Finder;

use regex::bytes::Regex;

use crate::number::scan_numbers;
use crate::scan::boxes::{self, box_at, whole_box};
use crate::scan::trim;

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

/// Anchor phrases, matched on an ASCII-lowercased copy of the text (same byte offsets) so the
/// regex keeps its literal prefilter ("answer", "####"). "The final answer is", "the correct
/// answer is", "Answer:" all end where `answer is` / `answer:` ends.
fn anchor_regex() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(concat!(
            r"(?-u:\b)answer(?:(?-u:\s)+is(?-u:\b)|(?-u:\s)*:)|####",
            // French, Spanish, German ("die Antwort" ends on the noun: "ist die Antwort 8", "die
            // Antwort ist 8"; the verb is skipped after it), Chinese, Japanese, Russian.
            r"|(?-u:\b)r(?:é|É|e)ponse(?:(?-u:\s)+finale)?(?:(?-u:\s)+est(?-u:\b)|(?-u:\s)*:)",
            r"|(?-u:\b)respuesta(?:(?-u:\s)+(?:final|correcta))?(?:(?-u:\s)+es(?-u:\b)|(?-u:\s)*:)",
            r"|(?-u:\b)die(?-u:\s)+antwort(?-u:\b)",
            r"|(?-u:\b)antwort(?:(?-u:\s)+(?:ist|lautet)(?-u:\b)|(?-u:\s)*:)",
            r"|答案(?:是|为|為|(?-u:\s)*(?::|：))|答え(?:は|(?-u:\s)*(?::|：))",
            r"|(?:ответ|Ответ|ОТВЕТ)(?-u:\s)*:",
        ))
        .expect("static regex")
    })
}

/// Calls `f` with each non-empty phrase of `patterns` that the built-in anchor set does not
/// already find (see [`covered_by_builtin`]). Cached per thread: the same few patterns come with
/// every item, and one thread-local access per call is cheaper than one per pattern.
fn uncovered_patterns(patterns: &[String], mut f: impl FnMut(&str)) {
    thread_local! {
        static SEEN: std::cell::RefCell<Vec<(String, bool)>> = const { std::cell::RefCell::new(Vec::new()) };
    }
    if patterns.is_empty() {
        return;
    }
    SEEN.with(|seen| {
        for p in patterns {
            if p.is_empty() {
                continue;
            }
            let known = seen.borrow().iter().find(|(q, _)| q == p).map(|(_, c)| *c);
            let covered = known.unwrap_or_else(|| {
                let c = covered_by_builtin(p);
                let mut seen = seen.borrow_mut();
                if seen.len() < 64 {
                    seen.push((p.to_string(), c));
                }
                c
            });
            if !covered {
                f(p);
            }
        }
    })
}

/// Does the built-in anchor set already find every occurrence of the phrase `p` (e.g. the seed's
/// "The answer is: ")?
fn covered_by_builtin(p: &str) -> bool {
    let lower = p.to_ascii_lowercase();
    anchor_regex().find(lower.as_bytes()).is_some_and(|m| {
        lower[m.end()..].trim_matches([':', ' ']).is_empty()
            && lower[..m.start()]
                .split_whitespace()
                .all(|w| ["the", "final", "correct"].contains(&w))
    })
}

/// Does `text` start with an anchor phrase ("answer is", "The answer is", "The final answer is",
/// "Answer:")? Such a gold is a sentence that states its answer ("answer is 0.75") and is reduced
/// to it by extraction.
pub fn starts_with_anchor(text: &str) -> bool {
    let t = text.trim_start();
    // Cheap test first (every gold passes here): the phrase starts with "answer" or "the".
    if !t.starts_with(['a', 'A', 't', 'T']) {
        return false;
    }
    let head: String = t.chars().take(48).collect();
    let lower = head.to_ascii_lowercase();
    anchor_regex().find(lower.as_bytes()).is_some_and(|m| {
        m.as_bytes() != b"####"
            && lower[..m.start()]
                .split_whitespace()
                .all(|w| ["the", "final", "correct"].contains(&w))
    })
}

/// A Han character, kana or the iteration marks: a word of Chinese or Japanese prose.
fn is_cjk_word_char(c: char) -> bool {
    matches!(c as u32, 0x3040..=0x30FF | 0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0xF900..=0xFAFF)
}

/// Words that, right after an anchor, show the sentence is about the answer, not the answer.
const NOT_AN_ANSWER: &[&str] = &[
    "correct",
    "incorrect",
    "wrong",
    "right",
    "indeed",
    "clearly",
    "because",
    "that",
    "shown",
    "given",
    "above",
    "below",
    "not",
    "as",
    "therefore",
    "thus",
    "obtained",
    "found",
    "calculated",
    "verified",
    "confirmed",
    // French, Spanish, German: "la réponse est correcte", "la respuesta es incorrecta", ...
    "correcte",
    "incorrecte",
    "fausse",
    "correcta",
    "correcto",
    "incorrecta",
    "incorrecto",
    "richtig",
    "falsch",
    "korrekt",
];

fn is_word(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// ASCII `\s` as the anchor regex (and Python's `re`) read it: space and `\t \n \v \f \r` (bytes 9 to
/// 13). `u8::is_ascii_whitespace` leaves out the vertical tab.
fn is_regex_space(b: u8) -> bool {
    b == b' ' || (b'\t'..=b'\r').contains(&b)
}

/// Skip ASCII `\s` from `k`.
fn skip_regex_space(b: &[u8], mut k: usize) -> usize {
    while k < b.len() && is_regex_space(b[k]) {
        k += 1;
    }
    k
}

/// Does the ASCII-case-insensitive word `w` start at `k`, followed by a non-word byte or the end?
fn word_at(b: &[u8], k: usize, w: &[u8]) -> bool {
    k + w.len() <= b.len()
        && b[k..k + w.len()].eq_ignore_ascii_case(w)
        && (k + w.len() == b.len() || !is_word(b[k + w.len()]))
}

/// Does `w` start at `k` (ASCII case-insensitive, no boundary after it)?
fn prefix_at(b: &[u8], k: usize, w: &[u8]) -> bool {
    k + w.len() <= b.len() && b[k..k + w.len()].eq_ignore_ascii_case(w)
}

/// A noun anchor of the Latin-script languages: one of `nouns` starts at `i` after a word
/// boundary, then optionally `\s+adjective`, then `\s+verb\b` or `\s*:`. Returns its end.
fn noun_anchor_end(
    b: &[u8],
    i: usize,
    nouns: &[&[u8]],
    adjectives: &[&[u8]],
    verbs: &[&[u8]],
) -> Option<usize> {
    if i > 0 && is_word(b[i - 1]) {
        return None;
    }
    let noun = nouns.iter().find(|n| prefix_at(b, i, n))?;
    let j = i + noun.len();
    let after_adjective = {
        let k = skip_regex_space(b, j);
        adjectives
            .iter()
            .find(|a| k > j && prefix_at(b, k, a))
            .map(|a| k + a.len())
    };
    // The adjective, when present, is the only way on (a verb or ':' cannot also follow the noun).
    let j = after_adjective.unwrap_or(j);
    let k = skip_regex_space(b, j);
    if k < b.len() && b[k] == b':' {
        return Some(k + 1);
    }
    verbs
        .iter()
        .find(|v| k > j && word_at(b, k, v))
        .map(|v| k + v.len())
}

/// The first byte of the run of '#' that ends at `last` (inclusive).
fn hash_run_start(b: &[u8], last: usize) -> usize {
    b[..last]
        .iter()
        .rposition(|&c| c != b'#')
        .map_or(0, |k| k + 1)
}

/// End of the anchor phrase that starts at byte `i`, in the grammar of [`anchor_regex`] (except
/// "####", handled by the caller): `answer\s+is\b` / `answer\s*:`, the French, Spanish and German
/// nouns (`réponse (finale) est`, `respuesta (final) es`, `Antwort ist`, `die Antwort`, each also
/// with `:`), `答案是/为/：`, `答えは/：`, `Ответ:`.
fn anchor_end_at(b: &[u8], i: usize) -> Option<usize> {
    const COLONS: [&[u8]; 2] = [b":", "：".as_bytes()];
    let cjk_colon = |j: usize| {
        let k = skip_regex_space(b, j);
        COLONS
            .iter()
            .find(|c| b[k..].starts_with(c))
            .map(|c| k + c.len())
    };
    match b[i] {
        b'a' | b'A' => answer_anchor_end(b, i).or_else(|| {
            // After "die", the anchor "die Antwort" ends first (found at its 'd').
            let mut k = i;
            while k > 0 && is_regex_space(b[k - 1]) {
                k -= 1;
            }
            let after_die = k < i
                && k >= 3
                && b[k - 3..k].eq_ignore_ascii_case(b"die")
                && (k == 3 || !is_word(b[k - 4]));
            if after_die && word_at(b, i, b"antwort") {
                return None;
            }
            noun_anchor_end(b, i, &[b"antwort"], &[], &[b"ist", b"lautet"])
        }),
        b'r' | b'R' => noun_anchor_end(
            b,
            i,
            &["réponse".as_bytes(), "rÉponse".as_bytes(), b"reponse"],
            &[b"finale"],
            &[b"est"],
        )
        .or_else(|| noun_anchor_end(b, i, &[b"respuesta"], &[b"final", b"correcta"], &[b"es"])),
        b'd' | b'D' => {
            // "die Antwort": ends on the noun.
            if (i > 0 && is_word(b[i - 1])) || !prefix_at(b, i, b"die") {
                return None;
            }
            let k = skip_regex_space(b, i + 3);
            (k > i + 3 && word_at(b, k, b"antwort")).then_some(k + 7)
        }
        _ if b[i..].starts_with("答案".as_bytes()) => {
            let j = i + "答案".len();
            ["是", "为", "為"]
                .iter()
                .find(|v| b[j..].starts_with(v.as_bytes()))
                .map(|v| j + v.len())
                .or_else(|| cjk_colon(j))
        }
        _ if b[i..].starts_with("答え".as_bytes()) => {
            let j = i + "答え".len();
            if b[j..].starts_with("は".as_bytes()) {
                return Some(j + "は".len());
            }
            cjk_colon(j)
        }
        _ => {
            let j = ["ответ", "Ответ", "ОТВЕТ"]
                .iter()
                .find(|w| b[i..].starts_with(w.as_bytes()))
                .map(|w| i + w.len())?;
            let k = skip_regex_space(b, j);
            (k < b.len() && b[k] == b':').then_some(k + 1)
        }
    }
}

/// The bytes an anchor phrase can start with (its first byte): `a`/`A` (answer, Antwort), `r`/`R`
/// (réponse, respuesta), `d`/`D` (die Antwort), `#`, and the lead bytes of 答 and о/О.
const ANCHOR_START: [bool; 256] = {
    let mut t = [false; 256];
    let starts: [u8; 7] = [
        b'a',
        b'r',
        b'd',
        b'#',
        "答".as_bytes()[0],
        "о".as_bytes()[0],
        "О".as_bytes()[0],
    ];
    let mut k = 0;
    while k < starts.len() {
        t[starts[k] as usize] = true;
        t[starts[k].to_ascii_uppercase() as usize] = true;
        k += 1;
    }
    t
};

/// End of the anchor phrase whose "answer" starts at byte `i` (`answer\s+is\b` or `answer\s*:`).
fn answer_anchor_end(b: &[u8], i: usize) -> Option<usize> {
    if i + 6 > b.len()
        || !b[i..i + 6].eq_ignore_ascii_case(b"answer")
        || (i > 0 && is_word(b[i - 1]))
    {
        return None;
    }
    let j = i + 6;
    let k = skip_regex_space(b, j);
    if k < b.len() && b[k] == b':' {
        return Some(k + 1);
    }
    let is_word_is = k > j && k + 2 <= b.len() && b[k..k + 2].eq_ignore_ascii_case(b"is");
    (is_word_is && (k + 2 == b.len() || !is_word(b[k + 2]))).then_some(k + 2)
}

/// Anchor ends from the last to the first, found lazily by scanning backwards: the answer is
/// nearly always near the end, so most responses are decided after a few dozen bytes. Yields
/// exactly the ends of `anchor_ends` (checked by a property test), in reverse.
///
/// The English anchors (`answer`, `####`) are found with `memrchr3`. The anchors of other languages
/// are looked for only once the text from an English anchor to the end is known to hold one of
/// their fragments ([`other_language_anchor_possible`]); that check covers each byte once, and only
/// the part of the text the scan has reached.
struct AnchorsBackward<'a> {
    b: &'a [u8],
    /// Bytes before this offset are still to be scanned.
    upto: usize,
    pending_hash: Vec<usize>,
    /// Only `answer` and `####` are looked for: no fragment of another language's anchor starts at
    /// or after `clean_from`.
    english_only: bool,
    clean_from: usize,
}

/// The bytes [`other_language_anchor_possible`] looks at: 1 for p, P, w, W (Latin fragments), 2 for
/// the lead bytes of 答, т and Т.
const FRAGMENT_BYTE: [u8; 256] = {
    let mut t = [0u8; 256];
    t[b'p' as usize] = 1;
    t[b'P' as usize] = 1;
    t[b'w' as usize] = 1;
    t[b'W' as usize] = 1;
    t["答".as_bytes()[0] as usize] = 2;
    t["т".as_bytes()[0] as usize] = 2;
    t["Т".as_bytes()[0] as usize] = 2;
    t
};

/// Fragments that every anchor of another language than English holds (ASCII ones in any case):
/// "pons" (réponse), "pues" (respuesta), "twor" (Antwort), 答, твет, ТВЕТ. Does one start in
/// `b[from..to]`? Found from their rarer bytes (p, w and the lead bytes) with SIMD searches.
fn other_language_anchor_possible(b: &[u8], from: usize, to: usize) -> bool {
    let folded =
        |k: usize, w: &[u8]| k + w.len() <= b.len() && b[k..k + w.len()].eq_ignore_ascii_case(w);
    let latin = |k: usize| {
        let i = from + k;
        match b[i] {
            b'p' | b'P' => folded(i + 1, b"ons") || folded(i + 1, b"ues"),
            _ => i >= 1 && folded(i - 1, b"twor"),
        }
    };
    let region = &b[from..to];
    let cjk = |k: usize| {
        ["答", "твет", "ТВЕТ"]
            .iter()
            .any(|w| b[from + k..].starts_with(w.as_bytes()))
    };
    // The region is usually the short rest of a line after an English anchor, where one plain
    // pass costs less than setting up three SIMD searches; the same test at every byte.
    if region.len() < 64 {
        return region
            .iter()
            .enumerate()
            .any(|(k, &c)| match FRAGMENT_BYTE[c as usize] {
                1 => latin(k),
                2 => cjk(k),
                _ => false,
            });
    }
    memchr::memchr3_iter(b'p', b'w', b'W', region).any(latin)
        || memchr::memchr_iter(b'P', region).any(latin)
        || memchr::memchr3_iter(
            "答".as_bytes()[0],
            "т".as_bytes()[0],
            "Т".as_bytes()[0],
            region,
        )
        .any(cjk)
}

impl<'a> AnchorsBackward<'a> {
    fn new(b: &'a [u8]) -> Self {
        AnchorsBackward {
            b,
            upto: b.len(),
            pending_hash: Vec::new(),
            english_only: true,
            clean_from: b.len(),
        }
    }

    /// The ends of the "####" matches in a run of `run` (at least 4) '#' from `start`, last first:
    /// the last is returned, the others wait in `pending_hash` (empty here). A lone "####", the
    /// usual run, needs no list.
    fn hash_ends(&mut self, start: usize, run: usize) -> Option<usize> {
        if run < 8 {
            return Some(start + 4);
        }
        self.pending_hash = (1..=run / 4).map(|k| start + 4 * k).collect();
        self.pending_hash.pop()
    }

    /// May an anchor of another language start in `[from, clean_from)`? If so, switch to the full
    /// scan from `clean_from` (everything after it is clean and its anchors were yielded);
    /// otherwise the region is clean.
    fn switch_if_needed(&mut self, from: usize) -> bool {
        // Every such anchor has the byte its fragment is found from (p, w, a lead byte) at or after
        // its start, and the check reads past the region's ends: a clean `[from, len)` means no
        // anchor of another language starts at or after `from`.
        let from = from.min(self.clean_from);
        if other_language_anchor_possible(self.b, from, self.clean_from) {
            self.english_only = false;
            self.upto = self.clean_from;
            self.pending_hash.clear();
            true
        } else {
            self.clean_from = from;
            false
        }
    }
}

impl Iterator for AnchorsBackward<'_> {
    type Item = usize;

    fn next(&mut self) -> Option<usize> {
        if let Some(e) = self.pending_hash.pop() {
            return Some(e);
        }
        let b = self.b;
        while self.english_only {
            // "answer" is looked for from its 'w' (offset 3), a rarer letter than its 'a': fewer
            // stops in English prose, the same anchors in the same order (no '#' can lie
            // between an anchor's 'a' and its 'w').
            let Some(i) = memchr::memrchr3(b'w', b'W', b'#', &b[..self.upto]) else {
                if self.switch_if_needed(0) {
                    break;
                }
                self.upto = 0;
                return None;
            };
            if b[i] == b'#' {
                // A run of '#': the forward scan's non-overlapping "####" matches end at
                // start+4, start+8, ...
                let start = hash_run_start(b, i);
                let run = i + 1 - start;
                self.upto = start;
                if run >= 4 {
                    if self.switch_if_needed(start) {
                        break;
                    }
                    return self.hash_ends(start, run);
                }
                continue;
            }
            self.upto = i;
            if i >= 3 {
                if let Some(e) = answer_anchor_end(b, i - 3) {
                    self.upto = i - 3;
                    if self.switch_if_needed(i - 3) {
                        break;
                    }
                    return Some(e);
                }
            }
        }
        while self.upto > 0 {
            let i = b[..self.upto]
                .iter()
                .rposition(|&c| ANCHOR_START[c as usize])?;
            if b[i] == b'#' {
                let start = hash_run_start(b, i);
                let run = i + 1 - start;
                self.upto = start;
                if run >= 4 {
                    return self.hash_ends(start, run);
                }
                continue;
            }
            self.upto = i;
            if let Some(e) = anchor_end_at(b, i) {
                return Some(e);
            }
        }
        None
    }
}

/// Extract the final answer from a response.
pub fn extract(text: &str, patterns: &[String]) -> Option<Extracted> {
    let mut extra: Vec<usize> = Vec::new();
    // A configured phrase the built-in anchors already find ("The answer is: ") adds nothing.
    uncovered_patterns(patterns, |p| {
        let f = Finder::new(p.as_bytes());
        extra.extend(f.find_iter(text.as_bytes()).map(|i| i + p.len()));
    });
    extra.sort_unstable();
    let mut builtin = AnchorsBackward::new(text.as_bytes()).peekable();
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
                return Some(Extracted {
                    answer: a,
                    by: ExtractedBy::Anchor,
                })
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
    // The last math span, unless a number comes after it ("... $$x$$. So there are 12 ways").
    match (
        last_math_span(text),
        last_number_span(text).map(|sp| widen_clock(text, sp)),
    ) {
        (Some((_, end)), Some((ns, ne))) if ns >= end => Some(Extracted {
            answer: text[ns..ne].to_string(),
            by: ExtractedBy::LastNumber,
        }),
        (Some((m, _)), _) => Some(Extracted {
            answer: m,
            by: ExtractedBy::MathSpan,
        }),
        (None, Some((ns, ne))) => Some(Extracted {
            answer: text[ns..ne].to_string(),
            by: ExtractedBy::LastNumber,
        }),
        (None, None) => short_whole_answer(text).map(|a| Extracted {
            answer: a.to_string(),
            by: ExtractedBy::WholeResponse,
        }),
    }
}

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
fn bare_answer(text: &str) -> Option<&str> {
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
fn short_whole_answer(text: &str) -> Option<&str> {
    let t = text.trim().trim_end_matches('.').trim_end();
    let one_word = t.len() <= 40 && {
        // Exactly one word, without counting the rest.
        let mut words = t.split_whitespace();
        words.next().is_some() && words.next().is_none()
    };
    // A word, a letter or a number word: "####" or "..." alone is not an answer.
    (one_word && t.chars().any(char::is_alphanumeric)).then_some(t)
}

/// The last number widened to the clock time it ends ("at 9:15 P.M." -> `9:15 P.M.`, "09:15:00"),
/// when the widened text is definitely a clock time (seconds, a.m./p.m., or a leading zero) and
/// ends the response; else the span unchanged. Looks at a few bytes before the number and at the
/// text after it.
fn widen_clock(text: &str, (start, end): (usize, usize)) -> (usize, usize) {
    let b = text.as_bytes();
    let digits_before = |mut k: usize| {
        let stop = k.saturating_sub(2);
        while k > stop && b[k - 1].is_ascii_digit() {
            k -= 1;
        }
        k
    };
    // Up to two "DD:" groups before the number.
    let mut s = start;
    for _ in 0..2 {
        if s >= 2 && b[s - 1] == b':' && b[s - 2].is_ascii_digit() {
            s = digits_before(s - 1);
        }
    }
    if s > 0 && (b[s - 1].is_ascii_alphanumeric() || b[s - 1] == b':' || b[s - 1] == b'.') {
        return (start, end);
    }
    // An a.m./p.m. marker after it: " P.M.", "pm", " \\text{P.M.}".
    let after = &text[end..];
    let t = after.trim_start_matches(' ');
    let marker_end = [&b"\\text{"[..], b"\\mathrm{", b""]
        .iter()
        .find_map(|wrap| {
            let tb = t.as_bytes().strip_prefix(*wrap)?;
            let lead = tb.iter().take_while(|&&c| c == b' ').count();
            let m = ampm_len(&tb[lead..])?;
            let mut e = wrap.len() + lead + m;
            if !wrap.is_empty() {
                if t.as_bytes().get(e) != Some(&b'}') {
                    return None;
                }
                e += 1;
            }
            Some(text.len() - t.len() + e)
        });
    let e = marker_end.unwrap_or(end);
    // Only a time that ends the response ("... leaves at 9:15 P.M."): inside prose ("2:00 pm is
    // the latest") the last-number rule stays as it was.
    let ends_text = text[e..]
        .trim_matches(|c: char| c.is_whitespace() || ".!$".contains(c))
        .is_empty();
    match crate::scan::clock::clock_time(&text[s..e]) {
        Some(c) if c.definite && ends_text && (s < start || e > end) => (s, e),
        _ => (start, end),
    }
}

/// Length of an a.m./p.m. marker at the start of `t` (`am`, `P.M.`, `p.m`), not glued to a word.
fn ampm_len(t: &[u8]) -> Option<usize> {
    if !matches!(t.first(), Some(b'a' | b'A' | b'p' | b'P')) {
        return None;
    }
    let mut k = 1 + usize::from(t.get(1) == Some(&b'.'));
    if !matches!(t.get(k), Some(b'm' | b'M')) {
        return None;
    }
    k += 1;
    if t.get(k) == Some(&b'.') {
        k += 1;
    }
    (!t.get(k).is_some_and(u8::is_ascii_alphanumeric)).then_some(k)
}

/// Byte span of the last number in free text, widened over digit groups that number
/// comparison reads as one value: `1 000` (space thousands) and `2,74` / `1000,99` (a comma that
/// cannot be a thousands separator, left to the comparison to read as a decimal comma).
fn last_number_span(text: &str) -> Option<(usize, usize)> {
    let f = scan_numbers(text).pop()?;
    let b = text.as_bytes();
    let (mut start, end) = (f.start, f.end);
    while start >= 2
        && (b[start - 1] == b' ' || b[start - 1] == b',')
        && b[start - 2].is_ascii_digit()
    {
        let sep = b[start - 1];
        let mut k = start - 1;
        while k > 0 && b[k - 1].is_ascii_digit() {
            k -= 1;
        }
        let prev_len = start - 1 - k;
        let three = text[start..end]
            .bytes()
            .take_while(u8::is_ascii_digit)
            .count()
            == 3;
        let join = match sep {
            // "1 000": a space between a short group and exactly three digits.
            b' ' => three && prev_len <= 3,
            // "2,74", "1000,99", "0,111": not a thousands separator (valid ones were already joined).
            _ => !three || prev_len > 3 || b[k] == b'0',
        };
        if !join
            || (k > 0 && (b[k - 1].is_ascii_alphanumeric() || b[k - 1] == b'.' || b[k - 1] == b','))
        {
            break;
        }
        start = k;
    }
    Some((start, end))
}

/// What follows an anchor.
enum AfterAnchor {
    /// The answer.
    Answer(String),
    /// No answer: an earlier anchor or the fallbacks decide.
    Nothing,
    /// A sentence of prose that holds no answer while the response has a box: the box decides.
    Prose,
}

/// At most this many bytes after an anchored sentence are searched for a display or box on the
/// next line (an answer is short; the bound keeps a run of anchors linear).
const NEXT_LINE_WINDOW: usize = 4096;

/// The answer right after an anchor ending at `pos`.
///
/// The anchored text is the rest of the line, up to the end of its sentence. Within it:
/// a box or math span right after the anchor is the answer; else a box anywhere in the sentence
/// ("The answer is the smaller value, that is, $\boxed{-4}$"); else, when the sentence ends in
/// ":" or is prose without a number or math, a display or box that starts the next line ("The
/// answer is Month 6, which is:\n\[\boxed{\text{June}}\]"); else a math span that ends a sentence
/// with no number outside math ("which gives \[x = \frac72\]"). A sentence that is prose (no number
/// and no math, three or more words; or a hedge with two or more numbers among four or more words)
/// gives way to a box anywhere in the response.
fn answer_after_anchor(text: &str, pos: usize, has_box: &mut Option<bool>) -> AfterAnchor {
    use AfterAnchor::{Answer, Nothing, Prose};
    let answer = |s: String| non_empty(s).map_or(Nothing, Answer);
    const SPACE_COLON: [char; 7] = [' ', '\t', ':', '*', '\u{a0}', '：', '\u{3000}'];
    let rest = text[pos..].trim_start_matches(SPACE_COLON);
    let mut rest = rest.trim_start_matches(['\n', ' ', '\t', ':', '*']);
    // "die Antwort" ends on the noun: its verb ("ist", "lautet") or ':' may follow; else the
    // answer must start right there ("ist die Antwort 8"), or the noun is only mentioned.
    if text[..pos].len() >= 7 && text.as_bytes()[pos - 7..pos].eq_ignore_ascii_case(b"antwort") {
        let b = rest.as_bytes();
        if let Some(v) = [&b"ist"[..], b"lautet"]
            .into_iter()
            .find(|v| word_at(b, 0, v))
        {
            rest = rest[v.len()..].trim_start_matches(SPACE_COLON);
        } else if !text[pos..].trim_start().starts_with(':')
            && !rest.starts_with(|c: char| c.is_ascii_digit() || "-+$\\(".contains(c))
        {
            return Nothing;
        }
    }
    if rest.is_empty() {
        return Nothing;
    }
    // Chinese or Japanese words after "答案是" / "答えは" ("答案是否正确", "答えは次の通り") are
    // about the answer, not the answer.
    if !rest.as_bytes()[0].is_ascii() && rest.starts_with(is_cjk_word_char) {
        return Nothing;
    }
    // A math span or box right after the anchor is the answer, whatever follows it.
    if let Some(b) = box_at(rest, 0) {
        return answer(b.content(rest).to_string());
    }
    if let Some((content, _)) = math_span_at(rest, 0) {
        return answer(unboxed(content.trim()));
    }
    // "#### Heading" is Markdown, not an answer: a GSM8K-style "####" answer starts like a number.
    // Decided on the first character, before the line is read, so that a run of anchors that all
    // fail ("########...") costs constant work each, not a scan of the rest of the line.
    if text[..pos].ends_with("####")
        && !rest
            .trim_start()
            .starts_with(|c: char| c.is_ascii_digit() || "-+$\\.(".contains(c))
    {
        return Nothing;
    }
    let word_len = rest.bytes().take_while(u8::is_ascii_alphabetic).count();
    let first_word = &rest[..word_len];
    if !first_word.is_empty()
        && NOT_AN_ANSWER
            .iter()
            .any(|w| w.eq_ignore_ascii_case(first_word))
    {
        return Nothing;
    }
    // Up to the end of the line, then of the sentence ('.' not inside a number).
    let line = rest.split('\n').next().unwrap_or("");
    count_work(line.len());
    let b = line.as_bytes();
    // An ideographic full stop ends the sentence ("答案是 24，共 3 步。").
    // (All three are multi-byte: an ASCII line, nearly every one, cannot hold them.)
    let mut end = if line.is_ascii() {
        line.len()
    } else {
        line.find(['。', '！', '？']).unwrap_or(line.len())
    };
    for i in memchr::memchr_iter(b'.', &b[..end]) {
        let next_digit = i + 1 < b.len() && b[i + 1].is_ascii_digit();
        if !next_digit && (i + 1 == b.len() || b[i + 1] == b' ') {
            end = i;
            break;
        }
    }
    let sentence = &line[..end];
    // A box inside the anchored sentence is its answer.
    // (Only a sentence with a backslash can hold a box or `\[`; `$` spans are checked by the shape.)
    if sentence.contains('\\') {
        if let Some(bx) = boxes::boxed_answer(sentence) {
            return answer(bx);
        }
    }
    let shape = SentenceShape::of(sentence);
    let mut ans = trim(trim(sentence).trim_end_matches(['*', '.', ' ']));
    // The sentence announces an answer on the next line: "which is:\n\[ \boxed{8} \]".
    let reaches_line_end = line[end..].trim_matches(['.', ' ', '*', '。']).is_empty();
    let prose_only = !shape.digit && !shape.math && shape.words >= 3;
    if reaches_line_end && (ans.ends_with(':') || prose_only) {
        if let Some(a) = display_starting(&rest[line.len()..]) {
            return answer(a);
        }
    }
    // A math span that ends a sentence with no number outside math: "which gives $x = 2$".
    if shape.math && !shape.digit {
        if let Some((m, m_end)) = last_math_span(sentence) {
            if sentence[m_end..]
                .trim_matches(|c: char| c.is_whitespace() || ".,;:!*".contains(c))
                .is_empty()
            {
                return answer(m);
            }
        }
    }
    // Is the sentence prose (or a hedge with several numbers) in a response that has a box? The
    // box test comes before counting the numbers, which only a response with a box needs.
    let response_has_box = |has_box: &mut Option<bool>| {
        *has_box.get_or_insert_with(|| {
            count_work(text.len());
            // Finders built once: `memmem::find` builds one per call, which cost more than the
            // search on a response of a few hundred bytes.
            static BOXED: LazyLock<Finder<'static>> = LazyLock::new(|| Finder::new(b"\\boxed"));
            static FBOX: LazyLock<Finder<'static>> = LazyLock::new(|| Finder::new(b"\\fbox"));
            BOXED.find(text.as_bytes()).is_some() || FBOX.find(text.as_bytes()).is_some()
        })
    };
    let hedge = |shape: &SentenceShape| shape.words >= 4 && shape.numbers() >= 2;
    if (prose_only || (shape.digit && shape.words >= 4))
        && response_has_box(has_box)
        && (prose_only || hedge(&shape))
        && !boxes::find_boxes(text).is_empty()
    {
        return Prose;
    }
    if let Some(b) = whole_box(ans) {
        return answer(b.to_string());
    }
    if let Some(n) = number_before_connective(ans) {
        return answer(n.to_string());
    }
    ans = ans.trim_end_matches(',');
    answer(ans.to_string())
}

/// Words that, after a number, start a clause about it rather than more of the answer: "12, not
/// 15", "30 in 2 days", "8 after 3 steps", "5 because 2 + 3 = 5"; and the same in French, Spanish,
/// German and Russian ("220 $ à payer", "30 en 2 días", "8 nach 3 Schritten"). No single ASCII
/// letter (a variable: "3 a + 2").
const CONNECTIVES: &[&str] = &[
    "not",
    "in",
    "after",
    "since",
    "because",
    "as",
    "for",
    "so",
    "which",
    "when",
    "with",
    "but",
    "than",
    "from",
    "by",
    "over",
    "per",
    "before",
    "while",
    "rather", // English
    "à",
    "en",
    "pour",
    "après",
    "car",
    "avec",
    "mais",
    "depuis",
    "puisque",
    "parce",
    "par",
    "au",
    "aux",
    "dans",
    "sur",
    "non",
    "pas", // French
    "para",
    "por",
    "porque",
    "después",
    "con",
    "pero",
    "desde",
    "sin", // Spanish
    "nach",
    "für",
    "weil",
    "mit",
    "aber",
    "seit",
    "statt",
    "nicht",
    "bei",
    "pro", // German
    "за",
    "в",
    "после",
    "потому",
    "для",
    "но",
    "не",
    "на",
    "с",
    "через", // Russian
];

/// "and" in the languages of the anchors: a connective only before a negation ("12, et non 15",
/// "12 and not 15"); "3 and 5" is a list.
const AND_WORDS: &[&str] = &["and", "et", "y", "und", "и", "e"];
const NEGATIONS: &[&str] = &["not", "non", "pas", "no", "nicht", "kein", "не", "нет"];

/// Punctuation and words of Chinese and Japanese that end the answer after a number ("24，共 3
/// 步", "24 です"); the enumeration comma 、 joins a list and is not one of them.
const CJK_ENDS: &[&str] = &["，", "；", "。", "！", "？", "です", "になります"];

/// Currency signs that may stand right after a number ("220 $", "15 €").
const CURRENCY_AFTER: &[char] = &['$', '€', '£', '¥', '元'];

/// The first word of `s` (letters of any script), and whether it is whole (not glued to a digit).
fn first_word(s: &str) -> (&str, bool) {
    let len: usize = s
        .chars()
        .take_while(|c| c.is_alphabetic())
        .map(char::len_utf8)
        .sum();
    let whole = s[len..].chars().next().is_none_or(|c| !c.is_alphanumeric());
    (&s[..len], whole)
}

fn is_connective(rest: &str) -> bool {
    if CJK_ENDS.iter().any(|e| rest.starts_with(e)) {
        return true;
    }
    let (word, whole) = first_word(rest);
    if word.is_empty() || !whole || (word.len() == 1 && word.is_ascii()) {
        return false;
    }
    // Case-insensitive in any script. This runs for most responses: an ASCII word (nearly all)
    // is compared by ASCII folding, which for ASCII is what Unicode lowercasing gives.
    let is = |list: &[&str], w: &str| {
        if w.is_ascii() {
            return list.iter().any(|x| x.eq_ignore_ascii_case(w));
        }
        let w = w.to_lowercase();
        list.iter().any(|x| x.to_lowercase() == w)
    };
    if is(CONNECTIVES, word) {
        return true;
    }
    if is(AND_WORDS, word) {
        let (next, _) = first_word(rest[word.len()..].trim_start());
        return is(NEGATIONS, next);
    }
    false
}

/// The number in an anchored sentence when a connective follows it ("12, not 15" -> "12"): the
/// sentence is about the number, and its other numbers are not the answer. The number starts the
/// sentence, or follows words only ("Janeth aura encore 220 $ à payer d'ici 12 mois" -> "220").
/// A list ("3 and 5"), an expression ("2 + 3 = 5") or a unit word ("30 apples in 2 days") is
/// left whole.
fn number_before_connective(ans: &str) -> Option<&str> {
    let b = ans.as_bytes();
    // Leading words: letters, spaces, apostrophes and commas up to the first digit or sign.
    let lead = ans
        .char_indices()
        .find(|&(_, c)| !(c.is_alphabetic() || c == ' ' || c == '\'' || c == '’' || c == ','))
        .map_or(ans.len(), |(k, _)| k);
    let lead = if lead > 0
        && b.get(lead)
            .is_some_and(|&c| c.is_ascii_digit() || c == b'$')
    {
        // Words before the number must end with a space ("x2" is not a word and a number).
        if b[lead - 1] != b' ' {
            return None;
        }
        lead
    } else if lead == 0 {
        0
    } else {
        return None;
    };
    let mut i = lead + usize::from(b.get(lead).is_some_and(|&c| c == b'-' || c == b'$'));
    let start_digits = i;
    while i < b.len()
        && (b[i].is_ascii_digit()
            || (b[i] == b',' && b.get(i + 1).is_some_and(u8::is_ascii_digit))
            || (b[i] == b'.' && b.get(i + 1).is_some_and(u8::is_ascii_digit)))
    {
        i += 1;
    }
    if i == start_digits || !b[start_digits].is_ascii_digit() {
        return None;
    }
    let number = &ans[lead..i];
    let mut rest = ans[i..].trim_start();
    let spaced = rest.len() < ans.len() - i;
    if let Some(r) = rest.strip_prefix(CURRENCY_AFTER) {
        if !spaced && !r.starts_with(' ') {
            return None;
        }
        rest = r.trim_start();
    }
    if CJK_ENDS.iter().any(|e| rest.starts_with(e)) {
        return Some(number);
    }
    let rest2 = rest.trim_start_matches(',').trim_start();
    if rest2.len() == ans.len() - i {
        return None; // nothing separates the number from what follows ("12abc")
    }
    is_connective(rest2).then_some(number)
}

/// The content of a display, math span or box that starts `after` (the text after an anchored
/// line), skipping blank lines; a box inside the display is unwrapped.
fn display_starting(after: &str) -> Option<String> {
    let next = after.trim_start();
    let mut cut = next.len().min(NEXT_LINE_WINDOW);
    while !next.is_char_boundary(cut) {
        cut -= 1;
    }
    let next = &next[..cut];
    count_work(next.len());
    if let Some(bx) = box_at(next, 0) {
        return Some(bx.content(next).to_string());
    }
    math_span_at(next, 0).map(|(content, _)| unboxed(content.trim()))
}

/// `\boxed{x}` -> `x`; any other text unchanged.
fn unboxed(s: &str) -> String {
    whole_box(s).map_or(s, |b| b).to_string()
}

/// What an anchored sentence holds outside its math spans.
struct SentenceShape<'a> {
    /// The sentence with its math spans and command names blanked out.
    outside: std::borrow::Cow<'a, str>,
    /// An ASCII digit outside math.
    digit: bool,
    /// At least one math span.
    math: bool,
    /// Words of two or more letters outside math and not LaTeX commands.
    words: usize,
}

impl<'a> SentenceShape<'a> {
    /// Numbers outside math (counted on demand: only a hedge test needs them).
    fn numbers(&self) -> usize {
        scan_numbers(&self.outside).len()
    }

    fn of(s: &'a str) -> SentenceShape<'a> {
        let (outside, math) = if s.bytes().any(|c| c == b'$' || c == b'\\') {
            let (o, m) = Self::blank_math(s);
            (std::borrow::Cow::Owned(o), m)
        } else {
            (std::borrow::Cow::Borrowed(s), false)
        };
        let words = if outside.is_ascii() {
            // The same count by bytes: on ASCII, `char::is_alphabetic` is `is_ascii_alphabetic`.
            outside
                .as_bytes()
                .split(|c| !c.is_ascii_alphabetic())
                .filter(|w| w.len() >= 2)
                .count()
        } else {
            outside
                .split(|c: char| !c.is_alphabetic())
                .filter(|w| w.chars().nth(1).is_some())
                .count()
        };
        SentenceShape {
            digit: outside.bytes().any(|c| c.is_ascii_digit()),
            math,
            words,
            outside,
        }
    }

    /// The sentence with math spans and command names replaced by a space, and whether it had a
    /// math span.
    fn blank_math(s: &str) -> (String, bool) {
        let mut outside = String::with_capacity(s.len());
        let mut math = false;
        let b = s.as_bytes();
        let mut i = 0;
        let mut unclosed = Unclosed::default();
        while i < b.len() {
            if b[i] == b'$'
                || (b[i] == b'\\' && i + 1 < b.len() && (b[i + 1] == b'[' || b[i + 1] == b'('))
            {
                if let Span::Found(_, e) = math_span_or_dead_end(s, i, &mut unclosed) {
                    math = true;
                    outside.push(' ');
                    i = e;
                    continue;
                }
            }
            if b[i] == b'\\' {
                // A command name is not a word.
                i += 1;
                while i < b.len() && b[i].is_ascii_alphabetic() {
                    i += 1;
                }
                outside.push(' ');
                continue;
            }
            let ch_len = s[i..].chars().next().map_or(1, char::len_utf8);
            outside.push_str(&s[i..i + ch_len]);
            i += ch_len;
        }
        (outside, math)
    }
}

fn non_empty(s: String) -> Option<String> {
    let t = trim(&s);
    if t.len() == s.len() {
        // Already trimmed (the usual case): no second copy.
        return (!s.is_empty()).then_some(s);
    }
    (!t.is_empty()).then(|| t.to_string())
}

/// A math span starting at byte `i`: (content, end). `$..$` follows Pandoc's rule so that
/// currency ("$5 and $3") is not math: the opener is followed by a non-space, the closer is
/// preceded by a non-space and not followed by a digit.
fn math_span_at(s: &str, i: usize) -> Option<(String, usize)> {
    match math_span_or_dead_end(s, i, &mut Unclosed::default()) {
        Span::Found(c, end) => Some((c, end)),
        Span::None => None,
    }
}

enum Span {
    Found(String, usize),
    None,
}

/// Which openers were found with no closer anywhere after them: a later opener of the same kind
/// cannot close either, so it is not searched again (`\[\[\[...` is linear, not quadratic).
#[derive(Default)]
struct Unclosed {
    display: [bool; 3],
    dollar: bool,
}

// Bytes the span and anchor scans looked at, for the tests that count work (a quadratic path
// shows as work growing faster than the input).
use crate::work::count as count_work;

fn math_span_or_dead_end(s: &str, i: usize, unclosed: &mut Unclosed) -> Span {
    let r = &s[i..];
    count_work(1);
    for (k, (open, close)) in [("$$", "$$"), ("\\[", "\\]"), ("\\(", "\\)")]
        .into_iter()
        .enumerate()
    {
        if let Some(body) = r.strip_prefix(open) {
            if unclosed.display[k] {
                return Span::None;
            }
            let found = body.find(close);
            count_work(found.map_or(body.len(), |j| j + close.len()));
            let Some(j) = found else {
                unclosed.display[k] = true;
                return Span::None;
            };
            return Span::Found(body[..j].to_string(), i + open.len() + j + close.len());
        }
    }
    let Some(body) = r.strip_prefix('$') else {
        return Span::None;
    };
    if body.is_empty() || unclosed.dollar {
        return Span::None;
    }
    // The scan below steps over escapes two bytes at a time; a later `$` it reached was either a
    // closer candidate (the scan stops there) or escaped (`\$`), and a scan starting there runs
    // in step with this one from the next byte on. So once a scan meets no candidate before the
    // end, no later `$` can open a span.
    let bb = body.as_bytes();
    let mut k = 0;
    let mut latexy = false;
    while k < bb.len() {
        if bb[k] == b'\\' {
            latexy = true;
            k += 2;
            continue;
        }
        if matches!(bb[k], b'^' | b'_' | b'{') {
            latexy = true;
        }
        if bb[k] == b'$' {
            // Spaces inside the delimiters are fine for LaTeX ("$ \sqrt3 $"), not for currency.
            let tight =
                !body.starts_with(char::is_whitespace) && k > 0 && !bb[k - 1].is_ascii_whitespace();
            let next_digit = k + 1 < bb.len() && bb[k + 1].is_ascii_digit();
            count_work(k);
            if (tight || latexy) && !next_digit {
                return Span::Found(body[..k].to_string(), i + 1 + k + 1);
            }
            return Span::None;
        }
        k += 1;
    }
    count_work(bb.len());
    unclosed.dollar = true;
    Span::None
}

fn last_math_span(text: &str) -> Option<(String, usize)> {
    let mut last: Option<(String, usize)> = None;
    let mut unclosed = Unclosed::default();
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'$'
            || (b[i] == b'\\' && i + 1 < b.len() && (b[i + 1] == b'[' || b[i + 1] == b'('))
        {
            if let Span::Found(c, end) = math_span_or_dead_end(text, i, &mut unclosed) {
                if !c.trim().is_empty() {
                    last = Some((c.trim().to_string(), end));
                }
                i = end;
                continue;
            }
        }
        i += 1;
    }
    last.map(|(c, end)| (whole_box(&c).map_or(c.clone(), str::to_string), end))
}

#[cfg(test)]
mod tests {
    use super::*;

    thread_local! {
        static LOWER: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
    }

    /// End offsets of every anchor phrase in `text`, by the regex: the oracle of the backward scan.
    fn anchor_ends(text: &str) -> Vec<usize> {
        LOWER.with(|buf| {
            let mut buf = buf.borrow_mut();
            buf.clear();
            buf.extend(text.bytes().map(|b| b.to_ascii_lowercase()));
            // Only the ends are needed: the shortest match ends where the leftmost-first one does for
            // these alternatives, and it spares the reverse search for the start.
            let re = anchor_regex();
            let mut ends = Vec::new();
            let mut at = 0;
            while let Some(e) = re.shortest_match_at(&buf, at) {
                ends.push(e);
                at = e;
            }
            ends
        })
    }

    fn ex(t: &str) -> Option<String> {
        extract(t, &[]).map(|e| e.answer)
    }

    #[test]
    fn anchors_take_the_answer_not_the_tail() {
        assert_eq!(
            ex("so The answer is: 18. Then we check 5.").as_deref(),
            Some("18")
        );
        assert_eq!(
            ex("The answer is: 18.\nThe answer is correct because 3+15=18.").as_deref(),
            Some("18")
        );
        assert_eq!(
            ex("The final answer is $\\frac{1}{2}$. Done").as_deref(),
            Some("\\frac{1}{2}")
        );
        assert_eq!(ex("the answer is \\boxed{7} apples").as_deref(), Some("7"));
        assert_eq!(ex("#### 1,234").as_deref(), Some("1,234"));
        assert_eq!(
            ex("The answer is: 12\n#### Note\nmore").as_deref(),
            Some("12")
        );
        assert_eq!(ex("Answer: 3.5 km").as_deref(), Some("3.5 km"));
    }

    #[test]
    fn a_vertical_tab_separates_anchor_words_as_in_the_regex() {
        // Found by the property test below (proptest-regressions/extract.txt): `\s` in the anchor
        // regex and in Python's `re` includes U+000B; the backward scan now agrees.
        let t = "answer\u{b} is\n";
        let back: Vec<usize> = AnchorsBackward::new(t.as_bytes()).collect();
        assert_eq!(back, anchor_ends(t));
        assert_eq!(back, [10]);
        assert_eq!(ex("The answer\u{b}is: 42").as_deref(), Some("42"));
        assert_eq!(ex("so the answer\u{b} is 7").as_deref(), Some("7"));
    }

    proptest::proptest! {
        #[test]
        fn backward_anchor_scan_equals_the_regex(t in "(answer|ANSWER|Answer| is|:|#|##|####|the |\\s|x|a|\\n|\\t|é|1|réponse|RÉPONSE|reponse| finale| est|respuesta| final| correcta| es|die|Die|antwort|Antwort| ist| lautet|答案|答え|是|为|は|：|否|ответ|Ответ|ОТВЕТ|d|r|答|w|W|answ|nswer|#####)*") {
            let mut fwd = anchor_ends(&t);
            fwd.reverse();
            let back: Vec<usize> = AnchorsBackward::new(t.as_bytes()).collect();
            proptest::prop_assert_eq!(fwd, back);
        }
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

    #[test]
    fn a_number_followed_by_a_connective_is_the_answer() {
        for (text, want) in [
            ("The answer is 12, not 15.", "12"),
            ("So the answer is 30 in 2 days.", "30"),
            ("The answer is 8 after 3 steps.", "8"),
            ("The answer is $1,250 because the rest was spent.", "$1,250"),
            ("The answer is -3.5 since x < 0.", "-3.5"),
            ("Answer: 7 as computed above", "7"),
        ] {
            assert_eq!(ex(text).as_deref(), Some(want), "{text}");
        }
        // Lists, expressions and unit words keep the whole sentence.
        for (text, want) in [
            ("The answer is 3 and 5.", "3 and 5"),
            ("The answer is 2 + 3 = 5.", "2 + 3 = 5"),
            ("The answer is 30 apples in 2 days.", "30 apples in 2 days"),
            ("The answer is 12abc not 15.", "12abc not 15"),
            ("The answer is 18.", "18"),
        ] {
            assert_eq!(ex(text).as_deref(), Some(want), "{text}");
        }
    }

    /// Anchors in French, Spanish, German, Chinese, Japanese and Russian, with the connectives of
    /// those languages after an anchored number (issue 13).
    #[test]
    fn anchors_in_other_languages() {
        for (text, want) in [
            ("Donc la réponse est 12, et non 15.", Some("12")),
            ("Réponse : 18, après 3 jours.", Some("18")),
            ("RÉPONSE: 4", Some("4")),
            (
                "La reponse finale est $\\frac{3}{4}$.",
                Some("\\frac{3}{4}"),
            ),
            (
                "Réponse: Janeth aura encore 220 $ à payer d'ici 12 mois.",
                Some("220"),
            ),
            ("Por lo tanto, la respuesta es 30 en 2 días.", Some("30")),
            ("La respuesta correcta es: 7", Some("7")),
            ("Respuesta: 14 para cada uno de los 3 grupos.", Some("14")),
            ("Also ist die Antwort 8 nach 3 Schritten.", Some("8")),
            ("Die Antwort ist 72 nach 4 Runden.", Some("72")),
            ("Die Antwort lautet: 5", Some("5")),
            ("Antwort: 9 mit 2 Resten", Some("9")),
            // A mention of "die Antwort" is not an anchor: the last number decides.
            ("Die Antwort hängt von n ab. Wir erhalten 16.", Some("16")),
            ("所以答案是 24，共 3 步。", Some("24")),
            ("答案：36，用了 4 小时。", Some("36")),
            ("因此，最终答案是 $\\frac{1}{2}$。", Some("\\frac{1}{2}")),
            ("答案为 5，共 2 种情况。", Some("5")),
            ("检查答案是否正确：2 + 3 = 5，所以 \\boxed{5}", Some("5")),
            ("よって、答えは 42 です。3 回確認しました。", Some("42")),
            ("答え：7，2 通りある。", Some("7")),
            ("Ответ: 15 за 3 дня.", Some("15")),
            ("ОТВЕТ: 6", Some("6")),
            // "and" is a connective only before a negation; the French "et" too.
            ("The answer is 12 and not 15.", Some("12")),
            ("La réponse est 3 et 5.", Some("3 et 5")),
            ("La réponse est correcte car 3+4=7.", Some("7")),
            // A single ASCII letter after a number is a variable, not a word.
            ("The answer is 3 a + 2.", Some("3 a + 2")),
        ] {
            assert_eq!(ex(text).as_deref(), want, "{text}");
        }
    }

    #[test]
    fn a_clock_time_that_ends_the_response_is_the_answer() {
        for (text, want) in [
            ("The train leaves at 9:15 P.M.", "9:15 P.M."),
            ("It ends at 09:15 \\text{pm}.", "09:15 \\text{pm}"),
            ("The show starts at 19:00:00.", "19:00:00"),
            ("Wake up at 7 am", "7 am"),
            // Not a definite clock time, or not at the end: the last number as before.
            ("The ratio is 3:5", "5"),
            ("by 5:00 pm, so 5-3 = 2:00 pm is the latest", "00"),
            ("at 12:30 am we have 12", "12"),
        ] {
            assert_eq!(ex(text).as_deref(), Some(want), "{text}");
        }
    }

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

    /// An anchor followed by prose (issue 13): a box or display in the anchored sentence, or on the
    /// next line after a sentence that announces it, wins over the prose; a prose sentence gives
    /// way to a box elsewhere in the response.
    #[test]
    fn anchor_followed_by_prose() {
        let cases: &[(&str, &str)] = &[
            // A box or display later in the anchored sentence.
            ("The answer is Month 6, which is: \\[\\boxed{\\text{June}}\\]", "\\text{June}"),
            ("The answer is the smaller value, that is, $\\boxed{-4}$.", "-4"),
            ("The answer is indeed 3 apples, so $\\boxed{3}$, as claimed", "3"),
            ("Answer: the positive root gives \\[ x = \\frac{7}{2} \\]", "x = \\frac{7}{2}"),
            ("The final answer is the ratio $\\frac{3}{4}$.", "\\frac{3}{4}"),
            // The next line, after ":" or a sentence of prose.
            ("The answer is Month 6, which is:\n\\[ \\boxed{\\text{June}} \\]", "\\text{June}"),
            ("The final answer is the third power of two:\n\n\\[\\boxed{8}\\]", "8"),
            ("Answer: we keep the positive root, which gives\n\\[ x = \\frac{7}{2} \\]", "x = \\frac{7}{2}"),
            ("The answer is as follows:\n\\boxed{12}", "12"),
            ("The answer is as follows:\n$$ 5\\sqrt{2} $$\nDone.", "5\\sqrt{2}"),
            // A prose sentence gives way to a box anywhere in the response.
            ("So $\\boxed{35}$.\nRemark: some texts say the answer is written out in words.", "35"),
            (
                "Thus $\\boxed{220}$.\nIn the usual case the answer is considered as 220, in other cases as 0220.",
                "220",
            ),
            // A rejected anchor ("indeed"), then "Answer:" whose next line holds the box.
            ("Answer:\nThe answer is indeed $\\boxed{220}$, where each digit counts.", "220"),
            // Unchanged: answers that are not prose.
            ("The answer is: 18. Then we check 5.", "18"),
            ("The answer is: 18.\nThe answer is correct because 3+15=18.", "18"),
            ("The answer is 18 apples per day.", "18 apples per day"),
            ("The answer is June\n\\[ x = 5 \\]", "June"),
            ("First \\boxed{6}. The answer is 18 apples.", "18 apples"),
            // A number then a connective: the number ("12, not 6" is about 12).
            ("We try \\boxed{6}, no. The answer is 12, not 6.", "12"),
            ("The answer is 5, which is $\\frac{10}{2}$.", "5"),
            ("The answer is one more than $n$ in general", "one more than $n$ in general"),
            // Prose without a box anywhere stays the anchored text (nothing better to take).
            ("The answer is written out in words.", "written out in words"),
        ];
        for (text, want) in cases {
            assert_eq!(ex(text).as_deref(), Some(*want), "{text:?}");
        }
        // A prose anchor hands over to the box fallback.
        let e = extract("\\boxed{35}. The answer is written out in words.", &[]).unwrap();
        assert_eq!((e.answer.as_str(), e.by), ("35", ExtractedBy::Boxed));
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

    #[test]
    fn golds_that_start_with_an_anchor() {
        for g in [
            "answer is 0.75",
            "The answer is 81.",
            "Answer: 0.4",
            "  the final answer is $x$",
            "ANSWER IS 3",
        ] {
            assert!(starts_with_anchor(g), "{g}");
        }
        for g in [
            "So the answer is 5",
            "#### 18",
            "18",
            "\\text{answer}",
            "answers: 3",
            "x = 2. Answer: 2",
        ] {
            assert!(!starts_with_anchor(g), "{g}");
        }
    }

    /// Boxes are read one way everywhere (`crate::scan::boxes`): braced or one token, an open
    /// brace runs to the end, and consecutive boxes join across connectives.
    #[test]
    fn boxes_read_one_way() {
        assert_eq!(ex("so \\boxed 5").as_deref(), Some("5"));
        assert_eq!(ex("so \\boxed\n{5}").as_deref(), Some("5"));
        assert_eq!(ex("cut off: \\boxed{12").as_deref(), Some("12"));
        assert_eq!(ex("The answer is \\boxed{12").as_deref(), Some("12"));
        assert_eq!(ex("The answer is $\\boxed{12$").as_deref(), Some("12"));
        assert_eq!(ex("\\boxed{3} and \\boxed 4").as_deref(), Some("3, 4"));
    }
}
