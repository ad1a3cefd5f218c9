"""The points where an act is silent (``[[silences]]``), resolved for one figure: the reading the authority chose
(with its reason), else the reading the regime declares Praça applies until she chooses — never one of Praça's own.

Every figure that depends on such a point (a penalty, a draw, a quote, a deadline) carries the list
:func:`resolve` returns, and every output prints it beside the figure (:func:`lines`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass
from typing import Any

from models.base.errors import UserError
from models.rules.regimes import Regime
from models.rules.regimes.model import Reading, Silence


@dataclass(frozen=True)
class Choice:
    """The authority's choice of a reading for a silent point, and why."""

    reading: str
    reason: str = ""
    by: str = ""


@dataclass(frozen=True)
class AppliedReading:
    """A silent point as one figure applies it: the question, its articles, the reading applied and the others."""

    point: str
    topic: str
    question: str
    basis: str  # cited in full
    reading: str
    text: str
    source: str
    chosen: bool  # by the authority (else: the reading the regime declares until she chooses)
    reason: str = ""
    by: str = ""
    others: tuple[tuple[str, str, str], ...] = ()  # (id, text, source) of the readings not applied
    #: a "text" point chosen in another reading than the declared one: Praça's figure follows ``computed_by``,
    #: and the authority adjusts it, with her reason, to the reading she chose
    computed_by: str = ""

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["others"] = [{"id": i, "text": t, "source": s} for i, t, s in self.others]
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> AppliedReading:
        return cls(
            point=str(data["point"]),
            topic=str(data.get("topic", "text")),
            question=str(data["question"]),
            basis=str(data["basis"]),
            reading=str(data["reading"]),
            text=str(data["text"]),
            source=str(data["source"]),
            chosen=bool(data.get("chosen")),
            reason=str(data.get("reason", "")),
            by=str(data.get("by", "")),
            others=tuple((str(o["id"]), str(o["text"]), str(o["source"])) for o in data.get("others", [])),
            computed_by=str(data.get("computed_by", "")),
        )

    @property
    def head(self) -> str:
        return f"Silêncio do ato [{self.point}] — {self.question} ({self.basis})"

    @property
    def applied_text(self) -> str:
        who = (
            f"escolhida pela autoridade{f' ({self.by})' if self.by else ''}"
            + (f" — motivo: {self.reason}" if self.reason else "")
            if self.chosen
            else "aplicada pelo Praça até a autoridade escolher"
        )
        text = f"Leitura aplicada [{self.reading}]: {self.text} ({self.source}) — {who}"
        if self.computed_by:
            text += (
                f". O Praça não calcula por esta leitura: o valor mostrado segue a leitura [{self.computed_by}]; "
                "a autoridade o ajusta, com o motivo"
            )
        return text


def _cite_reading(regime: Regime, reading: Reading) -> str:
    parts = [regime.cite(reading.basis)] if reading.basis else []
    if reading.source:
        parts.append(reading.source)
    return "; ".join(parts)


def apply(regime: Regime, silence: Silence, choice: Choice | None) -> AppliedReading:
    reading = silence.default
    if choice is not None:
        found = silence.reading(choice.reading)
        if found is None:
            options = ", ".join(r.id for r in silence.readings)
            raise UserError(
                f"Leitura '{choice.reading}' não existe para o ponto '{silence.id}' do regime {regime.id} "
                f"(leituras: {options}).",
                field="reading",
            )
        reading = found
    return AppliedReading(
        point=silence.id,
        topic=silence.topic,
        question=silence.question,
        basis=regime.cite(silence.basis, silence.basis_act),
        reading=reading.id,
        text=reading.text,
        source=_cite_reading(regime, reading),
        chosen=choice is not None,
        reason=(choice.reason or "").strip() if choice is not None else "",
        by=(choice.by or "").strip() if choice is not None else "",
        others=tuple((r.id, r.text, _cite_reading(regime, r)) for r in silence.readings if r.id != reading.id),
        computed_by=silence.applied if silence.topic == "text" and reading.id != silence.applied else "",
    )


def resolve(
    regime: Regime,
    where: str,
    chosen: Mapping[str, Choice | str] | None = None,
    *,
    deadline: str | None = None,
    codes: Iterable[str] | None = None,
    fees: Iterable[str] | None = None,
) -> tuple[AppliedReading, ...]:
    """The silent points shown at ``where``, each with the reading chosen (``{point: Choice}``) or declared;
    with ``deadline``, only the points that concern it (a point naming no deadline concerns every one); with
    ``codes`` (a penalty's infractions), only the points that concern one of them, or their ladders; with
    ``fees`` (a quote's lines), only the points that name none of the fees or one of these.

    A point chosen that the act does not declare there is refused, naming the ones it has.
    """
    points = points_at(regime, where, deadline=deadline, codes=codes, fees=fees)
    given = {key: Choice(value) if isinstance(value, str) else value for key, value in (chosen or {}).items()}
    known = {s.id for s in points}
    for key in given:
        if key not in known:
            options = ", ".join(sorted(known)) or "nenhum"
            raise UserError(
                f"Ponto '{key}' não é um silêncio do ato {regime.short} aqui (pontos: {options}).", field="reading"
            )
    return tuple(apply(regime, s, given.get(s.id)) for s in points)


def points_at(
    regime: Regime,
    where: str,
    *,
    deadline: str | None = None,
    codes: Iterable[str] | None = None,
    fees: Iterable[str] | None = None,
) -> tuple[Silence, ...]:
    """The points shown at ``where`` that concern ``deadline`` or the infractions ``codes`` (see :func:`resolve`)."""
    wanted = tuple(codes) if codes is not None else None
    priced = set(fees) if fees is not None else None
    return tuple(
        s
        for s in regime.silences_for(where)
        if (deadline is None or not s.deadlines or deadline in s.deadlines)
        and (wanted is None or _concerns(regime, s, wanted))
        and (priced is None or not s.fees or bool(priced & set(s.fees)))
    )


def _concerns(regime: Regime, silence: Silence, codes: tuple[str, ...]) -> bool:
    if not silence.infractions and not silence.ladders:
        return True
    for code in codes:
        if code in silence.infractions:
            return True
        if code in regime.ids("infraction") and regime.infraction(code).ladder in silence.ladders:
            return True
    return False


def reading_for(regime: Regime, applied: Iterable[AppliedReading], topic: str) -> Reading | None:
    """The reading applied for the first point of ``topic`` (what the engine computes with), or None."""
    for item in applied:
        if item.topic == topic:
            return regime.silence(item.point).reading(item.reading)
    return None


def parse_choices(texts: Iterable[str], reason: str = "") -> dict[str, Choice]:
    """``PONTO=LEITURA`` (the command line's ``--reading``) → ``{point: Choice}``."""
    found: dict[str, Choice] = {}
    for text in texts:
        point, sep, reading = text.partition("=")
        point, reading = point.strip(), reading.strip()
        if not sep or not point or not reading:
            raise UserError(f"Leitura inválida '{text}': use --reading PONTO=LEITURA.", field="reading")
        if point in found:
            raise UserError(f"Ponto '{point}' escolhido duas vezes.", field="reading")
        found[point] = Choice(reading, reason)
    return found


def lines(applied: Iterable[AppliedReading]) -> list[str]:
    """The points in words, for a text output: the question, the reading applied, the others available."""
    out: list[str] = []
    for item in applied:
        out.append(item.head)
        out.append(f"   {item.applied_text}")
        for ident, text, source in item.others:
            out.append(f"   Outra leitura [{ident}]: {text} ({source}) — --reading {item.point}={ident}")
    return out
