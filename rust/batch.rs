//! Rayon batch drivers over owned inputs. The binding layer copies Python data into these
//! vectors, releases the GIL, and calls in here; single-item calls use the same `check`.
//!
//! Batch work runs in a pool this module owns, never in rayon's global pool: after `fork` the
//! child has none of its parent's threads, so a job sent to an inherited pool waits forever, and
//! rayon's global pool cannot be rebuilt. [`pool`] remembers which process built the shared pool
//! and builds a new one in a forked child.

use std::ops::Range;
use std::sync::{Arc, Mutex, PoisonError};

use rayon::prelude::*;
use rayon::{ThreadPool, ThreadPoolBuilder};

use crate::check::{check_cells, CheckOptions, Input};
use crate::column::{StringColumn, Texts};
use crate::error::{Error, Result};
use crate::verdict::{Kind, Verdict};

/// The pools built so far, by thread count (0: all cores), and the id of the process that built
/// them.
static SHARED: Mutex<Option<(u32, Vec<SizedPool>)>> = Mutex::new(None);

/// A pool and its thread count (0: all cores).
type SizedPool = (usize, Arc<ThreadPool>);

/// Pools of this many sizes at most are kept; another size gets a pool for its call only.
const KEPT_POOLS: usize = 8;

/// The pool for one batch call: `None` is one pool of all cores (`RAYON_NUM_THREADS` is
/// honoured), `Some(n)` one of `n` threads. Each size is built once per process and kept (a batch
/// of 800 items takes about as long as starting two threads), and built anew in a forked child.
pub fn pool(threads: Option<usize>) -> Result<Arc<ThreadPool>> {
    let build = |n: usize| {
        ThreadPoolBuilder::new()
            .num_threads(n)
            .thread_name(|i| format!("matheval-batch-{i}"))
            .build()
            .map(Arc::new)
            .map_err(|e| Error::InvalidValue(format!("cannot start batch threads: {e}")))
    };
    let size = match threads {
        Some(0) => return Err(Error::InvalidValue("threads must be at least 1".into())),
        Some(n) => n,
        None => 0,
    };
    let pid = std::process::id();
    let mut slot = SHARED.lock().unwrap_or_else(PoisonError::into_inner);
    if slot.as_ref().is_some_and(|(owner, _)| *owner != pid) {
        // The parent's pools: dropping them would wake threads this process does not have.
        if let Some(inherited) = slot.take() {
            std::mem::forget(inherited);
        }
    }
    let (_, pools) = slot.get_or_insert_with(|| (pid, Vec::new()));
    if let Some((_, p)) = pools.iter().find(|(n, _)| *n == size) {
        return Ok(Arc::clone(p));
    }
    let fresh = build(size)?;
    if pools.len() < KEPT_POOLS {
        pools.push((size, Arc::clone(&fresh)));
    }
    Ok(fresh)
}

/// Items per thread in one chunk of [`chunks`].
const CHUNK_ITEMS_PER_THREAD: usize = 32_768;
/// Input bytes (responses and golds) per thread in one chunk; work per item is linear in its size.
const CHUNK_BYTES_PER_THREAD: usize = 16 << 20;

/// Consecutive ranges covering `0..responses.len()`, each small enough to finish in well under a
/// second on `threads` threads, so a caller can look for interrupts between them.
pub fn chunks(responses: Texts<'_>, golds: Texts<'_>, threads: usize) -> Vec<Range<usize>> {
    let threads = threads.max(1);
    let (max_items, max_bytes) = (
        CHUNK_ITEMS_PER_THREAD * threads,
        CHUNK_BYTES_PER_THREAD * threads,
    );
    let n = responses.len();
    let gold_size = |i: usize| if i < golds.len() { golds.size(i) } else { 0 };
    let mut out = Vec::new();
    let (mut start, mut bytes) = (0, 0usize);
    for i in 0..n {
        bytes += responses.size(i) + gold_size(i);
        if i + 1 - start >= max_items || bytes >= max_bytes {
            out.push(start..i + 1);
            (start, bytes) = (i + 1, 0);
        }
    }
    if start < n {
        out.push(start..n);
    }
    out
}

/// Shape errors of a batch: golds and kinds (when given) must have one entry per response.
pub fn check_shapes(responses: usize, golds: usize, kinds: Option<usize>) -> Result<()> {
    if responses != golds {
        return Err(Error::Shape(format!(
            "responses and golds must have the same length, got {responses} and {golds}"
        )));
    }
    if let Some(k) = kinds {
        if k != responses {
            return Err(Error::Shape(format!(
                "kinds must have one entry per response, got {k} for {responses}"
            )));
        }
    }
    Ok(())
}

/// Check every (response, gold) pair on `pool`; `kinds` (one per item) overrides `opts.kind`.
pub fn check_batch(
    responses: &[Input],
    golds: &[Input],
    kinds: Option<&[Kind]>,
    opts: &CheckOptions,
    pool: &ThreadPool,
) -> Result<Vec<Verdict>> {
    check_shapes(responses.len(), golds.len(), kinds.map(<[Kind]>::len))?;
    Ok(check_range(
        Texts::Inputs(responses),
        Texts::Inputs(golds),
        0..responses.len(),
        kinds,
        opts,
        pool,
    ))
}

/// A batch's verdicts as columns, as the binding hands them to Python: one byte per item for
/// `correct` (0/1), `reason` and `path` (their codes), the extracted answers as an Arrow string
/// column, and the items only SymPy can decide, with their index (their entries are provisional).
#[derive(Debug, PartialEq)]
pub struct VerdictColumns {
    pub correct: Vec<u8>,
    pub reason: Vec<u8>,
    pub path: Vec<u8>,
    pub extracted: StringColumn,
    pub pending: Vec<(usize, Verdict)>,
}

impl VerdictColumns {
    pub fn with_capacity(n: usize, bytes: usize) -> Self {
        VerdictColumns {
            correct: Vec::with_capacity(n),
            reason: Vec::with_capacity(n),
            path: Vec::with_capacity(n),
            extracted: StringColumn::with_capacity(n, bytes),
            pending: Vec::new(),
        }
    }

    pub fn len(&self) -> usize {
        self.correct.len()
    }

    pub fn is_empty(&self) -> bool {
        self.correct.is_empty()
    }

    /// Add the verdict of item `index` (of the whole batch).
    pub fn push(&mut self, index: usize, v: Verdict) {
        self.correct.push(u8::from(v.correct));
        self.reason.push(v.reason as u8);
        self.path.push(v.path as u8);
        self.extracted.push(v.extracted.as_deref());
        if v.sympy.is_some() {
            self.pending.push((index, v));
        }
    }

    /// Add the items of `other` after these.
    pub fn append(&mut self, other: VerdictColumns) {
        self.correct.extend_from_slice(&other.correct);
        self.reason.extend_from_slice(&other.reason);
        self.path.extend_from_slice(&other.path);
        self.extracted.append(&other.extracted);
        self.pending.extend(other.pending);
    }
}

/// Items per task of [`check_range_columns`]: small enough to even out the threads' shares at the
/// end of a chunk, large enough that a task's set-up is nothing beside its items.
const ITEMS_PER_TASK: usize = 64;

/// [`check_range`] with the verdicts built into columns by the threads that checked them: each
/// task fills the columns of its items (their strings freed where they were made), and the tasks'
/// columns are joined in order, a copy of bytes. The caller's thread then has no per-item work.
pub fn check_range_columns(
    responses: Texts<'_>,
    golds: Texts<'_>,
    range: Range<usize>,
    kinds: Option<&[Kind]>,
    opts: &CheckOptions,
    pool: &ThreadPool,
) -> VerdictColumns {
    let start = range.start;
    let tasks = range.len().div_ceil(ITEMS_PER_TASK);
    let parts: Vec<VerdictColumns> = pool.install(|| {
        (0..tasks)
            .into_par_iter()
            .map(|t| {
                let lo = start + t * ITEMS_PER_TASK;
                let hi = (lo + ITEMS_PER_TASK).min(range.end);
                let mut part = VerdictColumns::with_capacity(hi - lo, 0);
                for i in lo..hi {
                    part.push(i, check_item(responses, golds, i, kinds, opts));
                }
                part
            })
            .collect()
    });
    let bytes = parts.iter().map(|p| p.extracted.data.len()).sum();
    let mut out = VerdictColumns::with_capacity(range.len(), bytes);
    for p in parts {
        out.append(p);
    }
    out
}

/// Item `i`, with its own kind when `kinds` gives one.
fn check_item(
    responses: Texts<'_>,
    golds: Texts<'_>,
    i: usize,
    kinds: Option<&[Kind]>,
    opts: &CheckOptions,
) -> Verdict {
    let (r, g) = (responses.cell(i), golds.cell(i));
    match kinds {
        Some(k) if k[i] != opts.kind => {
            let o = CheckOptions {
                kind: k[i],
                ..opts.clone()
            };
            check_cells(r, g, &o)
        }
        _ => check_cells(r, g, opts),
    }
}

/// Check the pairs in `range` of two columns of equal length (see [`check_shapes`]) on `pool`;
/// `kinds`, when given, has one entry per item of the whole columns.
pub fn check_range(
    responses: Texts<'_>,
    golds: Texts<'_>,
    range: Range<usize>,
    kinds: Option<&[Kind]>,
    opts: &CheckOptions,
    pool: &ThreadPool,
) -> Vec<Verdict> {
    pool.install(|| {
        range
            .into_par_iter()
            .with_min_len(32)
            .map(|i| check_item(responses, golds, i, kinds, opts))
            .collect()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::check;

    #[test]
    fn batch_equals_single_calls() {
        let resp: Vec<Input> = (0..1000)
            .map(|i| Input::Text(format!("The answer is: {}.", i % 7)))
            .collect();
        let gold: Vec<Input> = (0..1000)
            .map(|i| Input::Text(format!("{}", i % 5)))
            .collect();
        let opts = CheckOptions::default();
        let b = check_batch(&resp, &gold, None, &opts, &pool(Some(2)).unwrap()).unwrap();
        for i in 0..1000 {
            assert_eq!(b[i], check(&resp[i], &gold[i], &opts));
        }
        let shared = check_batch(&resp, &gold, None, &opts, &pool(None).unwrap()).unwrap();
        assert_eq!(b, shared);
    }

    #[test]
    fn arrow_columns_read_in_place_give_the_same_verdicts() {
        use crate::column::{ArrowTexts, StringColumn};
        let resp: Vec<Input> = (0..600)
            .map(|i| match i % 5 {
                0 => Input::Missing,
                1 => Input::BadUtf8,
                _ => Input::Text(format!("So the answer is \\boxed{{{}}}.", i % 7)),
            })
            .collect();
        let gold: Vec<Input> = (0..600).map(|i| Input::Text((i % 3).to_string())).collect();
        let as_column = |v: &[Input]| {
            let mut c = StringColumn::with_capacity(v.len(), 0);
            for x in v {
                c.push(match x {
                    Input::Text(t) => Some(t),
                    _ => None,
                });
            }
            c
        };
        // BadUtf8 rows: replace their bytes by an invalid sequence.
        let mut rc = as_column(&resp);
        let mut bytes = Vec::new();
        let mut offsets = vec![0i64];
        for (i, x) in resp.iter().enumerate() {
            match x {
                Input::BadUtf8 => {
                    bytes.push(0xff);
                    rc.validity[i / 8] |= 1 << (i % 8);
                }
                Input::Text(t) => bytes.extend_from_slice(t.as_bytes()),
                Input::Missing => {}
            }
            offsets.push(bytes.len() as i64);
        }
        (rc.offsets, rc.data) = (offsets, bytes);
        let gc = as_column(&gold);
        let r = ArrowTexts::new(&rc.offsets, &rc.data, Some(&rc.validity), 0).unwrap();
        let g = ArrowTexts::new(&gc.offsets, &gc.data, Some(&gc.validity), 0).unwrap();
        let opts = CheckOptions::default();
        let p = pool(Some(2)).unwrap();
        let arrow = check_range(Texts::Arrow(r), Texts::Arrow(g), 0..600, None, &opts, &p);
        assert_eq!(arrow, check_batch(&resp, &gold, None, &opts, &p).unwrap());
        assert_eq!(
            chunks(Texts::Arrow(r), Texts::Arrow(g), 1),
            chunks(Texts::Inputs(&resp), Texts::Inputs(&gold), 1)
        );
    }

    #[test]
    fn columns_hold_the_verdicts_of_check_range() {
        let resp: Vec<Input> = (0..1000)
            .map(|i| match i % 9 {
                0 => Input::Missing,
                1 => Input::Text("The answer is: 0.428571".into()),
                _ => Input::Text(format!("The answer is: {}.", i % 7)),
            })
            .collect();
        let gold: Vec<Input> = (0..1000)
            .map(|i| match i % 9 {
                1 => Input::Text("\\frac{3}{7}".into()),
                _ => Input::Text(format!("{}", i % 5)),
            })
            .collect();
        let (r, g) = (Texts::Inputs(&resp), Texts::Inputs(&gold));
        // The seed's LaTeX checker hands `0.428571` against `\frac{3}{7}` to SymPy.
        let xwin = CheckOptions {
            compat: crate::verdict::Compat::Xwin,
            kind: Kind::Latex,
            ..CheckOptions::default()
        };
        for (threads, opts) in [(1, CheckOptions::default()), (3, xwin)] {
            let p = pool(Some(threads)).unwrap();
            let verdicts = check_range(r, g, 100..1000, None, &opts, &p);
            let cols = check_range_columns(r, g, 100..1000, None, &opts, &p);
            let mut expected = VerdictColumns::with_capacity(0, 0);
            for (i, v) in verdicts.into_iter().enumerate() {
                expected.push(100 + i, v);
            }
            assert_eq!(cols, expected);
            if opts.compat == crate::verdict::Compat::Xwin {
                assert_eq!(cols.pending.len(), 100, "SymPy items keep their index");
            }
        }
    }

    #[test]
    fn length_mismatch_is_a_shape_error() {
        let p = pool(Some(1)).unwrap();
        let r = check_batch(&[Input::Missing], &[], None, &CheckOptions::default(), &p);
        assert!(matches!(r, Err(Error::Shape(_))));
        let r = check_batch(
            &[Input::Missing],
            &[Input::Missing],
            Some(&[]),
            &CheckOptions::default(),
            &p,
        );
        assert!(matches!(r, Err(Error::Shape(_))));
    }

    #[test]
    fn zero_threads_is_an_error_and_pools_are_reused() {
        assert!(matches!(pool(Some(0)), Err(Error::InvalidValue(_))));
        let (a, b) = (pool(None).unwrap(), pool(None).unwrap());
        assert!(Arc::ptr_eq(&a, &b));
        let one = pool(Some(1)).unwrap();
        assert!(!Arc::ptr_eq(&a, &one));
        assert!(Arc::ptr_eq(&one, &pool(Some(1)).unwrap()));
        assert_eq!(one.current_num_threads(), 1);
    }

    #[test]
    fn chunks_cover_every_item_once_and_respect_both_budgets() {
        let short: Vec<Input> = (0..70_000).map(|i| Input::Text(i.to_string())).collect();
        let ch = chunks(Texts::Inputs(&short), Texts::Inputs(&short), 2);
        assert_eq!(ch, vec![0..65_536, 65_536..70_000]); // 32,768 items per thread
        let long: Vec<Input> = (0..6).map(|_| Input::Text("x".repeat(4 << 20))).collect();
        let missing = vec![Input::Missing; 6];
        let ch = chunks(Texts::Inputs(&long), Texts::Inputs(&missing), 1); // 16 MiB per thread
        assert_eq!(ch, vec![0..4, 4..6]);
        assert!(chunks(Texts::Inputs(&[]), Texts::Inputs(&[]), 4).is_empty());
        let mut next = 0;
        for r in chunks(Texts::Inputs(&short), Texts::Inputs(&short), 3) {
            assert_eq!(r.start, next);
            next = r.end;
        }
        assert_eq!(next, short.len());
    }
}
