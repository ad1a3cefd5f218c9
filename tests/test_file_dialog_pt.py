"""The file dialog Qt draws itself (a platform without its own) speaks Portuguese (issue 18 §5): Qt's pt_BR
file lacks "&Look in:" and "Files of &type:" in this Qt version, and desktop.app fills that gap."""

from __future__ import annotations

import re

from PySide6.QtWidgets import QAbstractButton, QFileDialog, QLabel


def _texts(dialog) -> list[str]:
    shown = [w.text() for w in dialog.findChildren(QLabel)] + [w.text() for w in dialog.findChildren(QAbstractButton)]
    shown += [w.toolTip() for w in dialog.findChildren(QAbstractButton)]
    return [re.sub("&", "", text) for text in shown if text]


def test_qt_own_file_dialog_has_no_english_label(app_ready, qtbot, tmp_path):
    dialog = QFileDialog(None, "Salvar o relatório", str(tmp_path), "Planilha (*.xlsx)")
    dialog.setOption(QFileDialog.Option.DontUseNativeDialog)
    dialog.setAcceptMode(QFileDialog.AcceptMode.AcceptSave)
    qtbot.addWidget(dialog)
    dialog.show()
    texts = _texts(dialog)
    assert "Procurar em:" in texts and "Arquivos do tipo:" in texts and "Nome do arquivo:" in texts
    english = {
        "Look in:",
        "Files of type:",
        "File name:",
        "Save",
        "Cancel",
        "Open",
        "Back",
        "Forward",
        "Parent Directory",
        "Create New Folder",
        "List View",
        "Detail View",
    }
    assert not english.intersection(texts), sorted(english.intersection(texts))
