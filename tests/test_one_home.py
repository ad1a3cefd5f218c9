"""One home per name (issue 27 §3): each public name is imported from one place across the application.

A package whose ``__init__`` re-exports a name is that name's home for every module outside the package (its own
modules take it from the module that defines it: importing one's own package from inside would be a cycle); any
other name lives in the module that defines it, never in a module that merely imports it too. The check reads
every ``from … import …`` (at the top, inside functions and under ``if TYPE_CHECKING:``) of desktop/, views/,
reports/, models/, bench/ and tests/, follows each re-export to the object's definition and fails when one object
is imported through two paths. A package re-export that nobody imports through the package fails too: it is a
second home waiting for a user. ``python -m tests.test_one_home`` prints both lists.
"""

from __future__ import annotations

import ast
import re
from collections import defaultdict
from functools import cache
from pathlib import Path

from source_trees import nodes, parsed

ROOT = Path(__file__).resolve().parent.parent
APPLICATION = ("desktop", "views", "reports", "models", "bench")
SCOPE = (*APPLICATION, "tests")
# The templates read a package off the jinja globals reports/templating.py gives them ({{ describe.holders(…) }}).
TEMPLATES = "resources/templates"
TEMPLATE_GLOBALS = {"describe": "models.rules.describe"}


def _modules(root: Path, packages: tuple[str, ...]) -> dict[str, Path]:
    names = {}
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            names[".".join(parts)] = path
    return names


def _source(module: str, path: Path, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    base = module.split(".")
    if path.name != "__init__.py":
        base = base[:-1]
    if node.level > 1:
        base = base[: len(base) - (node.level - 1)]
    return ".".join([*base, *([node.module] if node.module else [])])


def _inside(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


class Names:
    """Every from-import of the tree, each name followed to the module that defines it."""

    def __init__(self, root: Path = ROOT, packages: tuple[str, ...] = SCOPE) -> None:
        self.root = root
        self.modules = _modules(root, packages)
        self.trees = {m: parsed(p) for m, p in self.modules.items()}
        # module -> local name -> (source module, name there), for names bound at the top by a from-import
        self.bindings: dict[str, dict[str, tuple[str, str]]] = {}
        # every (importer, source, name, line) of a name (not a module) of the tree
        self.imports: list[tuple[str, str, str, int]] = []
        for module, tree in self.trees.items():
            top = {id(node) for node in tree.body}
            bound = self.bindings.setdefault(module, {})
            for node in nodes(self.modules[module]):
                if not isinstance(node, ast.ImportFrom):
                    continue
                source = _source(module, self.modules[module], node)
                if source not in self.modules:
                    continue
                for alias in node.names:
                    if alias.name == "*" or f"{source}.{alias.name}" in self.modules:
                        continue
                    if id(node) in top:
                        bound[alias.asname or alias.name] = (source, alias.name)
                    self.imports.append((module, source, alias.name, node.lineno))

    def is_package(self, module: str) -> bool:
        return self.modules[module].name == "__init__.py"

    def origin(self, module: str, name: str) -> tuple[str, str]:
        """(defining module, name) of what ``from module import name`` binds."""
        seen = set()
        while name in self.bindings.get(module, {}) and (module, name) not in seen:
            seen.add((module, name))
            module, name = self.bindings[module][name]
        return module, name

    def reexports(self) -> dict[tuple[str, str], set[str]]:
        """(defining module, name) -> the packages whose __init__ re-exports it from one of their own modules."""
        found: dict[tuple[str, str], set[str]] = defaultdict(set)
        for package, bound in self.bindings.items():
            if self.is_package(package):
                for name, (source, _) in bound.items():
                    if source.startswith(package + "."):
                        found[self.origin(package, name)].add(package)
        return found

    def paths(self) -> dict[tuple[str, str], dict[str, list[str]]]:
        """(defining module, name) -> each path it is imported through -> the importers (module:line)."""
        homes = self.reexports()
        found: dict[tuple[str, str], dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
        for importer, source, name, line in self.imports:
            if self.is_package(importer) and source.startswith(importer + "."):
                continue  # the re-export itself
            origin = self.origin(source, name)
            if any(_inside(importer, p) and source.startswith(p + ".") for p in homes.get(origin, ())):
                continue  # a module of the package taking the name from inside it
            found[origin][source].append(f"{importer}:{line}")
        return found

    def two_paths(self) -> dict[tuple[str, str], dict[str, list[str]]]:
        return {origin: paths for origin, paths in self.paths().items() if len(paths) > 1}

    def unused_reexports(self) -> set[str]:
        """package.name for each re-export nobody imports through the package nor reads off it (a name the
        ``__init__`` itself uses is not a mere re-export)."""
        through = {(source, name) for _, source, name, _ in self.imports}
        read = set()
        for module in self.trees:
            aliases = {}
            for node in nodes(self.modules[module]):
                if isinstance(node, ast.Import):
                    for alias in node.names:
                        aliases[alias.asname or alias.name.split(".")[0]] = alias.name if alias.asname else ""
                elif isinstance(node, ast.ImportFrom):
                    source = _source(module, self.modules[module], node)
                    for alias in node.names:
                        if f"{source}.{alias.name}" in self.modules:
                            aliases[alias.asname or alias.name] = f"{source}.{alias.name}"
            for node in nodes(self.modules[module]):
                if isinstance(node, ast.Attribute):
                    chain, value = [node.attr], node.value
                    while isinstance(value, ast.Attribute):
                        chain.append(value.attr)
                        value = value.value
                    if isinstance(value, ast.Name):
                        head = aliases.get(value.id) or value.id
                        dotted = [head, *reversed(chain)]
                        read.add((".".join(dotted[:-1]), dotted[-1]))
        for template in sorted((self.root / TEMPLATES).glob("*.j2")):
            text = template.read_text(encoding="utf-8")
            for name, package in TEMPLATE_GLOBALS.items():
                read.update((package, attr) for attr in re.findall(rf"\b{name}\.(\w+)", text))
        found = set()
        for package, bound in self.bindings.items():
            if self.is_package(package) and package.split(".")[0] != "tests":
                local = {
                    n.id
                    for n in nodes(self.modules[package])
                    if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)
                }
                for name, (source, _) in bound.items():
                    used = (package, name) in through or (package, name) in read or name in local
                    if source.startswith(package + ".") and not used:
                        found.add(f"{package}.{name}")
        return found


@cache
def _application() -> Names:
    return Names()


def _describe(found: dict[tuple[str, str], dict[str, list[str]]]) -> str:
    return "\n".join(
        f"  {module}.{name}: " + "; ".join(f"{path} ({', '.join(users[:3])})" for path, users in sorted(paths.items()))
        for (module, name), paths in sorted(found.items())
    )


def test_each_name_is_imported_through_one_path():
    found = _application().two_paths()
    assert not found, f"names imported through two paths (pick the package or the module):\n{_describe(found)}"


def test_no_package_reexports_a_name_nobody_takes_through_it():
    found = sorted(_application().unused_reexports())
    assert not found, "re-exports nobody imports through the package:\n" + "\n".join(f"  {n}" for n in found)


def _tree(tmp_path: Path, files: dict[str, str]) -> Names:
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return Names(tmp_path, ("pkg", "app"))


def test_the_checker_sees_a_name_through_two_paths(tmp_path):
    """A name through its package and through its module, or through a module that merely imports it, is two
    paths; the package's own modules taking it from the module, and the re-export itself, are not."""
    names = _tree(
        tmp_path,
        {
            "pkg/__init__.py": "from pkg.core import Thing, helper\n",
            "pkg/core.py": "class Thing: ...\ndef helper(): ...\n",
            "pkg/other.py": "from pkg.core import Thing\n",  # inside the package: fine
            "app/__init__.py": "",
            "app/a.py": "from pkg import Thing\n",
            "app/b.py": "def f():\n    from pkg.core import Thing\n",  # second path, inside a function
            "app/c.py": "from pkg.other import Thing\n",  # third path, a module that merely imports it
        },
    )
    assert set(names.two_paths()) == {("pkg.core", "Thing")}
    assert set(names.two_paths()[("pkg.core", "Thing")]) == {"pkg", "pkg.core", "pkg.other"}
    assert names.unused_reexports() == {"pkg.helper"}
    (tmp_path / "app" / "d.py").write_text("import pkg\n\npkg.helper()\n")
    assert Names(tmp_path, ("pkg", "app")).unused_reexports() == set()


if __name__ == "__main__":
    names = Names()
    print(_describe(names.two_paths()))
    print("\n".join(sorted(names.unused_reexports())))
