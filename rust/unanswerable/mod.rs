//! Protocol B: unanswerable-problem detection as UMWP's `eval.py` (Sun et al., LREC-COLING 2024)
//! and SelfAware's `eval_model.py` (Yin et al., Findings of ACL 2023) compute it, quirks included
//! and each one a named switch of [`Options`] (faithful by default, see [`Options::preset`]).
//!
//! An output is predicted unanswerable ("U") when a normalised reference sentence occurs in it
//! (SelfAware's exact-substring pre-check), or when the best cosine between one of its word
//! windows and a reference sentence is above the threshold (the embedding model runs outside the
//! core: [`prepare`] returns the distinct windows to embed, [`decide`] takes the best cosine of
//! each), or when UMWP's math-expression rule fires on one of the last three split items.
//!
//! - [`split`]: the sentence splitters and the query windows;
//! - [`tokenize`]: spaCy's blank English tokenizer, reimplemented;
//! - [`dictionary`]: the Hunspell en_US check plus UMWP's extra words (Enchant's case folding);
//! - [`math`]: the math-expression rule;
//! - [`metrics`]: outcomes, confusion counts, precision / recall / F1 / Acc.

pub mod dictionary;
pub mod math;
pub mod metrics;
pub mod split;
pub mod tokenize;

use std::sync::OnceLock;

use std::hash::{BuildHasher, BuildHasherDefault};

use hashbrown::HashTable;
use rayon::prelude::*;
use rustc_hash::FxHasher;
use serde::Deserialize;

pub use dictionary::ExtraWords;
pub use math::{CapitalI, EqualsSign, MathOptions};
pub use metrics::{AccRule, Counts, Gold, Metrics, Outcome};

use crate::error::{Error, Result};
use crate::names::str_enum;

/// Which script's settings [`Options::preset`] starts from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Preset {
    Umwp,
    SelfAware,
}
str_enum!(Preset, "preset" { Umwp => "umwp", SelfAware => "selfaware" });

/// The reference sentences U.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ReferenceSet {
    /// UMWP's list as Python parses it: 22 strings, two pairs merged by missing commas
    /// ("It is impossible to determine.It is difficult to predict.", "I'm unable to
    /// determine.This problem cannot be answered.").
    UmwpAsParsed,
    /// UMWP's list as written: 24 sentences, one per line.
    UmwpAsWritten,
    /// SelfAware's 16 sentences.
    SelfAware,
}
str_enum!(ReferenceSet, "references" {
    UmwpAsParsed => "umwp_as_parsed",
    UmwpAsWritten => "umwp_as_written",
    SelfAware => "selfaware",
});

/// What an output that is empty after stripping counts as.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EmptyOutput {
    /// Scored like any output (UMWP): not U, so an FN on an unanswerable item.
    Scored,
    /// Skipped (SelfAware): counted in the answerable / unanswerable totals, never as TP, FP, FN
    /// or an Acc hit.
    Skipped,
}
str_enum!(EmptyOutput, "empty_output" { Scored => "scored", Skipped => "skipped" });

/// Every switch of the protocol. [`Options::preset`] gives each script's own settings.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Options {
    /// Words per query window (UMWP 6, SelfAware 5); stride 1, a shorter piece is one query.
    pub window: usize,
    /// A newline splits sentences (UMWP yes, SelfAware no).
    pub split_newlines: bool,
    /// Pieces are stripped and empty ones dropped before the "at least 2 characters" check
    /// (UMWP); SelfAware checks the raw piece, so " x" passes and gives an empty query.
    pub strip_pieces: bool,
    /// The whole output is stripped and lower-cased first (SelfAware).
    pub normalise_output: bool,
    /// Which reference sentences.
    pub references: ReferenceSet,
    /// References lower-cased, stripped and without one trailing ASCII punctuation character
    /// (SelfAware); UMWP compares them as written (casing and final period kept).
    pub normalise_references: bool,
    /// An output containing a reference (after normalisation) is U without the model (SelfAware).
    pub substring_precheck: bool,
    /// Empty outputs.
    pub empty_output: EmptyOutput,
    /// The math-expression rule runs (UMWP).
    pub math_rule: bool,
    /// How many split items from the end the math rule looks at (delimiters count): 3.
    pub math_items: usize,
    /// The math rule's switches.
    pub math: MathOptions,
    /// Which "Acc" rule.
    pub acc: AccRule,
    /// U when the best cosine is strictly greater than this (both scripts: 0.75).
    pub threshold: f64,
}

impl Options {
    /// The settings of UMWP's `eval.py` or SelfAware's `eval_model.py`.
    pub fn preset(preset: Preset) -> Self {
        match preset {
            Preset::Umwp => Self {
                window: 6,
                split_newlines: true,
                strip_pieces: true,
                normalise_output: false,
                references: ReferenceSet::UmwpAsParsed,
                normalise_references: false,
                substring_precheck: false,
                empty_output: EmptyOutput::Scored,
                math_rule: true,
                math_items: 3,
                math: MathOptions::default(),
                acc: AccRule::LastPiecesNumber,
                threshold: 0.75,
            },
            Preset::SelfAware => Self {
                window: 5,
                split_newlines: false,
                strip_pieces: false,
                normalise_output: true,
                references: ReferenceSet::SelfAware,
                normalise_references: true,
                substring_precheck: true,
                empty_output: EmptyOutput::Skipped,
                math_rule: false,
                math_items: 3,
                math: MathOptions::default(),
                acc: AccRule::AliasSubstring,
                threshold: 0.75,
            },
        }
    }

    /// Errors for values outside their domain.
    pub fn validate(&self) -> Result<()> {
        if self.window == 0 {
            return Err(Error::InvalidValue("window must be at least 1 word".into()));
        }
        if !self.threshold.is_finite() {
            return Err(Error::InvalidValue(format!(
                "threshold must be a finite number, got {}",
                self.threshold
            )));
        }
        Ok(())
    }
}

#[derive(Deserialize)]
struct ReferenceFile {
    #[serde(default)]
    as_parsed: Vec<String>,
    as_written: Vec<String>,
}

fn reference_files() -> &'static (ReferenceFile, ReferenceFile) {
    static R: OnceLock<(ReferenceFile, ReferenceFile)> = OnceLock::new();
    R.get_or_init(|| {
        let parse =
            |s: &str| serde_json::from_str::<ReferenceFile>(s).expect("bundled references parse");
        (
            parse(include_str!("../../data/umwp/reference_sentences_U.json")),
            parse(include_str!(
                "../../data/selfaware/reference_sentences_U.json"
            )),
        )
    })
}

/// SelfAware's `remove_punctuation`: strip, lower-case, drop one trailing character of Python's
/// `string.punctuation`.
pub fn normalise_reference(s: &str) -> String {
    let mut out = split::py_strip(s).to_lowercase();
    if out.ends_with(|c: char| c.is_ascii_punctuation()) {
        out.pop();
    }
    out
}

/// The reference sentences `opts` compares against, in the scripts' order.
pub fn references(opts: &Options) -> Vec<String> {
    let (umwp, selfaware) = reference_files();
    let raw = match opts.references {
        ReferenceSet::UmwpAsParsed => &umwp.as_parsed,
        ReferenceSet::UmwpAsWritten => &umwp.as_written,
        ReferenceSet::SelfAware => &selfaware.as_written,
    };
    if opts.normalise_references {
        raw.iter().map(|s| normalise_reference(s)).collect()
    } else {
        raw.clone()
    }
}

/// Where the math rule fired: the item (0 = last split item) and its longest expression.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MathHit {
    pub item_from_end: usize,
    pub item: String,
    pub expression: String,
}

/// Everything about one output that does not need the model.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Analysis {
    /// Empty after stripping.
    pub empty: bool,
    /// Skipped under [`EmptyOutput::Skipped`]: nothing else was computed.
    pub skipped: bool,
    /// Index of the first reference found as a substring (pre-check), if any.
    pub substring: Option<usize>,
    /// The item's query windows, as indexes into [`Prepared::queries`] (empty when the
    /// pre-check fired: the script makes no model call then).
    pub windows: Vec<u32>,
    /// The math rule's hit, if it fired.
    pub math: Option<MathHit>,
    /// UMWP Acc: the numbers in the last three items (newlines as spaces).
    pub numbers: Vec<f64>,
}

/// A batch after the model-free part: per-item analyses, the distinct query windows of the
/// whole batch (each embedded once), and the reference sentences.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Prepared {
    pub items: Vec<Analysis>,
    pub queries: Vec<String>,
    pub references: Vec<String>,
}

fn numbers(text: &str) -> Vec<f64> {
    static NUM: OnceLock<regex::Regex> = OnceLock::new();
    let re = NUM.get_or_init(|| regex::Regex::new(r"-?\d+(?:\.\d+)?").expect("number regex"));
    // The script replaces newlines by spaces first: then they neither split nor survive the
    // strip, and no number spans whitespace, so scanning the raw text without newline splits
    // finds the same numbers.
    let tail: String = split::last_stripped(text, false, 3).concat();
    re.find_iter(&tail).map(|m| py_float(m.as_str())).collect()
}

/// Python's `float()` of a match of `-?\d+(?:\.\d+)?`: like Python's `re`, the regex's `\d`
/// is every Unicode decimal digit (full-width `１２`, Arabic-Indic `١٢`, ...), and `float()`
/// reads each as its value, so the script's Acc counts `１２` as 12.
fn py_float(s: &str) -> f64 {
    if s.is_ascii() {
        return s.parse().unwrap_or(f64::NAN);
    }
    let ascii: String = s
        .chars()
        .map(|c| match c {
            '-' | '.' | '0'..='9' => c,
            _ => char::from(b'0' + unicode_digit_value(c)),
        })
        .collect();
    ascii.parse().unwrap_or(f64::NAN)
}

/// The value of a Unicode decimal digit (general category Nd). Unicode encodes every decimal
/// digit set as ten consecutive code points from zero to nine (and adjacent sets, such as the
/// mathematical digits, each start with their zero), so the value is the digit's distance from
/// the start of its run of digits, modulo ten.
fn unicode_digit_value(c: char) -> u8 {
    static DIGIT: OnceLock<regex::Regex> = OnceLock::new();
    let re = DIGIT.get_or_init(|| regex::Regex::new(r"^\d$").expect("digit regex"));
    let is_digit =
        |cp: u32| char::from_u32(cp).is_some_and(|d| re.is_match(d.encode_utf8(&mut [0; 4])));
    let mut cp = c as u32;
    let mut back = 0u32;
    while cp > 0 && is_digit(cp - 1) {
        cp -= 1;
        back += 1;
    }
    (back % 10) as u8
}

/// The model-free analysis of one output; `windows` receives its query strings.
pub fn analyse(
    text: &str,
    refs: &[String],
    opts: &Options,
    windows: &mut split::Windows,
) -> Analysis {
    analyse_pieces(text, refs, opts, &mut |p: &str| {
        split::windows_into(p, opts.window, windows)
    })
}

/// [`analyse`], handing each piece that gives windows (in order) to `on_piece` instead: its
/// windows are `split::windows_into(piece, opts.window, ..)`, so a caller can reuse those of a
/// piece it has seen before.
pub fn analyse_pieces(
    text: &str,
    refs: &[String],
    opts: &Options,
    on_piece: &mut dyn FnMut(&str),
) -> Analysis {
    let mut a = Analysis::default();
    let normalised;
    let text = if opts.normalise_output {
        normalised = split::py_strip(text).to_lowercase();
        normalised.as_str()
    } else {
        text
    };
    a.empty = split::py_strip(text).is_empty();
    if a.empty && opts.empty_output == EmptyOutput::Skipped {
        a.skipped = true;
        return a;
    }
    if opts.substring_precheck {
        a.substring = refs.iter().position(|r| text.contains(r.as_str()));
    }
    let pieces = if opts.strip_pieces {
        split::split_stripped(text, opts.split_newlines)
    } else {
        split::split_raw(text, opts.split_newlines)
    };
    if a.substring.is_none() {
        for p in pieces.iter().filter(|p| split::at_least_two_chars(p)) {
            on_piece(p);
        }
    }
    if opts.math_rule {
        let items: Vec<&str> = if opts.strip_pieces {
            pieces.clone()
        } else {
            split::split_stripped(text, opts.split_newlines)
        };
        a.math = split::last_items(&items, opts.math_items).find_map(|(i, item)| {
            math::longest_variable_expression(item, &opts.math).map(|e| MathHit {
                item_from_end: i,
                item: item.to_string(),
                expression: e,
            })
        });
    }
    if opts.acc == AccRule::LastPiecesNumber {
        a.numbers = numbers(text);
    }
    a
}

fn fx_hash(s: &str) -> u64 {
    BuildHasherDefault::<FxHasher>::default().hash_one(s)
}

/// Outputs per chunk of [`prepare`]'s parallel phase: enough chunks for every thread to take a
/// share, each large enough that its own dedup removes most repeats before the sequential merge.
fn chunk_len(n: usize) -> usize {
    (n / (4 * rayon::current_num_threads().max(1))).clamp(64, 16_384)
}

/// One chunk after the parallel phase: its analyses (window ids local to the chunk) and its
/// distinct windows in first-seen order, with their hashes.
struct Chunk {
    items: Vec<Analysis>,
    distinct: split::Windows,
    hashes: Vec<u64>,
}

/// Analyse a run of outputs and dedup their windows locally. Pieces repeat across outputs (a
/// restated question, a closing phrase): a piece seen before in the chunk reuses its window ids
/// (its windows depend on nothing else) instead of being lower-cased, split and hashed again.
fn prepare_chunk<S: AsRef<str>>(texts: &[S], refs: &[String], opts: &Options) -> Chunk {
    let mut table: HashTable<u32> = HashTable::new();
    let mut distinct = split::Windows::default();
    let mut hashes: Vec<u64> = Vec::new();
    // Seen pieces: `piece_keys.get(k)` is piece k, its window ids `ids[piece_ids[k].0..].1`.
    let mut piece_table: HashTable<u32> = HashTable::new();
    let mut piece_keys = split::Windows::default();
    let mut piece_hashes: Vec<u64> = Vec::new();
    let mut piece_ids: Vec<(u32, u32)> = Vec::new();
    let mut ids: Vec<u32> = Vec::new();
    let mut w = split::Windows::default();
    let mut items = Vec::with_capacity(texts.len());
    for t in texts {
        let mut mine: Vec<u32> = Vec::new();
        let mut a = analyse_pieces(t.as_ref(), refs, opts, &mut |p: &str| {
            let ph = fx_hash(p);
            if let Some(&k) = piece_table.find(ph, |&k| piece_keys.get(k as usize) == p) {
                let (a, b) = piece_ids[k as usize];
                mine.extend_from_slice(&ids[a as usize..b as usize]);
                return;
            }
            w.clear();
            split::windows_into(p, opts.window, &mut w);
            let start = ids.len();
            for s in w.iter() {
                let h = fx_hash(s);
                let q = if let Some(&q) = table.find(h, |&q| distinct.get(q as usize) == s) {
                    q
                } else {
                    let q = u32::try_from(distinct.len()).expect("fewer than 2**32 windows");
                    distinct.push(s);
                    hashes.push(h);
                    table.insert_unique(h, q, |&q| hashes[q as usize]);
                    q
                };
                ids.push(q);
                mine.push(q);
            }
            let k = u32::try_from(piece_keys.len()).expect("fewer than 2**32 pieces");
            piece_keys.push(p);
            piece_hashes.push(ph);
            let span = |i: usize| u32::try_from(i).expect("fewer than 2**32 window ids");
            piece_ids.push((span(start), span(ids.len())));
            piece_table.insert_unique(ph, k, |&k| piece_hashes[k as usize]);
        });
        a.windows = mine;
        items.push(a);
    }
    Chunk {
        items,
        distinct,
        hashes,
    }
}

/// The model-free part of a batch, in parallel (call inside the pool you want): analyses, and
/// the distinct windows of all outputs in first-seen order. Chunks of outputs are analysed and
/// deduplicated in parallel; the sequential merge only sees each chunk's distinct windows (in
/// chunk order, each chunk's in its first-seen order, which is the global first-seen order), and
/// the local ids are rewritten in parallel.
pub fn prepare<S: AsRef<str> + Sync>(texts: &[S], opts: &Options) -> Result<Prepared> {
    opts.validate()?;
    let refs = references(opts);
    let chunks: Vec<Chunk> = texts
        .par_chunks(chunk_len(texts.len()))
        .map(|c| prepare_chunk(c, &refs, opts))
        .collect();
    let mut table: HashTable<u32> = HashTable::new();
    let mut hashes: Vec<u64> = Vec::new();
    let mut queries: Vec<String> = Vec::new();
    let maps: Vec<Vec<u32>> = chunks
        .iter()
        .map(|c| {
            c.distinct
                .iter()
                .zip(&c.hashes)
                .map(|(w, &h)| {
                    if let Some(&q) = table.find(h, |&q| queries[q as usize] == w) {
                        return q;
                    }
                    let q = u32::try_from(queries.len()).expect("fewer than 2**32 windows");
                    queries.push(w.to_string());
                    hashes.push(h);
                    table.insert_unique(h, q, |&q| hashes[q as usize]);
                    q
                })
                .collect()
        })
        .collect();
    let items: Vec<Analysis> = chunks
        .into_par_iter()
        .zip(maps)
        .flat_map_iter(|(c, map)| {
            c.items.into_iter().map(move |mut a| {
                for q in &mut a.windows {
                    *q = map[*q as usize];
                }
                a
            })
        })
        .collect();
    Ok(Prepared {
        items,
        queries,
        references: refs,
    })
}

/// Which test decided an output.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DecidedBy {
    /// A reference occurs in the output (SelfAware pre-check).
    Substring,
    /// Best cosine above the threshold.
    Similarity,
    /// The math-expression rule.
    MathExpression,
    /// No test fired: predicted answerable.
    NoTest,
    /// Empty output, skipped.
    SkippedEmpty,
}
str_enum!(DecidedBy, "decided_by" {
    Substring => "substring",
    Similarity => "similarity",
    MathExpression => "math_expression",
    NoTest => "none",
    SkippedEmpty => "skipped_empty",
});

/// The prediction for one output.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Decision {
    pub unanswerable: bool,
    pub decided_by: DecidedBy,
    /// Best cosine over the output's windows (0 when it has none, as the scripts' `[0]`);
    /// NaN when the model was not consulted (skipped or pre-check).
    pub score: f64,
    /// The window (index into [`Prepared::queries`]) that gave `score`, first one on ties.
    pub best_window: Option<u32>,
    /// Similarity alone would predict U.
    pub similarity_fired: bool,
}

/// Combine one analysis with the best cosine of each distinct query (`best[q]`).
pub fn decide(a: &Analysis, best: &[f64], opts: &Options) -> Result<Decision> {
    if a.skipped {
        return Ok(Decision {
            unanswerable: false,
            decided_by: DecidedBy::SkippedEmpty,
            score: f64::NAN,
            best_window: None,
            similarity_fired: false,
        });
    }
    if a.substring.is_some() {
        return Ok(Decision {
            unanswerable: true,
            decided_by: DecidedBy::Substring,
            score: f64::NAN,
            best_window: None,
            similarity_fired: false,
        });
    }
    let mut score = 0.0;
    let mut best_window = None;
    for &w in &a.windows {
        let s = *best.get(w as usize).ok_or_else(|| {
            Error::Shape(format!(
                "window {w} has no score ({} scores given)",
                best.len()
            ))
        })?;
        if best_window.is_none() || s > score {
            score = s;
            best_window = Some(w);
        }
    }
    let similarity_fired = score > opts.threshold;
    let (unanswerable, decided_by) = if similarity_fired {
        (true, DecidedBy::Similarity)
    } else if a.math.is_some() {
        (true, DecidedBy::MathExpression)
    } else {
        (false, DecidedBy::NoTest)
    };
    Ok(Decision {
        unanswerable,
        decided_by,
        score,
        best_window,
        similarity_fired,
    })
}

#[cfg(test)]
mod tests;
