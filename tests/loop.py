"""How the suite runs fast enough to be run often (issue 27 §1): markers set from what a test uses, the xdist groups,
hypothesis's profiles. Called by conftest; docs/development.md says how to use them.

**Markers**, set here so that no test has to carry them (a new test that drives LibreOffice is marked as the others
are): ``libreoffice``, ``chromium``, ``install`` (the wheel or the PyInstaller bundle) and ``subprocess`` (Praça or
Python started in a child process) — read from the source of the test, of the fixtures it takes and of the
functions of its module that either calls (one level: a module's ``run_cli`` or ``recalculated``); ``pg`` on
each test's PostgreSQL run. ``make test-fast`` leaves the first four (and ``slow``) out; ``make test`` runs all.

**xdist groups** (``--dist loadgroup``): the tests of a module that share a module-scoped fixture (the wheel built
once, the demo's main window, LibreOffice's report files) run on one worker, so the fixture is made once; every
other test goes to whichever worker is free. Besides the demos (built once per run, tests/demo_db.py), nothing is
shared between workers: each has its own user folders (conftest), its own empty templates and its own PostgreSQL
schemas and sessions. The groups and the tests that
start other programs are sent first, so that the longest come early and no worker is left alone with them at the
end.

**The PostgreSQL variant where the back end matters.** A test that takes ``database``, ``demo_database`` or
``db_url`` runs on SQLite and, with ``PRACA_TEST_PG``, on PostgreSQL; its PostgreSQL run costs 2–3 times its
SQLite one. The modules of :data:`SQLITE_ONLY` (each with why) are about what the screen draws or how keys move,
which the back end cannot change: their PostgreSQL runs are deselected (every test still runs on SQLite). A test
of a module that keeps its PostgreSQL runs can be left out alone (:data:`SQLITE_ONLY_TESTS`, ``module::test``), when
it checks what happens once the back end has answered (a cancelled export's file handling). A
module or a test stays off those lists when its source names anything the back ends treat differently
(:data:`BACK_END_MATTERS`: raw SQL, transactions and locks, threads, the audit trail and its triggers, schemas
and migrations, bulk import, roles and logins, backups, PostgreSQL itself); tests/test_loop_backends.py fails
when a listed module or test does. When in doubt, a module keeps its PostgreSQL variant.

**Hypothesis profiles**, by ``HYPOTHESIS_PROFILE`` (``ci`` under ``CI=true``, else ``dev``): ``ci`` runs each
property with the examples its test asks for (100 when it asks none); ``dev`` runs a tenth of them, at least
:data:`DEV_EXAMPLES` — the developer's loop — and ``.ci/run`` runs ``ci``.
"""

from __future__ import annotations

import functools
import inspect
import linecache
import os
import re

import pytest

#: What a source names when it starts each kind of program.
SPAWNS = {
    "libreoffice": re.compile(r"soffice|libreoffice|--convert-to"),
    "chromium": re.compile(r"chromium|google-chrome"),
    "install": re.compile(r'"pip",\s*"wheel"|PRACA_BUNDLE'),
    "subprocess": re.compile(r"sys\.executable|PRACA_BUNDLE"),
}
#: Left out by ``make test-fast``.
EXTERNAL = ("libreoffice", "chromium", "install", "subprocess", "slow")

#: Test modules whose database tests run on SQLite only — what they check is drawn by the screen from data the back
#: end gives alike, and what they store or search is tested on both back ends by the modules named.
SQLITE_ONLY = {
    "test_keyboard": "focus and shortcuts between the desks' widgets; the searches and saves the keys reach are "
    "tested on both back ends by test_front_desk, test_gui_thread_queries and test_map_editor",
    "test_appearance": "palettes and the contrast of what each desk draws (WCAG 4.5:1) on the demo; every desk's "
    "reads are tested on both back ends by test_gui_thread_desks and the desks' own modules",
    "test_dark_palette": "the colours of the screens and documents in a dark palette",
    "test_enforcement_page": "Fiscalização's widgets driven; issuing, adjusting, an unknown offender identified, the "
    "defence and its decision, seized goods released and donated, the debt register: test_enforcement on both back "
    "ends; the record dialog's search on a worker: test_gui_thread_dialogs",
    "test_charges_page": "Cobrança's widgets driven; the month's run, payments, cancelling, delinquency and the "
    "frozen quote charged at the worklist: test_charges on both back ends, the search by name and number too "
    "(test_the_month_is_searched_by_name_without_accents_and_by_number)",
    "test_sixth_act_desks": "the simulator and Fiscalização driven under Cabeceira Grande's act; its quote, record, "
    "seizure and donation: test_sixth_act and test_town_demos on both back ends",
    "test_permits_tab_drive": "Permissões' buttons, confirmations, dialogs' refusals, documents refused, keyboard and "
    "table models; suspend, reactivate, revoke, cancel, renewal refused, the deadlines closed, leave and transfer: "
    "test_permits on both back ends; the search and the acts written on workers: test_permits_tab on both",
    "test_formula_desk": "the simulator and the application form asking a formula's open value; the value kept with "
    "who set it in the stored quote: test_formula_fees on both back ends",
}

#: Single tests whose PostgreSQL run is left out in a module that keeps its own (``module::test``: why) — a test
#: whose source names nothing of :data:`BACK_END_MATTERS` and checks what happens after the back end has answered.
SQLITE_ONLY_TESTS = {
    "test_sanctions_report::test_a_cancelled_export_keeps_the_old_file_and_leaves_no_temporary_one": "a cancel "
    "while the file is written (after the gathering): the old file kept, no temporary one left; the gathering and "
    "each format written from PostgreSQL: the module's other tests on both back ends",
    "test_fee_report::test_export_is_atomic_a_cancel_leaves_nothing_and_keeps_the_old_file": "a cancel while the "
    "file is written (after the gathering): the old file kept, nothing left; the gathering and each format written "
    "from PostgreSQL: the module's other tests on both back ends",
}

#: What in a test module's source says its back end matters (see the module's docstring): a module that names one
#: of these keeps its PostgreSQL variant.
BACK_END_MATTERS = re.compile(
    r"""execute_sql|\.execute\(|\bcursor\(|\bSQL\(|\.raw\(|\bfn\.  # raw SQL, SQL functions
    |\batomic\(|\btransaction|for_update|lock_timeout|\bLOCK\b|concurren|\bthreading\b|\bThread\(  # transactions, locks
    |\baudit|AuditEntry|verify_chain|\bchain\b|\btriggers?\b(?!\()  # the audit trail and its triggers
    |migrat|\bschema\b|sequence  # schemas and migrations
    |importer|insert_many|\bbulk\b  # bulk import
    |\bgrant|\brole=|create_user|\blog_in\(|\blogin\b  # roles and logins
    |\bbackup|\brestore\w*\(  # backups
    |postgres|psycopg|\bLISTEN\b|\bNOTIFY\b|\bpg_|PRACA_TEST_PG  # PostgreSQL itself""",
    re.IGNORECASE | re.VERBOSE,
)

DEV_EXAMPLES = 10
TESTS = os.path.dirname(os.path.abspath(__file__))
#: The hypothesis profile loaded for this run.
PROFILE = {"name": ""}


def load_hypothesis_profile() -> str:
    from hypothesis import settings

    settings.register_profile("ci", print_blob=True)
    settings.register_profile("dev", max_examples=DEV_EXAMPLES)
    default = "ci" if os.environ.get("CI", "").lower() == "true" else "dev"
    PROFILE["name"] = name = os.environ.get("HYPOTHESIS_PROFILE", "").strip() or default
    settings.load_profile(name)
    return name


@functools.cache
def _source(func) -> str:
    """The lines of ``func``'s source (its decorators and nested functions included), read off its code object's line
    numbers: ``inspect.getsource`` tokenises each function again, ~3 ms a test at collection, on every worker."""
    code = getattr(inspect.unwrap(func), "__code__", None) if callable(func) else None
    if code is None:
        return ""
    lines = linecache.getlines(code.co_filename)
    return "".join(lines[code.co_firstlineno - 1 : _last_line(code)])


def _last_line(code) -> int:
    lines = [line for _, _, line in code.co_lines() if line is not None]
    lines += [_last_line(const) for const in code.co_consts if inspect.iscode(const)]
    return max(lines, default=code.co_firstlineno)


@functools.cache
def _module_spawners(module) -> dict[str, frozenset[str]]:
    """For each kind, the names of the module's functions (its own or imported) whose source starts that kind."""
    found: dict[str, set[str]] = {kind: set() for kind in SPAWNS}
    for name, value in vars(module).items():
        if inspect.isfunction(value) and not name.startswith("test_"):
            source = _source(value)
            for kind, pattern in SPAWNS.items():
                if pattern.search(source):
                    found[kind].add(name)
    return {kind: frozenset(names) for kind, names in found.items()}


@functools.cache
def _in_tests(func) -> bool:
    """Whether ``func`` is defined in a test module or tests/factories.py (not conftest, pytest or a plugin)."""
    where = inspect.getsourcefile(func) or ""
    return os.path.dirname(os.path.abspath(where)) == TESTS and os.path.basename(where) != "conftest.py"


def _sources(item) -> list[str]:
    """The test's source and that of each fixture it takes that a test module or tests/factories.py defines (not
    pytest's, a plugin's or conftest's: ``need_client`` names every program, a test names the one it needs)."""
    out = [_source(getattr(item, "function", None))]
    info = getattr(item, "_fixtureinfo", None)
    for defs in info.name2fixturedefs.values() if info else ():
        for fixturedef in defs:
            func = getattr(fixturedef, "func", None)
            if func is not None and _in_tests(func):
                out.append(_source(func))
    return out


def kinds(item) -> set[str]:
    """The kinds of program ``item`` starts (see :data:`SPAWNS`)."""
    module = getattr(item, "module", None)
    spawners = _module_spawners(module) if module is not None else {}
    found: set[str] = set()
    for text in _sources(item):
        found |= _kinds_in(text, tuple(sorted(spawners.items())))
    return found


@functools.cache
def _kinds_in(text: str, spawners: tuple[tuple[str, frozenset[str]], ...]) -> frozenset[str]:
    """The kinds ``text`` starts, by name or through one of its module's ``spawners`` (a source is read once)."""
    by_kind = dict(spawners)
    return frozenset(
        kind
        for kind, pattern in SPAWNS.items()
        if pattern.search(text) or any(re.search(rf"\b{name}\(", text) for name in by_kind.get(kind, ()))
    )


def _module_scoped(item) -> bool:
    info = getattr(item, "_fixtureinfo", None)
    return any(
        d.scope in ("module", "class", "package")
        for defs in (info.name2fixturedefs.values() if info else ())
        for d in defs
    )


def _on_postgresql(item) -> bool:
    callspec = getattr(item, "callspec", None)
    values = callspec.params.values() if callspec is not None else ()
    # a back end as the parameter, or in it: the town demo's ("sao-bento", "postgresql")
    return any(v == "postgresql" or (isinstance(v, tuple) and "postgresql" in v) for v in values)


def sqlite_only(item) -> bool:
    """Whether ``item`` is the PostgreSQL run of a test of a :data:`SQLITE_ONLY` module or of one of
    :data:`SQLITE_ONLY_TESTS` (deselected)."""
    module = getattr(getattr(item, "module", None), "__name__", "")
    test = f"{module}::{getattr(item, 'originalname', '')}"
    return _on_postgresql(item) and (module in SQLITE_ONLY or test in SQLITE_ONLY_TESTS)


def _scale_hypothesis(item) -> None:
    """In the ``dev`` profile, a tenth of the examples a property asks for (at least :data:`DEV_EXAMPLES`)."""
    from hypothesis import settings

    if PROFILE["name"] != "dev":
        return
    test = getattr(item, "obj", None)
    test = getattr(test, "__func__", test)
    current = getattr(test, "_hypothesis_internal_use_settings", None)
    if not getattr(test, "is_hypothesis_test", False) or current is None or getattr(test, "_praca_scaled", False):
        return
    test._hypothesis_internal_use_settings = settings(
        current, max_examples=max(DEV_EXAMPLES, current.max_examples // 10)
    )
    test._praca_scaled = True


def modify_items(config, items) -> None:
    dropped = [item for item in items if sqlite_only(item)]
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        gone = set(map(id, dropped))
        items[:] = [item for item in items if id(item) not in gone]
    heavy = []
    for item in items:
        for kind in kinds(item):
            item.add_marker(getattr(pytest.mark, kind))
        if _on_postgresql(item):
            item.add_marker(pytest.mark.pg)
        if _module_scoped(item):
            item.add_marker(pytest.mark.xdist_group(item.module.__name__ if item.module else item.nodeid))
        _scale_hypothesis(item)
        heavy.append(any(item.get_closest_marker(k) for k in EXTERNAL) or _module_scoped(item))
    # the longest first (stable: the order within each part is the collection's)
    items[:] = [i for i, h in zip(items, heavy, strict=True) if h] + [
        i for i, h in zip(items, heavy, strict=True) if not h
    ]
