"""A real TRL run: GRPOTrainer, a few steps on CPU, with matheval_fast's reward functions.

Two configurations on real items (GSM8K questions with their worked solutions; MATH prealgebra problems
with theirs): ``accuracy_reward`` alone, and ``reasoning_accuracy_reward`` beside a named
``AccuracyReward``. Every reward the trainer received equals ``check()`` on the same completion and
solution (after the reasoning cut for the reasoning reward), and each step's logged
``rewards/<name>/mean`` equals the mean of that step's rewards. Prints one RESULT line (JSON) per
configuration.

    <trl venv>/bin/python scripts/frameworks/run_trl.py    (PYTHONPATH=python; see `make test-frameworks`)
"""

from __future__ import annotations

import json
import math
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import compare, gsm8k, math_items, nanmean, tiny_model


class Recorder:
    """A reward function that records what the trainer passed and what it returned."""

    def __init__(self, fn: Any, name: str, reasoning: bool = False) -> None:
        self.fn, self.__name__, self.reasoning = fn, name, reasoning
        self.calls: list[tuple[list[str], list[str], list[float | None]]] = []

    def __call__(self, completions: list[Any], solution: list[str], **kwargs: Any) -> list[float | None]:
        rewards = self.fn(completions, solution, **kwargs)
        texts = [c if isinstance(c, str) else c[-1]["content"] for c in completions]
        self.calls.append((texts, list(solution), list(rewards)))
        return rewards

    def records(self) -> list[tuple[str | None, str | None, float | None]]:
        out = []
        for texts, golds, rewards in self.calls:
            for t, g, r in zip(texts, golds, rewards, strict=True):
                if self.reasoning:
                    if "</think>" not in t:
                        assert r == 0.0, (t, r)  # unfinished reasoning: 0.0, not graded
                        continue
                    t = t.split("</think>")[-1]
                out.append((t, g, r))
        return out


def run(
    name: str, rows: list[dict[str, str]], funcs: list[Recorder], model: Path, out: Path
) -> dict[str, Any]:
    from datasets import Dataset
    from transformers import TrainerCallback
    from trl import GRPOConfig, GRPOTrainer

    logs: list[dict[str, float]] = []

    class Keep(TrainerCallback):
        def on_log(self, args: Any, state: Any, control: Any, logs_: Any = None, **kw: Any) -> None:
            logs.append(dict(kw.get("logs") or logs_ or {}))

    config = GRPOConfig(
        output_dir=str(out / name),
        per_device_train_batch_size=8,
        num_generations=4,
        max_completion_length=6,
        max_steps=3,
        logging_steps=1,
        learning_rate=1e-4,
        report_to="none",
        save_strategy="no",
        use_cpu=True,
        seed=0,
    )
    trainer = GRPOTrainer(
        model=str(model),
        reward_funcs=funcs,
        args=config,
        train_dataset=Dataset.from_list(rows),
        callbacks=[Keep()],
    )
    trainer.train()
    step_logs = [entry for entry in logs if any(k.startswith("rewards/") for k in entry)]
    summary: dict[str, Any] = {"run": name, "steps": len(step_logs), "functions": []}
    for f in funcs:
        result = compare(f.records(), f"trl {name} {f.__name__}")
        key = f"rewards/{f.__name__}/mean"
        assert len(f.calls) == len(step_logs) == config.max_steps, (len(f.calls), len(step_logs))
        for k, (entry, (_t, _g, rewards)) in enumerate(zip(step_logs, f.calls, strict=True)):
            logged, mean = entry[key], nanmean(rewards)
            assert (math.isnan(logged) and math.isnan(mean)) or abs(logged - mean) < 1e-6, (
                k,
                key,
                logged,
                mean,
            )
        result["logged_means"] = [entry[key] for entry in step_logs]
        summary["functions"].append(result)
    return summary


def main() -> None:
    import trl
    from matheval_fast.integrations.trl import AccuracyReward, accuracy_reward, reasoning_accuracy_reward

    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)
        model = tiny_model(out / "model")
        # Items whose answer is one digit, so the random model's digits are sometimes right.
        # The tokenizer keeps only its own words of a prompt (digits, "The answer is"), so a prompt ends
        # with those.
        gsm = [
            {"prompt": f"{d['question']} The answer is", "solution": d["solution"]} for d in gsm8k(24, True)
        ]
        mth = [
            {"prompt": f"{d['problem']} The answer is", "solution": d["solution"]}
            for d in math_items(6, True)
        ]
        mth = mth * 4
        results = [
            run("gsm8k", gsm, [Recorder(accuracy_reward, "accuracy_reward")], model, out),
            run(
                "math",
                mth,
                [
                    Recorder(reasoning_accuracy_reward, "reasoning_accuracy_reward", reasoning=True),
                    Recorder(AccuracyReward(name="math_reward"), "math_reward"),
                ],
                model,
                out,
            ),
        ]
    for r in results:
        r["trl"] = trl.__version__
        print("RESULT " + json.dumps(r))


if __name__ == "__main__":
    main()
