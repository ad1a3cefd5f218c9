"""The sanctions report: figures, Excel (live formulas), HTML, PDF, the command line, the Relatórios page and the
enforcement alerts of the Painel.

March 2026 is built through the real functions of models/enforcement/__init__.py (the
helpers of tests/test_enforcement.py): a notice whose infraction record comes
in April, a recurrence that doubles the fine and suspends, a street vendor's
notice, record and seizure of perishables and a cart never claimed, a defence
partly upheld (the fine reduced: its charge cancelled and charged again), a
record annulled, a record corrected, an offender not identified, a Sapezal fine
unpaid past its deadlines and a defence awaiting its decision. Every database
test runs on SQLite and, with ``PRACA_TEST_PG``, on PostgreSQL. The totals of
the Excel file *after recalculation* (LibreOffice, when installed), of the HTML
(parsed) and of the PDF (pdftotext, when installed) agree to the cent with a
direct SQL sum.
"""

from __future__ import annotations

import datetime as dt
import re
import shutil
import subprocess
import zipfile
from decimal import Decimal
from xml.etree import ElementTree

import pytest
from factories import draft, fines, pay, person, sapezal_licence, tpu
from factories import issue_record as issue
from reports_read import Figures, cents, pdf_pages, recalculated

from models import enforcement as enf
from models.base.errors import Cancelled, FieldErrors
from models.base.money import format_brl, from_centavos
from models.billing.charges import record_payment
from models.billing.fiscal import set_unit_value
from models.enforcement.sanctions_report import CORRECTED, sanctions_report
from models.registry.municipality import report_town
from models.rules.regimes import get_regime
from models.store.db import db
from models.store.settings import set_settings
from reports.workbook.styles import MONEY

#: The charges with their state (schema v32: status and paid total in charge_state), for SQL from the tables
CHARGES = "(SELECT c.*, s.status, s.paid_total FROM charge AS c JOIN charge_state AS s ON s.id = c.id) AS ch"

START, END = dt.date(2026, 3, 1), dt.date(2026, 3, 31)
TODAY = dt.date(2026, 5, 4)  # a Monday, two months on
OFFICE = shutil.which("libreoffice") or shutil.which("soffice")
PDFTOTEXT = shutil.which("pdftotext")
PDFTOPPM = shutil.which("pdftoppm")


# --------------------------------------------------------------------------- March


def build_march(keys) -> dict:
    set_settings({"municipality": "Olímpia", "state": "SP", "agency": "Prefeitura da Estância Turística de Olímpia"})
    set_unit_value(get_regime("sapezal-2014"), "UFS", 2026, "52,30", entered_by="teste", reason="decreto de teste")
    out: dict = {}
    # a notice in March (art. 9º–10: 30 days to comply), its infraction record in April: out of the period
    jose = person("José Aparecido Lima")
    out["notice"] = issue(
        draft("olimpia-2025", ["geral-sem-penalidade"], "02/03/2026 09:30", kind="notice", holder=jose)
    )
    out["april"] = issue(
        draft(
            "olimpia-2025",
            ["geral-sem-penalidade"],
            "06/04/2026 10:00",
            holder=jose,
            refers_to_id=out["notice"].id,
            relation="follows-notice",
        )
    )
    # street food on a permit: the second dirty area in the month doubles and suspends (art. 192, § 1º; 193, § 2º)
    carla = person("Carla Nakamura")
    permit = tpu(keys, carla, on=dt.date(2026, 1, 10))
    out["first"] = issue(
        draft("olimpia-2025", ["tpu-area-suja"], "02/03/2026 09:30", permit_id=permit.id, scope="street-food")
    )
    pay(fines(out["first"])[0], dt.date(2026, 3, 10), ref="F-1")
    out["second"] = issue(
        draft("olimpia-2025", ["tpu-area-suja"], "20/03/2026 11:00", permit_id=permit.id, scope="street-food")
    )
    # its defence awaits the chief's decision (15 business days, art. 38): late on TODAY
    out["pending"] = enf.file_contest(
        out["second"],
        kind="defence",
        filed_on=dt.date(2026, 3, 25),
        by="protocolo",
        grounds="A lixeira estava instalada",
        today=dt.date(2026, 3, 25),
    )
    # a street vendor: notice, record, and the seizure drawn up with it (art. 145; 149; 24)
    ronaldo = person("Ronaldo Pipoqueiro")
    notice = issue(
        draft(
            "olimpia-2025",
            ["ambulante-sem-autorizacao"],
            "14/03/2026 15:00",
            kind="notice",
            holder=ronaldo,
            scope="street-vending",
            place="Avenida Menina Moça, 1200",
        )
    )
    out["vending"] = issue(
        draft(
            "olimpia-2025",
            ["ambulante-sem-autorizacao"],
            "14/03/2026 16:10",
            holder=ronaldo,
            scope="street-vending",
            refers_to_id=notice.id,
            relation="follows-notice",
            place="Avenida Menina Moça, 1200",
        )
    )
    pay(fines(out["vending"])[0], dt.date(2026, 3, 16), ref="F-2")
    out["seizure"] = issue(
        draft(
            "olimpia-2025",
            ["ambulante-sem-autorizacao"],
            "14/03/2026 16:20",
            kind="seizure",
            holder=ronaldo,
            scope="street-vending",
            refers_to_id=out["vending"].id,
            relation="accompanies",
            place="Avenida Menina Moça, 1200",
            items=[
                enf.ItemInput("picolés de frutas", "40", "un", True),
                enf.ItemInput("carrinho térmico", "1", "un", False),
            ],
            depot="Depósito municipal, Rua Síria, 300",
        )
    )
    # a defence partly upheld: the fine of two infractions reduced to one (its charge cancelled, charged again)
    helena = person("Helena Recorrente")
    out["partly"] = issue(
        draft(
            "olimpia-2025",
            ["tpu-area-suja", "tpu-higiene-pessoal"],
            "03/03/2026 09:30",
            holder=helena,
            scope="street-food",
        )
    )
    defence = enf.file_contest(
        out["partly"],
        kind="defence",
        filed_on=dt.date(2026, 3, 10),
        by="protocolo",
        suspensive=True,
        suspensive_note="art. 198",
        today=dt.date(2026, 3, 10),
    )
    enf.decide_contest(
        defence,
        outcome="partly",
        decided_on=dt.date(2026, 3, 20),
        by="chefe",
        reason="Higiene pessoal não comprovada.",
        new_amount="1.152,60",
        today=dt.date(2026, 3, 20),
    )
    record_payment(
        fines(out["partly"])[0],
        paid_on=dt.date(2026, 3, 25),
        amount="500,00",
        reference="F-3",
        by="tesouraria",
        today=dt.date(2026, 3, 25),
    )  # part of it: the rest goes to the dívida ativa
    # an annulled record: it counts, its fine does not
    out["annulled"] = issue(
        draft("olimpia-2025", ["tpu-area-suja"], "05/03/2026 09:30", holder=person("Anulado Santos"))
    )
    contest = enf.file_contest(
        out["annulled"], kind="defence", filed_on=dt.date(2026, 3, 6), by="protocolo", today=dt.date(2026, 3, 6)
    )
    enf.decide_contest(
        contest,
        outcome="annulled",
        decided_on=dt.date(2026, 3, 10),
        by="chefe",
        reason="Autuado não era o permissionário.",
        today=dt.date(2026, 3, 10),
    )
    # a correction: the old record listed, not counted; the deadlines restart (art. 32, § 4º)
    out["wrong"] = issue(
        draft(
            "olimpia-2025",
            ["tpu-area-suja"],
            "09/03/2026 09:30",
            holder=person("Corrigido da Silva"),
            place="Praça Rui Barbos",
        )
    )
    out["corrected"] = enf.correct_record(
        out["wrong"],
        reason="local escrito errado",
        by="chefe",
        today=dt.date(2026, 3, 20),
        place="Praça Rui Barbosa",
        notified_at=dt.datetime(2026, 3, 20, 14, 0),
    )
    # someone not identified: the fine waits for him (no charge yet)
    out["unknown"] = issue(
        draft(
            "olimpia-2025",
            ["feira-sem-autorizacao"],
            "14/03/2026 07:00",
            scope="feira",
            unknown_name="Vendedor de redes",
            signature="refused",
            place="Feira da Rua Síria",
            unknown_description="homem de uns 40 anos, boné azul",
        )
    )
    # Sapezal: 1 UFS (art. 50), unpaid past every deadline on TODAY — for the dívida ativa
    edson = person("Edson Lanches")
    out["sapezal"] = issue(
        draft(
            "sapezal-2014",
            ["dever-41"],
            "23/03/2026 18:00",
            permit_id=sapezal_licence(keys, edson, on=dt.date(2026, 1, 15)).id,
            payment_due=dt.date(2026, 4, 1),
            inspector="Sueli Fiscal",
            inspector_id="3877",
        )
    )
    return out


@pytest.fixture
def march(keys):
    return build_march(keys)


def sql_cents(sql: str) -> int:
    return int(db.execute_sql(sql).fetchone()[0] or 0)


def sql_totals() -> dict[str, int]:
    """The period's fine figures straight from the tables, in centavos (integer centavos columns): Olímpia's, the
    database's municipality (the Sapezal record is another town's: issue 31 §1, a report never mixes towns)."""
    scope = (
        "id IN (SELECT ec.charge_id FROM enforcement_charge ec JOIN enforcement_record r ON r.id = ec.record_id "
        "WHERE ec.role = 'fine' AND r.status <> 'corrected' AND r.at >= '2026-03-01' AND r.at < '2026-04-01' "
        "AND r.regime = 'olimpia-2025')"
    )
    return {
        "charged": sql_cents(f"SELECT SUM(amount) FROM {CHARGES} WHERE status <> 'cancelled' AND {scope}"),
        "paid": sql_cents(
            f"SELECT SUM(CASE WHEN paid_total < amount THEN paid_total ELSE amount END) FROM {CHARGES} "
            f"WHERE status <> 'cancelled' AND {scope}"
        ),
        "overdue": sql_cents(
            f"SELECT SUM(amount - paid_total) FROM {CHARGES} WHERE status = 'open' "
            f"AND due_on < '{TODAY.isoformat()}' AND {scope}"
        ),
        "records": sql_cents(
            "SELECT COUNT(*) FROM enforcement_record WHERE status <> 'corrected' "
            "AND at >= '2026-03-01' AND at < '2026-04-01' AND regime = 'olimpia-2025'"
        ),
    }


# --------------------------------------------------------------------------- the figures


def test_report_figures_equal_direct_sql_and_follow_the_acts(march):
    report = sanctions_report(START, END, today=TODAY)
    expected = sql_totals()
    f = report.figures
    assert (f.records, cents(f.charged), cents(f.paid), cents(f.overdue)) == (
        expected["records"],
        expected["charged"],
        expected["paid"],
        expected["overdue"],
    )
    assert f.open == f.charged - f.paid and f.charged > 0 and f.paid > 0 and f.overdue > 0
    # every breakdown adds up to the totals
    for groups in (report.by_kind, report.by_regime, report.by_site, report.by_inspector):
        assert sum(g.count for g in groups) == f.records
        for field in ("charged", "paid", "open", "overdue"):
            assert sum((getattr(g, field) for g in groups), Decimal(0)) == getattr(f, field)

    references = {r.reference: r for r in report.records}
    assert march["april"].reference not in references  # drawn up in April
    wrong = references[march["wrong"].reference]
    assert wrong.status_label == CORRECTED and wrong.fine == 0 and f.corrected == 1
    assert references[march["annulled"].reference].status_label == "anulado" and f.annulled == 1
    assert references[march["annulled"].reference].fine == 0
    assert "não identificado" in references[march["unknown"].reference].offender
    kinds = {g.key: g.count for g in report.by_kind}
    assert kinds == {"Notificação": 2, "Auto de infração e imposição de penalidade": 7, "Auto de apreensão": 1}
    assert {g.key for g in report.by_regime} == {"Olímpia/SP — LC 324/2025"}  # Sapezal's record: its own report
    assert report.left_out == (("Sapezal/MT", 1),)
    sites = {g.key: g.count for g in report.by_site}
    assert sites["Praça Rui Barbosa"] == 3  # Carla's permit twice, and the corrected place
    assert sites["Avenida Menina Moça"] == 3
    inspectors = {g.key: g.count for g in report.by_inspector}
    assert inspectors == {"Marcos Fiscal (mat. 4521)": 10}

    # the fines: the reduced one listed twice (cancelled, then charged again); the corrected record's old charge gone
    by_record = {}
    for fine in report.fines:
        by_record.setdefault(fine.record, []).append(fine.charge)
    partly = by_record[march["partly"].reference]
    assert sorted(x.situation for x in partly) == ["cancelada", "vencida"]
    assert [x.amount for x in partly if x.situation != "cancelada"] == [Decimal("1152.60")]
    assert march["wrong"].reference not in by_record
    assert [x.situation for x in by_record[march["annulled"].reference]] == ["cancelada"]
    assert march["unknown"].reference not in by_record  # nobody to charge yet
    assert all("art." in x.charge.basis and x.charge.kind_label == "multa" for x in report.fines)

    # infractions by article, with the article infringed and the one that sets the penalty
    articles = {a.code: a for a in report.by_article}
    assert articles["tpu-area-suja"].count == 5 and articles["tpu-area-suja"].recurrences == 1
    assert "art. 192, II" in articles["tpu-area-suja"].article and "dever-41" not in articles
    assert sum(a.count for a in report.by_article) == f.infractions == len(report.infractions)
    # the recurrence: second dirty area in 5 years, doubled (art. 192, § 1º) and 180 days' suspension (art. 193)
    [recurrence] = report.recurrences
    assert recurrence.reference == march["second"].reference and recurrence.offence == 2
    assert march["first"].reference in recurrence.priors
    assert "art. 12" in recurrence.basis and "art. 192, § 1º" in recurrence.basis
    assert "R$ 2.305,20" in recurrence.sanctions
    # sanctions of the records in force: the notice's fine waits for the deadline; the annulled one has none
    sanctions = {(s.reference, s.kind) for s in report.sanctions}
    assert (march["notice"].reference, "warning") in sanctions and (march["notice"].reference, "fine") not in sanctions
    assert (march["second"].reference, "suspension") in sanctions
    assert not any(s.reference == march["annulled"].reference for s in report.sanctions)
    assert sum(g.count for g in report.by_sanction) == f.sanctions == len(report.sanctions)

    # deadlines: the defence awaiting its decision since mid-April; the corrected record's payment still runs
    late = [d for d in report.deadlines if d.late]
    assert [d.reference for d in late] == [march["second"].reference] and "art. 38" in late[0].basis
    assert f.late_decisions == 1
    assert any(
        d.reference == march["corrected"].reference and d.role_label == "Pagamento da multa" for d in report.deadlines
    )
    assert all(d.due_on >= TODAY for d in report.deadlines if not d.late)
    # the goods seized on 14/03, never claimed: what it takes to get them back, and the donation due
    [pending] = report.seized
    seized = pending.goods
    assert seized.reference == march["seizure"].reference and seized.perishable
    assert seized.depot_due > 0 and seized.total_due == seized.depot_due + seized.fines_open
    assert seized.state.startswith("prazo de retirada vencido") and f.seized_due == seized.total_due
    assert pending.regime_label == "Olímpia/SP — LC 324/2025"
    # the dívida ativa: the reduced fine's rest, past every deadline
    assert {d.fine.reference for d in report.debts} == {march["partly"].reference}
    assert f.debt == sum((d.fine.amount for d in report.debts), Decimal(0))
    assert report.municipality == "Olímpia/SP" and report.title == "Relatório de sanções — 01/03/2026 a 31/03/2026"
    # Sapezal's record is in Sapezal's report, under its own header: its fine past every deadline, in dívida ativa
    sapezal = sanctions_report(START, END, today=TODAY, town=report_town("Sapezal"))
    assert sapezal.municipality == "Sapezal/MT" and sapezal.agency == "Prefeitura Municipal de Sapezal"
    assert [r.reference for r in sapezal.records] == [march["sapezal"].reference]
    assert {d.fine.reference for d in sapezal.debts} == {march["sapezal"].reference}
    assert {a.code for a in sapezal.by_article} == {"dever-41"} and sapezal.by_article[0].basis
    assert {g.key: g.count for g in sapezal.by_inspector} == {"Sueli Fiscal (mat. 3877)": 1}
    assert sapezal.left_out == (("Olímpia/SP", 11),)  # every record drawn up there, the corrected one too


def test_an_empty_period_is_a_report_of_zeros_and_a_period_upside_down_is_refused(database):
    report = sanctions_report(START, END, today=TODAY)
    assert report.records == () and report.figures.charged == 0 and report.by_kind == ()
    with pytest.raises(FieldErrors, match="invertido"):
        sanctions_report(END, START, today=TODAY)
    with pytest.raises(FieldErrors, match="início"):
        sanctions_report(None, END, today=TODAY)


def test_progress_is_called_and_can_cancel(march):
    calls = []
    report = sanctions_report(START, END, today=TODAY, progress=lambda done, total: calls.append((done, total)))
    n = len(report.records)
    assert calls[0] == (0, n) and calls[-1] == (n, n)

    def stop(done, total):
        raise Cancelled()

    with pytest.raises(Cancelled):
        sanctions_report(START, END, today=TODAY, progress=stop)


# --------------------------------------------------------------------------- the three files agree with SQL


def _export(fmt, path):
    from reports.sanctions_export import export_sanctions_report

    written, _report = export_sanctions_report(START, END, fmt, path, today=TODAY)
    return written


def test_excel_html_and_pdf_agree_to_the_cent_with_sql(march, tmp_path, app_ready):
    import openpyxl

    expected = sql_totals()
    expected["open"] = expected["charged"] - expected["paid"]
    report = sanctions_report(START, END, today=TODAY)

    # HTML, parsed
    parser = Figures()
    parser.feed(_export("html", tmp_path / "sancoes.html").read_text(encoding="utf-8"))
    for name, key in (("charged", "multas"), ("paid", "pago"), ("open", "aberto"), ("overdue", "vencido")):
        assert parser.cents[f"total-{key}"] == expected[name], name
    for prefix in ("tipo", "regime", "local", "fiscal", "autos"):  # each breakdown's total row, the record list's
        assert parser.cents[f"{prefix}-cobrado"] == expected["charged"], prefix
        assert parser.cents[f"{prefix}-vencido"] == expected["overdue"], prefix
    assert parser.cents["multas-cobrado"] == expected["charged"] and parser.cents["multas-pago"] == expected["paid"]
    assert parser.cents["divida-total"] == cents(report.figures.debt)
    assert parser.cents["apreensoes-total"] == cents(report.figures.seized_due)

    # Excel: the results the file stores (what a reader that does not recalculate shows), and the workbook
    # recalculated by LibreOffice — both equal the report's figures
    xlsx = _export("xlsx", tmp_path / "sancoes.xlsx")
    books = [openpyxl.load_workbook(xlsx, data_only=True)]
    computed = recalculated(xlsx, tmp_path)
    if computed is not None:
        books.append(openpyxl.load_workbook(computed, data_only=True))
    for wb in books:
        resumo = {
            row[0]: row[1]
            for row in wb["Resumo"].iter_rows(min_row=4, max_row=25, max_col=2, values_only=True)
            if row[0]
        }
        assert cents(resumo["Multas lançadas (sem as canceladas)"]) == expected["charged"]
        assert cents(resumo["Multas pagas"]) == expected["paid"]
        assert cents(resumo["Multas em aberto"]) == expected["open"]
        assert cents(resumo["Multas vencidas"]) == expected["overdue"]
        assert cents(resumo["Para inscrição em dívida ativa"]) == cents(report.figures.debt)
        assert cents(resumo["A pagar para retirar os bens apreendidos"]) == cents(report.figures.seized_due)
        assert resumo["Autos lavrados (sem os corrigidos)"] == expected["records"]
        assert resumo["Autos corrigidos (substituídos)"] == 1 and resumo["Autos anulados"] == 1
        assert resumo["Reincidências"] == 1 and resumo["Julgamentos atrasados"] == 1
        assert resumo["Infrações registradas"] == len(report.infractions)
        assert resumo["Sanções aplicadas"] == len(report.sanctions)
        for sheet in ("Por tipo", "Por regime", "Por local", "Por fiscal"):
            total = next(r for r in wb[sheet].iter_rows(values_only=True) if r[0] == "Total")
            assert (total[1], cents(total[2]), cents(total[3]), cents(total[5])) == (
                expected["records"],
                expected["charged"],
                expected["paid"],
                expected["overdue"],
            ), sheet
        articles = {(r[0], r[2]): r[5] for r in wb["Por artigo"].iter_rows(min_row=4, values_only=True) if r[2]}
        assert articles[("tpu-area-suja", "Olímpia/SP — LC 324/2025")] == 5
        assert next(r for r in wb["Por artigo"].iter_rows(values_only=True) if r[0] == "Total")[5] == len(
            report.infractions
        )
        kinds = {r[0]: r for r in wb["Por tipo"].iter_rows(min_row=4, values_only=True) if r[0]}
        assert kinds["Notificação"][1] == 2 and cents(kinds["Notificação"][2]) == 0
        multas = next(r for r in wb["Multas"].iter_rows(values_only=True) if r[0] == "Total (sem as canceladas)")
        assert cents(multas[6]) == expected["charged"] and cents(multas[9]) == expected["overdue"]

    # PDF, as text
    pdf = _export("pdf", tmp_path / "sancoes.pdf")
    assert pdf.read_bytes().startswith(b"%PDF")
    if PDFTOTEXT is not None:
        _sizes, text = pdf_pages(pdf)
        summary = dict(re.findall(r"^\s*(Multas [^\dR]+?)\s+(R\$ [\d.]+,\d\d)", text, re.MULTILINE))
        assert summary == {
            label: format_brl(from_centavos(expected[name]))
            for label, name in (
                ("Multas lançadas", "charged"),
                ("Multas pagas", "paid"),
                ("Multas em aberto", "open"),
                ("Multas vencidas", "overdue"),
            )
        }
        assert "Prefeitura da Estância Turística de Olímpia" in text and "Página 1 de" in text
        assert march["second"].reference in text and "art. 192, II" in text
        assert march["sapezal"].reference not in text and "Sapezal/MT: 1" in text  # another town's: said, not counted


# --------------------------------------------------------------------------- Excel: live and formatted


def test_excel_is_live_formatted_filtered_frozen_and_charted(march, tmp_path):
    import openpyxl

    report = sanctions_report(START, END, today=TODAY)
    path = _export("xlsx", tmp_path / "sancoes.xlsx")
    wb = openpyxl.load_workbook(path)
    assert wb.sheetnames == [
        "Resumo",
        "Por tipo",
        "Por regime",
        "Por local",
        "Por fiscal",
        "Por artigo",
        "Por sanção",
        "Autos",
        "Infrações",
        "Sanções",
        "Multas",
        "Prazos em curso",
        "Apreensões pendentes",
        "Reincidências",
        "Dívida ativa",
    ]
    last = 3 + len(report.records)
    autos = wb["Autos"]
    assert [c.value for c in autos[3]][:4] == ["Auto", "Tipo", "Regime", "Data e hora"]
    assert autos.freeze_panes == "B4" and autos.auto_filter.ref == f"A3:T{last}"
    assert autos["D4"].number_format == "DD/MM/YYYY HH:MM" and isinstance(autos["D4"].value, dt.datetime)
    assert autos["Q4"].number_format == MONEY
    assert [autos.cell(row=r, column=1).value for r in range(4, last + 1)] == [r.reference for r in report.records]
    total = next(r for r in autos.iter_rows(min_row=last + 1) if r[0].value)
    assert total[16].value == (f"=ROUND(SUMIFS('Autos'!$Q$4:$Q${last},'Autos'!$O$4:$O${last},\"<>corrigido\"),2)")

    fines = wb["Multas"]
    last_fine = 3 + len(report.fines)
    assert fines["F4"].number_format == "DD/MM/YYYY" and fines["G4"].number_format == MONEY
    resumo = wb["Resumo"]
    formulas = {row[0].value: row[1] for row in resumo.iter_rows(min_row=4, max_row=25, max_col=2)}
    charged = formulas["Multas lançadas (sem as canceladas)"]
    assert charged.value == (
        f"=ROUND(SUMIFS('Multas'!$G$4:$G${last_fine},'Multas'!$K$4:$K${last_fine},\"<>cancelada\"),2)"
    )
    assert charged.number_format == MONEY and resumo.freeze_panes == "A4"
    assert formulas["Autos lavrados (sem os corrigidos)"].value == (
        f"=COUNTIFS('Autos'!$A$4:$A${last},\"<>\",'Autos'!$O$4:$O${last},\"<>corrigido\")"
    )

    por_tipo = wb["Por tipo"]
    assert por_tipo["C4"].value == (
        f"=ROUND(SUMIFS('Autos'!$Q$4:$Q${last},'Autos'!$B$4:$B${last},$A4,'Autos'!$O$4:$O${last},\"<>corrigido\"),2)"
    )
    assert por_tipo["B4"].value.startswith("=COUNTIFS(") and por_tipo["B4"].number_format == "0"
    assert por_tipo.auto_filter.ref == "A3:F6" and por_tipo.freeze_panes == "A4"
    por_artigo = wb["Por artigo"]
    infractions_last = 3 + len(report.infractions)
    assert por_artigo["F4"].value == (
        f"=COUNTIFS('Infrações'!$E$4:$E${infractions_last},$A4,'Infrações'!$D$4:$D${infractions_last},$C4)"
    )
    assert por_artigo["D4"].value and "art." in por_artigo["D4"].value  # the article infringed, beside its count

    # the native chart: fines charged × paid by kind of record, on Resumo over Por tipo
    with zipfile.ZipFile(path) as archive:
        chart = archive.read("xl/charts/chart1.xml").decode("utf-8")
        rels = archive.read("xl/worksheets/_rels/sheet1.xml.rels").decode("utf-8")
    assert "drawing" in rels
    ns = {"c": "http://schemas.openxmlformats.org/drawingml/2006/chart"}
    bar = ElementTree.fromstring(chart).find(".//c:barChart", ns)
    series = bar.findall("c:ser", ns)
    assert [s.find("c:tx/c:strRef/c:f", ns).text for s in series] == ["'Por tipo'!$C$3", "'Por tipo'!$D$3"]
    assert {s.find("c:cat/c:strRef/c:f", ns).text for s in series} == {"'Por tipo'!$A$4:$A$6"}


def test_an_empty_period_exports_in_every_format(database, tmp_path, app_ready):
    import openpyxl

    from reports.sanctions_export import export_sanctions_report

    for fmt in ("xlsx", "html", "pdf"):
        path, report = export_sanctions_report(START, END, fmt, tmp_path / f"vazio.{fmt}", today=TODAY)
        assert path.stat().st_size > 0 and report.figures.records == 0
    computed = recalculated(tmp_path / "vazio.xlsx", tmp_path)
    if computed is not None:
        resumo = openpyxl.load_workbook(computed, data_only=True)["Resumo"]
        values = {r[0]: r[1] for r in resumo.iter_rows(min_row=4, max_row=25, max_col=2, values_only=True) if r[0]}
        assert values["Multas lançadas (sem as canceladas)"] == 0 and values["Autos lavrados (sem os corrigidos)"] == 0
    assert "Nenhum auto lavrado no período." in (tmp_path / "vazio.html").read_text(encoding="utf-8")


# --------------------------------------------------------------------------- HTML and PDF: a municipal report


def test_html_is_a_printable_a4_page_with_chart_header_and_bases(march, tmp_path):
    html = _export("html", tmp_path / "sancoes.html").read_text(encoding="utf-8")
    parser = Figures()
    parser.feed(html)
    text = " ".join(" ".join(parser.text).split())
    assert "@page" in html and "size: A4" in html
    assert "svg" in parser.tags and html.count("<rect") >= 8  # background, legend, 3 kinds × 2 bars
    assert "Prefeitura da Estância Turística de Olímpia" in text and "Olímpia/SP" in text
    assert "Relatório de sanções" in text and "01/03/2026 a 31/03/2026" in text
    assert "LC 324/2025, art. 179, VI; art. 192, II" in text  # the article of each infraction
    assert "Lei 1.171/2014, art. 41" not in text and "Sapezal/MT: 1" in text  # another town's record: said, not counted
    assert "Reincidências" in text and march["second"].reference in text
    assert "julgamento pendente" in text and "picolés de frutas" in text


def test_html_escapes_what_the_inspector_typed(keys, tmp_path):
    from reports.sanctions_report_html import sanctions_report_html

    issue(
        draft(
            "olimpia-2025",
            ["tpu-area-suja"],
            "02/03/2026 09:30",
            holder=person("Zé <b>Negrito</b> & Cia"),
            place="<script>alert(1)</script>, 10",
        )
    )
    html = sanctions_report_html(sanctions_report(START, END, today=TODAY))
    assert "<script>alert" not in html and "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "Zé &lt;b&gt;Negrito&lt;/b&gt; &amp; Cia" in html


@pytest.mark.skipif(PDFTOTEXT is None or PDFTOPPM is None, reason="poppler-utils ausente")
def test_pdf_has_the_figures_portrait_the_lists_landscape_and_renders(march, tmp_path, app_ready):
    path = _export("pdf", tmp_path / "sancoes.pdf")
    sizes, text = pdf_pages(path)
    assert sizes and sizes[0][0] < sizes[0][1]  # the figures on A4 portrait
    assert sizes[-1][0] > sizes[-1][1]  # the lists on A4 landscape
    assert "Anexo — autos lavrados no período" in text and f"Página {len(sizes)} de {len(sizes)}" in text
    subprocess.run([PDFTOPPM, "-png", "-r", "40", "-f", "1", "-l", "1", str(path), str(tmp_path / "p")], check=True)
    [png] = tmp_path.glob("p*.png")
    assert png.stat().st_size > 5000  # a page with its chart and tables, not a blank one


# --------------------------------------------------------------------------- atomic and cancellable


@pytest.mark.parametrize("fmt", ["xlsx", "html", "pdf"])
def test_a_cancelled_export_keeps_the_old_file_and_leaves_no_temporary_one(march, tmp_path, app_ready, fmt):
    from reports.sanctions_export import export_sanctions_report

    folder = tmp_path / "relatorios"
    folder.mkdir()
    target = folder / f"sancoes.{fmt}"
    target.write_bytes(b"old")
    seen: list[int] = []

    def cancel_once_writing(done, total):
        seen.append(done)
        if done > 150:  # the gathering takes the bar to 150 of 1000: the file is being written
            raise Cancelled()

    with pytest.raises(Cancelled):
        export_sanctions_report(START, END, fmt, target, today=TODAY, progress=cancel_once_writing)
    assert max(seen) > 150 and target.read_bytes() == b"old"
    assert [p.name for p in folder.iterdir()] == [target.name]
    written, _ = export_sanctions_report(START, END, fmt, target, today=TODAY)
    assert written == target and target.read_bytes() != b"old"


# --------------------------------------------------------------------------- command line


def test_cli_writes_each_format(march, tmp_path, capsys, app_ready):
    from desktop.cli import main
    from models.store.bootstrap import close_database
    from models.store.db import current_url

    url = current_url().raw
    expected = sql_totals()
    close_database()
    for fmt in ("xlsx", "html", "pdf"):
        out = tmp_path / f"sancoes.{fmt}"
        assert (
            main(
                [
                    "report",
                    "sanctions",
                    "--db",
                    url,
                    "--from",
                    "01/03/2026",
                    "--to",
                    "31/03/2026",
                    "--format",
                    fmt,
                    "--out",
                    str(out),
                    "--as-of",
                    "04/05/2026",
                ]
            )
            == 0
        )
        said = capsys.readouterr().out
        assert out.exists() and str(out) in said and f"{expected['records']} auto(s)" in said
        assert f"multas lançadas {format_brl(from_centavos(expected['charged']))}" in said
    assert (
        main(
            [
                "--db",
                url,
                "report",
                "sanctions",
                "--from",
                "2026-03-01",
                "--to",
                "2026-03-31",
                "--format",
                "HTML",
                "--out",
                str(tmp_path / "b.html"),
                "--as-of",
                "2026-05-04",
            ]
        )
        == 0
    )


@pytest.mark.parametrize(
    "argv, fragment",
    [
        (
            ["--from", "31/02/2026", "--to", "31/03/2026", "--format", "xlsx", "--out", "{tmp}/a.xlsx"],
            "Data em --from: 31/02/2026 não existe — fevereiro de 2026 não tem dia 31",
        ),
        (
            ["--from", "01/03/2026", "--to", "março", "--format", "xlsx", "--out", "{tmp}/a.xlsx"],
            "Data inválida em --to",
        ),
        (
            ["--from", "01/04/2026", "--to", "31/03/2026", "--format", "xlsx", "--out", "{tmp}/a.xlsx"],
            "O período está invertido: o início (01/04/2026) é depois do fim (31/03/2026)",
        ),
        (["--to", "31/03/2026", "--format", "xlsx", "--out", "{tmp}/a.xlsx"], "Informe o período"),
        (
            ["--from", "01/03/2026", "--to", "31/03/2026", "--format", "docx", "--out", "{tmp}/a.docx"],
            "Formato inválido: docx",
        ),
        (["--from", "01/03/2026", "--to", "31/03/2026", "--out", "{tmp}/a.xlsx"], "Informe o formato"),
        (["--from", "01/03/2026", "--to", "31/03/2026", "--format", "pdf"], "sancoes-2026-03-01-a-2026-03-31.pdf"),
        (
            ["--from", "01/03/2026", "--to", "31/03/2026", "--format", "xlsx", "--out", "{tmp}/nada/a.xlsx"],
            "não existe",
        ),
        (["--from", "01/03/2026", "--to", "31/03/2026", "--format", "xlsx", "--out", "{tmp}/a.pdf"], "extensão .pdf"),
        (
            ["--from", "01/03/2026", "--to", "31/03/2026", "--format", "xlsx", "--out", "{tmp}/a.xlsx", "--as-of", "x"],
            "Data inválida em --as-of",
        ),
    ],
)
def test_cli_bad_input_is_one_pt_br_line_and_exit_2(argv, fragment, tmp_path, sqlite_url, capsys):
    from desktop.cli import main

    args = [a.replace("{tmp}", str(tmp_path)) for a in argv]
    assert main(["--db", sqlite_url, "report", "sanctions", *args]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("praca: ") and fragment in err
    assert not list(tmp_path.glob("**/a.*"))


# --------------------------------------------------------------------------- the Relatórios page


@pytest.fixture
def page(march, app_ready, qtbot):
    from views.reports_page import ReportsPage

    widget = ReportsPage(today=lambda: TODAY)
    qtbot.addWidget(widget)
    widget.show()
    return widget


@pytest.mark.parametrize("fmt", ["xlsx", "html", "pdf"])
def test_page_exports_sanctions_in_each_format_with_progress(page, qtbot, tmp_path, fmt):
    from PySide6.QtCore import QDate

    assert page.selected_period() == (dt.date(2026, 1, 1), TODAY)  # the year so far
    page.sanctions_from.setDate(QDate(2026, 3, 1))
    page.sanctions_to.setDate(QDate(2026, 3, 31))
    page.set_sanctions_format(fmt)
    seen = []
    page.open_file = lambda path: seen.append(path) or True
    target = tmp_path / f"sancoes.{fmt}"
    written = page.export_sanctions(target, open_after=False)
    assert written == target and target.stat().st_size > 0 and seen == []
    message = page.sanctions_message.text()
    assert str(target) in message and f"{sql_totals()['records']} auto(s)" in message
    assert page.sanctions_button.isEnabled() and page.progress_dialog is None
    assert page.message.text() == ""  # the fee report's line says nothing
    if fmt == "html":
        parser = Figures()
        parser.feed(target.read_text(encoding="utf-8"))
        assert parser.cents["total-multas"] == sql_totals()["charged"]


def test_page_sanctions_button_proposes_the_name_and_offers_to_open(
    page, qtbot, tmp_path, monkeypatch, no_blocking_message_boxes
):
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QFileDialog

    asked = {}

    def save_as(parent, title, name, filters):
        asked.update(title=title, name=name, filters=filters)
        return str(tmp_path / "escolhido"), filters

    monkeypatch.setattr(QFileDialog, "getSaveFileName", save_as)
    page.set_period(START, END)
    page.set_sanctions_format("pdf")
    opened = []
    page.open_file = lambda path: opened.append(path) or True
    qtbot.mouseClick(page.sanctions_button, Qt.MouseButton.LeftButton)
    from views.save import documents_folder

    assert asked["name"] == str(documents_folder() / "sancoes-2026-03-01-a-2026-03-31.pdf")  # in Documents
    assert "*.pdf" in asked["filters"]
    assert "sanções" in asked["title"]
    assert (tmp_path / "escolhido.pdf").exists() and opened == [tmp_path / "escolhido.pdf"]
    assert any("Abrir o arquivo" in s for s in no_blocking_message_boxes)


def test_page_sanctions_cancel_and_bad_period(page, tmp_path):
    from PySide6.QtCore import QTimer

    page.set_period(START, END)
    page.set_sanctions_format("pdf")
    folder = tmp_path / "out"
    folder.mkdir()
    QTimer.singleShot(0, lambda: page.progress_dialog.cancel())
    assert page.export_sanctions(folder / "sancoes.pdf", open_after=False) is None
    assert not list(folder.iterdir()) and "cancelada" in page.sanctions_message.text()
    page.set_period(END, START)
    assert page.export_sanctions(folder / "sancoes.pdf", open_after=False) is None
    assert "invertido" in page.sanctions_message.text() and not list(folder.iterdir())


# --------------------------------------------------------------------------- the Painel


def test_enforcement_alerts_say_what_ends_today_and_what_is_late(march):
    on_the_day = {i.kind: i for i in enf.enforcement_alerts(dt.date(2026, 3, 16))}
    # the perishables seized at 16:20 of Saturday 14/03: 24 hours to reclaim (art. 149) end on Sunday, so at 16:20
    # of Monday 16/03 (art. 315; Lei 9.784/1999, art. 66, § 1º) — ends today
    assert "picolés" in on_the_day["seizure-reclaim"].text and "art. 149" in on_the_day["seizure-reclaim"].article
    assert not on_the_day["seizure-reclaim"].overdue
    later = enf.enforcement_alerts(TODAY)
    kinds = {i.kind for i in later}
    assert {"record-decision", "fines-debt", "seizure-donation"} <= kinds
    decision = next(i for i in later if i.kind == "record-decision")
    assert decision.overdue and march["second"].reference in decision.text and "art. 38" in decision.article
    debt = next(i for i in later if i.kind == "fines-debt")
    assert "2 multa(s)" in debt.text and "dívida ativa" in debt.text
    assert all(i.article for i in later) and later[0].overdue  # the late ones first
    # a notice of 10/03: 30 days to comply (art. 10) end on 09/04; after that, and no record followed, a check
    notice = issue(
        draft(
            "olimpia-2025",
            ["geral-sem-penalidade"],
            "10/03/2026 10:00",
            kind="notice",
            holder=person("Maria Sem Regularizar"),
        )
    )
    [comply] = [i for i in enf.enforcement_alerts(dt.date(2026, 4, 9)) if i.kind == "record-compliance"]
    assert notice.reference in comply.text and "termina hoje" in comply.text and "art. 10" in comply.article
    assert not comply.overdue
    [late] = [i for i in enf.enforcement_alerts(dt.date(2026, 4, 13)) if i.kind == "record-compliance"]
    assert late.overdue and "lavrar o auto" in late.text and notice.reference in late.text
    assert not [i for i in enf.enforcement_alerts(dt.date(2026, 6, 1)) if i.kind == "record-compliance"]  # 30 days on
    # the notice of 02/03 was followed by its record: no check asked for it
    assert not any(march["notice"].reference in i.text for i in enf.enforcement_alerts(dt.date(2026, 4, 1)))


def test_painel_shows_the_enforcement_alerts(march, app_ready, qtbot):
    from views.home import HomePage

    home = HomePage()
    qtbot.addWidget(home)
    home.day = TODAY
    home.refresh()
    shown = [home.today.item(i).text() for i in range(home.today.count())]
    assert any(march["second"].reference in s and "aguarda julgamento" in s and "art. 38" in s for s in shown)
    assert any("inscrever em dívida ativa" in s for s in shown)
    assert any(march["seizure"].reference in s and "doar" in s for s in shown)
    assert any("cobrança(s) vencida(s)" in s for s in shown)  # the charges' alerts are still there


def test_a_small_period_prints_in_few_pages_and_an_empty_list_as_one_line(march, tmp_path, need_client):
    """Issue 32 §1: the page count follows the data. March's few records print on about a page per sheet; a list
    with nothing in the period is one line, "Nenhum no período.", on one page — not pages of empty headers."""
    import subprocess

    import openpyxl
    import pdfplumber

    (office,) = need_client("libreoffice|soffice")
    from reports.sanctions_export import export_sanctions_report

    path = _export("xlsx", tmp_path / "sancoes.xlsx")
    quiet, _report = export_sanctions_report(
        START.replace(year=START.year - 1), END.replace(year=END.year - 1), "xlsx", tmp_path / "vazio.xlsx", today=TODAY
    )
    wb, nothing = openpyxl.load_workbook(path), openpyxl.load_workbook(quiet)
    lists = ["Autos", "Infrações", "Sanções", "Multas", "Prazos em curso", "Apreensões pendentes", "Reincidências"]
    for title in lists:
        ws = nothing[title]
        assert ws["A5"].value == "Nenhum no período." and ws.max_column >= 5, title
        assert ws["A4"].value is None  # the list's first row, blank: no formula over it counts the line
    empty = [title for title in lists if wb[title]["A5"].value == "Nenhum no período."]
    for ws in [
        *wb.worksheets,
        *nothing.worksheets,
    ]:  # a fixed scale that keeps 10 pt at 8 pt or more, never a fit that shrinks it
        assert 80 <= (ws.page_setup.scale or 100) <= 100 and not ws.sheet_properties.pageSetUpPr.fitToPage, ws.title
    subprocess.run(
        [
            office,
            f"-env:UserInstallation={(tmp_path / 'lo').as_uri()}",
            "--headless",
            "--convert-to",
            "pdf",
            "--outdir",
            str(tmp_path),
            str(path),
            str(quiet),
        ],
        check=True,
        timeout=240,
        capture_output=True,
    )
    with pdfplumber.open(tmp_path / "sancoes.pdf") as pdf:
        pages = [page.extract_text() or "" for page in pdf.pages]
    with pdfplumber.open(tmp_path / "vazio.pdf") as pdf:
        blank = [page.extract_text() or "" for page in pdf.pages]
    # nothing in the period: one page a sheet, and the chart's own page (Por artigo, two across: its legal texts
    # are wide columns); a few records: about two pages a sheet (the wide lists take two or three across)
    assert len(blank) <= len(nothing.worksheets) + 2, len(blank)
    assert len(pages) <= 2 * len(wb.worksheets), len(pages)
    for title in empty:
        heading = wb[title]["A1"].value
        assert sum(1 for page in pages if heading in page) == 1, title
