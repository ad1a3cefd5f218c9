"""``praca municipality show|set`` — which municipality this database is (issue 31 §1).

The same identity as Cadastros → Município (``models.registry.municipality``): name, UF, IBGE code, CNPJ,
address, agency, coat of arms and the office's hours. Every letterhead, report, guia, map and permit takes the
municipality from here; a database made before Praça kept it is completed with ``set``.

* ``praca municipality show [--json]`` — what is set (no login);
* ``praca municipality set --name NOME --uf UF [--ibge CÓDIGO] [--cnpj CNPJ] [--address TEXTO] [--agency TEXTO]
  [--coat-of-arms IMAGEM.png | --no-coat-of-arms] [--office-hours 08:00-17:00]`` — the administrator; an option
  left out keeps what is stored. Bad input: one line, exit 2, nothing stored.
"""

from __future__ import annotations

import argparse
import json
import sys


def LOGIN(args: argparse.Namespace) -> bool:  # noqa: N802 - the name desktop/cli.py looks up
    """Showing needs no login; setting does (the administrator)."""
    return getattr(args, "action", None) == "set"


def identity_options(parser: argparse.ArgumentParser, *, name_flag: str) -> None:
    """The identity's options, shared with ``praca init`` (which names the town ``--municipality``)."""
    parser.add_argument(name_flag, dest="name", metavar="NOME", help="nome do município, como Olímpia")
    parser.add_argument("--uf", metavar="UF", help="sigla do estado, como SP")
    parser.add_argument("--ibge", metavar="CÓDIGO", help="código IBGE do município (7 algarismos, como 3533908)")
    parser.add_argument("--cnpj", metavar="CNPJ", help="CNPJ da prefeitura")
    parser.add_argument("--address", metavar="TEXTO", help="endereço da prefeitura")
    parser.add_argument(
        "--agency", metavar="TEXTO", help="nome do órgão no cabeçalho (padrão: Prefeitura Municipal de …)"
    )
    parser.add_argument("--coat-of-arms", metavar="IMAGEM", help="brasão: arquivo PNG ou JPEG de até 512 KiB")
    parser.add_argument("--office-hours", metavar="HORÁRIO", help="expediente da repartição, como 08:00-17:00")


def configure(parser: argparse.ArgumentParser) -> None:
    from desktop.cli import ArgumentParser, db_option

    sub = parser.add_subparsers(dest="action", metavar="AÇÃO", title="ações", parser_class=ArgumentParser)
    show = sub.add_parser("show", help="mostra o município deste banco", formatter_class=parser.formatter_class)
    show.add_argument("--json", action="store_true", help="saída em JSON")
    db_option(show, top=False)
    change = sub.add_parser(
        "set",
        help="informa ou corrige o município deste banco (administrador)",
        description="Informa ou corrige o município deste banco: as opções omitidas ficam como estão.",
        formatter_class=parser.formatter_class,
    )
    identity_options(change, name_flag="--name")
    change.add_argument("--no-coat-of-arms", action="store_true", help="tira o brasão")
    db_option(change, top=False)
    parser.epilog = (
        "Exemplos:\n"
        "  praca municipality show\n"
        "  praca --user joana.silva municipality set --name Olímpia --uf SP --ibge 3533908 "
        "--cnpj 45.116.276/0001-35 --coat-of-arms brasao.png --office-hours 08:00-17:00"
    )


def given_identity(args: argparse.Namespace):
    """The :class:`models.registry.municipality.MunicipalityInput` the options make (the image read and
    checked here: a bad file is one line before anything is stored)."""
    from models.registry.municipality import MunicipalityInput, read_coat_of_arms

    arms = None
    if getattr(args, "coat_of_arms", None):
        arms = read_coat_of_arms(args.coat_of_arms)
    elif getattr(args, "no_coat_of_arms", False):
        arms = b""
    return MunicipalityInput(
        name=args.name,
        state=args.uf,
        ibge=args.ibge,
        cnpj=args.cnpj,
        address=args.address,
        agency=args.agency,
        coat_of_arms=arms,
        office_hours=args.office_hours,
    )


def run(args: argparse.Namespace) -> int:
    from desktop.paths import resolve_db_url
    from models.store.bootstrap import close_database, open_database

    action = getattr(args, "action", None) or "show"
    given = given_identity(args) if action == "set" else None
    open_database(resolve_db_url(getattr(args, "db", None)))
    try:
        if action == "set":
            from models.registry.municipality import set_municipality

            assert given is not None
            found = set_municipality(given)
            print(f"Município deste banco: {found.label}.")
            print(describe(found))
            return 0
        return show(getattr(args, "json", False))
    finally:
        close_database()


def show(as_json: bool) -> int:
    from models.registry.municipality import missing_notice, municipality

    found = municipality()
    if as_json:
        print(json.dumps(found.as_dict(), ensure_ascii=False, indent=2))
        return 0
    notice = missing_notice()
    if notice:
        print(notice, file=sys.stderr)
    print(describe(found))
    return 0


def describe(found) -> str:
    from models.base.br import format_cnpj

    arms = f"{found.coat_of_arms_type}, {max(1, len(found.coat_of_arms) // 1024)} KiB" if found.coat_of_arms else ""
    rows = (
        ("Município", found.name),
        ("UF", found.state),
        ("Código IBGE", found.ibge),
        ("CNPJ", format_cnpj(found.cnpj)),
        ("Endereço", found.address),
        ("Órgão", found.agency_name),
        ("Brasão", arms),
        ("Expediente", found.office_hours),
    )
    return "\n".join(f"{label}: {value or '—'}" for label, value in rows)
