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
