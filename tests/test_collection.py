"""Issue 30: the town's collection agreement, the FEBRABAN arrecadação barcode and linha digitável, the Pix BR
Code, guias, the bank's return file, reversals and overpayments.

Published examples: the linha digitável of two arrecadação documents (one modulo 10, value identifier 6; one
modulo 11, value identifier 8) as FEBRABAN validators quote them; the static BR Code of the BCB's *Manual de
Padrões para Iniciação do Pix* (CRC ``1D3D``) and a dynamic one (``EEAB``); CRC-16/CCITT-FALSE's check value
(``29B1`` over ``123456789``). Database tests run on SQLite and, with ``PRACA_TEST_PG``, on PostgreSQL.
"""

from __future__ import annotations

import datetime as dt
import json
import subprocess
from decimal import Decimal
from pathlib import Path

import pytest
from factories import olimpia_fine as _fine
from hypothesis import given
from hypothesis import strategies as st
from pdftext import pdf_text

from desktop.cli import main
from models.base.errors import FieldErrors
from models.billing.collection import codes

MOD10_LINHA = "83640000001-1 33120138000-2 81288462711-6 08013618155-1"
MOD11_LINHA = "85890000460-9 52460179160-5 60759305086-5 83148300001-0"
BCB_STATIC = (
    "00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR"
    "5913Fulano de Tal6008BRASILIA62070503***63041D3D"
)
BCB_DYNAMIC = (
    "00020101021226770014BR.GOV.BCB.PIX2555pix.example.com/qr/93598be0-1bd0-4997-8318-81776a1d8a99"
    "5204000053039865802BR5907EMPRESA6009SAO PAULO62070503***6304EEAB"
)


# --------------------------------------------------------------------------- check digits (no database)


@pytest.mark.parametrize("linha, value_id, centavos", [(MOD10_LINHA, "6", 13312), (MOD11_LINHA, "8", 4605246)])
def test_published_linhas_digitaveis_check(linha, value_id, centavos):
    code = codes.barcode_from_linha(linha)
    read = codes.parse_barcode(code)
    assert (read.value_id, read.centavos) == (value_id, centavos)
    assert codes.format_linha(codes.linha_digitavel(code)) == linha
    # and the barcode built from its parts is the published one, general check digit included
    assert (
        codes.barcode(
            value_id=value_id, centavos=centavos, agreement=read.agreement, free=read.free, segment=read.segment
        )
        == code
    )


def test_a_wrong_digit_is_caught():
    code = codes.barcode_from_linha(MOD10_LINHA)
    wrong = code[:10] + str((int(code[10]) + 1) % 10) + code[11:]
    with pytest.raises(ValueError, match="dígito verificador geral"):
        codes.parse_barcode(wrong)
    with pytest.raises(ValueError, match="2º bloco"):
        codes.barcode_from_linha(MOD10_LINHA.replace("33120138000-2", "33120138001-2"))


def test_crc_and_published_br_codes():
    assert codes.crc16_ccitt(b"123456789") == 0x29B1
    assert codes.pix_crc_ok(BCB_STATIC) and codes.pix_crc_ok(BCB_DYNAMIC)
    assert not codes.pix_crc_ok(BCB_STATIC[:-1] + "E")


@given(
    value_id=st.sampled_from(codes.VALUE_IDS),
    centavos=st.integers(min_value=0, max_value=codes.MAX_CENTAVOS),
    agreement=st.from_regex(r"\A[0-9]{4}\Z"),
    free=st.from_regex(r"\A[0-9]{25}\Z"),
)
def test_every_barcode_reads_back_and_any_one_digit_change_is_caught(value_id, centavos, agreement, free):
    code = codes.barcode(value_id=value_id, centavos=centavos, agreement=agreement, free=free)
    assert len(code) == 44 and code[:3] == f"81{value_id}"
    read = codes.parse_barcode(code)
    assert (read.centavos, read.agreement, read.free) == (centavos, agreement, free)
    linha = codes.linha_digitavel(code)
    assert len(linha) == 48 and codes.barcode_from_linha(codes.format_linha(linha)) == code
    for pos in (4, 14, 18, 43):  # a digit of the value, the agreement and the free field
        changed = code[:pos] + str((int(code[pos]) + 1) % 10) + code[pos + 1 :]
        with pytest.raises(ValueError):
            codes.parse_barcode(changed)


@given(
    centavos=st.integers(min_value=1, max_value=10**9),
    txid=st.from_regex(r"\A[A-Za-z0-9]{1,25}\Z"),
    name=st.text(min_size=1, max_size=40).filter(lambda t: codes.plain_ascii(t)),
)
def test_every_br_code_has_its_fields_and_a_good_crc(centavos, txid, name):
    amount = Decimal(centavos) / 100
    payload = codes.pix_payload(key="12345678909", name=name, city="Olímpia", amount=amount, txid=txid)
    assert codes.pix_crc_ok(payload)
    fields = codes.parse_tlv(payload)
    assert fields["54"] == f"{amount:.2f}" and fields["53"] == "986" and fields["58"] == "BR"
    assert codes.parse_tlv(fields["26"]) == {"00": "br.gov.bcb.pix", "01": "12345678909"}
    assert codes.parse_tlv(fields["62"]) == {"05": txid}
    assert fields["60"] == "OLIMPIA" and len(fields["59"]) <= 25


@pytest.mark.parametrize(
    "key, kind",
    [
        ("52998224725", "cpf"),
        ("11222333000181", "cnpj"),
        ("tesouraria@olimpia.sp.gov.br", "email"),
        ("+5517999998888", "phone"),
        ("123e4567-e12b-12d1-a456-426655440000", "evp"),
        ("52998224724", None),
        ("+551799", None),
        ("nada", None),
    ],
)
def test_pix_key_forms(key, kind):
    assert codes.pix_key_kind(key) == kind


# --------------------------------------------------------------------------- the agreement


def test_the_agreement_is_checked_and_kept(database):
    from models.billing.collection.agreement import get_agreement, set_agreement

    assert not get_agreement().configured
    with pytest.raises(FieldErrors) as caught:
        set_agreement(agreement="12a4", value_id="7", pix_key="123", pix_name="", pix_city="x" * 16)
    assert set(caught.value.errors) == {"agreement", "value_id", "pix_key", "pix_name", "pix_city"}
    assert not get_agreement().configured  # nothing stored half-way
    found = set_agreement(
        agreement="1234",
        value_id="8",
        pix_key="11.222.333/0001-81",
        pix_name="Prefeitura de Olímpia",
        pix_city="Olímpia",
    )
    assert (found.agreement, found.value_id, found.pix_key, found.pix_kind) == ("1234", "8", "11222333000181", "CNPJ")


def test_the_command_line_sets_and_shows(database, capsys):
    from models.store.bootstrap import close_database

    close_database()
    base = ["--db", database, "collection"]
    assert main([*base, "show"]) == 0
    assert "não cadastrado" in capsys.readouterr().out
    assert (
        main(
            [
                *base,
                "set",
                "--agreement",
                "0042",
                "--value-id",
                "6",
                "--pix-key",
                "+55 17 99999-8888",
                "--pix-name",
                "Prefeitura de Olímpia",
                "--pix-city",
                "Olímpia",
            ]
        )
        == 0
    )
    assert "0042" in capsys.readouterr().out
    assert main([*base, "show", "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["agreement"] == "0042" and shown["pix_key"] == "+5517999998888" and shown["pix_kind"] == "telefone"
    assert main([*base, "set", "--agreement", "42", "--value-id", "6"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "4 algarismos" in err


def test_cadastros_arrecadacao_marks_the_wrong_field_and_saves(database, qtbot):
    from conftest import type_text
    from PySide6.QtCore import Qt

    from models.billing.collection.agreement import get_agreement
    from views.registry import RegistryPage

    registry = RegistryPage()
    qtbot.addWidget(registry)
    registry.refresh()
    page = registry.collection_page
    assert registry.tabs.tabText(registry.tabs.indexOf(page)) == "Arrecadação"
    type_text(page.agreement, "12")
    page.value_id.setCurrentIndex(page.value_id.findData("8"))
    type_text(page.pix_key, "tesouraria@olimpia.sp.gov.br")
    qtbot.mouseClick(page.save_button, Qt.MouseButton.LeftButton)
    assert "4 algarismos" in page.error.text() and page.agreement.toolTip()
    assert "nome do recebedor" in page.pix_name.toolTip()
    assert not get_agreement().configured
    type_text(page.agreement, "34")
    type_text(page.pix_name, "Prefeitura de Olímpia")
    type_text(page.pix_city, "Olímpia")
    type_text(page.fine_percent, "2")
    qtbot.mouseClick(page.save_button, Qt.MouseButton.LeftButton)
    assert "Informe a fonte" in page.late_source.toolTip()  # a rate without its article is refused
    assert not get_agreement().configured  # nothing stored half-way
    type_text(page.late_source, "LC nº 10/2003, art. 120")
    qtbot.mouseClick(page.save_button, Qt.MouseButton.LeftButton)
    assert page.message.text() == "Convênio de arrecadação salvo."
    from models.billing.collection.late import get_late_rules

    assert get_late_rules().configured and get_late_rules().source == "LC nº 10/2003, art. 120"
    assert (get_agreement().agreement, get_agreement().value_id, get_agreement().pix_kind) == ("1234", "8", "e-mail")


# --------------------------------------------------------------------------- guias

TODAY = dt.date(2026, 3, 10)


def _setup_agreement(value_id: str = "6"):
    from models.billing.collection.agreement import set_agreement

    return set_agreement(
        agreement="0042",
        value_id=value_id,
        pix_key="11222333000181",
        pix_name="Prefeitura de Olímpia",
        pix_city="Olímpia",
    )


def _decode(pdf: Path, tmp_path: Path, dpi: int = 200) -> list[str]:
    subprocess.run(["pdftoppm", "-r", str(dpi), "-png", str(pdf), str(tmp_path / f"page{dpi}")], check=True)
    pages = sorted(tmp_path.glob(f"page{dpi}*.png"))
    out = subprocess.run(["zbarimg", "--raw", "-q", *map(str, pages)], capture_output=True, text=True)
    return [line for line in out.stdout.splitlines() if line]


def test_a_guia_is_issued_printed_and_read_back_by_zbar(database, tmp_path):
    from factories import person

    from models.billing.collection.guias import guia_json, issue_guia
    from reports.guia_pdf import write_guia_pdf

    _setup_agreement()
    vendor = person("Carlos Alberto Nunes")
    first, second = _fine(vendor), _fine(vendor, "45,50", label="Diária de depósito")
    guia = issue_guia([first, second], today=TODAY)
    data = guia_json(guia)
    assert data["amount"] == "345.50" and data["due"] == "20/03/2026" and guia.number == "2026/000001"
    read = codes.parse_barcode(guia.barcode)
    assert (read.value_id, read.segment, read.centavos, read.agreement) == ("6", "1", 34550, "0042")
    assert read.free == "00000" + "2026" + "00000001" + "20260320"
    assert codes.barcode_from_linha(data["linha_digitavel"]) == guia.barcode
    pix = codes.parse_tlv(guia.pix)
    assert pix["54"] == "345.50" and codes.parse_tlv(pix["62"])["05"] == guia.txid and codes.pix_crc_ok(guia.pix)
    pdf = write_guia_pdf(guia, tmp_path / "guia.pdf")
    decoded = _decode(pdf, tmp_path)
    assert guia.barcode in decoded and guia.pix in decoded
    assert guia.pix in _decode(pdf, tmp_path, dpi=100)  # the Pix QR reads at 100 dpi too (issue 32 §2)
    text = pdf_text(pdf)
    assert (
        "Carlos Alberto Nunes" in text and "LC 324/2025, art. 160" in text and "R$ 345,50" in text.replace("\xa0", " ")
    )
    assert codes.format_linha(data["linha_digitavel"]) in text


def test_a_second_guia_replaces_the_first_and_bad_charges_are_refused(database):
    from factories import person

    from models.base.errors import UserError
    from models.billing.collection.guias import issue_guia

    with pytest.raises(UserError, match="convênio de arrecadação não está cadastrado"):
        issue_guia([_fine(person("Ana Maria Souza"))], today=TODAY)
    _setup_agreement("8")
    ana, bia = person("Ana Paula Lima"), person("Beatriz Costa")
    fine = _fine(ana)
    first = issue_guia([fine], today=TODAY)
    again = issue_guia([fine], today=TODAY)
    assert codes.parse_barcode(again.barcode).value_id == "8"
    first = type(first).get_by_id(first.id)
    assert (first.status, first.replaced_by, again.replaces) == ("replaced", again.number, first.number)
    with pytest.raises(UserError, match="um só devedor"):
        issue_guia([fine, _fine(bia)], today=TODAY)


def test_praca_guia_writes_the_pdf_and_prints_json(database, tmp_path, capsys):
    from factories import person

    from models.store.bootstrap import close_database

    _setup_agreement()
    fine = _fine(person("Carlos Alberto Nunes"))
    number = fine.number
    close_database()
    out = tmp_path / "guia.pdf"
    assert main(["--db", database, "guia", "--charge", number, "--out", str(out), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["amount"] == "300.00" and len(data["barcode"]) == 44 and len(data["linha_digitavel"]) == 48
    assert data["pix"].startswith("000201") and out.exists()
    sqlite_file = database.removeprefix("sqlite:///")
    if database.startswith("sqlite"):  # over the open database: refused, and no guia issued for it
        assert main(["--db", database, "guia", "--charge", number, "--out", sqlite_file]) == 2
        assert "banco de dados" in capsys.readouterr().err
    assert main(["--db", database, "guia", "--charge", "2026/99999", "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "não encontrada" in err
    from models.billing.collection.tables import Guia
    from models.store.bootstrap import open_database

    open_database(database)
    assert Guia.select().count() == 1


def test_the_guia_button_on_cobranca_saves_the_selected_charges_guia(database, qtbot, app_ready, tmp_path):
    from factories import person

    from models.billing.collection.guias import guia_lines
    from models.billing.collection.tables import Guia
    from views.charges_page import ChargesTab

    vendor = person("Carlos Alberto Nunes")
    fine = _fine(vendor)
    tab = ChargesTab(today=TODAY)
    qtbot.addWidget(tab)
    tab.show()
    tab.set_month(2026, 3)
    tab.table.selectRow(0)
    assert tab.guia_button.isEnabled()
    out = tmp_path / "guia.pdf"
    assert tab.guia_selected(str(out)) is None  # no agreement yet: said on the message line, nothing issued
    assert "convênio de arrecadação" in tab.message.text() and Guia.select().count() == 0 and not out.exists()
    _setup_agreement()
    tab.table.selectRow(0)
    guia = tab.guia_selected(str(out))
    assert guia is not None and out.exists() and f"Guia nº {guia.number}" in tab.message.text()
    assert [line.number for line in guia_lines(guia)] == [fine.number]


# --------------------------------------------------------------------------- the bank's return file

SAMPLE_RETURN = (  # a published example of the layout (bank 341, layout 04): two G records, totals that add up
    "A20000855470019       TESTETESTETESTETESTE341BANCO ITAU S.A.     2017040500000104CODIGO DE BARRAS" + " " * 53,
    "G3419999000000099999920170404201704058163000000241850299000000000010022203170100000000002418500001400000000109332"
    "   2001 093300001040417C   1         ",
    "G3419999000000099999920170404201704058168000000092870299000000000010000093170300000000000928700001400000000209332"
    "   2002 093300001040417C   1         ",
    "Z00000400000000000033472" + " " * 126,
)


def test_the_published_sample_reads_with_the_layouts_positions():
    from models.billing.collection.returns import parse_return

    parsed = parse_return("\r\n".join(SAMPLE_RETURN).encode("ascii"))
    h = parsed.header
    assert (h.agreement, h.bank_code, h.generated_on, h.nsa, h.layout) == (
        "0000855470019",
        "341",
        dt.date(2017, 4, 5),
        1,
        "04",
    )
    assert [
        (d.paid_on, d.credited_on, d.centavos, d.fee_centavos, d.nsr, d.collected, d.paid_by) for d in parsed.details
    ] == [
        (dt.date(2017, 4, 4), dt.date(2017, 4, 5), 24185, 140, 1, "2", "1"),
        (dt.date(2017, 4, 4), dt.date(2017, 4, 5), 9287, 140, 2, "2", "1"),
    ]
    assert parsed.details[0].barcode.startswith("8163") and (parsed.count, parsed.total_centavos) == (4, 33472)


def _issued(vendor_name: str, amount: str = "300,00", value_id: str = "6"):
    from factories import person

    from models.billing.collection.guias import issue_guia

    vendor = person(vendor_name)
    fine = _fine(vendor, amount)
    return issue_guia([fine], today=TODAY), fine


def test_a_guia_paid_by_a_return_file_shows_paid_and_the_same_file_again_changes_nothing(database, tmp_path, capsys):
    from models.billing.charges import Charge, Payment
    from models.billing.collection.returns import build_return
    from models.billing.collection.tables import Guia, ReturnFile
    from models.store.bootstrap import close_database

    _setup_agreement()
    paid, fine = _issued("Carlos Alberto Nunes")
    less, short = _issued("Ana Paula Lima", "120,00")
    late, late_fine = _issued("Beatriz Costa", "80,00")
    data = build_return(
        agreement="0042",
        nsa=7,
        generated_on=TODAY,
        payments=[
            (paid.barcode, 30000, TODAY),
            (less.barcode, 10000, TODAY),
            (late.barcode, 8000, late.due_on + dt.timedelta(days=3)),
            ("8" * 44, 500, TODAY),
        ],
    )
    ret = tmp_path / "RET0007.txt"
    ret.write_bytes(data)
    close_database()
    base = ["--db", database, "payments", "import", str(ret)]
    assert main([*base, "--dry-run", "--json"]) == 0
    preview = json.loads(capsys.readouterr().out)
    assert [i["category"] for i in preview["items"]] == ["paid", "less", "late", "unknown"]
    assert preview["items"][1]["still_owed"] == "20.00" and preview["dry_run"] and preview["payments"] == 0
    assert main([*base, "--json"]) == 0
    done = json.loads(capsys.readouterr().out)
    assert done["payments"] == 3 and not done["already_imported"]
    assert main(base) == 0
    assert "já foi importado" in capsys.readouterr().out
    from models.store.bootstrap import open_database

    open_database(database)
    from models.billing.collection.guias import guia_state

    assert Charge.get_by_id(fine.id).status == "paid" and guia_state(Guia.get_by_id(paid.id)) == "paid"
    assert Charge.get_by_id(short.id).status == "open" and Charge.get_by_id(short.id).open_amount == Decimal("20.00")
    assert Charge.get_by_id(late_fine.id).status == "paid"
    assert Payment.select().count() == 3 and ReturnFile.select().count() == 1
    source = Payment.get(Payment.guia_id == paid.id)  # the payment's source on its own row (schema v33)
    assert (ReturnFile.get_by_id(source.return_file_id).nsa, source.record, source.channel) == (7, 2, "bank")
    assert source.barcode == paid.barcode


def _lines(data: bytes) -> list[str]:
    return data.decode("ascii").split("\r\n")[:-1]


def _join(lines: list[str]) -> bytes:
    return ("\r\n".join(lines) + "\r\n").encode("ascii")


@pytest.mark.parametrize(
    "damage, fragment",
    [
        (lambda ls: [ls[0].replace("A20042", "A20043", 1), *ls[1:]], "registro 1: o arquivo é do convênio 0043"),
        (lambda ls: [ls[0], ls[1][:120], *ls[2:]], "registro 2: tem 120 caracteres"),
        (lambda ls: [ls[0], ls[1][:81] + "00000000X000" + ls[1][93:], *ls[2:]], "registro 2: o valor recebido não é"),
        (lambda ls: [ls[0], "H" + ls[1][1:], *ls[2:]], "registro 2: tipo de registro desconhecido 'H'"),
        (
            lambda ls: [ls[0], ls[1][:21] + "20260230" + ls[1][29:], *ls[2:]],
            "registro 2: a data de pagamento não existe",
        ),
        (lambda ls: [*ls[:-1], ls[-1][:1] + "000005" + ls[-1][7:]], "diz 5 registros, o arquivo tem 4"),
        (lambda ls: [*ls[:-1], ls[-1][:7] + f"{1:017d}" + ls[-1][24:]], "a soma dos registros G"),
    ],
)
def test_a_bad_return_file_is_one_line_naming_the_record_and_nothing_is_imported(
    database, tmp_path, capsys, damage, fragment
):
    from models.billing.charges import Payment
    from models.billing.collection.returns import build_return
    from models.billing.collection.tables import ReturnFile
    from models.store.bootstrap import close_database

    _setup_agreement()
    a, _f = _issued("Carlos Alberto Nunes")
    b, _g = _issued("Ana Paula Lima")
    good = build_return(
        agreement="0042", nsa=1, generated_on=TODAY, payments=[(a.barcode, 30000, TODAY), (b.barcode, 30000, TODAY)]
    )
    ret = tmp_path / "RET.txt"
    ret.write_bytes(_join(damage(_lines(good))))
    close_database()
    assert main(["--db", database, "payments", "import", str(ret)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and fragment in err, err
    from models.store.bootstrap import open_database

    open_database(database)
    assert Payment.select().count() == 0 and ReturnFile.select().count() == 0


def test_overpaid_and_twice_paid_records_need_consent_and_become_credits(database, tmp_path):
    from models.billing.collection.bank_files import import_return
    from models.billing.collection.returns import ReturnFileError, build_return
    from models.billing.collection.tables import Credit

    _setup_agreement()
    guia, fine = _issued("Carlos Alberto Nunes")
    ret = tmp_path / "RET.txt"
    ret.write_bytes(
        build_return(
            agreement="0042",
            nsa=2,
            generated_on=TODAY,
            payments=[(guia.barcode, 30000, TODAY), (guia.barcode, 30000, TODAY)],
        )
    )
    with pytest.raises(ReturnFileError, match="registro 3: pago em duplicidade"):
        import_return(ret, today=TODAY)
    assert Credit.select().count() == 0
    result = import_return(ret, accept_overpayment=True, today=TODAY)
    assert [i.category for i in result.preview.items] == ["paid", "twice"]
    credit = Credit.get()
    assert (credit.amount, credit.person_id, credit.record) == (Decimal("300.00"), fine.person_id, 3)


def test_a_return_file_updates_its_charges_in_one_audit_entry_and_the_chain_holds(database, tmp_path):
    """Issue 30 §4's budget: the charges a return file pays are one audit entry (not one per charge), which lists
    every charge's paid total and status (its ``charge_state``) before and after, and ``praca audit verify`` finds the
    chain intact."""
    from models.billing.charges import Charge
    from models.billing.collection.bank_files import import_return
    from models.billing.collection.returns import build_return
    from models.store.audit import AuditEntry, bulk_rows, verify_chain

    _setup_agreement()
    issued = [_issued(name, amount) for name, amount in [("Carlos Nunes", "300,00"), ("Ana Lima", "120,00")]]
    issued.append(_issued("Beatriz Costa", "80,00"))
    ret = tmp_path / "RET.txt"
    payments = [(issued[0][0].barcode, 30000, TODAY), (issued[1][0].barcode, 10000, TODAY)]
    payments.append((issued[2][0].barcode, 8000, TODAY))
    ret.write_bytes(build_return(agreement="0042", nsa=3, generated_on=TODAY, payments=payments))
    last = AuditEntry.select(AuditEntry.id).order_by(AuditEntry.id.desc()).scalar()
    import_return(ret, today=TODAY)
    updates = list(
        AuditEntry.select().where(
            (AuditEntry.id > last) & (AuditEntry.table_name == "charge_state") & (AuditEntry.action == "update")
        )
    )
    assert len(updates) == 1 and "arquivo de retorno RET.txt: 3 registro(s)" in updates[0].note
    # what is paid and the status live in charge_state (schema v32): the charge's own row is not written
    assert not AuditEntry.select().where((AuditEntry.id > last) & (AuditEntry.table_name == "charge")).exists()
    before = {row["id"]: row for row in bulk_rows(updates[0].before)}
    after = {row["id"]: row for row in bulk_rows(updates[0].after)}
    ids = [fine.id for _guia, fine in issued]
    assert sorted(after) == sorted(ids)
    assert [after[i]["status"] for i in ids] == ["paid", "open", "paid"]
    assert [before[i]["status"] for i in ids] == ["open"] * 3
    assert [Decimal(after[i]["paid_total"]) for i in ids] == [Decimal("300.00"), Decimal("100.00"), Decimal("80.00")]
    assert Charge.get_by_id(ids[1]).status == "open"
    assert verify_chain().intact


# --------------------------------------------------------------------------- reversal and overpayment


def test_a_reversal_is_a_new_act_and_the_charge_reopens(database, tmp_path, capsys):
    from models.billing.charges import Charge, Payment
    from models.billing.collection.bank_files import import_return
    from models.billing.collection.returns import build_return
    from models.billing.collection.tables import Guia, Reversal
    from models.store.bootstrap import close_database, open_database

    _setup_agreement()
    guia, fine = _issued("Carlos Alberto Nunes")
    ret = tmp_path / "RET.txt"
    ret.write_bytes(build_return(agreement="0042", nsa=3, generated_on=TODAY, payments=[(guia.barcode, 30000, TODAY)]))
    import_return(ret, today=TODAY)
    payment = Payment.get()
    before = (payment.amount, payment.paid_on, payment.reference)
    close_database()
    base = ["--db", database, "payments", "reverse", str(payment.id)]
    assert main(base) == 2
    assert "Informe o motivo do estorno" in capsys.readouterr().err
    assert main([*base, "--reason", "Cheque devolvido", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["charge_status"] == "open" and out["amount"] == "300.00"
    assert main([*base, "--reason", "de novo"]) == 2
    assert "já foi estornado" in capsys.readouterr().err
    open_database(database)
    payment = Payment.get()
    assert (payment.amount, payment.paid_on, payment.reference) == before  # the payment itself is never edited
    assert Reversal.get().payment_id == payment.id and Reversal.get().reason == "Cheque devolvido"
    charge = Charge.get_by_id(fine.id)
    assert (charge.status, charge.paid_total, charge.open_amount) == ("open", Decimal("0.00"), Decimal("300.00"))
    from models.billing.collection.guias import guia_state

    assert guia_state(Guia.get_by_id(guia.id)) == "open"


def test_an_overpayment_is_refused_on_the_command_line_without_consent(database, capsys):
    from factories import person

    from models.billing.charges import Payment
    from models.billing.collection.tables import Credit
    from models.store.bootstrap import close_database, open_database

    fine = _fine(person("Carlos Alberto Nunes"))
    close_database()
    base = [
        "--db",
        database,
        "payments",
        "record",
        "--charge",
        fine.number,
        "--amount",
        "1.500",
        "--paid-on",
        "10/03/2026",
        "--reference",
        "REC-1",
    ]
    assert main(base) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Pagamento a maior: R$ 1.500,00" in err and "R$ 1.200,00" in err
    open_database(database)
    assert Payment.select().count() == 0
    close_database()
    assert main([*base, "--accept-overpayment"]) == 0
    open_database(database)
    assert [p.amount for p in Payment.select()] == [Decimal("1500.00")]
    assert [c.amount for c in Credit.select()] == [Decimal("1200.00")]


def test_the_desk_asks_before_an_overpayment_and_reverses_a_payment(database, qtbot, app_ready):
    """The defect the issue found: "1.500" typed on a R$ 300,00 fine was saved at once and only then warned."""
    from conftest import run_modal, type_text
    from factories import person
    from PySide6.QtCore import Qt

    from models.billing.charges import Charge, Payment
    from models.billing.collection.tables import Credit, Reversal
    from views.charges_page import ChargesTab

    fine = _fine(person("Carlos Alberto Nunes"))
    tab = ChargesTab(today=TODAY)
    qtbot.addWidget(tab)
    tab.show()
    tab.set_month(2026, 3)
    tab.table.selectRow(0)
    assert not tab.reverse_button.isEnabled()

    def type_1500(dialog, answer):
        asked = []
        dialog.ask_overpayment = lambda text: asked.append(text) or answer
        dialog.amount.clear()
        type_text(dialog.amount, "1.500")
        type_text(dialog.reference, "REC-1")
        qtbot.mouseClick(dialog.save_button, Qt.MouseButton.LeftButton)
        assert asked and "R$ 1.200,00" in asked[0], dialog.error.text()
        assert Payment.select().count() == (1 if answer else 0)  # nothing saved before the answer

    run_modal(lambda: tab.pay_selected(), lambda d: type_1500(d, False))
    assert Payment.select().count() == 0
    tab.table.selectRow(0)
    run_modal(lambda: tab.pay_selected(), lambda d: type_1500(d, True))
    assert [c.amount for c in Credit.select()] == [Decimal("1200.00")]
    tab.table.selectRow(0)
    assert tab.reverse_button.isEnabled() and not tab.cancel_button.isEnabled()
    reversal = tab.reverse_selected(reason="Digitado errado: eram R$ 300,00")
    assert reversal is not None and "volta a ficar em aberto" in tab.message.text()
    assert Charge.get_by_id(fine.id).status == "open" and Reversal.select().count() == 1
    assert Credit.get().status == "reversed"
    tab.table.selectRow(0)
    assert "estornado" in tab.detail.text() and tab.cancel_button.isEnabled()


def test_cobranca_importar_retorno_previews_then_imports_once(database, qtbot, app_ready, tmp_path, steps):
    """The preview and the import run on a worker (issue 27 §5): no statement on the GUI thread."""
    from models.billing.charges import Charge
    from models.billing.collection.returns import build_return
    from views.charges_page import ChargesTab

    _setup_agreement()
    guia, fine = _issued("Carlos Alberto Nunes")
    good = tmp_path / "RET.txt"
    good.write_bytes(
        build_return(
            agreement="0042",
            nsa=9,
            generated_on=TODAY,
            payments=[(guia.barcode, 30000, TODAY), (guia.barcode, 30000, TODAY)],
        )
    )
    bad = tmp_path / "BAD.txt"
    bad.write_bytes(_join([*_lines(good.read_bytes())[:-1], "Z000004" + "0" * 17]))
    tab = ChargesTab(today=TODAY)
    qtbot.addWidget(tab)
    tab.show()
    tab.set_month(2026, 3)
    assert tab.bank_return_button.isEnabled()

    def drive(dialog):
        with steps("arquivo recusado"):
            assert not dialog.load(str(bad)) and "registro 4" in dialog.error.text()
        assert not dialog.import_button.isEnabled()
        with steps("prévia"):
            assert dialog.load(str(good)) and dialog.model.rowCount() == 2
        assert dialog.model.index(1, 5).data() == "pago em duplicidade"
        assert Charge.get_by_id(fine.id).status == "open"  # the preview writes nothing
        asked = []
        dialog.ask_overpayment = lambda text: asked.append(text) or True
        with steps("importar"):
            dialog.import_()
        assert asked and "300,00" in asked[0] and "1 crédito(s)" in dialog.message.text()
        with steps("o mesmo arquivo de novo"):
            assert dialog.load(str(good)) and "já foi importado" in dialog.message.text()
        assert not dialog.import_button.isEnabled()

    result = tab.import_return(dialog_hook=drive)
    assert result is not None and result.payments == 1
    assert Charge.get_by_id(fine.id).status == "paid" and tab.model.rows[0].situation != "em aberto"
    steps.gui.pop("arquivo recusado")  # refused while parsing: no statement at all
    steps.worker.pop("arquivo recusado")
    steps.check()


# --------------------------------------------------------------------------- late payment (§3)

CTM = "Lei Complementar nº 10/2003 (Código Tributário de Olímpia), art. 120"


@pytest.mark.parametrize(
    "due, on, months",
    [
        (dt.date(2026, 1, 20), dt.date(2026, 1, 20), 0),
        (dt.date(2026, 1, 20), dt.date(2026, 1, 21), 1),
        (dt.date(2026, 1, 20), dt.date(2026, 2, 20), 1),
        (dt.date(2026, 1, 20), dt.date(2026, 2, 21), 2),
        (dt.date(2026, 1, 31), dt.date(2026, 3, 1), 2),
        (dt.date(2025, 12, 10), dt.date(2026, 3, 10), 3),
    ],
)
def test_a_month_begun_counts_whole(due, on, months):
    from models.billing.collection.late import months_late

    assert months_late(due, on) == months


def test_late_rules_are_the_towns_with_their_source(database, capsys):
    from models.billing.collection.late import get_late_rules, set_late_rules
    from models.store.bootstrap import close_database

    assert not get_late_rules().configured
    with pytest.raises(FieldErrors) as caught:
        set_late_rules(fine_percent="2", interest_percent="x", source="", due_days="0")
    assert set(caught.value.errors) == {"interest_percent", "source", "due_days"}
    close_database()
    base = ["--db", database, "collection", "late"]
    assert main([*base, "--fine-percent", "2", "--interest-percent", "1", "--source", CTM]) == 0
    assert "gravadas" in capsys.readouterr().out
    assert main([*base, "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["fine_percent"] == "2" and shown["interest_percent_month"] == "1" and shown["source"] == CTM


def test_a_second_copy_after_the_due_date_carries_multa_and_juros_and_cancels_the_first(database):
    from factories import person

    from models.billing.charges import Charge
    from models.billing.collection.guias import guia_lines, issue_guia
    from models.billing.collection.late import set_late_rules
    from models.billing.collection.tables import Guia

    _setup_agreement()
    set_late_rules(fine_percent="2", interest_percent="1", source=CTM, due_days="5")
    fine = _fine(person("Carlos Alberto Nunes"), due=dt.date(2026, 1, 20))
    first = issue_guia([fine], today=dt.date(2026, 1, 10))
    assert first.amount == Decimal("300.00") and first.due_on == dt.date(2026, 1, 20)
    second = issue_guia([fine], today=dt.date(2026, 3, 10))
    # new due date 15/03/2026: 2 months begun after 20/01 → multa 2% = 6,00; juros 1% × 2 × 300,00 = 6,00
    assert second.due_on == dt.date(2026, 3, 15) and second.amount == Decimal("312.00")
    assert Guia.get_by_id(first.id).status == "replaced" and second.replaces == first.number
    late = Charge.get((Charge.kind == "late") & (Charge.source == fine.number))
    assert late.amount == Decimal("12.00") and late.basis == CTM and "2 mês(es)" in late.formula
    assert [line.number for line in guia_lines(second)] == sorted([fine.number, late.number])
    third = issue_guia([fine], today=dt.date(2026, 3, 25))  # past the second's date: recomputed, not added twice
    assert Charge.get_by_id(late.id).status == "cancelled"
    assert third.amount == Decimal("315.00") and third.due_on == dt.date(2026, 3, 30)  # 3 months: 6,00 + 9,00


def test_a_guia_paid_after_its_due_date_leaves_the_multa_and_juros_owed_named(database, tmp_path):
    from models.billing.charges import Charge
    from models.billing.collection.bank_files import import_return
    from models.billing.collection.late import set_late_rules
    from models.billing.collection.returns import build_return

    _setup_agreement()
    set_late_rules(fine_percent="2", interest_percent="1", source=CTM, due_days="5")
    guia, fine = _issued("Carlos Alberto Nunes")  # due 20/03/2026
    ret = tmp_path / "RET.txt"
    ret.write_bytes(
        build_return(
            agreement="0042",
            nsa=4,
            generated_on=dt.date(2026, 4, 6),
            payments=[(guia.barcode, 30000, dt.date(2026, 4, 3))],
        )
    )
    result = import_return(ret, today=dt.date(2026, 4, 6))
    item = result.preview.items[0]
    assert item.category == "late" and item.late_owed == Decimal("9.00")  # 2% + 1% × 1 month of R$ 300,00
    assert "ficam devidos R$ 9,00 de multa e juros de mora" in item.note and CTM in item.note
    assert Charge.get_by_id(fine.id).status == "paid"
    owed = Charge.get((Charge.kind == "late") & (Charge.source == fine.number))
    assert (owed.amount, owed.status, owed.due_on) == (Decimal("9.00"), "open", dt.date(2026, 4, 11))


# --------------------------------------------------------------------------- dívida ativa (§6)


def test_debts_export_lists_what_the_law_asks_and_confirm_inscribes(database, tmp_path, capsys):
    import csv as _csv

    from factories import person
    from openpyxl import load_workbook

    from models.billing.charges import Charge, charge_rows, debts_of
    from models.billing.collection.late import set_late_rules
    from models.billing.collection.tables import DebtInscription
    from models.store.bootstrap import close_database, open_database

    set_late_rules(fine_percent="2", interest_percent="1", source=CTM, due_days="5", debt_term="30")
    vendor = person("Carlos Alberto Nunes")
    old = _fine(vendor, "300,00", due=dt.date(2026, 1, 20))
    recent = _fine(vendor, "50,00", due=dt.date(2026, 3, 1))  # within the 30 days' term on 10/03
    close_database()
    base = ["--db", database, "debts", "export", "--as-of", "10/03/2026"]
    assert main([*base, "--format", "csv", "--out", str(tmp_path / "d.csv"), "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert listed["charges"] == [old.number] and listed["updated_total"] == "312.00" and not listed["inscribed"]
    with (tmp_path / "d.csv").open(encoding="utf-8-sig") as fh:
        rows = list(_csv.reader(fh, delimiter=";"))
    header, row = rows[0], dict(zip(rows[0], rows[1], strict=True))
    assert header[2] == "Devedor (§ 5º, I)" and row["Devedor (§ 5º, I)"] == "Carlos Alberto Nunes"
    assert row["Valor originário (§ 5º, II)"] == "300,00" and row["Valor atualizado"] == "312,00"
    assert CTM in row["Forma de calcular juros e encargos (§ 5º, II)"] and row["Fundamento legal (§ 5º, III)"]
    assert main([*base, "--format", "xlsx", "--out", str(tmp_path / "d.xlsx"), "--confirm"]) == 0
    assert "inscritas" in capsys.readouterr().out
    sheet = load_workbook(tmp_path / "d.xlsx").active
    assert sheet.cell(4, 1).value == "2026/00001" and sheet.cell(4, 7).value == old.number
    open_database(database)
    assert Charge.get_by_id(old.id).status == "inscribed" and DebtInscription.get().charge_id == old.id
    assert Charge.get_by_id(recent.id).status == "open"
    assert [r.number for r in charge_rows(year=2026, month=1, status="open", text="", today=TODAY)] == []
    assert debts_of("person", vendor.id, today=TODAY)  # still a debt for eligibility
    close_database()
    assert main([*base, "--format", "ods", "--out", str(tmp_path / "d.ods")]) == 2
    assert "Formato inválido" in capsys.readouterr().err


def test_cobranca_divida_ativa_exports_then_inscribes_when_confirmed(database, qtbot, app_ready, tmp_path, steps):
    """Exported and inscribed on a worker (issue 27 §5): no statement on the GUI thread."""
    from factories import person

    from models.billing.charges import Charge
    from models.billing.collection.late import set_late_rules
    from views.debts_panel import DebtsPanel

    set_late_rules(fine_percent="0", interest_percent="0", source="", due_days="5", debt_term="30")
    old = _fine(person("Carlos Alberto Nunes"), due=dt.date(2026, 1, 20))
    panel = DebtsPanel(today=lambda: TODAY)
    qtbot.addWidget(panel)
    with steps("exportar"):
        rows = panel.export(str(tmp_path / "lista.xlsx"))
    assert [r.charge.number for r in rows] == [old.number] and "nada foi inscrito" in panel.message.text()
    panel.ask_confirm = lambda text: False
    assert panel.export(str(tmp_path / "d.xlsx"), confirm=True) is None
    assert Charge.get_by_id(old.id).status == "open"
    panel.ask_confirm = lambda text: True
    panel.format.setCurrentIndex(panel.format.findData("csv"))
    with steps("exportar e inscrever"):
        assert panel.export(str(tmp_path / "d.csv"), confirm=True)
    assert Charge.get_by_id(old.id).status == "inscribed" and "inscritas" in panel.message.text()
    steps.check()


# --------------------------------------------------------------------------- OFX statements (§4)


def _ofx(credits: list[tuple[str, str, str, str]]) -> bytes:
    """An OFX 1.02 statement (SGML, as Brazilian banks send it): (fitid, AAAAMMDD, amount, memo) per credit,
    and a debit that is ignored."""
    rows = "".join(
        f"<STMTTRN><TRNTYPE>CREDIT<DTPOSTED>{day}120000<TRNAMT>{amount}<FITID>{fitid}<NAME>PIX RECEBIDO"
        f"<MEMO>{memo}</STMTTRN>"
        for fitid, day, amount, memo in credits
    )
    body = (
        "<OFX><SIGNONMSGSRSV1><SONRS><STATUS><CODE>0<SEVERITY>INFO</STATUS><DTSERVER>20260320120000"
        "<LANGUAGE>POR</SONRS></SIGNONMSGSRSV1><BANKMSGSRSV1><STMTTRNRS><TRNUID>1<STATUS><CODE>0<SEVERITY>INFO"
        "</STATUS><STMTRS><CURDEF>BRL<BANKACCTFROM><BANKID>001<ACCTID>123456<ACCTTYPE>CHECKING</BANKACCTFROM>"
        "<BANKTRANLIST><DTSTART>20260301<DTEND>20260320" + rows + "<STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20260315120000"
        "<TRNAMT>-10.00<FITID>D1<NAME>TARIFA</STMTTRN></BANKTRANLIST><LEDGERBAL><BALAMT>100.00<DTASOF>20260320"
        "</LEDGERBAL></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>"
    )
    header = (
        "OFXHEADER:100\r\nDATA:OFXSGML\r\nVERSION:102\r\nSECURITY:NONE\r\nENCODING:USASCII\r\nCHARSET:1252\r\n"
        "COMPRESSION:NONE\r\nOLDFILEUID:NONE\r\nNEWFILEUID:NONE\r\n\r\n"
    )
    return (header + body).encode("ascii")


def test_an_ofx_statement_pays_guias_by_the_pix_txid_once(database, tmp_path, capsys):
    from models.billing.charges import Charge, Payment
    from models.store.bootstrap import close_database, open_database

    _setup_agreement()
    guia, fine = _issued("Carlos Alberto Nunes")
    first = tmp_path / "extrato1.ofx"
    first.write_bytes(_ofx([("F1", "20260312", "300.00", f"PIX {guia.txid} CARLOS"), ("F2", "20260313", "5.00", "X")]))
    overlap = tmp_path / "extrato2.ofx"  # the next day's download repeats F1
    overlap.write_bytes(_ofx([("F1", "20260312", "300.00", f"PIX {guia.txid} CARLOS")]))
    close_database()
    base = ["--db", database, "payments", "import"]
    assert main([*base, str(first), "--json"]) == 0
    done = json.loads(capsys.readouterr().out)
    assert [i["category"] for i in done["items"]] == ["paid", "unknown"] and done["payments"] == 1
    assert main([*base, str(first)]) == 0 and "já foi importado" in capsys.readouterr().out
    assert main([*base, str(overlap), "--json"]) == 0
    again = json.loads(capsys.readouterr().out)
    assert [i["category"] for i in again["items"]] == ["already"] and again["payments"] == 0
    open_database(database)
    assert Charge.get_by_id(fine.id).status == "paid" and Payment.select().count() == 1
    source = Payment.get()
    assert (source.channel, source.guia_id, source.reference) == ("pix", guia.id, "PIX F1")
    close_database()
    bad = tmp_path / "ruim.ofx"
    bad.write_bytes(b"OFXHEADER:100\r\n\r\n<OFX><BANKMSGSRSV1>")
    assert main([*base, str(bad)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Extrato OFX ilegível" in err


# --------------------------------------------------------------------------- the monthly report (§7)


def test_the_monthly_report_shows_bank_desk_late_reversed_credits_and_inscribed_to_the_cent(database, tmp_path):
    import openpyxl
    from factories import person

    from models.billing.charges import Payment
    from models.billing.collection.bank_files import import_return
    from models.billing.collection.desk import record_desk_payment, reverse_payment
    from models.billing.collection.dividas import export_debts
    from models.billing.collection.late import set_late_rules
    from models.billing.collection.returns import build_return
    from reports.debts_export import writer
    from reports.fee_export import export_fee_report

    _setup_agreement()
    set_late_rules(fine_percent="0", interest_percent="0", source="", due_days="5", debt_term="10")
    guia, _bank_fine = _issued("Carlos Alberto Nunes")  # R$ 300,00 by the bank
    ret = tmp_path / "RET.txt"
    ret.write_bytes(build_return(agreement="0042", nsa=5, generated_on=TODAY, payments=[(guia.barcode, 30000, TODAY)]))
    import_return(ret, today=TODAY)
    late = _fine(person("Ana Paula Lima"), "80,00", due=dt.date(2026, 3, 5))  # at the desk, late, R$ 20,00 over
    record_desk_payment(late, paid_on=TODAY, amount="100,00", reference="REC-9", accept_overpayment=True, today=TODAY)
    reverse_payment(Payment.get(Payment.reference == "REC-9").id, reason="cheque devolvido", today=TODAY)
    _fine(person("Beatriz Costa"), "45,50", due=dt.date(2026, 2, 20))  # overdue beyond 10 days: inscribed
    export_debts(tmp_path / "d.csv", writer("csv", TODAY), as_of=TODAY, confirm=True, today=TODAY)
    expected = {
        "Recebido pelo banco (arquivo de retorno)": Decimal("300.00"),
        "Recebido por Pix (extrato)": Decimal("0.00"),
        "Recebido no balcão": Decimal("100.00"),
        "Pago com atraso": Decimal("100.00"),
        "Estornado": Decimal("100.00"),
        "Créditos de contribuintes": Decimal("20.00"),
        "Créditos usados em cobranças": Decimal("0.00"),
        "Créditos devolvidos": Decimal("0.00"),
        "Créditos em aberto no fim do mês": Decimal("0.00"),  # its payment was reversed: the credit with it
        "Inscrito em dívida ativa": Decimal("45.50"),
    }
    _path, report = export_fee_report(2026, 3, "xlsx", tmp_path / "taxas.xlsx", today=TODAY)
    assert {f.label: f.amount for f in report.collection.rows} == expected
    resumo = openpyxl.load_workbook(tmp_path / "taxas.xlsx", data_only=True)["Resumo"]
    shown = {r[0]: r[1] for r in resumo.iter_rows(min_row=4, max_row=60, max_col=2, values_only=True) if r[0]}
    assert {k: Decimal(str(shown[k])).quantize(Decimal("0.01")) for k in expected} == expected
    export_fee_report(2026, 3, "html", tmp_path / "taxas.html", today=TODAY)
    html = (tmp_path / "taxas.html").read_text(encoding="utf-8")
    for n, amount in enumerate(expected.values(), 1):
        assert f'id="arrecadacao-{n}" data-cents="{int(amount * 100)}"' in html
    export_fee_report(2026, 3, "pdf", tmp_path / "taxas.pdf", today=TODAY)
    text = pdf_text(tmp_path / "taxas.pdf")
    assert "Arrecadação do mês" in text and "Inscrito em dívida ativa" in text
