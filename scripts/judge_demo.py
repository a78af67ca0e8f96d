"""`make demo`, protocol C: the judge against a local OpenAI-compatible endpoint the demo starts itself.

Starts matheval_fast.judge.fake_server on 127.0.0.1 (a rule-based stand-in for a judge model, see its
docstring), then runs the real command line against it on the bundled SYNTHETIC FaultyMath-style demo
set: a dry run with a made-up price table, then the Simple, Simple + Explanation and Chain-of-thought
prompts, and prints their agreement with the made-up reviewers side by side, as the paper's table does.
Nothing leaves the machine; the key is a throwaway value set in this process only.
"""

from __future__ import annotations

import json
import os
import sys

from matheval_fast._report.tables import markdown_table
from matheval_fast.cli import main
from matheval_fast.judge.fake_server import FakeJudgeServer

DATA = "data/judge/faultymath_demo.jsonl"
PRICES = "data/judge/demo_prices.json"
METRICS = ("accuracy", "macro_f1", "positive_f1", "eval_rate")


def judge(*argv: str) -> None:
    print(f"\n$ matheval-fast judge {' '.join(argv)}", flush=True)
    rc = main(["judge", *argv])
    if rc != 0:
        sys.exit(rc)


def run() -> None:
    os.environ["MATHEVAL_DEMO_KEY"] = "demo-key-not-a-secret"
    with FakeJudgeServer(api_key=os.environ["MATHEVAL_DEMO_KEY"]) as server:
        common = [
            "--base-url",
            server.base_url,
            "--model",
            "test-judge",
            "--api-key-env",
            "MATHEVAL_DEMO_KEY",
        ]
        common += ["--price-table", PRICES, "--resume", "--quiet"]
        judge(DATA, "--prompt", "simple", "--out", "out/judge_demo/simple", "--dry-run", *common)
        rows = []
        for prompt in ("simple", "explain", "cot"):
            judge(DATA, "--prompt", prompt, "--out", f"out/judge_demo/{prompt}", *common)
            if prompt == "simple":
                with open("out/judge_demo/simple/summary.md", encoding="utf-8") as fh:
                    print(fh.read())
            with open(f"out/judge_demo/{prompt}/summary.json", encoding="utf-8") as fh:
                o = json.load(fh)["agreement"]["overall"]
            rows.append((prompt, o["scored"], *(f"{100 * o[k]:.2f}" for k in METRICS), f"{o['kappa']:.3f}"))
        print(
            "\nThe three FaultyMath prompts on the synthetic demo set (judge: the rule-based test server):\n"
        )
        head = ["prompt", "n", "Acc", "Macro-F1", "Pos-F1", "Eval", "kappa"]
        print(markdown_table(head, rows, align="lrrrrrr"))
        print(f"\nfake judge server answered {len(server.requests)} requests", flush=True)


if __name__ == "__main__":
    run()
