# board-bridge: `make demo` runs the daemon on the simulated board, `make test` runs the tests.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: demo test lint typecheck bench clean venv

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test,ui]'
	touch $(STAMP)

venv: $(STAMP)

demo: $(STAMP)
	$(BIN)/board-bridge demo

test: $(STAMP)
	$(BIN)/ruff check board_bridge tests bench firmware hardware
	$(BIN)/mypy
	$(BIN)/python -m pytest -q -p no:cacheprovider

lint: $(STAMP)
	$(BIN)/ruff check board_bridge tests bench firmware hardware
	$(BIN)/ruff format --check board_bridge tests bench firmware hardware

typecheck: $(STAMP)
	$(BIN)/mypy

bench: $(STAMP)
	for b in bench/*.py; do echo "== $$b"; $(BIN)/python $$b || exit 1; done

clean:
	rm -rf $(VENV) build *.egg-info
