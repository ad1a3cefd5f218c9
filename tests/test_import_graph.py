"""Imports run one way (issue 21 §2, issue 27 §3): no cycle among the modules of the application (desktop, views,
reports, models — within a package and across them), and no module reaching into another one's private names.

The graph is read from the source (the AST), counting every import — at the top of a module and inside
functions alike: an import put inside a function to dodge a cycle at start-up is still a cycle in the design.
`from models.a import b` is an edge to `models.a.b` when that is a module, else to `models.a`. Imports under
`if TYPE_CHECKING:` are left out: they never run, they only name types for annotations (import-linter is told the
same, exclude_type_checking_imports in pyproject.toml).

KNOWN_CYCLES and KNOWN_PRIVATE listed what was there when the check came (one 18-module cycle through db, audit
and every table; nine private names); the test checks them exactly, so a new cycle or private import fails and one
that is fixed must be taken off. Both are empty now. Until issue 27 the cycle check read models/ alone and did not
see desktop.app ↔ desktop.main_window. `python -m tests.test_import_graph` prints them as they are.
"""

from __future__ import annotations

import ast
from pathlib import Path

from source_trees import parsed

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = "models"
TREE = ("desktop", "views", "reports", "models")  # the application's packages (not tests/, which may look inside)

# Each strongly connected component of the import graph that has more than one module (sorted names).
KNOWN_CYCLES: set[frozenset[str]] = set()

# (importer, "module._name") for each private name taken from another module (imported, or read off the module).
KNOWN_PRIVATE: set[tuple[str, str]] = set()


def module_names(root: Path = ROOT, package: str = PACKAGE) -> dict[str, Path]:
    """Every module of the package by dotted name (a package by its own name, for its __init__)."""
    names = {}
    for path in sorted((root / package).rglob("*.py")):
        parts = list(path.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        names[".".join(parts)] = path
    return names


def _resolve_relative(module: str, is_package: bool, level: int, target: str | None) -> str:
    base = module.split(".")
    if not is_package:
        base = base[:-1]
    if level > 1:
        base = base[: len(base) - (level - 1)]
    return ".".join([*base, *([target] if target else [])])


def _is_type_checking(node: ast.AST) -> bool:
    test = node.test if isinstance(node, ast.If) else None
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def walk(tree: ast.AST):
    """ast.walk, leaving out the body of `if TYPE_CHECKING:` (its else branch runs, and is walked)."""
    todo = [tree]
    while todo:
        node = todo.pop()
        yield node
        if _is_type_checking(node):
            todo.extend(node.orelse)
            todo.append(node.test)
        else:
            todo.extend(ast.iter_child_nodes(node))


def imports_of(module: str, path: Path, modules: dict[str, Path]) -> list[tuple[str, str, int]]:
    """(imported module, name or "", line) for every import in the file that lands in the package."""
    tree = parsed(path)
    is_package = path.name == "__init__.py"
    found = []
    for node in walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                name = alias.name
                # `import a.b.c` binds a and imports a.b.c: the edge goes to the deepest known module
                while name and name not in modules:
                    name = name.rpartition(".")[0]
                if name:
                    found.append((name, "", node.lineno))
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                source = _resolve_relative(module, is_package, node.level, node.module)
            else:
                source = node.module or ""
            if source not in modules:
                continue
            for alias in node.names:
                sub = f"{source}.{alias.name}"
                if sub in modules:
                    found.append((sub, "", node.lineno))
                else:
                    found.append((source, alias.name, node.lineno))
    return found


def import_graph(root: Path = ROOT, packages: tuple[str, ...] = TREE) -> dict[str, set[str]]:
    """Module → the modules of ``packages`` it imports (edges across the packages too)."""
    modules = {name: path for package in packages for name, path in module_names(root, package).items()}
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        for target, _, _ in imports_of(name, path, modules):
            if target != name:
                graph[name].add(target)
    return graph


def cycles(graph: dict[str, set[str]]) -> set[frozenset[str]]:
    """The strongly connected components with more than one module (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    found: set[frozenset[str]] = set()
    counter = 0
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.add(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.add(frozenset(component))
    return found


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def _module_aliases(module: str, path: Path, modules: dict[str, Path]) -> dict[str, str]:
    """Local names bound to a module of the package: `import models.a as m`, `from models import a`."""
    tree = parsed(path)
    is_package = path.name == "__init__.py"
    aliases = {}
    for node in walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname and alias.name in modules:
                    aliases[alias.asname] = alias.name
        elif isinstance(node, ast.ImportFrom):
            source = _resolve_relative(module, is_package, node.level, node.module) if node.level else node.module
            for alias in node.names:
                if f"{source}.{alias.name}" in modules:
                    aliases[alias.asname or alias.name] = f"{source}.{alias.name}"
    return aliases


def private_imports(root: Path = ROOT, packages: tuple[str, ...] = TREE) -> set[tuple[str, str]]:
    """(importer, "module.name") for each private name a module of the packages takes from another of them:
    imported by name (`from models.a import _b`) or read off the module (`from models import a` … `a._b`)."""
    modules = {name: path for package in packages for name, path in module_names(root, package).items()}
    found = set()
    for name, path in modules.items():
        for target, imported, _ in imports_of(name, path, modules):
            if _private(imported) and target != name:
                found.add((name, f"{target}.{imported}"))
        aliases = _module_aliases(name, path, modules)
        for node in walk(parsed(path)):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id in aliases
                and _private(node.attr)
                and aliases[node.value.id] != name
            ):
                found.add((name, f"{aliases[node.value.id]}.{node.attr}"))
    return found


def _describe(components: set[frozenset[str]]) -> str:
    return "\n".join("  " + " ↔ ".join(sorted(c)) for c in sorted(components, key=sorted))


def test_no_new_import_cycle_in_the_application():
    found = cycles(import_graph())
    new = found - KNOWN_CYCLES
    gone = KNOWN_CYCLES - found
    assert not new, f"new import cycles in {', '.join(TREE)} (strongly connected components):\n{_describe(new)}"
    assert not gone, (
        f"cycles gone or changed: update KNOWN_CYCLES to what is there now:\n{_describe(gone)}\n"
        f"now:\n{_describe(found)}"
    )


def test_no_new_private_name_taken_across_modules():
    found = private_imports()
    new = sorted(found - KNOWN_PRIVATE)
    gone = sorted(KNOWN_PRIVATE - found)
    assert not new, "private names taken across modules:\n" + "\n".join(f"  {a} ← {b}" for a, b in new)
    assert not gone, "gone: take them off KNOWN_PRIVATE:\n" + "\n".join(f"  {a} ← {b}" for a, b in gone)


def test_the_checker_sees_a_cycle_and_a_private_import(tmp_path):
    """The graph counts an import inside a function, relative imports and submodules named in a from-import."""
    pkg = tmp_path / "pkg"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from pkg.sub import b\n")
    (pkg / "sub" / "__init__.py").write_text("")
    (pkg / "sub" / "b.py").write_text("def f():\n    from ..c import _hidden\n")
    (pkg / "c.py").write_text("import pkg.a\nfrom typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import pkg.d\n")
    (pkg / "d.py").write_text("from pkg import c\n\nc._other()\n")
    graph = import_graph(tmp_path, ("pkg",))
    assert graph["pkg.a"] == {"pkg.sub.b"}
    assert graph["pkg.sub.b"] == {"pkg.c"}
    assert graph["pkg.d"] == {"pkg.c"}
    assert cycles(graph) == {frozenset({"pkg.a", "pkg.sub.b", "pkg.c"})}
    assert private_imports(tmp_path, ("pkg",)) == {("pkg.sub.b", "pkg.c._hidden"), ("pkg.d", "pkg.c._other")}


def test_the_checker_sees_a_cycle_across_packages_through_a_function(tmp_path):
    """An import inside a function from one package to another and back (desktop.app ↔ desktop.main_window was one
    the models-only check missed) is a cycle; the graph covers every package it is given."""
    for package, body in (("top", "def run():\n    from low.b import f\n"), ("low", "from top.a import run\n")):
        (tmp_path / package).mkdir()
        (tmp_path / package / "__init__.py").write_text("")
        (tmp_path / package / ("a.py" if package == "top" else "b.py")).write_text(body)
    assert cycles(import_graph(tmp_path, ("top",))) == set()
    assert cycles(import_graph(tmp_path, ("top", "low"))) == {frozenset({"top.a", "low.b"})}
    assert set(TREE) == {"desktop", "views", "reports", "models"}


if __name__ == "__main__":
    print("KNOWN_CYCLES = {")
    for component in sorted(cycles(import_graph()), key=sorted):
        print("    frozenset({" + ", ".join(f'"{m}"' for m in sorted(component)) + "}),")
    print("}\nKNOWN_PRIVATE = {")
    for importer, name in sorted(private_imports()):
        print(f'    ("{importer}", "{name}"),')
    print("}")
