"""What the layers' import contracts cannot say, checked on every run (DESIGN.md, STYLE.md § 1–2).

Which package may import which is import-linter's, in pyproject.toml ([tool.importlinter]: desktop → views →
reports → models, models/ without Qt, views/ without peewee, the layers inside models/), run by `make test`. Here:

* money and measures in models/ are Decimal: no float();
* a screen never runs a query on a table itself (views/ asks the domain).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from source_trees import nodes

ROOT = Path(__file__).resolve().parent.parent


def test_no_float_in_models():
    """Money and measures that become money are Decimal: no float() in the domain."""
    offences = []
    for path in sorted((ROOT / "models").rglob("*.py")):
        for node in nodes(path):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "float":
                offences.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert not offences, "float() in models/: " + ", ".join(offences)


def test_screens_do_not_query_the_database():
    """A screen asks the domain (models/ functions); it never runs a query on a table itself."""
    pattern = re.compile(r"\.(select|get_by_id|get_or_none|insert_many|execute|execute_sql)\(")
    offences = []
    for path in sorted((ROOT / "views").rglob("*.py")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if pattern.search(line):
                offences.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert not offences, "queries in views/:\n" + "\n".join(offences)


def test_month_and_day_names_are_not_written_by_hand():
    """Month and weekday names come from Babel (models.base.br): no list of them in the application's code."""
    months = {"janeiro", "fevereiro", "março", "abril", "maio", "junho", "julho", "agosto", "setembro", "outubro"}
    months |= {"novembro", "dezembro"}
    days = {"segunda-feira", "terça-feira", "quarta-feira", "quinta-feira", "sexta-feira", "sábado", "domingo"}
    days |= {"seg", "ter", "qua", "qui", "sex", "sáb", "dom"}
    offences = []
    for root in ("desktop", "views", "reports", "models"):
        for path in sorted((ROOT / root).rglob("*.py")):
            for node in nodes(path):
                if isinstance(node, ast.Dict):
                    items = node.values
                elif isinstance(node, ast.Tuple | ast.List | ast.Set):
                    items = node.elts
                else:
                    continue
                words = {i.value.lower() for i in items if isinstance(i, ast.Constant) and isinstance(i.value, str)}
                if len(words & months) >= 3 or len(words & days) >= 3:
                    offences.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert not offences, "month or day names written by hand: " + ", ".join(offences)


def test_the_sanctions_workbook_is_built_with_the_toolkit_not_from_the_fee_report():
    """The workbook toolkit both reports share is a package named for what it is (reports.workbook); the sanctions
    report imports nothing from the fee report's workbook, and no package re-exports the toolkit's names."""
    offences = []
    for path in [ROOT / "reports" / "sanctions_report_xlsx.py", *sorted((ROOT / "reports" / "workbook").glob("*.py"))]:
        for node in nodes(path):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("reports.fee_report"):
                offences.append(f"{path.relative_to(ROOT)}:{node.lineno}: from {node.module}")
    init = ast.parse((ROOT / "reports" / "workbook" / "__init__.py").read_text(encoding="utf-8"))
    offences += [f"reports/workbook/__init__.py:{n.lineno}" for n in init.body if isinstance(n, ast.ImportFrom)]
    assert not offences, "\n".join(offences)
