"""The sixth act (issue 20): Cabeceira Grande/MG, Lei nº 376/2012, encoded with the format alone — it works at the
desks like the five: application and eligibility, price, permit, infraction record with seizure and donation."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from factories import all_documents, approved, draft, issue, issue_record, person, results

from models import enforcement as enf
from models.base.errors import FieldErrors, UserError
from models.billing.pricing import quote
from models.rules.regimes import get_regime

REGIME = "cabeceira-grande-2012"
KIND = "licenca-ambulante"
ON = dt.date(2026, 11, 30)


def test_the_act_is_shipped_and_cites_its_articles():
    regime = get_regime(REGIME)
    assert (regime.municipality, regime.state, regime.short) == ("Cabeceira Grande", "MG", "Lei 376/2012")
    assert regime.in_force.from_ == dt.date(2012, 6, 25) and regime.in_force.basis == "art. 6º"
    assert regime.permit_kind(KIND).non_residents.basis == "art. 2º"


def test_the_fee_the_act_names_without_a_value_is_asked_never_invented(database):
    regime = get_regime(REGIME)
    with pytest.raises(UserError, match=r"definido pela Administração \(Lei 376/2012, art. 3º\)"):
        quote(regime, permit_kind=KIND)
    priced = quote(regime, permit_kind=KIND, admin_values={"taxa-licenca": Decimal("48.50")})
    assert priced.total == Decimal("48.50")
    assert priced.lines[0].basis == "Lei 376/2012, art. 3º"


def test_a_vendor_from_another_town_is_admitted_for_what_local_shops_lack(keys):
    outsider = person("Joana Forasteira", city="Unaí", state="MG")
    found, _facts = results(outsider, REGIME, KIND, today=ON, documents=all_documents(REGIME, KIND, ON))
    custom = found["Lei 376/2012, art. 2º"]
    assert custom.rule.kind == "custom" and custom.status != "fail"  # the clerk checks it by hand and ticks it
    assert "não são encontrados no comércio local" in custom.rule.text


def test_licence_then_record_seizure_and_donation_to_charities(keys):
    vendor = person("Antônio Vendedor")
    app = approved(REGIME, KIND, on=ON, holder=vendor, documents=all_documents(REGIME, KIND, ON), equipment="ambulante")
    with pytest.raises(FieldErrors, match="não fixa prazo de validade"):
        issue(app, keys)  # the act sets no term: the Administration fixes it
    permit = issue(app, keys, valid_until=dt.date(2026, 12, 31))
    assert permit.regime == REGIME and permit.valid_until == dt.date(2026, 12, 31)

    record = issue_record(
        draft(
            REGIME,
            ["fora-do-lugar"],
            "01/12/2026 10:00",
            kind="seizure",
            holder=vendor,
            depot="Almoxarifado",
            items=[enf.ItemInput("caixas de frutas", "3", "cx", True)],
        )
    )
    assert record.regime == REGIME and record.number.endswith("/00001")
    proposal = record.proposal
    assert "Lei 376/2012, art. 5º" in proposal and "Lei 376/2012, art. 5º, parágrafo único" in proposal
    assert '"seizure"' in proposal and '"forfeiture"' in proposal
    assert "entidades filantrópicas" in proposal


def test_donation_waits_for_the_final_decision_and_the_defence_has_a_window(keys):
    """Lei 376/2012, art. 5º, parágrafo único gives the seized goods to charities but sets no defence: the donation is
    never immediate — it waits for the final decision (CF, art. 5º, LV) — and the defence and appeal windows are those
    of the federal administrative process applied subsidiarily (Lei nº 9.784/1999, arts. 24 and 59)."""
    from models.enforcement.sanctions import PROPOSED, propose_sanction

    proposal = propose_sanction(REGIME, ["sem-licenca"], on=dt.date(2026, 12, 1))
    seizure = next(s for s in proposal.sanctions if s.kind == "seizure")
    donation = next(s for s in proposal.sanctions if s.kind == "forfeiture")
    assert seizure.applied
    assert not donation.applied and donation.decision == PROPOSED and donation.condition.fact == "decision-final"
    regime = get_regime(REGIME)
    deadlines = {d.role: d for d in regime.deadlines}
    assert (deadlines["defence"].days, deadlines["defence"].from_) == (5, "notification")
    assert "Lei nº 9.784/1999, art. 24" in deadlines["defence"].basis_act
    assert (deadlines["appeal"].days, deadlines["appeal"].from_) == (10, "decision-notification")
    assert "Lei nº 9.784/1999, art. 59" in deadlines["appeal"].basis_act
