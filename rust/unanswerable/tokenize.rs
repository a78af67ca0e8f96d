//! A tokenizer that gives the tokens of spaCy 3.8's blank English tokenizer (`spacy.blank("en")`)
//! without spaCy: the same whitespace rule, the same prefix / suffix / infix patterns (copied from
//! spaCy into `data/spacy/en_tokenizer.json`, MIT) applied in spaCy's order, and the same
//! tokenizer exceptions ("I'm" -> "I", "'m"; "can't" -> "ca", "n't"; "cannot" -> "can", "not").
//!
//! Not reproduced (documented gaps, rare in model answers): spaCy's URL matcher (a token that
//! is a URL stays whole there) and its second pass that re-joins special cases split across
//! affixes. Work is linear in the text: the suffix search only looks at the last few
//! characters (every suffix is at most 5 characters long, apart from runs of dots).

use std::sync::OnceLock;

use fancy_regex::Regex;
use rustc_hash::FxHashMap;
use serde::Deserialize;

use super::split::py_isspace;

const SPEC: &str = include_str!("../../data/spacy/en_tokenizer.json");

/// How many characters before the end the suffix search starts; every suffix pattern other than
/// a run of dots (handled apart) matches at most 5 characters, and its look-behind 2 more.
const SUFFIX_TAIL: usize = 8;

#[derive(Deserialize)]
struct Spec {
    prefix: String,
    suffix: String,
    infix: String,
    rules: FxHashMap<String, Vec<String>>,
}

/// The compiled tokenizer (built once, shared by every thread: see [`tokenizer`]).
pub struct Tokenizer {
    prefix: Regex,
    suffix: Regex,
    infix: Regex,
    rules: FxHashMap<String, Vec<String>>,
    longest_rule: usize,
    /// ASCII characters whose prefix match does not depend on what follows: the byte length of
    /// the prefix a string starting with them has (0 = none). `None` for '+', '.', 'U', 'C', 'A'
    /// ("+" unless a digit follows, runs of dots, "US$", "C$", "A$").
    prefix_ascii: [Option<u8>; 128],
    /// ASCII characters that, at the end of a string, are the whole suffix whatever precedes them
    /// (found by probing the suffix pattern in several contexts).
    suffix_ascii: [bool; 128],
}

/// Probe contexts for [`Tokenizer::suffix_ascii`]: every look-behind of the suffix pattern.
const SUFFIX_CONTEXTS: [&str; 8] = ["a", "5", "AB", "°F", "..", "US", "x'", "(("];

/// The process-wide tokenizer.
pub fn tokenizer() -> &'static Tokenizer {
    static T: OnceLock<Tokenizer> = OnceLock::new();
    T.get_or_init(|| {
        let spec: Spec = serde_json::from_str(SPEC).expect("bundled spaCy tokenizer spec parses");
        let compile = |p: &str| Regex::new(p).expect("bundled spaCy pattern compiles");
        let longest_rule = spec.rules.keys().map(String::len).max().unwrap_or(0);
        let mut t = Tokenizer {
            prefix: compile(&spec.prefix),
            suffix: compile(&spec.suffix),
            infix: compile(&spec.infix),
            rules: spec.rules,
            longest_rule,
            prefix_ascii: [None; 128],
            suffix_ascii: [false; 128],
        };
        for b in 0u8..128 {
            let c = char::from(b);
            if !matches!(c, '+' | '.' | 'U' | 'C' | 'A') {
                let one = c.to_string();
                t.prefix_ascii[usize::from(b)] = u8::try_from(t.find_prefix_regex(&one)).ok();
            }
            t.suffix_ascii[usize::from(b)] = SUFFIX_CONTEXTS
                .iter()
                .all(|ctx| t.find_suffix_regex(&format!("{ctx}{c}")) == 1);
        }
        t
    })
}

impl Tokenizer {
    fn special(&self, s: &str) -> Option<&Vec<String>> {
        if s.len() > self.longest_rule {
            return None;
        }
        self.rules.get(s)
    }

    /// Byte length of the prefix at the start of `s` (0 when none).
    fn find_prefix(&self, s: &str) -> usize {
        // Fast paths: every prefix starts with a non-alphanumeric character, or is "US$", "C$",
        // "A$"; for most ASCII characters the answer is in a table.
        let b = s.as_bytes();
        match s.chars().next() {
            Some(c) if c.is_ascii() => {
                if let Some(n) = self.prefix_ascii[c as usize] {
                    return usize::from(n);
                }
                // The context-dependent ones: "\.\.+", "\+(?![0-9])", "US$", "C$", "A$" are the
                // only alternatives starting with these characters.
                return match c {
                    '.' if b.get(1) == Some(&b'.') => b.iter().take_while(|&&x| x == b'.').count(),
                    '+' if !b.get(1).is_some_and(u8::is_ascii_digit) => 1,
                    'U' if s.starts_with("US$") => 3,
                    'C' | 'A' if b.get(1) == Some(&b'$') => 2,
                    _ => 0,
                };
            }
            Some(c) if c.is_alphanumeric() => return 0,
            None => return 0,
            _ => {}
        }
        self.find_prefix_regex(s)
    }

    fn find_prefix_regex(&self, s: &str) -> usize {
        match self.prefix.find(s) {
            Ok(Some(m)) if m.start() == 0 => m.end(),
            _ => 0,
        }
    }

    /// Byte length of the suffix at the end of `s`: Python's `re.search` of `(?:...)$`, i.e. the
    /// match that starts leftmost. Searched only in the tail (look-behind still sees the whole
    /// of `s`); a run of two or more dots at the end, the one unbounded suffix, is found apart.
    fn find_suffix(&self, s: &str) -> usize {
        // Fast path: no suffix ends in an ASCII digit, and one ending in an ASCII letter is a
        // unit right after a digit (units have at most 4 letters) or 's / 'S / ’s / ’S.
        match s.as_bytes().last() {
            None => return 0,
            Some(b) if b.is_ascii_digit() => return 0,
            Some(&b) if b.is_ascii() && self.suffix_ascii[usize::from(b)] => return 1,
            Some(b) if b.is_ascii_alphabetic() => {
                let tail = &s.as_bytes()[s.len().saturating_sub(6)..];
                let possessive = s[..s.len() - 1].ends_with(['\'', '’']);
                if !possessive && !tail.iter().any(u8::is_ascii_digit) {
                    return 0;
                }
            }
            _ => {}
        }
        self.find_suffix_regex(s)
    }

    fn find_suffix_regex(&self, s: &str) -> usize {
        if s.is_empty() {
            return 0;
        }
        let tail_start = s
            .char_indices()
            .rev()
            .nth(SUFFIX_TAIL - 1)
            .map_or(0, |(i, _)| i);
        let mut start = match self.suffix.find_from_pos(s, tail_start) {
            Ok(Some(m)) => Some(m.start()),
            _ => None,
        };
        let dots = s.len() - s.trim_end_matches('.').len();
        if dots >= 2 {
            let run = s.len() - dots;
            start = Some(start.map_or(run, |st| st.min(run)));
        }
        start.map_or(0, |st| s.len() - st)
    }

    /// spaCy's `_split_affixes`: strip prefixes and suffixes until nothing changes or what is
    /// left (or what a strip leaves) is a special case.
    fn split_affixes<'a>(
        &self,
        mut s: &'a str,
        prefixes: &mut Vec<&'a str>,
        suffixes: &mut Vec<&'a str>,
    ) -> &'a str {
        let mut last_size = usize::MAX;
        while !s.is_empty() && s.len() != last_size {
            if self.special(s).is_some() {
                break;
            }
            last_size = s.len();
            let pre_len = self.find_prefix(s);
            if pre_len != 0 {
                let minus_pre = &s[pre_len..];
                if !minus_pre.is_empty() && self.special(minus_pre).is_some() {
                    prefixes.push(&s[..pre_len]);
                    s = minus_pre;
                    break;
                }
            }
            let suf_len = self.find_suffix(&s[pre_len..]);
            if suf_len != 0 {
                let minus_suf = &s[..s.len() - suf_len];
                if !minus_suf.is_empty() && self.special(minus_suf).is_some() {
                    suffixes.push(&s[s.len() - suf_len..]);
                    s = minus_suf;
                    break;
                }
            }
            if pre_len != 0 && suf_len != 0 && pre_len + suf_len <= s.len() {
                prefixes.push(&s[..pre_len]);
                suffixes.push(&s[s.len() - suf_len..]);
                s = &s[pre_len..s.len() - suf_len];
            } else if pre_len != 0 {
                prefixes.push(&s[..pre_len]);
                s = &s[pre_len..];
            } else if suf_len != 0 {
                suffixes.push(&s[s.len() - suf_len..]);
                s = &s[..s.len() - suf_len];
            }
            if !s.is_empty() && self.special(s).is_some() {
                break;
            }
        }
        s
    }

    /// spaCy's `_tokenize` + `_attach_tokens` for one whitespace-free span (or one run of
    /// whitespace).
    fn tokenize_span<'a>(&'a self, span: &'a str, out: &mut Vec<&'a str>) {
        let mut cs = span.chars();
        if cs.next().is_some() && cs.next().is_none() && self.special(span).is_none() {
            // One character: whatever prefix or suffix it is, it is the one token.
            out.push(span);
            return;
        }
        if let Some(parts) = self.special(span) {
            out.extend(parts.iter().map(String::as_str));
            return;
        }
        let mut prefixes = Vec::new();
        let mut suffixes = Vec::new();
        let s = self.split_affixes(span, &mut prefixes, &mut suffixes);
        out.extend(prefixes);
        if !s.is_empty() {
            if let Some(parts) = self.special(s) {
                out.extend(parts.iter().map(String::as_str));
            } else if s.chars().all(char::is_alphanumeric) {
                // Fast path: every infix holds a non-alphanumeric character.
                out.push(s);
            } else {
                let mut start = 0;
                for m in self.infix.find_iter(s).flatten() {
                    let (a, b) = (m.start(), m.end());
                    if a == 0 {
                        // spaCy skips an infix at the very start (start_before_infixes).
                        continue;
                    }
                    if a != start {
                        out.push(&s[start..a]);
                    }
                    if a != b {
                        out.push(&s[a..b]);
                    }
                    start = b;
                }
                if start < s.len() {
                    out.push(&s[start..]);
                }
            }
        }
        out.extend(suffixes.into_iter().rev());
    }

    /// The token texts of `text`, as `[t.text for t in spacy.blank("en")(text)]`: spans of
    /// non-space and of space characters alternate; one ' ' after a token is its trailing
    /// whitespace, any other run of whitespace (less that one space) is a token of its own.
    pub fn tokens<'a>(&'a self, text: &'a str) -> Vec<&'a str> {
        let mut out = Vec::new();
        let Some(first) = text.chars().next() else {
            return out;
        };
        let mut in_ws = py_isspace(first);
        let mut start = 0;
        for (i, c) in text.char_indices() {
            if py_isspace(c) != in_ws {
                if start < i {
                    self.tokenize_span(&text[start..i], &mut out);
                }
                start = if c == ' ' { i + 1 } else { i };
                in_ws = !in_ws;
            }
        }
        if start < text.len() {
            self.tokenize_span(&text[start..], &mut out);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::tokenizer;

    fn toks(s: &str) -> Vec<&str> {
        tokenizer().tokens(s)
    }

    #[test]
    fn matches_spacy_on_answer_like_text() {
        // Expected values: spaCy 3.8.18, `[t.text for t in spacy.blank("en")(s)]`.
        assert_eq!(toks("I'm not sure"), ["I", "'m", "not", "sure"]);
        assert_eq!(
            toks("x + 5 = 10, so x = 5"),
            ["x", "+", "5", "=", "10", ",", "so", "x", "=", "5"]
        );
        assert_eq!(
            toks("So he has 20 - y apples left"),
            ["So", "he", "has", "20", "-", "y", "apples", "left"]
        );
        assert_eq!(
            toks("well-known miles/hour 5kg 3pm cannot won't Let's"),
            [
                "well", "-", "known", "miles", "/", "hour", "5", "kg", "3", "pm", "can", "not",
                "wo", "n't", "Let", "'s"
            ]
        );
        assert_eq!(toks("a  b\tc"), ["a", " ", "b", "\t", "c"]);
        assert_eq!(toks("x*(y+8)"), ["x*(y+8", ")"]);
        assert_eq!(toks(":P (:) xD"), [":P", "(", ":)", "xD"]);
        assert_eq!(
            toks("Weng earns $12 an hour"),
            ["Weng", "earns", "$", "12", "an", "hour"]
        );
        assert_eq!(
            toks("The total is 3 * (b + 2) dollars"),
            ["The", "total", "is", "3", "*", "(", "b", "+", "2", ")", "dollars"]
        );
        assert_eq!(
            toks("So the answer is 2x+3"),
            ["So", "the", "answer", "is", "2x+3"]
        );
        assert_eq!(
            toks("\"Hello,\" she said"),
            ["\"", "Hello", ",", "\"", "she", "said"]
        );
        assert_eq!(toks("John's 5+3"), ["John", "'s", "5", "+", "3"]);
        assert!(toks("").is_empty());
    }

    #[test]
    fn fast_path_tables_are_what_the_patterns_say() {
        let t = tokenizer();
        // Spot checks: "," and ")" are whole suffixes anywhere; "." and "+" and "%" are not.
        for c in [',', ')', '"', '!', '?', ';', ':'] {
            assert!(t.suffix_ascii[c as usize], "{c}");
        }
        for c in ['.', '+', '%', '$', 'a', '5', 's'] {
            assert!(!t.suffix_ascii[c as usize], "{c}");
        }
        assert_eq!(t.prefix_ascii['(' as usize], Some(1));
        assert_eq!(t.prefix_ascii['a' as usize], Some(0));
        assert_eq!(t.prefix_ascii['+' as usize], None);
        assert_eq!(toks("+5 +x"), ["+5", "+", "x"]);
        assert_eq!(
            toks("..x US$5 C$3 Cat A$ Ax . ( ..."),
            ["..", "x", "US$", "5", "C$", "3", "Cat", "A$", "Ax", ".", "(", "..."]
        );
        // Every ASCII prefix decision equals the pattern's.
        for a in 0u8..128 {
            for b in [b'a', b'5', b'.', b'$', b'S', b' '] {
                let s = String::from_utf8(vec![a, b, b'$', b'x']).unwrap();
                assert_eq!(t.find_prefix(&s), t.find_prefix_regex(&s), "{s:?}");
            }
        }
    }

    #[test]
    fn long_inputs_are_linear() {
        let s = ")".repeat(20_000);
        assert_eq!(toks(&s).len(), 20_000);
        let s = "a-".repeat(10_000);
        assert!(!toks(&s).is_empty());
    }
}
