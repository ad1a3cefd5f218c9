"""Screens own their state (issue 27 §2): no class of the screens is composed by mixins.

`MapEditor(StallEdits, EditorPanels, QWidget)`, `PermitsTab(PermitActs, QWidget)` and `RecordDialog(RecordFields,
QDialog)` were each one class spread over files by mixins that read attributes they never defined. A screen now
composes collaborators it creates with what they need (docs/development.md, "Screens that own their state"). The
check reads the source (the AST): a class of views/ or desktop/ names one base at most.
"""

from __future__ import annotations

import ast
from pathlib import Path

from source_trees import nodes

ROOT = Path(__file__).resolve().parent.parent


def mixed_classes(*packages: str) -> list[str]:
    """``module:Class(A, B)`` for each class with more than one base in ``packages``."""
    found = []
    for package in packages:
        for path in sorted((ROOT / package).rglob("*.py")):
            for node in nodes(path):
                if isinstance(node, ast.ClassDef) and len(node.bases) > 1:
                    bases = ", ".join(ast.unparse(b) for b in node.bases)
                    found.append(f"{path.relative_to(ROOT)}:{node.name}({bases})")
    return found


def test_no_screen_is_composed_by_mixins():
    assert mixed_classes("views", "desktop") == []


def test_the_check_sees_a_mixed_class(tmp_path, monkeypatch):
    (tmp_path / "views").mkdir()
    (tmp_path / "views" / "screen.py").write_text("class Editor(Edits, Panels, QWidget):\n    pass\n")
    monkeypatch.setitem(globals(), "ROOT", tmp_path)
    assert mixed_classes("views") == ["views/screen.py:Editor(Edits, Panels, QWidget)"]
