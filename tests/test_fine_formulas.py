"""Issue 29 §1: a fine written as a formula of the rule language — a share of a value the authority states, a
multiple of a fiscal unit, higher on recurrence — each value with its article, and the proposal says it as
"formula with the values = amount (article)". Olímpia's fine for an event held without authorisation (LC 324/2025,
art. 97, parágrafo único: 100 UFESP) rewritten as one, for the test."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest

from models.enforcement.sanctions import propose_sanction
from models.rules.regimes import check_regime_text, default_regimes_folder, load_regime_text

TEXT = (default_regimes_folder() / "olimpia-2025.toml").read_text(encoding="utf-8")
FIXED = 'fine = { value = "100", unit = "UFESP", basis = "art. 97, parágrafo único" }'
FORMULA = (
    'fine = { formula = "0.30 * valor_licenca + 10 * UFESP", basis = "art. 97, parágrafo único", inputs = [ '
    '{ name = "valor_licenca", label = "Valor da licença do evento", unit = "R$", max = "50000", '
    'set_by = "authority", basis = "art. 89" } ] }'
)
ON = dt.date(2026, 5, 4)


@pytest.fixture(scope="module")
def regime():
    assert TEXT.count(FIXED) == 1
    return load_regime_text(TEXT.replace(FIXED, FORMULA), "olimpia-2025.toml")


def fine_of(regime, **kw):
    proposal = propose_sanction(regime, ["evento-sem-autorizacao"], on=ON, asked_by="Marcos Fiscal", **kw)
    return next(s for s in proposal.sanctions if s.kind == "fine")


def test_a_fine_written_as_a_formula_is_proposed_with_its_values_and_articles(regime):
    fine = fine_of(regime, asked={"valor_licenca": "1.000,00"})
    # 30 % of the licence (R$ 1.000,00) + 10 UFESP of 2026 (R$ 38,42)
    assert fine.amount == Decimal("684.20") and not fine.admin_defined
    assert fine.formula == "0,30 × 1.000,00 + 10 × 38,42 = R$ 684,20"
    assert fine.basis == "LC 324/2025, art. 97, parágrafo único; art. 89"
    said = " ".join(fine.details)
    assert "Valor da licença do evento = 1.000,00 R$" in said and "informado por Marcos Fiscal" in said
    assert "UFESP 2026 = R$ 38,42" in said


def test_recurrence_multiplies_the_formula_as_any_fine(regime):
    first = fine_of(regime, asked={"valor_licenca": "1.000,00"})
    again = fine_of(regime, asked={"valor_licenca": "1.000,00"}, prior=1)
    assert again.amount == 2 * first.amount == Decimal("1368.40")
    assert again.formula == "2 × (0,30 × 1.000,00 + 10 × 38,42) = R$ 1.368,40"
    assert "art. 12, § 1º" in again.basis
    # the act's fixed fine, unchanged beside it: 100 UFESP, doubled on recurrence
    shipped = load_regime_text(TEXT, "olimpia-2025.toml")
    fixed = propose_sanction(shipped, ["evento-sem-autorizacao"], on=ON, prior=1)
    assert next(s for s in fixed.sanctions if s.kind == "fine").amount == 2 * 100 * Decimal("38.42")


def test_a_value_the_formula_lacks_or_out_of_its_bounds_leaves_the_fine_to_the_authority_with_the_reason(regime):
    missing = fine_of(regime)
    assert missing.admin_defined and missing.amount is None
    assert any("informe-o (valor_licenca)" in d and "art. 89" in d for d in missing.details)
    beyond = fine_of(regime, asked={"valor_licenca": "60.000,00"})
    assert beyond.admin_defined and beyond.amount is None
    assert any("fora dos limites do ato" in d and "até 50.000" in d for d in beyond.details)


def test_the_checker_reads_a_fines_formula_as_a_fees():
    typo = TEXT.replace(FIXED, FORMULA.replace("0.30 * valor_licenca", "0.30 * valor_licensa"))
    errors = check_regime_text(typo, "olimpia-2025.toml")
    found = [e for e in errors if ".fine.formula" in (e.key or "")]
    assert found and "valor_licensa" in found[0].reason and "valor_licenca" in found[0].reason
    both = TEXT.replace(FIXED, FORMULA.replace("formula =", 'value = "100", unit = "UFESP", formula ='))
    assert any("um só" in e.reason for e in check_regime_text(both, "olimpia-2025.toml"))


def test_praca_penalty_asks_the_value_a_fines_formula_needs(sqlite_url, capsys):
    """The command line: ``--input NOME=VALOR`` gives the value, typed the Brazilian way; without it the fine is
    left to the authority and the reason says which value and article."""
    import json

    from factories import open_new_database

    from desktop.cli import main
    from models.access import session
    from models.rules import acts
    from models.store.bootstrap import close_database

    amended = TEXT.replace(FIXED, FORMULA) + (
        '\n[regime.amendment]\nact = "Versão de teste: a multa do art. 97 como fórmula"\n'
        'in_force_from = 2026-04-01\nsummary = "A multa do evento sem autorização como parte da licença."\n'
    )
    open_new_database(sqlite_url, acts=["olimpia-2025"])
    with session.acting_as(session.SYSTEM):
        acts.amend(amended.encode("utf-8"), "olimpia-2025.toml")
    close_database()
    argv = ["penalty", "--db", sqlite_url, "--regime", "olimpia-2025", "--infraction", "evento-sem-autorizacao"]
    argv += ["--date", "04/05/2026", "--json"]
    assert main([*argv, "--input", "valor_licenca=1.000,00"]) == 0
    fine = next(s for s in json.loads(capsys.readouterr().out)["infractions"][0]["sanctions"] if s["kind"] == "fine")
    assert fine["amount"] == "684.20" and fine["formula"] == "0,30 × 1.000,00 + 10 × 38,42 = R$ 684,20"
    assert main(argv) == 0
    fine = next(s for s in json.loads(capsys.readouterr().out)["infractions"][0]["sanctions"] if s["kind"] == "fine")
    assert fine.get("amount") is None and any("valor_licenca" in d for d in fine["details"])


def test_fiscalizacao_asks_the_value_a_fines_formula_needs_and_keeps_it_with_the_inspector(keys, app_ready, qtbot):
    """The record dialog asks, for the infractions ticked, the values their fines' formulas need (with the act's
    bounds): the proposal shows the formula with the values and articles, and the record keeps them with the
    inspector's name (SQLite; PostgreSQL with PRACA_TEST_PG)."""
    import json

    from conftest import run_modal, type_text
    from factories import person
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QLineEdit

    from models.access import session
    from models.rules import acts
    from views.enforcement import EnforcementPage

    amended = TEXT.replace(FIXED, FORMULA) + (
        '\n[regime.amendment]\nact = "Versão de teste: a multa do art. 97 como fórmula"\n'
        'in_force_from = 2026-04-01\nsummary = "A multa do evento sem autorização como parte da licença."\n'
    )
    with session.acting_as(session.SYSTEM):
        acts.amend(amended.encode("utf-8"), "olimpia-2025.toml")
    acts.forget()
    person("Carla Promotora")
    page = EnforcementPage(today=dt.date(2026, 5, 4))
    qtbot.addWidget(page)
    page.resize(1300, 800)
    page.show()
    page.refresh()

    def fill(dialog):
        dialog.form.regime.setCurrentIndex(dialog.form.regime.findData("olimpia-2025"))
        type_text(dialog.form.offender_search, "carla promotora")
        dialog.form.matches_view.selectRow(0)
        dialog.form.date.set_date(dt.date(2026, 5, 4))
        dialog.form.time.setText("21:00")
        type_text(dialog.form.place, "Recinto de Exposições")
        type_text(dialog.form.facts, "Realizava show sem a autorização do município.")
        dialog.form.inspector.setText("Marcos Fiscal")
        type_text(dialog.form.inspector_id, "4521")
        assert not dialog.form.asked_box.isVisibleTo(dialog)
        dialog.check_infraction("evento-sem-autorizacao")
        assert dialog.form.asked_box.isVisibleTo(dialog)
        edit = dialog.findChild(QLineEdit, "fine-input-valor_licenca")
        assert edit is not None and edit.placeholderText() == "até 50.000 R$"
        type_text(edit, "1.000,00")
        dialog.update_preview()
        shown = dialog.proposal_view.toPlainText()
        assert "0,30 × 1.000,00 + 10 × 38,42 = R$ 684,20" in shown
        assert "informado por Marcos Fiscal" in shown and "art. 89" in shown
        qtbot.waitUntil(dialog.issue_button.isEnabled, timeout=3000)
        qtbot.mouseClick(dialog.issue_button, Qt.MouseButton.LeftButton)

    _d, record = run_modal(lambda: page.records.new_record(regime="olimpia-2025"), fill)
    assert record is not None
    kept = json.loads(record.proposal)
    assert kept["asked"] == {"valor_licenca": "1.000,00"} and kept["asked_by"] == "Marcos Fiscal"
    fine = next(s for s in kept["infractions"][0]["sanctions"] if s["kind"] == "fine")
    assert fine["amount"] == "684.20"
