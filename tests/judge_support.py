"""Shared helpers of the judge tests: tagged items and runs against the fake server."""

from __future__ import annotations

import asyncio
import json
from collections import Counter
from pathlib import Path
from typing import Any

from matheval_fast.judge.client import ClientOptions, Secret
from matheval_fast.judge.data import DatasetSpec, iter_items, scan
from matheval_fast.judge.run import JudgeConfig, RunStats, SamplingParams, run_judge
from matheval_fast.judge.store import RunStore
from matheval_fast.judge.templates import load_template

FLAWED = "This cannot be solved: the conditions contradict each other."
PLAIN = "The answer is 6."


def item(tag: str, *, flawed: bool, label: bool | None = None, extra: str = "") -> dict[str, Any]:
    """An item whose prompt carries ``[#tag]`` (the server's plan and log key)."""
    rec: dict[str, Any] = {
        "id": tag,
        "problem": f"[#{tag}] A triangle has sides 3, 4 and {len(tag) + 8}. Find its area.{extra}",
        "response": FLAWED if flawed else PLAIN,
        "fault_type": "contradiction" if flawed else "none",
    }
    if label is not None:
        rec["label"] = "yes" if label else "no"
    return rec


def write_items(path: Path, rows: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def config(url: str, prompt: str = "simple", **client: Any) -> JudgeConfig:
    opts = {"concurrency": 4, "timeout": 5.0, "max_retries": 3, "backoff_base": 0.01, "backoff_max": 0.05}
    opts.update(client)
    return JudgeConfig(
        base_url=url, model="test-judge", template=load_template(prompt), client=ClientOptions(**opts)
    )


def run(
    path: Path, store_path: Path, cfg: JudgeConfig, *, api_key: Secret | None = None, **spec_kw: Any
) -> RunStats:
    spec = scan(DatasetSpec(path, inputs=cfg.template.inputs, **spec_kw)).spec
    with RunStore(store_path) as store:
        return asyncio.run(run_judge(iter_items(spec), store, cfg, api_key=api_key))


def chat_tags(server: Any) -> Counter[str]:
    """How many chat-completions requests the server got per item tag."""
    return Counter(r.tag for r in server.requests if r.path.endswith("/chat/completions"))


__all__ = ["FLAWED", "PLAIN", "SamplingParams", "chat_tags", "config", "item", "run", "write_items"]
