"""Tests of matheval_fast.stats: reference values, an independent enumeration oracle, SciPy as a second
oracle, an independent DescTools re-implementation, bad input, batches and threads."""

from __future__ import annotations

import itertools
import json
import math
import random
import threading
from fractions import Fraction
from functools import cache
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from matheval_fast import DomainError, ShapeError, _core, stats

scipy_stats = pytest.importorskip("scipy.stats")

REFS = json.loads((Path(__file__).parent.parent / "data" / "stats" / "siegel_tukey_refs.json").read_text())
EXAMPLES = REFS["examples"]

# ---- independent oracle: ST scores as exact fractions, all splits enumerated ----------------------


def oracle_scores(x, y):
    """Tie-averaged Siegel-Tukey scores (Fractions) of x and y, by taking positions off a deque."""
    pooled = sorted(list(x) + list(y))
    n = len(pooled)
    positions = list(range(n))
    rank_at = [0] * n
    rank = 1
    # Ends alternate low, high, high, low, low, high, high, ... (ranks 1 | 2 3 | 4 5 | 6 7 ...).
    take_low = True
    while positions:
        block = 1 if rank == 1 else 2
        for _ in range(block):
            if not positions:
                break
            pos = positions.pop(0) if take_low else positions.pop()
            rank_at[pos] = rank
            rank += 1
        take_low = not take_low
    by_value: dict[float, list[int]] = {}
    for pos, v in enumerate(pooled):
        by_value.setdefault(v, []).append(rank_at[pos])
    score = {v: Fraction(sum(r), len(r)) for v, r in by_value.items()}
    return [score[v] for v in x], [score[v] for v in y]


@cache
def combos(n_all, m):
    return np.array(list(itertools.combinations(range(n_all), m)), dtype=np.int64)


def oracle_pvalues(x, y):
    """Exact permutation p-values {two-sided, greater (x more dispersed), less} by enumeration."""
    sx, sy = oracle_scores(x, y)
    pool = sx + sy
    lcm = math.lcm(*(s.denominator for s in pool))
    ints = np.array([int(s * lcm) for s in pool], dtype=np.int64)
    m, n_all = len(x), len(pool)
    sums = ints[combos(n_all, m)].sum(axis=1)
    obs = int(sum(sx) * lcm)
    total = int(ints.sum())
    dev = np.abs(n_all * sums - m * total)
    d_obs = abs(n_all * obs - m * total)
    return {
        "two-sided": float(np.mean(dev >= d_obs)),
        "greater": float(np.mean(sums <= obs)),
        "less": float(np.mean(sums >= obs)),
        "statistic": float(sum(sx)),
    }


def random_case(rng: random.Random):
    m, n = rng.randint(2, 8), rng.randint(2, 8)
    kind = rng.choice(["int10", "int3", "float", "float1", "mixed"])
    if kind == "int10":
        draw = lambda: float(rng.randint(1, 10))  # noqa: E731
    elif kind == "int3":
        draw = lambda: float(rng.randint(1, 3))  # noqa: E731
    elif kind == "float":
        draw = lambda: rng.uniform(-5, 5)  # noqa: E731
    elif kind == "float1":
        draw = lambda: round(rng.uniform(0, 2), 1)  # noqa: E731
    else:
        draw = lambda: rng.choice([0.0, -0.0, 1.5, -2.25, 1e-300, 7.0, rng.uniform(-1, 1)])  # noqa: E731
    return [draw() for _ in range(m)], [draw() for _ in range(n)]


def random_cases(count, seed):
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        x, y = random_case(rng)
        if len(set(x + y)) > 1:
            out.append((x, y))
    return out


# ---- reference values ---------------------------------------------------------------------


@pytest.mark.parametrize("ex", EXAMPLES, ids=[e["id"] for e in EXAMPLES])
def test_reference_examples(ex):
    x, y = ex["x"], ex["y"]
    r = stats.siegel_tukey(x, y)
    assert r.method == "exact" and r.variant == "exact" and r.alternative == "two-sided"
    assert abs(r.pvalue - ex["p_exact_permutation_two_sided"]) <= 1e-12
    assert abs(r.pvalue - ex["p_jmuOutlier_2.2_siegel_test"]) <= 1e-12
    assert abs(r.statistic - ex["st_rank_sum_x"]) <= 1e-12
    # The refs name one-sided columns after the tail of S; "greater" here means x MORE dispersed.
    g = stats.siegel_tukey(x, y, alternative="greater")
    less = stats.siegel_tukey(x, y, alternative="less")
    assert abs(g.pvalue - ex["p_exact_permutation_less"]) <= 1e-12
    assert abs(less.pvalue - ex["p_exact_permutation_greater"]) <= 1e-12
    d = stats.siegel_tukey(x, y, variant="desctools")
    assert abs(d.pvalue - ex["p_DescTools_0.99.59_SiegelTukeyTest"]) <= 1e-9
    assert abs(d.statistic - ex["DescTools_statistic_ST"]) <= 1e-9
    a = stats.siegel_tukey(x, y, method="asymptotic")
    assert a.method == "asymptotic"
    assert abs(a.pvalue - ex["p_normal_perm_variance_no_cc"]) <= 1e-12


def test_exact_fractions_of_the_reference_note():
    got = [stats.siegel_tukey(e["x"], e["y"]).pvalue for e in EXAMPLES]
    want = [1 / 21, 4 / 63, 1 / 21, 5 / 63, 13 / 126]
    assert np.allclose(got, want, rtol=0, atol=1e-15)


def test_refs_agree_with_the_oracle():
    for ex in EXAMPLES:
        sx, sy = oracle_scores(ex["x"], ex["y"])
        assert [float(s) for s in sx] == pytest.approx(ex["st_ranks_x"], abs=1e-12)
        assert [float(s) for s in sy] == pytest.approx(ex["st_ranks_y"], abs=1e-12)
        assert oracle_pvalues(ex["x"], ex["y"])["two-sided"] == pytest.approx(
            ex["p_exact_permutation_two_sided"], abs=1e-12
        )


def test_no_ties_variants_agree():
    # Without ties and with equal even sizes the ST ranks are a permutation of 1..N, so DescTools'
    # exact Wilcoxon and the permutation test are the same test (models_offline.md 6.4).
    rng = np.random.default_rng(5)
    for _ in range(50):
        x, y = rng.normal(size=5), rng.normal(scale=2, size=5)
        exact = stats.siegel_tukey(x, y)
        desc = stats.siegel_tukey(x, y, variant="desctools")
        assert desc.method == "exact"
        assert desc.pvalue == pytest.approx(exact.pvalue, abs=1e-12)


# ---- independent enumeration on >= 1000 random cases ---------------------------------------


CASES = random_cases(1200, seed=4)


def test_enumeration_oracle_on_1200_random_cases():
    assert len(CASES) >= 1000
    kinds = {"ties": 0, "unequal": 0, "float": 0}
    for x, y in CASES:
        want = oracle_pvalues(x, y)
        for alt in ("two-sided", "greater", "less"):
            got = stats.siegel_tukey(x, y, alternative=alt, method="exact")
            assert abs(got.pvalue - want[alt]) <= 1e-12, (x, y, alt, got, want)
        assert stats.siegel_tukey(x, y).statistic == pytest.approx(want["statistic"], abs=1e-9)
        kinds["ties"] += len(set(x + y)) < len(x + y)
        kinds["unequal"] += len(x) != len(y)
        kinds["float"] += any(v != int(v) for v in x + y)
    assert min(kinds.values()) >= 200, kinds


def test_batch_equals_single_calls_on_random_cases():
    width = 8
    xb = np.full((len(CASES), width), np.nan)
    yb = np.full((len(CASES), width), np.nan)
    for i, (x, y) in enumerate(CASES):
        xb[i, : len(x)] = x
        yb[i, : len(y)] = y
    for variant in ("exact", "desctools"):
        res = stats.siegel_tukey_batch(xb, yb, variant=variant, alternative="less")
        for i, (x, y) in enumerate(CASES):
            try:
                one = stats.siegel_tukey(x, y, variant=variant, alternative="less")
            except DomainError:  # DescTools with all ST ranks equal: a status, not a number
                assert variant == "desctools" and res.status[i] == "zero_variance"
                assert np.isnan(res.pvalue[i])
                continue
            assert res.status[i] == "ok"
            assert res.pvalue[i] == one.pvalue and res.statistic[i] == one.statistic
            assert res.method[i] == one.method
        assert res.ok.mean() > 0.95


@settings(max_examples=60, deadline=None)
@given(
    x=st.lists(st.integers(1, 6), min_size=2, max_size=7),
    y=st.lists(st.integers(1, 6), min_size=2, max_size=7),
)
def test_hypothesis_against_oracle(x, y):
    if len(set(x + y)) == 1:
        with pytest.raises(DomainError):
            stats.siegel_tukey(x, y)
        return
    want = oracle_pvalues([float(v) for v in x], [float(v) for v in y])
    assert abs(stats.siegel_tukey(x, y).pvalue - want["two-sided"]) <= 1e-12


# ---- SciPy permutation_test as a second oracle --------------------------------------------


def test_scipy_permutation_test_oracle():
    rng = random.Random(7)
    checked = 0
    while checked < 150:
        x, y = random_case(rng)
        if len(set(x + y)) == 1 or len(x) + len(y) > 12:
            continue
        fx, fy = oracle_scores(x, y)
        # Integer-valued scores (times the lcm of the denominators): float sums are then exact, so
        # SciPy's tolerance-based comparison of statistics cannot miss a tie at the centre.
        lcm = math.lcm(*(f.denominator for f in fx + fy))
        sx, sy = (np.array([float(f * lcm) for f in v]) for v in (fx, fy))
        n_all, m = len(x) + len(y), len(x)
        t_all = sx.sum() + sy.sum()

        def dev(a, b, axis, n_all=n_all, m=m, t_all=t_all):
            return np.abs(n_all * np.sum(a, axis=axis) - m * t_all)

        def total(a, b, axis):
            return np.sum(a, axis=axis)

        kw = {"permutation_type": "independent", "n_resamples": np.inf, "vectorized": True}
        two = scipy_stats.permutation_test((sx, sy), dev, alternative="greater", **kw).pvalue
        more = scipy_stats.permutation_test((sx, sy), total, alternative="less", **kw).pvalue
        assert stats.siegel_tukey(x, y).pvalue == pytest.approx(two, abs=1e-12)
        assert stats.siegel_tukey(x, y, alternative="greater").pvalue == pytest.approx(more, abs=1e-12)
        checked += 1


# ---- DescTools variant against an independent re-implementation ------------------------------


def desctools_oracle(x, y, alternative):
    """DescTools 0.99.59 SiegelTukeyTest behaviour (from the reference notes), via SciPy's Mann-Whitney."""
    larger, smaller = (x, y) if len(x) > len(y) else (y, x)
    pooled = sorted([(v + 0.0, 0) for v in larger] + [(v + 0.0, 1) for v in smaller])
    if len(pooled) % 2:
        med = pooled[len(pooled) // 2][0]
        pooled.pop(next(i for i, p in enumerate(pooled) if p[0] == med))
    values = [p[0] for p in pooled]
    # Ranks through the same oracle, on the remaining pooled values.
    ranks, _ = oracle_scores(values, [])
    r0 = [float(r) for r, p in zip(ranks, pooled, strict=True) if p[1] == 0]
    r1 = [float(r) for r, p in zip(ranks, pooled, strict=True) if p[1] == 1]
    ties = len(set(r0 + r1)) < len(r0 + r1)
    method = "asymptotic" if ties or len(r0) >= 50 or len(r1) >= 50 else "exact"
    res = scipy_stats.mannwhitneyu(r0, r1, alternative=alternative, method=method, use_continuity=True)
    return res.pvalue, sum(r1)


def test_desctools_variant_against_scipy_mannwhitneyu():
    rng = random.Random(11)
    checked = 0
    while checked < 400:
        x, y = random_case(rng)
        if len(set(x + y)) == 1:
            continue
        for alt in ("two-sided", "greater", "less"):
            try:
                got = stats.siegel_tukey(x, y, variant="desctools", alternative=alt)
            except DomainError as exc:  # every ST rank equal: R gives NaN, we raise
                assert "tied" in str(exc) or "dispersion" in str(exc) or "equal" in str(exc)
                break
            p, st_sum = desctools_oracle(x, y, alt)
            assert got.pvalue == pytest.approx(p, abs=1e-9), (x, y, alt)
            assert got.statistic == pytest.approx(st_sum, abs=1e-9)
        checked += 1


# ---- directions, sizes, bad input ---------------------------------------------------------


def test_direction_of_alternatives():
    tight, spread = [5, 5, 6, 6, 5], [1, 3, 5, 8, 10]
    assert stats.siegel_tukey(spread, tight, alternative="greater").pvalue < 0.05
    assert stats.siegel_tukey(spread, tight, alternative="less").pvalue > 0.9
    assert stats.siegel_tukey(tight, spread, alternative="less").pvalue < 0.05


def test_large_samples_use_the_normal_approximation_in_auto():
    rng = np.random.default_rng(0)
    x, y = rng.normal(0, 1, 300), rng.normal(0, 2, 300)
    r = stats.siegel_tukey(x, y)
    assert r.method == "asymptotic" and 0 < r.pvalue < 1e-6
    small = stats.siegel_tukey(x[:30], y[:30])
    assert small.method == "exact"
    assert stats.siegel_tukey(x[:30], y[:30], method="asymptotic").pvalue == pytest.approx(
        small.pvalue, abs=0.02
    )


@pytest.mark.parametrize(
    ("x", "y", "match"),
    [
        ([1.0], [1.0, 2.0], "at least 2"),
        ([], [1.0, 2.0], "at least 2"),
        ([1.0, float("nan")], [1.0, 2.0], "finite"),
        ([1.0, float("inf")], [1.0, 2.0], "finite"),
        ([3, 3], [3, 3, 3], "tied"),
    ],
)
def test_bad_input_raises_domain_error(x, y, match):
    with pytest.raises(DomainError, match=match):
        stats.siegel_tukey(x, y)
    with pytest.raises(ValueError):  # DomainError is a ValueError
        stats.siegel_tukey(x, y, variant="desctools")


def test_all_scores_equal():
    # {1, 1} get ranks (1, 4) -> 2.5 and {5, 5} get (3, 2) -> 2.5: every split has the same sum.
    for method in ("auto", "exact", "asymptotic"):
        assert stats.siegel_tukey([1, 1], [5, 5], method=method).pvalue == 1.0
    with pytest.raises(DomainError, match="equal"):
        stats.siegel_tukey([1, 1], [5, 5], variant="desctools")
    with pytest.raises(DomainError, match="equal"):  # odd N: the median drop leaves {2, 2} vs {7, 7}
        stats.siegel_tukey([3, 2], [7, 7, 2], variant="desctools")
    res = stats.siegel_tukey_batch([[1, 1], [3, 2]], [[5, 5, np.nan], [7, 7, 2]], variant="desctools")
    assert list(res.status) == ["zero_variance"] * 2 and np.isnan(res.pvalue).all()


def test_bad_modes_and_types():
    with pytest.raises(ValueError, match="'two-sided'"):
        stats.siegel_tukey([1, 2], [3, 4], alternative="two.sided")
    with pytest.raises(ValueError, match="method"):
        stats.siegel_tukey([1, 2], [3, 4], method="permutation")
    with pytest.raises(ValueError, match="variant"):
        stats.siegel_tukey([1, 2], [3, 4], variant="jmu")
    for bad in ("12", b"12", None, {"a": 1}, ["a", "b"], [[1, 2]]):
        with pytest.raises(TypeError, match="x must be"):
            stats.siegel_tukey(bad, [1, 2])
    with pytest.raises(TypeError):
        stats.siegel_tukey([1, 2], [3, 4], alternative=3)


def test_batch_padding_statuses_and_shapes():
    nan, inf = np.nan, np.inf
    x = np.array(
        [
            [5, 5, 6, 6, 5],
            [1, 2, nan, 9, nan],  # NaN is padding wherever it is
            [1, nan, nan, nan, nan],
            [nan, nan, nan, nan, nan],
            [3, 3, 3, 3, 3],
            [1, inf, 2, 3, 4],
        ]
    )
    y = np.array(
        [[1, 3, 5, 8, 10], [4, 4.5, 5, nan, nan], [1, 2, 3, nan, nan], [1, 2, nan, nan, nan]]
        + [[3, 3, 3, 4, 5]] * 2
    )
    y[4] = [3, 3, nan, nan, nan]
    res = stats.siegel_tukey_batch(x, y)
    assert list(res.status) == ["ok", "ok", "too_few", "too_few", "all_tied", "non_finite"]
    assert list(res.method) == ["exact", "exact", "", "", "", ""]
    assert np.isnan(res.pvalue[2:]).all() and np.isnan(res.statistic[2:]).all()
    assert res.pvalue[1] == stats.siegel_tukey([1, 2, 9], [4, 4.5, 5]).pvalue
    assert len(res) == 6 and res.status_code.dtype == np.uint8
    with pytest.raises(ShapeError):
        stats.siegel_tukey_batch(x, y[:3])
    with pytest.raises(TypeError):
        stats.siegel_tukey_batch([1, 2, 3], [[1, 2, 3]])
    empty = stats.siegel_tukey_batch(np.zeros((0, 5)), np.zeros((0, 5)))
    assert len(empty) == 0
    # Fortran-ordered and integer inputs are converted, not misread.
    xi = np.asfortranarray(np.array([[1, 5, 9, 9], [2, 2, 3, 8]], dtype=np.int32))
    yi = np.array([[4, 5, 6, 5], [1, 9, 9, 1]], dtype=np.int64)
    fr = stats.siegel_tukey_batch(xi, yi)
    assert fr.pvalue[1] == stats.siegel_tukey([2, 2, 3, 8], [1, 9, 9, 1]).pvalue


def test_threads_share_the_core_safely():
    rng = np.random.default_rng(3)
    xb = rng.integers(1, 11, size=(20_000, 5)).astype(float)
    yb = rng.integers(1, 11, size=(20_000, 5)).astype(float)
    expected = stats.siegel_tukey_batch(xb, yb).pvalue
    errors: list[BaseException] = []

    def work():
        try:
            for _ in range(3):
                got = stats.siegel_tukey_batch(xb, yb).pvalue
                assert np.array_equal(got, expected, equal_nan=True)
                assert stats.siegel_tukey(xb[7], yb[7]).pvalue == expected[7] or np.isnan(expected[7])
        except BaseException as exc:  # collected and re-raised in the main thread
            errors.append(exc)

    threads = [threading.Thread(target=work) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert not any(t.is_alive() for t in threads)
    assert not errors, errors[0]


# ---- kappa, confusion metrics, Wilson -----------------------------------------------------


def nested_raters(n, a, b):
    """Rater A flags the first a items, rater B the first b: the paper's tables' nested pattern."""
    return [i < a for i in range(n)], [i < b for i in range(n)]


@pytest.mark.parametrize(
    ("n", "a", "b", "kappa"),
    [(8, 2, 1, 0.60), (18, 3, 2, 0.769), (19, 4, 6, 0.732), (25, 3, 4, 0.834), (13, 0, 0, 1.0)],
)
def test_kappa_reproduces_paper_rows(n, a, b, kappa):
    ra, rb = nested_raters(n, a, b)
    assert stats.cohen_kappa(ra, rb) == pytest.approx(kappa, abs=5e-4)


def test_kappa_general():
    a = ["yes"] * 25 + ["no"] * 25
    b = ["yes"] * 20 + ["no"] * 5 + ["yes"] * 10 + ["no"] * 15
    assert stats.cohen_kappa(a, b) == pytest.approx(0.4, abs=1e-12)
    # Three labels: against the textbook formula.
    rng = np.random.default_rng(1)
    u, v = rng.integers(0, 3, 200), rng.integers(0, 3, 200)
    table = np.zeros((3, 3))
    np.add.at(table, (u, v), 1)
    po = np.trace(table) / 200
    pe = (table.sum(0) * table.sum(1)).sum() / 200**2
    assert stats.cohen_kappa(u, v) == pytest.approx((po - pe) / (1 - pe), abs=1e-12)
    with pytest.raises(ShapeError):
        stats.cohen_kappa([1, 2], [1])
    with pytest.raises(DomainError):
        stats.cohen_kappa([], [])


def test_kappa_missing_labels_are_a_clear_error_not_a_number():
    nan = float("nan")
    for a, b, where in [
        ([0.0, nan, 1.0], [0.0, 1.0, 1.0], r"a\[1\]"),
        ([nan, nan], [nan, nan], r"a\[0\]"),
        ([1.0, 2.0], [1.0, nan], r"b\[1\]"),
        (["x", None], ["x", "y"], r"a\[1\]"),
        (np.array([1, nan], dtype=np.float32), [1, 2], r"a\[1\]"),
    ]:
        with pytest.raises(DomainError, match=where + ".*missing label"):
            stats.cohen_kappa(a, b)
    # The low-level function converts floats itself: a NaN is never cast to some integer code.
    with pytest.raises(DomainError, match=r"a\[0\] is NaN"):
        _core.cohen_kappa([nan, 1.0], [0, 1])
    with pytest.raises(ValueError, match="not an integer label code"):
        _core.cohen_kappa([0.5, 1], [0, 1])
    assert _core.cohen_kappa([1.0, 2.0], [1, 2]) == 1.0  # whole-number floats are codes
    assert stats.cohen_kappa([1.5, 2.5], [1.5, 2.5]) == 1.0  # any label values through stats


def test_confusion_metrics():
    t = [1, 1, 1, 0, 0, 0, 0, 1, 1, 0]
    p = [1, 0, 1, 0, 1, 0, 0, 1, 1, 1]
    m = stats.confusion_metrics(t, p, positive=1)
    assert (m.tp, m.fp, m.fn, m.tn) == (4, 2, 1, 3)
    assert m.accuracy == pytest.approx(0.7)
    assert m.precision == pytest.approx(4 / 6)
    assert m.recall == pytest.approx(4 / 5)
    f1_pos = 2 * 4 / (2 * 4 + 2 + 1)
    f1_neg = 2 * 3 / (2 * 3 + 1 + 2)
    assert m.f1 == pytest.approx(f1_pos)
    assert m.macro_f1 == pytest.approx((f1_pos + f1_neg) / 2)
    none = stats.confusion_metrics([True, False], [False, False], zero_division=float("nan"))
    assert math.isnan(none.precision) and none.recall == 0.0
    assert stats.confusion_metrics(["a", "b"], ["a", "a"], positive="a").precision == 0.5


def test_wilson_interval():
    lo, hi = stats.wilson_interval(2, 17)
    z = 1.959963984540054
    p, n = 2 / 17, 17
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    assert (lo, hi) == pytest.approx((centre - half, centre + half), abs=1e-12)
    assert stats.wilson_interval(0, 10)[0] == 0.0
    assert stats.wilson_interval(10, 10)[1] == 1.0
    lo90, hi90 = stats.wilson_interval(2, 17, confidence=0.90)
    assert lo < lo90 < hi90 < hi
    with pytest.raises(DomainError):
        stats.wilson_interval(0, 0)
    with pytest.raises(ValueError):
        stats.wilson_interval(3, 2)
    with pytest.raises(ValueError):
        stats.wilson_interval(1, 2, confidence=1.5)


@pytest.mark.parametrize(
    ("successes", "n", "error", "message"),
    [
        (-1, 10, ValueError, "successes must not be negative"),
        (3, -10, ValueError, "n must not be negative"),
        (2**64, 2**64, ValueError, "too large"),
        (3.0, 10, TypeError, "must be an int"),
        (True, 10, TypeError, "got bool"),
        ("3", 10, TypeError, "must be an int"),
    ],
)
def test_wilson_counts_are_validated(successes, n, error, message):
    with pytest.raises(error, match=message) as info:
        stats.wilson_interval(successes, n)
    assert not isinstance(info.value, OverflowError)
    assert stats.wilson_interval(np.int64(3), 10) == stats.wilson_interval(3, 10)
