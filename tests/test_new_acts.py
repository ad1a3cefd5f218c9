"""Two real acts of other decades and states, encoded from the docs alone (issue 29 §7): installed in a new
database like every shipped act, they price through the desks' services with the fiscal unit the clerk enters —
São Lourenço do Oeste/SC, Lei nº 1.101/1997 with the alvará table of LC nº 127/2010, and Chapadão do Sul/MS,
Tabela III of the Lei Complementar published on 21/12/2007."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest

from desktop.cli import main
from models.base.errors import UserError
from models.billing.fiscal import set_unit_value
from models.billing.pricing import quote
from models.rules import acts
from models.rules.deadlines import compute_deadline
from models.rules.regimes import get_regime

SLO = "sao-lourenco-do-oeste-1997"
CHAPADAO = "chapadao-do-sul-2007"


def _installed(regime_id: str) -> acts.Version:
    versions = acts.history(regime_id)
    assert [(v.version, v.origin) for v in versions] == [(1, "praca")]
    assert versions[0].sha256 == get_regime(regime_id).sha256  # the text the database holds is the file shipped
    return versions[0]


def test_sao_lourenco_prices_its_alvara_by_the_day_with_the_ufrm_the_clerk_enters(database):
    version = _installed(SLO)
    assert version.effective_from == dt.date(1997, 9, 19)
    regime = get_regime(SLO)
    with pytest.raises(UserError, match="UFRM"):  # the act never values its unit: asked for, never invented
        quote(regime, permit_kind="alvara-ambulante", equipment="propulsao-humana", days=3, year=2026)
    set_unit_value(regime, "UFRM", 2026, "120,00", entered_by="teste", reason="decreto municipal de 2026")
    priced = quote(regime, permit_kind="alvara-ambulante", equipment="propulsao-humana", days=3, year=2026)
    line = priced.lines[0]
    assert priced.total == Decimal("198.00")  # 0,55 UFRM × R$ 120,00 × 3 dias (art. 2º, § 3º, II)
    assert (
        line.basis
        == "Lei 1.101/1997, art. 2º, § 3º; art. 2º, § 3º, II (redação dada pela Lei Complementar nº 127/2010)"
    )
    assert "0,55" in line.formula and "120,00" in line.formula and "3" in line.formula
    event = quote(regime, permit_kind="alvara-evento", year=2026)
    assert event.total == Decimal("72.00")  # 60 % da UFRM por evento (art. 2º, § 3º, V)
    producer = quote(
        regime, permit_kind="alvara-ambulante", equipment="eventual", days=2, year=2026, exemption="produtor-local"
    )
    assert producer.total == Decimal("0.00")  # art. 2º, § 1º: the town's producer is not an ambulante
    before = quote(
        regime,
        permit_kind="alvara-ambulante",
        equipment="automotor",
        days=2,
        year=2005,
        asked={"valor_antes_2011": "4,50"},
    )
    assert before.total == Decimal("9.00")  # before the 2010 table: the value the Administration gives
    assert (
        before.lines[0].exception == "antes-da-lc-127" and "anterior à tabela da LC 127/2010" in before.lines[0].label
    )
    assert "redação dada" not in before.lines[0].basis  # the 2010 wording is not the one that priced it


def test_sao_lourenco_fine_is_left_to_the_authority_and_the_defence_follows_the_federal_law(database):
    from models.enforcement.sanctions import propose_sanction

    proposal = propose_sanction(SLO, ["sem-alvara-consigo"], on=dt.date(2026, 6, 1))
    assert [s.kind for s in proposal.sanctions] == ["fine"]
    assert proposal.total == Decimal("0.00")  # "sob pena de multa": no amount in the text read
    due = compute_deadline(SLO, "defence", dt.date(2026, 6, 1))
    assert due.due == dt.date(2026, 6, 8)  # 5 days (Lei 9.784/1999, art. 24) end on a Saturday: Monday


def test_chapadao_prices_tabela_iii_by_activity_and_period_with_the_ufm_entered(database, capsys):
    _installed(CHAPADAO)
    regime = get_regime(CHAPADAO)
    set_unit_value(regime, "UFM", 2026, "20,00", entered_by="teste", reason="decreto municipal de 2026")
    year = quote(regime, permit_kind="licenca-ano", line="joias", year=2026)
    assert year.total == Decimal("180.00")  # item 08: 900 % da UFM por ano
    assert year.lines[0].basis.startswith("LC de 21/12/2007, Tabela III")
    months = quote(regime, permit_kind="licenca-mes", line="confeccoes-tecidos", year=2026, asked={"n_meses": "2"})
    assert months.total == Decimal("160.00")  # item 07: 400 % × R$ 20,00 × 2 meses
    with pytest.raises(UserError, match="desconto_residente"):  # the resident's discount is the Decreto's
        quote(regime, permit_kind="licenca-ano", line="moveis", local=True, year=2026)
    resident = quote(
        regime, permit_kind="licenca-ano", line="moveis", local=True, year=2026, asked={"desconto_residente": "25"}
    )
    assert resident.total == Decimal("90.00")  # item 09: 600 % × R$ 20,00 × (1 − 25/100)
    assert resident.lines[0].asked[0].value == Decimal("25")

    from models.store.bootstrap import close_database

    close_database()
    argv = ["quote", "--db", database, "--regime", CHAPADAO, "--permit-kind", "licenca-dia", "--line", "marmitas"]
    assert main([*argv, "--days", "3", "--year", "2026"]) == 0
    out = capsys.readouterr().out
    assert "R$ 3,00" in out  # 5 % × R$ 20,00 × 3 dias
    assert "aliquota-sobre-ufm" in out or "Alíquota sobre a UFM" in out  # the reading taken is printed beside it


# --------------------------------------------------------------------------- a feira law of Paraná and one of Bahia

LEOPOLIS = "leopolis-2003"
CARAVELAS = "caravelas-1994"


def test_leopolis_registers_its_feirantes_and_says_which_conducts_it_forbids_without_a_sanction(database, capsys):
    """Lei 784/2003 of Leópolis/PR (arts. 1º to 6º as read): no fee, no fine — the registration (art. 3º), the one
    sanction it gives (the feirante without it does not stay at the feira) and four conducts forbidden without one."""
    from models.enforcement.sanctions import propose_sanction
    from reports.regime_sheet import regime_html

    version = _installed(LEOPOLIS)
    assert version.effective_from == dt.date(2003, 9, 11)
    regime = get_regime(LEOPOLIS)
    kind = regime.permit_kind("registro-feirante")
    assert (kind.holder, kind.fees, kind.documents) == (("person",), (), ("requerimento",))
    unregistered = propose_sanction(LEOPOLIS, ["sem-registro"], on=dt.date(2026, 6, 1))
    assert [(s.kind, s.basis) for s in unregistered.sanctions] == [
        ("impediment", "Lei 784/2003, art. 3º, parágrafo único")
    ]
    assert unregistered.total == Decimal("0.00")
    fish = propose_sanction(LEOPOLIS, ["peixe-sem-exame", "sem-abatimento"], on=dt.date(2026, 6, 1))
    assert fish.sanctions == () and all(item.no_sanction for item in fish.items)
    assert fish.items[0].basis == "nenhuma — o ato proíbe a conduta (Lei 784/2003, art. 5º) e não lhe comina sanção"
    with pytest.raises(UserError, match="anterior à vigência do ato"):  # a fact before the law is not judged by it
        propose_sanction(LEOPOLIS, ["sem-registro"], on=dt.date(2003, 8, 1))
    with pytest.raises(UserError, match="não fixa preços nem taxas"):  # nothing to price, and nothing invented
        quote(regime, permit_kind="registro-feirante", year=2026)
    sheet = regime_html(regime)
    assert "Locais: definidos pela Administração — nos distritos, o local que o Decreto fixar" in sheet
    assert "o ato proíbe a conduta (Lei&nbsp;784/2003, art.&nbsp;5º) e não lhe comina sanção" in sheet

    from models.store.bootstrap import close_database

    close_database()
    assert main(["penalty", "--db", database, "--regime", LEOPOLIS, "--infraction", "dinheiro-e-peixe"]) == 0
    assert "Penalidade: nenhuma — o ato proíbe a conduta (Lei 784/2003, art. 5º)" in capsys.readouterr().out


def test_caravelas_holds_its_feira_on_mondays_where_the_mayor_says_and_withdraws_what_is_unfit(database, capsys):
    """Lei 28/94 of Caravelas/BA (arts. 1º to 3º as read): the aim of the feira, its day and hours by law and its
    places by the mayor (art. 2º), the withdrawal of what is unfit (art. 3º); no permit kind, fee nor fine."""
    from models.enforcement.sanctions import propose_sanction
    from reports.regime_sheet import regime_html

    version = _installed(CARAVELAS)
    assert version.effective_from == dt.date(1994, 10, 17)
    regime = get_regime(CARAVELAS)
    assert regime.permit_kinds == () and regime.fees == () and regime.currency == "R$"  # after the real (07/1994)
    hours = regime.schedule("feira-livre").opening_hours
    assert (hours.weekdays, hours.opens, hours.closes) == (("mon",), dt.time(7), dt.time(16))
    unfit = propose_sanction(CARAVELAS, ["produto-improprio"], on=dt.date(2026, 6, 1))
    assert [(s.kind, s.label.split(",")[0]) for s in unfit.sanctions] == [("seizure", "Retirada imediata")]
    assert unfit.total == Decimal("0.00")
    sheet = regime_html(regime)
    for said in ("Finalidade: Vender a varejo", "Locais: definidos pela Administração", "segundas-feiras"):
        assert said in sheet, said

    from models.store.bootstrap import close_database

    close_database()
    assert main(["regimes", "--db", database, "--show", CARAVELAS]) == 0
    out = capsys.readouterr().out
    assert "Em vigor desde 17/10/1994 (Lei 28/1994, artigo da vigência desconhecido)" in out
    assert "Penalidade: nenhuma — o ato proíbe a conduta (Lei 28/1994, art. 1º) e não lhe comina sanção" in out
    assert main(["quote", "--db", database, "--regime", CARAVELAS]) == 2
    assert "não fixa preços nem taxas" in capsys.readouterr().err
