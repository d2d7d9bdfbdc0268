# Quick start: `make run` starts the web game, `make test` runs every check.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
# `make run` installs what the game needs (the core and the web extra); every other target
# everything (dev, tui, web, scale, rl, plot). pip's output goes to $(PIPLOG), its tail
# shown when it fails.
STAMP_RUN := $(VENV)/.installed-run
STAMP := $(VENV)/.installed-all
PIPLOG := $(VENV)/pip.log
SOURCES := pyproject.toml setup.py majiang/hand/_speedups.c majiang/engine/_speedups.c majiang/rl/_encode.c
PIP = $(BIN)/python -m pip install --disable-pip-version-check
pip_quiet = $(PIP) $(1) >>$(PIPLOG) 2>&1 || { tail -n 25 $(PIPLOG); echo "pip failed (all of it in $(PIPLOG))"; exit 1; }
# the browser client's development tools (ESLint), from package-lock.json
NODE_STAMP := node_modules/.installed
ALL_EXTRAS := dev,tui,web,scale,rl,plot

.PHONY: run test lint lint-js test-js typecheck unit screenshots bench bench-engine bench-simulate bench-replay bench-scale bench-server bench-bots bench-rl bench-web tables mutation clean

$(BIN)/python:
	@$(PY) -m venv $(VENV)
	@$(call pip_quiet,--quiet --upgrade pip)

# the C extensions are built by the editable install: rebuilt when their sources change
$(STAMP_RUN): $(SOURCES) | $(BIN)/python
	@echo "installing the game into $(VENV) (pip's output: $(PIPLOG)) ..."
	@$(call pip_quiet,-e ".[web]")
	@touch $@

$(STAMP): $(SOURCES) | $(BIN)/python
	@echo "installing everything into $(VENV) (pip's output: $(PIPLOG)) ..."
	@$(call pip_quiet,-e ".[$(ALL_EXTRAS)]")
	@touch $@ $(STAMP_RUN)

# the browser game: majiang serve on the embedded SQLite database (~/.majiang/majiang.db),
# printing the address last and opening a browser where there is a display
run: $(STAMP_RUN)
	@$(BIN)/majiang serve --open

lint: $(STAMP)
	$(BIN)/ruff check majiang tests bench tools examples

typecheck: $(STAMP)
	$(BIN)/mypy

# every test, on TEST_WORKERS pytest-xdist processes (2 = this project's 2-core machines;
# TEST_WORKERS=0 runs them in one process)
TEST_WORKERS ?= 2
unit: $(STAMP)
	$(BIN)/python -m pytest -n $(TEST_WORKERS)

$(NODE_STAMP): package.json package-lock.json
	@npm ci --no-audit --no-fund --loglevel=error >/dev/null
	@touch $@

# ESLint (pinned in package.json, development only) on every module of the browser client
lint-js: $(NODE_STAMP)
	npx --no-install eslint

# the browser client's pure logic, unit tested with node (tests/js/*.test.mjs)
test-js:
	node --test tests/js/

test: lint typecheck lint-js test-js unit

screenshots: $(STAMP)
	MAJIANG_SCREENSHOTS=1 $(BIN)/python -m pytest tests/test_web.py tests/test_web_client.py tests/test_web_table.py tests/test_web_pace.py

bench: $(STAMP)
	$(BIN)/python -m pip install --quiet -e ".[bench]"
	$(BIN)/python bench/bench_hand.py --markdown bench/RESULTS.md

bench-engine: $(STAMP)
	$(BIN)/python -m pip install --quiet -e ".[bench]"
	$(BIN)/python bench/bench_engine.py --markdown bench/RESULTS.md

bench-simulate: $(STAMP)
	$(BIN)/python -m pip install --quiet -e ".[bench]"
	$(BIN)/python bench/bench_simulate.py --markdown bench/RESULTS.md

# majiang simulate on a process pool beside Ray, and Ray's overhead per chunk (~5 min)
bench-scale: $(STAMP)
	$(BIN)/python bench/bench_scale.py --markdown bench/RESULTS.md

bench-replay: $(STAMP)
	$(BIN)/python bench/bench_replay.py --markdown bench/RESULTS.md

# majiang serve under N tables of four WebSocket players, beside a bare echo server (~10 min;
# BENCH_SERVER_ARGS="--quick" for ~1 min, "--db postgresql+psycopg://..." for PostgreSQL).
BENCH_SERVER_ARGS ?=
bench-server: $(STAMP)
	$(BIN)/python bench/bench_server.py --markdown bench/RESULTS.md $(BENCH_SERVER_ARGS)

# majiang.rl's AEC, Gymnasium and VectorEnv beside rlcard's and riichienv's envs (~3 min)
bench-rl: $(STAMP)
	$(BIN)/python -m pip install --quiet -e ".[rl,bench]"
	$(BIN)/python bench/bench_rl.py --steps 20000 --rlcard-steps 4000 --repeats 3 --markdown bench/RESULTS.md

bench-bots: $(STAMP)
	$(BIN)/python bench/bench_bots.py --markdown bench/RESULTS.md

# the browser game's first-load weight (gzip) and time to a playable table, 4x CPU throttled
bench-web: $(STAMP)
	$(BIN)/python bench/bench_web.py --markdown bench/RESULTS.md

tables: $(STAMP)
	$(BIN)/python tools/gen_tables.py

# Mutation testing of majiang/rules and majiang/engine (not part of `make test`: slow).
# Narrow it with e.g. MUTATION_ARGS="--module majiang/rules/hainan.py --max-mutants 40".
MUTATION_ARGS ?= --max-mutants 60 --workers 1
mutation: $(STAMP)
	$(BIN)/python tools/mutate.py $(MUTATION_ARGS)

clean:
	rm -rf $(VENV) build *.egg-info node_modules
