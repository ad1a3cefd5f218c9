"""``praca regimes check|new|schema|install|amend|retire|history`` — a municipality's own act.

* ``praca regimes install FILE.toml`` installs a new act in the database (every
  desk on it computes with it from then on); ``amend FILE.toml`` installs an
  amended version (the file declares ``[regime.amendment] { act, in_force_from }``);
  ``retire ID --reason TEXT`` stops offering an act for new work. All three are
  the administrator's, need a login and are audited; a file with any error is
  refused with every error and nothing is stored;
* ``praca regimes history [ID]`` lists every version: when it applies from, the
  amending act, its hash, who installed it and when;

* ``praca regimes check FILE.toml`` validates a regime file fully and changes
  nothing: every broken item with the file, the key path and the reason (all
  of them, not only the first), or what the file defines;
* ``praca regimes new --like ID --id NEW --out FILE`` writes a starting file:
  the text of an act Praça knows, with the new id and a header saying what to
  change (docs/novo-ato.md walks through it);
* ``praca regimes schema [--out FILE]`` writes the JSON Schema of the format,
  generated from the loader (the published copy is docs/regime.schema.json).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from models.base.errors import UserError

EXAMPLES = (
    "  praca regimes check minha-cidade-2027.toml\n"
    "  praca regimes install minha-cidade-2027.toml --user admin\n"
    "  praca regimes install olimpia-2025 --user admin\n"
    "  praca regimes amend minha-cidade-2027.toml --user admin\n"
    '  praca regimes retire minha-cidade-2027 --reason "revogado pela Lei nº 2.000/2028" --user admin\n'
    "  praca regimes history minha-cidade-2027\n"
    "  praca regimes new --like sao-bento-2026 --id minha-cidade-2027 --out minha-cidade-2027.toml\n"
    "  praca regimes schema --out regime.schema.json"
)


def configure(parser: argparse.ArgumentParser) -> None:
    from desktop.cli import ArgumentParser, db_option

    sub = parser.add_subparsers(dest="action", metavar="AÇÃO", title="ações", parser_class=ArgumentParser)
    check = sub.add_parser(
        "check",
        help="valida um arquivo de regime (todos os erros de uma vez); não grava nada",
        description="Valida um arquivo de regime por inteiro: cada erro com o arquivo, a chave e "
        "o motivo. Não grava nada.",
        formatter_class=parser.formatter_class,
    )
    check.add_argument("file", metavar="ARQUIVO", help="o arquivo .toml")
    check.add_argument("--json", action="store_true", help="saída em JSON")
    db_option(check, top=False)
    new = sub.add_parser(
        "new",
        help="escreve um arquivo inicial a partir de um regime conhecido",
        description="Escreve um arquivo de regime inicial: o texto de um regime que o Praça "
        "conhece, com o id novo e um cabeçalho dizendo o que mudar (docs/novo-ato.md).",
        formatter_class=parser.formatter_class,
    )
    new.add_argument("--like", metavar="ID", required=True, help="o regime de partida, como sao-bento-2026")
    new.add_argument(
        "--id", metavar="ID", required=True, dest="new_id", help="o id do novo regime, como minha-cidade-2027"
    )
    new.add_argument("--out", metavar="ARQUIVO", required=True, help="onde gravar (não sobrescreve)")
    db_option(new, top=False)
    schema = sub.add_parser(
        "schema",
        help="o JSON Schema do formato (para editores como o VS Code)",
        description="Escreve o JSON Schema do formato de regime, gerado do próprio carregador.",
        formatter_class=parser.formatter_class,
    )
    schema.add_argument("--out", metavar="ARQUIVO", help="onde gravar (padrão: a saída padrão)")
    schema.add_argument(
        "--doc", metavar="MD", help="atualiza também as tabelas de chaves deste documento (docs/regime-format.md)"
    )
    db_option(schema, top=False)
    for name, text in (
        ("install", "instala um ato novo no banco de dados (administrador)"),
        ("amend", "instala uma alteração de um ato já instalado (administrador)"),
    ):
        p = sub.add_parser(
            name,
            help=text,
            description=text + ". O arquivo é validado por inteiro antes; com qualquer erro, nada é gravado.",
            formatter_class=parser.formatter_class,
        )
        if name == "install":
            p.add_argument(
                "file",
                metavar="ARQUIVO_OU_ID",
                help="o arquivo .toml do ato do município, ou o id de um ato fornecido com o Praça (praca regimes "
                "lista os fornecidos); o ato de outro município é recusado",
            )
        else:
            p.add_argument("file", metavar="ARQUIVO", help="o arquivo .toml")
        db_option(p, top=False)  # --db and --user
    retire = sub.add_parser(
        "retire",
        help="retira um ato: não é mais oferecido para novos requerimentos (administrador)",
        description="Retira um ato: deixa de ser oferecido; o que foi feito "
        "sob ele continua sendo lido e recalculado com ele.",
        formatter_class=parser.formatter_class,
    )
    retire.add_argument("regime", metavar="ID", help="o id do ato")
    retire.add_argument("--reason", metavar="TEXTO", help="o motivo (revogação, substituição…) — obrigatório")
    db_option(retire, top=False)
    history = sub.add_parser(
        "history",
        help="as versões de cada ato: desde quando valem, quem as instalou",
        description="As versões dos atos instalados no banco de dados.",
        formatter_class=parser.formatter_class,
    )
    history.add_argument("regime", metavar="ID", nargs="?", help="só este ato")
    history.add_argument("--json", action="store_true", help="saída em JSON")
    db_option(history, top=False)


#: install, amend and retire change the acts every desk computes with: a login first (desktop/login.py)
CHANGES = ("install", "amend", "retire")


def run(args: argparse.Namespace) -> int:
    action = args.action
    if action in CHANGES or action == "history":
        return _with_database(args)
    if action == "check":
        return _check(args)
    if action == "new":
        return _new(args)
    if action == "schema":
        return _schema(args)
    raise UserError(f"Ação desconhecida: {action}.")  # pragma: no cover - argparse refuses it first


# --------------------------------------------------------------------------- install, amend, retire, history


def _with_database(args: argparse.Namespace) -> int:
    from desktop.paths import resolve_db_url
    from models.store.bootstrap import close_database, open_database

    if args.action == "install":
        from models.rules.acts import choose_act

        choice = choose_act(args.file)  # an unreadable file or an unknown id is refused before any login
    elif args.action == "amend":
        name, data = read_act_file(args.file)
    elif args.action == "retire" and not (args.reason or "").strip():
        raise UserError("Informe o motivo: --reason TEXTO (revogação, substituição por outro ato…).", field="reason")
    from models.rules.acts import amend, install_choice

    open_database(resolve_db_url(getattr(args, "db", None)))
    try:
        if args.action == "history":
            return _history(args)
        if args.action == "retire":
            from models.rules.acts import retire

            count = retire(args.regime.strip(), args.reason)
            print(
                f"{args.regime.strip()} retirado ({count} {'versão' if count == 1 else 'versões'}): não é mais "
                "oferecido para novos requerimentos; o que foi feito sob ele continua sendo lido com ele."
            )
            return 0
        if args.action == "install":
            return _install(lambda: install_choice(choice))
        return _install(lambda: amend(data, name))
    finally:
        close_database()


def _install(installing) -> int:
    from models.rules.regimes import RegimeError, RegimeErrors

    try:
        version = installing()
    except RegimeErrors as exc:
        print_errors(exc.errors)
        return 2
    except RegimeError as exc:
        print_errors([exc])
        return 2
    regime = version.regime
    assert regime is not None  # the text just installed loads
    print(f"{regime.id} instalado: {version.label} — {regime.municipality}/{regime.state}, {regime.act}")
    print(f"  SHA-256 {version.sha256}")
    print(defines(regime), end="")
    _warn_cases(regime)
    return 0


def _warn_cases(regime) -> None:
    """The act's worked cases that do not confer, said after an install: an amendment that changes a figure leaves
    the cases of the figure to write again (``praca regimes check`` reports them as mistakes)."""
    from models.services.act_cases import run_cases

    failed = [o for o in run_cases(regime) if not o.passed]
    for outcome in failed:
        for mismatch in outcome.mismatches:
            print(
                f"praca: aviso: o caso {outcome.case.id} do ato não confere — {mismatch.what}: esperado "
                f"{mismatch.expected}, calculado {mismatch.got} (reescreva-o: praca regimes check)",
                file=sys.stderr,
            )


def _history(args: argparse.Namespace) -> int:
    import json

    from models.rules.acts import ORIGINS, history

    regime_id = args.regime.strip() if args.regime else None
    versions = history(regime_id)
    if args.json:
        print(
            json.dumps(
                [
                    {
                        "regime": v.regime_id,
                        "version": v.version,
                        "in_force_from": v.effective_from.isoformat(),
                        "amending_act": v.amending_act or None,
                        "sha256": v.sha256,
                        "origin": v.origin,
                        "installed_by": v.installed_by,
                        "installed_at": v.installed_at.isoformat(timespec="minutes"),
                        "retired_at": v.retired_at.isoformat(timespec="minutes") if v.retired_at else None,
                        "loads": v.regime is not None,
                        "problem": v.problem or None,
                    }
                    for v in versions
                ],
                ensure_ascii=False,
                indent=2,
            )
        )
        return 0
    current = None
    for v in versions:
        if v.regime_id != current:
            current = v.regime_id
            title = v.regime.short if v.regime is not None else v.regime_id
            print(f"{v.regime_id} — {title}" + (" [retirado]" if v.retired_at else ""))
        print(f"  {v.label}")
        print(
            f"    instalada por {v.installed_by} ({ORIGINS.get(v.origin, v.origin)}) em "
            f"{v.installed_at.strftime('%d/%m/%Y %H:%M')}; SHA-256 {v.sha256[:16]}…"
        )
        if v.problem:
            print(f"    não carrega nesta versão do Praça: {v.problem}")
    return 0


# --------------------------------------------------------------------------- check


def read_act_file(file: str) -> tuple[str, bytes]:
    """The file's name and bytes; one clear line when it cannot be read."""
    from models.rules.acts import read_file

    data, name = read_file(file)
    return name, data


def print_errors(errors, *, stream=None) -> None:
    stream = stream or sys.stderr
    for error in errors:
        print(f"praca: {error}", file=stream)
    total = len(errors)
    print(f"praca: {total} erro{'s' if total != 1 else ''}; nada foi gravado.", file=stream)


def _check(args: argparse.Namespace) -> int:
    import json

    from models.services.act_cases import check_act, command_line

    name, data = read_act_file(args.file)
    checked = check_act(data, name, expected_id=Path(name).stem)
    errors = checked.errors
    if args.json:
        print(
            json.dumps(
                {
                    "file": name,
                    "valid": not errors,
                    "errors": [{"file": e.file, "line": e.line, "key": e.key, "reason": e.reason} for e in errors],
                    "cases": [outcome.to_dict() for outcome in checked.outcomes],
                },
                ensure_ascii=False,
                indent=2,
            )
        )
        return 2 if errors else 0
    if errors:
        print_errors(errors)
        failed = [o for o in checked.outcomes if not o.passed]
        if failed and checked.regime is not None:
            print("praca: para refazer um caso que não confere:", file=sys.stderr)
            for outcome in failed:
                command = command_line(checked.regime, outcome.case) or "(pontuação: calculada na Seleção)"
                print(f"praca:   {outcome.case.id}: {command}", file=sys.stderr)
        return 2
    regime = checked.regime
    assert regime is not None, "a file without mistakes reads"
    print(f"{name}: válido — {regime.id}: {regime.municipality}/{regime.state}, {regime.act}")
    print(defines(regime), end="")
    if checked.outcomes:
        from_act = sum(1 for o in checked.outcomes if o.case.source == "act")
        total = len(checked.outcomes)
        print(
            f"Casos do ato: {total} conferem ({from_act} exemplo{'s' if from_act != 1 else ''} ou linha"
            f"{'s' if from_act != 1 else ''} de tabela do próprio ato, {total - from_act} escrito"
            f"{'s' if total - from_act != 1 else ''} a partir do texto)."
        )
    return 0


def defines(regime) -> str:
    from models.rules.acts import defines as what

    return what(regime)


# --------------------------------------------------------------------------- new


_HEADER = """\
# Regime {new_id} — arquivo inicial escrito por `praca regimes new --like {like}`.
#
# Este é o texto do regime {like} ({short}), com o id trocado. Antes de instalar:
#   1. em [regime], troque municipality, state, act, short, published, scope, summary e in_force
#      pelos dados do seu ato;
#   2. troque cada valor e cada "basis" pelo artigo do SEU ato — apague o que o seu ato não diz
#      (um valor que o ato deixa à administração não se inventa: veja docs/novo-ato.md);
#   3. troque os [[cases]] (os casos do ato de partida) pelos exemplos e tabelas do SEU ato;
#   4. confira com  praca regimes check {out_name}  (mostra todos os erros de uma vez, e os casos que não conferem);
#   5. instale com  praca regimes install {out_name}  (administrador).
# O formato está em docs/regime-format.md; o JSON Schema (docs/regime.schema.json) deixa o editor
# conferir o arquivo enquanto você digita.

"""


def _new(args: argparse.Namespace) -> int:
    import re

    from models.rules.regimes import ID_RE, get_regime

    new_id = (args.new_id or "").strip()
    if not ID_RE.match(new_id):
        raise UserError(
            f"Id inválido '{args.new_id}': use minúsculas ASCII, dígitos e hífens, como minha-cidade-2027.", field="id"
        )
    from desktop.paths import open_for_computing
    from models.store.bootstrap import close_database

    open_for_computing(getattr(args, "db", None))  # an act installed in the database can be the start too
    try:
        like = get_regime(args.like.strip())
        text = _text_of(like)
    finally:
        close_database()
    out = Path(args.out)
    if out.exists():
        raise UserError(f"{out} já existe: escolha outro nome (o Praça não sobrescreve um ato).", field="out")
    if out.stem != new_id:
        raise UserError(f"O arquivo deve se chamar {new_id}.toml (o id do regime é o nome do arquivo).", field="out")
    replaced, count = re.subn(
        r'(?m)^(\[regime\]\s*\n(?:[^\[]*\n)*?)id\s*=\s*"[^"]*"', rf'\1id = "{new_id}"', text, count=1
    )
    if not count:  # pragma: no cover - every shipped act starts its [regime] table with its id
        raise UserError(f"O regime {like.id} não tem a chave id em [regime].")
    body = _HEADER.format(new_id=new_id, like=like.id, short=like.short, out_name=out.name) + replaced
    _write(out, body, exclusive=True)  # an act another process wrote meanwhile is kept, never overwritten
    print(f"{out} gravado: comece pelo [regime] e confira com  praca regimes check {out}")
    return 0


def _text_of(regime) -> str:
    """The TOML text of a regime as installed (its file for a shipped act)."""
    source = Path(regime.source) if regime.source else None
    if source is not None and source.is_file():
        return source.read_text(encoding="utf-8")
    from models.rules.acts import act_text  # an act installed in the database

    return act_text(regime.id)


# --------------------------------------------------------------------------- schema


def _schema(args: argparse.Namespace) -> int:
    from models.rules.regime_schema import build_schema, docs_with_key_tables, key_tables, schema_text

    schema = build_schema()
    text = schema_text(schema)
    if args.doc:
        doc = Path(args.doc)
        try:
            current = doc.read_text(encoding="utf-8")
        except OSError as exc:
            raise UserError(f"Não foi possível ler {doc}: {exc.strerror or exc}.", field="doc") from None
        _write(doc, docs_with_key_tables(current, key_tables(schema)))
        print(f"{doc}: tabelas de chaves atualizadas.")
    if not args.out:
        if args.doc:
            return 0
        sys.stdout.write(text)
        return 0
    _write(Path(args.out), text)
    print(f"{args.out} gravado.")
    return 0


def _write(path: Path, text: str, *, exclusive: bool = False) -> None:
    """Through models/store/outfile.py as every file Praça writes: aside, checked, synced, renamed — a failure is one
    line, never "gravado". An act's text and a schema are public (not owner-only)."""
    from models.store.outfile import write_text

    write_text(path, text, kind=path.suffix.lstrip(".") or "txt", private=False, exclusive=exclusive)
