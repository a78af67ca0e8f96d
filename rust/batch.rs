//! Rayon batch drivers over owned inputs. The binding layer copies Python data into these
//! vectors, releases the GIL, and calls in here; single-item calls use the same `check`.
//!
//! Batch work runs in a pool this module owns, never in rayon's global pool: after `fork` the
//! child has none of its parent's threads, so a job sent to an inherited pool waits forever, and
//! rayon's global pool cannot be rebuilt. [`pool`] remembers which process built the shared pool
//! and builds a new one in a forked child.

use std::ops::Range;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, OnceLock, PoisonError};

use rayon::prelude::*;
use rayon::{ThreadPool, ThreadPoolBuilder};

use crate::check::{check_cells, Cell, CheckOptions, Input};
use crate::column::{Stored, StringColumn, Texts};
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
        Some(n) if n == 0 || n > MAX_THREADS => {
            return Err(Error::InvalidValue(format!(
                "threads must be between 1 and {MAX_THREADS}, got {n}"
            )))
        }
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

/// Chunks [`check_chunks`] has finished in this process: work counted, not timed, so a test can
/// see how much of a batch ran before Ctrl-C took effect.
static CHUNKS_CHECKED: AtomicUsize = AtomicUsize::new(0);

/// How many chunks [`check_chunks`] has finished in this process so far.
pub fn chunks_checked() -> usize {
    CHUNKS_CHECKED.load(Ordering::Relaxed)
}

/// The most threads one batch may ask for: far more than any machine's cores, few enough to start
/// at once (thousands of threads take seconds to start and are never faster).
pub const MAX_THREADS: usize = 1024;

/// A thread count as a caller gave it (Python's int may be negative): `None` or 1..=[`MAX_THREADS`].
pub fn thread_count(threads: Option<i64>) -> Result<Option<usize>> {
    match threads {
        None => Ok(None),
        Some(n) if (1..=MAX_THREADS as i64).contains(&n) => Ok(Some(n as usize)),
        Some(n) => Err(Error::InvalidValue(format!(
            "threads must be between 1 and {MAX_THREADS}, got {n}"
        ))),
    }
}

/// Items per thread in one chunk (see [`chunk_budget`]).
const CHUNK_ITEMS_PER_THREAD: usize = 32_768;
/// Input bytes (responses and golds) per thread in one chunk; work per item is linear in its size.
const CHUNK_BYTES_PER_THREAD: usize = 16 << 20;

/// The most items and (about) the most bytes of text of one chunk on `threads` threads: small
/// enough to finish in well under a second, so a caller can look for interrupts between chunks.
fn chunk_budget(threads: usize) -> (usize, usize) {
    let threads = threads.max(1);
    (
        CHUNK_ITEMS_PER_THREAD * threads,
        CHUNK_BYTES_PER_THREAD * threads,
    )
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
        if self.is_empty() && self.correct.capacity() < other.len() {
            *self = other; // the first part, and no room reserved for it: nothing to copy
            return;
        }
        self.correct.extend_from_slice(&other.correct);
        self.reason.extend_from_slice(&other.reason);
        self.path.extend_from_slice(&other.path);
        self.extracted.append(&other.extracted);
        self.pending.extend(other.pending);
    }
}

/// Items `start..start + responses.len()` of a batch, as the reading thread made them.
struct Block<'a> {
    start: usize,
    responses: Vec<Stored<'a>>,
    golds: Vec<Stored<'a>>,
}

/// The blocks of one chunk, handed from the thread that reads the inputs to the threads that
/// check them: block `k` is published once, in order; a reader that stops early (an error, or
/// the chunk's budget reached) closes the rest, so no checking thread waits for them.
struct Staged<'a> {
    blocks: Vec<OnceLock<Block<'a>>>,
    /// (blocks published so far, closed, threads waiting).
    state: Mutex<(usize, bool, usize)>,
    ready: Condvar,
}

impl<'a> Staged<'a> {
    fn new(blocks: usize) -> Self {
        Staged {
            blocks: (0..blocks).map(|_| OnceLock::new()).collect(),
            state: Mutex::new((0, false, 0)),
            ready: Condvar::new(),
        }
    }

    /// How many blocks the chunk may have; the reader publishes 0, 1, ... in order.
    fn capacity(&self) -> usize {
        self.blocks.len()
    }

    /// Publish the next block (the reader's thread only). `false`, and the block is not taken, when
    /// the chunk is closed or full.
    fn publish(&self, block: Block<'a>) -> bool {
        let mut st = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        if st.1 || st.0 == self.blocks.len() {
            return false;
        }
        // Set before it is counted: a thread that sees the count finds the block.
        let _ = self.blocks[st.0].set(block);
        st.0 += 1;
        if st.2 > 0 {
            self.ready.notify_all();
        }
        true
    }

    /// No more blocks: the checking threads finish those published and stop.
    fn close(&self) {
        let mut st = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        st.1 = true;
        self.ready.notify_all();
    }

    /// Block `k`, once published; `None` when the reader closed the chunk before it.
    fn wait_for(&self, k: usize) -> Option<&Block<'a>> {
        if k >= self.blocks.len() {
            return None; // never published: no need to wait for the reader
        }
        let mut st = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        while st.0 <= k && !st.1 {
            st.2 += 1;
            st = self.ready.wait(st).unwrap_or_else(PoisonError::into_inner);
            st.2 -= 1;
        }
        self.blocks.get(k).and_then(OnceLock::get)
    }
}

/// Counts a helper out when its job ends, by returning or by unwinding, so the caller never waits
/// for a helper that is gone.
struct CountOut<'r>(&'r (Mutex<usize>, Condvar));

impl Drop for CountOut<'_> {
    fn drop(&mut self) {
        let mut n = self.0 .0.lock().unwrap_or_else(PoisonError::into_inner);
        *n -= 1;
        self.0 .1.notify_all();
    }
}

/// Closes a [`Staged`] when the reader returns or unwinds, so no checking thread is left waiting.
struct CloseOnDrop<'s, 'a>(&'s Staged<'a>);

impl Drop for CloseOnDrop<'_, '_> {
    fn drop(&mut self) {
        self.0.close();
    }
}

/// Items per block of [`check_staged`]: a block is also a unit of work, small enough to even out
/// the threads' shares at the end of a chunk, large enough that its set-up is nothing beside its
/// items.
const ITEMS_PER_BLOCK: usize = 64;

/// One chunk of a batch whose inputs the calling thread must read itself (Python str objects, read
/// with the GIL held), checked while it reads: `read` runs on the calling thread and publishes the
/// chunk's blocks in order (at most `max_items` items; it may stop sooner); `threads - 1` threads of
/// `pool` check each block as it is published, and the calling thread joins them once it has
/// read, inside `detached` (which the binding runs with the GIL released). Before, the checking
/// threads waited while the caller read every item (≈ 2.6 ms for 16,000 MATH responses and their
/// golds, an eighth of the batch on two cores).
///
/// Returns `read`'s result and the verdicts of the published items, in order; `kinds` (when given)
/// is indexed by the batch's item numbers, as the blocks' `start` are, and covers them. Called from
/// a thread of `pool` itself, it checks alone (a helper job queued behind that thread would never
/// run while it waits).
fn check_staged<'a, R>(
    max_items: usize,
    kinds: Option<&[Kind]>,
    opts: &CheckOptions,
    pool: &ThreadPool,
    read: impl FnOnce(&Staged<'a>) -> R,
    detached: impl FnOnce(&(dyn Fn() + Sync)),
) -> (R, VerdictColumns) {
    let threads = pool.current_num_threads();
    let staged = Staged::new(max_items.div_ceil(ITEMS_PER_BLOCK));
    let results: Vec<OnceLock<VerdictColumns>> =
        (0..staged.capacity()).map(|_| OnceLock::new()).collect();
    let next = AtomicUsize::new(0);
    let running = (Mutex::new(0usize), Condvar::new());
    // Take the next unclaimed block and check it, until none is left.
    let work = || loop {
        let k = next.fetch_add(1, Ordering::Relaxed);
        let Some(b) = staged.wait_for(k) else { break };
        let mut part = VerdictColumns::with_capacity(b.responses.len(), 0);
        for (j, (r, g)) in b.responses.iter().zip(&b.golds).enumerate() {
            let i = b.start + j;
            part.push(i, check_cells_of(r.cell(), g.cell(), i, kinds, opts));
        }
        let _ = results[k].set(part);
    };
    // No more helpers than blocks after the first (the caller reads that one), and none when
    // this thread is one of the pool's.
    let helpers = if pool.current_thread_index().is_some() {
        0
    } else {
        (threads - 1).min(staged.capacity().saturating_sub(1))
    };
    let out = pool.in_place_scope(|s| {
        *running.0.lock().unwrap_or_else(PoisonError::into_inner) = helpers;
        for _ in 0..helpers {
            s.spawn(|_| {
                let _out = CountOut(&running);
                work();
            });
        }
        let out = {
            let _close = CloseOnDrop(&staged);
            read(&staged)
        };
        detached(&|| {
            work();
            // Wait here, not in the scope's end: the caller's lock (the GIL) stays released.
            let mut n = running.0.lock().unwrap_or_else(PoisonError::into_inner);
            while *n > 0 {
                n = running.1.wait(n).unwrap_or_else(PoisonError::into_inner);
            }
        });
        out
    });
    let parts: Vec<VerdictColumns> = results
        .into_iter()
        .map_while(OnceLock::into_inner)
        .collect();
    let (items, bytes) = parts.iter().fold((0, 0), |(n, b), p| {
        (n + p.len(), b + p.extracted.data.len())
    });
    let mut all = VerdictColumns::with_capacity(items, bytes);
    for p in parts {
        all.append(p);
    }
    (out, all)
}

/// Every item of a batch of `n`, in chunks (see [`chunk_budget`]) that the calling thread reads
/// into blocks (`item(i)`: item `i`'s response and gold as stored, with their sizes in bytes) while
/// it and `threads - 1` threads of `pool` check them (see [`check_staged`]). `detached` runs the
/// calling thread's share of the checking (the binding releases the GIL there); `between` runs after
/// each chunk (the binding looks for Ctrl-C). An error from either ends the batch.
#[allow(clippy::too_many_arguments)] // the batch, its reader and hooks, its checkers' settings
pub fn check_chunks<'a, E>(
    n: usize,
    kinds: Option<&[Kind]>,
    opts: &CheckOptions,
    pool: &ThreadPool,
    mut item: impl FnMut(usize) -> std::result::Result<((Stored<'a>, usize), (Stored<'a>, usize)), E>,
    detached: impl Fn(&(dyn Fn() + Sync)),
    mut between: impl FnMut() -> std::result::Result<(), E>,
) -> std::result::Result<VerdictColumns, E> {
    let (max_items, max_bytes) = chunk_budget(pool.current_num_threads());
    let mut out = VerdictColumns::with_capacity(0, 0);
    let mut start = 0;
    while start < n {
        let chunk = max_items.min(n - start);
        let (end, part) = check_staged(
            chunk,
            kinds,
            opts,
            pool,
            |staged| publish_blocks(staged, start, chunk, max_bytes, &mut item),
            &detached,
        );
        start = end?;
        out.append(part);
        CHUNKS_CHECKED.fetch_add(1, Ordering::Relaxed);
        between()?;
    }
    Ok(out)
}

/// Every item of two columns the caller already holds (Rust values, Arrow buffers), as the
/// Python binding checks them ([`check_chunks`]).
pub fn check_columns(
    responses: Texts<'_>,
    golds: Texts<'_>,
    kinds: Option<&[Kind]>,
    opts: &CheckOptions,
    pool: &ThreadPool,
) -> Result<VerdictColumns> {
    check_shapes(responses.len(), golds.len(), kinds.map(<[Kind]>::len))?;
    check_chunks(
        responses.len(),
        kinds,
        opts,
        pool,
        |i| {
            let (r, g) = (responses.stored(i), golds.stored(i));
            Ok(((r, responses.size(i)), (g, golds.size(i))))
        },
        |work| work(),
        || Ok(()),
    )
}

/// Publish the blocks of one chunk from item `start`: at most `max_items` items and about
/// `max_bytes` bytes of text (whole blocks). `item(i)` gives item `i`'s response and gold with
/// their sizes in bytes. Returns where the chunk ends; on an error, the blocks read so far are
/// published and the rest closed.
fn publish_blocks<'a, E>(
    staged: &Staged<'a>,
    start: usize,
    max_items: usize,
    max_bytes: usize,
    mut item: impl FnMut(usize) -> std::result::Result<((Stored<'a>, usize), (Stored<'a>, usize)), E>,
) -> std::result::Result<usize, E> {
    let end = start + max_items;
    let (mut lo, mut bytes) = (start, 0usize);
    while lo < end && bytes < max_bytes {
        let hi = (lo + ITEMS_PER_BLOCK).min(end);
        let (mut rb, mut gb) = (Vec::with_capacity(hi - lo), Vec::with_capacity(hi - lo));
        for i in lo..hi {
            let ((r, rn), (g, gn)) = item(i)?;
            bytes += rn + gn;
            rb.push(r);
            gb.push(g);
        }
        let taken = staged.publish(Block {
            start: lo,
            responses: rb,
            golds: gb,
        });
        debug_assert!(
            taken,
            "a chunk's reader publishes no more than the chunk holds"
        );
        lo = hi;
    }
    Ok(lo)
}

/// The cells of item `i`, with its own kind when `kinds` gives one.
fn check_cells_of(
    r: Cell<'_>,
    g: Cell<'_>,
    i: usize,
    kinds: Option<&[Kind]>,
    opts: &CheckOptions,
) -> Verdict {
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
            .map(|i| check_cells_of(responses.cell(i), golds.cell(i), i, kinds, opts))
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
            check_columns(Texts::Arrow(r), Texts::Arrow(g), None, &opts, &p).unwrap(),
            check_columns(Texts::Inputs(&resp), Texts::Inputs(&gold), None, &opts, &p).unwrap()
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
        let kinds: Vec<Kind> = (0..1000)
            .map(|i| if i % 4 == 0 { Kind::Latex } else { Kind::Auto })
            .collect();
        for (threads, opts) in [
            (1, CheckOptions::default()),
            (3, xwin),
            (2, CheckOptions::default()),
        ] {
            let p = pool(Some(threads)).unwrap();
            let ks = (threads == 2).then_some(kinds.as_slice());
            let verdicts = check_range(r, g, 0..1000, ks, &opts, &p);
            let cols = check_columns(r, g, ks, &opts, &p).unwrap();
            let mut expected = VerdictColumns::with_capacity(0, 0);
            for (i, v) in verdicts.into_iter().enumerate() {
                expected.push(i, v);
            }
            assert_eq!(cols, expected);
            if opts.compat == crate::verdict::Compat::Xwin {
                assert_eq!(cols.pending.len(), 111, "SymPy items keep their index");
                assert_eq!(cols.pending[0].0, 1);
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
    fn zero_or_too_many_threads_is_an_error_and_pools_are_reused() {
        assert!(matches!(pool(Some(0)), Err(Error::InvalidValue(_))));
        let too_many = pool(Some(MAX_THREADS + 1));
        assert!(
            matches!(too_many, Err(Error::InvalidValue(m)) if m.contains("between 1 and 1024"))
        );
        assert!(matches!(
            pool(Some(usize::MAX)),
            Err(Error::InvalidValue(_))
        ));
        assert_eq!(thread_count(None).unwrap(), None);
        assert_eq!(thread_count(Some(3)).unwrap(), Some(3));
        for bad in [-1, 0, 1025, i64::MIN, i64::MAX] {
            let e = thread_count(Some(bad)).unwrap_err();
            assert!(matches!(e, Error::InvalidValue(m) if m.ends_with(&format!("got {bad}"))));
        }
        let (a, b) = (pool(None).unwrap(), pool(None).unwrap());
        assert!(Arc::ptr_eq(&a, &b));
        let one = pool(Some(1)).unwrap();
        assert!(!Arc::ptr_eq(&a, &one));
        assert!(Arc::ptr_eq(&one, &pool(Some(1)).unwrap()));
        assert_eq!(one.current_num_threads(), 1);
    }

    #[test]
    fn chunks_cover_every_item_once_and_respect_both_budgets() {
        assert_eq!(chunk_budget(2), (65_536, 32 << 20)); // 32,768 items, 16 MiB per thread
        assert_eq!(chunk_budget(0), chunk_budget(1));
        // Item i: response of 10 bytes, gold of i bytes; each cell holds its item's number.
        let names: Vec<String> = (0..1000).map(|i| i.to_string()).collect();
        let name = |i: usize| Stored::Cell(Cell::Text(&names[i]));
        let number = |c: &Stored<'_>| match c.cell() {
            Cell::Text(t) => t.parse::<usize>().unwrap(),
            _ => unreachable!(),
        };
        let sizes = |i: usize| Ok::<_, ()>(((name(i), 10), (name(i), i)));
        let staged = Staged::new(1000_usize.div_ceil(ITEMS_PER_BLOCK));
        // Whole blocks until the byte budget is reached: 64 items give 640 + 2016 bytes.
        assert_eq!(publish_blocks(&staged, 0, 1000, 3000, sizes), Ok(128));
        staged.close();
        let starts: Vec<usize> = (0..3)
            .filter_map(|k| staged.wait_for(k))
            .map(|b| b.start)
            .collect();
        assert_eq!(starts, vec![0, 64]);
        let b = staged.wait_for(1).unwrap();
        assert_eq!(
            (
                b.responses.len(),
                number(&b.responses[0]),
                number(&b.golds[63])
            ),
            (64, 64, 127)
        );
        // The item budget ends a chunk inside a block; a chunk that starts further on.
        let staged = Staged::new(2);
        assert_eq!(publish_blocks(&staged, 500, 70, usize::MAX, sizes), Ok(570));
        let b = staged.wait_for(1).unwrap();
        assert_eq!(
            b.responses.iter().map(number).collect::<Vec<_>>(),
            (564..570).collect::<Vec<_>>()
        );
        // An error publishes the blocks before it and stops.
        let staged = Staged::new(4);
        let failing = |i: usize| {
            if i == 100 {
                Err(i)
            } else {
                Ok(((name(i), 1), (name(i), 1)))
            }
        };
        assert_eq!(
            publish_blocks(&staged, 0, 256, usize::MAX, failing),
            Err(100)
        );
        staged.close();
        assert!(staged.wait_for(0).is_some() && staged.wait_for(1).is_none());
    }

    #[test]
    fn a_reader_that_fails_or_panics_leaves_no_thread_waiting() {
        let resp: Vec<Input> = (0..500)
            .map(|i| Input::Text(format!("The answer is {i}")))
            .collect();
        let opts = CheckOptions::default();
        let p = pool(Some(3)).unwrap();
        // Fails at item 200: the blocks before it are checked, the caller gets the error.
        let (res, cols) = check_staged(
            500,
            None,
            &opts,
            &p,
            |staged| {
                publish_blocks(staged, 0, 500, usize::MAX, |i| {
                    if i == 200 {
                        return Err("bad item");
                    }
                    let c = Stored::Cell(resp[i].cell());
                    Ok(((c, 1), (c, 1)))
                })
            },
            |work| work(),
        );
        assert_eq!(res, Err("bad item"));
        assert_eq!(cols.len(), 192);
        assert!(cols.correct.iter().all(|&c| c == 1));
        // A panic in the reader reaches the caller once the checking threads have stopped.
        let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            check_staged::<()>(500, None, &opts, &p, |_| panic!("reader"), |w| w())
        }));
        assert!(caught.is_err());
        // The pool still works.
        let cols =
            check_columns(Texts::Inputs(&resp), Texts::Inputs(&resp), None, &opts, &p).unwrap();
        assert_eq!(cols.len(), 500);
    }

    #[test]
    fn a_panic_in_a_checking_thread_reaches_the_caller_and_nested_calls_check_alone() {
        let resp: Vec<Input> = (0..1000)
            .map(|i| Input::Text(format!("The answer is {i}")))
            .collect();
        let opts = CheckOptions::default();
        let p = pool(Some(2)).unwrap();
        let r = Texts::Inputs(&resp);
        // `kinds` too short: the item past its end panics, in whichever thread checks it.
        let short = vec![Kind::Latex; 500];
        let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            check_staged(
                1000,
                Some(&short),
                &opts,
                &p,
                |staged| {
                    publish_blocks(staged, 0, 1000, usize::MAX, |i| {
                        Ok::<_, ()>(((r.stored(i), 1), (r.stored(i), 1)))
                    })
                },
                |work| work(),
            )
        }));
        assert!(caught.is_err());
        // From inside the pool (every thread busy with such calls): no helper is waited for.
        let nested: Vec<usize> = p.install(|| {
            (0..4)
                .into_par_iter()
                .map(|_| check_columns(r, r, None, &opts, &p).unwrap().len())
                .collect()
        });
        assert_eq!(nested, vec![1000; 4]);
        // More threads than blocks: the spare ones are not started.
        let few = check_columns(
            Texts::Inputs(&resp[..70]),
            Texts::Inputs(&resp[..70]),
            None,
            &opts,
            &pool(Some(7)).unwrap(),
        );
        assert_eq!(few.unwrap().len(), 70);
    }

    #[test]
    fn every_item_is_checked_once_in_order_whatever_the_threads() {
        let resp: Vec<Input> = (0..3000)
            .map(|i| Input::Text(format!("The answer is {}", i % 11)))
            .collect();
        let gold: Vec<Input> = (0..3000)
            .map(|i| Input::Text((i % 7).to_string()))
            .collect();
        let opts = CheckOptions::default();
        let expected = check_range(
            Texts::Inputs(&resp),
            Texts::Inputs(&gold),
            0..3000,
            None,
            &opts,
            &pool(Some(1)).unwrap(),
        );
        for threads in [1, 2, 5] {
            let cols = check_columns(
                Texts::Inputs(&resp),
                Texts::Inputs(&gold),
                None,
                &opts,
                &pool(Some(threads)).unwrap(),
            )
            .unwrap();
            let correct: Vec<u8> = expected.iter().map(|v| u8::from(v.correct)).collect();
            assert_eq!(cols.correct, correct, "{threads} threads");
        }
    }
}
