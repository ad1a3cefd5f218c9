"""Issue 29 §6: a fee whose value the act leaves to the Administration, written as a formula fee that declares it
(``[[fees.inputs]] fee_value = true``: the fee's own value, with the act's bounds if any and its article) — declared,
never guessed from a name or a unit — and read by every caller through ``fee_needs(…).administration``. Cabeceira
Grande's, Ilha Comprida's and Sapezal's such fees, rewritten so, say and price what their older wording (``fixed``,
``admin_defined``) did; the checker reports what is wrong with such a declaration; the value set at the desk is the
month's charge, kept with who set it (SQLite; PostgreSQL with PRACA_TEST_PG)."""

from __future__ import annotations

import datetime as dt
import json
from decimal import Decimal

import pytest
from formula_acts import ADMINISTRATION_FEES, administration_fee_by_kind_text

from desktop.commands.regimes import regime_text
from models.base.errors import UserError
from models.rules import describe
from models.rules.fees import fee_quote
from models.rules.fees.needs import administration_fees, asked_values, engine_values, fee_needs
from models.rules.regimes import check_regime_text, default_regimes_folder, load_regime_text

FOLDER = default_regimes_folder()


def _text(name: str) -> str:
    return (FOLDER / f"{name}.toml").read_text(encoding="utf-8")


def _priced(regime, **inputs) -> dict | tuple[str, str | None]:
    """A quote as its JSON, or the refusal (message, field)."""
    try:
        return fee_quote(regime, **inputs).to_dict()
    except UserError as exc:
        return exc.message, exc.field


@pytest.mark.parametrize("name", sorted(ADMINISTRATION_FEES))
def test_the_fee_the_administration_sets_says_and_prices_as_its_older_wording(name):
    """The shipped file (a formula fee whose value is the Administration's) against the same file in the older wording
    (``kind = "fixed"``, ``admin_defined = true``): what the desks ask, every figure and message, the sheet."""
    fee_id = ADMINISTRATION_FEES[name]
    shipped = load_regime_text(_text(name), f"{name}.toml")
    older = load_regime_text(administration_fee_by_kind_text(name), f"{name}.toml")
    assert (shipped.fee(fee_id).kind, older.fee(fee_id).kind) == ("formula", "fixed")
    assert not shipped.fee(fee_id).admin_defined  # declared by its value, not by the older flag
    needs = fee_needs(shipped, fee_id)
    assert needs == fee_needs(older, fee_id)
    assert needs.administration == "valor_" + fee_id.replace("-", "_")
    assert [f.id for f in administration_fees(shipped)] == [fee_id] and asked_values(shipped) == {}
    by_name = {needs.administration: "150,00"}
    assert (
        engine_values(shipped, by_name=by_name)
        == engine_values(older, by_name=by_name)
        == {"admin_values": {fee_id: "150,00"}}
    )
    cases = [
        dict(admin_values={fee_id: "150,00"}),
        dict(admin_values={fee_id: "150,00"}, year=2027),
        dict(asked_by="Ana", **engine_values(shipped, by_fee={fee_id: "48,50"})),
        dict(),  # not set: refused with the reason and the article, never R$ 0,00
        dict(admin_values={fee_id: "-1"}),
        dict(admin_values={fee_id: "1,005"}),
        dict(admin_values={fee_id: "abc"}),
        dict(admin_values={"outra": "1"}),
    ]
    for inputs in cases:
        assert _priced(shipped, fees=[fee_id], **inputs) == _priced(older, fees=[fee_id], **inputs), inputs
    kind = next(k.id for k in shipped.permit_kinds if fee_id in k.fees)
    assert _priced(shipped, permit_kind=kind) == _priced(older, permit_kind=kind)
    refused = _priced(shipped, fees=[fee_id])
    assert isinstance(refused, tuple) and "é definido pela Administração" in refused[0] and refused[1] == "admin_value"
    line = fee_quote(shipped, fees=[fee_id], asked_by="Ana", **engine_values(shipped, by_fee={fee_id: "48,50"}))
    assert line.lines[0].amount == Decimal("48.50") and line.lines[0].asked[0].set_by == "Ana"
    fee = shipped.fee(fee_id)
    assert describe.fee_facts(shipped, fee) == describe.fee_facts(older, older.fee(fee_id))
    assert describe.fee_kind(shipped, fee).startswith("valor definido pela Administração")
    assert regime_text(shipped) == regime_text(older)


#: Cabeceira Grande's act with two more fees of its art. 3º: a surcharge on a base the Administration fixes (a value
#: it asks, not the fee's own) and an inspection fee the Administration sets between R$ 10,00 and R$ 500,00
MORE_FEES = """
[[fees]]
id = "acrescimo"
label = "Acréscimo de 30 % sobre a base que a Administração fixa"
kind = "formula"
formula = "0.30 * base_adm"
basis = "art. 3º"

[[fees.inputs]]
name = "base_adm"
label = "Base fixada pela Administração"
unit = "R$"
set_by = "administration"
basis = "art. 3º"

[[fees]]
id = "vistoria"
label = "Taxa de vistoria"
kind = "formula"
per = "year"
formula = "valor_vistoria"
basis = "art. 3º"

[[fees.inputs]]
name = "valor_vistoria"
label = "Valor da vistoria fixado pela Administração"
unit = "R$"
min = "10"
max = "500"
set_by = "administration"
fee_value = true
basis = "art. 3º"
"""


def _more(extra: str = MORE_FEES) -> str:
    text = _text("cabeceira-grande-2012")
    at = text.index("# ---------------------------------------------------------------- schedules")
    return text[:at] + extra.lstrip("\n") + "\n" + text[at:]


def test_the_administrations_value_is_declared_never_guessed():
    """A value the Administration fixes that is only a base of the fee (a surcharge's) is asked and priced with the
    application; the fee whose own value it sets (``fee_value``) is assessed apart, typed by its id or its name,
    within the act's bounds."""
    regime = load_regime_text(_more(), "cabeceira-grande-2012.toml")
    assert fee_needs(regime, "acrescimo").administration is None  # a base in R$ set by the Administration: asked
    assert fee_needs(regime, "vistoria").administration == "valor_vistoria"
    assert [f.id for f in administration_fees(regime)] == ["taxa-licenca", "vistoria"]
    assert list(asked_values(regime)) == ["base_adm"]
    surcharge = fee_quote(regime, fees=["acrescimo"], asked={"base_adm": "200,00"}, asked_by="Ana")
    assert surcharge.lines[0].amount == Decimal("60.00") and surcharge.lines[0].formula == "0,30 × 200,00"
    assert describe.fee_kind(regime, regime.fee("acrescimo")) == "por fórmula"
    assert describe.fee_kind(regime, regime.fee("vistoria")) == (
        "valor definido pela Administração, por ano (o servidor o informa antes do cálculo)"
    )
    for typed in ({"by_fee": {"vistoria": "600,00"}}, {"by_name": {"valor_vistoria": "600,00"}}):
        with pytest.raises(UserError) as exc:
            fee_quote(regime, fees=["vistoria"], **engine_values(regime, **typed))
        assert exc.value.field == "admin_values.vistoria"
        assert "fora dos limites do ato — de 10 a 500 R$ (Lei 376/2012, art. 3º)" in exc.value.message
    with pytest.raises(UserError) as exc:
        fee_quote(regime, fees=["vistoria"], asked={"valor_vistoria": "5"})  # typed by its name as --input
    assert "fora dos limites do ato" in exc.value.message
    priced = fee_quote(regime, fees=["vistoria"], asked_by="Ana", **engine_values(regime, by_fee={"vistoria": "250"}))
    line = priced.lines[0]
    assert line.amount == Decimal("250.00") and line.basis == "Lei 376/2012, art. 3º"
    assert (line.asked[0].name, line.asked[0].value, line.asked[0].set_by) == ("valor_vistoria", Decimal(250), "Ana")
    assert any("de 10 a 500 R$" in d and "informado por Ana" in d for d in line.details)
    with pytest.raises(UserError) as exc:
        fee_quote(regime, fees=["acrescimo"], admin_values={"acrescimo": "10"})
    assert "Preços definidos pela Administração neste regime: taxa-licenca, vistoria." in exc.value.message


def _table(header: str, **keys: str | bool) -> str:
    """One ``[[header]]`` table of a regime file, each key's value written as TOML, with the article of art. 3º."""
    values = {**keys, "basis": "art. 3º"}
    return f"\n[[{header}]]\n" + "".join(f"{k} = {json.dumps(v, ensure_ascii=False)}\n" for k, v in values.items())


def _fee(ident: str, formula: str, *asked: str, term: str = "", exception: str = "") -> str:
    """A formula fee of art. 3º: ``asked`` its values (``name unit``, each declared the fee's own), ``term`` a value
    of the act (``name unit``), ``exception`` the formula of an exception for who is local."""
    text = _table("fees", id=ident, label=f"Taxa {ident}", kind="formula", formula=formula)
    if term:
        name, unit = term.split()
        text += _table("fees.terms", name=name, value="5.00", unit=unit)
    for item in asked:
        name, unit = item.split()
        text += _table("fees.inputs", name=name, label=name, unit=unit, fee_value=True)
    if exception:
        text += _table("fees.exceptions", id="local", label="local", when="local", formula=exception)
    return text


def test_the_checker_reports_each_mistake_of_a_declared_value_at_its_id_path():
    """Not the Administration's, not money, a second own value, one only an exception reads, one on a fine: each
    reported at its id path, in one run."""
    wrong = (
        MORE_FEES.replace('set_by = "administration"\nfee_value = true', 'set_by = "inspector"\nfee_value = true')
        + _fee("metragem", "taxa * valor_metro", "valor_metro m", term="taxa R$/m")
        + _fee("dois", "valor_um", "valor_um R$", "valor_dois R$", exception="valor_dois")
        + _fee("so-excecao", "fixo", "valor_excecao R$", term="fixo R$", exception="valor_excecao")
    )
    text = _more(wrong)
    errors = check_regime_text(text, "cabeceira-grande-2012.toml", expected_id="cabeceira-grande-2012")
    found = {e.key: e.reason for e in errors}
    for error in errors:  # each at the line of its key
        assert error.line is not None and text.splitlines()[error.line - 1].startswith(error.key.split(".")[-1] + " =")
    assert set(found) == {
        "fees.vistoria.inputs.valor_vistoria.set_by",
        "fees.metragem.inputs.valor_metro.unit",
        "fees.dois.inputs.valor_dois.fee_value",
        "fees.so-excecao.inputs.valor_excecao.fee_value",
    }, found
    assert 'set_by = "administration"' in found["fees.vistoria.inputs.valor_vistoria.set_by"]
    assert '"R$"' in found["fees.metragem.inputs.valor_metro.unit"]
    assert "'valor_um'" in found["fees.dois.inputs.valor_dois.fee_value"]
    assert "regra geral" in found["fees.so-excecao.inputs.valor_excecao.fee_value"]
    olimpia = _text("olimpia-2025")
    fixed = 'fine = { value = "100", unit = "UFESP", basis = "art. 97, parágrafo único" }'
    formula = (
        'fine = { formula = "0.30 * valor_licenca", basis = "art. 97, parágrafo único", inputs = [ '
        '{ name = "valor_licenca", label = "Valor da licença do evento", unit = "R$", fee_value = true, '
        'basis = "art. 89" } ] }'
    )
    errors = check_regime_text(olimpia.replace(fixed, formula), "olimpia-2025.toml", expected_id="olimpia-2025")
    assert [e.key for e in errors] == ["infractions.evento-sem-autorizacao.fine.inputs.valor_licenca.fee_value"]


def test_the_value_set_at_the_desk_is_the_months_charge_with_who_set_it(keys, app_ready, qtbot):
    """Sapezal's licence fee (Lei 1.171/2014, art. 8º: left to a decree): the month does not invent it — it lists the
    permit with the reason — and once the value the clerk typed at the price simulator is on the application, the
    month charges it, with the value and who set it."""
    from factories import person, sapezal_licence

    from models.billing.charges import generate_month, plan_month
    from models.registry.applications import Application
    from views.price_simulator import PriceSimulator
    from views.widgets import current_user_name

    permit = sapezal_licence(keys, person("João Sapezal"), on=dt.date(2026, 8, 3))
    plan = plan_month(2026, 9, today=dt.date(2026, 9, 1))
    assert not [c for c in plan.to_create if c.permit_number == permit.number]
    reason = next(s for s in plan.skipped if s.startswith(f"Permissão nº {permit.number}"))
    assert "valor definido pela Administração (Lei 1.171/2014, art. 8º)" in reason

    sim = PriceSimulator()
    qtbot.addWidget(sim)
    sim.show()
    sim.refresh()
    sim.select_regime("sapezal-2014")
    sim.date.set_date(dt.date(2026, 8, 3))
    sim.permit_kind.setCurrentIndex(sim.permit_kind.findData(permit.permit_kind))
    sim.settle()
    assert "definido pela Administração" in sim.error.text()
    sim.admin_edits["licenca"].setText("85,00")
    sim.settle()
    assert sim.error.text() == ""
    frozen = sim.last_quote.to_dict()
    clerk = current_user_name()
    assert clerk and frozen["lines"][0]["asked"][0]["set_by"] == clerk
    Application.update(quote_json=json.dumps(frozen)).where(Application.id == permit.application).execute()

    plan = plan_month(2026, 9, today=dt.date(2026, 9, 1))
    assert not [s for s in plan.skipped if s.startswith(f"Permissão nº {permit.number}")]
    charges = [c for c in generate_month(2026, 9, by="ana", today=dt.date(2026, 9, 1)) if c.permit_id == permit.id]
    assert [(c.amount, c.basis) for c in charges] == [(Decimal("85.00"), "Lei 1.171/2014, art. 8º")]
    kept = json.loads(charges[0].detail)
    assert kept["asked"] == [
        {"name": "valor_licenca", "label": "Valor definido pela Administração", "value": "85.00", "set_by": clerk}
    ]


def test_the_seizures_depot_fee_is_read_through_the_same_interface():
    """The depot's fee of a seizure is a fee too: Sapezal's (Lei 1.171/2014, art. 52, § 1º: "preço público pela
    apreensão e depósito", no value) is the Administration's, Olímpia's a daily 1 UFESP (LC 324/2025, art. 145,
    § 2º) — what the proposal, the depot's charge and the sheet say of it."""
    from models.enforcement.sanctions import propose_sanction

    sapezal = load_regime_text(_text("sapezal-2014"), "sapezal-2014.toml")
    olimpia = load_regime_text(_text("olimpia-2025"), "olimpia-2025.toml")
    assert sapezal.seizure is not None and sapezal.seizure.depot_fee is not None
    assert olimpia.seizure is not None and olimpia.seizure.depot_fee is not None
    assert fee_needs(sapezal, sapezal.seizure.depot_fee.as_fee()).administration == "valor_apreensao_deposito"
    daily = fee_needs(olimpia, olimpia.seizure.depot_fee.as_fee())
    assert daily.administration is None and daily.per == "day" and daily.reads("days")
    facts = [f.text for f in describe.seizure_facts(sapezal, sapezal.seizure)]
    assert "Taxa de depósito: definida pela Administração" in facts
    ufs = {("UFS", 2026): Decimal("50.00")}
    proposal = propose_sanction(sapezal, ["dever-40-i"], on=dt.date(2026, 3, 2), unit_values=ufs)
    seizure = next(s for s in proposal.sanctions if s.kind == "seizure")
    assert "Preço do depósito definido pela Administração (Lei 1.171/2014, art. 52, § 1º)." in seizure.details


def test_the_simulator_marks_the_administrations_value_the_act_bounds_and_names_its_fee(database, app_ready, qtbot):
    """Simulador de preço: a value the Administration sets typed beyond the act's bounds is refused at its field,
    marked, and the message names the fee by its label (it named the file's id, 'vistoria', and no field was
    marked — the clerk could not tell which value was wrong)."""
    from models.access import session
    from models.rules import acts
    from views.price_simulator import PriceSimulator

    amended = _more() + (
        '\n[regime.amendment]\nact = "Versão de teste: a taxa de vistoria"\nin_force_from = 2026-01-01\n'
        'summary = "A taxa de vistoria, de R$ 10,00 a R$ 500,00."\n'
    )
    with session.acting_as(session.SYSTEM):
        acts.amend(amended.encode("utf-8"), "cabeceira-grande-2012.toml")
    acts.forget()
    sim = PriceSimulator()
    qtbot.addWidget(sim)
    sim.show()
    sim.refresh()
    sim.select_regime("cabeceira-grande-2012")
    sim.date.set_date(dt.date(2026, 8, 3))
    sim.permit_kind.setCurrentIndex(1)
    edit = sim.admin_edits["vistoria"]
    edit.setText("600,00")
    sim.settle()
    error = sim.error.text()
    assert "Taxa de vistoria" in error and "fora dos limites do ato — de 10 a 500 R$ (Lei 376/2012, art. 3º)" in error
    assert edit.styleSheet() != "" and sim.admin_edits["taxa-licenca"].styleSheet() == ""
    edit.setText("250,00")
    sim.admin_edits["taxa-licenca"].setText("85,00")
    sim.settle()
    assert sim.error.text() == "" and edit.styleSheet() == ""
