"""The towns ``praca demo --town`` builds: each one municipality with its own act (issue 31 §2).

A town's demo is one town hall as it would run Praça: the municipality set in the database (one function,
:func:`set_municipality`, so that the identity table of issue 31 §1 replaces it in one place), only its own act
installed (no other town's act is in its database), and people living at its streets.
The streets and districts are the demo's: real names where the act gives them, plausible ones elsewhere.
"""

from __future__ import annotations

from dataclasses import dataclass

from models.base.errors import UserError

__all__ = [
    "DEFAULT_TOWN",
    "README_TOWN",
    "TOWNS",
    "Town",
    "install_acts",
    "keep_only_own_act",
    "set_municipality",
    "town",
]


@dataclass(frozen=True)
class Town:
    """One municipality of the demo: its act, its name as the settings keep it, and where its people live."""

    slug: str  # what ``praca demo --town`` takes
    regime_id: str
    municipality: str
    state: str
    agency: str
    area_code: str  # the telephone area code (DDD)
    zip_prefix: str  # the first four digits of the town's CEPs
    streets: tuple[str, ...]
    districts: tuple[str, ...]

    @property
    def label(self) -> str:
        return f"{self.municipality}/{self.state}"


TOWNS: dict[str, Town] = {
    t.slug: t
    for t in (
        Town(
            "sao-bento",
            "sao-bento-2026",
            "São Bento do Sapucaí",
            "SP",
            "Prefeitura Municipal da Estância Climática de São Bento do Sapucaí",
            "12",
            "1249",
            (
                "Rua Coronel Ribeiro da Luz",
                "Avenida Doutor Rubião Júnior",
                "Rua Sete de Setembro",
                "Rua Capitão Pereira",
                "Rua Doutor Reinaldo Rios",
                "Rua Francisco Machado",
                "Avenida Sebastião de Mello",
                "Estrada do Quilombo",
            ),
            ("Centro", "Bairro do Quilombo", "Serrano", "Paiol Grande", "Cantagalo", "Bairro do Baú"),
        ),
        Town(
            "sapezal",
            "sapezal-2014",
            "Sapezal",
            "MT",
            "Prefeitura Municipal de Sapezal",
            "65",
            "7836",
            (
                "Avenida Antônio André Maggi",
                "Avenida Tucunaré",
                "Rua Curitiba",
                "Rua Rio Grande do Sul",
                "Avenida Ponte de Pedra",
                "Rua Juruena",
                "Rua Papagaio",
                "Avenida Sapezal",
            ),
            (
                "Centro",
                "Jardim Floresta",
                "Parque Industrial",
                "Jardim das Palmeiras",
                "Vila Nova",
                "Jardim Bela Vista",
            ),
        ),
        Town(
            "ilha-comprida",
            "ilha-comprida-2017",
            "Ilha Comprida",
            "SP",
            "Prefeitura Municipal da Estância Balneária de Ilha Comprida",
            "13",
            "1192",
            (
                "Avenida Beira-Mar",
                "Avenida Copacabana",
                "Avenida Rio de Janeiro",
                "Rua Cananéia",
                "Rua Iguape",
                "Avenida Pedro Álvares Cabral",
                "Rua das Gaivotas",
                "Avenida Atlântica",
            ),
            (
                "Balneário Monte Carlo",
                "Balneário Britânia",
                "Balneário Icaraí",
                "Balneário Di Franco",
                "Boqueirão Sul",
                "Pedrinhas",
            ),
        ),
        Town(
            "sjc",
            "sjc-2014",
            "São José dos Campos",
            "SP",
            "Prefeitura Municipal de São José dos Campos",
            "12",
            "1222",
            (
                "Avenida Andrômeda",
                "Rua Júpiter",
                "Rua Saturno",
                "Avenida Nove de Julho",
                "Rua Sete de Setembro",
                "Avenida Cidade Jardim",
                "Rua Paraibuna",
                "Avenida São João",
            ),
            (
                "Jardim Satélite",
                "Centro",
                "Vila Industrial",
                "Parque Industrial",
                "Jardim Aquarius",
                "Bosque dos Eucaliptos",
            ),
        ),
        Town(
            "olimpia",
            "olimpia-2025",
            "Olímpia",
            "SP",
            "Prefeitura da Estância Turística de Olímpia",
            "17",
            "1540",
            (
                "Rua Bernardino de Campos",
                "Rua São João",
                "Rua Coronel Francisco Ribeiro",
                "Avenida Aurora Forti Neves",
                "Rua Marechal Deodoro",
                "Rua Treze de Maio",
                "Rua Cajobi",
                "Rua Santos Dumont",
            ),
            ("Centro", "Jardim Santa Ifigênia", "Vila Hípica", "Jardim Glória", "Jardim Alvorada", "Cohab IV"),
        ),
        Town(
            "cabeceira-grande",
            "cabeceira-grande-2012",
            "Cabeceira Grande",
            "MG",
            "Prefeitura Municipal de Cabeceira Grande",
            "61",
            "3862",
            (
                "Avenida Juscelino Kubitschek",
                "Rua Goiás",
                "Rua Minas Gerais",
                "Rua Unaí",
                "Rua Bahia",
                "Rua Tocantins",
                "Avenida Brasília",
                "Rua Paracatu",
            ),
            ("Centro", "Setor Sul", "Vila Nova", "Bela Vista", "Palmital de Minas", "Setor Norte"),
        ),
    )
}

#: the town the demo without ``--town`` sets as its municipality (it holds all six acts' data: README)
DEFAULT_TOWN = "olimpia"

#: the town whose demo (``praca demo --town``) the README's screenshots and report images show (issue 31 §2)
README_TOWN = "sao-bento"


def town(slug: str) -> Town:
    """The demo town ``slug`` (``sao-bento``, ``sapezal``…), or one clear line naming the ones there are."""
    found = TOWNS.get((slug or "").strip().lower())
    if found is None:
        raise UserError(
            f"Município de demonstração desconhecido: {slug!r}. Use um de: {', '.join(TOWNS)}.", field="town"
        )
    return found


#: the IBGE municipality codes of the demo towns (IBGE, códigos dos municípios; check digits verified)
IBGE_CODES = {
    "sao-bento-2026": "3548203",
    "sapezal-2014": "5107875",
    "ilha-comprida-2017": "3520426",
    "sjc-2014": "3549904",
    "olimpia-2025": "3533908",
    "cabeceira-grande-2012": "3109451",
}


def set_municipality(place: Town) -> None:
    """The database is ``place``'s town hall: the one spot the demo says which municipality it is — its identity
    (issue 31 §1, models.registry.municipality): name and UF from its act, its IBGE code, its agency."""
    from models.registry.municipality import MunicipalityInput
    from models.registry.municipality import set_municipality as set_identity

    set_identity(
        MunicipalityInput(
            name=place.municipality,
            state=place.state,
            ibge=IBGE_CODES.get(place.regime_id, ""),
            agency=place.agency,
        )
    )


def keep_only_own_act(place: Town) -> int:
    """Only ``place``'s own act is offered for new work: any other act the database already holds (one given to the
    demo with acts in it) is retired, with the reason — kept readable, nothing deleted. Returns how many."""
    from models.rules import acts

    others = sorted({v.regime_id for v in acts.history() if v.retired_at is None} - {place.regime_id})
    for regime_id in others:
        acts.retire(regime_id, f"Demonstração de {place.label}: o município aplica só o seu próprio ato.")
    return len(others)


def install_acts(place: Town | None) -> int:
    """The demo's acts: ``place``'s own only (a town's database holds its own act, issue 31 §1) — or, for the
    all-towns demo (``place`` None), every shipped act. Returns how many were installed."""
    from models.rules import acts

    count = acts.install_shipped(ids=None if place is None else [place.regime_id])
    acts.forget()
    return count
