"""Make tests/data/logs/evalscope_real/ with EvalScope's own CLI, on real items, against a canned server.

Run from the repository root with a SCRATCH venv outside the project (EvalScope's base install needs no
torch):

    python3.11 -m venv /work/fwvenvs/evalscope
    /work/fwvenvs/evalscope/bin/pip install evalscope==1.14.1
    /work/fwvenvs/evalscope/bin/python scripts/log_fixtures/make_evalscope_real.py

What is real and what is made up:
- Every file is written by ``evalscope eval`` 1.14.1 (its CLI, run here as a subprocess) with
  ``--eval-type openai_api`` against an OpenAI-compatible server on 127.0.0.1 (``CannedHandler`` below), on
  EvalScope's own ``gsm8k`` (4-shot, its default) and ``math_500`` benchmarks, with only ``local_path`` in
  ``--dataset-args`` pointing at local files in the datasets' own formats (the hubs are not reachable here):
  GSM8K's ``question``/``answer`` jsonl (20 real test docs; the few-shot examples from 20 real train docs),
  MATH-500's ``problem/solution/answer/subject/level/unique_id`` jsonl (the 30 real MATH Prealgebra docs of
  ../sources/math_prealgebra.jsonl, whose MATH-500 ``unique_id`` s they keep).
- Two runs: one sample per doc (``single/``) and ``--repeats 4`` (``repeats4/``).
- The server answers from a fixed table: math_500 prompts get REAL Qwen2.5-Math-7B-Instruct outputs
  (data/answer_check/qwen25math_math_cot_100_graded.jsonl; the r-th request for a doc gets sample r), GSM8K
  prompts get canned chain-of-thought answers of ours (``gsm8k_samples`` of make_lm_eval_real.py).
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from make_lm_eval_real import gsm8k_samples, math500_jsonl, qwen_responses, read_jsonl

ROOT = Path(__file__).resolve().parents[2]
SOURCES = ROOT / "tests/data/logs/sources"
OUT = ROOT / "tests/data/logs/evalscope_real"
MODEL = "canned-qwen2.5-math-7b-instruct-outputs"


def main() -> None:
    evalscope = Path(sys.executable).parent / "evalscope"
    gsm = read_jsonl(SOURCES / "gsm8k_test.jsonl")[:20]
    math = read_jsonl(SOURCES / "math_prealgebra.jsonl")
    qwen = qwen_responses()
    table: dict[str, list[str]] = {d["question"]: gsm8k_samples(i, d) for i, d in enumerate(gsm)}
    table.update({d["problem"]: qwen[d["qwen_idx"]] for d in math})
    asked: dict[str, int] = {}
    lock = threading.Lock()

    class CannedHandler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            text = "\n".join(str(m.get("content")) for m in body["messages"])
            key = max(table, key=lambda k: text.rfind(k))
            assert text.rfind(key) >= 0, text[-300:]
            with lock:
                r = asked.get(key, 0)
                asked[key] = r + 1
            answer = table[key][r % len(table[key])]
            out = json.dumps(
                {
                    "id": f"canned-{r}",
                    "object": "chat.completion",
                    "created": 0,
                    "model": body.get("model", MODEL),
                    "choices": [
                        {
                            "index": 0,
                            "message": {"role": "assistant", "content": answer},
                            "finish_reason": "stop",
                        }
                    ],
                    "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
                }
            ).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(out)))
            self.end_headers()
            self.wfile.write(out)

        def log_message(self, *args) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), CannedHandler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    with tempfile.TemporaryDirectory(prefix="evalscope-real-fixture-") as tmp:  # removed on failure too
        work = Path(tmp)
        # A local copy laid out as the Hub's openai/gsm8k (config "main", split files under main/).
        (work / "gsm8k/main").mkdir(parents=True)
        (work / "gsm8k/README.md").write_text(
            "---\nconfigs:\n- config_name: main\n  data_files:\n  - split: test\n    path: main/test.jsonl\n"
            "  - split: train\n    path: main/train.jsonl\n---\n"
        )
        (work / "gsm8k/main/test.jsonl").write_text("".join(json.dumps(d) + "\n" for d in gsm))
        (work / "gsm8k/main/train.jsonl").write_text((SOURCES / "gsm8k_train.jsonl").read_text())
        (work / "math_500").mkdir()
        (work / "math_500/test.jsonl").write_text(math500_jsonl(math))  # as the Hub's MATH-500
        for old in (OUT / "single", OUT / "repeats4"):  # the README stays
            if old.exists():
                shutil.rmtree(old)
        for run, extra in (("single", []), ("repeats4", ["--repeats", "4"])):
            asked.clear()
            cmd = [
                str(evalscope),
                "eval",
                "--model",
                MODEL,
                "--eval-type",
                "openai_api",
                "--api-url",
                f"http://127.0.0.1:{server.server_port}/v1",
                "--api-key",
                "none",
                "--datasets",
                "gsm8k",
                "math_500",
                "--dataset-args",
                json.dumps({name: {"local_path": str(work / name)} for name in ("gsm8k", "math_500")}),
                "--eval-batch-size",
                "1",
                "--work-dir",
                str(work / run),
                "--no-timestamp",
                *extra,
            ]
            print(" ".join(cmd), file=sys.stderr)
            subprocess.run(cmd, check=True, env={"HF_HUB_OFFLINE": "1", "PATH": "/usr/bin:/bin"})
            skip = shutil.ignore_patterns("logs", "*.log", "report.html", "predictions")
            shutil.copytree(work / run, OUT / run, ignore=skip)
        server.shutdown()
    print(f"written under {OUT}", file=sys.stderr)


if __name__ == "__main__":
    main()
