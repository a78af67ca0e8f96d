"""Running a judge over a stream of items: request keys, the worker pool, the store, progress, outputs.

:func:`run_judge` sends every item whose request is not already finished in the store, with at most
``concurrency`` requests in flight, and commits results in batches. Items are read lazily: memory
holds one read batch, the queue and the requests in flight, whatever the number of items.
:func:`collect` then streams the items again, looks their results up in the store, writes the
per-item JSONL and counts the agreement with the human labels. :func:`estimate` is the dry run.
"""

from __future__ import annotations

import asyncio
import json
import sys
import time
import zlib
from collections import Counter, deque
from collections.abc import Callable, Coroutine, Iterable, Iterator, Mapping
from dataclasses import asdict, dataclass, field
from itertools import islice
from typing import IO, Any, Literal, TypeVar

from matheval_fast._report.progress import NullBar, progress_bar
from matheval_fast.judge.client import ChatClient, ClientOptions, Completion, Secret, chat_body, encode_body
from matheval_fast.judge.cost import Price, TokenEstimator
from matheval_fast.judge.data import JudgeItem
from matheval_fast.judge.metrics import AgreementCounter
from matheval_fast.judge.store import RunStore, StoredResult, request_key
from matheval_fast.judge.templates import Template
from matheval_fast.judge.verdicts import ParsedVerdict, majority_vote, parse_verdict

__all__ = [
    "DryRunEstimate",
    "JudgeConfig",
    "RunStats",
    "SamplingParams",
    "check_endpoint",
    "collect",
    "estimate",
    "judge_completions",
    "run_async",
    "run_judge",
]

_READ_BATCH = 256
T = TypeVar("T")


def run_async(coro: Coroutine[Any, Any, T]) -> T:
    """Run ``coro`` on uvloop when it is installed (about 15 % less client CPU per request than
    asyncio's default loop, measured in ``benches/judge_throughput.py``), else on asyncio."""
    try:
        import uvloop
    except ImportError:
        return asyncio.run(coro)
    return uvloop.run(coro)


@dataclass(frozen=True)
class SamplingParams:
    """What is sent with every request (all of it goes into the store key)."""

    temperature: float | None = 0.0
    seed: int | None = 0
    #: None: the template's ``default_max_tokens``.
    max_tokens: int | None = None
    #: samples per item, majority-voted.
    n: int = 1
    #: ``"n"``: one request asking for n choices; ``"requests"``: n requests with seeds seed, seed+1, ...
    #: (for servers that ignore ``n``, such as llama.cpp and Ollama).
    samples_via: Literal["n", "requests"] = "n"
    json_mode: bool = False
    top_p: float | None = None

    def __post_init__(self) -> None:
        if self.n < 1:
            raise ValueError(f"n must be >= 1, got {self.n}")
        if self.samples_via not in ("n", "requests"):
            raise ValueError(f"samples_via must be 'n' or 'requests', got {self.samples_via!r}")
        if self.max_tokens is not None and self.max_tokens < 1:
            raise ValueError(f"max_tokens must be >= 1, got {self.max_tokens}")

    def resolved(self, template: Template) -> dict[str, Any]:
        d = asdict(self)
        d["max_tokens"] = self.max_tokens or template.default_max_tokens
        return d


@dataclass(frozen=True)
class JudgeConfig:
    """Everything a run needs except the items, the key and the store."""

    base_url: str
    model: str
    template: Template
    sampling: SamplingParams = field(default_factory=SamplingParams)
    client: ClientOptions = field(default_factory=ClientOptions)
    #: send again the requests the store holds as failed.
    retry_failed: bool = False
    #: stop the run after this many items in a row ended failed (0: never).
    abort_after_failures: int = 50
    price: Price | None = None
    #: check the endpoint with GET /models before the first request.
    preflight: bool = True

    def describe(self) -> dict[str, Any]:
        """JSON-ready description (no key: the key is never part of the config)."""
        return {
            "base_url": self.base_url,
            "model": self.model,
            "template": self.template.describe(),
            "sampling": self.sampling.resolved(self.template),
            "client": asdict(self.client),
            "retry_failed": self.retry_failed,
            "price": asdict(self.price) if self.price else None,
        }


@dataclass
class Prepared:
    item: JudgeItem
    key: str
    #: JSON request bodies as sent (one, or n with samples_via="requests").
    bodies: list[bytes]
    messages: list[dict[str, str]]
    est_tokens: int


def prepare(item: JudgeItem, cfg: JudgeConfig, params: Mapping[str, Any]) -> Prepared:
    """The request key and body(ies) of one item."""
    sp = cfg.sampling
    messages = cfg.template.messages(item.inputs, json_mode=sp.json_mode)
    max_tokens = params["max_tokens"]
    if sp.samples_via == "n" or sp.n == 1:
        bodies = [
            chat_body(
                cfg.model,
                messages,
                temperature=sp.temperature,
                max_tokens=max_tokens,
                seed=sp.seed,
                n=sp.n,
                top_p=sp.top_p,
                json_mode=sp.json_mode,
            )
        ]
        per_request = sp.n
    else:
        bodies = [
            chat_body(
                cfg.model,
                messages,
                temperature=sp.temperature,
                max_tokens=max_tokens,
                seed=None if sp.seed is None else sp.seed + i,
                n=1,
                top_p=sp.top_p,
                json_mode=sp.json_mode,
            )
            for i in range(sp.n)
        ]
        per_request = 1
    payloads = [encode_body(b) for b in bodies]
    key = request_key(cfg.model, cfg.template.version, messages, params)
    prompt_chars = sum(len(m["content"]) for m in messages)
    est = prompt_chars // 4 + 4 * len(messages) + 3 + max_tokens * per_request
    return Prepared(item, key, payloads, messages, est)


def judge_completions(
    completions: list[Completion], *, n: int
) -> tuple[str, str | None, str | None, dict[str, int]]:
    """(status, verdict, reason, votes) from the completions of one item.

    A failed request fails the item. ``content_filter`` answers are failures too (the judge gave no
    answer); an answer cut by ``max_tokens`` counts only when it starts with its verdict.
    """
    if n == 1 and len(completions) == 1:
        c = completions[0]
        if c.ok and len(c.texts) == 1 and c.finish_reasons[0] == "stop":
            # The common case, one sample that ended normally: no vote to count.
            p = parse_verdict(c.texts[0])
            return "done", p.verdict, p.reason, {"yes": 0, "no": 0, "unparseable": 0, p.verdict: 1}
    for c in completions:
        if not c.ok:
            return "failed", None, c.error, {"yes": 0, "no": 0, "unparseable": 0}
    parsed: list[ParsedVerdict] = []
    filtered = 0
    for c in completions:
        for text, finish in zip(c.texts, c.finish_reasons, strict=True):
            if finish == "content_filter":
                filtered += 1
                continue
            p = parse_verdict(text, truncated=finish == "length")
            if finish == "length" and p.verdict == "unparseable":
                p = ParsedVerdict("unparseable", "", "answer cut by max_tokens (finish_reason=length)")
            parsed.append(p)
    if not parsed:
        return (
            "failed",
            None,
            "finish_reason=content_filter: the endpoint withheld the answer",
            {
                "yes": 0,
                "no": 0,
                "unparseable": 0,
            },
        )
    vote = majority_vote(p.verdict for p in parsed)
    votes = {"yes": vote.yes, "no": vote.no, "unparseable": vote.unparseable}
    notes = []
    if vote.verdict == "unparseable":
        notes.append(vote.reason if len(parsed) > 1 else parsed[0].reason)
    received = len(parsed) + filtered
    if received < n:
        notes.append(f"asked for {n} samples, got {received}")
    if filtered:
        notes.append(f"{filtered} sample(s) withheld by content_filter")
    return "done", vote.verdict, "; ".join(str(x) for x in notes if x) or None, votes


@dataclass
class RunStats:
    """Counters of one :func:`run_judge` call."""

    items: int = 0
    #: items whose request was already finished in the store (nothing sent).
    reused: int = 0
    #: items whose request equals one already queued in this run (sent once).
    duplicates: int = 0
    #: items judged by this run: done + failed.
    sent: int = 0
    done: int = 0
    failed: int = 0
    yes: int = 0
    no: int = 0
    unparseable: int = 0
    #: HTTP attempts, retries included.
    requests: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost: float = 0.0
    elapsed_s: float = 0.0
    aborted: str | None = None
    failure_reasons: Counter[str] = field(default_factory=Counter)

    @property
    def finished(self) -> int:
        return self.reused + self.duplicates + self.sent

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["failure_reasons"] = dict(self.failure_reasons.most_common(20))
        d["items_per_s"] = self.sent / self.elapsed_s if self.elapsed_s > 0 else None
        return d


def _fmt_eta(seconds: float) -> str:
    s = int(seconds)
    return f"{s // 3600}:{s // 60 % 60:02d}:{s % 60:02d}"


class _Progress:
    """A tqdm bar on a terminal; elsewhere a plain line on stderr every ``every`` seconds."""

    def __init__(self, total: int | None, enabled: bool, every: float, currency: str | None) -> None:
        self.bar = progress_bar(total, enabled=enabled, desc="judge", unit="item")
        self.lines = enabled and isinstance(self.bar, NullBar) and every > 0
        self.total, self.every, self.currency = total, every, currency
        self.t0 = self.last_line = time.monotonic()
        self.shown = 0

    def update(self, stats: RunStats, *, final: bool = False) -> None:
        done = stats.finished
        self.bar.update(done - self.shown)
        self.shown = done
        tokens = f"{stats.prompt_tokens:,} in / {stats.completion_tokens:,} out"
        cost = f"{stats.cost:.4f} {self.currency}" if self.currency else None
        post = {"tok": tokens, "fail": stats.failed, "unp": stats.unparseable}
        if cost:
            post["cost"] = cost
        self.bar.set_postfix(post, refresh=False)
        now = time.monotonic()
        if self.lines and (final or now - self.last_line >= self.every):
            self.last_line = now
            elapsed = now - self.t0
            rate = stats.sent / elapsed if elapsed > 0 else 0.0
            left = (self.total - done) if self.total is not None else None
            eta = _fmt_eta(left / rate) if rate > 0 and left is not None else "?"
            of = f"/{self.total:,}" if self.total is not None else ""
            pct = f" ({100 * done / self.total:.1f}%)" if self.total else ""
            msg = (
                f"judge: {done:,}{of} items{pct}, {rate:,.1f} judged/s, ETA {eta}, tokens {tokens}"
                + (f", cost {cost}" if cost else "")
                + f", failed {stats.failed}, unparseable {stats.unparseable}"
            )
            print(msg, file=sys.stderr, flush=True)

    def close(self) -> None:
        self.bar.close()


def _stored(p: Prepared, completions: list[Completion], cfg: JudgeConfig, run_id: int) -> StoredResult:
    status, verdict, reason, votes = judge_completions(completions, n=cfg.sampling.n)
    texts = [t for c in completions for t in c.texts]
    finish = [f for c in completions for f in c.finish_reasons]
    raw = completions[0].raw if len(completions) == 1 else json.dumps([c.raw for c in completions])
    return StoredResult(
        key=p.key,
        status=status,
        verdict=verdict,
        votes=f'{{"yes": {votes["yes"]}, "no": {votes["no"]}, "unparseable": {votes["unparseable"]}}}',
        reason=reason,
        texts=json.dumps(texts),
        finish_reasons='["stop"]' if finish == ["stop"] else json.dumps(finish),
        raw=raw,
        prompt_tokens=sum(c.prompt_tokens for c in completions),
        completion_tokens=sum(c.completion_tokens for c in completions),
        latency_ms=sum(c.latency_ms for c in completions),
        attempts=sum(c.attempts for c in completions),
        http_status=completions[-1].status,
        model=cfg.model,
        template=cfg.template.version,
        item_id=p.item.id,
        run_id=run_id,
        created=time.time(),
    )


async def _preflight(client: ChatClient, cfg: JudgeConfig) -> None:
    models = await client.preflight(cfg.model)
    if models and cfg.model not in models:
        # Not an error: some servers (llama.cpp) list one name and answer to any.
        print(
            f"judge: warning: {cfg.base_url} does not list model {cfg.model!r} "
            f"(it lists {', '.join(models[:10])}); sending anyway",
            file=sys.stderr,
        )


async def check_endpoint(cfg: JudgeConfig, *, api_key: Secret | None) -> None:
    """Raise :class:`~matheval_fast.judge.client.EndpointError` when the endpoint cannot be
    reached or rejects the key (``GET /models``); nothing is judged."""
    async with ChatClient(cfg.base_url, api_key=api_key, options=cfg.client) as client:
        await _preflight(client, cfg)


class RunAborted(RuntimeError):
    """A run stopped from outside (its parent process is gone)."""


def shard_of(item: JudgeItem, n_shards: int) -> int:
    """The shard (0..n_shards-1) of an item: a CRC of its inputs, so items with the same request
    (same inputs, same run settings) share a shard, and the same in every process."""
    return zlib.crc32("\x00".join(item.inputs.values()).encode("utf-8", "surrogatepass")) % n_shards


async def run_judge(
    items: Iterable[JudgeItem],
    store: RunStore,
    cfg: JudgeConfig,
    *,
    api_key: Secret | None,
    total: int | None = None,
    progress: bool = False,
    progress_every: float = 10.0,
    on_result: Callable[[StoredResult], None] | None = None,
    shard: tuple[int, int] | None = None,
    on_tick: Callable[[RunStats], None] | None = None,
) -> RunStats:
    """Judge ``items`` (streamed), skipping requests the store already finished.

    ``shard=(k, K)`` judges only the items of shard ``k`` of ``K`` (:func:`shard_of`; identical
    requests share a shard, so each is still sent once); :mod:`~matheval_fast.judge.parallel` runs
    the K shards in K processes. ``on_tick`` is called with the counters about twice a second.

    Returns the counters; ``stats.aborted`` holds the reason when the run stopped early because
    ``cfg.abort_after_failures`` items in a row failed. The store is flushed on every exit, including
    cancellation (Ctrl-C).
    """
    params = cfg.sampling.resolved(cfg.template)
    stats = RunStats()
    run_id = store.start_run(cfg.describe())
    concurrency = cfg.client.concurrency
    queue: asyncio.Queue[Prepared | None] = asyncio.Queue(maxsize=2 * concurrency)
    # Keys queued, in flight, or written to the store's buffer but not yet committed: a duplicate
    # of any of them must not be sent (the store cannot see it yet).
    pending: set[str] = set()
    # (batch number, key) of results handed to the store, oldest first.
    uncommitted: deque[tuple[int, str]] = deque()
    consecutive_failures = 0
    stop = asyncio.Event()
    bar = _Progress(total, progress, progress_every, cfg.price.currency if cfg.price else None)
    t0 = time.perf_counter()

    def release() -> None:
        # Keys whose batch is on disk: from now on the store answers for them.
        done = store.committed
        while uncommitted and uncommitted[0][0] <= done:
            pending.discard(uncommitted.popleft()[1])

    def flush() -> None:
        store.flush()
        release()

    def record(result: StoredResult) -> None:
        nonlocal consecutive_failures
        stats.sent += 1
        stats.prompt_tokens += result.prompt_tokens
        stats.completion_tokens += result.completion_tokens
        if cfg.price is not None:
            stats.cost += cfg.price.cost(result.prompt_tokens, result.completion_tokens)
        if result.status == "failed":
            stats.failed += 1
            reason = str(result.reason)
            if reason not in stats.failure_reasons and len(stats.failure_reasons) >= 1000:
                reason = "(other reasons)"  # keeps memory bounded when every error text differs
            stats.failure_reasons[reason] += 1
            consecutive_failures += 1
        else:
            stats.done += 1
            consecutive_failures = 0
            if result.verdict == "yes":
                stats.yes += 1
            elif result.verdict == "no":
                stats.no += 1
            else:
                stats.unparseable += 1
        uncommitted.append((store.next_batch, result.key))
        store.add(result)
        if on_result is not None:
            on_result(result)
        if (
            cfg.abort_after_failures
            and consecutive_failures >= cfg.abort_after_failures
            and not stats.aborted
        ):
            stats.aborted = (
                f"stopped after {consecutive_failures} items in a row failed (last: {result.reason}); "
                "finished items are kept: fix the cause and rerun with --resume --retry-failed"
            )
            stop.set()

    async with ChatClient(cfg.base_url, api_key=api_key, options=cfg.client) as client:
        if cfg.preflight:
            await _preflight(client, cfg)

        async def producer() -> None:
            it = iter(items)
            while True:
                batch = list(islice(it, _READ_BATCH))
                if not batch:
                    break
                if shard is not None:
                    k, n_shards = shard
                    batch = [item for item in batch if shard_of(item, n_shards) == k]
                prepared = [prepare(item, cfg, params) for item in batch]
                finished = store.finished([p.key for p in prepared], retry_failed=cfg.retry_failed)
                for p in prepared:
                    stats.items += 1
                    if p.key in finished:
                        stats.reused += 1
                    elif p.key in pending:
                        stats.duplicates += 1
                    else:
                        pending.add(p.key)
                        await queue.put(p)

        async def worker() -> None:
            while True:
                p = await queue.get()
                if p is None:
                    return
                completions = [await client.create(body, p.est_tokens) for body in p.bodies]
                record(_stored(p, completions, cfg, run_id))

        async def flow() -> None:
            await producer()
            for _ in workers:
                await queue.put(None)
            await asyncio.gather(*workers)

        async def ticker() -> None:
            while True:
                await asyncio.sleep(min(store.commit_seconds, 0.5))
                store.submit()
                release()
                stats.requests = client.requests_sent
                bar.update(stats)
                if on_tick is not None:
                    on_tick(stats)

        workers = [asyncio.create_task(worker()) for _ in range(concurrency)]
        tasks = [asyncio.create_task(flow()), asyncio.create_task(stop.wait()), asyncio.create_task(ticker())]
        try:
            # Until the items are all judged or the run is stopped; a task that raises (bad data
            # in the input, say) ends the run with its exception.
            watch = {*tasks, *workers}
            while True:
                done, watch = await asyncio.wait(watch, return_when=asyncio.FIRST_COMPLETED)
                for t in done:
                    if not t.cancelled() and t.exception() is not None:
                        raise t.exception()  # type: ignore[misc]
                if tasks[0] in done or tasks[1] in done:
                    break
            # When stopped early, requests in flight are abandoned: they are not in the store, so
            # the next run sends them.
        finally:
            for t in (*workers, *tasks):
                t.cancel()
            await asyncio.gather(*workers, *tasks, return_exceptions=True)
            stats.requests = client.requests_sent
            stats.elapsed_s = time.perf_counter() - t0
            flush()
            store.finish_run(run_id, stats.to_dict())
            bar.update(stats, final=True)
            bar.close()
    return stats


# ---- outputs -------------------------------------------------------------------------------------


@dataclass
class CollectStats:
    items: int = 0
    done: int = 0
    failed: int = 0
    pending: int = 0
    yes: int = 0
    no: int = 0
    unparseable: int = 0
    #: 2x2 counts per pair of label fields: (both yes, a yes b no, a no b yes, both no).
    label_pairs: dict[tuple[str, str], list[int]] = field(default_factory=dict)


def collect(
    items: Iterable[JudgeItem],
    store: RunStore,
    cfg: JudgeConfig,
    counter: AgreementCounter,
    *,
    label_fields: tuple[str, ...] = (),
    out: IO[str] | None = None,
) -> CollectStats:
    """Stream ``items`` again, join their stored results, count agreement and write per-item JSONL."""
    params = cfg.sampling.resolved(cfg.template)
    cs = CollectStats()
    pairs = [(a, b) for i, a in enumerate(label_fields) for b in label_fields[i + 1 :]]
    cs.label_pairs = {p: [0, 0, 0, 0] for p in pairs}
    it = iter(items)
    while True:
        batch = list(islice(it, 1000))
        if not batch:
            break
        prepared = [prepare(item, cfg, params) for item in batch]
        rows = store.get_many(p.key for p in prepared)
        for p in prepared:
            item, row = p.item, rows.get(p.key)
            cs.items += 1
            if row is None:
                status, verdict = "pending", None
                cs.pending += 1
            else:
                status, verdict = row.status, row.verdict
                if status == "failed":
                    cs.failed += 1
                else:
                    cs.done += 1
                    if verdict == "yes":
                        cs.yes += 1
                    elif verdict == "no":
                        cs.no += 1
                    else:
                        cs.unparseable += 1
            gold = item.gold
            counter.add(gold, verdict, item.groups)
            for (a, b), c in cs.label_pairs.items():
                va = item.labels[label_fields.index(a)]
                vb = item.labels[label_fields.index(b)]
                if va is not None and vb is not None:
                    c[(0 if va else 2) + (0 if vb else 1)] += 1
            if out is not None:
                rec: dict[str, Any] = {
                    "id": item.id,
                    "index": item.index,
                    "status": status,
                    "verdict": verdict,
                    "gold": gold,
                    "agree": None
                    if gold is None or verdict not in ("yes", "no")
                    else (verdict == "yes") == gold,
                    "labels": dict(zip(label_fields, item.labels, strict=True)),
                    **item.groups,
                }
                if row is not None:
                    rec.update(
                        reason=row.reason,
                        votes=json.loads(row.votes),
                        answers=json.loads(row.texts),
                        finish_reasons=json.loads(row.finish_reasons),
                        prompt_tokens=row.prompt_tokens,
                        completion_tokens=row.completion_tokens,
                        latency_ms=round(row.latency_ms, 3),
                        attempts=row.attempts,
                        http_status=row.http_status,
                    )
                rec["key"] = p.key
                out.write(json.dumps(rec, ensure_ascii=False) + "\n")
    return cs


# ---- dry run --------------------------------------------------------------------------------------


@dataclass
class DryRunEstimate:
    """What a run would send (nothing is sent to estimate it)."""

    items: int = 0
    already_finished: int = 0
    duplicates: int = 0
    to_send: int = 0
    requests: int = 0
    prompt_tokens: int = 0
    completion_tokens_expected: int = 0
    completion_tokens_max: int = 0
    cost_expected: float | None = None
    cost_max: float | None = None
    currency: str | None = None
    token_method: str = ""

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def estimate(
    items: Iterable[JudgeItem],
    cfg: JudgeConfig,
    *,
    store: RunStore | None = None,
    estimator: TokenEstimator | None = None,
) -> DryRunEstimate:
    """Tokens and cost of the requests a run would send (items already finished in ``store`` are free).

    Duplicated requests are counted once, within a bounded window of recent keys.
    """
    estimator = estimator or TokenEstimator()
    params = cfg.sampling.resolved(cfg.template)
    sp = cfg.sampling
    requests_per_item = sp.n if sp.samples_via == "requests" else 1
    est = DryRunEstimate(token_method=estimator.method)
    recent: dict[str, None] = {}
    it: Iterator[JudgeItem] = iter(items)
    while True:
        batch = list(islice(it, 1000))
        if not batch:
            break
        prepared = [prepare(item, cfg, params) for item in batch]
        finished = (
            store.finished([p.key for p in prepared], retry_failed=cfg.retry_failed) if store else set()
        )
        for p in prepared:
            est.items += 1
            if p.key in finished:
                est.already_finished += 1
                continue
            if p.key in recent:
                est.duplicates += 1
                continue
            recent[p.key] = None
            if len(recent) > 100_000:
                recent.pop(next(iter(recent)))
            est.to_send += 1
            est.requests += requests_per_item
            est.prompt_tokens += estimator.count(p.messages) * requests_per_item
            est.completion_tokens_expected += cfg.template.expected_output_tokens * sp.n
            est.completion_tokens_max += params["max_tokens"] * sp.n
    if cfg.price is not None:
        est.currency = cfg.price.currency
        est.cost_expected = cfg.price.cost(est.prompt_tokens, est.completion_tokens_expected)
        est.cost_max = cfg.price.cost(est.prompt_tokens, est.completion_tokens_max)
    return est
