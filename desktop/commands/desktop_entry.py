"""``praca install-desktop-entry`` — Praça in a Linux desk's application menu: a ``.desktop`` file and the icon.

They go where the freedesktop.org specifications look for them: for the user running it under
``$XDG_DATA_HOME`` (``~/.local/share``) — ``applications/praca.desktop`` and
``icons/hicolor/scalable/apps/praca.svg`` —, or with ``--system`` for every user of the desk under
``/usr/local/share`` (run as root). The entry starts the ``praca`` that ran this command (the wheel's console
script or the bundle's executable), so it follows the installation it was made from.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
from pathlib import Path

from models.base.errors import UserError

LOGIN = False  # writes two files of the desk's, reads and changes no data

DESKTOP_FILE = "praca.desktop"
ICON_NAME = "praca"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--system", action="store_true", help="para todos os usuários do computador, em /usr/local/share (exige root)"
    )
    parser.add_argument("--remove", action="store_true", help="remove a entrada e o ícone instalados")
    parser.epilog = (
        "Linux: cria applications/praca.desktop e o ícone em ~/.local/share "
        "(ou /usr/local/share com --system); o menu de aplicativos passa a mostrar o Praça."
    )


def data_home(system: bool) -> Path:
    if system:
        return Path("/usr/local/share")
    env = os.environ.get("XDG_DATA_HOME", "").strip()
    return Path(env) if env and os.path.isabs(env) else Path.home() / ".local" / "share"


def executable() -> list[str]:
    """The command that starts this installation's window."""
    if getattr(sys, "frozen", False):  # the PyInstaller bundle: its own executable
        return [os.path.abspath(sys.executable)]
    beside = Path(sys.executable).with_name("praca")  # the console script of the environment running us
    if beside.is_file():
        return [str(beside)]
    found = shutil.which("praca")
    if found:
        return [os.path.abspath(found)]
    return [os.path.abspath(sys.executable), "-m", "desktop"]


def exec_line(command: list[str]) -> str:
    """The Exec key's value: each argument quoted as the Desktop Entry Specification asks when it needs it."""
    out = []
    for part in command:
        if any(c in part for c in " \t\n\"'\\><~|&;$*?#()`%"):
            escaped = "".join("\\" + c if c in '"`$\\' else c for c in part).replace("%", "%%")
            out.append(f'"{escaped}"')
        else:
            out.append(part)
    return " ".join(out).replace("\\", "\\\\")  # the string escape, applied before the quoting's


def desktop_entry(command: list[str]) -> str:
    return "\n".join(
        [
            "[Desktop Entry]",
            "Type=Application",
            "Version=1.0",
            "Name=Praça",
            "GenericName=Comércio em espaço público",
            "Comment=Atendimento, mapas de bancas, cobrança e fiscalização do comércio em espaço público",
            f"Exec={exec_line(command)}",
            f"Icon={ICON_NAME}",
            "Terminal=false",
            "Categories=Office;",
            "Keywords=alvará;ambulante;feira;banca;TPU;fiscalização;",
            "StartupNotify=true",
            "",
        ]
    )


def run(args: argparse.Namespace) -> int:
    if not sys.platform.startswith("linux"):
        raise UserError(
            "install-desktop-entry é para desktops Linux; no Windows o instalador cria o atalho "
            "no menu Iniciar (docs/install-windows.md)."
        )
    import resources

    home = data_home(args.system)
    entry = home / "applications" / DESKTOP_FILE
    icon = home / "icons" / "hicolor" / "scalable" / "apps" / f"{ICON_NAME}.svg"
    try:
        if args.remove:
            removed = [str(p) for p in (entry, icon) if p.exists()]
            for path in (entry, icon):
                path.unlink(missing_ok=True)
            print(f"Removidos: {', '.join(removed)}." if removed else "Nada a remover.")
            return 0
        entry.parent.mkdir(parents=True, exist_ok=True)
        icon.parent.mkdir(parents=True, exist_ok=True)
        from models.store.outfile import output, write_text  # aside, checked, synced, renamed (issue 16 §1)

        with output(icon, kind="svg", private=False) as tmp:
            shutil.copyfile(Path(resources.__file__).resolve().parent / "icons" / "praca.svg", tmp)
        # some desktops only start a launcher marked executable
        write_text(entry, desktop_entry(executable()), kind="desktop", mode=0o755)
    except OSError as exc:
        where = exc.filename or home
        hint = " (use sudo para --system)" if args.system and isinstance(exc, PermissionError) else ""
        raise UserError(f"Não foi possível gravar em {where}: {exc.strerror or exc}{hint}.") from None
    print(f"Entrada do menu: {entry}\nÍcone: {icon}")
    return 0
