"""Issue 27 §1: the PostgreSQL variant of a test is left out only where the back end cannot change what it checks
(tests/loop.py ``SQLITE_ONLY``): a listed module that names SQL, a transaction, a lock, the audit trail, a schema,
a bulk import, a role or login, a backup or PostgreSQL itself must keep its PostgreSQL runs."""

from __future__ import annotations

import ast
import os
import re
from types import SimpleNamespace

import loop
import pytest

TESTS = os.path.dirname(os.path.abspath(__file__))


def _source(module: str) -> str:
    with open(os.path.join(TESTS, f"{module}.py"), encoding="utf-8") as handle:
        return handle.read()


@pytest.mark.parametrize("module", sorted(loop.SQLITE_ONLY))
def test_a_module_run_on_sqlite_only_names_nothing_the_back_ends_treat_differently(module):
    source = _source(module)
    found = [
        f"line {source.count(chr(10), 0, match.start()) + 1}: {match.group(0)!r}"
        for match in loop.BACK_END_MATTERS.finditer(source)
    ]
    assert not found, f"{module} names what the back ends treat differently ({', '.join(found)}): not SQLITE_ONLY"
    assert re.search(rf"\b({'|'.join(sorted(_database_fixtures()))})\b", source), (
        f"{module} takes no database: nothing to leave out"
    )
    assert loop.SQLITE_ONLY[module].strip(), f"{module}: say why its back end cannot matter"


@pytest.mark.parametrize("test", sorted(loop.SQLITE_ONLY_TESTS))
def test_a_test_run_on_sqlite_only_names_nothing_the_back_ends_treat_differently(test):
    module, name = test.split("::")
    source = _source(module)
    [function] = [
        node for node in ast.walk(ast.parse(source)) if isinstance(node, ast.FunctionDef) and node.name == name
    ] or [None]
    assert function is not None, f"{test}: no such test"
    text = "\n".join(ast.get_source_segment(source, d) or "" for d in function.decorator_list)
    text += "\n" + (ast.get_source_segment(source, function) or "")
    found = [match.group(0) for match in loop.BACK_END_MATTERS.finditer(text)]
    assert not found, f"{test} names what the back ends treat differently ({', '.join(found)}): not SQLITE_ONLY_TESTS"
    assert module not in loop.SQLITE_ONLY, f"{test}: its module is SQLite-only already"
    assert loop.SQLITE_ONLY_TESTS[test].strip(), f"{test}: say why its back end cannot matter"


def _database_fixtures() -> set[str]:
    """``database``, ``db_url``, ``demo_database`` and the builders' fixtures (tests/factories.py) that take one of
    them, at any depth: ``keys`` takes ``database``, ``mei`` takes it too."""
    tree = ast.parse(_source("factories"))
    takes = {
        node.name: {arg.arg for arg in node.args.args}
        for node in tree.body
        if isinstance(node, ast.FunctionDef) and any("fixture" in ast.unparse(d) for d in node.decorator_list)
    }
    found = {"database", "db_url", "demo_database"}
    while more := {name for name, params in takes.items() if params & found} - found:
        found |= more
    return found


@pytest.mark.parametrize(
    "module",
    [
        "test_pg_desks",  # each desk's own PostgreSQL login, roles, grants
        "test_desks_hear",  # LISTEN/NOTIFY
        "test_concurrency",  # two connections, locks
        "test_db",  # schemas and migrations
        "test_users_audit",  # the audit trail and its triggers
        "test_importer",  # bulk import in a transaction
        "test_backup",  # backups and restores across back ends
        "test_sites",  # raw SQL in a transaction
    ],
)
def test_the_rule_sees_what_makes_each_back_end_sensitive_module_keep_postgresql(module):
    assert loop.BACK_END_MATTERS.search(_source(module)), f"{module} would be allowed to lose its PostgreSQL run"
    assert module not in loop.SQLITE_ONLY


@pytest.mark.parametrize(
    "line",
    [
        'db.execute_sql("SELECT 1")',
        "with db.atomic():",
        "Charge.select().for_update()",
        "AuditEntry.select()",
        "the trigger refuses a DELETE",
        "migrate(db)",
        "insert_many(rows)",
        'create_user("ana", role="fiscal")',
        "backup.make(path)",
        "restore_database(path)",
        'cur.execute("LISTEN praca")',
        "if os.environ.get('PRACA_TEST_PG'):",
    ],
)
def test_each_kind_of_back_end_difference_is_seen(line):
    assert loop.BACK_END_MATTERS.search(line)


@pytest.mark.parametrize(
    "line", ["action.trigger()", "palette.color(role)", "the look restored after", "QTest.keyClick(box, Qt.Key_Down)"]
)
def test_what_only_a_screen_does_is_not_taken_for_a_back_end_difference(line):
    assert not loop.BACK_END_MATTERS.search(line)


def _item(module: str, back_end: str | None, name: str = "test_x"):
    params = {} if back_end is None else {"database": back_end}
    return SimpleNamespace(
        module=SimpleNamespace(__name__=module), originalname=name, callspec=SimpleNamespace(params=params)
    )


def test_only_the_postgresql_run_of_a_listed_test_is_left_out_not_its_neighbours():
    module, name = next(iter(loop.SQLITE_ONLY_TESTS)).split("::")
    items = [_item(module, "postgresql", name), _item(module, "sqlite", name), _item(module, "postgresql")]
    assert [loop.sqlite_only(item) for item in items] == [True, False, False]


def test_only_the_postgresql_run_of_a_listed_module_is_left_out():
    listed = next(iter(loop.SQLITE_ONLY))
    kept, dropped = [], []
    for item in [
        _item(listed, "sqlite"),
        _item(listed, "postgresql"),
        _item(listed, None),
        _item("test_permits", "postgresql"),
        _item("test_permits", "sqlite"),
    ]:
        (dropped if loop.sqlite_only(item) else kept).append(item)
    assert [(i.module.__name__, i.callspec.params.get("database")) for i in dropped] == [(listed, "postgresql")]
    assert len(kept) == 4


def test_no_postgresql_run_of_a_listed_module_or_test_is_collected_and_its_sqlite_runs_are(request):
    """In this run (when it collects a listed module or test): its SQLite runs are there, its PostgreSQL runs are
    not."""
    listed = [item for item in request.session.items if _listed(item)]
    assert not [item.nodeid for item in listed if loop._on_postgresql(item)]
    on_sqlite = {_listed(item) for item in listed if "sqlite" in _params(item)}
    assert on_sqlite == {_listed(item) for item in listed if _params(item)}


def _listed(item) -> str:
    """The entry of :data:`loop.SQLITE_ONLY` or :data:`loop.SQLITE_ONLY_TESTS` that lists ``item``, else ''."""
    module = getattr(getattr(item, "module", None), "__name__", "")
    test = f"{module}::{getattr(item, 'originalname', '')}"
    return module if module in loop.SQLITE_ONLY else test if test in loop.SQLITE_ONLY_TESTS else ""


def _params(item) -> list:
    callspec = getattr(item, "callspec", None)
    return list(callspec.params.values()) if callspec is not None else []


@pytest.mark.xdist_group("loop_check")
def test_the_xdist_groups_reach_the_scheduler(request):
    """Under ``--dist loadgroup`` the scheduler reads a test's group off its node id (pytest-xdist 3.8: ``…@group``):
    a pytest that no longer takes that id (9.2, pytest-dev/pytest-xdist#1386) or loop.py's markers set after
    pytest-xdist has read them would spread a group over the workers, each making its module-scoped fixture."""
    if not getattr(request.config.option, "loadgroup", False):
        pytest.skip("not under --dist loadgroup (make test)")
    assert request.node.nodeid.endswith("@loop_check")
    grouped = [item for item in request.session.items if item.get_closest_marker("xdist_group")]
    assert [item.nodeid for item in grouped if "@" not in item.nodeid] == []
