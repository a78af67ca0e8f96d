//! Sequential `str::replace` of a list of patterns, skipping the patterns that cannot occur.
//!
//! The normalisers run a dozen `replace` calls on every short answer; each builds a substring
//! searcher and a new `String` even when nothing matches, and almost nothing does. [`replace_each`]
//! gives exactly what the chain of `replace` calls gives: a pattern is replaced, in list order, on
//! the text as the earlier replacements left it; it is skipped only when a byte of it is absent
//! from the text, or when the text has no backslash followed by the byte that follows a backslash
//! in the pattern (both are recomputed after every replacement that changed the text).

/// Which bytes occur in a text, and which occur right after a backslash.
struct Bytes {
    any: [u64; 4],
    after_backslash: [u64; 4],
}

fn set(bits: &mut [u64; 4], b: u8) {
    bits[(b >> 6) as usize] |= 1 << (b & 63);
}

fn has(bits: &[u64; 4], b: u8) -> bool {
    bits[(b >> 6) as usize] & (1 << (b & 63)) != 0
}

impl Bytes {
    fn of(t: &str) -> Self {
        let mut out = Bytes {
            any: [0; 4],
            after_backslash: [0; 4],
        };
        let mut prev = 0u8;
        for &b in t.as_bytes() {
            set(&mut out.any, b);
            if prev == b'\\' {
                set(&mut out.after_backslash, b);
            }
            prev = b;
        }
        out
    }

    /// Can `pat` occur in the text? (False only when it cannot.)
    fn may_contain(&self, pat: &str) -> bool {
        let p = pat.as_bytes();
        p.iter().all(|&b| has(&self.any, b))
            && p.windows(2)
                .all(|w| w[0] != b'\\' || has(&self.after_backslash, w[1]))
    }
}

/// `t.replace(p0, r0).replace(p1, r1)...` for `(p, r)` in `pats`, in order; only the patterns that
/// may occur are searched for.
pub fn replace_each(t: String, pats: &[(&str, &str)]) -> String {
    let mut t = t;
    let mut bytes = Bytes::of(&t);
    for &(p, r) in pats {
        if p.is_empty() || !bytes.may_contain(p) {
            continue;
        }
        let next = t.replace(p, r);
        if next != t {
            t = next;
            bytes = Bytes::of(&t);
        }
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const PATS: &[(&str, &str)] = &[
        ("\\left", ""),
        ("\\right", ""),
        ("\\dfrac", "\\frac"),
        ("\\,", ""),
        ("\\(", ""),
        ("$", ""),
        ("^\\circ", ""),
        (",\\!", ","),
        ("\\%", "%"),
    ];

    fn chain(s: &str) -> String {
        PATS.iter().fold(s.to_string(), |t, (p, r)| t.replace(p, r))
    }

    #[test]
    fn replacements_that_make_a_later_match_are_kept() {
        // `\,` removed makes `\(`, which a later pattern removes; `\left` made after its turn stays.
        for s in [
            "\\\\,(",
            "\\lef\\,t",
            "$\\dfrac12$",
            "x^\\circ",
            "1,\\!000\\%",
            "plain 18",
        ] {
            assert_eq!(replace_each(s.to_string(), PATS), chain(s), "{s:?}");
        }
    }

    proptest! {
        #[test]
        fn equals_the_chain_of_replace(s in r"(\\|left|right|dfrac|,|\(|\$|\^|circ|!|%|x|1| |é)*") {
            prop_assert_eq!(replace_each(s.clone(), PATS), chain(&s));
        }
    }
}
