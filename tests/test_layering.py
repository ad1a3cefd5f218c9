"""The layers' contract, checked on every run (DESIGN.md, STYLE.md § 1–2).

* models/ never imports PySide6, views or desktop;
* reports/ never imports views or desktop;
* views/ never imports desktop and never talks SQL (no peewee): screens ask the domain.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

FORBIDDEN = {
    "models": {"PySide6", "shiboken6", "views", "desktop"},
    "reports": {"views", "desktop"},
    "views": {"desktop", "peewee", "playhouse"},
}


def imported_roots(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    roots = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            roots.add(node.module.split(".")[0])
    return roots


@pytest.mark.parametrize("layer", sorted(FORBIDDEN))
def test_layer_imports(layer):
    folder = ROOT / layer
    files = sorted(folder.rglob("*.py"))
    assert files, f"{layer}/ has no Python files"
    offences = []
    for path in files:
        bad = imported_roots(path) & FORBIDDEN[layer]
        if bad:
            offences.append(f"{path.relative_to(ROOT)} imports {', '.join(sorted(bad))}")
    assert not offences, "layering broken:\n" + "\n".join(offences)


def test_checker_sees_a_violation(tmp_path):
    """The checker itself must catch an offending import (a test that can fail)."""
    bad = tmp_path / "x.py"
    bad.write_text("import os\nfrom PySide6.QtCore import QObject\ndef f():\n    import views.home\n")
    assert {"PySide6", "views"} <= imported_roots(bad)


def test_no_float_in_models():
    """Money and measures that become money are Decimal: no float() in the domain."""
    offences = []
    for path in sorted((ROOT / "models").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "float":
                offences.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert not offences, "float() in models/: " + ", ".join(offences)


def test_screens_do_not_query_the_database():
    """A screen asks the domain (models/ functions); it never runs a query on a table itself."""
    import re

    pattern = re.compile(r"\.(select|get_by_id|get_or_none|insert_many|execute|execute_sql)\(")
    offences = []
    for path in sorted((ROOT / "views").rglob("*.py")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if pattern.search(line):
                offences.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert not offences, "queries in views/:\n" + "\n".join(offences)
