"""The ``praca`` command: no subcommand opens the window; subcommands work headless.

Every subcommand takes ``--db URL``. Errors are one line on stderr and a
non-zero exit (2 for bad input or a refused operation).

**Login — every subcommand declares it.** A module under ``desktop/commands``
sets ``LOGIN`` beside ``configure`` and ``run``:

    LOGIN = False            # computes from the acts only, or sets up a new database: no login
    LOGIN = True             # changes data or reads personal data (the default when absent)
    LOGIN = "unless-empty"   # as True, but a database with no data yet is set up by the system (restore)
    LOGIN = lambda args: args.action == "set"   # depends on the arguments

A subcommand that needs it runs as the Praça user named by ``--user NAME``
(password asked) or ``PRACA_USER``/``PRACA_PASSWORD``, logged in when it opens
its database (``desktop/login.py``); nobody logged in may do nothing
(``models.access.session``).
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence

from desktop import __version__
from models.base.errors import UserError, one_line

PROG = "praca"

# name → (module under desktop.commands or None when not built yet, help text)
COMMANDS: dict[str, tuple[str | None, str]] = {
    "init": ("init", "cria um banco de dados novo e vazio do Praça"),
    "municipality": ("municipality", "o município deste banco (nome, UF, IBGE, CNPJ, brasão, expediente): show, set"),
    "first-steps": ("first_steps", "primeiros passos: o que falta ao banco (município, ato, chave, feriados…)"),
    "pg-setup": ("pg_setup", "PostgreSQL, no servidor: o papel e os logins das mesas, e as senhas que valem nelas"),
    "demo": (
        "demo",
        "cria um banco novo com dados de demonstração: --town sao-bento|sapezal|ilha-comprida|sjc|olimpia|"
        "cabeceira-grande, um município com o seu ato; sem --town, os seis regimes sob Olímpia",
    ),
    "regimes": ("regimes", "lista os regimes; --show ID mostra todos os ids que os outros comandos aceitam"),
    "quote": ("quote", "calcula o preço de uma banca, linha a linha, com fórmulas e artigos"),
    "penalty": ("penalty", "a sanção que o ato prevê para uma infração"),
    "deadline": ("deadline", "um prazo legal, com feriados"),
    "units": ("units", "valores das unidades fiscais e correções de índices; units set cadastra um"),
    "holidays": ("holidays", "feriados do município e expediente: list, add, remove, import, office-hours"),
    "draw": ("draw", "sorteio público e verificável"),
    "sites": ("sites", "locais (ruas, feiras, áreas de evento)"),
    "layout": ("layout", "exporta o mapa de um local (json, pdf, png, svg)"),
    "permit": ("permit", "imprime alvará, cartão de identificação ou placa"),
    "verify": ("verify", "verifica o QR code de um documento emitido"),
    "verify-page": ("verify_page", "exporta a página de verificação por celular (HTML estático com as chaves)"),
    "signing": ("signing", "chave de assinatura da prefeitura: create, rotate, revoke, unlock, list, url"),
    "collection": ("collection", "convênio de arrecadação (FEBRABAN) e chave Pix do município: set, show"),
    "guia": ("guia", "emite a guia (DAM) de cobranças com código de barras FEBRABAN e QR Pix"),
    "debts": ("debts", "dívida ativa: export lista as cobranças vencidas além do prazo do município (xlsx, csv)"),
    "payments": ("payments", "pagamentos: import (arquivo de retorno do banco), reverse (estorno)"),
    "report": ("report", "relatórios de taxas e de sanções (xlsx, html, pdf)"),
    "import": ("import_", "importa ambulantes (e suas permissões) de uma planilha xlsx ou csv"),
    "backup": ("backup", "cópia de segurança do banco de dados"),
    "restore": ("restore", "restaura uma cópia de segurança"),
    "audit": ("audit", "confere a trilha de auditoria e assina o seu ponto de controle (audit verify, checkpoint)"),
    "check-window": ("check_window", "abre a janela, monta cada mesa e fecha (confere uma instalação)"),
    "install-desktop-entry": ("desktop_entry", "Linux: põe o Praça no menu de aplicativos (.desktop e ícone)"),
}


# argparse speaks through gettext; these are the messages a user can meet, in pt-BR.
_ARGPARSE_PT = {
    "ambiguous option: %(option)s could match %(matches)s": "opção ambígua: %(option)s pode ser %(matches)s",
    "argument %(argument_name)s: %(message)s": "argumento %(argument_name)s: %(message)s",
    "expected at least one argument": "esperado ao menos um valor",
    "expected at most one argument": "esperado no máximo um valor",
    "expected one argument": "esperado um valor",
    "ignored explicit argument %r": "valor ignorado: %r",
    "invalid %(type)s value: %(value)r": "valor inválido: %(value)r",
    "invalid choice: %(value)r (choose from %(choices)s)": "opção inválida: %(value)r (escolha entre %(choices)s)",
    "not allowed with argument %s": "não permitido junto com %s",
    "one of the arguments %s is required": "um dos argumentos %s é obrigatório",
    "the following arguments are required: %s": "argumentos obrigatórios ausentes: %s",
    "unrecognized arguments: %s": "argumentos não reconhecidos: %s",
    "unknown parser %(parser_name)r (choices: %(choices)s)": (
        "comando desconhecido %(parser_name)r (opções: %(choices)s)"
    ),
    "usage: ": "uso: ",
    "show this help message and exit": "mostra esta ajuda e sai",
}
argparse._ = lambda message: _ARGPARSE_PT.get(message, message)  # type: ignore[attr-defined]  # argparse's gettext hook


#: Qt's own command-line arguments (QApplication's and QGuiApplication's): ``praca -style Fusion``. They are taken
#: off before Praça's own are read and given to Qt when the window opens (no subcommand, or check-window).
QT_OPTIONS = {
    "style",
    "stylesheet",
    "platform",
    "platformpluginpath",
    "platformtheme",
    "plugin",
    "qwindowgeometry",
    "qwindowicon",
    "qwindowtitle",
    "display",
    "geometry",
    "session",
    "name",
    "title",
    "qmljsdebugger",
}
QT_FLAGS = {"reverse", "widgetcount", "sync", "nograb", "dograb"}
#: The subcommands that open the window and so take Qt's arguments.
QT_COMMANDS = {None, "check-window"}


def split_qt_arguments(argv: Sequence[str]) -> tuple[list[str], list[str]]:
    """``argv`` as (Praça's arguments, Qt's): ``-style Fusion``, ``-style=Fusion``, ``-reverse``… (one dash, as
    Qt writes them; Praça's own options have two)."""
    own: list[str] = []
    qt: list[str] = []
    items = list(argv)
    index = 0
    while index < len(items):
        token = items[index]
        name, equals, _ = (
            token[1:].partition("=") if token.startswith("-") and not token.startswith("--") else ("", "", "")
        )
        if name in QT_OPTIONS and (equals or index + 1 < len(items)):
            qt.extend([token] if equals else [token, items[index + 1]])
            index += 1 if equals else 2
            continue
        if name in QT_FLAGS and not equals:
            qt.append(token)
        else:
            own.append(token)
        index += 1
    return own, qt


class HelpFormatter(argparse.RawDescriptionHelpFormatter):
    def add_usage(self, usage, actions, groups, prefix=None):
        return super().add_usage(usage, actions, groups, prefix="uso: " if prefix is None else prefix)


class ArgumentParser(argparse.ArgumentParser):
    """argparse with pt-BR headings and one-line errors."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("formatter_class", HelpFormatter)
        kwargs.setdefault("add_help", False)
        super().__init__(*args, **kwargs)
        self._positionals.title = "argumentos"
        self._optionals.title = "opções"
        self.add_argument("-h", "--help", action="help", help="mostra esta ajuda e sai")

    def error(self, message: str):  # argparse API
        self.exit(2, f"{self.prog}: {one_line(message)}\n")


def db_option(parser: argparse.ArgumentParser, *, top: bool) -> None:
    parser.add_argument(
        "--db",
        metavar="URL",
        default=None if top else argparse.SUPPRESS,
        help="banco de dados: sqlite:///CAMINHO ou postgresql://usuario@servidor:porta/banco "
        "(padrão: $PRACA_DB ou o banco embutido na pasta de dados do usuário)",
    )
    parser.add_argument(
        "--user",
        metavar="NOME",
        default=None if top else argparse.SUPPRESS,
        help="usuário do Praça que executa o comando (a senha é pedida, ou lida de $PRACA_PASSWORD); "
        "padrão: $PRACA_USER",
    )


def build_parser() -> ArgumentParser:
    parser = ArgumentParser(
        prog=PROG,
        description="Praça — comércio em espaço público: atendimento, mapas de bancas, cobrança e fiscalização.\n"
        "Sem comando, abre o aplicativo; os argumentos do próprio Qt valem aí (-style Fusion, -platform xcb).",
    )
    parser.add_argument("--version", action="version", version=f"Praça {__version__}", help="mostra a versão e sai")
    db_option(parser, top=True)
    sub = parser.add_subparsers(dest="command", metavar="COMANDO", title="comandos", parser_class=ArgumentParser)
    for name, (module_name, help_text) in COMMANDS.items():
        if module_name is None:
            p = sub.add_parser(
                name,
                help=f"{help_text} (ainda não disponível)",
                description=f"{help_text}.\nAinda não disponível nesta versão do Praça: o comando sai com status 2.",
            )
            p.add_argument("rest", nargs=argparse.REMAINDER, help=argparse.SUPPRESS)
            db_option(p, top=False)
            p.set_defaults(func=_not_built(name))
            continue
        module = importlib.import_module(f"desktop.commands.{module_name}")
        p = sub.add_parser(name, help=help_text, description=help_text)
        db_option(p, top=False)
        module.configure(p)
        p.set_defaults(func=module.run, _login=getattr(module, "LOGIN", True))
    return parser


def _not_built(name: str):
    def run(_args: argparse.Namespace) -> int:
        print(f"{PROG}: o comando '{name}' ainda não está disponível nesta versão do Praça.", file=sys.stderr)
        return 2

    return run


class _VisibleStream:
    """A text stream that writes the control characters of data as visible symbols (``models.base.text.visible``):
    a name holding an escape sequence never reaches the terminal as one."""

    def __init__(self, stream):
        self._stream = stream

    def write(self, text: str) -> int:
        from models.base.text import visible

        self._stream.write(visible(text))
        return len(text)

    def __getattr__(self, name):
        return getattr(self._stream, name)


def main(argv: Sequence[str] | None = None) -> int:
    out, err = sys.stdout, sys.stderr
    # pythonw (the praca-gui script on Windows) starts with no streams at all: what is said goes nowhere
    quiet = open(os.devnull, "w", encoding="utf-8") if out is None or err is None else None
    sys.stdout, sys.stderr = _VisibleStream(out or quiet), _VisibleStream(err or quiet)
    try:
        return _main(argv)
    finally:
        sys.stdout, sys.stderr = out, err
        if quiet is not None:
            quiet.close()


def _main(argv: Sequence[str] | None) -> int:
    parser = build_parser()
    own, qt_arguments = split_qt_arguments(sys.argv[1:] if argv is None else argv)
    args = parser.parse_args(own)
    if qt_arguments and args.command not in QT_COMMANDS:  # only a command that opens the window hands them to Qt
        parser.error(f"argumentos não reconhecidos: {' '.join(qt_arguments)}")
    args.qt_arguments = qt_arguments
    from desktop.paths import protect_backups

    protect_backups()  # nothing but the automatic backup writes in the data folder's backups (issue 26 §6)
    try:
        if args.command is None:
            from desktop.app import run_gui

            return run_gui(args.db, qt_arguments)
        from desktop.login import for_command

        with for_command(args):
            return int(args.func(args) or 0)
    except UserError as exc:
        print(f"{PROG}: {exc.message}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        print(f"{PROG}: interrompido.", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 1
    except Exception as exc:  # one line for the user; the traceback on request
        if os.environ.get("PRACA_DEBUG"):
            raise
        known = failure_text(exc)
        if known is not None:
            print(f"{PROG}: {one_line(known)}", file=sys.stderr)
            return 2
        print(f"{PROG}: erro inesperado: {type(exc).__name__}: {one_line(str(exc))}", file=sys.stderr)
        return 1


def failure_text(exc: BaseException) -> str | None:
    """One pt-BR line for a failure that is the input's or the world's, not Praça's (exit 2): the database's
    (``models.store.db.database_error_text``), a date past the calendar, a number beyond any record, a file that
    cannot be read, input too large. ``None``: a real bug ("erro inesperado", exit 1)."""
    from models.store.db import database_error_text

    text = database_error_text(exc)
    if text is not None:
        return text
    message = str(exc).lower()
    if isinstance(exc, (OverflowError, ValueError)) and ("date" in message or "year" in message) and "range" in message:
        return (
            "Data fora do calendário que o Praça calcula: o resultado passaria do ano 9999 ou ficaria antes "
            "do ano 1. Confira as datas informadas."
        )
    if isinstance(exc, OverflowError):
        return "Número grande demais: nenhum registro do Praça tem esse número."
    if isinstance(exc, ValueError) and "null byte" in message:
        return "Caminho com caractere nulo (NUL): confira o que foi digitado."
    if isinstance(exc, OSError):
        name = exc.filename or "o arquivo"
        return f"Não foi possível usar {name}: {exc.strerror or type(exc).__name__}."
    if isinstance(exc, UnicodeError):
        return "Texto com caracteres que não são UTF-8 válido: confira o que foi digitado ou o arquivo."
    if isinstance(exc, (MemoryError, RecursionError)):
        return "A entrada é grande demais para o Praça processar."
    return None
