"""A real verl run: verl 0.9's reward loop manager and its legacy batch manager on rollout-shaped batches.

The config is composed by verl's own Hydra config (``ppo_trainer``) with the overrides
docs/integrations/verl.md gives (``+reward.custom_reward_function.reward_kwargs.timeout=2.0``: the
override without ``+`` must fail), loaded by ``load_reward_manager`` (``pkg://`` path and file path),
and run on a ``DataProto`` of left-padded prompts and right-padded responses, as rollouts hand it over:
real Qwen2.5-Math MATH responses and real GSM8K solutions, with worked solutions and bare answers as
ground truths. Every ``reward_score`` equals ``check()`` on the decoded response and its ground truth,
and the reward tensor's row sums (what the trainer uses) equal the scores. Prints one RESULT line (JSON).
"""

from __future__ import annotations

import asyncio
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import byte_tokenizer, compare, gsm8k, qwen_math_pairs


def items() -> list[dict[str, Any]]:
    out = []
    for i, (response, solution) in enumerate(qwen_math_pairs()[:48]):
        out.append(
            {"prompt": f"problem {i}", "response": response, "gt": solution, "source": "lighteval/MATH"}
        )
    g = gsm8k(32)
    for i, d in enumerate(g):
        other = g[(i + 1) % len(g)] if i % 3 == 0 else d  # every third answers another question: wrong
        response = f"{other['solution'].split('####')[0].strip()}\nThe answer is {other['answer']}."
        gt = d["answer"] if i % 2 else d["solution"]
        out.append({"prompt": d["question"], "response": response, "gt": gt, "source": "openai/gsm8k"})
    # Needs the SymPy fallback, next to verl's ANTLR 4.9.3 (issue 34, finding 6): must score 1.0.
    out.append(
        {
            "prompt": "area",
            "response": r"The area is $\boxed{\int_0^1 x\,dx}$.",
            "gt": r"\frac12",
            "source": "lighteval/MATH",
        }
    )
    return out


def batch(rows: list[dict[str, Any]], tok: Any) -> Any:
    import numpy as np
    import torch
    from verl import DataProto

    p = [tok.encode(r["prompt"]) for r in rows]
    r = [tok.encode(r["response"]) for r in rows]
    pl, rl = max(map(len, p)), max(map(len, r))
    pad = tok.pad_token_id
    prompts = torch.tensor([[pad] * (pl - len(x)) + x for x in p])
    responses = torch.tensor([x + [pad] * (rl - len(x)) for x in r])
    mask = torch.tensor(
        [
            [0] * (pl - len(a)) + [1] * len(a) + [1] * len(b) + [0] * (rl - len(b))
            for a, b in zip(p, r, strict=True)
        ]
    )
    return DataProto.from_dict(
        tensors={
            "prompts": prompts,
            "responses": responses,
            "attention_mask": mask,
            "input_ids": torch.cat([prompts, responses], dim=1),
        },
        non_tensors={
            "data_source": np.array([x["source"] for x in rows], dtype=object),
            "reward_model": np.array(
                [{"ground_truth": x["gt"], "style": "rule"} for x in rows], dtype=object
            ),
            "extra_info": np.array([{"index": i} for i in range(len(rows))], dtype=object),
        },
    )


def compose(path: str, name: str) -> Any:
    import verl
    from hydra import compose as hydra_compose
    from hydra import initialize_config_dir
    from hydra.errors import ConfigCompositionException

    config_dir = str(Path(verl.__file__).parent / "trainer" / "config")
    base = [f"reward.custom_reward_function.path={path}", f"reward.custom_reward_function.name={name}"]
    with initialize_config_dir(config_dir=config_dir, version_base=None):
        try:
            hydra_compose(
                "ppo_trainer", overrides=[*base, "reward.custom_reward_function.reward_kwargs.timeout=2.0"]
            )
        except ConfigCompositionException as exc:
            refused = str(exc)
        else:
            raise AssertionError("verl's Hydra config took a new reward_kwargs key without '+'")
        cfg = hydra_compose(
            "ppo_trainer", overrides=[*base, "+reward.custom_reward_function.reward_kwargs.timeout=2.0"]
        )
    assert cfg.reward.custom_reward_function.reward_kwargs.timeout == 2.0
    return cfg, refused


def main() -> None:
    import matheval_fast.integrations.verl as ours
    import verl
    from verl.trainer.ppo.reward import load_reward_manager
    from verl.workers.reward_manager.batch import BatchRewardManager

    rows = items()
    results: dict[str, Any] = {"verl": verl.__version__, "items": len(rows), "runs": []}
    with tempfile.TemporaryDirectory() as tmp:
        tok = byte_tokenizer([x["prompt"] for x in rows] + [x["response"] for x in rows], Path(tmp))
        data = batch(rows, tok)
        decoded = []
        for i in range(len(rows)):
            n = int(data.batch["attention_mask"][i, data.batch["prompts"].shape[1] :].sum())
            decoded.append(tok.decode(data.batch["responses"][i][:n], skip_special_tokens=True))
        assert decoded == [x["response"] for x in rows], "the tokenizer must round-trip the responses"
        for path in ("pkg://matheval_fast.integrations.verl", ours.__file__):
            cfg, refused = compose(path, "compute_score")
            results["hydra_without_plus"] = refused.splitlines()[0][:160]
            manager = load_reward_manager(cfg, tok)
            assert type(manager).__name__ == "NaiveRewardManager", type(manager)

            async def score_all(manager: Any = manager) -> list[dict[str, Any]]:
                return await asyncio.gather(*(manager.run_single(data[i : i + 1]) for i in range(len(data))))

            outs = manager.loop.run_until_complete(score_all())
            scores = [o["reward_score"] for o in outs]
            run = compare(
                [(d, x["gt"], s) for d, x, s in zip(decoded, rows, scores, strict=True)],
                f"verl reward loop naive {path}",
            )
            rm = manager.assemble_rm_scores(data, scores)
            assert rm.sum(dim=1).tolist() == scores
            run["mean"] = sum(scores) / len(scores)
            assert scores[-1] == 1.0, "the SymPy fallback item must be correct beside verl's ANTLR"
            import importlib.metadata as md

            run["antlr"] = md.version("antlr4-python3-runtime")
            results["runs"].append(run)
        legacy = BatchRewardManager(tok, num_examine=0, compute_score=ours.compute_score_batch, timeout=2.0)
        out = legacy(data, return_dict=True)
        sums = out["reward_tensor"].sum(dim=1).tolist()
        run = compare(
            [(d, x["gt"], s) for d, x, s in zip(decoded, rows, sums, strict=True)],
            "verl legacy BatchRewardManager",
        )
        results["runs"].append(run)
    print("RESULT " + json.dumps(results))


if __name__ == "__main__":
    main()
