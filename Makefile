# Two commands set everything up from a clone (README "From a clone, with make"); without
# make, `pipx install .` or `pip install .` then `evaltool demo` (README "Install"):
#   make demo   - create .venv, install evaltool, score the bundled sample offers
#   make test   - create .venv with the dev extras, run the whole test suite
# Works on a fresh Debian 12 with Python 3.11+ and make; system libraries that WeasyPrint
# needs (Pango, HarfBuzz subset) are installed with apt-get when we are root, otherwise
# the target stops and prints the exact command to run.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
SYSTEM_PACKAGES := python3-venv libpango-1.0-0 libpangoft2-1.0-0 libharfbuzz-subset0 fonts-dejavu-core

.PHONY: demo test lint bench wheel sysdeps clean

demo: $(BIN)/.installed
	@mkdir -p out
	$(BIN)/evaltool score offers/* -o out/memo.pdf -o out/scores.json

# The whole suite, including the slow test that builds the wheel and runs `evaltool demo`
# from it in a fresh virtual environment.
test: $(BIN)/.installed-dev
	$(BIN)/python -m pytest -q

# The wheel in dist/ (what `pip install .` / `pipx install .` build for themselves).
wheel: $(BIN)/.installed
	$(BIN)/python -m pip wheel --no-deps -q -w dist .

lint: $(BIN)/.installed-dev
	$(BIN)/ruff check evaltool tests benchmarks scripts
	$(BIN)/mypy

bench: $(BIN)/.installed-dev
	@for b in benchmarks/*.py; do echo "== $$b"; $(BIN)/python $$b || exit 1; done

# System libraries: check, install if we can, else say exactly what to run.
sysdeps:
	@missing=""; \
	$(PYTHON) -c "import ensurepip, venv" 2>/dev/null || missing="$$missing python3-venv"; \
	for lib in libpango-1.0.so.0 libpangoft2-1.0.so.0 libharfbuzz-subset.so.0; do \
	  ldconfig -p 2>/dev/null | grep -q "$$lib" || missing="$$missing $$lib"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "missing system libraries:$$missing"; \
	  if [ "$$(id -u)" = "0" ] && command -v apt-get >/dev/null; then \
	    DEBIAN_FRONTEND=noninteractive apt-get update -qq && \
	    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $(SYSTEM_PACKAGES); \
	  else \
	    echo "run: sudo apt-get update && sudo apt-get install -y $(SYSTEM_PACKAGES)"; exit 1; \
	  fi; \
	fi

$(BIN)/.installed: pyproject.toml | sysdeps
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e .
	@touch $@

$(BIN)/.installed-dev: pyproject.toml | sysdeps
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[dev]'
	@touch $@ $(BIN)/.installed

clean:
	rm -rf $(VENV) out dist evaltool-demo .pytest_cache .mypy_cache .ruff_cache
