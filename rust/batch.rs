//! Rayon batch drivers over owned inputs. The binding layer copies Python data into these
//! vectors, releases the GIL, and calls in here; single-item calls use the same `check`.

use rayon::prelude::*;

use crate::check::{check, CheckOptions, Input};
use crate::error::{Error, Result};
use crate::verdict::{Kind, Verdict};

/// Check every (response, gold) pair; `kinds` (one per item) overrides `opts.kind`.
/// `threads`: `None` uses the global pool (all cores), `Some(n)` a pool of n threads.
pub fn check_batch(
    responses: &[Input],
    golds: &[Input],
    kinds: Option<&[Kind]>,
    opts: &CheckOptions,
    threads: Option<usize>,
) -> Result<Vec<Verdict>> {
    if responses.len() != golds.len() {
        return Err(Error::Shape(format!(
            "responses and golds must have the same length, got {} and {}",
            responses.len(),
            golds.len()
        )));
    }
    if let Some(k) = kinds {
        if k.len() != responses.len() {
            return Err(Error::Shape(format!(
                "kinds must have one entry per response, got {} for {}",
                k.len(),
                responses.len()
            )));
        }
    }
    let run = || -> Vec<Verdict> {
        (0..responses.len())
            .into_par_iter()
            .with_min_len(256)
            .map(|i| match kinds {
                Some(k) if k[i] != opts.kind => {
                    let o = CheckOptions {
                        kind: k[i],
                        ..opts.clone()
                    };
                    check(&responses[i], &golds[i], &o)
                }
                _ => check(&responses[i], &golds[i], opts),
            })
            .collect()
    };
    match threads {
        None => Ok(run()),
        Some(0) => Err(Error::InvalidValue("threads must be at least 1".into())),
        Some(n) => {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(n)
                .build()
                .map_err(|e| Error::InvalidValue(format!("cannot start {n} threads: {e}")))?;
            Ok(pool.install(run))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn batch_equals_single_calls() {
        let resp: Vec<Input> = (0..1000)
            .map(|i| Input::Text(format!("The answer is: {}.", i % 7)))
            .collect();
        let gold: Vec<Input> = (0..1000)
            .map(|i| Input::Text(format!("{}", i % 5)))
            .collect();
        let opts = CheckOptions::default();
        let b = check_batch(&resp, &gold, None, &opts, Some(2)).unwrap();
        for i in 0..1000 {
            assert_eq!(b[i], check(&resp[i], &gold[i], &opts));
        }
    }

    #[test]
    fn length_mismatch_is_a_shape_error() {
        let r = check_batch(&[Input::Missing], &[], None, &CheckOptions::default(), None);
        assert!(matches!(r, Err(Error::Shape(_))));
    }
}
