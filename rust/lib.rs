//! Core of `matheval_fast`: everything that touches every response, in pure Rust.
//!
//! The crate has no Python in it unless the `python` feature is on; then `bindings` adds the
//! thin PyO3 layer that builds `matheval_fast._core`. `cargo test` runs without an interpreter.
//!
//! Module map (one concern each):
//! - [`error`]: the one error enum of the core; [`names`]: the `str_enum!` macro that names enums.
//! - [`verdict`]: protocol A's vocabulary (modes, policies, kinds, reasons, paths, the verdict).
//! - [`extract`]: final-answer extraction (anchors, boxes, math spans, last number).
//! - [`scan`]: scanners shared by number, latex and extract (braces, boxes, digit groups).
//! - [`number`]: number literals and rounding-aware numeric comparison.
//! - [`xwin`]: the seed tool's algorithm, quirks included (`compat="xwin"`).
//! - [`latex`]: LaTeX / plain-math parser to an expression tree (positions, budgets).
//! - [`equiv`]: answer-level equivalence of two extracted answers (fixed mode).
//! - [`gold`]: golds that are worked solutions reduced to their answer (the frameworks' rule).
//! - [`declines`]: golds that say a question has no answer, and responses that decline.
//! - [`check`]: the single-item checker (dispatch to the seed emulation or the fixed mode).
//! - [`choice`]: multiple-choice letters, when the gold is a choice.
//! - [`batch`]: rayon drivers over owned inputs.
//! - [`records`]: named fields out of JSON Lines (evaluation logs), in parallel, skipping the rest.
//! - [`stats`]: Siegel–Tukey test, Cohen's kappa, confusion metrics, Wilson intervals (protocol D).
//! - [`units`]: quantities with units in golds and answers (`5 cm` against `500 mm`).
//! - [`unanswerable`]: protocol B, UMWP / SelfAware unanswerable-problem detection.

pub mod answer_words;
pub mod batch;
pub mod check;
pub mod choice;
pub mod column;
pub mod config;
pub mod declines;
pub mod equiv;
pub mod error;
pub mod extract;
pub mod gold;
pub mod json_out;
pub mod latex;
mod names;
pub mod number;
pub mod polarity;
pub mod records;
pub mod scan;
pub mod stats;
pub mod unanswerable;
pub mod units;
pub mod verdict;
mod work;
pub mod xwin;

#[cfg(feature = "python")]
mod bindings;

pub use error::{Error, Result};

/// The extension module's allocator (see `Cargo.toml`: glibc's per-thread arenas on the batch
/// threads). Only with the binding layer: `cargo test` and Rust users keep their own.
#[cfg(feature = "python")]
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;
