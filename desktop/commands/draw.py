"""``praca draw --regime ID --input CSV --vacancies N --seed TEXT [--alternates K] [--json]`` — a public draw, headless.

The same draw as the Seleção page (``models.selection.run_draw``), without the
database: the participants come from a CSV file (UTF-8, a BOM accepted, comma
or semicolon) with a header and the columns ``id`` and ``name``; optional
``group``, ``score``, ``paid_at``, ``quota``, ``debtor``, ``preference``, and
``disability`` and ``birth_date``, which break ties of scores where the act
says so (Sapezal, Lei 1.171/2014, art. 10, § 3º) — the lot decides only what
they leave tied.
``--list-only`` prints the list to publish and its SHA-256 before the seed is
known. Bad input is one pt-BR line on stderr and exit 2.
"""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path

from desktop.commands import readings
from models.base.errors import UserError
from models.base.text import read_small_file
from models.rules import describe
from models.selection import (
    DrawResult,
    draw_rules,
    parse_vacancies,
    published_list,
    read_participants_csv,
    rotation,
    run_draw,
)

LOGIN = False  # a draw on a CSV file: computes from the acts and the file only


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--regime", metavar="ID", help="o regime (obrigatório; praca regimes lista os ids)")
    parser.add_argument("--input", metavar="CSV", help="arquivo CSV dos participantes (UTF-8, com cabeçalho)")
    parser.add_argument(
        "--vacancies", metavar="N", help="vagas: um número (por grupo, havendo grupos) ou GRUPO=N,GRUPO=N"
    )
    parser.add_argument("--seed", metavar="TEXTO", help="a semente anunciada antes do sorteio")
    parser.add_argument("--alternates", metavar="K", help="suplentes por grupo (padrão: o que o ato fixa)")
    parser.add_argument(
        "--events", metavar="E", help="lista corrida: mostra os ambulantes dos eventos 1 a E (N vagas por evento)"
    )
    parser.add_argument(
        "--list-only",
        action="store_true",
        help="só a lista a publicar e o seu SHA-256 (antes do sorteio; dispensa --seed)",
    )
    parser.add_argument(
        "--list-out",
        metavar="ARQUIVO",
        help="grava a lista publicada, exatamente como entra no hash (para conferir o sorteio)",
    )
    readings.add_arguments(parser)
    parser.add_argument("--json", action="store_true", help="saída em JSON")
    parser.epilog = (
        "Colunas do CSV: id, name (obrigatórias); group, score, paid_at, quota, debtor, preference,\n"
        "disability e birth_date (desempate de pontuação onde o ato manda, p. ex. Sapezal art. 10, § 3º).\n"
        "Como conferir um sorteio: README, seção «Sorteios: como conferir».\n"
        "Exemplos:\n"
        "  praca draw --regime sapezal-2014 --input inscritos.csv --vacancies 3 --seed 12345\n"
        "  praca draw --regime sapezal-2014 --input inscritos.csv --vacancies g01=3,g02=2 --seed 12345 --json\n"
        "  praca draw --regime ilha-comprida-2017 --input inscritos.csv --list-only --list-out lista.txt"
    )


MAX_EVENTS = 1000  # a rotating list over more events than a town holds in years: a typing error


def _count(text: str | None, what: str, *, minimum: int, maximum: int | None = None) -> int | None:
    if text is None:
        return None
    if not re.fullmatch(r"\s*-?\d+\s*", text):
        raise UserError(f"{what} inválido: '{text}' (use um número inteiro).", field=what)
    value = int(text)
    if value < minimum:
        raise UserError(f"{what} deve ser pelo menos {minimum} (veio {value}).", field=what)
    if maximum is not None and value > maximum:
        raise UserError(f"{what} deve ser no máximo {maximum} (veio {value}).", field=what)
    return value


# A list of participants is a few thousand lines; a larger file (or a device that never ends) is refused.
MAX_PARTICIPANTS_BYTES = 20 * 1024 * 1024


def _read(path_text: str | None) -> str:
    if path_text is None or not path_text.strip():
        raise UserError("Informe o arquivo dos participantes: --input ARQUIVO.csv", field="input")
    path = Path(path_text)
    try:
        data = read_small_file(path, max_bytes=MAX_PARTICIPANTS_BYTES)
    except FileNotFoundError:
        raise UserError(f"Arquivo não encontrado: {path}", field="input") from None
    except IsADirectoryError:
        raise UserError(f"{path} é uma pasta, não um arquivo CSV.", field="input") from None
    except OSError as exc:
        raise UserError(f"Não foi possível ler {path}: {exc.strerror or exc}", field="input") from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise UserError(f"{path} não está em UTF-8: salve a planilha como «CSV UTF-8».", field="input") from None


def _write_list(path_text: str | None, text: str) -> None:
    if not path_text:
        return
    try:
        from models.store.outfile import write_bytes

        write_bytes(path_text, text.encode("utf-8"), kind="txt")
    except OSError as exc:
        raise UserError(f"Não foi possível gravar {path_text}: {exc.strerror or exc}", field="list_out") from None


def run(args: argparse.Namespace) -> int:
    from models.rules.regimes import shipped_regimes

    if not (args.regime or "").strip():
        raise UserError(
            "Informe o regime: --regime ID (disponíveis: " + ", ".join(sorted(shipped_regimes())) + ").", field="regime"
        )
    from desktop.paths import installed_regime

    regime = installed_regime(getattr(args, "db", None), args.regime.strip())
    alternates = _count(args.alternates, "Número de suplentes", minimum=0)
    rules = draw_rules(regime, alternates=alternates)
    points = readings.applied(regime, "draw", args)
    participants, ignored = read_participants_csv(_read(args.input))
    if args.list_only:
        published = published_list(participants, rules)
        _write_list(args.list_out, published.text)
        if args.json:
            listed = {"regime": regime.id, **published.to_dict(), "readings": readings.as_json(points)}
            print(json.dumps(listed, ensure_ascii=False, indent=2))
        else:
            print(f"Lista de participantes ({len(published.participants)}) — SHA-256 {published.sha256}")
            print(published.text, end="")
            for e in published.excluded:
                print(f"Excluído: [{e.participant.id}] {e.participant.name} — {e.reason} ({e.basis})")
            for pid, text in published.ties.items():
                print(f"Desempate: [{pid}] {text}")
            print(readings.as_text(points), end="")
        return 0
    if args.vacancies is None or not args.vacancies.strip():
        raise UserError("Informe o número de vagas: --vacancies N.", field="vacancies")
    vacancies = parse_vacancies(args.vacancies)
    if args.seed is None:
        raise UserError("Informe a semente anunciada: --seed TEXTO.", field="seed")
    events = _count(args.events, "Número de eventos", minimum=1, maximum=MAX_EVENTS)
    if events is not None and not isinstance(vacancies, int):
        raise UserError("Com --events, informe um só número de vagas por evento.", field="events")
    result = run_draw(participants, args.seed, vacancies, rules)
    _write_list(args.list_out, result.list_text)
    event_lists = rotation(result.order, [vacancies] * events) if events and isinstance(vacancies, int) else None
    if args.json:
        data = result.to_dict()
        if event_lists is not None:
            data["events"] = [list(e) for e in event_lists]
        data["readings"] = readings.as_json(points)
        print(json.dumps(data, ensure_ascii=False, indent=2))
    else:
        print(result_text(regime, result, ignored, event_lists) + readings.as_text(points), end="")
    return 0


def _who(result: DrawResult, pid: str) -> str:
    p = result.participant(pid)
    extra = []
    if p.quota:
        extra.append("cota")
    if p.preference:
        extra.append(f"preferência {p.preference}")
    if p.score is not None:
        extra.append(f"{describe.number(p.score)} pontos")
    if p.rank is not None:
        extra.append(f"{p.rank}º classificado")
    if pid in result.ties:
        extra.append(result.ties[pid])
    if p.paid_at is not None:
        extra.append(f"pagamento {p.paid_at:%d/%m/%Y %H:%M:%S}")
    return f"[{pid}] {p.name}" + (f" ({'; '.join(extra)})" if extra else "")


def result_text(regime, result: DrawResult, ignored=(), event_lists=None) -> str:
    """The draw in readable pt-BR, one section per group."""
    out = [
        f"Sorteio — {regime.title}",
        f"Base legal: {result.rules.basis}",
        f"Semente: {result.seed}",
        f"Lista de participantes: {len(result.participants)}, SHA-256 {result.list_sha256}",
        f"Algoritmo: {result.algorithm} (README, seção «Sorteios: como conferir»)",
    ]
    if ignored:
        out.append(f"Colunas ignoradas: {', '.join(ignored)}")
    for g in result.groups:
        out.append("")
        head = "Resultado"
        if g.group:
            head = f"Grupo {g.group}" + (f" — {g.label}" if g.label and g.label != g.group else "")
        quota = (
            f", {g.quota_reserved} reservada(s) à cota, {len(g.quota_holders)} para cotista(s) — "
            f"{result.rules.quota_basis}"
            if g.quota_reserved
            else ""
        )
        out.append(f"{head} ({g.vacancies} vaga(s){quota})")
        if g.note:
            out.append(f"  {g.note}")
        out.append("  Titulares, na ordem sorteada (ordem de escolha do local):")
        out.extend(
            f"    {i:>3}. {_who(result, pid)} — posição {result.position(pid)}" for i, pid in enumerate(g.holders, 1)
        )
        if g.alternates:
            out.append("  Suplentes, na ordem de chamada:")
            out.extend(
                f"    {i:>3}. {_who(result, pid)} — posição {result.position(pid)}"
                for i, pid in enumerate(g.alternates, 1)
            )
        if g.others:
            out.append("  Demais, na ordem de seleção:")
            out.extend(f"         {_who(result, pid)} — posição {result.position(pid)}" for pid in g.others)
    if result.excluded:
        out.append("")
        out.append("Excluídos antes do sorteio:")
        out.extend(f"  [{e.participant.id}] {e.participant.name} — {e.reason} ({e.basis})" for e in result.excluded)
    if event_lists is not None:
        out.append("")
        out.append("Lista corrida por evento:")
        out.extend(f"  Evento {k}: {', '.join(ids)}" for k, ids in enumerate(event_lists, 1))
    out.append("")
    out.append("Ordem sorteada: " + ", ".join(result.order))
    return "\n".join(out) + "\n"
