//! Outcomes and metrics: unanswerable is the positive class; precision, recall and F1 are 0 when
//! their denominator is 0; "Acc" follows one of the two scripts.

use super::{split, Analysis, Decision};
use crate::names::str_enum;

/// Which "Acc" (answerable items only; denominator: every answerable item).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AccRule {
    /// UMWP: only an item *not* predicted U can score; the last three split items of the output
    /// (newlines read as spaces) joined last-first, every signed integer / decimal pulled out, and
    /// the float gold must be among them.
    LastPiecesNumber,
    /// SelfAware: some gold alias (stripped, lower-cased) occurs in the output, whatever the
    /// prediction.
    AliasSubstring,
}
str_enum!(AccRule, "acc" {
    LastPiecesNumber => "last_pieces_number",
    AliasSubstring => "alias_substring",
});

/// The gold of one item, as the Acc rule needs it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Gold<'a> {
    /// No gold (unanswerable items, or Acc not wanted).
    None,
    /// UMWP's `answer[0]`.
    Number(f64),
    /// SelfAware's alias list.
    Aliases(&'a [String]),
}

/// One item's place in the confusion table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Outcome {
    pub answerable: bool,
    pub predicted_unanswerable: bool,
    /// Left out of TP / FP / FN / Acc (SelfAware's empty outputs).
    pub skipped: bool,
    /// Counted as correct by the Acc rule.
    pub acc_hit: bool,
}

impl Outcome {
    /// "tp", "fp", "fn", "tn" or "skipped".
    pub fn cell(&self) -> &'static str {
        match (self.skipped, self.answerable, self.predicted_unanswerable) {
            (true, _, _) => "skipped",
            (false, false, true) => "tp",
            (false, false, false) => "fn",
            (false, true, true) => "fp",
            (false, true, false) => "tn",
        }
    }
}

/// The outcome of one item. `text` is the raw output (the alias rule normalises it itself).
pub fn outcome(
    a: &Analysis,
    d: &Decision,
    answerable: bool,
    gold: Gold<'_>,
    text: &str,
    rule: AccRule,
) -> Outcome {
    let mut o = Outcome {
        answerable,
        predicted_unanswerable: d.unanswerable,
        skipped: a.skipped,
        acc_hit: false,
    };
    if answerable && !a.skipped {
        o.acc_hit = match (rule, gold) {
            (AccRule::LastPiecesNumber, Gold::Number(g)) => {
                !d.unanswerable && a.numbers.contains(&g)
            }
            (AccRule::AliasSubstring, Gold::Aliases(aliases)) => {
                let out = split::py_strip(text).to_lowercase();
                aliases
                    .iter()
                    .any(|al| out.contains(split::py_strip(al).to_lowercase().as_str()))
            }
            _ => false,
        };
    }
    o
}

/// Confusion counts (unanswerable = positive).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Counts {
    pub items: u64,
    pub answerable: u64,
    pub unanswerable: u64,
    pub tp: u64,
    pub fp: u64,
    pub fn_: u64,
    pub tn: u64,
    pub skipped: u64,
    pub acc_hits: u64,
}

/// Precision, recall, F1 and Acc of a [`Counts`].
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Metrics {
    pub precision: f64,
    pub recall: f64,
    pub f1: f64,
    /// Acc hits over answerable items (0 when there are none; the scripts divide by zero).
    pub acc: f64,
}

fn ratio(n: u64, d: u64) -> f64 {
    if d == 0 {
        0.0
    } else {
        n as f64 / d as f64
    }
}

impl Counts {
    pub fn add(&mut self, o: &Outcome) {
        self.items += 1;
        if o.answerable {
            self.answerable += 1;
        } else {
            self.unanswerable += 1;
        }
        match o.cell() {
            "tp" => self.tp += 1,
            "fp" => self.fp += 1,
            "fn" => self.fn_ += 1,
            "tn" => self.tn += 1,
            _ => self.skipped += 1,
        }
        self.acc_hits += u64::from(o.acc_hit);
    }

    pub fn metrics(&self) -> Metrics {
        let precision = ratio(self.tp, self.tp + self.fp);
        let recall = ratio(self.tp, self.tp + self.fn_);
        let f1 = if precision + recall > 0.0 {
            2.0 * precision * recall / (precision + recall)
        } else {
            0.0
        };
        Metrics {
            precision,
            recall,
            f1,
            acc: ratio(self.acc_hits, self.answerable),
        }
    }
}
