"""Issue 31 §3: the offline help — pages generated from docs/ajuda and kept up to date, F1 opening the guide of the
desk in use, Ajuda listing the desks' guides."""

from __future__ import annotations

import pytest
from factories import open_new_database
from PySide6.QtCore import QSettings, Qt, QUrl

from desktop import help_build
from models.store.files import set_store

DESKS = ("painel", "atendimento", "selecao", "mapas", "cobranca", "fiscalizacao", "relatorios", "cadastros")


def test_the_bundled_help_is_what_the_guides_in_docs_give():
    built = help_build.build()
    on_disk = {p.name: p.read_text(encoding="utf-8") for p in help_build.OUT.iterdir() if p.is_file()}
    assert on_disk == built, "resources/help is out of date: run  make help"


def test_every_desk_has_a_guide_in_portuguese():
    from views.help_index import help_pages

    pages = {p.key: p for p in help_pages()}
    assert set(DESKS) <= set(pages) and "primeiros-passos" in pages
    assert [p.key for p in help_pages()][: len(DESKS)] == list(DESKS)  # the desks' order
    for key in DESKS:
        assert pages[key].path.is_file()


def test_the_markdown_the_guides_use_becomes_html():
    title, page = help_build.to_html(
        "# Título\n\nUm *termo* e **negrito** com `praca demo` e <tag>.\n\n* um\n* dois\n  continua\n\n1. primeiro\n\n"
        "Veja [Atendimento](atendimento.md) e [o site](https://example.org/a_b).\n"
    )
    assert title == "Título"
    assert "<h1>Título</h1>" in page and "<i>termo</i>" in page and "<b>negrito</b>" in page
    assert "<code>praca demo</code>" in page and "&lt;tag&gt;" in page
    assert "<ul><li>um</li><li>dois continua</li></ul>" in page and "<ol><li>primeiro</li></ol>" in page
    assert '<a href="atendimento.html">Atendimento</a>' in page and '<a href="https://example.org/a_b">' in page


@pytest.fixture
def window(app_ready, qtbot, tmp_path):
    QSettings().clear()
    open_new_database(f"sqlite:///{tmp_path / 'praca.sqlite3'}")
    set_store(tmp_path / "files")
    from desktop.main_window import MainWindow

    win = MainWindow()
    qtbot.addWidget(win)
    win.resize(1366, 768)
    win.show()
    qtbot.waitExposed(win)
    yield win
    if getattr(win, "help_window", None) is not None:
        win.help_window.close()
    from models.store.bootstrap import close_database

    close_database()


@pytest.mark.parametrize("desk", DESKS)
def test_f1_on_each_desk_opens_its_guide(window, qtbot, desk):
    window.show_desk(desk)
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow, timeout=5000)
    qtbot.keyClick(window.nav, Qt.Key.Key_F1)
    help_window = window.help_window
    assert help_window.isVisible() and help_window.key == desk
    shown = help_window.browser.toPlainText()
    title = next(p.title for p in help_window.pages if p.key == desk)
    assert shown.startswith(title)
    assert help_window.list.currentItem().text() == title


def test_ajuda_lists_the_desks_guides_and_links_between_them_are_followed(window, qtbot):
    titles = [action.text() for action in window.guide_actions.values()]
    assert titles[:3] == ["Painel", "Atendimento", "Seleção"] and "Primeiros passos" in titles
    window.guide_actions["cadastros"].trigger()
    help_window = window.help_window
    assert help_window.key == "cadastros" and "Assinatura" in help_window.browser.toPlainText()
    link = help_window.browser.source().resolved(QUrl("primeiros-passos.html"))  # the guide's own link
    help_window.browser.setSource(link)  # what a click on it does
    assert help_window.key == "primeiros-passos" and help_window.list.currentItem().text() == "Primeiros passos"
