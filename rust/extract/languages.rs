//! The words of the anchors' languages (English, French, Spanish, German, Chinese, Japanese,
//! Russian) that decide what follows an anchor: words that make a sentence about the answer rather
//! than the answer, and the connectives that end an anchored number ("12, not 15", "30 en 2 días").

/// A Han character, kana or the iteration marks: a word of Chinese or Japanese prose.
pub(super) fn is_cjk_word_char(c: char) -> bool {
    matches!(c as u32, 0x3040..=0x30FF | 0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0xF900..=0xFAFF)
}

/// Words that, right after an anchor, show the sentence is about the answer, not the answer.
pub(super) const NOT_AN_ANSWER: &[&str] = &[
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
pub(super) const CJK_ENDS: &[&str] = &["，", "；", "。", "！", "？", "です", "になります"];

/// Currency signs that may stand right after a number ("220 $", "15 €").
pub(super) const CURRENCY_AFTER: &[char] = &['$', '€', '£', '¥', '元'];

/// The first word of `s` (letters of any script), and whether it is whole (not glued to a digit).
pub(super) fn first_word(s: &str) -> (&str, bool) {
    let len: usize = s
        .chars()
        .take_while(|c| c.is_alphabetic())
        .map(char::len_utf8)
        .sum();
    let whole = s[len..].chars().next().is_none_or(|c| !c.is_alphanumeric());
    (&s[..len], whole)
}

pub(super) fn is_connective(rest: &str) -> bool {
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

#[cfg(test)]
mod tests {
    use crate::extract::ex;

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
}
