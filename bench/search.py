"""Search as you type at the front desk: one keystroke's filter over 50.000 people (and 2.000 companies).

Praça: :func:`models.registry.search.find_applicants` with what the clerk has typed so
far — CPF prefixes (bare and punctuated), name fragments, several words in any
order, accented text. Each text is timed on its own; the figure is the slowest
text's median. Budget: < 50 ms.
"""

from __future__ import annotations

import statistics

from bench import data
from bench.common import Figure, at_least, limit_figure, open_scratch, repeated, say, thousands

NAME = "search"
LIMIT = 0.050


def texts(cpf: str) -> list[str]:
    """What a clerk types, keystroke by keystroke: a CPF from the database, names, accents."""
    return [
        cpf[:3],
        cpf[:6],
        f"{cpf[:3]}.{cpf[3:6]}.{cpf[6:9]}",
        cpf,
        "si",
        "silv",
        "silva",
        "mar",
        "maria",
        "jose silva",
        "santos oliv",
        "jo",
        "joão",
        "conceição",
        "gonçalves",
        "antônio sou",
        "sebastião nasc",
        "zé",
        "yamamoto",
    ]


def run(backend: str, repeat: int) -> list[Figure]:
    from models.registry.people import Person
    from models.registry.search import find_applicants

    with open_scratch(backend):
        say(f"  [{backend}] dados: {data.PEOPLE} pessoas, {data.COMPANIES} empresas…")
        data.add_people()
        from bench.common import analyze

        analyze()
        cpf = Person.select(Person.cpf).order_by(Person.id).limit(1).offset(min(12_345, data.PEOPLE // 2)).scalar()
        worst = None
        found = {}
        for text in texts(cpf):
            find_applicants(text)  # warm
            times = repeated(lambda text=text: find_applicants(text), at_least(repeat, 5))
            found[text] = len(find_applicants(text))
            if worst is None or statistics.median(times) > statistics.median(worst[1]):
                worst = (text, times)
        assert found[cpf] == 1 and found["silva"] > 0 and found["joão"] > 0, found
        text, times = worst
        return [
            limit_figure(
                f"search as you type, {thousands(data.PEOPLE)} people (slowest text)",
                backend,
                times,
                LIMIT,
                detail=f"slowest: {text!r} ({found[text]} found); {len(found)} texts typed",
            )
        ]
