"""Render the README's screenshots from the real application, offscreen.

    QT_QPA_PLATFORM=offscreen .venv/bin/python docs/make_screenshots.py

Builds one town's demo (``praca demo --town sao-bento``: São Bento do Sapucaí with its own act, dated from
today) in a temporary folder, opens the real main window on it and saves what each desk shows into docs/*.png.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

# Own, throwaway user folders so the screenshot never reads the user's settings.
_tmp = tempfile.mkdtemp(prefix="praca-shots-")
for var in ("XDG_CONFIG_HOME", "XDG_DATA_HOME"):
    os.environ[var] = os.path.join(_tmp, var.lower())

from PySide6.QtWidgets import QApplication  # noqa: E402

from desktop.app import ensure_app  # noqa: E402
from models.demo import fill_demo  # noqa: E402
from models.demo.towns import README_TOWN as TOWN  # noqa: E402
from models.store.bootstrap import open_database  # noqa: E402

SHOTS = {
    "painel": "main-window.png",
    "atendimento": "atendimento.png",
    "selecao": "selecao.png",
    "mapas": "mapas.png",
    "fiscalizacao": "fiscalizacao.png",
    "relatorios": "relatorios.png",
    "cadastros": "cadastros.png",
}


def _shoot(app, window, name: str) -> None:
    for _ in range(5):
        app.processEvents()
    window.grab().save(str(HERE / name))
    print(f"docs/{name}")


def _fee_report_header(folder: Path) -> None:
    """The top of the first page of this month's fee report (PDF), as printed: the town hall's letterhead and the
    month's figures (docs/relatorio-cabecalho.png; needs poppler-utils' pdftoppm)."""
    import datetime as dt
    import shutil

    from make_report_images import png_page

    from reports.fee_export import export_fee_report

    if shutil.which("pdftoppm") is None:
        print("docs/relatorio-cabecalho.png: precisa do poppler-utils (pdftoppm)", file=sys.stderr)
        return
    today = dt.date.today()
    pdf, _report = export_fee_report(today.year, today.month, "pdf", folder / "taxas.pdf", today=today)
    target = HERE / "relatorio-cabecalho.png"
    png_page(pdf, 1, target, dpi=110, height=560)  # 910 px wide, legible on a 1366×768 screen: the letterhead
    print(f"docs/{target.name}")


def main() -> int:
    app = ensure_app([sys.argv[0]])
    from models.access import session

    session.log_in(session.SYSTEM)  # the demo is written by the system, as `praca demo` does
    open_database(f"sqlite:///{Path(_tmp) / 'demo.sqlite3'}", create=True)
    fill_demo(town=TOWN)
    from models.store.files import set_store

    set_store(Path(_tmp) / "files")
    from desktop.main_window import MainWindow

    window = MainWindow()
    window.resize(1366, 768 - 40 - 30)  # the town hall's 1366×768 screen, less the taskbar and the title bar
    window.show()
    window.refresh()
    window.pages["atendimento"].search.query.setText("silva")
    simulator = window.pages["cobranca"].simulator
    simulator.select_regime("sao-bento-2026")
    simulator.equipment.setCurrentIndex(simulator.equipment.findData("trailer"))
    simulator.front.setText("3")
    simulator.hitch.setText("1")
    simulator.depth_edit.setText("3")
    simulator.mei.setChecked(True)
    simulator.local.setChecked(True)
    simulator.energy.setCurrentIndex(simulator.energy.findData("high"))
    registry = window.pages["cadastros"]
    registry.regimes_page.select("sao-bento-2026")
    import datetime as dt

    from models.sites import Site

    window.show_desk("mapas")
    maps = window.pages["mapas"]
    maps.refresh()
    maps.select_site(Site.get(Site.regime == "sao-bento-2026").id)
    for desk, name in SHOTS.items():
        window.show_desk(desk)
        _shoot(app, window, name)
    window.show_desk("cobranca")
    billing = window.pages["cobranca"]
    billing.tabs.setCurrentIndex(2)  # the simulator, in its scroll area
    _shoot(app, window, "simulador.png")
    billing.tabs.setCurrentWidget(billing.charges)
    today = dt.date.today()
    billing.charges.set_month(today.year, today.month)
    billing.charges.table.selectRow(1)
    _shoot(app, window, "cobranca.png")
    desk = window.pages["atendimento"]
    window.show_desk("atendimento")
    desk.tabs.setCurrentWidget(desk.permits)
    if desk.permits.model.rowCount():
        desk.permits.table.selectRow(0)
    for _ in range(5):
        app.processEvents()
    window.grab().save(str(HERE / "permissoes.png"))
    print("docs/permissoes.png")
    desk.tabs.setCurrentWidget(desk.worklist)  # the application as filed, for the one who decides
    worklist = desk.worklist
    worklist.refresh()
    if worklist.model.rowCount():  # one in analysis: the chefe's to decide, its checks still "a conferir"
        rows = [item.status for item in worklist.model.rows]
        worklist.table.selectRow(rows.index("analysis") if "analysis" in rows else 0)
        session.log_in(session.Session(None, "helena.prado", "Helena Prado", "chefe"))
        view = worklist.open_selected(dialog_hook=lambda dialog: dialog.show())
        view.resize(1280, 720)  # as it opens on the town hall's 1366×768 screen
        _shoot(app, view, "decisao.png")
        view.close()
        session.log_in(session.SYSTEM)
    _fee_report_header(Path(_tmp))
    from views import theme

    theme.apply(app, theme.DARK)  # Arquivo → Configurações → Aparência → Escuro (this throwaway profile's)
    window.show_desk("atendimento")
    desk.tabs.setCurrentIndex(0)
    _shoot(app, window, "escuro.png")
    window.close()
    QApplication.processEvents()
    return 0


if __name__ == "__main__":
    sys.exit(main())
