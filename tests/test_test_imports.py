"""No test module imports another test module (issue 21 §5): what tests share lives in tests/factories.py (builders and
fixtures, registered for every module through conftest's ``pytest_plugins``), tests/conftest.py or a helper module
whose name does not start with ``test_``. Importing a test module runs its module-level code a second time under
another name and couples two files that should each read on their own.
"""

from __future__ import annotations

import ast
from pathlib import Path

from source_trees import nodes

TESTS = Path(__file__).resolve().parent


def _test_module(name: str) -> str | None:
    """The test module an import names (``test_x`` or ``tests.test_x``), or None."""
    last = name.rsplit(".", 1)[-1]
    head = name.split(".", 1)[0]
    if last.startswith("test_") and head in (last, "tests"):
        return last
    return None


def imports_between_tests() -> set[tuple[str, str]]:
    """Every (importer, imported) pair of test modules, at module level or inside a function."""
    found = set()
    for path in sorted(TESTS.glob("*.py")):
        for node in nodes(path):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level:  # from . import test_x / from .test_x import …
                names = [node.module or ""] + [alias.name for alias in node.names]
            for name in names:
                imported = _test_module(name) if name else None
                if imported and imported != path.stem:
                    found.add((path.stem, imported))
    return found


def test_no_test_module_imports_another() -> None:
    found = sorted(imports_between_tests())
    assert not found, f"a test module imports another; move what it shares to tests/factories.py: {found}"


def test_the_check_sees_an_import() -> None:
    assert _test_module("test_sites") == "test_sites"
    assert _test_module("tests.test_site_map") == "test_site_map"
    assert _test_module("models.sites") is None
    assert _test_module("factories") is None
