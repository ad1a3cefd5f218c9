"""Parser of ``[[silences]]``: the points where the act is silent or ambiguous, and their readings."""

from __future__ import annotations

from models.rules.regimes.model import Reading, Silence
from models.rules.regimes.reader import Node, show
from models.rules.regimes.vocabulary import SILENCE_TOPICS, SILENCE_WHERE

#: the engine's parameter each computed topic needs on every reading
_PARAMETER = {
    "recurrence-window": "window_years",
    "recurrence-pending": "counts",
    "recurrence-same-day": "counts",
}


def parse_reading(node: Node, topic: str) -> Reading:
    result = Reading(
        id=node.ident(),
        text=node.text("text"),
        basis=node.basis(required=False),
        source=node.text("source", required=False),
        window_years=node.integer("window_years", False, minimum=1),
        counts=node.optional_bool("counts"),
        notes=node.notes(),
    )
    if result.basis is None and result.source is None:
        node.fail(None, 'cada leitura precisa de "basis" (artigo deste ato) ou "source" (outro ato, doutrina)')
    wanted = _PARAMETER.get(topic)
    if result.window_years is not None and wanted != "window_years":
        node.fail("window_years", f'só vale num ponto de topic "recurrence-window" (este é {show(topic)})')
    if result.counts is not None and wanted != "counts":
        node.fail("counts", f'só vale num ponto de topic "recurrence-pending" ou "recurrence-same-day" ({show(topic)})')
    if wanted == "counts" and result.counts is None:
        node.fail("counts", "diga se, nesta leitura, a ocorrência anterior conta (true) ou não (false)")
    node.done()
    return result


def parse_silence(node: Node) -> Silence:
    ident = node.ident()
    topic = node.enum("topic", SILENCE_TOPICS)
    readings_nodes = node.tables("readings", required=True)
    readings = tuple(parse_reading(child, topic) for child in readings_nodes)
    if len(readings) < 2:
        node.fail("readings", "um silêncio do ato tem ao menos duas leituras para a autoridade escolher")
    seen: set[str] = set()
    for child, reading in zip(readings_nodes, readings, strict=True):
        if reading.id in seen:
            child.fail("id", f"leitura {show(reading.id)} repetida")
        seen.add(reading.id)
    result = Silence(
        id=ident,
        topic=topic,
        where=node.enum_list("where", SILENCE_WHERE, required=True),
        question=node.text("question"),
        basis=node.basis(),
        basis_act=node.basis_act(),
        applied=node.ident("applied"),
        deadlines=node.ident_list("deadlines"),
        infractions=node.ident_list("infractions"),
        ladders=node.ident_list("ladders"),
        fees=node.ident_list("fees"),
        readings=readings,
        notes=node.notes(),
    )
    if not result.where:
        node.fail("where", "lista vazia: diga onde o ponto é mostrado (penalty, draw, quote, deadline, renewal)")
    if result.reading(result.applied) is None:
        node.fail("applied", f"leitura {show(result.applied)} não declarada em readings ({', '.join(sorted(seen))})")
    node.done()
    return result
