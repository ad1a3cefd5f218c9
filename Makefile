# Praça — two commands do all the set-up on a fresh machine:
#   make run    installs into .venv and opens the application (embedded SQLite)
#   make test   installs with the test extras and runs the whole suite headless, on every core
#   make test-fast   the developer's loop: the same without the tests that start LibreOffice, Chromium, the
#                    installed wheel or Praça in a child process (CI runs them all: make test)
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
TSTAMP := $(VENV)/.installed-test
DSTAMP := $(VENV)/.installed-dist
LSTAMP := $(VENV)/.installed-lint

.PHONY: run test test-fast lint install install-test demo bench bench-smoke screenshots help report-images dist dist-check installer-check clean

$(PY):
	$(PYTHON) -m venv $(VENV)

# Re-install only when pyproject.toml changes (a second `make test` is fast).
$(STAMP): pyproject.toml | $(PY)
	$(PY) -m pip install --quiet --disable-pip-version-check -e .
	touch $@

$(TSTAMP): pyproject.toml | $(PY)
	$(PY) -m pip install --quiet --disable-pip-version-check -e '.[test]'
	touch $(STAMP) $@

$(DSTAMP): pyproject.toml | $(PY)
	$(PY) -m pip install --quiet --disable-pip-version-check -e '.[dist]'
	touch $(STAMP) $@

$(LSTAMP): pyproject.toml | $(PY)
	$(PY) -m pip install --quiet --disable-pip-version-check -e '.[lint]'
	touch $(STAMP) $@

install: $(STAMP)
install-test: $(TSTAMP)

run: $(STAMP)
	$(VENV)/bin/praca $(ARGS)

# pytest-xdist: one worker per core; tests that share a module-scoped fixture stay on one worker (tests/loop.py).
# PYTEST_JOBS=0 runs in this process alone (a debugger, -x on the first failure in order).
PYTEST_JOBS ?= auto
# PYTHONDONTWRITEBYTECODE is emptied for the suite: with it set (as some shells and containers do), every worker
# compiled every module and pytest rewrote every test module's asserts on each run (~18 s of CPU a worker), and each
# `praca` the tests start in a child process compiled Praça again (~1.7 s of CPU each).
PYTEST := PYTHONDONTWRITEBYTECODE= QT_QPA_PLATFORM=offscreen $(PY) -m pytest -n $(PYTEST_JOBS) --dist loadgroup
FAST   := -m "not (libreoffice or chromium or install or subprocess or slow)"

test: $(TSTAMP)
	$(VENV)/bin/lint-imports  # the import contracts of pyproject.toml (which layer may import which)
	$(PYTEST) $(PYTEST_ARGS)

test-fast: $(TSTAMP)
	$(PYTEST) $(FAST) $(PYTEST_ARGS)

# The gate (issue 21 §4): lint, format, types and the import contracts; .ci/run runs it before the tests.
lint: $(LSTAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy
	$(VENV)/bin/lint-imports

demo: $(STAMP)
	$(VENV)/bin/praca demo --db sqlite:///demo.sqlite3

bench: $(TSTAMP)
	QT_QPA_PLATFORM=offscreen $(PY) -m bench

# Every benchmark once on small data, nothing judged: a benchmark that raises fails (.ci/run runs it)
bench-smoke: $(TSTAMP)
	QT_QPA_PLATFORM=offscreen $(PY) -m bench --smoke

screenshots: $(STAMP)
	QT_QPA_PLATFORM=offscreen $(PY) docs/make_screenshots.py

# The offline help (F1, Ajuda): resources/help/ generated from the guides in docs/ajuda/ (tests/test_help.py checks it)
help: $(STAMP)
	$(PY) -m desktop.help_build

# The one-folder desktop bundle, dist/praca/ (packaging/praca.spec; on Windows see docs/install-windows.md)
dist: $(DSTAMP)
	$(PY) -m PyInstaller --noconfirm --log-level WARN --distpath dist --workpath build/pyinstaller packaging/praca.spec

# Builds the bundle and runs it as a desk would: commands, demo, every desk offscreen, a PDF (CI runs it)
dist-check: dist $(TSTAMP)
	PRACA_BUNDLE=dist/praca QT_QPA_PLATFORM=offscreen $(PY) -m pytest tests/test_bundle.py -p no:cacheprovider

# The Windows installer (issue 32 §5, docs/install-windows.md §9): packaging/windows/praca.iss compiled by Inno
# Setup's own compiler (ISCC 6.4.1, from the npm package `innosetup`), signed and unsigned, and the installer run
# silently, all under Wine; needs wine32 (i386), Xvfb and osslsigncode (.ci/run installs them)
INNO_VERSION := 6.4.1
ISCC := build/innosetup/package/bin/ISCC.exe

$(ISCC):
	mkdir -p build/innosetup
	cd build/innosetup && npm pack --silent innosetup@$(INNO_VERSION) >/dev/null && tar xzf innosetup-$(INNO_VERSION).tgz

installer-check: $(TSTAMP) $(ISCC)
	PRACA_ISCC=$(abspath $(ISCC)) QT_QPA_PLATFORM=offscreen $(PY) -m pytest -n 0 tests/test_windows_installer.py -p no:cacheprovider

report-images: $(STAMP)
	QT_QPA_PLATFORM=offscreen $(PY) docs/make_report_images.py

clean:
	rm -rf $(VENV) build dist *.egg-info .pytest_cache
