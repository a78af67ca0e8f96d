//! The seed's `simple_answer_check` (GSM8K and default types) with Python `re` semantics.

use std::sync::OnceLock;

use regex::Regex;

use super::pyeval::py_eval;
use super::pynum::{isclose, py_eq, py_float, py_int, PyNum};
use super::{extract_answer, XwinError};
use crate::verdict::{EvalPolicy, ExtractPolicy};

/// The seed's five patterns in order. The `.` is unescaped (any character but newline) as in
/// the seed; `\s` gets Python's extra separators U+001C..U+001F, which `str.isspace()` counts.
fn patterns() -> &'static [Regex; 5] {
    static P: OnceLock<[Regex; 5]> = OnceLock::new();
    P.get_or_init(|| {
        let s = r"[\s\x1c-\x1f]";
        let mk = |p: String| Regex::new(&p).expect("static regex");
        [
            mk(r"-?\d(.\d+)?[eE][+-]?\d+".to_string()),
            mk(format!(r"-?\d+(.\d+)?{s}*[/:]{s}*\d+(.\d+)?")),
            mk(r"-?\d{1,3}(,\d{3})+(.\d+)?".to_string()),
            mk(format!(r"-?\d+{s}*[\./:]{s}*\d+")),
            mk(r"-?\d+".to_string()),
        ]
    })
}

/// `cast_to_number`.
fn cast_to_number(item: &str) -> Result<PyNum, XwinError> {
    let s = item.replace(':', "/");
    let has_dot = s.contains('.');
    let has_slash = s.contains('/');
    if !has_dot && !has_slash {
        return py_int(&s).map(PyNum::Int).ok_or(XwinError);
    }
    if !has_slash {
        let f = py_float(&s).ok_or(XwinError)?;
        if !f.is_finite() {
            return Err(XwinError); // int(float('inf')) raises
        }
        if (f.trunc() - f).abs() < 1e-10 {
            return super::pynum::float_to_bigint(f)
                .map(PyNum::Int)
                .ok_or(XwinError);
        }
        return Ok(PyNum::Float(f));
    }
    py_eval(&s).map_err(|_| XwinError)
}

/// `get_simple_numbers`: each pattern's matches in turn, deleting them before the next runs.
pub fn get_simple_numbers(text: &str) -> Result<Vec<PyNum>, XwinError> {
    // Fast path, same result: an optional '-' and ASCII digits match none of the first four
    // patterns (each needs one of `eE./:,` or a space) and the whole string is pattern five.
    let body = text.strip_prefix('-').unwrap_or(text);
    if !body.is_empty() && body.len() <= 18 && body.bytes().all(|c| c.is_ascii_digit()) {
        let v: i64 = text.parse().map_err(|_| XwinError)?;
        return Ok(vec![PyNum::Int(v.into())]);
    }
    let mut s = text.to_string();
    let mut out = Vec::new();
    for re in patterns() {
        for m in re.find_iter(&s) {
            out.push(cast_to_number(&m.as_str().replace(',', ""))?);
        }
        s = re.replace_all(&s, "").into_owned();
    }
    Ok(out)
}

/// `compare_numbers`: exact for two ints, else `isclose(rel_tol=1e-3)`; converting a huge int
/// to float raises OverflowError in the seed (uncaught).
fn compare_numbers(a: &PyNum, b: &PyNum) -> Result<bool, XwinError> {
    if let (PyNum::Int(x), PyNum::Int(y)) = (a, b) {
        return Ok(x == y);
    }
    let (x, y) = (a.to_f64().ok_or(XwinError)?, b.to_f64().ok_or(XwinError)?);
    Ok(isclose(x, y, 1e-3))
}

/// `list.remove(x)`: drop the first element `== x`.
fn py_remove(list: &mut Vec<PyNum>, x: &PyNum) {
    if let Some(i) = list.iter().position(|v| py_eq(v, x)) {
        list.remove(i);
    }
}

/// Outcome of the seed's `simple_answer_check` (true/false), the extracted answer, or the crash
/// the seed would have had.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SimpleOutcome {
    pub correct: bool,
    pub extracted: Option<String>,
    /// Both sides had numbers (numeric comparison) rather than a string comparison.
    pub numeric: bool,
}

/// `simple_answer_check(model, gt, extract_policy, eval_policy, split)`.
pub fn simple_answer_check(
    model: &str,
    gt: &str,
    extract_policy: ExtractPolicy,
    eval_policy: EvalPolicy,
    split: &[String],
) -> Result<SimpleOutcome, XwinError> {
    let Some(extracted) = extract_answer(model, split, extract_policy) else {
        return Ok(SimpleOutcome {
            correct: false,
            extracted: None,
            numeric: false,
        });
    };
    let ans = extracted
        .trim_end_matches('.')
        .trim_end_matches(' ')
        .trim_end_matches('\n')
        .trim_end_matches('.')
        .trim_end_matches(' ')
        .trim_end_matches('\n')
        .replace('$', "");
    let out = |correct: bool, numeric: bool| {
        Ok(SimpleOutcome {
            correct,
            extracted: Some(extracted.clone()),
            numeric,
        })
    };
    let (mut gl, mut ml) = match (get_simple_numbers(gt), get_simple_numbers(&ans)) {
        (Ok(g), Ok(m)) => (g, m),
        _ => return out(false, true), // the seed's try/except: any cast error is False
    };
    if gl.is_empty() && ml.is_empty() {
        let norm = |s: &str| s.replace(['\n', ' '], "").to_lowercase();
        return out(norm(&ans) == norm(gt), false);
    }
    if gl.is_empty() || ml.is_empty() {
        return out(false, true);
    }
    if eval_policy == EvalPolicy::Strict && gl.len() != ml.len() {
        return out(false, true);
    }
    'outer: while !gl.is_empty() && !ml.is_empty() {
        for gi in 0..gl.len() {
            for mi in 0..ml.len() {
                if compare_numbers(&ml[mi], &gl[gi])? {
                    let (m, g) = (ml[mi].clone(), gl[gi].clone());
                    py_remove(&mut ml, &m);
                    py_remove(&mut gl, &g);
                    continue 'outer;
                }
            }
        }
        break;
    }
    let correct = match eval_policy {
        EvalPolicy::Strict => gl.is_empty() && ml.is_empty(),
        EvalPolicy::ModelIncludeGt => gl.is_empty(),
        EvalPolicy::GtIncludeModel => ml.is_empty(),
        // The seed returns None (falsy) for policies it does not know.
        EvalPolicy::Aggressive | EvalPolicy::Conservative => false,
    };
    out(correct, true)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chk(m: &str, g: &str) -> bool {
        let sp = vec![
            "####".to_string(),
            "The answer is: ".to_string(),
            "The answer is".to_string(),
        ];
        simple_answer_check(
            &format!("The answer is: {m}"),
            g,
            ExtractPolicy::Flex,
            EvalPolicy::Strict,
            &sp,
        )
        .unwrap()
        .correct
    }

    #[test]
    fn verified_table() {
        assert!(chk("43.04", "43"));
        assert!(!chk("43.05", "43"));
        assert!(chk("1000.4", "1000"));
        assert!(chk("123500.5", "123456"));
        assert!(!chk("123500", "123456"));
        assert!(chk("1/3", "0.333"));
        assert!(chk("3:15", "0.2"));
        assert!(!chk("50%", "0.5"));
        assert!(!chk("1 2/3", "1.6667"));
        assert!(chk("2,125", "2,125"));
    }

    #[test]
    fn numbers_follow_the_pattern_order() {
        let v = get_simple_numbers("2023-11-23").unwrap();
        assert_eq!(v.len(), 3);
        assert!(get_simple_numbers("1e3").is_err());
    }
}
