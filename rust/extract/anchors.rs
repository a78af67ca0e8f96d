//! Anchor phrases: where a stated answer starts. The English anchors ("The answer is", "Answer:",
//! "####") and those of French, Spanish, German, Chinese, Japanese and Russian, in one grammar
//! (the regex [`anchor_regex`] and the byte scanner [`anchor_end_at`] agree); the configured
//! patterns; [`anchor_ends_last_first`], every anchor of a response from its end.

use std::sync::OnceLock;

use regex::bytes::Regex;

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
pub(super) fn uncovered_patterns(patterns: &[String], mut f: impl FnMut(&str)) {
    thread_local! {
        static SEEN: std::cell::RefCell<Vec<(String, bool)>> = const { std::cell::RefCell::new(Vec::new()) };
    }
    // The seed's own phrases (the default `split`), every one covered: no thread-local lookup.
    if patterns.is_empty() || patterns.iter().eq(SEED_PHRASES.iter()) {
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
    // The seed's own phrases, known without compiling the anchor regex (about two million
    // instructions, in the first item of a process); a test checks the regex agrees.
    if SEED_PHRASES.contains(&p) {
        return true;
    }
    covered_by_regex(p)
}

/// The seed configuration's `extract_pattern` (`crate::config`), all found by the built-in anchors.
const SEED_PHRASES: [&str; 3] = ["####", "The answer is: ", "The answer is"];

fn covered_by_regex(p: &str) -> bool {
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
/// to it by extraction. Read from the bytes (the grammar of [`anchor_regex`], which a test holds
/// it to): compiling the regex cost a process's first batch about half a millisecond.
pub fn starts_with_anchor(text: &str) -> bool {
    let t = text.trim_start();
    // Cheap test first (every gold passes here): the phrase starts with "answer" or "the".
    if !t.starts_with(['a', 'A', 't', 'T']) {
        return false;
    }
    let head: String = t.chars().take(48).collect();
    let lower = head.to_ascii_lowercase();
    // Only the words "the", "final", "correct" may come before the anchor; none of them holds
    // the start of one, so the first other word starts it, or one of those words does and an
    // anchor that needs no word boundary follows it at once ("the答案:").
    const ALLOWED: [&str; 3] = ["the", "final", "correct"];
    let mut i = 0;
    let word = loop {
        let rest = &lower[i..];
        i += rest.len() - rest.trim_start().len();
        let rest = &lower[i..];
        let word = &rest[..rest.find(char::is_whitespace).unwrap_or(rest.len())];
        if word.is_empty() {
            return false;
        }
        if !ALLOWED.contains(&word) {
            break word;
        }
        i += word.len();
    };
    let b = lower.as_bytes();
    let anchor_at = |k: usize| k < b.len() && b[k] != b'#' && anchor_end_at(b, k).is_some();
    anchor_at(i)
        || ALLOWED
            .iter()
            .any(|w| word.starts_with(w) && anchor_at(i + w.len()))
}

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
pub(super) fn word_at(b: &[u8], k: usize, w: &[u8]) -> bool {
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

/// Anchor ends from the last to the first: exactly the ends of the anchor regex's matches
/// (checked by a property test), in reverse.
///
/// Every anchor phrase holds a fragment: `answer`, `####`, `pons` (réponse), `pues` (respuesta),
/// `twor` (Antwort), `答`, `твет`/`ТВЕТ` (ответ). One multi-pattern search over the response (SIMD,
/// [`fragments`]) finds them; an anchor is then looked for only where a fragment puts its start.
/// Most responses hold none, so the usual cost is that one pass, not a stop at every `w` of the
/// prose as a byte scan for `answer` made.
pub(super) fn anchor_ends_last_first(b: &[u8]) -> Vec<usize> {
    let starts = anchor_starts(b);
    // Ends in the order of the starts, as a scan from the end meets them; a run of '#' gives the
    // ends of the forward scan's non-overlapping "####" matches, start+4, start+8, ...
    let mut ends = Vec::with_capacity(starts.len());
    let mut k = starts.len();
    while k > 0 {
        k -= 1;
        let i = starts[k];
        if b[i] == b'#' {
            let run_start = hash_run_start(b, i);
            let run_end = i + b[i..].iter().take_while(|&&c| c == b'#').count();
            // Every '#' start of this run was found: skip the others.
            while k > 0 && starts[k - 1] >= run_start {
                k -= 1;
            }
            let run = run_end - run_start;
            ends.extend((1..=run / 4).rev().map(|q| run_start + 4 * q));
        } else if let Some(e) = anchor_end_at(b, i) {
            ends.push(e);
        }
    }
    ends
}

/// The anchor fragments, in the case-folded form [`fold`] gives, searched for in a folded copy of
/// the text.
const FRAGMENTS: [&str; 8] = [
    "answer", "####", "pons", "pues", "twor", "答", "твет", "ТВЕТ",
];

/// Bit 5 set on every byte: maps the two cases of an ASCII letter, and no other ASCII byte, to the
/// lower-case letter. Applied to the text and to the fragments alike, so every case-insensitive
/// occurrence is found; what else it finds is ruled out by the check at the original bytes.
fn fold(c: u8) -> u8 {
    c | 0x20
}

/// The fragment search: the SIMD searcher, and the folded fragments for texts too short for it.
struct Fragments {
    searcher: aho_corasick::AhoCorasick,
    folded: [Vec<u8>; FRAGMENTS.len()],
    /// The first bytes of the folded fragments.
    first: [bool; 256],
}

fn fragments() -> &'static Fragments {
    use std::sync::LazyLock;
    static F: LazyLock<Fragments> = LazyLock::new(|| {
        let folded = FRAGMENTS.map(|f| f.bytes().map(fold).collect::<Vec<u8>>());
        let mut first = [false; 256];
        for f in &folded {
            first[f[0] as usize] = true;
        }
        // Leftmost-first: no two fragments start at one byte, so each search gives the next start.
        let searcher = aho_corasick::AhoCorasick::builder()
            .match_kind(aho_corasick::MatchKind::LeftmostFirst)
            .build(&folded)
            .expect("static patterns");
        Fragments {
            searcher,
            folded,
            first,
        }
    });
    &F
}

/// Below this many bytes, the rest of a text is scanned byte by byte: the SIMD searcher needs a
/// few dozen bytes and falls back to a slower search on fewer (the line after a GSM8K-style
/// "The answer is" cost about 250 instructions that way).
const SHORT_TAIL: usize = 40;

/// Where an anchor may start, given a fragment (`FRAGMENTS[pattern]`) found at `s`: "answer", 答
/// and "####" start it; "twor" lies two bytes into "antwort" (and after "die\s+"); "pons" two or
/// three bytes into "reponse"/"réponse"; "pues" three into "respuesta"; "твет" two into "ответ".
fn starts_for(b: &[u8], pattern: usize, s: usize, out: &mut Vec<usize>) {
    let back = |k: usize| s.checked_sub(k);
    match pattern {
        0 | 1 | 5 => out.push(s),
        2 => out.extend([back(2), back(3)].into_iter().flatten()),
        3 => out.extend(back(3)),
        4 => {
            if let Some(a) = back(2) {
                out.push(a);
                let mut k = a;
                while k > 0 && is_regex_space(b[k - 1]) {
                    k -= 1;
                }
                if k < a && k >= 3 {
                    out.push(k - 3);
                }
            }
        }
        _ => out.extend(back(2)),
    }
}

/// Where an anchor may start (ascending, distinct): at the places the fragments put a start.
fn anchor_starts(b: &[u8]) -> Vec<usize> {
    thread_local! {
        static FOLDED: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
    }
    let mut starts = Vec::new();
    FOLDED.with(|buf| {
        let mut f = buf.borrow_mut();
        f.clear();
        f.extend(b.iter().map(|&c| fold(c)));
        // Every occurrence, overlapping ones too (in a run of '#'): each search starts one byte
        // after the last match's start. Not `find_overlapping_iter`, which goes byte by byte
        // without the SIMD prefilter.
        let fr = fragments();
        let mut at = 0;
        while f.len() - at >= SHORT_TAIL {
            let input = aho_corasick::Input::new(f.as_slice()).range(at..);
            let Some(m) = fr.searcher.find(input) else {
                return;
            };
            starts_for(b, m.pattern().as_usize(), m.start(), &mut starts);
            at = m.start() + 1;
        }
        for s in at..f.len() {
            if !fr.first[f[s] as usize] {
                continue;
            }
            if let Some(k) = fr.folded.iter().position(|x| f[s..].starts_with(x)) {
                starts_for(b, k, s, &mut starts);
            }
        }
    });
    starts.retain(|&i| ANCHOR_START[b[i] as usize]);
    starts.sort_unstable();
    starts.dedup();
    starts
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extract::ex;

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

    proptest::proptest! {
        /// Mixed case, bytes that fold onto a fragment's ('\u{3}' onto '#', '@' onto '`', 'Ð' onto
        /// the lead byte of т), fragments cut short and anchors in every language.
        #[test]
        fn the_fragment_search_finds_every_anchor(t in "(AnSwEr|aNSWER|answ|nswer|AntWort|ANTWORT|DIE|die\\s{1,2}|dIe|twor|TWOR|tw|PONS|pons|pues|PuEs|rÉponse|RéPONSE|rEpOnSe|respuesta|RESPUESTA|答|答案|答え|твет|ТВЕТ|ответ|Ответ|ОТВЕТ|о|Ð|\u{3}|#|@|`| is| IS|:|：|x|\\s){0,40}") {
            let mut fwd = anchor_ends(&t);
            fwd.reverse();
            let back: Vec<usize> = anchor_ends_last_first(t.as_bytes());
            proptest::prop_assert_eq!(fwd, back);
        }
    }

    #[test]
    fn anchors_on_both_sides_of_the_short_tail_scan_are_found() {
        // The SIMD search covers all but the last SHORT_TAIL bytes, a byte scan the rest: every
        // anchor, and every overlap of a '#' run or a Cyrillic fragment, across that border.
        for piece in [
            "The answer is 5",
            "####",
            "######",
            "Ответ: 3",
            "答案是4",
            "die Antwort 2",
        ] {
            for pad in 0..2 * SHORT_TAIL {
                for tail in ["", " #### 7", " answer: 8 and more words here"] {
                    let t = format!(
                        "{}{piece}{tail}",
                        "y ".repeat(pad / 2) + &"x".repeat(pad % 2)
                    );
                    let mut fwd = anchor_ends(&t);
                    fwd.reverse();
                    assert_eq!(anchor_ends_last_first(t.as_bytes()), fwd, "{t:?}");
                }
            }
        }
    }

    #[test]
    fn a_response_without_a_fragment_has_no_anchor() {
        let t = "We want the width w, so we write w = 2 and know what we were shown.";
        assert_eq!(anchor_ends_last_first(t.as_bytes()).len(), 0);
        // Folded look-alikes of '#' and of "answer" are checked at the original bytes.
        let t = "\u{3}\u{3}\u{3}\u{3} 1 ANSWER\u{3}: 2";
        assert_eq!(anchor_ends_last_first(t.as_bytes()).len(), 0);
    }

    #[test]
    fn the_seed_phrases_are_covered_by_the_regex() {
        for p in SEED_PHRASES {
            assert!(covered_by_regex(p), "{p:?}");
        }
        assert_eq!(
            SEED_PHRASES.to_vec(),
            crate::config::Config::seed().extract_pattern
        );
    }

    #[test]
    fn a_vertical_tab_separates_anchor_words_as_in_the_regex() {
        // Found by the property test below (proptest-regressions/extract/anchors.txt): `\s` in the anchor
        // regex and in Python's `re` includes U+000B; the backward scan now agrees.
        let t = "answer\u{b} is\n";
        let back: Vec<usize> = anchor_ends_last_first(t.as_bytes());
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
            let back: Vec<usize> = anchor_ends_last_first(t.as_bytes());
            proptest::prop_assert_eq!(fwd, back);
        }
    }

    /// `starts_with_anchor` by the anchor regex: its first match, after nothing but "the",
    /// "final", "correct".
    fn starts_with_anchor_by_regex(text: &str) -> bool {
        let t = text.trim_start();
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

    proptest::proptest! {
        #[test]
        fn starts_with_anchor_equals_the_regex(t in "(\\s|the|The|THE|final|correct|answer|Answer|ANSWER|antwort|die|réponse|respuesta|答案|ответ|####|#| is|:|,|x|1|\u{a0}|the,|\\(){0,12}") {
            proptest::prop_assert_eq!(starts_with_anchor(&t), starts_with_anchor_by_regex(&t));
        }
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
}
