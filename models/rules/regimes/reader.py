"""Reading one TOML table of a regime file: :class:`Node` reads each key through a typed reader that checks
it (and says in pt-BR what is wrong, at which key path); :func:`attempt`, :func:`parse_sub` and
:func:`parse_list` let a check of a whole file (``all_errors``) record a broken item and go on.
"""

from __future__ import annotations

import contextvars
import datetime as dt
import difflib
from collections.abc import Callable, Iterable
from decimal import Decimal, InvalidOperation
from enum import Enum
from typing import Any, Final, Literal, NoReturn, TypeVar, overload

from models.rules.regimes.errors import RegimeError
from models.rules.regimes.vocabulary import BASIS_RE, CODE_RE, DECIMAL_RE, ID_RE, TIME_RE

_TYPE_NAMES = {
    str: "texto",
    bool: "booleano",
    int: "inteiro",
    float: "número decimal TOML (float)",
    dict: "tabela",
    list: "lista",
    dt.datetime: "data e hora",
    dt.date: "data",
    dt.time: "hora",
}


def type_name(value: object) -> str:
    for kind, name in _TYPE_NAMES.items():
        if type(value) is kind:
            return name
    return type(value).__name__


def show(value: object) -> str:
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


# --------------------------------------------------------------------------- near misses


def near(word: str, choices: Iterable[str]) -> str | None:
    """The choice a near miss meant (``lable`` → ``label``), if one is close."""
    match = difflib.get_close_matches(word, [c for c in choices if c != word], n=1, cutoff=0.75)
    return match[0] if match else None


def meant(word: str, choices: Iterable[str]) -> str:
    """`` — quis dizer "label"?`` for a near miss, else nothing."""
    guess = near(word, choices)
    return f" — quis dizer {show(guess)}?" if guess else ""


def one_slip(typed: str, meant_word: str) -> bool:
    """``typed`` is ``meant_word`` with one slip of the keyboard: a letter more, less, changed, or two swapped
    (``lable`` for ``label``) — not a different key (``min_metres`` is not a slip of ``max_metres``)."""
    if typed == meant_word or abs(len(typed) - len(meant_word)) > 1:
        return False
    if len(typed) == len(meant_word):
        diff = [i for i, (a, b) in enumerate(zip(typed, meant_word, strict=True)) if a != b]
        return len(diff) == 1 or (
            len(diff) == 2
            and diff[1] == diff[0] + 1
            and typed[diff[0]] == meant_word[diff[1]]
            and typed[diff[1]] == meant_word[diff[0]]
        )
    short, long = sorted((typed, meant_word), key=len)
    return any(long[:i] + long[i + 1 :] == short for i in range(len(long)))


# --------------------------------------------------------------------------- reader

T = TypeVar("T")


class Node:
    """One TOML table being read: tracks the key path and which keys were used."""

    def __init__(self, file: str, path: str, data: Any, *, key_for_error: str | None = None):
        self.file = file
        self.path = path
        if not isinstance(data, dict):
            raise RegimeError(
                f"esperada uma tabela, veio {type_name(data)} {show(data)}",
                file=file,
                key=key_for_error or path or None,
            )
        self.data: dict[str, Any] = data
        self.used: set[str] = {"notes"}

    # -- paths / errors

    def key(self, name: str) -> str:
        return f"{self.path}.{name}" if self.path else name

    def fail(self, name: str | None, reason: str) -> NoReturn:
        raise RegimeError(reason, file=self.file, key=self.key(name) if name else (self.path or None))

    def has(self, name: str) -> bool:
        return name in self.data

    def raw(self, name: str, required: bool) -> Any:
        self.used.add(name)
        if name not in self.data:
            if required:
                typo = next((n for n in self.data if n not in self.used and one_slip(n, name)), None)
                if typo is None:
                    self.fail(name, "chave obrigatória ausente")
                # a near miss of a key the table needs (``lable``): one mistake, said once; while checking a
                # whole file the rest of the table is read with the value written under the wrong name
                error = RegimeError(
                    f"chave desconhecida (não prevista no formato para esta tabela) — quis dizer {show(name)}?",
                    file=self.file,
                    key=self.key(typo),
                )
                found = FOUND.get()
                if found is None:
                    raise error
                found.append(error)
                self.used.add(typo)
                return self.data[typo]
            return None
        return self.data[name]

    def done(self) -> None:
        unknown = [name for name in self.data if name not in self.used]
        known = self.used - set(self.data)

        def reason(name: str) -> str:
            return "chave desconhecida (não prevista no formato para esta tabela)" + meant(name, known)

        found = FOUND.get()
        if found is not None:  # checking a whole file: every unknown key of the table, not only the first
            for name in unknown[:-1]:
                found.append(RegimeError(reason(name), file=self.file, key=self.key(name)))
        for name in unknown[-1:]:
            self.fail(name, reason(name))

    # -- scalars

    def _typed(self, name: str, value: object, kind: type[T], what: str) -> T:
        # an int is exactly an int (not a bool), a date exactly a date (not a datetime)
        if isinstance(value, kind) and (kind not in (int, dt.date) or type(value) is kind):
            return value
        self.fail(name, f"esperado {what}, veio {type_name(value)} {show(value)}")

    @overload
    def text(self, name: str, required: Literal[True] = True) -> str: ...
    @overload
    def text(self, name: str, required: bool = ...) -> str | None: ...
    def text(self, name: str, required: bool = True) -> str | None:
        value = self.raw(name, required)
        if value is None:
            return None
        value = self._typed(name, value, str, "texto")
        if not value.strip():
            self.fail(name, "texto vazio")
        return value

    def notes(self) -> str | None:
        return self.text("notes", required=False)

    @overload
    def ident(self, name: str = "id", required: Literal[True] = True) -> str: ...
    @overload
    def ident(self, name: str = "id", required: bool = ...) -> str | None: ...
    def ident(self, name: str = "id", required: bool = True) -> str | None:
        value = self.text(name, required)
        if value is not None and not ID_RE.match(value):
            self.fail(name, f"id inválido {show(value)}: use minúsculas ASCII, dígitos e hífens (kebab-case)")
        return value

    @overload
    def code(self, name: str = "code", required: Literal[True] = True) -> str: ...
    @overload
    def code(self, name: str = "code", required: bool = ...) -> str | None: ...
    def code(self, name: str = "code", required: bool = True) -> str | None:
        value = self.text(name, required)
        if value is not None and not CODE_RE.match(value):
            self.fail(name, f'código inválido {show(value)}: use maiúsculas ASCII, como "UFESP"')
        return value

    @overload
    def basis(self, name: str = "basis", required: Literal[True] = True) -> str: ...
    @overload
    def basis(self, name: str = "basis", required: bool = ...) -> str | None: ...
    def basis(self, name: str = "basis", required: bool = True) -> str | None:
        value = self.raw(name, required)
        if value is None:
            return None
        if not isinstance(value, str) or not value.strip():
            self.fail(name, f'esperado o artigo em texto, como "art. 9º, § 2º"; veio {type_name(value)} {show(value)}')
        if not BASIS_RE.match(value.strip()):
            self.fail(name, f'fundamento {show(value)} deve citar o artigo do ato, como "art. 9º, § 2º"')
        cited = CITED.get()
        if cited is not None and not self.has("basis_act"):  # an article of this act, not of another law
            cited.append((self.key(name), value))
        return value

    def basis_act(self) -> str | None:
        return self.text("basis_act", required=False)

    @overload
    def decimal(
        self,
        name: str,
        required: Literal[True] = True,
        *,
        positive: bool = ...,
        non_negative: bool = ...,
        max_value: Decimal | None = ...,
    ) -> Decimal: ...
    @overload
    def decimal(
        self,
        name: str,
        required: bool = ...,
        *,
        positive: bool = ...,
        non_negative: bool = ...,
        max_value: Decimal | None = ...,
    ) -> Decimal | None: ...
    def decimal(
        self,
        name: str,
        required: bool = True,
        *,
        positive: bool = False,
        non_negative: bool = False,
        max_value: Decimal | None = None,
    ) -> Decimal | None:
        value = self.raw(name, required)
        if value is None:
            return None
        if isinstance(value, float):
            self.fail(
                name,
                f'esperado um decimal em texto, como "{value!r}"; veio o número {value!r} '
                "(float TOML não é aceito: escreva o decimal entre aspas)",
            )
        if isinstance(value, bool):
            self.fail(name, f'esperado um decimal em texto, como "5.50"; veio booleano {show(value)}')
        if isinstance(value, int):
            self.fail(name, f'esperado um decimal em texto, como "{value}"; veio o inteiro {value}')
        if not isinstance(value, str):
            self.fail(name, f'esperado um decimal em texto, como "5.50"; veio {type_name(value)} {show(value)}')
        if not DECIMAL_RE.match(value):
            self.fail(name, f'decimal inválido {show(value)}: use dígitos e ponto, como "5.50"')
        try:
            result = Decimal(value)
        except InvalidOperation:  # pragma: no cover - regex guards
            self.fail(name, f"decimal inválido {show(value)}")
        if positive and result <= 0:
            self.fail(name, f"deve ser maior que zero, veio {show(value)}")
        if non_negative and result < 0:
            self.fail(name, f"não pode ser negativo, veio {show(value)}")
        if max_value is not None and result > max_value:
            self.fail(name, f"deve ser no máximo {max_value}, veio {show(value)}")
        return result

    @overload
    def integer(self, name: str, required: Literal[True] = True, *, minimum: int | None = ...) -> int: ...
    @overload
    def integer(self, name: str, required: bool = ..., *, minimum: int | None = ...) -> int | None: ...
    def integer(self, name: str, required: bool = True, *, minimum: int | None = None) -> int | None:
        value = self.raw(name, required)
        if value is None:
            return None
        value = self._typed(name, value, int, "inteiro")
        if minimum is not None and value < minimum:
            self.fail(name, f"deve ser no mínimo {minimum}, veio {value}")
        return value

    def boolean(self, name: str, default: bool = False) -> bool:
        value = self.raw(name, False)
        if value is None:
            return default
        return self._typed(name, value, bool, "booleano (true/false)")

    def optional_bool(self, name: str) -> bool | None:
        value = self.raw(name, False)
        if value is None:
            return None
        return self._typed(name, value, bool, "booleano (true/false)")

    @overload
    def date(self, name: str, required: Literal[True] = True) -> dt.date: ...
    @overload
    def date(self, name: str, required: bool = ...) -> dt.date | None: ...
    def date(self, name: str, required: bool = True) -> dt.date | None:
        value = self.raw(name, required)
        if value is None:
            return None
        if type(value) is not dt.date:
            self.fail(name, f"esperada uma data TOML (AAAA-MM-DD, sem aspas), veio {type_name(value)} {show(value)}")
        return value

    @overload
    def datetime(self, name: str, required: Literal[True] = True) -> dt.datetime: ...
    @overload
    def datetime(self, name: str, required: bool = ...) -> dt.datetime | None: ...
    def datetime(self, name: str, required: bool = True) -> dt.datetime | None:
        value = self.raw(name, required)
        if value is None:
            return None
        if isinstance(value, dt.datetime):
            if value.tzinfo is not None:
                self.fail(name, "use data e hora locais, sem fuso horário")
            return value
        if isinstance(value, str):
            try:
                parsed = dt.datetime.fromisoformat(value)
            except ValueError:
                parsed = None
            if parsed is not None and "T" in value and parsed.tzinfo is None:
                return parsed
        self.fail(name, f"esperada data e hora locais (2026-03-27T12:00), veio {type_name(value)} {show(value)}")

    @overload
    def time(self, name: str, required: Literal[True] = True) -> dt.time: ...
    @overload
    def time(self, name: str, required: bool = ...) -> dt.time | None: ...
    def time(self, name: str, required: bool = True) -> dt.time | None:
        value = self.raw(name, required)
        if value is None:
            return None
        if isinstance(value, dt.time) and not isinstance(value, dt.datetime):
            return value
        if isinstance(value, str) and TIME_RE.match(value):
            hours, minutes = value.split(":")
            return dt.time(int(hours), int(minutes))
        self.fail(name, f'esperada uma hora "HH:MM" (como "18:00"), veio {type_name(value)} {show(value)}')

    @overload
    def enum(
        self, name: str, choices: Iterable[str], required: Literal[True] = True, default: str | None = ...
    ) -> str: ...
    @overload
    def enum(self, name: str, choices: Iterable[str], required: bool = ..., *, default: str) -> str: ...
    @overload
    def enum(self, name: str, choices: Iterable[str], required: bool = ..., default: None = ...) -> str | None: ...
    def enum(self, name: str, choices: Iterable[str], required: bool = True, default: str | None = None) -> str | None:
        value = self.text(name, required)
        if value is None:
            return default
        choices = tuple(choices)
        if value not in choices:
            self.fail(name, f"valor {show(value)} não previsto; use um de: {', '.join(choices)}{meant(value, choices)}")
        return value

    # -- lists

    def _list(self, name: str) -> list[Any] | None:
        value = self.raw(name, False)
        if value is None:
            return None
        return self._typed(name, value, list, "lista")

    def text_list(self, name: str, *, required: bool = False) -> tuple[str, ...]:
        if required and name not in self.data:
            self.raw(name, True)
        items = self._list(name) or []
        for i, item in enumerate(items):
            if not isinstance(item, str) or not item.strip():
                self.fail(f"{name}[{i}]", f"esperado texto, veio {type_name(item)} {show(item)}")
        return tuple(items)

    def ident_list(self, name: str, *, required: bool = False, unique: bool = True) -> tuple[str, ...]:
        items = self.text_list(name, required=required)
        seen: set[str] = set()
        for i, item in enumerate(items):
            if not ID_RE.match(item):
                self.fail(f"{name}[{i}]", f"id inválido {show(item)}: use minúsculas ASCII, dígitos e hífens")
            if unique and item in seen:
                self.fail(f"{name}[{i}]", f"{show(item)} repetido na lista")
            seen.add(item)
        return items

    def enum_list(self, name: str, choices: Iterable[str], *, required: bool = False) -> tuple[str, ...]:
        choices = tuple(choices)
        items = self.text_list(name, required=required)
        seen: set[str] = set()
        for i, item in enumerate(items):
            if item not in choices:
                self.fail(
                    f"{name}[{i}]",
                    f"valor {show(item)} não previsto; use um de: {', '.join(choices)}{meant(item, choices)}",
                )
            if item in seen:
                self.fail(f"{name}[{i}]", f"{show(item)} repetido na lista")
            seen.add(item)
        return items

    # -- nested tables

    @overload
    def table(self, name: str, required: Literal[True]) -> Node: ...
    @overload
    def table(self, name: str, required: bool = ...) -> Node | None: ...
    def table(self, name: str, required: bool = False) -> Node | None:
        value = self.raw(name, required)
        if value is None:
            return None
        return Node(self.file, self.key(name), value)

    def tables(self, name: str, *, required: bool = False) -> list[Node]:
        value = self.raw(name, required)
        if value is None:
            return []
        if not isinstance(value, list):
            self.fail(name, f"esperada uma lista de tabelas ([[{name}]]), veio {type_name(value)} {show(value)}")
        return [Node(self.file, f"{self.key(name)}[{i}]", item) for i, item in enumerate(value)]


def check_unique(nodes_and_ids: Iterable[tuple[Node, str]], key: str, what: str) -> None:
    seen: dict[str, str] = {}
    for node, ident in nodes_and_ids:
        if ident in seen:
            node.fail(key, f"{what} {show(ident)} repetido (já usado em {seen[ident]})")
        seen[ident] = node.path


#: while a file is read: each article of the act it cites (key, ``basis``), checked against ``[regime] articles``
CITED: contextvars.ContextVar[list[tuple[str, str]] | None] = contextvars.ContextVar("regime_cited", default=None)

#: while checking a file (``all_errors``): the errors found so far; each top-level item that fails is recorded
#: here and skipped, so that one run reports every broken item, not only the first
FOUND: contextvars.ContextVar[list[RegimeError] | None] = contextvars.ContextVar("regime_errors", default=None)


def attempt(parser: Callable[[Node], T], node: Node, *, salvage: bool = False) -> T | Skipped:
    """``parser(node)``; while collecting, a :class:`RegimeError` is recorded and ``SKIPPED`` returned (with
    ``salvage``, what the entry reads as without its broken keys, when that reads: the rest of the file is
    then checked against it — the act's header)."""
    found = FOUND.get()
    if found is None:
        return parser(node)
    try:
        return parser(node)
    except RegimeError as exc:
        first = exc
    # every mistake of the entry, not only the first: read it again without the key that failed, while the
    # failure is a key of its own (a later one, or one a sub-table reports); a mistake about a key taken away
    # (now "missing") is not one of the file's
    data, errors = dict(node.data), [first]
    removed: set[str] = set()
    salvaged: T | Skipped = SKIPPED
    for _ in range(len(node.data)):
        name = next(
            (
                n
                for n in data
                if errors[-1].key is not None
                and (errors[-1].key == node.key(n) or errors[-1].key.startswith((node.key(n) + ".", node.key(n) + "[")))
            ),
            None,
        )
        if name is None:
            break
        del data[name]
        removed.add(node.key(name))
        attempted: list[RegimeError] = []
        token = FOUND.set(attempted)
        try:
            salvaged = parser(Node(node.file, node.path, data))
            failed: RegimeError | None = None
        except RegimeError as again:
            failed = again
        finally:
            FOUND.reset(token)
        about_removed = [
            e
            for e in attempted + ([failed] if failed else [])
            if any(e.key == k or (e.key or "").startswith((k + ".", k + "[")) for k in removed)
        ]
        errors.extend(e for e in attempted if e not in about_removed)
        if failed is None or failed in about_removed:
            break
        errors.append(failed)  # last: the next round takes its key away
    seen = {(error.key, str(error)) for error in found}  # what the first reading recorded already
    for error in errors:
        mark = (error.key, str(error))
        if mark not in seen:
            seen.add(mark)
            found.append(error)
    return salvaged if salvage else SKIPPED


class Skipped(Enum):
    """The type of :data:`SKIPPED`: what :func:`attempt` returns for an item it recorded as broken."""

    SKIPPED = "skipped"


SKIPPED: Final = Skipped.SKIPPED


def parse_sub(parent: Node, name: str, parser: Callable[[Node], T]) -> T | None:
    child = parent.table(name)
    if child is None:
        return None
    result = attempt(parser, child)
    return None if result is SKIPPED else result


def parse_list(
    root: Node, name: str, parser: Callable[[Node], T], id_attr: str | None = "id", what: str = "id"
) -> tuple[T, ...]:
    found = FOUND.get()
    if found is not None:
        try:
            nodes = root.tables(name)
        except RegimeError as exc:
            found.append(exc)
            return ()
    else:
        nodes = root.tables(name)
    parsed: list[tuple[Node, T]] = []
    for child in nodes:
        item = attempt(parser, child)
        if not isinstance(item, Skipped):
            parsed.append((child, item))
    if id_attr:
        attempt(lambda _: check_unique(((c, getattr(i, id_attr)) for c, i in parsed), id_attr, what), root)
    return tuple(item for _, item in parsed)
