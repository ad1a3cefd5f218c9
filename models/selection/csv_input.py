"""The participants of a draw read from a CSV file (the columns of ``CSV_COLUMNS``), and the vacancies as typed."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Sequence
from decimal import Decimal

from models.base.errors import UserError
from models.base.text import read_csv
from models.selection.participants import (
    CSV_COLUMNS,
    Participant,
    normalize_text,
)

_TRUE = {"1", "sim", "s", "x", "true", "yes", "y", "verdadeiro"}
_FALSE = {"", "0", "nao", "não", "n", "false", "no", "falso"}
_DATETIME_FORMATS = (
    "%Y-%m-%dT%H:%M:%S",
    "%Y-%m-%dT%H:%M",
    "%Y-%m-%d %H:%M:%S",
    "%Y-%m-%d %H:%M",
    "%d/%m/%Y %H:%M:%S",
    "%d/%m/%Y %H:%M",
)


def _flag(text: str, column: str, line: int) -> bool:
    value = text.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise UserError(f"Linha {line}: valor inválido na coluna {column}: '{text}' (use sim/não ou 1/0).", field=column)


def _moment(text: str, line: int, column: str = "paid_at") -> dt.datetime | None:
    value = text.strip()
    if not value:
        return None
    for fmt in _DATETIME_FORMATS:
        try:
            return dt.datetime.strptime(value, fmt)
        except ValueError:
            continue
    what = "de pagamento" if column == "paid_at" else "da inscrição"
    raise UserError(
        f"Linha {line}: data e hora {what} inválida: '{text}' (use 26/03/2026 10:15 ou 2026-03-26T10:15:00).",
        field=column,
    )


def _birth(text: str, line: int) -> dt.date | None:
    from models.rules.deadlines import parse_moment

    value = text.strip()
    if not value:
        return None
    try:
        day = parse_moment(value)
    except UserError:
        day = None
    if not isinstance(day, dt.date) or isinstance(day, dt.datetime):
        raise UserError(
            f"Linha {line}: data de nascimento inválida: '{text}' (use 15/04/1961 ou 1961-04-15).", field="birth_date"
        )
    return day


def _score(text: str, line: int) -> Decimal | None:
    from models.base.money import parse_typed

    value = text.strip()
    if not value:
        return None
    try:
        return parse_typed(value)
    except (UserError, ValueError, ArithmeticError):
        raise UserError(f"Linha {line}: pontuação inválida: '{text}'.", field="score") from None


def read_participants_csv(text: str) -> tuple[tuple[Participant, ...], tuple[str, ...]]:
    """Participants from CSV text (UTF-8, a BOM accepted, comma or semicolon
    from the header), and the header columns Praça ignores.

    Columns: ``id`` and ``name`` required; ``group``, ``score``, ``paid_at``,
    ``quota``, ``debtor``, ``preference``, ``disability`` and ``birth_date``
    (the facts of the act's tie-break, Sapezal art. 10, § 3º) and
    ``registered_at`` (checked against the act's registration cut-off, São
    Bento art. 3º) optional. A repeated id, an empty
    list or a missing column is a one-line ``UserError`` naming the line."""
    table = read_csv(text, name="Lista de participantes")  # strict: a stray quote names its line (models.base.text)
    if not table.rows or table.rows[0][0] != 1:
        raise UserError(
            "O arquivo de participantes está vazio (falta o cabeçalho com as colunas id e name).", field="input"
        )
    header = [normalize_text(h).lower() for h in table.rows[0][1]]
    missing = [c for c in ("id", "name") if c not in header]
    if missing:
        raise UserError(
            f"Falta(m) a(s) coluna(s) {', '.join(missing)} no cabeçalho (colunas aceitas: {', '.join(CSV_COLUMNS)}).",
            field="input",
        )
    repeated = sorted({h for h in header if h and header.count(h) > 1})
    if repeated:
        raise UserError(f"Coluna repetida no cabeçalho: {', '.join(repeated)}.", field="input")
    ignored = tuple(h for h in header if h not in CSV_COLUMNS)
    col = {name: header.index(name) for name in CSV_COLUMNS if name in header}
    participants: list[Participant] = []
    first_line: dict[str, int] = {}
    for line, row in table.rows[1:]:
        if not any(cell.strip() for cell in row):
            continue

        def cell(name: str, row: Sequence[str] = row) -> str:
            i = col.get(name)
            return row[i] if i is not None and i < len(row) else ""

        pid, name = normalize_text(cell("id")), normalize_text(cell("name"))
        if not pid:
            raise UserError(f"Linha {line}: falta o id do participante.", field="id")
        if not name:
            raise UserError(f"Linha {line}: falta o nome do participante '{pid}'.", field="name")
        if pid in first_line:
            raise UserError(
                f"Participante repetido: o id '{pid}' aparece nas linhas {first_line[pid]} e {line}.", field="id"
            )
        first_line[pid] = line
        for what, value in (
            ("id", pid),
            ("nome", name),
            ("grupo", normalize_text(cell("group"))),
            ("preferência", normalize_text(cell("preference"))),
        ):
            if ";" in value:
                raise UserError(f"Linha {line}: {what} não pode conter ';'.", field=what)
        debtor_text, disability_text = cell("debtor"), cell("disability")
        participants.append(
            Participant(
                id=pid,
                name=name,
                group=normalize_text(cell("group")),
                score=_score(cell("score"), line),
                paid_at=_moment(cell("paid_at"), line),
                registered_at=_moment(cell("registered_at"), line, "registered_at"),
                quota=_flag(cell("quota"), "quota", line),
                debtor=_flag(debtor_text, "debtor", line) if "debtor" in col and debtor_text.strip() else None,
                preference=normalize_text(cell("preference")) or None,
                disabled=_flag(disability_text, "disability", line) if disability_text.strip() else None,
                birth_date=_birth(cell("birth_date"), line),
            )
        )
    if not participants:
        raise UserError("A lista de participantes está vazia (só o cabeçalho).", field="input")
    return tuple(participants), ignored


def parse_vacancies(text: str) -> int | dict[str, int]:
    """``"3"`` → 3; ``"g01=3,g02=2"`` → vacancies per group. N ≤ 0 is a ``UserError``."""
    value = (text or "").strip()
    if re.fullmatch(r"-?\d+", value):
        n = int(value)
        if n <= 0:
            raise UserError(f"O número de vagas deve ser maior que zero (veio {n}).", field="vacancies")
        return n
    result: dict[str, int] = {}
    for part in value.split(","):
        match = re.fullmatch(r"\s*([^=\s][^=]*?)\s*=\s*(-?\d+)\s*", part)
        if match is None:
            raise UserError(f"Vagas inválidas: '{text}' (use um número, ou GRUPO=N,GRUPO=N).", field="vacancies")
        group, n = normalize_text(match.group(1)), int(match.group(2))
        if n <= 0:
            raise UserError(
                f"O número de vagas do grupo '{group}' deve ser maior que zero (veio {n}).", field="vacancies"
            )
        if group in result:
            raise UserError(f"Grupo repetido nas vagas: '{group}'.", field="vacancies")
        result[group] = n
    return result
