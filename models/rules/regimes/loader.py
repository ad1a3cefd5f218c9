"""Loading one act from its TOML text or file into a :class:`~models.rules.regimes.regime.Regime`, strictly
(the first mistake), or checking it whole (every mistake, :class:`RegimeErrors`).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import tomllib
from dataclasses import replace as dataclass_replace
from pathlib import Path
from typing import Any

from models.base.text import read_small_file
from models.rules.regimes.errors import RegimeError, RegimeErrors
from models.rules.regimes.locate import cited_articles, item_id, joined, located, segments
from models.rules.regimes.model import Duty, Prohibition
from models.rules.regimes.parse_act import (
    Header,
    parse_calendar,
    parse_document,
    parse_equipment,
    parse_group,
    parse_header,
    parse_index,
    parse_line,
    parse_section,
    parse_unit,
)
from models.rules.regimes.parse_cases import parse_case
from models.rules.regimes.parse_common import parse_plain
from models.rules.regimes.parse_fees import parse_fee
from models.rules.regimes.parse_penalties import (
    parse_deadline,
    parse_infraction,
    parse_ladder,
    parse_penalties,
    parse_placard,
    parse_seizure,
)
from models.rules.regimes.parse_permits import parse_permit_kind
from models.rules.regimes.parse_places import parse_layout, parse_schedule, parse_selection, parse_site
from models.rules.regimes.parse_silences import parse_silence
from models.rules.regimes.reader import (
    CITED,
    FOUND,
    SKIPPED,
    Node,
    Skipped,
    attempt,
    meant,
    parse_list,
    parse_sub,
    show,
)
from models.rules.regimes.references import check_references, check_rule_deadlines, check_selection_references
from models.rules.regimes.regime import Regime
from models.rules.regimes.vocabulary import SCOPES

TOP_LEVEL = (
    "regime",
    "units",
    "indexes",
    "documents",
    "equipment",
    "groups",
    "lines",
    "sections",
    "permit_kinds",
    "fees",
    "schedules",
    "sites",
    "layout",
    "selection",
    "ladders",
    "infractions",
    "penalties",
    "deadlines",
    "seizure",
    "prohibitions",
    "duties",
    "placard",
    "calendar",
    "silences",
    "cases",
    "notes",
)


# An act's text is tens of kilobytes (the largest shipped is under 100 KB); a file beyond this is not an act.
MAX_REGIME_BYTES = 2 * 1024 * 1024


def load_regime_file(path: str | Path, *, all_errors: bool = False) -> Regime:
    """Load and validate one regime file; :class:`RegimeError` on any mistake (with ``all_errors``,
    :class:`RegimeErrors` with every one found). The file's id must be its name."""
    path = Path(path)
    try:
        raw_bytes = read_small_file(path, max_bytes=MAX_REGIME_BYTES)
    except OSError as exc:
        raise RegimeError(f"não foi possível ler o arquivo ({exc.strerror or exc})", file=path.name) from exc
    return load_regime_text(raw_bytes, path.name, expected_id=path.stem, source=str(path), all_errors=all_errors)


def check_regime_text(text: str | bytes, file: str, *, expected_id: str | None = None) -> list[RegimeError]:
    """Every mistake in a regime's text (empty when it is valid): each broken item of the file is reported,
    then — only when the items themselves are sound — the references between them."""
    try:
        load_regime_text(text, file, expected_id=expected_id, all_errors=True)
    except RegimeErrors as exc:
        return exc.errors
    except RegimeError as exc:
        return [exc]
    return []


def load_regime_text(
    text: str | bytes, file: str, *, expected_id: str | None = None, source: str | None = None, all_errors: bool = False
) -> Regime:
    """Load and validate one regime from its TOML text (``file`` names it in messages); the result carries
    the text's SHA-256. :class:`RegimeError` on the first mistake, or with ``all_errors``
    :class:`RegimeErrors` with every broken item."""
    regime, found, _ = _read(text, file, expected_id, source, all_errors)
    if found or regime is None:  # no regime: its error was recorded in found
        raise RegimeErrors(found)
    return regime


def checked_regime_text(
    text: str | bytes, file: str, *, expected_id: str | None = None
) -> tuple[Regime | None, list[RegimeError], dict[str, Any]]:
    """Every mistake of the text (as :func:`check_regime_text`), with the regime as far as it reads — its broken
    items left out, None where even the header does not read — and the TOML data (``{}`` when it does not parse):
    what the worked cases of a file with mistakes still run against (``models.services.act_cases``)."""
    try:
        return _read(text, file, expected_id, None, True)
    except RegimeError as exc:  # not UTF-8, not TOML
        return None, [exc], {}


def _read(
    text: str | bytes, file: str, expected_id: str | None, source: str | None, all_errors: bool
) -> tuple[Regime | None, list[RegimeError], dict[str, Any]]:
    raw_bytes = text.encode("utf-8") if isinstance(text, str) else text
    try:
        data = tomllib.loads(raw_bytes.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise RegimeError(f"o arquivo não está em UTF-8 ({exc.reason})", file=file) from exc
    except tomllib.TOMLDecodeError as exc:
        raise RegimeError(f"erro de sintaxe TOML: {exc}", file=file) from exc
    found: list[RegimeError] = []
    token = FOUND.set(found if all_errors else None)
    regime: Regime | None = None
    try:
        regime = build_regime(data, file, expected_id, source or file)
    except RegimeError as exc:
        if not all_errors:
            raise
        if exc not in found:
            found.append(exc)
    finally:
        FOUND.reset(token)
    if regime is not None:
        regime = dataclass_replace(regime, sha256=hashlib.sha256(raw_bytes).hexdigest())
    return regime, located(found, data, raw_bytes.decode("utf-8")) if found else [], data


def build_regime(data: dict[str, Any], file: str, expected_id: str | None, source: str) -> Regime:
    """The regime of ``data``: every item read, then the references between them and the articles cited."""
    root = Node(file, "", data)
    cited: list[tuple[str, str]] = []
    cited_token = CITED.set(cited)
    try:
        return _build_regime(root, cited, expected_id, source)
    finally:
        CITED.reset(cited_token)


def _stand_in_header(header_node: Node, expected_id: str | None) -> Header | Skipped:
    """While checking a whole file whose ``[regime]`` is broken (a required key missing, one of the wrong
    type): the header read again with a neutral stand-in for each key that failed, so that the rest of the
    file is still checked (the header's own mistakes are already recorded)."""
    found = FOUND.get()
    assert found is not None
    broken = {e.key.split(".")[1].split("[")[0] for e in found if e.key and e.key.startswith("regime.")}
    stand_in: dict[str, Any] = {
        "id": expected_id or "ato",
        "municipality": "?",
        "state": "XX",
        "act": "?",
        "short": "?",
        "published": dt.date(1900, 1, 1),
        "scope": list(SCOPES),
        "summary": "?",
        "in_force": {"from": dt.date(1900, 1, 1), "basis": "art. 1º"},
    }
    for _ in range(len(header_node.data) + 1):  # each round: one more broken key, said and stood in for
        data = {k: v for k, v in header_node.data.items() if k not in broken}
        for name, value in stand_in.items():
            data.setdefault(name, value)
        token, cited_token = FOUND.set([]), CITED.set(None)
        try:
            return parse_header(Node(header_node.file, header_node.path, data))
        except RegimeError as exc:
            name = (exc.key or "").removeprefix("regime.").split(".")[0].split("[")[0]
            if not exc.key or not exc.key.startswith("regime.") or name in broken:
                return SKIPPED
            broken.add(name)
            if exc not in found:
                found.append(exc)
        finally:
            FOUND.reset(token)
            CITED.reset(cited_token)
    return SKIPPED


def _build_regime(root: Node, cited: list[tuple[str, str]], expected_id: str | None, source: str) -> Regime:
    header_node = root.table("regime", required=True)
    header = attempt(parse_header, header_node, salvage=True)
    if isinstance(header, Skipped):
        header = _stand_in_header(header_node, expected_id)
    if isinstance(header, Skipped):  # no header to check the rest against: its mistakes are all there is to say
        collected = FOUND.get()
        assert collected, "attempt() skips an item only while the errors are collected"
        raise collected[-1]
    if expected_id is not None and header["id"] != expected_id:
        header_node.fail("id", f"o id {show(header['id'])} difere do nome do arquivo ({show(expected_id)})")

    units = parse_list(root, "units", parse_unit, id_attr="code", what="unidade")
    indexes = parse_list(root, "indexes", parse_index, id_attr="code", what="índice")
    clash = {u.code for u in units} & {x.code for x in indexes}
    if clash:
        root.fail("indexes", f"código {', '.join(sorted(clash))} usado como unidade e como índice")

    regime = Regime(
        **header,
        units=units,
        indexes=indexes,
        documents=parse_list(root, "documents", parse_document, what="documento"),
        equipment_kinds=parse_list(root, "equipment", parse_equipment, what="equipamento"),
        groups=parse_list(root, "groups", parse_group, what="grupo"),
        lines=parse_list(root, "lines", parse_line, what="ramo"),
        sections=parse_list(root, "sections", parse_section, what="seção"),
        permit_kinds=parse_list(root, "permit_kinds", parse_permit_kind, what="tipo de permissão"),
        fees=parse_list(root, "fees", parse_fee, what="preço/taxa"),
        schedules=parse_list(root, "schedules", parse_schedule, what="calendário"),
        sites=parse_list(root, "sites", parse_site, what="local"),
        layout=parse_sub(root, "layout", parse_layout),
        selection=parse_sub(root, "selection", parse_selection),
        ladders=parse_list(root, "ladders", parse_ladder, what="gradação"),
        infractions=parse_list(root, "infractions", parse_infraction, id_attr="code", what="infração"),
        penalties=parse_sub(root, "penalties", parse_penalties),
        deadlines=parse_list(root, "deadlines", parse_deadline, what="prazo"),
        seizure=parse_sub(root, "seizure", parse_seizure),
        prohibitions=parse_list(root, "prohibitions", lambda n: parse_plain(n, Prohibition), what="proibição"),
        duties=parse_list(root, "duties", lambda n: parse_plain(n, Duty), what="obrigação"),
        placard=parse_sub(root, "placard", parse_placard),
        calendar=parse_sub(root, "calendar", parse_calendar),
        silences=parse_list(root, "silences", parse_silence, what="silêncio do ato"),
        cases=parse_list(root, "cases", parse_case, what="caso"),
        source=source,
    )
    root.notes()
    found = FOUND.get()
    if found is None:
        root.done()
        check_references(regime, root)
        _check_silences(regime, root)
        check_selection_references(regime, root)
        check_rule_deadlines(regime, root)
        _check_articles(regime, root, cited)
        return regime
    attempt(lambda node: node.done(), root)
    # the references too, even when some items are broken: a reference to a broken item (read as absent)
    # is not a mistake of its own, and the positions are the regime's: they are turned back into the file's
    broken = _broken_ids(root.data, regime)
    references: list[RegimeError] = []
    token = FOUND.set(references)
    try:
        for check in (check_references, _check_silences, check_selection_references, check_rule_deadlines):
            attempt(lambda node, check=check: check(regime, node), root)  # type: ignore[misc]
    finally:
        FOUND.reset(token)
    for error in references:
        # named as the references name it ("ramo" "x") or as a formula quotes it ('x': line == 'x')
        if not any(show(ident) in error.reason or repr(ident) in error.reason for ident in broken):
            found.append(_in_file(error, root.data, regime))
    attempt(lambda node: _check_articles(regime, node, cited), root)
    return regime


_ATTRIBUTES = {"equipment": "equipment_kinds"}


def _ids(items: Any) -> list[str | None]:
    return [getattr(item, "id", None) or getattr(item, "code", None) for item in items]


def _broken_ids(data: dict[str, Any], regime: Regime) -> set[str]:
    """The ids of the file's items that the check could not read (absent from the regime)."""
    broken: set[str] = set()
    for name, value in data.items():
        if isinstance(value, list) and name != "regime":
            read = set(_ids(getattr(regime, _ATTRIBUTES.get(name, name), ())))
            broken.update(ident for item in value if (ident := item_id(item)) and ident not in read)
    return broken


def _in_file(error: RegimeError, data: dict[str, Any], regime: Regime) -> RegimeError:
    """A reference error keyed by the regime's list positions, keyed by the file's (where items were skipped)."""
    parts = segments(error.key or "")
    if len(parts) < 2 or not isinstance(parts[0], str) or not isinstance(parts[1], int):
        return error
    items = getattr(regime, _ATTRIBUTES.get(parts[0], parts[0]), None)
    listed = data.get(parts[0])
    if not isinstance(items, tuple) or not isinstance(listed, list) or parts[1] >= len(items):
        return error
    ident = _ids(items)[parts[1]]
    where = next((i for i, item in enumerate(listed) if ident is not None and item_id(item) == ident), parts[1])
    return RegimeError(error.reason, file=error.file, key=joined([parts[0], where, *parts[2:]]))


def _check_silences(regime: Regime, root: Node) -> None:
    known = set(regime.ids("deadline"))
    topics: dict[str, str] = {}
    rec = regime.penalties.recurrence if regime.penalties is not None else None
    act_window = (rec is not None and bool(rec.window_years or rec.window_days)) or any(
        ladder.recurrence_window_years or ladder.recurrence_window_days for ladder in regime.ladders
    )
    for i, silence in enumerate(regime.silences):
        if silence.topic != "text":
            if silence.topic in topics:
                root.fail(f"silences[{i}].topic", f"o ponto {show(topics[silence.topic])} já trata de {silence.topic}")
            topics[silence.topic] = silence.id
        if silence.topic == "recurrence-window" and act_window:
            root.fail(f"silences[{i}].topic", "o ato fixa o prazo de reincidência: não há silêncio a declarar")
        for j, ident in enumerate(silence.deadlines):
            if ident not in known:
                root.fail(f"silences[{i}].deadlines[{j}]", f"prazo {show(ident)} não declarado em [[deadlines]]")
        for j, ident in enumerate(silence.infractions):
            if ident not in regime.ids("infraction"):
                root.fail(f"silences[{i}].infractions[{j}]", f"infração {show(ident)} não declarada em [[infractions]]")
        for j, ident in enumerate(silence.fees):
            if ident not in regime.ids("fee"):
                root.fail(f"silences[{i}].fees[{j}]", f"preço/taxa {show(ident)} não declarado em [[fees]]")
        for j, ident in enumerate(silence.ladders):
            if ident not in regime.ids("ladder"):
                root.fail(f"silences[{i}].ladders[{j}]", f"gradação {show(ident)} não declarada em [[ladders]]")


def _check_articles(regime: Regime, root: Node, cited: list[tuple[str, str]]) -> None:
    """Where the file lists the act's articles: every article a ``basis`` cites is one of them."""
    if not regime.articles:
        return
    have = set(regime.articles)
    seen: set[tuple[str, str]] = set()
    found = FOUND.get()
    for key, basis in cited:
        for number in cited_articles(basis):
            if number in have or (key, number) in seen:
                continue
            seen.add((key, number))
            error = RegimeError(
                f"o ato não tem o art. {number} (não está em [regime] articles){meant(number, have)}",
                file=root.file,
                key=key,
            )
            if found is None:
                raise error
            found.append(error)
