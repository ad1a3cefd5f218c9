"""The sources the structure checks read, parsed once per worker (issue 27 §1).

test_one_home, test_import_graph, test_layering, test_screen_objects and test_test_imports each read every module of
the application (and the tests): parsing them all takes ~4.5 s of CPU, and they did it seven times over (the
import graph's private names three times per file). Each file is parsed once per worker and its tree shared; a file
changed since it was parsed (the checks' own tests write theirs under tmp_path) is parsed again. Nothing may change
a tree it is given.
"""

from __future__ import annotations

import ast
import functools
from pathlib import Path


def parsed(path: Path) -> ast.Module:
    """``path``'s syntax tree, shared: parsed again only when the file changed."""
    stat = path.stat()
    return _parsed(path, stat.st_mtime_ns, stat.st_size)


def nodes(path: Path) -> tuple[ast.AST, ...]:
    """Every node of ``path``'s tree in ``ast.walk``'s order, shared."""
    stat = path.stat()
    return _nodes(path, stat.st_mtime_ns, stat.st_size)


@functools.cache
def _parsed(path: Path, mtime_ns: int, size: int) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"), filename=str(path))


@functools.cache
def _nodes(path: Path, mtime_ns: int, size: int) -> tuple[ast.AST, ...]:
    return tuple(ast.walk(_parsed(path, mtime_ns, size)))
