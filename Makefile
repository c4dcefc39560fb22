# Two commands do all set-up: `make demo` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PLUGINS := $(wildcard plugins/cardcore-*)
EXAMPLES := examples/cardcore-highcard
STAMP := $(VENV)/.installed

.PHONY: demo test lint typecheck pytest docs bench bench-check clean venv browser sandbox-tool wheelhouse compiled compiled-test

$(STAMP): pyproject.toml $(foreach p,$(PLUGINS) $(EXAMPLES),$(p)/pyproject.toml)
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[dev]" $(foreach p,$(PLUGINS) $(EXAMPLES),-e $(p))
	touch $(STAMP)

venv: $(STAMP)

demo: $(STAMP)
	$(BIN)/cardcore list
	$(BIN)/cardcore play nyuri --bots nyuri-heuristic,random,random --seed 7
	$(BIN)/cardcore arena nestors --bots nestors-heuristic,random --games 8 --seed 1 --db $(VENV)/demo-arena.sqlite --fresh

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: $(STAMP)
	$(BIN)/mypy src $(foreach p,$(PLUGINS) $(EXAMPLES),$(p)/src) tests $(foreach p,$(PLUGINS) $(EXAMPLES),$(p)/tests) examples/my_bot.py examples/heuristic_rollout_bot.py

# Debian packages the tests need, installed with apt-get when missing. One install runs
# at a time (make -j2 reaches the browser and bubblewrap together; flock queues them where
# it exists), and another apt or dpkg is waited for up to 10 minutes: dpkg's lock through
# DPkg::Lock::Timeout, the package lists' lock (which `apt-get update` does not wait for)
# by trying again every APT_WAIT seconds, 60 times.
APT_WAIT ?= 10
APT_LOCK ?= /tmp/cardcore-make-apt.lock
APT := apt-get -o DPkg::Lock::Timeout=600
define apt_install
{ if command -v flock >/dev/null; then exec 9>>$(APT_LOCK); flock -w 1200 9; fi; \
  n=0; until err=$$($(APT) update -qq 2>&1 >/dev/null); do \
    echo "$$err" >&2; \
    case "$$err" in *lists/lock*) [ $$n -lt 60 ] || exit 1;; *) exit 1;; esac; \
    n=$$((n + 1)); echo "apt-get: another apt holds the package lists; trying again in $(APT_WAIT) s"; \
    sleep $(APT_WAIT); \
  done; \
  DEBIAN_FRONTEND=noninteractive $(APT) install -y -qq $(1) >/dev/null; }
endef

# The HTML tests drive a real browser: Debian's Chromium and ChromeDriver.
browser:
	@command -v chromium >/dev/null && command -v chromedriver >/dev/null || { \
	  echo "browser: installing chromium and chromium-driver with apt-get (the HTML tests drive them)"; \
	  ( $(call apt_install,chromium chromium-driver) ) \
	  || { echo "browser: error: could not install chromium and chromium-driver with apt-get (see above); install them, then run make test again" >&2; exit 1; }; }

# The docs test installs cardcore's wheels into fresh venvs with no package index: their
# dependencies come from this folder of wheels, made here (from pip's cache when it is warm).
WHEELHOUSE := $(VENV)/wheelhouse
$(WHEELHOUSE)/DONE: $(STAMP) tests/docs/freshenv.py
	$(BIN)/python -m tests.docs.freshenv $(WHEELHOUSE)

wheelhouse: $(WHEELHOUSE)/DONE

# pytest runs on every core (pytest-xdist); the tests that share a fixture wider than one
# test run in one worker, in order (see tests/conftest.py). Hypothesis uses its `ci` profile:
# derandomized, no deadline, no example database. `make pytest PYTEST_WORKERS=0` runs serially.
PYTEST_WORKERS ?= auto

# The arena's sandbox tests run bots under bubblewrap (Debian's package).
sandbox-tool:
	@command -v bwrap >/dev/null || { \
	  echo "installing bubblewrap (apt-get; waits up to 10 min for another apt or dpkg)"; \
	  ( $(call apt_install,bubblewrap) ) \
	  || { echo "make: could not install bubblewrap (bwrap); install it yourself: sudo apt-get install bubblewrap"; exit 1; }; }

pytest: $(STAMP) browser sandbox-tool $(WHEELHOUSE)/DONE
	$(BIN)/pytest -q -p no:cacheprovider --hypothesis-profile=ci -n $(PYTEST_WORKERS) --dist loadgroup

# The compiled build: the wheels of cardcore and the four games, their hot modules compiled
# with mypyc by hatch_build.py (from the development venv's mypy, no build isolation, no
# index), installed in a venv of their own with their dependencies from the wheelhouse.
# The games' digest, golden and kit tests run on it. It is rebuilt when a source changes.
COMPILED := .venv-compiled
COMPILED_SOURCES := pyproject.toml hatch_build.py $(shell find src -name '*.py') \
  $(foreach p,$(PLUGINS),$(p)/pyproject.toml $(p)/hatch_build.py $(shell find $(p)/src -name '*.py'))
$(COMPILED)/.installed: $(STAMP) $(WHEELHOUSE)/DONE $(COMPILED_SOURCES)
	rm -rf $(COMPILED)
	$(PYTHON) -m venv $(COMPILED)
	$(BIN)/python -m pip wheel --quiet --no-deps --no-build-isolation --no-index -w $(COMPILED)/wheels . $(PLUGINS)
	$(COMPILED)/bin/python -m pip install --quiet --no-index --find-links $(COMPILED)/wheels \
	  --find-links $(WHEELHOUSE) 'cardcore[rl]' $(notdir $(PLUGINS)) pytest
	touch $@

compiled: $(COMPILED)/.installed

COMPILED_TESTS := $(foreach t,records_observations_encodings_and_search_match_the_pure_modules \
  the_pure_variable_loads_every_module_from_its_source the_build_is_the_one_this_venv_was_made_with \
  version_and_bench_name_the_loaded_build the_pure_variable_is_named_when_set \
  every_game_pickles_to_the_same_game_and_plays_the_same \
  every_listed_core_module_is_compiled lazy_actions_keep_their_own_abc_registry \
  the_table_projection_counts_and_keeps_the_known_cards \
  the_lazy_listings_bisection_is_the_bisect_modules \
  the_environments_hand_out_what_the_pure_modules_do,tests/test_compiled_build.py::test_$(t)) \
  $(foreach t,list_exactly_the_sets_in_order rank_any_weights_tuple_as_sorting_does \
  sort_short_or_partly_bad_weights_and_still_name_the_bad_one \
  after_a_head_lists_what_concat_does,tests/test_actions.py::test_card_subsets_$(t)) \
  $(foreach p,$(PLUGINS),$(wildcard $(p)/tests/test_*_golden.py $(p)/tests/test_*_conformance.py))
compiled-test: $(COMPILED)/.installed
	CARDCORE_EXPECT_COMPILED=1 $(COMPILED)/bin/python -m pytest -q -p no:cacheprovider \
	  --hypothesis-profile=ci $(COMPILED_TESTS)

docs: $(STAMP)
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict --quiet --site-dir $(VENV)/site

# The compiled wheels build (mostly one C compiler process at a time) while pytest runs:
# pytest's last minutes leave a core idle, which the compile uses.
test:
	$(MAKE) lint typecheck
	$(MAKE) -j2 pytest compiled
	$(MAKE) docs compiled-test

bench: $(STAMP)
	$(BIN)/cardcore bench --seconds 2 --markdown benchmarks/results.md

# The comparison with OpenSpiel and RLCard (docs/benchmarks.md) in a venv of its own: it
# downloads both libraries, so it is not part of make test.
COMPARE := .venv-compare
bench-check:
	$(PYTHON) -m venv $(COMPARE)
	$(COMPARE)/bin/pip install --quiet -r benchmarks/requirements-compare.txt
	$(COMPARE)/bin/python benchmarks/compare.py --only nyuri --rounds 1 --seconds 0.2

clean:
	rm -rf $(VENV) $(COMPILED) .venv-compare site .mypy_cache .ruff_cache .pytest_cache .hypothesis test-artifacts
