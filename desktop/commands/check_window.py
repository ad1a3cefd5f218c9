"""``praca check-window`` — open the main window on a database, build every desk, and close it.

The smoke test of an installation (a wheel in a fresh environment, the PyInstaller bundle): it proves that Qt
starts, that every desk's module and resources are there and that each desk fills from the database, without a
clerk at the screen. Without a display (a server, CI) it draws offscreen.
"""

from __future__ import annotations

import argparse
import os
import sys

LOGIN = True  # the desks show personal data: the window opens as a logged-in Praça user


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--offscreen",
        action="store_true",
        help="desenha fora da tela mesmo havendo um monitor (padrão quando não há nenhum)",
    )
    parser.epilog = (
        "Abre a janela principal no banco, monta cada mesa e fecha; sai com status 1 se alguma "
        "mesa falhar. Serve para conferir uma instalação."
    )


def _no_display() -> bool:
    if sys.platform != "linux":
        return False
    return not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def run(args: argparse.Namespace) -> int:
    if (args.offscreen or _no_display()) and not os.environ.get("QT_QPA_PLATFORM"):
        os.environ["QT_QPA_PLATFORM"] = "offscreen"
    from desktop.app import ensure_app
    from desktop.paths import resolve_db_url, use_data_folder
    from models.store.bootstrap import close_database, open_database

    app = ensure_app([sys.argv[0] if sys.argv else "praca", *getattr(args, "qt_arguments", [])])
    use_data_folder()
    open_database(resolve_db_url(getattr(args, "db", None)))  # the login happens here (desktop/login.py)
    failures: list[str] = []
    previous_hook = sys.excepthook

    def record(kind, value, tb):  # an exception in a slot does not stop Qt's loop: it is counted here
        failures.append(f"{kind.__name__}: {value}")
        previous_hook(kind, value, tb)

    sys.excepthook = record
    try:
        from desktop.main_window import MainWindow

        # on the database open above, as the user logged in above; it only looks: the clerk's next start opens on
        # the desk and at the size the clerk left, not on the last desk built here (issue 32 §4)
        window = MainWindow(remember=False)
        window.show()
        app.processEvents()
        for desk in window.desks:
            try:
                window.show_desk(desk.key)
                app.processEvents()
            except Exception as exc:  # each desk is reported, the others still tried
                failures.append(f"{desk.label}: {type(exc).__name__}: {exc}")
        title = window.windowTitle()
        labels = ", ".join(desk.label for desk in window.desks)
        window.close()
        window.deleteLater()
        app.processEvents()
    finally:
        sys.excepthook = previous_hook
        close_database()
    if failures:
        for failure in dict.fromkeys(failures):  # a desk built again on the next show fails the same way: once
            print(f"praca check-window: {failure}", file=sys.stderr)
        return 1
    from desktop.app import translators

    print(f"Janela aberta ({title}); mesas montadas: {labels}.")
    print(f"Traduções do Qt em pt_BR: {'carregadas' if translators else 'ausentes'}.")
    from views import theme

    shade = "escura" if theme.is_dark(app.palette()) else "clara"
    print(f"Aparência: estilo {theme.style_name()}, paleta {shade} ({theme.saved_appearance()}).")
    return 0
