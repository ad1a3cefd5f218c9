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
    assert f"Preço público de ocupação de via pública da permissão nº 7/2026: {OCCUPATION}" in said
    assert "art. 9º, § 1º" in said
    assert fine.asked == () and fine.from_permit == ("valor_ocupacao",)  # nothing asked: the act's own fee


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


def _amend():
    from models.access import session
    from models.rules import acts

    with session.acting_as(session.SYSTEM):
        acts.amend(AMENDED.encode("utf-8"), "sao-bento-2026.toml")
    acts.forget()


def _facts(dialog):
    """The record dialog's facts of these tests: Rita Trailer's stall still up at 13h00 on 30/03/2026."""
    from factories import fill_record_form

    at = dt.datetime(2026, 3, 30, 13, 0)
    fill_record_form(dialog, "sao-bento-2026", "Rita Trailer", at, "Rua Cel. Ribeiro da Luz", "Barraca montada.")


def _record_page(qtbot):
    from views.enforcement import EnforcementPage

    page = EnforcementPage(today=ON)
    qtbot.addWidget(page)
    page.resize(1300, 800)
    page.show()
    page.refresh()
    return page


def test_fiscalizacao_prices_the_fee_from_the_permit_typed_on_the_record(keys, app_ready, qtbot, tmp_path):
    """The record dialog: with the permit's number typed, the fine's value that is the occupation price is not
    asked — the proposal shows it priced from the permit, and the record charges the share (SQLite; PostgreSQL
    with PRACA_TEST_PG)."""
    from conftest import run_modal, type_text
    from factories import event_stall, person
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QLineEdit

    from models import enforcement as enf

    _amend()
    holder = person("Rita Trailer")
    permit = event_stall(keys, holder)
    page = _record_page(qtbot)

    def fill(dialog):
        _facts(dialog)
        type_text(dialog.form.permit_number, permit.number)
        qtbot.waitUntil(lambda: dialog.permit is not None, timeout=3000)
        dialog.check_infraction("nao-desmontar")
        edit = dialog.findChild(QLineEdit, "fine-input-valor_ocupacao")
        assert edit is not None and edit.placeholderText() == "até 10.000 R$ — ou da permissão"
        assert "preço público de ocupação de via pública" in edit.toolTip()
        dialog.form.payment_due.set_date(dt.date(2026, 4, 30))  # the act fixes no payment deadline
        dialog.update_preview()
        shown = dialog.proposal_view.toPlainText()
        assert "0,30 × 1.204,47 = R$ 361,34" in shown and OCCUPATION in shown
        # priced from the permit: not asked, and the field says so
        assert not edit.isEnabled() and edit.placeholderText() == f"calculado da permissão nº {permit.number}"
        dialog.grab().save(str(tmp_path / "record-dialog.png"))
        qtbot.waitUntil(dialog.issue_button.isEnabled, timeout=3000)
        qtbot.mouseClick(dialog.issue_button, Qt.MouseButton.LeftButton)

    _d, record = run_modal(lambda: page.records.new_record(regime="sao-bento-2026"), fill)
    assert record is not None
    (charge,) = enf.charges_of(record, "fine")
    assert charge.amount == Decimal("361.34")


def test_a_value_held_by_the_permit_is_asked_again_once_the_permit_is_cleared(keys, app_ready, qtbot, tmp_path):
    """The value typed, then the permit that prices it, then the permit cleared: the field is the clerk's again with
    what was typed, and the proposal shown is the one the record is issued with — it stayed held (disabled) while the
    form, its value left out, was refused, and Lavrar then charged a fine the proposal had not shown (SQLite;
    PostgreSQL with PRACA_TEST_PG)."""
    from conftest import run_modal, type_text
    from factories import event_stall, person
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QLineEdit

    from models import enforcement as enf

    _amend()
    holder = person("Rita Trailer")
    permit = event_stall(keys, holder)
    page = _record_page(qtbot)

    def fill(dialog):
        _facts(dialog)
        dialog.check_infraction("nao-desmontar")
        dialog.form.payment_due.set_date(dt.date(2026, 4, 30))
        edit = dialog.findChild(QLineEdit, "fine-input-valor_ocupacao")
        type_text(edit, "1.000,00")
        dialog.update_preview()
        type_text(dialog.form.permit_number, permit.number)
        qtbot.waitUntil(lambda: dialog.permit is not None, timeout=3000)
        dialog.update_preview()
        assert "0,30 × 1.204,47 = R$ 361,34" in dialog.proposal_view.toPlainText()
        assert not edit.isEnabled()
        assert edit.text() == "" and edit.placeholderText() == f"calculado da permissão nº {permit.number}"
        dialog.form.permit_number.clear()
        qtbot.waitUntil(lambda: dialog.permit is None, timeout=3000)
        dialog.update_preview()
        dialog.grab().save(str(tmp_path / "record-permit-cleared.png"))
        assert edit.isEnabled() and edit.text() == "1.000,00"
        assert "0,30 × 1.000,00 = R$ 300,00" in dialog.proposal_view.toPlainText()
        qtbot.waitUntil(dialog.issue_button.isEnabled, timeout=3000)
        qtbot.mouseClick(dialog.issue_button, Qt.MouseButton.LeftButton)

    _d, record = run_modal(lambda: page.records.new_record(regime="sao-bento-2026"), fill)
    assert record is not None
    (charge,) = enf.charges_of(record, "fine")
    assert charge.amount == Decimal("300.00")


def test_a_formula_fines_value_not_given_is_asked_at_its_field_not_left_to_the_administration(keys, app_ready, qtbot):
    """No permit and no value: the form is refused at the fine's values, asking the value by its label, with the
    act's bounds and article, or the offender's permit — it said the fine was 'a definir pela Administração' and sent
    the clerk to Ajustar…, though the act bounds the value and the field for it is on the form (SQLite; PostgreSQL
    with PRACA_TEST_PG)."""
    from conftest import run_modal
    from factories import draft, person

    from models import enforcement as enf
    from models.base.errors import FieldErrors

    _amend()
    holder = person("Rita Trailer")
    page = _record_page(qtbot)

    def fill(dialog):
        _facts(dialog)
        dialog.check_infraction("nao-desmontar")
        dialog.form.payment_due.set_date(dt.date(2026, 4, 30))
        dialog.update_preview()
        shown = " ".join(dialog.proposal_view.toPlainText().split())
        assert "a definir pela Administração" not in shown
        assert (
            "Sanção nº 1: informe preço público de ocupação (até 10.000 R$ (Dec. 4.794/2026, art. 9º, § 2º)), ou a "
            "permissão do infrator, com a qual o Praça calcula preço público de ocupação de via pública" in shown
        )
        assert dialog.form.asked_box.styleSheet() != "" and dialog.adjust_button.styleSheet() == ""

    run_modal(lambda: page.records.new_record(regime="sao-bento-2026"), fill)
    with pytest.raises(FieldErrors) as exc:
        enf.preview(draft("sao-bento-2026", ["nao-desmontar"], "30/03/2026 13:00", holder=holder), today=ON)
    assert list(exc.value.errors) == ["asked"]


def test_the_adjust_dialog_and_the_sanctions_report_show_the_values_given_and_who(keys, app_ready, qtbot, tmp_path):
    """A fine whose value the inspector gave (no permit on the record): the adjust dialog of Fiscalização and the
    sanctions report (HTML, PDF and xlsx) show the formula with the value, its article and who gave it."""
    import openpyxl
    from factories import draft, issue_record, person
    from pdftext import pdf_text

    from models import enforcement as enf
    from models.enforcement.sanctions_report import sanctions_report
    from reports.sanctions_report_html import sanctions_report_html, write_sanctions_report_pdf
    from reports.sanctions_report_xlsx import write_sanctions_report_xlsx
    from views.enforcement import AdjustDialog

    _amend()
    holder = person("Rita Trailer")
    record = issue_record(
        draft(
            "sao-bento-2026",
            ["nao-desmontar"],
            "30/03/2026 13:00",
            holder=holder,
            asked={"valor_ocupacao": "1.000,00"},
            payment_due=dt.date(2026, 4, 30),
        ),
        today=ON,
    )
    given = "Preço público de ocupação = 1.000,00 R$ (Dec. 4.794/2026, art. 9º, § 2º) — informado por Marcos Fiscal"
    dialog = AdjustDialog(enf.current_proposal(record), today=ON)
    qtbot.addWidget(dialog)
    dialog.show()
    fine = next(s for s in enf.current_proposal(record).sanctions if s.kind == "fine")
    dialog.sanction.setCurrentIndex(dialog.sanction.findData(fine.number))
    state = dialog.state.text()
    assert "Fórmula: 0,30 × 1.000,00 = R$ 300,00" in state and f"Valor informado: {given}" in state
    dialog.grab().save(str(tmp_path / "adjust-dialog.png"))

    report = sanctions_report(dt.date(2026, 3, 1), dt.date(2026, 3, 31), today=ON)
    (listed,) = report.fines
    assert listed.asked == given and "0,30 × 1.000,00" in listed.charge.formula
    html = sanctions_report_html(report).replace("\xa0", " ")
    assert f"Valores informados: {given}" in html
    text = " ".join(pdf_text(write_sanctions_report_pdf(report, tmp_path / "sancoes.pdf")).split())
    assert "Valores informados: Preço público de ocupação = 1.000,00 R$" in text.replace("\xa0", " ")
    assert "informado por Marcos Fiscal" in text
    book = openpyxl.load_workbook(write_sanctions_report_xlsx(report, tmp_path / "sancoes.xlsx"))
    sheet = book["Multas"]
    head = next(r for r in sheet.iter_rows(values_only=True) if "Valores informados" in r)
    column = head.index("Valores informados")
    assert any(row[column] == given for row in sheet.iter_rows(values_only=True))


def test_the_adjust_dialog_says_a_value_priced_from_the_permit_with_its_formula_and_article(keys, app_ready, qtbot):
    """A fine whose value is the occupation price of the offender's permit: the adjust dialog says where 1.204,47
    comes from — the permit, the fee's formula and its article —, not only "0,30 × 1.204,47"."""
    from factories import draft, event_stall, issue_record, person

    from models import enforcement as enf
    from views.enforcement import AdjustDialog

    _amend()
    holder = person("Rita Trailer")
    permit = event_stall(keys, holder)
    record = issue_record(
        draft(
            "sao-bento-2026",
            ["nao-desmontar"],
            "30/03/2026 13:00",
            holder=holder,
            permit_id=permit.id,
            permit_number=permit.number,
            payment_due=dt.date(2026, 4, 30),
        ),
        today=ON,
    )
    proposal = enf.current_proposal(record)
    fine = next(s for s in proposal.sanctions if s.kind == "fine")
    assert fine.from_permit == ("valor_ocupacao",) and len(fine.permit_values) == 1
    dialog = AdjustDialog(proposal, today=ON)
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.sanction.setCurrentIndex(dialog.sanction.findData(fine.number))
    state = dialog.state.text()
    assert "Fórmula: 0,30 × 1.204,47 = R$ 361,34" in state
    said = next(line for line in state.splitlines() if line.startswith("Valor calculado da permissão: "))
    assert f"da permissão nº {permit.number}" in said and "R$ 1.204,47" in said and "art. 9º, § 2º" in said
    assert "Valor informado" not in state


def test_a_record_issued_before_each_fine_kept_its_values_lists_them_with_their_article(keys):
    """A record whose fines do not keep the values given (issued before they did): the sanctions report lists the
    proposal's, each with its label, unit and article, and who gave it — as a newer record's — not the formula's
    internal name and the text typed ("valor_ocupacao = 1.000,00")."""
    import json

    from factories import draft, issue_record, person

    from models import enforcement as enf
    from models.enforcement.sanctions import Proposal
    from models.enforcement.sanctions_report import sanctions_report
    from models.enforcement.sanctions_report.gathering import asked_text

    _amend()
    record = issue_record(
        draft(
            "sao-bento-2026",
            ["nao-desmontar"],
            "30/03/2026 13:00",
            holder=person("Rita Trailer"),
            asked={"valor_ocupacao": "1.000,00"},
            payment_due=dt.date(2026, 4, 30),
        ),
        today=ON,
    )
    older = json.loads(record.proposal)
    for item in older["infractions"]:
        for s in item["sanctions"]:
            s.pop("asked", None)
            s.pop("from_permit", None)
    enf.Record.update(proposal=json.dumps(older)).where(enf.Record.id == record.id).execute()
    given = "Preço público de ocupação = 1.000,00 R$ (Dec. 4.794/2026, art. 9º, § 2º) — informado por Marcos Fiscal"
    (listed,) = sanctions_report(dt.date(2026, 3, 1), dt.date(2026, 3, 31), today=ON).fines
    assert listed.asked == given
    # once the authority decides on its sanctions the report reads them again (each fine then keeps no value): still
    reread = Proposal.from_dict(older).to_dict()
    assert (
        asked_text(reread, [s for i in reread["infractions"] for s in i["sanctions"] if s["kind"] == "fine"]) == given
    )


def test_praca_penalty_prices_the_fee_from_the_permit_given(keys, database, capsys):
    """``praca penalty --permit NÚMERO``: the fee the fine is a share of, priced from the permit's stall; without
    ``--permit`` the value is asked (``--input``) and the reason says so."""
    import json

    from factories import event_stall, person

    from desktop.cli import main

    _amend()
    permit = event_stall(keys, person("Rita Trailer"))
    argv = ["--db", database, "penalty", "--regime", "sao-bento-2026", "--infraction", "nao-desmontar"]
    argv += ["--date", "30/03/2026", "--json"]
    assert main([*argv, "--permit", permit.number]) == 0
    fine = next(s for s in json.loads(capsys.readouterr().out)["infractions"][0]["sanctions"] if s["kind"] == "fine")
    assert fine["amount"] == "361.34" and fine["formula"] == "0,30 × 1.204,47 = R$ 361,34"
    assert fine["from_permit"] == ["valor_ocupacao"]
    assert main(argv) == 0
    fine = next(s for s in json.loads(capsys.readouterr().out)["infractions"][0]["sanctions"] if s["kind"] == "fine")
    assert fine.get("amount") is None and any("não indica a permissão" in d for d in fine["details"])


def test_the_regime_sheet_says_the_fine_as_a_rule_and_where_its_value_comes_from(regime, app_ready):
    """ "O ato e suas regras": the fine written as a formula in words, and the value that is another fee of the act
    — from the offender's permit, else asked within its bounds — each with its article (HTML and the command
    line's text)."""
    from desktop.commands.regimes import regime_text
    from reports.regime_sheet import regime_html

    source = (
        "Preço público de ocupação: preço público de ocupação de via pública deste ato (occupation), calculado com "
        "os dados da permissão do infrator; sem ela, valor que a autoridade competente fixa, até 10.000 R$"
    )
    html = " ".join(regime_html(regime).replace("&nbsp;", " ").split())
    assert "Multa = 0,30 × preço público de ocupação" in html and source in html
    text = " ".join(regime_text(regime).split())
    assert "Multa = 0,30 × preço público de ocupação — Dec. 4.794/2026, art. 2º, § 2º" in text
    assert f"{source} — Dec. 4.794/2026, art. 9º, § 2º" in text
