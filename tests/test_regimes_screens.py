"""Cadastros → Regimes and Unidades fiscais, driven through the real widgets."""

from __future__ import annotations

from decimal import Decimal

import pytest
from PySide6.QtCore import Qt

from models.billing.fiscal import FiscalUnitValue


@pytest.fixture
def registry(app_ready, qtbot, sqlite_database):
    from desktop.main_window import MainWindow

    win = MainWindow()
    qtbot.addWidget(win)
    win.show()
    win.show_desk("cadastros")
    return win.pages["cadastros"]


def test_regimes_screen_shows_every_shipped_act_with_articles(registry):
    page = registry.regimes_page
    ids = {page.list.item(i).data(Qt.ItemDataRole.UserRole) for i in range(page.list.count())}
    assert ids == {
        "sao-bento-2026",
        "sapezal-2014",
        "ilha-comprida-2017",
        "sjc-2014",
        "olimpia-2025",
        "cabeceira-grande-2012",
        "sao-lourenco-do-oeste-1997",
        "chapadao-do-sul-2007",
        "leopolis-2003",
        "caravelas-1994",
    }
    page.select("chapadao-do-sul-2007")
    text = page.browser.toPlainText()
    assert "Chapadão do Sul/MS" in text and "LC de 21/12/2007, Tabela III, item 08" in text
    page.select("sjc-2014")
    text = page.browser.toPlainText()
    assert "São José dos Campos/SP" in text
    assert "XXVIII" in text and "Lei 9.158/2014, art. 8º" in text
    page.select("olimpia-2025")
    text = page.browser.toPlainText()
    assert "R$ 38,42" in text.replace("\xa0", " ")
    assert "LC 324/2025, art. 89" in text


def test_find_as_you_type_in_the_regime(registry, qtbot):
    page = registry.regimes_page
    page.select("sao-bento-2026")
    qtbot.keyClicks(page.find_edit, "engate")
    assert page.browser.textCursor().selectedText().lower() == "engate"
    page.find_edit.clear()
    qtbot.keyClicks(page.find_edit, "xyzzy-inexistente")
    assert page.find_status.text() == "não encontrado"


def test_regime_saves_as_pdf(registry, tmp_path):
    page = registry.regimes_page
    page.select("sjc-2014")
    out = tmp_path / "sjc.pdf"
    page.write_pdf(str(out))
    assert out.read_bytes()[:5] == b"%PDF-"


def test_fiscal_unit_value_entered_on_screen_overrides_the_act(registry, qtbot, steps):
    registry.tabs.setCurrentWidget(registry.fiscal_units_page)
    page = registry.fiscal_units_page
    page.select_unit("UFESP")
    assert "Olímpia/SP" in page.used_by.text() and "São Bento do Sapucaí/SP" in page.used_by.text()
    page.year.setValue(2027)
    qtbot.keyClicks(page.value, "40,12")
    qtbot.keyClicks(page.reason, "Comunicado DICAR 2027")
    with steps("cadastrar o valor"):  # checked and written on a worker (issue 27 §5)
        qtbot.mouseClick(page.save_button, Qt.MouseButton.LeftButton)
    steps.check()
    assert "cadastrado" in page.message.text()
    row = FiscalUnitValue.get()
    assert row.value == Decimal("40.12") and row.year == 2027 and row.entered_by
    shown = [page.model.data(page.model.index(r, 2)) for r in range(page.model.rowCount())]
    assert any(s.replace("\xa0", " ") == "R$ 40,12" for s in shown)
    # The Regimes tab shows the clerk's value with who entered it.
    registry.tabs.setCurrentWidget(registry.regimes_page)
    registry.regimes_page.select("olimpia-2025")
    assert "cadastrado por" in registry.regimes_page.browser.toPlainText()


def test_bad_fiscal_unit_value_is_refused_at_the_field(registry, qtbot):
    page = registry.fiscal_units_page
    page.select_unit("UFESP")
    page.year.setValue(2030)
    qtbot.keyClicks(page.value, "-5")
    qtbot.keyClicks(page.reason, "x")
    qtbot.mouseClick(page.save_button, Qt.MouseButton.LeftButton)
    assert "maior que zero" in page.message.text()
    assert FiscalUnitValue.select().count() == 0


def test_a_likely_typo_asks_before_saving(registry, qtbot, monkeypatch):
    from PySide6.QtWidgets import QMessageBox

    asked = []
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: asked.append(a[2]) or QMessageBox.StandardButton.No)
    page = registry.fiscal_units_page
    page.select_unit("UFESP")
    page.year.setValue(2027)
    qtbot.keyClicks(page.value, "3842")  # meant 38,42: a hundred times the value of 2026
    qtbot.keyClicks(page.reason, "Comunicado")
    qtbot.mouseClick(page.save_button, Qt.MouseButton.LeftButton)
    assert asked and "difere" in asked[0]
    assert page.message.text() == "Nada foi cadastrado."
    assert FiscalUnitValue.select().count() == 0


def test_unit_values_model(registry, qtmodeltester):
    page = registry.fiscal_units_page
    page.select_unit("UFESP")
    assert page.model.rowCount() >= 3
    qtmodeltester.check(page.model)


def test_index_correction_entered_on_screen_prices_sjc(registry, qtbot):
    from models.billing.pricing import quote

    registry.tabs.setCurrentWidget(registry.indexes_page)
    page = registry.indexes_page
    assert page.index_combo.currentData() == "INPC"
    assert "São José dos Campos/SP" in page.explain.text()
    page.year.setValue(2015)
    qtbot.keyClicks(page.rate, "6,23")
    qtbot.keyClicks(page.reason, "INPC 2014")
    qtbot.mouseClick(page.save_button, Qt.MouseButton.LeftButton)
    assert page.model.rowCount() == 1
    assert page.model.data(page.model.index(0, 1)) == "6,23 %"
    assert quote("sjc-2014", line="comidas-tipicas", front="4", depth="3,5", year=2015).total == Decimal(
        "37.18"
    )  # 35,00 × 1,0623


def test_bad_index_correction_is_refused(registry, qtbot):
    page = registry.indexes_page
    qtbot.keyClicks(page.rate, "seis")
    qtbot.mouseClick(page.save_button, Qt.MouseButton.LeftButton)
    assert "«seis» não é um número" in page.message.text()
    assert page.model.rowCount() == 0


# --------------------------------------------------------------------------- install, amend, retire (issue 20)


def _own_act(tmp_path, text: str, name: str = "minha-cidade-2027"):
    from models.rules.regimes import default_regimes_folder

    body = (default_regimes_folder() / "sao-bento-2026.toml").read_text(encoding="utf-8")
    body = body.replace('id = "sao-bento-2026"', f'id = "{name}"', 1).replace(
        'municipality = "São Bento do Sapucaí"', 'municipality = "Minha Cidade"', 1
    )
    path = tmp_path / f"{name}.toml"
    path.write_text(text(body), encoding="utf-8")
    return path


def test_install_shows_every_error_then_installs_a_good_file_and_lists_it(
    registry, tmp_path, no_blocking_message_boxes, steps
):
    from models.rules.acts import RegimeAct

    page = registry.regimes_page
    assert page.install_button.isEnabled()
    broken = _own_act(
        tmp_path,
        lambda t: t.replace("[[fees]]\n", "[[fees]]\ncolour = 1\n", 1).replace(
            "[[documents]]\n", "[[documents]]\nlabel_x = 2\n", 1
        ),
    )
    assert not page.install_file(str(broken))
    shown = page.error.text()
    assert "2 erro(s) no arquivo; nada foi gravado" in shown
    assert "documents.cnpj-card.label_x: chave desconhecida" in shown and "fees.occupation.colour: chave" in shown
    assert not RegimeAct.select().where(RegimeAct.regime_id == "minha-cidade-2027").exists()

    good = _own_act(tmp_path, lambda t: t)
    with steps("instalar"):  # installed and shown with its versions and values on workers (issue 27 §5)
        assert page.install_file(str(good))
    steps.check()
    assert (
        "Instalar este ato?" in no_blocking_message_boxes[-1] and "preços e taxas: 2" in no_blocking_message_boxes[-1]
    )
    assert page.current_id() == "minha-cidade-2027" and "Minha Cidade/SP" in page.browser.toPlainText()
    assert "versão 1 (texto original)" in page.versions.text()


def test_an_amendment_and_a_retirement_from_the_screen(registry, tmp_path, steps):
    page = registry.regimes_page
    page.select("sao-bento-2026")
    amended = tmp_path / "alteracao" / "sao-bento-2026.toml"
    amended.parent.mkdir()
    from models.rules.regimes import default_regimes_folder

    text = (default_regimes_folder() / "sao-bento-2026.toml").read_text(encoding="utf-8")
    amended.write_text(
        text + '\n[regime.amendment]\nact = "Decreto nº 4.800/2026"\nin_force_from = 2026-03-26\n', encoding="utf-8"
    )
    with steps("alterar"):
        assert page.install_file(str(amended), amend=True)
    assert "versão 2 (alteração: Decreto nº 4.800/2026), em vigor a partir de 26/03/2026" in page.versions.text()
    assert not page.retire("sjc-2014", "")
    assert "Informe o motivo" in page.error.text()
    with steps("retirar"):
        assert page.retire("sjc-2014", "revogada pela lei nova")
    steps.check()
    labels = {
        page.list.item(i).data(Qt.ItemDataRole.UserRole): page.list.item(i).text() for i in range(page.list.count())
    }
    assert labels["sjc-2014"].endswith("(retirado)")  # still shown, with its versions; no longer offered
    page.select("sjc-2014")
    assert not page.amend_button.isEnabled() and not page.retire_button.isEnabled()
    assert "versão 1 (texto original)" in page.versions.text()


def test_a_clerk_sees_the_acts_but_cannot_change_them(registry):
    from models.access import session

    with session.acting_as(session.Session(5, "ana", "Ana", "atendente")):
        page = registry.regimes_page
        page.refresh()
        assert not page.install_button.isEnabled() and not page.retire_button.isEnabled()
