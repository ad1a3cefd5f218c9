"""Issue 30 §3: monetary correction of overdue charges as the town's tax code declares it — the index and its source
in the municipality's settings, the index's yearly corrections in Cadastros → Correção monetária — on the second
copy of a guia (formula with values and basis, printed) and in the dívida ativa export. Figures computed by hand in
each test. SQLite and, with ``PRACA_TEST_PG``, PostgreSQL."""

from __future__ import annotations

import csv
import datetime as dt
import json
from decimal import Decimal

import pytest
from pdftext import pdf_text

from desktop.cli import main
from models.base.errors import FieldErrors

TODAY = dt.date(2026, 3, 10)
CTM = "Lei Complementar nº 10/2003 (Código Tributário de Olímpia), art. 120"
CORRECTION = "Lei Complementar nº 10/2003 (Código Tributário de Olímpia), art. 121"


def _setup(*, fine="2", interest="1", index="INPC", years=(("2026", "4,50"),)):
    from models.billing.collection.agreement import set_agreement
    from models.billing.collection.late import set_late_rules
    from models.billing.fiscal import set_index_correction

    set_agreement(agreement="0042", value_id="6", pix_key="", pix_name="", pix_city="")
    for year, rate in years:
        set_index_correction("INPC", int(year), rate, entered_by="", reason="IBGE")
    return set_late_rules(
        fine_percent=fine,
        interest_percent=interest,
        source=CTM if (fine != "0" or interest != "0") else "",
        due_days="5",
        debt_term="30",
        correction_index=index,
        correction_source=CORRECTION if index else "",
    )


def _fine(holder, amount="300,00", due=dt.date(2025, 12, 20)):
    from models.billing.charges import create_charge

    return create_charge(
        kind="fine",
        regime="olimpia-2025",
        label="Multa — art. 160",
        amount=amount,
        due_on=due,
        basis="LC 324/2025, art. 160",
        by="tesouraria",
        person_id=holder.id,
        today=dt.date(2025, 12, 1),
    )


def test_the_correction_needs_its_index_and_source_and_the_command_line_sets_and_shows_it(database, capsys):
    from models.billing.collection.late import get_late_rules, set_late_rules
    from models.store.bootstrap import close_database

    with pytest.raises(FieldErrors) as caught:
        set_late_rules(fine_percent="0", interest_percent="0", source="", correction_index="INPC")
    assert set(caught.value.errors) == {"correction_source"}
    with pytest.raises(FieldErrors) as caught:
        set_late_rules(fine_percent="0", interest_percent="0", source="", correction_source=CORRECTION)
    assert set(caught.value.errors) == {"correction_index"}
    with pytest.raises(FieldErrors) as caught:
        set_late_rules(
            fine_percent="0", interest_percent="0", source="", correction_index="IN PC;", correction_source="x"
        )
    assert set(caught.value.errors) == {"correction_index"}
    assert not get_late_rules().correcting
    close_database()
    base = ["--db", database, "collection", "late"]
    assert main([*base, "--correction-index", "ipca-e", "--correction-source", CORRECTION]) == 0
    capsys.readouterr()
    assert main([*base, "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["correction_index"] == "IPCA-E" and shown["correction_source"] == CORRECTION
    assert main(base) == 0
    assert "Correção monetária: IPCA-E (correções anuais" in capsys.readouterr().out
    assert main([*base, "--correction-index", "INPC", "--correction-source", ""]) == 2
    assert "fonte da correção monetária" in capsys.readouterr().err


def test_a_second_copy_across_a_year_carries_the_correction_then_multa_and_juros_on_the_corrected(database, tmp_path):
    """R$ 300,00 due 20/12/2025, second copy issued 10/03/2026 (due 15/03/2026): INPC 2026 4,50 % → R$ 313,50
    (+ 13,50); multa 2 % × 313,50 = 6,27; juros 1 % × 3 months × 313,50 = 9,405 → 9,41; the guia R$ 329,18."""
    from factories import person

    from models.billing.charges import Charge
    from models.billing.collection.guias import guia_lines, issue_guia
    from reports.guia_pdf import write_guia_pdf

    _setup()
    fine = _fine(person("Carlos Alberto Nunes"))
    path = tmp_path / "segunda-via.pdf"
    guia = issue_guia([fine], today=TODAY, write=lambda g: write_guia_pdf(g, path))
    assert guia.due_on == dt.date(2026, 3, 15) and guia.amount == Decimal("329.18")
    late = Charge.get((Charge.kind == "late") & (Charge.source == fine.number))
    assert late.amount == Decimal("29.18")
    assert late.label == f"Correção monetária, multa e juros de mora da cobrança nº {fine.number}"
    assert "R$ 300,00 × (1 + 4,5 %) = R$ 300,00 × 1,045000 = R$ 313,50 (+ R$ 13,50)" in late.formula
    assert "multa 2% × R$ 313,50 (corrigido) = R$ 6,27" in late.formula
    assert "juros 1% ao mês × 3 mês(es) × R$ 313,50 (corrigido) = R$ 9,41" in late.formula
    assert late.basis == f"multa e juros: {CTM}; correção monetária: {CORRECTION}"
    assert [line.formula for line in guia_lines(guia) if line.number == late.number] == [late.formula]
    text = " ".join(pdf_text(path).split())
    assert "R$ 313,50" in text and "R$ 329,18" in text and "art. 121" in text


def test_two_years_accumulate_and_round_half_up_and_a_missing_year_is_never_invented(database):
    """R$ 300,00 due 20/12/2024 on 10/03/2026: INPC 2025 3 % and 2026 4,5 % → 300 × 1,03 × 1,045 = 300 × 1,07635 =
    322,905 → R$ 322,91 (half up); correction only (no multa or juros declared): R$ 22,91."""
    from factories import person

    from models.billing.collection.guias import issue_guia
    from models.billing.collection.late import MissingIndex
    from models.billing.collection.tables import Guia
    from models.billing.fiscal import set_index_correction

    _setup(fine="0", interest="0")
    fine = _fine(person("Ana Paula Lima"), due=dt.date(2024, 12, 20))
    with pytest.raises(MissingIndex, match="Falta a correção do INPC de 2025"):
        issue_guia([fine], today=TODAY)
    assert Guia.select().count() == 0  # nothing issued
    set_index_correction("INPC", 2025, "3", entered_by="", reason="IBGE")
    guia = issue_guia([fine], today=TODAY)
    assert guia.amount == Decimal("322.91")


def test_within_the_due_year_nothing_is_corrected(database):
    """Due 20/01/2026, second copy 10/03/2026: the annual index has nothing to correct; multa 6,00 and juros 2 ×
    3,00 — the guia R$ 312,00, as without a correction rule."""
    from factories import person

    from models.billing.charges import Charge
    from models.billing.collection.guias import issue_guia

    _setup()
    fine = _fine(person("Beatriz Costa"), due=dt.date(2026, 1, 20))
    guia = issue_guia([fine], today=TODAY)
    assert guia.amount == Decimal("312.00")
    late = Charge.get((Charge.kind == "late") & (Charge.source == fine.number))
    assert late.label.startswith("Multa e juros de mora") and "nada a corrigir" in late.formula


def test_the_debts_export_applies_the_correction_with_its_index_basis_and_formula(database, tmp_path, capsys):
    """As of 10/03/2026: R$ 300,00 due 20/12/2025 → correction 13,50, multa 6,27, juros 9,41 (3 months), updated
    R$ 329,18."""
    from factories import person

    from models.store.bootstrap import close_database

    _setup()
    fine = _fine(person("Carlos Alberto Nunes"))
    close_database()
    out = tmp_path / "divida.csv"
    args = ["--db", database, "debts", "export", "--as-of", "10/03/2026", "--format", "csv", "--out", str(out)]
    assert main([*args, "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert listed["charges"] == [fine.number] and listed["updated_total"] == "329.18"
    with out.open(encoding="utf-8-sig") as fh:
        rows = list(csv.reader(fh, delimiter=";"))
    row = dict(zip(rows[0], rows[1], strict=True))
    assert row["Valor originário (§ 5º, II)"] == "300,00" and row["Correção monetária"] == "13,50"
    assert (row["Multa de mora"], row["Juros de mora"], row["Valor atualizado"]) == ("6,27", "9,41", "329,18")
    basis = row["Atualização monetária: índice e fundamento (§ 5º, IV)"]
    assert "INPC" in basis and CORRECTION in basis and "20/12/2025" in basis
    assert "sobre o valor corrigido" in row["Forma de calcular juros e encargos (§ 5º, II)"]
    assert "× 1,045000 = R$ 313,50" in row["Cálculo"]
