//! Work accounting for the linear-time tests: scanners report the bytes (or steps) they look at,
//! so a test tells a single pass (work grows like the input) from a rescan per position (work
//! grows like its square) without timing anything. Outside `cargo test` [`count`] is empty and
//! compiles to nothing.

#[cfg(test)]
thread_local! {
    static WORK: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// Add `units` (bytes looked at, or loop steps) to this thread's count (tests only).
#[inline(always)]
pub(crate) fn count(_units: usize) {
    #[cfg(test)]
    WORK.with(|w| w.set(w.get().saturating_add(_units as u64)));
}

/// Run `f` and return what it counted on this thread.
#[cfg(test)]
pub(crate) fn measure<R>(f: impl FnOnce() -> R) -> (R, u64) {
    let before = WORK.with(|w| w.get());
    let r = f();
    (r, WORK.with(|w| w.get()) - before)
}

#[cfg(test)]
mod tests {
    use super::measure;
    use crate::check::{check, CheckOptions, Input};
    use crate::verdict::{Compat, Kind};
    use proptest::prelude::*;

    /// Work of checking `make(n)` and `make(2n)` against `gold`, in each mode and checker.
    fn growth(resp: impl Fn(usize) -> String, gold: &str, n: usize) -> Vec<(String, u64, u64)> {
        let mut out = Vec::new();
        for compat in [Compat::Fixed, Compat::Xwin] {
            for kind in [Kind::Auto, Kind::Simple, Kind::Latex] {
                let o = CheckOptions {
                    compat,
                    kind,
                    ..CheckOptions::default()
                };
                let work = |size: usize| {
                    let text = resp(size);
                    measure(|| check(&text.as_str().into(), &Input::from(gold), &o)).1
                };
                out.push((format!("{compat:?}/{kind:?}"), work(n), work(2 * n)));
            }
        }
        out
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]
        /// Any short unit of the tokens that once took quadratic paths (boxes, fractions,
        /// delimiters, anchors, escapes), repeated: doubling the input at most doubles the work
        /// (plus a constant), in both modes and every checker. A rescan from each position would
        /// quadruple it.
        #[test]
        fn repeated_units_take_linear_work(
            unit in r"(\\boxed\{|\\fbox\{|\\mbox\{|\\frac\{1\}\{|\{|\}|\$|\\\$|\\\[|\\\(|\\\]|\\\)|####|The answer is |Answer: |Réponse : |la respuesta es |die Antwort |Antwort ist |答案是 |答え：|Ответ: |[0-9]|\.| |\\!|\\right\.|\\left\(|\x22|')[0-9a-z{}]{0,3}",
            reps in 1usize..4,
            gold in r"(5|\\frac12|x\+1|\(1, 2\))",
        ) {
            let unit = unit.repeat(reps);
            let n = 16_000 / unit.len().max(1);
            for (what, small, big) in growth(|k| unit.repeat(k) + "5", &gold, n) {
                prop_assert!(
                    big <= 2 * small + 4_096,
                    "{what} on {unit:?}: work {small} for {n} repeats, {big} for {}", 2 * n
                );
            }
        }
    }

    #[test]
    fn the_inputs_of_the_reliability_issue_take_linear_work() {
        type Make = fn(usize) -> String;
        let cases: [(&str, Make); 6] = [
            ("####", |n| "####".repeat(n)),
            ("\\$", |n| "\\$".repeat(n) + "5"),
            ("\\boxed{", |n| "\\boxed{".repeat(n)),
            ("\\mbox{", |n| "\\mbox{".repeat(n)),
            ("nested boxes", |n| {
                format!("{}5{}", "\\boxed{".repeat(n), "}".repeat(n))
            }),
            ("fractions", |n| {
                format!("${}1{}$", "\\frac{1}{".repeat(n), "}".repeat(n))
            }),
        ];
        for (name, make) in cases {
            for (what, small, big) in growth(make, "\\frac12", 3_000) {
                assert!(big <= 2 * small + 4_096, "{name} {what}: {small} -> {big}");
            }
        }
    }

    #[test]
    fn the_counter_sees_a_quadratic_scan() {
        // The test above is only as good as its counter: a rescan from every brace (what the
        // seed's box search does) must show as quadratic growth.
        let rescan = |text: &str| {
            for (i, _) in text.match_indices('{') {
                let _ = crate::scan::braces::matching_brace(text, i);
            }
        };
        let small = measure(|| rescan(&"{".repeat(1_000))).1;
        let big = measure(|| rescan(&"{".repeat(2_000))).1;
        assert!(big > 3 * small, "{small} -> {big}");
    }
}
