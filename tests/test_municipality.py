"""The database is one municipality (issue 31 §1): its identity checked and kept, set at ``praca init``, with
``praca municipality set`` and in Cadastros → Município; a database without one is asked for it; letterheads
and reports take the municipality from there, and a report never mixes towns.

Database tests run on SQLite and, with ``PRACA_TEST_PG``, on PostgreSQL."""

from __future__ import annotations

import datetime as dt
import json
import struct
import zlib
from dataclasses import replace

import pytest
from conftest import type_text
from factories import company, person
from PySide6.QtCore import Qt

from desktop.cli import main
from models.access import session
from models.base.errors import FieldErrors, UserError
from models.billing.charges import create_charge
from models.billing.fee_report import fee_report
from models.registry.municipality import (
    MunicipalityInput,
    NoMunicipality,
    check,
    clean_ibge,
    letterhead,
    municipality,
    report_town,
    set_municipality,
)
from models.rules import holidays
from models.rules.regimes import get_regime
from models.store.settings import MUNICIPALITY, Setting, set_settings

OLIMPIA = MunicipalityInput(name="Olímpia", state="SP", ibge="3533908", cnpj="11.222.333/0001-81")


def png(width: int = 3, height: int = 4) -> bytes:
    """A small, valid PNG (red pixels), made without Qt."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    rows = b"".join(b"\x00" + b"\xff\x00\x00" * width for _ in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")


# --------------------------------------------------------------------------- the checks


@pytest.mark.parametrize(
    ("code", "state", "fragment"),
    [
        ("353390", "SP", "7 algarismos"),
        ("35339O8", "SP", "7 algarismos"),
        ("3533907", "SP", "dígito verificador"),
        ("3533908", "MT", "não é de um município de MT"),
    ],
)
def test_an_ibge_code_is_seven_digits_with_its_check_digit_and_its_states_prefix(code, state, fragment):
    with pytest.raises(UserError, match=fragment):
        clean_ibge(code, state)


def test_the_shipped_towns_codes_and_ibges_own_exceptions_pass():
    for code, state in (("3533908", "SP"), ("3549904", "SP"), ("5107875", "MT"), ("3109451", "MG")):
        assert clean_ibge(code, state) == code
    assert clean_ibge("2201919", "PI") == "2201919"  # Bom Princípio do Piauí: IBGE's code breaks the rule


def test_every_bad_field_is_named_at_once():
    with pytest.raises(FieldErrors) as refused:
        check(
            MunicipalityInput(
                name=" ", state="XX", ibge="123", cnpj="11.222.333/0001-00", coat_of_arms=b"GIF89a", office_hours="9h"
            )
        )
    assert list(refused.value.errors) == ["name", "state", "ibge", "cnpj", "coat_of_arms", "office_hours"]
    assert "UF inválida: XX" in refused.value.errors["state"]
    assert "PNG ou JPEG" in refused.value.errors["coat_of_arms"]


# --------------------------------------------------------------------------- kept in the database


def test_the_identity_is_kept_and_a_refusal_stores_nothing(database):
    assert not municipality().is_set
    arms = png()
    found = set_municipality(
        MunicipalityInput(
            name="  Olímpia ",
            state="sp",
            ibge="3533908",
            cnpj="11.222.333/0001-81",
            address="Praça Rui Barbosa, 54 — Centro",
            coat_of_arms=arms,
            office_hours="8:00-17:00",
        )
    )
    assert (found.label, found.ibge, found.cnpj, found.coat_of_arms) == (
        "Olímpia/SP",
        "3533908",
        "11222333000181",
        arms,
    )
    assert found.agency_name == "Prefeitura Municipal de Olímpia"
    # the office's hours are the calendar's: deadlines in hours read them
    assert holidays.office_hours() == (dt.time(8, 0), dt.time(17, 0))
    with pytest.raises(FieldErrors):
        set_municipality(MunicipalityInput(name="Sapezal", state="MT", ibge="3533908"))  # SP's code
    assert municipality() == found  # nothing half-way: not even the name
    # an option left out keeps what is stored; b"" removes the coat of arms
    again = set_municipality(MunicipalityInput(agency="Prefeitura da Estância Turística de Olímpia", coat_of_arms=b""))
    assert (again.ibge, again.coat_of_arms, again.agency_name) == (
        "3533908",
        b"",
        "Prefeitura da Estância Turística de Olímpia",
    )


def test_the_largest_coat_of_arms_goes_through_a_backup_and_back(database, tmp_path):
    """A row of a backup holds at most 1 MiB: the coat of arms, in base64 in the settings, fits with room."""
    from models.registry.municipality import COAT_OF_ARMS_MAX_BYTES
    from models.store.backup import restore_backup, write_backup
    from models.store.bootstrap import close_database, open_database
    from models.store.sealed import Trust

    largest = png()[:-12] + bytes(range(256)) * ((COAT_OF_ARMS_MAX_BYTES - len(png())) // 256) + png()[-12:]
    assert len(largest) <= COAT_OF_ARMS_MAX_BYTES
    with pytest.raises(FieldErrors, match="Brasão grande demais"):
        set_municipality(MunicipalityInput(name="Olímpia", state="SP", coat_of_arms=largest + bytes(1024)))
    set_municipality(MunicipalityInput(name="Olímpia", state="SP", coat_of_arms=largest))
    path = write_backup(tmp_path / "b.praca-backup").path
    close_database()
    open_database(f"sqlite:///{tmp_path / 'other.sqlite3'}", create=True)
    restore_backup(path, trust=Trust(accept_unsigned=True))
    assert municipality().coat_of_arms == largest


def test_only_the_administrator_sets_it(database):
    with session.acting_as(session.Session(7, "ana.souza", "Ana Souza", "atendente")):
        with pytest.raises(UserError):
            set_municipality(OLIMPIA)
    assert not municipality().is_set


def test_letterheads_take_the_identity_and_another_towns_act_keeps_its_own_town(database):
    set_municipality(OLIMPIA)
    set_municipality(MunicipalityInput(coat_of_arms=png()))
    own = letterhead(get_regime("olimpia-2025"))
    assert own["municipality"] == "Olímpia/SP" and own["cnpj"] == "11.222.333/0001-81"
    assert own["coat_of_arms"].startswith("data:image/png;base64,")
    other = letterhead(get_regime("sao-bento-2026"))  # a database filled before issue 31 holds several acts
    assert other["municipality"] == "São Bento do Sapucaí/SP" and not other["coat_of_arms"]
    assert "Olímpia" not in json.dumps(other)


def test_the_permit_carries_the_municipalitys_coat_of_arms_and_agency_only_on_its_own_act(keys, tmp_path, app_ready):
    from factories import feirante, tpu

    from models.permits import permit_document
    from reports.permit_docs import write_id_card_pdf, write_permit_pdf

    arms = png(30, 36)
    set_municipality(OLIMPIA)
    set_municipality(MunicipalityInput(agency="Prefeitura da Estância Turística de Olímpia", coat_of_arms=arms))
    own = permit_document(tpu(keys, person("Carla Mendes")))
    assert (own.municipality, own.agency, own.coat_of_arms) == (
        "Olímpia",
        "Prefeitura da Estância Turística de Olímpia",
        arms,
    )
    other = permit_document(feirante(keys, person("Maria das Dores")))  # São José dos Campos's act
    assert (other.municipality, other.agency, other.coat_of_arms) == ("São José dos Campos", "", b"")
    with_arms = write_permit_pdf(own, tmp_path / "tpu.pdf").read_bytes()
    without = write_permit_pdf(replace(own, coat_of_arms=b""), tmp_path / "sem.pdf").read_bytes()
    assert with_arms.count(b"/Subtype /Image") == without.count(b"/Subtype /Image") + 1
    card = write_id_card_pdf(own, tmp_path / "cartao.pdf").read_bytes()
    plain_card = write_id_card_pdf(replace(own, coat_of_arms=b""), tmp_path / "cartao-sem.pdf").read_bytes()
    assert card.count(b"/Subtype /Image") > plain_card.count(b"/Subtype /Image")  # the image (and its alpha)


def test_the_guia_is_headed_with_the_municipality_its_cnpj_and_coat_of_arms(database, tmp_path):
    from pdftext import pdf_text

    from models.billing.collection.agreement import set_agreement
    from models.billing.collection.guias import issue_guia
    from reports.guia_pdf import write_guia_pdf

    set_agreement(agreement="0042", value_id="6", pix_key="11222333000181", pix_name="Prefeitura", pix_city="Olimpia")
    set_municipality(OLIMPIA)
    fine = create_charge(
        kind="fine",
        regime="olimpia-2025",
        label="Multa — art. 160",
        amount="300,00",
        due_on=dt.date(2026, 3, 20),
        basis="LC 324/2025, art. 160",
        by="tesouraria",
        person_id=person("Carlos Alberto Nunes").id,
        today=dt.date(2026, 3, 10),
    )
    guia = issue_guia([fine], today=dt.date(2026, 3, 10))
    plain = write_guia_pdf(guia, tmp_path / "guia.pdf").read_bytes()
    set_municipality(MunicipalityInput(coat_of_arms=png(30, 36)))
    with_arms = write_guia_pdf(guia, tmp_path / "guia-brasao.pdf")
    assert with_arms.read_bytes().count(b"/Subtype /Image") == plain.count(b"/Subtype /Image") + 1
    text = pdf_text(with_arms)
    if text is not None:  # pdftotext installed
        assert "Prefeitura Municipal de Olímpia" in text and "Olímpia/SP · CNPJ 11.222.333/0001-81" in text


def test_the_dívida_ativa_list_holds_only_the_municipalitys_own_debts(database):
    from models.billing.collection.dividas import debt_rows
    from models.billing.collection.late import set_late_rules

    _two_towns_month()
    set_late_rules(fine_percent="0", interest_percent="0", source="", due_days="5", debt_term="10")
    as_of = dt.date(2026, 11, 30)
    assert {row.charge.regime for row in debt_rows(as_of)} == {"olimpia-2025", "sjc-2014"}  # no town known yet
    set_municipality(OLIMPIA)
    assert [row.charge.regime for row in debt_rows(as_of)] == ["olimpia-2025"]


# --------------------------------------------------------------------------- a report is one municipality's


def _two_towns_month():
    """September 2026 with an Olímpia deposit and a São José dos Campos fine (a database filled before issue 31)."""
    eventos = company("Eventos Olímpia Ltda", person("Rita de Cássia Moura"))
    create_charge(
        kind="deposit",
        regime="olimpia-2025",
        label="Caução — Recinto de Exposições",
        amount="1.500,00",
        due_on=dt.date(2026, 9, 10),
        basis="LC 324/2025, art. 89",
        by="tesouraria",
        company_id=eventos.id,
        today=dt.date(2026, 9, 1),
    )
    for name in ("Ana Paula Reis", "Bruno Costa Lima"):
        create_charge(
            kind="fine",
            regime="sjc-2014",
            label="Multa — banca fora do alinhamento",
            amount="150,00",
            due_on=dt.date(2026, 9, 25),
            basis="Lei 9.158/2014, art. 16, II",
            by="fiscal",
            person_id=person(name).id,
            today=dt.date(2026, 9, 10),
        )


def test_the_fee_report_is_the_databases_municipality_headed_from_its_identity(database):
    _two_towns_month()
    with pytest.raises(NoMunicipality, match="praca municipality set"):
        fee_report(2026, 9, today=dt.date(2026, 10, 25))  # no municipality and two towns: never mixed
    # no municipality yet and an empty month: an empty report, headed with no town
    october = fee_report(2026, 10, today=dt.date(2026, 10, 25))
    assert october.totals.count == 0 and october.municipality == ""
    set_municipality(OLIMPIA)
    set_municipality(MunicipalityInput(agency="Prefeitura da Estância Turística de Olímpia", coat_of_arms=png()))
    report = fee_report(2026, 9, today=dt.date(2026, 10, 25))
    assert report.municipality == "Olímpia/SP" and report.agency == "Prefeitura da Estância Turística de Olímpia"
    assert [c.regime for c in report.charges] == ["olimpia-2025"]
    assert report.left_out == (("São José dos Campos/SP", 2),)
    assert {d.holder for d in report.delinquents} == {"Eventos Olímpia Ltda"}
    # another town's report, asked by name: its own header, its own charges only
    sjc = fee_report(2026, 9, today=dt.date(2026, 10, 25), town=report_town("são josé dos campos"))
    assert sjc.municipality == "São José dos Campos/SP" and sjc.agency == "Prefeitura Municipal de São José dos Campos"
    assert {c.regime for c in sjc.charges} == {"sjc-2014"} and sjc.totals.count == 2
    assert sjc.left_out == (("Olímpia/SP", 1),) and not sjc.coat_of_arms
    with pytest.raises(UserError, match="Município sem ato no banco de dados: Campinas"):
        report_town("Campinas")


def test_the_html_report_carries_the_coat_of_arms_and_says_what_it_left_out(database, tmp_path):
    from reports.fee_report_html import fee_report_html

    _two_towns_month()
    set_municipality(OLIMPIA)
    set_municipality(MunicipalityInput(coat_of_arms=png()))
    html = fee_report_html(fee_report(2026, 9, today=dt.date(2026, 10, 25)))
    masthead = html[html.index('class="masthead"') :][:2000]
    assert 'src="data:image/png;base64,' in masthead and "Prefeitura Municipal de Olímpia" in masthead
    assert "São José dos Campos/SP: 2" in html and "Ana Paula Reis" not in html


def test_the_pdf_report_draws_the_coat_of_arms(database, tmp_path, app_ready):
    from pdftext import pdf_text

    from reports.fee_export import export_fee_report

    _two_towns_month()
    set_municipality(OLIMPIA)
    written, _ = export_fee_report(2026, 9, "pdf", tmp_path / "taxas.pdf", today=dt.date(2026, 10, 25))
    plain = written.read_bytes()
    set_municipality(MunicipalityInput(coat_of_arms=png(40, 50)))
    with_arms, _ = export_fee_report(2026, 9, "pdf", tmp_path / "brasao.pdf", today=dt.date(2026, 10, 25))
    assert b"/Subtype /Image" in with_arms.read_bytes() and b"/Subtype /Image" not in plain
    text = pdf_text(with_arms)
    if text is not None:  # pdftotext installed
        assert "Olímpia/SP" in text and "São José dos Campos/SP: 2" in text


# --------------------------------------------------------------------------- the command line


def test_init_sets_the_municipality_or_refuses_it_before_creating_anything(db_url, capsys):
    assert main(["init", "--db", db_url, "--municipality", "Olímpia", "--uf", "MT", "--ibge", "3533908"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "não é de um município de MT" in err
    assert main(["municipality", "show", "--db", db_url]) == 2  # nothing was created
    assert "crie um banco novo com praca init" in capsys.readouterr().err
    assert main(["init", "--db", db_url, "--municipality", "Olímpia", "--uf", "SP", "--ibge", "3533908"]) == 0
    assert "Município deste banco: Olímpia/SP." in capsys.readouterr().out
    assert main(["municipality", "show", "--db", db_url, "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert (shown["name"], shown["uf"], shown["ibge"], shown["set"]) == ("Olímpia", "SP", "3533908", True)


def test_an_old_database_is_asked_which_municipality_it_is(db_url, tmp_path, capsys):
    """A database made before issue 31 (its town typed in Configurações as a name alone, or nothing): the command
    line says what to run, the report refuses until it is done, and ``municipality set`` completes it."""
    from models.rules.acts import install_shipped
    from models.store.bootstrap import close_database, open_database

    open_database(db_url, create=True)
    install_shipped()  # as its migration left it: every shipped act
    set_settings({MUNICIPALITY: "Olímpia"})  # as Configurações kept it: no UF
    _two_towns_month()  # and, as the demo did, two towns' charges
    close_database()
    assert main(["municipality", "show", "--db", db_url]) == 0
    captured = capsys.readouterr()
    assert "rode praca municipality set --name NOME --uf UF" in captured.err
    assert "Município: Olímpia" in captured.out and "UF: —" in captured.out
    out = tmp_path / "taxas.html"
    args = ["report", "fees", "--db", db_url, "--month", "2026-09", "--format", "html", "--out", str(out)]
    assert main(args) == 2  # two towns' charges and no municipality: refused, never mixed
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "praca municipality set" in err and not out.exists()
    assert "2 municípios (Olímpia/SP, São José dos Campos/SP)" in err
    for bad, fragment in ((["--uf", "ZZ"], "UF inválida"), (["--cnpj", "123"], "CNPJ inválido")):
        assert main(["municipality", "set", "--db", db_url, "--uf", "SP", *bad]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and fragment in err
    arms = tmp_path / "brasao.png"
    arms.write_bytes(png())
    assert main(["municipality", "set", "--db", db_url, "--uf", "sp", "--coat-of-arms", str(arms)]) == 0
    assert "Município deste banco: Olímpia/SP." in capsys.readouterr().out
    assert main(args) == 0
    captured = capsys.readouterr()
    assert "Relatório de taxas de Olímpia/SP" in captured.out
    assert "São José dos Campos/SP: 2" in captured.err and "--municipality" in captured.err
    page = out.read_text(encoding="utf-8")
    assert "Prefeitura Municipal de Olímpia" in page and 'src="data:image/png;base64,' in page
    sjc = tmp_path / "sjc.html"
    assert main([*args[:-1], str(sjc), "--municipality", "São José dos Campos"]) == 0
    assert "Relatório de taxas de São José dos Campos/SP" in capsys.readouterr().out
    assert "Ana Paula Reis" in sjc.read_text(encoding="utf-8")


def test_a_coat_of_arms_that_is_not_an_image_is_one_line(database, tmp_path, capsys):
    fake = tmp_path / "brasao.png"
    fake.write_text("não é imagem", encoding="utf-8")
    assert (
        main(["municipality", "set", "--db", database, "--name", "Olímpia", "--uf", "SP", "--coat-of-arms", str(fake)])
        == 2
    )
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "PNG ou JPEG" in err
    assert not Setting.select().where(Setting.key == MUNICIPALITY).exists()


# --------------------------------------------------------------------------- the window


@pytest.fixture
def window(app_ready, qtbot, database):
    from PySide6.QtCore import QSettings

    from desktop.main_window import MainWindow

    QSettings().clear()
    win = MainWindow()
    qtbot.addWidget(win)
    win.show()
    qtbot.waitExposed(win)
    return win


def test_the_painel_asks_for_the_municipality_and_takes_the_administrator_to_the_tab(window, qtbot):
    home = window.pages["painel"]
    window.show_desk("painel")
    home.refresh()
    assert home.first_steps.isVisible() and home.step_marks["municipality"].text() == "○"
    assert "Informe o município — nome, UF, código IBGE" in home.step_texts["municipality"].text()
    qtbot.mouseClick(home.step_buttons["municipality"], Qt.MouseButton.LeftButton)
    registry = window.pages["cadastros"]
    assert window.current_desk() == "cadastros" and registry.tabs.currentWidget() is registry.municipality_page
    assert registry.tabs.tabText(registry.tabs.currentIndex()) == "Município"


def test_the_tab_checks_each_field_shows_the_coat_of_arms_and_saves(window, qtbot, tmp_path, monkeypatch):
    from views import municipality_page

    registry = window.pages["cadastros"]
    window.show_desk("cadastros")
    page = registry.municipality_page
    registry.tabs.setCurrentWidget(page)
    page.refresh()
    type_text(page.name, "Olímpia")
    page.state.setCurrentIndex(page.state.findText("SP"))
    qtbot.keyClicks(page.ibge, "3533907")
    qtbot.keyClicks(page.cnpj, "11.222.333/0001-00")
    qtbot.mouseClick(page.save_button, Qt.MouseButton.LeftButton)
    assert "dígito verificador" in page.error.text() and "e mais 1 campo" in page.error.text()
    assert "dígito verificador" in page.ibge.toolTip() and "CNPJ inválido" in page.cnpj.toolTip()
    assert not municipality().is_set
    bad = tmp_path / "brasao.png"
    bad.write_text("texto", encoding="utf-8")
    monkeypatch.setattr(municipality_page, "ask_open_path", lambda *a: str(bad))
    qtbot.mouseClick(page.choose_arms, Qt.MouseButton.LeftButton)
    assert "PNG ou JPEG" in page.arms.toolTip() and page.arms.pixmap().isNull()
    good = tmp_path / "brasao-bom.png"
    good.write_bytes(png(30, 40))
    monkeypatch.setattr(municipality_page, "ask_open_path", lambda *a: str(good))
    qtbot.mouseClick(page.choose_arms, Qt.MouseButton.LeftButton)
    assert not page.arms.pixmap().isNull() and page.remove_arms.isEnabled()
    page.ibge.clear()
    qtbot.keyClicks(page.ibge, "3533908")
    page.cnpj.clear()
    qtbot.keyClicks(page.cnpj, "11.222.333/0001-81")
    page.office_hours.clear()
    qtbot.keyClicks(page.office_hours, "08:00-17:00")
    qtbot.keyClick(page.office_hours, Qt.Key.Key_Return)  # Enter saves
    assert page.message.text() == "Município salvo: Olímpia/SP.", page.error.text()
    found = municipality()
    assert (found.ibge, found.cnpj, found.coat_of_arms, found.office_hours) == (
        "3533908",
        "11222333000181",
        good.read_bytes(),
        "08:00-17:00",
    )
    assert "Olímpia/SP" in window.windowTitle()
    window.show_desk("painel")
    window.pages["painel"].refresh()
    home = window.pages["painel"]
    assert home.step_marks["municipality"].text() == "✔" and "IBGE 3533908" in home.step_texts["municipality"].text()
    page.grab().save(str(tmp_path / "municipio.png"))


def test_the_workbooks_carry_the_coat_of_arms_in_their_title_rows(database, tmp_path):
    """Issue 31 §1: the fee report's workbook, like its PDF, is headed with the municipality's coat of arms — on
    every sheet, in the title rows; a municipality without one has no image."""
    import openpyxl

    from reports.fee_report_xlsx import write_fee_report_xlsx

    _two_towns_month()
    set_municipality(OLIMPIA)
    plain = write_fee_report_xlsx(fee_report(2026, 9, today=dt.date(2026, 10, 25)), tmp_path / "sem.xlsx")
    assert not any(ws._images for ws in openpyxl.load_workbook(plain).worksheets)
    set_municipality(MunicipalityInput(coat_of_arms=png(40, 48)))
    out = write_fee_report_xlsx(fee_report(2026, 9, today=dt.date(2026, 10, 25)), tmp_path / "taxas.xlsx")
    book = openpyxl.load_workbook(out)
    for ws in book.worksheets:
        assert len(ws._images) == 1, ws.title
        anchor = ws._images[0].anchor._from
        assert anchor.row == 0  # the title row, beside the title
