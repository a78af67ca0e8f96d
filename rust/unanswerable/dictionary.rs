//! The "common word" check of UMWP's math-expression rule without Enchant: a Hunspell-compatible
//! check (the `spellbook` crate) over the en_US dictionary of Debian's hunspell-en-us 2020.12.07
//! (vendored in `data/hunspell/`, SCOWL licence in `data/hunspell/COPYRIGHT`), plus UMWP's 206
//! extra words kept in memory, looked up as Enchant's personal word list looks them up.

use std::collections::HashSet;
use std::sync::OnceLock;

use serde::Deserialize;

use crate::names::str_enum;

const AFF: &str = include_str!("../../data/hunspell/en_US.aff");
const DIC: &str = include_str!("../../data/hunspell/en_US.dic");
const EXTRA: &str = include_str!("../../data/umwp/extra_dictionary_words.json");

/// Enchant's hunspell provider rejects words longer than this many bytes.
const MAX_WORD_LEN: usize = 100;

/// How the 206 extra words match a token.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ExtraWords {
    /// As Enchant's personal word list (`Dict.add`, the original): a lower-case entry also
    /// accepts its Title and UPPER forms, a Title entry its UPPER form.
    EnchantCase,
    /// Exact match only (what `Dict.add_to_session`-like exact sets do).
    Exact,
    /// The extra words are not used: the plain en_US dictionary.
    Off,
}
str_enum!(ExtraWords, "extra_words" {
    EnchantCase => "enchant_case",
    Exact => "exact",
    Off => "off",
});

#[derive(Deserialize)]
struct ExtraFile {
    names: Vec<String>,
    locations: Vec<String>,
    others: Vec<String>,
}

fn hunspell() -> &'static spellbook::Dictionary {
    static D: OnceLock<spellbook::Dictionary> = OnceLock::new();
    D.get_or_init(|| spellbook::Dictionary::new(AFF, DIC).expect("bundled en_US dictionary parses"))
}

/// UMWP's extra words (206 unique; the source lists "Julio" twice).
pub fn extra_words() -> &'static HashSet<String> {
    static W: OnceLock<HashSet<String>> = OnceLock::new();
    W.get_or_init(|| {
        let f: ExtraFile = serde_json::from_str(EXTRA).expect("bundled extra words parse");
        f.names
            .into_iter()
            .chain(f.locations)
            .chain(f.others)
            .collect()
    })
}

fn is_title_case(w: &str) -> bool {
    let mut cs = w.chars();
    cs.next().is_some_and(char::is_uppercase) && !cs.any(char::is_uppercase)
}

fn is_all_caps(w: &str) -> bool {
    w.chars().any(char::is_uppercase) && !w.chars().any(char::is_lowercase)
}

fn to_title(w: &str) -> String {
    let mut cs = w.chars();
    cs.next()
        .map(|c| {
            c.to_uppercase()
                .chain(cs.flat_map(char::to_lowercase))
                .collect()
        })
        .unwrap_or_default()
}

/// Enchant's personal-word-list lookup (`enchant_pwl_check`): exact; else, for a Title or UPPER
/// word, its lower-case form; else, for an UPPER word, its Title form.
fn extra_contains(word: &str, mode: ExtraWords) -> bool {
    let set = extra_words();
    match mode {
        ExtraWords::Off => false,
        ExtraWords::Exact => set.contains(word),
        ExtraWords::EnchantCase => {
            set.contains(word)
                || ((is_title_case(word) || is_all_caps(word))
                    && set.contains(&word.to_lowercase()))
                || (is_all_caps(word) && set.contains(&to_title(word)))
        }
    }
}

/// `enchant.Dict("en_US").check(word)` with the hunspell provider and UMWP's words added.
pub fn check(word: &str, mode: ExtraWords) -> bool {
    extra_contains(word, mode) || hunspell_check(word)
}

/// Entries of the per-thread cache of Hunspell verdicts before it is cleared (bounded memory).
const CACHE_LIMIT: usize = 1 << 16;

thread_local! {
    // Model outputs repeat the same words; a Hunspell lookup (affix stripping, case variants)
    // costs far more than a hash probe.
    static CACHE: std::cell::RefCell<rustc_hash::FxHashMap<Box<str>, bool>> =
        std::cell::RefCell::new(rustc_hash::FxHashMap::default());
}

fn hunspell_check(word: &str) -> bool {
    if word.len() > MAX_WORD_LEN {
        return false;
    }
    CACHE.with(|c| {
        if let Some(&v) = c.borrow().get(word) {
            return v;
        }
        let v = hunspell().check(word);
        let mut m = c.borrow_mut();
        if m.len() >= CACHE_LIMIT {
            m.clear();
        }
        m.insert(word.into(), v);
        v
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hunspell_case_rules_and_version() {
        assert!(check("apples", ExtraWords::Off));
        assert!(check("Apples", ExtraWords::Off));
        assert!(check("APPLES", ExtraWords::Off));
        assert!(!check("Weng", ExtraWords::EnchantCase));
        // Debian hunspell-en-us 2020.12.07 knows Tobias (aspell does not).
        assert!(check("Tobias", ExtraWords::Off));
        assert!(!check("tobias", ExtraWords::Off));
    }

    #[test]
    fn extra_words_fold_case_upward_only() {
        assert_eq!(extra_words().len(), 206);
        for (w, enchant, exact) in [
            ("legos", true, true),
            ("Legos", true, false),
            ("LEGOS", true, false),
            ("Abie", true, true),
            ("ABIE", true, false),
            ("abie", false, false),
            ("kgs", true, true),
            ("Albaszu", true, true),
            ("albaszu", false, false),
        ] {
            assert_eq!(check(w, ExtraWords::EnchantCase), enchant, "{w}");
            assert_eq!(check(w, ExtraWords::Exact), exact, "{w}");
        }
        assert!(!check("Albaszu", ExtraWords::Off));
    }
}
