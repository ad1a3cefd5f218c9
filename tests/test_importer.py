"""Import of the town's lists: reading xlsx/csv, the mapping, every row checked, one transaction, the CLI."""

from __future__ import annotations

import datetime as dt
import json
import re
from decimal import Decimal

import pytest
from factories import IMPORT_HEADER as HEADER
from factories import cnpj_number as cnpj
from factories import cpf_number as cpf
from factories import open_new_database, vendor_rows, write_csv, write_xlsx
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from models.base.br import format_cpf
from models.base.errors import UserError
from models.services import importer
from models.services.importer import (
    Mapping,
    check_row,
    guess_mapping,
    parse_date,
    parse_size,
    preview_import,
    read_sheet,
)

TODAY = dt.date(2026, 11, 30)


# --------------------------------------------------------------------------- reading files


def test_xlsx_cells_become_text_dates_and_exact_numbers(tmp_path):
    path = write_xlsx(
        tmp_path / "lista.xlsx",
        [
            [None, None],
            ["Nome", "CPF", "Nascimento", "Frente", "Número"],
            ["Maria da Silva", int(cpf(5)), dt.datetime(1980, 2, 1), 2.5, 12],
            [None, None, None],
            ["José Pereira", cpf(6), "20/05/1975", 3, "12A"],
        ],
    )
    sheet = read_sheet(path)
    assert sheet.headers == ["Nome", "CPF", "Nascimento", "Frente", "Número"]
    assert [line for line, _cells in sheet.rows] == [3, 5]
    first = sheet.rows[0][1]
    assert first[2] == dt.date(1980, 2, 1)
    assert first[3] == Decimal("2.5") and first[4] == 12
    row = check_row(3, {"name": first[0], "cpf": first[1], "birth_date": first[2]}, today=TODAY)
    assert row.ok and row.cpf == cpf(5)  # a number cell gets its leading zeros back


def test_csv_semicolon_utf8_with_bom_and_comma_latin1(tmp_path):
    rows = [["Nome", "CPF", "Cidade"], ["Conceição Araújo", cpf(7), "São José"]]
    utf = write_csv(tmp_path / "a.csv", rows, encoding="utf-8-sig")
    latin = write_csv(tmp_path / "b.csv", rows, delimiter=",", encoding="latin-1")
    a, b = read_sheet(utf), read_sheet(latin)
    assert a.delimiter == ";" and b.delimiter == ","
    assert a.encoding == "utf-8-sig" and b.encoding in ("cp1252", "latin-1")
    assert a.headers == b.headers == ["Nome", "CPF", "Cidade"]
    assert a.rows == b.rows == [(2, ["Conceição Araújo", cpf(7), "São José"])]


NAMES = ["João Araújo", "Conceição Brandão", "Zé Maria", "Inês Guimarães", "Antônio Simões"]


def _mixed_csv(path, encodings: list[str]):
    """The issue's file: a header and five names, each row in the encoding given for it."""
    data = b"Nome;CPF\n"
    for i, (name, encoding) in enumerate(zip(NAMES, encodings, strict=True)):
        data += f"{name};{cpf(900 + i)}\n".encode(encoding)
    path.write_bytes(data)
    return path


def test_a_csv_mixing_utf8_and_latin1_rows_is_refused_naming_the_lines(database, tmp_path):
    """Issue 26 §7: read whole as Windows-1252, 4 of 5 names were stored as "JoÃ£o AraÃºjo" and the preview said
    "5 linhas corretas". Now the encoding is decided for the file, and a file of both is refused, naming them."""
    path = _mixed_csv(tmp_path / "misto.csv", ["utf-8", "latin-1", "utf-8", "utf-8", "utf-8"])
    with pytest.raises(UserError) as caught:
        read_sheet(path)
    message = caught.value.message
    assert message.startswith("misto.csv mistura codificações: a linha 3 não está em UTF-8")
    assert "as linhas 2, 4, 5, 6 estão em UTF-8" in message and "\n" not in message
    from models.registry.people import Person

    assert Person.select().count() == 0
    for encoding in ("utf-8", "latin-1"):  # the same names in one encoding: read as written
        sheet = read_sheet(_mixed_csv(tmp_path / f"{encoding}.csv", [encoding] * 5))
        assert [cells[0] for _line, cells in sheet.rows] == NAMES


def test_text_already_garbled_is_refused_in_csv_and_xlsx(tmp_path):
    """UTF-8 once read as Windows-1252 and saved again ("JoÃ£o") is refused, naming the cell and what it would be."""
    csv_path = write_csv(tmp_path / "g.csv", [["Nome", "CPF"], ["Maria da Silva", cpf(1)], ["JoÃ£o AraÃºjo", cpf(2)]])
    with pytest.raises(UserError, match=re.escape('g.csv, linha 3, coluna 1: "JoÃ£o AraÃºjo" parece texto com a')):
        read_sheet(csv_path)
    xlsx_path = write_xlsx(tmp_path / "g.xlsx", [["Nome", "Bairro"], ["Maria da Silva", "ConceiÃ§Ã£o"]])
    with pytest.raises(UserError, match=r'célula B2: "ConceiÃ§Ã£o" .* \(seria "Conceição"\)'):
        read_sheet(xlsx_path)


#: Letters a Portuguese list holds. Each non-ASCII one is, in Windows-1252, a byte that UTF-8 reads only as the
#: start of a sequence whose next byte none of these is: a Windows-1252 line of them is never UTF-8 text.
PT_TEXT = st.text(
    alphabet=st.sampled_from("abcdefghijklmnopqrstuvwxyzABCDEZ .-'0123456789áàâãéêíóôõúüçÁÀÂÃÉÊÍÓÔÕÚÇ"),
    max_size=20,
)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(PT_TEXT, st.sampled_from(["utf-8", "cp1252"])), min_size=1, max_size=8), st.booleans())
def test_the_decoder_never_garbles_a_name(lines, bom):
    """Lines of names, each in UTF-8 or Windows-1252: the file is read exactly as written, or refused when it holds
    non-ASCII lines of both — naming every such line — never read one way or the other (no mojibake)."""
    from models.services.importer import decode_text

    raw = ("\ufeff".encode() if bom else b"") + b"\n".join(text.encode(enc) for text, enc in lines)
    encoded = {enc for text, enc in lines if not text.isascii()}
    if len(encoded) == 2:
        with pytest.raises(UserError) as caught:
            decode_text(raw, name="lista.csv")
        message = caught.value.message
        for number, (text, _enc) in enumerate(lines, start=1):
            if not text.isascii() and len(lines) <= 10:
                assert re.search(rf"\b{number}\b", message)
        return
    if bom and encoded == {"cp1252"}:  # a BOM is UTF-8's mark: the lines after it are not, and say so
        with pytest.raises(UserError, match="mistura codificações"):
            decode_text(raw, name="lista.csv")
        return
    text, _encoding = decode_text(raw, name="lista.csv")
    assert text.lstrip("\ufeff") == "\n".join(t for t, _ in lines)
    assert all(not importer.sheet.mojibake(t) for t, _ in lines)


def test_csv_line_numbers_count_blank_lines(tmp_path):
    path = tmp_path / "q.csv"
    path.write_text('Nome;Bairro\n"Maria da Silva";"Centro alto"\n\nJosé Pereira;Vila\n', encoding="utf-8")
    assert [n for n, _c in read_sheet(path).rows] == [2, 4]


def test_a_csv_cell_over_two_lines_is_refused_as_a_quote_left_open(tmp_path):
    """Strict CSV (issue 16): one row per line — a quote that does not close on its line is an error naming
    it, so that a stray quote can never swallow the rows after it; a cell of several lines goes in .xlsx."""
    path = tmp_path / "q.csv"
    path.write_text('Nome;Bairro\n"Maria da Silva";"Centro\nalto"\n\nJosé Pereira;Vila\n', encoding="utf-8")
    with pytest.raises(UserError) as err:
        read_sheet(path)
    assert "q.csv, linha 2: aspas abertas na coluna 2" in err.value.message and ".xlsx" in err.value.message


@pytest.mark.parametrize(
    "name, content, message",
    [
        ("nada.csv", None, "Arquivo não encontrado"),
        ("vazio.csv", b"", "está vazio"),
        ("velho.xls", b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1", "salve a planilha como .xlsx ou .csv"),
        ("quebrado.xlsx", b"PK\x03\x04 quebrado", "Não foi possível ler a planilha"),
        ("binario.csv", b"\x00\x01\x02", "não é um arquivo de texto"),
    ],
)
def test_unreadable_files_are_one_line(tmp_path, name, content, message):
    path = tmp_path / name
    if content is not None:
        path.write_bytes(content)
    with pytest.raises(UserError) as caught:
        read_sheet(path)
    assert message in caught.value.message and "\n" not in caught.value.message


# --------------------------------------------------------------------------- mapping


def test_guess_mapping_from_portuguese_headers():
    headers = [
        "Nome do Ambulante",
        "CPF/CNPJ",
        "Data de nascimento",
        "RG",
        "Endereço",
        "Nº",
        "Bairro",
        "Cidade",
        "UF",
        "CEP",
        "Celular",
        "E-mail",
        "Nome Fantasia",
        "Inscrição Municipal",
        "MEI",
        "Ramo",
        "Frente (m)",
        "Profundidade (m)",
        "Nº do alvará",
        "Válido até",
        "Início",
        "Observações",
    ]
    columns = guess_mapping(headers).columns
    assert columns == {
        "name": "Nome do Ambulante",
        "cpf_cnpj": "CPF/CNPJ",
        "birth_date": "Data de nascimento",
        "rg": "RG",
        "street": "Endereço",
        "number": "Nº",
        "district": "Bairro",
        "city": "Cidade",
        "state": "UF",
        "zip_code": "CEP",
        "phone": "Celular",
        "email": "E-mail",
        "trade_name": "Nome Fantasia",
        "municipal_registration": "Inscrição Municipal",
        "mei": "MEI",
        "line": "Ramo",
        "front": "Frente (m)",
        "depth": "Profundidade (m)",
        "previous_number": "Nº do alvará",
        "valid_until": "Válido até",
        "valid_from": "Início",
    }


def test_mapping_json_round_trip_and_refusals(tmp_path):
    mapping = Mapping({"name": "Nome", "cpf": "CPF"}, {"regime": "sjc-2014"})
    path = importer.save_mapping(tmp_path / "m.json", mapping)
    assert importer.load_mapping(path) == mapping
    for text, message in [
        ("{", "não é JSON válido"),
        ('{"format": "x"}', "não é um mapeamento"),
        (json.dumps({**mapping.to_dict(), "columns": {"altura": "A"}}), "campo desconhecido"),
        (json.dumps({**mapping.to_dict(), "defaults": {"name": "X"}}), "só campos da permissão"),
        (json.dumps({**mapping.to_dict(), "version": 9}), "mais novo"),
    ]:
        (tmp_path / "bad.json").write_text(text, encoding="utf-8")
        with pytest.raises(UserError) as caught:
            importer.load_mapping(tmp_path / "bad.json")
        assert message in caught.value.message


def test_remembered_mapping_per_header(tmp_path):
    store = tmp_path / "store.json"
    headers = ["Nome", "Documento", "Nasc."]
    assert importer.recall_mapping(store, headers) is None
    mapping = Mapping({"name": "Nome", "cpf": "Documento", "birth_date": "Nasc."})
    importer.remember_mapping(store, headers, mapping)
    assert importer.recall_mapping(store, ["NOME", "documento", "Nasc."]) is None  # other header text: not found
    assert importer.recall_mapping(store, headers) == mapping
    assert importer.header_signature(["Nome ", "DOCUMENTO", "nasc"]) == importer.header_signature(headers)


def test_a_mapping_without_document_or_name_is_refused(tmp_path):
    sheet = read_sheet(write_csv(tmp_path / "a.csv", [["Nome", "Bairro"], ["Maria da Silva", "Centro"]]))
    with pytest.raises(UserError, match="CPF, do CNPJ"):
        preview_import(sheet, guess_mapping(sheet.headers), today=TODAY)
    with pytest.raises(UserError, match="não tem a coluna 'Documento'"):
        preview_import(sheet, Mapping({"name": "Nome", "cpf": "Documento"}), today=TODAY)


# --------------------------------------------------------------------------- values


@pytest.mark.parametrize(
    "value, expected",
    [
        ("01/02/1980", dt.date(1980, 2, 1)),
        ("1/2/1980", dt.date(1980, 2, 1)),
        ("1980-02-01", dt.date(1980, 2, 1)),
        ("01.02.1980", dt.date(1980, 2, 1)),
        (45292, dt.date(2024, 1, 1)),
        ("45292", dt.date(2024, 1, 1)),
        (dt.datetime(1980, 2, 1, 10, 0), dt.date(1980, 2, 1)),
        ("01/02/1980 00:00", dt.date(1980, 2, 1)),
    ],
)
def test_dates(value, expected):
    assert parse_date(value, "Data") == expected


@pytest.mark.parametrize(
    "value, message",
    [
        ("31/02/1980", "31/02/1980 não existe"),
        ("01/02/80", "não é uma data"),
        ("ontem", "não é uma data"),
        (0, "não é uma data"),
        ("99999999", "não é uma data"),
    ],
)
def test_bad_dates(value, message):
    with pytest.raises(UserError, match=message):
        parse_date(value, "Data")


@pytest.mark.parametrize(
    "value, expected", [("2,5", "2.50"), ("2,50", "2.50"), (3, "3.00"), (Decimal("1.25"), "1.25"), ("4,00 m", "4.00")]
)
def test_sizes(value, expected):
    assert parse_size(value, "Frente") == Decimal(expected)


@pytest.mark.parametrize(
    "value, message",
    [
        ("0", "maior que zero"),
        ("-1", "maior que zero"),
        ("2,555", "duas casas"),
        ("abc", "não é um número"),
        ("5000", "grande demais"),
    ],
)
def test_bad_sizes(value, message):
    with pytest.raises(UserError, match=message):
        parse_size(value, "Frente")


ANY_CELL = st.one_of(
    st.text(max_size=30),
    st.integers(min_value=-(10**15), max_value=10**15),
    st.dates(),
    st.decimals(allow_nan=False, allow_infinity=False, places=3),
    st.sampled_from(
        [
            "",
            "  ",
            "01/02/1980",
            "sim",
            "não",
            "2,5",
            cpf(9),
            cnpj(9),
            "sjc-2014",
            "feirante",
            "banana",
            "I",
            "31/12/2027",
            "João da Silva",
        ]
    ),
)


@settings(max_examples=400, deadline=None)
@given(
    st.dictionaries(st.sampled_from([f.key for f in importer.FIELDS]), ANY_CELL, max_size=12),
    st.dictionaries(
        st.sampled_from(["regime", "permit_kind"]), st.sampled_from(["sjc-2014", "feirante", "x"]), max_size=2
    ),
)
def test_row_validator_never_crashes_and_explains(cells, defaults):
    row = check_row(7, cells, today=TODAY, defaults=defaults)
    assert row.line == 7
    for message in row.errors:
        assert isinstance(message, str) and message.strip() and "\n" not in message
    if row.ok:
        from models.registry.people import validate_company, validate_person

        assert row.person is not None or row.company is not None
        if row.person is not None:
            validate_person(row.person, today=TODAY)
        if row.company is not None:
            validate_company(row.company)
        if row.permit is not None:
            assert row.permit.valid_from <= row.permit.valid_until and row.permit.holder in ("person", "company")
    else:
        assert row.reason.endswith(".")


# --------------------------------------------------------------------------- preview and import (both back ends)


def test_preview_lists_each_bad_row_with_line_and_reason(database, tmp_path):
    sheet = read_sheet(write_xlsx(tmp_path / "v.xlsx", vendor_rows()))
    preview = preview_import(sheet, guess_mapping(sheet.headers), today=TODAY)
    assert [r.line for r in preview.ok_rows] == [2, 4]
    bad = {r.line: r.reason for r in preview.bad_rows}
    assert "CPF inválido: 111.111.111-11" in bad[3] and "31/02/1980 não existe" in bad[3]
    assert bad[5] == "CPF repetido: já está na linha 2."
    assert "nome completo" in bad[6]
    text = preview.text()
    assert "2 linhas corretas, 3 com problemas" in text and "linha 5 (Ana Lima): CPF repetido" in text
    from models.registry.people import Person

    assert Person.select().count() == 0  # a preview writes nothing


def test_duplicates_against_the_database(database, tmp_path):
    from models.registry.people import CompanyInput, PersonInput, save_company, save_person

    save_person(PersonInput(name="Maria Já Cadastrada", cpf=cpf(101)), today=TODAY)
    save_company(CompanyInput(cnpj=cnpj(55), legal_name="Pastelaria Antiga Ltda"))
    rows = [
        ["Nome", "CPF", "CNPJ", "Razão social"],
        ["Maria da Silva", cpf(101), "", ""],
        ["", "", cnpj(55), "Outra Razão Ltda"],
        ["Maria da Silva", cpf(101), cnpj(56), "Maria da Silva MEI"],
    ]
    sheet = read_sheet(write_csv(tmp_path / "d.csv", rows))
    preview = preview_import(sheet, guess_mapping(sheet.headers), today=TODAY)
    bad = {r.line: r.reason for r in preview.bad_rows}
    assert bad == {
        2: "CPF já cadastrado para Maria Já Cadastrada.",
        3: "CNPJ já cadastrado para Pastelaria Antiga Ltda.",
    }
    (mei,) = preview.ok_rows
    assert mei.link_person  # the company's partner is the person already registered
    result = importer.import_rows(preview, today=TODAY)
    assert (result.people, result.companies, result.skipped) == (0, 1, 2)
    from models.registry.people import Company, responsible_person

    company = Company.get(Company.cnpj == cnpj(56))
    assert responsible_person(company).name == "Maria Já Cadastrada"


def test_a_company_row_links_to_its_partner_registered_earlier_in_the_file(database, tmp_path):
    rows = [
        ["Nome", "CPF", "CNPJ", "Razão social", "Nascimento"],
        ["Maria Souza", cpf(701), "", "", "01/01/1990"],
        ["Maria Souza", cpf(701), cnpj(702), "Maria Souza MEI", ""],
        ["Pedro Alves", cpf(703), "", "", "31/02/1980"],
        ["Pedro Alves", cpf(703), cnpj(704), "Pedro Alves MEI", ""],
    ]
    sheet = read_sheet(write_csv(tmp_path / "mei.csv", rows))
    preview = preview_import(sheet, guess_mapping(sheet.headers), today=TODAY)
    assert [r.line for r in preview.ok_rows] == [2, 3]
    assert preview.ok_rows[1].link_person
    assert {r.line: r.reason for r in preview.bad_rows}[5] == (
        f"O sócio (CPF {format_cpf(cpf(703))}) está na linha 4, que tem problemas."
    )
    result = importer.import_rows(preview, today=TODAY)
    assert (result.people, result.companies) == (1, 1)
    from models.registry.people import Company, responsible_person

    assert responsible_person(Company.get(Company.cnpj == cnpj(702))).birth_date == dt.date(1990, 1, 1)


def test_import_good_rows_in_one_transaction_and_audited(database, tmp_path):
    sheet = read_sheet(write_xlsx(tmp_path / "v.xlsx", vendor_rows()))
    preview = preview_import(sheet, guess_mapping(sheet.headers), today=TODAY)
    calls = []
    result = importer.import_rows(preview, today=TODAY, progress=lambda done, total: calls.append((done, total)))
    assert (result.people, result.companies, result.permits, result.skipped) == (2, 0, 0, 3)
    assert calls[0] == (0, 2) and calls[-1] == (2, 2)
    from models.registry.people import Person

    maria = Person.get(Person.cpf == cpf(101))
    assert maria.birth_date == dt.date(1980, 2, 1) and maria.email == "maria@exemplo.com.br"
    assert maria.district == "Centro"
    from models.store.audit import AuditEntry, bulk_rows

    # one bulk insert per table (issue 26 §7): one entry listing both people, each with every value written
    (entry,) = AuditEntry.select().where((AuditEntry.table_name == "person") & (AuditEntry.action == "insert"))
    assert sorted(row["cpf"] for row in bulk_rows(entry.after)) == sorted([cpf(101), cpf(102)])
    assert {row["name"] for row in bulk_rows(entry.after)} == {"Maria da Silva", "José Pereira"}


def test_all_or_nothing_imports_nothing_when_a_row_is_bad(database, tmp_path):
    sheet = read_sheet(write_xlsx(tmp_path / "v.xlsx", vendor_rows()))
    preview = preview_import(sheet, guess_mapping(sheet.headers), today=TODAY)
    with pytest.raises(UserError, match="3 linhas têm problemas e a importação é tudo ou nada"):
        importer.import_rows(preview, all_or_nothing=True, today=TODAY)
    from models.registry.people import Person

    assert Person.select().count() == 0


def test_cancel_rolls_everything_back(database, tmp_path):
    rows = [HEADER] + [[f"Pessoa Número{chr(65 + i)}", cpf(200 + i), "", "", "", ""] for i in range(10)]
    sheet = read_sheet(write_csv(tmp_path / "c.csv", rows))
    preview = preview_import(sheet, guess_mapping(sheet.headers), today=TODAY)
    assert len(preview.ok_rows) == 10
    with pytest.raises(importer.ImportCancelled):
        importer.import_rows(preview, today=TODAY, progress=lambda done, total: done < 6)
    from models.registry.people import Person

    assert Person.select().count() == 0


def test_permits_are_imported_with_a_new_number_and_the_old_one_kept(database, tmp_path):
    rows = [
        ["Nome", "CPF", "Ramo", "Seção", "Frente", "Profundidade", "Início", "Validade", "Nº do alvará"],
        ["Maria da Silva", cpf(301), "Banana", "I", "2,5", "3", "01/01/2026", "31/12/2027", "123/2020"],
        ["José Pereira", cpf(302), "banana", "", "", "", "01/01/2025", "31/12/2025", "77"],
        ["Ana Beatriz Lima", cpf(303), "", "", "", "", "", "", ""],  # no permit data: the person only
        ["Paulo Henrique Reis", cpf(304), "Sorvete", "XCIX", "0", "", "01/01/2026", "01/01/2025", ""],
    ]
    sheet = read_sheet(write_xlsx(tmp_path / "p.xlsx", rows))
    mapping = guess_mapping(sheet.headers)
    mapping.defaults.update(regime="sjc-2014", permit_kind="feirante")
    preview = preview_import(sheet, mapping, today=TODAY)
    (bad,) = preview.bad_rows
    assert bad.line == 5
    for part in (
        "Ramo 'Sorvete' não existe",
        "Seção 'XCIX' não existe",
        "Frente (m): informe um valor maior que zero",
        "termina (01/01/2025) antes de começar (01/01/2026)",
    ):
        assert part in bad.reason
    result = importer.import_rows(preview, today=TODAY)
    assert (result.people, result.permits) == (3, 2)
    from models.permits import Permit, PermitEvent

    first, second = Permit.select().order_by(Permit.id)
    assert first.number == f"{TODAY.year}/00001" and first.origin == "import" and first.origin_label == "importação"
    assert first.line == "banana" and first.section == "i" and first.front == Decimal("2.50")
    assert first.status == "active" and first.valid_until == dt.date(2027, 12, 31)
    assert "número anterior: 123/2020" in first.notes
    assert second.status == "expired"  # its last day has passed
    event = PermitEvent.get(PermitEvent.permit == first.id)
    assert event.kind == "issued" and "p.xlsx, linha 2" in event.reason and "123/2020" in event.reason


def test_a_kind_for_companies_refuses_a_person_row(database, tmp_path):
    rows = [
        ["Nome", "CPF ou CNPJ", "Razão social", "Válido de", "Válido até"],
        ["Maria da Silva", cpf(401), "", "01/01/2026", "31/12/2026"],
        ["Maria da Silva", cnpj(402), "Maria da Silva Lanches Ltda", "01/01/2026", "31/12/2026"],
    ]
    sheet = read_sheet(write_csv(tmp_path / "s.csv", rows))
    mapping = guess_mapping(sheet.headers)
    assert mapping.columns["cpf_cnpj"] == "CPF ou CNPJ"
    mapping.defaults.update(regime="sapezal-2014", permit_kind="ponto-fixo")
    preview = preview_import(sheet, mapping, today=TODAY)
    assert [r.line for r in preview.bad_rows] == [2]
    assert "concedida a empresa (CNPJ)" in preview.bad_rows[0].reason
    assert preview.ok_rows[0].company is not None and preview.ok_rows[0].permit.holder == "company"


ROW = st.fixed_dictionaries(
    {
        "name": st.sampled_from(["Maria da Silva", "Paulo", "", "José  Pereira  Neto"]),
        "doc": st.sampled_from([cpf(501), cpf(502), "123", "", cnpj(503), "111.111.111-11"]),
        "birth": st.sampled_from(["", "01/02/1980", "31/02/1980", "2030-01-01", "45292"]),
    }
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(ROW, min_size=1, max_size=6), st.booleans())
def test_nothing_is_stored_half_way(database, tmp_path, rows, all_or_nothing):
    from models.registry.people import Company, Person
    from models.store.db import db

    path = write_csv(
        tmp_path / "h.csv", [["Nome", "CPF ou CNPJ", "Nascimento"]] + [[r["name"], r["doc"], r["birth"]] for r in rows]
    )
    if not any(any(r.values()) for r in rows):  # only blank lines: the sheet reads empty and the preview refuses it
        assert read_sheet(path).rows == []
        with pytest.raises(UserError, match="não tem linhas de dados"):
            preview_import(read_sheet(path), guess_mapping(["Nome", "CPF ou CNPJ", "Nascimento"]), today=TODAY)
        return
    with db.atomic() as outer:
        preview = preview_import(read_sheet(path), guess_mapping(["Nome", "CPF ou CNPJ", "Nascimento"]), today=TODAY)
        good, bad = len(preview.ok_rows), len(preview.bad_rows)
        try:
            result = importer.import_rows(preview, all_or_nothing=all_or_nothing, today=TODAY)
        except UserError:
            assert good == 0 or (all_or_nothing and bad)
            assert Person.select().count() == 0 and Company.select().count() == 0
        else:
            assert result.people + result.companies == good
            assert Person.select().count() + Company.select().count() == good
        outer.rollback()


# --------------------------------------------------------------------------- command line


def new_database(path) -> str:
    """A new database, as ``praca init`` makes it (the import reads an existing one only)."""
    from models.store.bootstrap import close_database

    url = f"sqlite:///{path}"
    open_new_database(url)
    close_database()
    return url


def test_cli_dry_run_then_import(tmp_path, capsys):
    from desktop.cli import main

    url = new_database(tmp_path / "cli.sqlite3")
    path = write_xlsx(tmp_path / "v.xlsx", vendor_rows())
    assert main(["import", "vendors", str(path), "--dry-run", "--db", url]) == 2
    captured = capsys.readouterr()
    assert "2 linhas corretas, 3 com problemas" in captured.out
    assert "linha 3 (João Souza): CPF inválido" in captured.out
    assert captured.err.count("\n") == 1 and "--skip-bad" in captured.err

    assert main(["import", "vendors", str(path), "--db", url]) == 2  # all or nothing by default
    assert "nada foi importado" in capsys.readouterr().err

    assert main(["import", "vendors", str(path), "--dry-run", "--skip-bad", "--db", url]) == 0
    assert "Nada foi gravado (--dry-run)" in capsys.readouterr().out

    assert main(["import", "vendors", str(path), "--skip-bad", "--db", url]) == 0
    assert "Importados: 2 pessoas, 0 empresas e 0 permissões. 3 linhas ficaram de fora." in capsys.readouterr().out

    # again: now the two are in the database
    assert main(["import", "vendors", str(path), "--skip-bad", "--db", url]) == 2
    captured = capsys.readouterr()
    assert "CPF já cadastrado para Maria da Silva" in captured.out
    assert "Nenhuma das 5 linhas" in captured.err


def test_cli_with_a_mapping_file_and_permits(tmp_path, capsys, monkeypatch):
    from desktop.cli import main

    url = new_database(tmp_path / "cli.sqlite3")
    path = write_csv(
        tmp_path / "feira.csv",
        [
            ["Titular", "Documento", "Produto", "De", "Até", "Licença"],
            ["Maria da Silva", cpf(601), "Banana", "01/01/2026", "31/12/2026", "9"],
        ],
    )
    mapping = tmp_path / "feira.json"
    importer.save_mapping(
        mapping,
        Mapping(
            {
                "name": "Titular",
                "cpf": "Documento",
                "line": "Produto",
                "valid_from": "De",
                "valid_until": "Até",
                "previous_number": "Licença",
            },
            {"regime": "sjc-2014", "permit_kind": "feirante"},
        ),
    )
    assert main(["import", "vendors", str(path), "--mapping", str(mapping), "--db", url]) == 2
    assert "ainda não tem chave de assinatura" in capsys.readouterr().err  # permits are signed by the municipality
    monkeypatch.setenv("PRACA_SIGNING_PASSPHRASE", "senha da prefeitura 2026")
    assert main(["signing", "create", "--db", url]) == 0
    assert main(["import", "vendors", str(path), "--mapping", str(mapping), "--db", url]) == 0
    assert "1 pessoa, 0 empresas e 1 permissão" in capsys.readouterr().out


@pytest.mark.parametrize(
    "args, message",
    [
        (["{tmp}/nada.xlsx"], "Arquivo não encontrado"),
        (["{tmp}/ok.csv", "--mapping", "{tmp}/nada.json"], "Mapeamento não encontrado"),
        (["{tmp}/ok.csv", "--regime", "atlantida-2099", "--permit-kind", "x"], "atlantida-2099"),
        (["{tmp}/sem-cpf.csv"], "Indique a coluna do CPF"),
    ],
)
def test_cli_bad_input_is_one_line(tmp_path, capsys, args, message):
    from desktop.cli import main

    write_csv(tmp_path / "ok.csv", [["Nome", "CPF"], ["Maria da Silva", cpf(1)]])
    write_csv(tmp_path / "sem-cpf.csv", [["Nome", "Bairro"], ["Maria da Silva", "Centro"]])
    argv = [
        "import",
        "vendors",
        *[a.replace("{tmp}", str(tmp_path)) for a in args],
        "--db",
        new_database(tmp_path / "x.sqlite3"),
    ]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err


def _another_desk_takes_a_permit_number(url: str, year: int) -> None:
    """A second connection to the same database — another desk — takes a permit number, waiting at most 2 s for
    a lock (as the desk waits for another desk's, models/store/db.py) and failing after that."""
    sql = (
        "INSERT INTO counter (name, value) VALUES (%s, 0) ON CONFLICT DO NOTHING",
        "UPDATE counter SET value = value + 1 WHERE name = %s",
    )
    name = f"permit-{year}"
    if url.startswith("sqlite"):
        import sqlite3

        conn = sqlite3.connect(url.removeprefix("sqlite:///"), timeout=2, isolation_level=None)
        try:
            for statement in sql:
                conn.execute(statement.replace("%s", "?"), (name,))
        finally:
            conn.close()
        return
    import psycopg2

    base, _, query = url.partition("?")
    schema = dict(part.split("=", 1) for part in query.split("&") if part)["schema"]
    conn = psycopg2.connect(base, options=f"-c search_path={schema} -c lock_timeout=2000")
    try:
        with conn, conn.cursor() as cursor:
            for statement in sql:
                cursor.execute(statement, (name,))
    finally:
        conn.close()


def test_another_desk_writes_while_the_import_is_prepared(database, tmp_path):
    """Issue 16 §7: the rows are prepared with no transaction open and written in one short one, numbers last —
    another desk taking a permit number meanwhile does not wait for the import (with the import's transaction
    open, it waited and failed: SQLite's write lock, PostgreSQL's counter row); its number comes first."""
    rows = [["Nome", "CPF", "Ramo", "Seção", "Frente", "Profundidade", "Início", "Validade", "Nº do alvará"]]
    rows += [
        [
            f"Ambulante Número {chr(65 + i)} Souza",
            cpf(400 + i),
            "banana",
            "i",
            "2,5",
            "3",
            "01/01/2026",
            "31/12/2027",
            "",
        ]
        for i in range(4)
    ]
    sheet = read_sheet(write_csv(tmp_path / "a.csv", rows))
    mapping = guess_mapping(sheet.headers)
    mapping.defaults.update(regime="sjc-2014", permit_kind="feirante")
    preview = preview_import(sheet, mapping, today=TODAY)
    assert len(preview.ok_rows) == 4
    other = []

    def progress(done: int, total: int) -> None:
        if done == 2:  # halfway through: another desk writes
            _another_desk_takes_a_permit_number(database, TODAY.year)
            other.append(done)

    result = importer.import_rows(preview, today=TODAY, progress=progress)
    assert other == [2]
    assert result.permit_numbers == tuple(f"{TODAY.year}/{n:05d}" for n in range(2, 6))


def test_a_person_registered_at_another_desk_during_the_preparation_refuses_the_import(database, tmp_path):
    """The write checks again what another desk registered while the list was prepared: one line, nothing kept."""
    from factories import person

    from models.permits import Permit
    from models.registry.people import Person

    rows = [["Nome", "CPF"]] + [[f"Pessoa Número {chr(65 + i)} Lima", cpf(500 + i)] for i in range(3)]
    sheet = read_sheet(write_csv(tmp_path / "p.csv", rows))
    preview = preview_import(sheet, guess_mapping(sheet.headers), today=TODAY)
    assert len(preview.ok_rows) == 3

    def progress(done: int, total: int) -> None:
        if done == 1:
            person("Cadastrada Noutra Mesa", cpf=cpf(502))

    with pytest.raises(UserError, match="Linha 4: CPF já cadastrado para Cadastrada Noutra Mesa") as caught:
        importer.import_rows(preview, today=TODAY, progress=progress)
    assert "Nada foi importado" in caught.value.message and "\n" not in caught.value.message
    assert [p.name for p in Person.select()] == ["Cadastrada Noutra Mesa"] and Permit.select().count() == 0
