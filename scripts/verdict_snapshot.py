"""Verdict snapshot: every bundled suite through the public API, one deterministic JSONL per suite.

Restructuring must not change a verdict. This script runs every suite the repository ships
(GSM8K in three response forms, the 800 Qwen2.5-Math responses, math-verify's own cases, the xwin
corpus, the latex2sympy parse cases, the demo data, the statistics references) in both modes where
that means something, and writes per item what the library answered (for protocol A: ``correct``,
``reason``, ``extracted``, ``path``). The committed copy lives in ``tests/data/verdict_snapshot/``:
one ``<suite>.jsonl`` per suite and ``summary.json`` with the item count, a few tallies and the
sha256 of each file. ``tests/test_verdict_snapshot.py`` recomputes everything and fails with the
changed items when a suite moves.

    .venv/bin/python scripts/verdict_snapshot.py            # compare with the committed snapshot
    .venv/bin/python scripts/verdict_snapshot.py --update   # rewrite it (an intended verdict change)
    .venv/bin/python scripts/verdict_snapshot.py --out DIR  # write the files somewhere else

A change that alters verdicts on purpose runs ``--update`` and commits the rewritten files, so the
diff of that commit shows every item that changed. Run from the repository root.

SymPy. Items only SymPy can decide go through the public API to the worker pool like any other
call, but the pool's ``run`` is wrapped: a task (compat and (prediction, gold) pairs) recorded in
the committed ``sympy.tasks`` suite gets its recorded outcome, an unknown one goes to the real
workers, and every task asked for is written to ``sympy.tasks`` again. So the core's hand-over to
SymPy is pinned exactly (a changed pair is a changed row), the orchestration in Python runs for
real, and the snapshot costs seconds instead of minutes of SymPy. ``--real-sympy`` ignores the
recorded outcomes (every task to the real workers, with a generous deadline); it must give the
same files.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
SNAPSHOT_DIR = ROOT / "tests" / "data" / "verdict_snapshot"
DATA = ROOT / "data"

#: SymPy fallback deadline for the snapshot: generous, so that a loaded machine cannot turn a
#: slow-but-decidable comparison into ``timeout`` and make the snapshot flaky.
SYMPY_TIMEOUT = 60.0

Row = dict[str, Any]


def _jsonl(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def _verdict_rows(ids: Iterable[Any], result: Any) -> Iterator[Row]:
    """Rows of a ``BatchResult`` (one per id)."""
    for i, k in enumerate(ids):
        yield {
            "id": k,
            "correct": bool(result.correct[i]),
            "reason": str(result.reason[i]),
            "extracted": result.extracted[i],
            "path": str(result.path[i]),
        }


def _verdict(v: Any) -> Row:
    return {"correct": v.correct, "reason": v.reason, "extracted": v.extracted, "path": v.path}


def _outcome(fn: Callable[..., Any], *args: Any, **kw: Any) -> Row:
    """What a call returned, or the class of what it raised (misuse errors are part of the contract)."""
    try:
        return {"value": fn(*args, **kw)}
    except (ValueError, TypeError) as exc:
        return {"raises": type(exc).__name__}


# ---- protocol A --------------------------------------------------------------------------------------


def _gsm8k() -> list[dict[str, Any]]:
    return json.loads((DATA / "answer_check" / "gsm8k_xwin.json").read_text(encoding="utf-8"))


#: The three response forms the tests use: the anchor alone, the worked solution then the anchor,
#: and the bare worked solution (extraction by the last number).
GSM8K_FORMS: dict[str, Callable[[dict[str, Any]], str]] = {
    "anchor": lambda it: f"Let me think.\nThe answer is: {it['answer']}.",
    "solution_anchor": lambda it: f"{it['solution']}\nThe answer is: {it['answer']}.",
    "solution": lambda it: it["solution"],
}


def gsm8k_suite(form: str, compat: str) -> Callable[[], Iterator[Row]]:
    def run() -> Iterator[Row]:
        import matheval_fast as mf

        items = _gsm8k()
        responses = [GSM8K_FORMS[form](it) for it in items]
        res = mf.check_batch(responses, [it["answer"] for it in items], compat=compat, timeout=SYMPY_TIMEOUT)
        yield from _verdict_rows(range(len(items)), res)

    return run


def qwen_suite(compat: str) -> Callable[[], Iterator[Row]]:
    def run() -> Iterator[Row]:
        import matheval_fast as mf

        rows = _jsonl(DATA / "answer_check" / "qwen25math_math_cot_100_graded.jsonl")
        res = mf.check_batch(
            [r["response"] for r in rows],
            [r["gold"] for r in rows],
            kinds=["latex"] * len(rows),
            compat=compat,
            timeout=SYMPY_TIMEOUT,
        )
        yield from _verdict_rows((f"{r['idx']}/{r['sample']}" for r in rows), res)

    return run


def qwen_extracted_suite() -> Iterator[Row]:
    """The engine alone on Qwen's own extracted answers (what the Rust consensus test measures)."""
    from matheval_fast._core import latex_equivalent

    for r in _jsonl(DATA / "answer_check" / "qwen25math_math_cot_100_graded.jsonl"):
        result, path = latex_equivalent(r["gold"], r["qwen_extracted"])
        yield {"id": f"{r['idx']}/{r['sample']}", "result": result, "path": path}


def math_verify_suite(compat: str) -> Callable[[], Iterator[Row]]:
    def run() -> Iterator[Row]:
        import matheval_fast as mf

        for r in _jsonl(DATA / "answer_check" / "math_verify_cases.jsonl"):
            v = mf.check(r["pred"], r["gold"], compat=compat, timeout=SYMPY_TIMEOUT)
            yield {"id": r["id"], **_verdict(v)}

    return run


def math_verify_verify_suite() -> Iterator[Row]:
    """``verify(gold, pred)`` (answer-level equivalence, both sides taken as answers)."""
    import matheval_fast as mf

    for r in _jsonl(DATA / "answer_check" / "math_verify_cases.jsonl"):
        yield {"id": r["id"], **_outcome(mf.verify, r["gold"], r["pred"], timeout=SYMPY_TIMEOUT)}


def xwin_corpus_suite(compat: str) -> Callable[[], Iterator[Row]]:
    """The seed-signature functions on every corpus entry (the corpus records the seed's answers for
    ``compat="xwin"``; the fixed mode's answers on the same inputs are snapshotted too)."""

    def run() -> Iterator[Row]:
        import matheval_fast as mf

        for n, e in enumerate(_jsonl(ROOT / "tests" / "data" / "xwin_corpus.jsonl")):
            a = e["args"]
            if e["fn"] == "extract_answer":
                out = _outcome(mf.extract_answer, a["text"], a["split"], a["extract_policy"], compat=compat)
            elif e["fn"] == "simple_answer_check":
                out = _outcome(
                    mf.simple_answer_check,
                    a["model"],
                    a["gt"],
                    a["extract_policy"],
                    a["eval_policy"],
                    a["split"],
                    compat=compat,
                )
            else:
                out = _outcome(
                    mf.latex_answer_check,
                    a["model"],
                    a["gt"],
                    a["split"],
                    a["extract_policy"],
                    a["eval_policy"],
                    compat=compat,
                )
            yield {"id": n, "fn": e["fn"], **out}

    return run


def xwin_corpus_check_suite(compat: str) -> Callable[[], Iterator[Row]]:
    """The corpus' (response, gold) pairs through ``check_batch`` with the checker the entry names,
    so the full verdict (reason, extracted, path) is pinned, not only the boolean."""

    def run() -> Iterator[Row]:
        import matheval_fast as mf

        ids, responses, golds, kinds = [], [], [], []
        for n, e in enumerate(_jsonl(ROOT / "tests" / "data" / "xwin_corpus.jsonl")):
            a = e["args"]
            if e["fn"] == "extract_answer" or not isinstance(a.get("gt"), str):
                continue
            ids.append(n)
            responses.append(a["model"])
            golds.append(a["gt"])
            kinds.append("simple" if e["fn"] == "simple_answer_check" else "latex")
        res = mf.check_batch(responses, golds, kinds=kinds, compat=compat, timeout=SYMPY_TIMEOUT)
        yield from _verdict_rows(ids, res)

    return run


def latex_parse_suite() -> Iterator[Row]:
    """latex2sympy2_extended's parse cases through ``parse_latex`` (printed form or error position)."""
    from matheval_fast._core import ParseError, parse_latex

    for n, c in enumerate(_jsonl(DATA / "answer_check" / "latex2sympy2_extended_parse_cases.jsonl")):
        try:
            yield {"id": n, "latex": c["latex"], "parsed": parse_latex(c["latex"])}
        except ParseError as exc:
            yield {"id": n, "latex": c["latex"], "error": str(exc), "position": exc.position}


def latex_equivalent_suite() -> Iterator[Row]:
    """The good parse cases against their expected SymPy text, through the engine (no SymPy)."""
    from matheval_fast._core import latex_equivalent

    for n, c in enumerate(_jsonl(DATA / "answer_check" / "latex2sympy2_extended_parse_cases.jsonl")):
        if c["kind"] != "good":
            continue
        for strict in (False, True):
            result, path = latex_equivalent(c["latex"], c["expected_str"], strict=strict)
            yield {"id": f"{n}/{'strict' if strict else 'default'}", "result": result, "path": path}


def demo_suite(compat: str) -> Callable[[], Iterator[Row]]:
    """The demo data through ``score_records`` (the CLI's path), default config."""

    def run() -> Iterator[Row]:
        from matheval_fast.score import score_records

        records = json.loads((DATA / "samples" / "demo_responses.json").read_text(encoding="utf-8"))
        report = score_records(records, compat=compat, timeout=SYMPY_TIMEOUT)
        for r in report.rows:
            yield {
                "id": f"{r['line'] - 1}/{r['prompt']}",  # 0-based ids, as first recorded
                "correct": r["correct"],
                "reason": r["reason"],
                "extracted": r["extracted"],
                "path": r["path"],
            }

    return run


# ---- protocol D ----------------------------------------------------------------------------------------


def siegel_tukey_refs_suite() -> Iterator[Row]:
    """Every reference example under every variant, alternative and method (float repr: bit-exact)."""
    from matheval_fast import stats

    refs = json.loads((DATA / "stats" / "siegel_tukey_refs.json").read_text(encoding="utf-8"))
    for ex in refs["examples"]:
        for variant in ("exact", "desctools"):
            for alternative in ("two-sided", "greater", "less"):
                for method in ("auto", "exact", "asymptotic"):
                    key = f"{ex['id']}/{variant}/{alternative}/{method}"
                    try:
                        r = stats.siegel_tukey(
                            ex["x"], ex["y"], alternative=alternative, method=method, variant=variant
                        )
                    except ValueError as exc:
                        yield {"id": key, "raises": type(exc).__name__}
                        continue
                    yield {
                        "id": key,
                        "statistic": repr(r.statistic),
                        "pvalue": repr(r.pvalue),
                        "method": r.method,
                    }


def synthetic_pairs_suite() -> Iterator[Row]:
    """The bundled consistency pairs' self-scores through the batch test (the score half of protocol D)."""
    from matheval_fast import stats

    rows = _jsonl(DATA / "consistency" / "synthetic_pairs.jsonl")
    res = stats.siegel_tukey_batch([r["scores"] for r in rows], [r["scores_prime"] for r in rows])
    for i, r in enumerate(rows):
        yield {
            "id": r["id"],
            "statistic": repr(float(res.statistic[i])),
            "pvalue": repr(float(res.pvalue[i])),
            "method": str(res.method[i]),
            "status": str(res.status[i]),
        }


# ---- the SymPy hand-over -------------------------------------------------------------------------------

SYMPY_SUITE = "sympy.tasks"


def _task_key(compat: str, pairs: Any) -> str:
    return json.dumps([str(compat), [[str(a), str(b)] for a, b in pairs]], ensure_ascii=False)


class SympyRecorder:
    """Wraps the SymPy pool's ``run``: recorded tasks get their recorded outcome, unknown tasks go to
    the real workers; every task asked for is kept for the ``sympy.tasks`` suite."""

    def __init__(self, real_run: Callable[..., Any], recorded: dict[str, tuple[str, bool]]) -> None:
        self._real_run = real_run
        self._recorded = recorded
        self.seen: dict[str, tuple[str, bool]] = {}

    def run(self, tasks: Any, timeout: float | None = None) -> list[Any]:
        from matheval_fast._sympy.pool import SympyResult

        keys = [_task_key(c, pairs) for c, pairs in tasks]
        unknown = [i for i, k in enumerate(keys) if k not in self._recorded and k not in self.seen]
        fresh = self._real_run([tasks[i] for i in unknown], timeout=SYMPY_TIMEOUT) if unknown else []
        for i, res in zip(unknown, fresh, strict=True):
            self.seen[keys[i]] = (res.status, bool(res.equal))
        out = []
        for k in keys:
            status, equal = self.seen.get(k) or self._recorded[k]
            self.seen[k] = (status, equal)
            out.append(SympyResult(equal, status))  # type: ignore[arg-type]
        return out

    def rows(self) -> Iterator[Row]:
        for k in sorted(self.seen):
            status, equal = self.seen[k]
            yield {"id": json.loads(k), "status": status, "equal": equal}


def _recorded_sympy(baseline: Path) -> dict[str, tuple[str, bool]]:
    path = baseline / f"{SYMPY_SUITE}.jsonl"
    if not path.exists():
        return {}
    return {_task_key(*r["id"]): (r["status"], r["equal"]) for r in _jsonl(path)}


SUITES: dict[str, Callable[[], Iterator[Row]]] = {
    **{
        f"gsm8k.{form}.{compat}": gsm8k_suite(form, compat)
        for form in GSM8K_FORMS
        for compat in ("fixed", "xwin")
    },
    **{f"qwen800.{compat}": qwen_suite(compat) for compat in ("fixed", "xwin")},
    "qwen800.extracted_equivalence": qwen_extracted_suite,
    **{f"math_verify.check.{compat}": math_verify_suite(compat) for compat in ("fixed", "xwin")},
    "math_verify.verify": math_verify_verify_suite,
    **{f"xwin_corpus.seed_api.{compat}": xwin_corpus_suite(compat) for compat in ("xwin", "fixed")},
    **{f"xwin_corpus.check.{compat}": xwin_corpus_check_suite(compat) for compat in ("xwin", "fixed")},
    "latex2sympy.parse": latex_parse_suite,
    "latex2sympy.equivalent": latex_equivalent_suite,
    **{f"demo.{compat}": demo_suite(compat) for compat in ("fixed", "xwin")},
    "stats.siegel_tukey_refs": siegel_tukey_refs_suite,
    "stats.synthetic_pairs": synthetic_pairs_suite,
}


# ---- files, summary and comparison ---------------------------------------------------------------------


def render(rows: Iterable[Row]) -> str:
    """One JSON object per line, keys in a fixed order, non-ASCII kept: byte-for-byte deterministic."""
    return "".join(json.dumps(r, ensure_ascii=False, separators=(",", ":")) + "\n" for r in rows)


def summarize(name: str, text: str) -> dict[str, Any]:
    rows = [json.loads(line) for line in text.splitlines()]
    out: dict[str, Any] = {"items": len(rows), "sha256": hashlib.sha256(text.encode("utf-8")).hexdigest()}
    for key in ("correct", "reason", "path", "result", "value", "raises", "status", "equal"):
        kinds = (bool,) if key == "value" else (bool, str)  # extracted strings are not tallied
        tally = Counter(str(r[key]) for r in rows if isinstance(r.get(key), kinds))
        if tally:
            out[key] = dict(sorted(tally.items()))
    return out


def compute(names: Iterable[str] | None = None, *, real_sympy: bool = False) -> dict[str, str]:
    """Suite name -> rendered JSONL text. A full run (``names=None``) adds the ``sympy.tasks`` suite."""
    from matheval_fast._sympy.pool import get_pool

    pool = get_pool()
    recorder = SympyRecorder(pool.run, {} if real_sympy else _recorded_sympy(SNAPSHOT_DIR))
    pool.run = recorder.run  # type: ignore[method-assign]
    try:
        texts = {name: render(SUITES[name]()) for name in (names or SUITES)}
    finally:
        del pool.run  # back to the class's method
    if names is None:
        texts[SYMPY_SUITE] = render(recorder.rows())
    return texts


def write(texts: dict[str, str], out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    for name, text in texts.items():
        (out / f"{name}.jsonl").write_text(text, encoding="utf-8")
    summary = {name: summarize(name, text) for name, text in sorted(texts.items())}
    (out / "summary.json").write_text(json.dumps(summary, indent=1, sort_keys=True) + "\n", encoding="utf-8")


def diff(texts: dict[str, str], baseline: Path, shown: int = 8, *, partial: bool = False) -> list[str]:
    """Readable differences from the snapshot in ``baseline``: per changed suite its tallies and the
    first ``shown`` changed items (before -> after). Empty when everything is identical. With
    ``partial``, suites not in ``texts`` are not reported missing."""
    summary_path = baseline / "summary.json"
    recorded = json.loads(summary_path.read_text(encoding="utf-8")) if summary_path.exists() else {}
    names = set(texts) if partial else set(recorded) | set(texts)
    lines: list[str] = []
    for name in sorted(names):
        if name not in texts:
            lines.append(f"{name}: in the snapshot but no longer computed")
            continue
        now = summarize(name, texts[name])
        was = recorded.get(name)
        if was is None:
            lines.append(f"{name}: new suite ({now['items']} items), not in the snapshot")
            continue
        if was["sha256"] == now["sha256"]:
            continue
        lines.append(f"{name}: changed (sha256 {was['sha256'][:12]} -> {now['sha256'][:12]})")
        for key in sorted(set(was) | set(now)):
            if key != "sha256" and was.get(key) != now.get(key):
                lines.append(f"  {key}: {was.get(key)} -> {now.get(key)}")
        old_file = baseline / f"{name}.jsonl"
        if not old_file.exists():
            continue
        old = {json.dumps(r["id"]): r for r in _jsonl(old_file)}
        new = {json.dumps(r["id"]): r for r in map(json.loads, texts[name].splitlines())}
        changed = [k for k in new if old.get(k) != new[k]] + [k for k in old if k not in new]
        lines.append(f"  {len(changed)} item(s) differ")
        for k in changed[:shown]:
            before, after = old.get(k), new.get(k)
            fields = sorted({*(before or {}), *(after or {})} - {"id"})
            delta = ", ".join(
                f"{f}: {(before or {}).get(f)!r} -> {(after or {}).get(f)!r}"
                for f in fields
                if (before or {}).get(f) != (after or {}).get(f)
            )
            lines.append(f"    id {k}: {delta}")
    return lines


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--update", action="store_true", help="rewrite the committed snapshot")
    ap.add_argument("--out", type=Path, help="write the computed files to this folder instead")
    ap.add_argument("--suite", action="append", choices=sorted(SUITES), help="only these suites (repeatable)")
    ap.add_argument("--real-sympy", action="store_true", help="send every SymPy task to the real workers")
    args = ap.parse_args(argv)
    texts = compute(args.suite, real_sympy=args.real_sympy)
    if args.out is not None:
        write(texts, args.out)
        print(f"wrote {len(texts)} suites to {args.out}")
        return 0
    changes = diff(texts, SNAPSHOT_DIR, partial=bool(args.suite))
    if args.update:
        if args.suite:
            ap.error("--update rewrites the whole snapshot; run it without --suite")
        for stale in SNAPSHOT_DIR.glob("*.jsonl"):
            stale.unlink()
        write(texts, SNAPSHOT_DIR)
        print("\n".join(changes) if changes else "no verdict changed")
        print(f"snapshot rewritten: {SNAPSHOT_DIR.relative_to(ROOT)} ({len(texts)} suites)")
        return 0
    if changes:
        print("\n".join(changes))
        print("verdicts changed; if intended, run scripts/verdict_snapshot.py --update and commit the diff")
        return 1
    print(f"all {len(texts)} suites identical to the snapshot")
    return 0


if __name__ == "__main__":
    sys.exit(main())
