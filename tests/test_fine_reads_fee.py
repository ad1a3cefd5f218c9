"""Issue 29 §1: a fine's formula may read another fee of the same act ("30 % do preço de ocupação"), declared as
an input whose source is that fee (``fee = "occupation"``). When the record names the offender's permit, the
proposal prices that fee with the fee engine from the permit's facts and shows it in the formula with its article;
without a permit the value is asked within the act's bounds, as any asked value. São Bento's fine for not taking
the stall down (Dec. 4.794/2026, art. 2º, § 2º: R$ 150,00) rewritten as such a share, for the test."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest

from models.enforcement.sanctions import fine_fees, propose_sanction
from models.rules.fees import fee_quote
from models.rules.regimes import check_regime_text, default_regimes_folder, load_regime_text

TEXT = (default_regimes_folder() / "sao-bento-2026.toml").read_text(encoding="utf-8")
FIXED = (
    'fine = { value = "150.00", unit = "BRL", basis = "art. 2º, § 2º", '
    'basis_act = "Lei Municipal nº 1.620/2013, art. 7º, parágrafo único" }'
)
FORMULA = (
    'fine = { formula = "0.30 * valor_ocupacao", basis = "art. 2º, § 2º", inputs = [ '
    '{ name = "valor_ocupacao", label = "Preço público de ocupação", unit = "R$", max = "10000", '
    'set_by = "authority", basis = "art. 9º, § 2º", fee = "occupation" } ] }'
)
AMENDED = TEXT.replace(FIXED, FORMULA) + (
    '\n[regime.amendment]\nact = "Versão de teste: a multa do art. 2º como parte do preço de ocupação"\n'
    'in_force_from = 2026-03-25\nsummary = "A multa de não desmontar como 30 % do preço de ocupação."\n'
)
ON = dt.date(2026, 3, 30)
#: the event stall of the factories: a trailer of 4,50 m with a hitch of 1,20 m → 5,70 ML × 5,50 UFESP × 38,42
OCCUPATION = "5,50 × 38,42 × 5,70 = R$ 1.204,47"


@pytest.fixture(scope="module")
def regime():
    assert TEXT.count(FIXED) == 1
    return load_regime_text(TEXT.replace(FIXED, FORMULA), "sao-bento-2026.toml")


def the_fine(proposal):
    return next(s for s in proposal.sanctions if s.kind == "fine")


def test_with_the_permits_fee_the_fine_is_its_share_with_the_fees_formula_and_article(regime):
    assert fine_fees(regime, ["nao-desmontar"]) == ("occupation",)
    line = fee_quote(regime, fees=["occupation"], equipment="trailer", front="4.50", depth="3.00", hitch="1.20")
    proposal = propose_sanction(
        regime, ["nao-desmontar"], on=ON, permit_fees={"occupation": line.lines[0]}, permit="7/2026"
    )
    fine = the_fine(proposal)
    assert fine.amount == Decimal("361.34") and not fine.admin_defined  # 30 % of R$ 1.204,47, half up
    assert fine.formula == "0,30 × 1.204,47 = R$ 361,34"
    assert fine.basis == "Dec. 4.794/2026, art. 2º, § 2º; art. 9º, § 2º"
    said = " ".join(fine.details)
    assert f"Preço público de ocupação de via pública: {OCCUPATION}" in said and "art. 9º, § 1º" in said
    assert fine.asked == ()  # nothing asked of the inspector: the act's own fee


def test_without_a_permit_the_value_is_asked_within_the_bounds_and_kept_with_who_gave_it(regime):
    missing = the_fine(propose_sanction(regime, ["nao-desmontar"], on=ON))
    assert missing.admin_defined and missing.amount is None
    (reason,) = [d for d in missing.details if "informe-o (valor_ocupacao)" in d]
    assert "até 10.000 R$" in reason and "o auto não indica a permissão do infrator" in reason
    given = the_fine(
        propose_sanction(regime, ["nao-desmontar"], on=ON, asked={"valor_ocupacao": "1.000,00"}, asked_by="Marcos")
    )
    assert given.amount == Decimal("300.00") and given.formula == "0,30 × 1.000,00 = R$ 300,00"
    assert given.asked == (
        "Preço público de ocupação = 1.000,00 R$ (Dec. 4.794/2026, art. 9º, § 2º) — informado por Marcos",
    )


def test_a_fee_the_permits_facts_do_not_price_is_asked_with_the_reason(regime):
    from models.base.errors import UserError

    refused = UserError("Informe a frente ocupada (metros) para calcular o preço.")
    fine = the_fine(
        propose_sanction(regime, ["nao-desmontar"], on=ON, permit_fees={"occupation": refused}, permit="7/2026")
    )
    assert fine.amount is None
    assert any("não se calcula com os dados da permissão nº 7/2026: Informe a frente" in d for d in fine.details)


def test_the_checker_refuses_a_fee_the_act_does_not_have_at_the_inputs_id_path():
    typo = TEXT.replace(FIXED, FORMULA.replace('fee = "occupation"', 'fee = "ocupation"'))
    errors = check_regime_text(typo, "sao-bento-2026.toml")
    found = [e for e in errors if (e.key or "").endswith("fine.inputs.valor_ocupacao.fee")]
    assert found, [(e.key, e.reason) for e in errors]
    assert found[0].key == "infractions.nao-desmontar.fine.inputs.valor_ocupacao.fee"
    assert '"ocupation" não existe em [[fees]]' in found[0].reason and '"occupation"' in found[0].reason


def test_a_record_naming_the_permit_prices_the_fee_from_it_and_charges_the_share(keys):
    """The record's proposal reads the permit's stall (trailer, 4,50 m + 1,20 m of hitch) through the fee engine;
    the record without the permit asks the value (SQLite; PostgreSQL with PRACA_TEST_PG)."""
    from factories import draft, event_stall, issue_record, person

    from models import enforcement as enf
    from models.access import session
    from models.rules import acts

    with session.acting_as(session.SYSTEM):
        acts.amend(AMENDED.encode("utf-8"), "sao-bento-2026.toml")
    acts.forget()
    holder = person("Rita Trailer")
    permit = event_stall(keys, holder)
    due = dt.date(2026, 4, 30)
    record = issue_record(
        draft(
            "sao-bento-2026", ["nao-desmontar"], "30/03/2026 13:00", holder=holder, permit_id=permit.id, payment_due=due
        ),
        today=ON,
    )
    (charge,) = enf.charges_of(record, "fine")
    assert charge.amount == Decimal("361.34") and "0,30 × 1.204,47" in charge.formula
    shown = enf.preview(
        draft("sao-bento-2026", ["nao-desmontar"], "30/03/2026 13:00", holder=holder, permit_id=permit.id),
        today=ON,
    )
    said = " ".join(the_fine(shown.proposal).details)
    assert OCCUPATION in said
    unnamed = enf.preview(
        draft("sao-bento-2026", ["nao-desmontar"], "30/03/2026 13:00", holder=holder), today=ON, strict=False
    )
    assert the_fine(unnamed.proposal).amount is None
