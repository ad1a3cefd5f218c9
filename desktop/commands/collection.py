"""``praca collection set|show`` — the town's collection agreement (convênio de arrecadação) and Pix key.

* ``praca collection show [--json]``
* ``praca collection set --agreement NNNN --value-id 6|8 [--pix-key CHAVE --pix-name NOME --pix-city CIDADE]``

The same settings as Cadastros → Arrecadação (models.billing.collection.agreement).
"""

from __future__ import annotations

import argparse
import json


def LOGIN(args: argparse.Namespace) -> bool:  # noqa: N802 - the name desktop/cli.py looks up
    action = getattr(args, "action", None)
    return action == "set" or (action == "late" and _late_given(args))


def _late_given(args: argparse.Namespace) -> bool:
    return any(
        getattr(args, k, None) is not None
        for k in (
            "fine_percent",
            "interest_percent",
            "source",
            "due_days",
            "debt_term_days",
            "correction_index",
            "correction_source",
        )
    )


def configure(parser: argparse.ArgumentParser) -> None:
    from desktop.cli import ArgumentParser, db_option

    sub = parser.add_subparsers(dest="action", metavar="AÇÃO", title="ações", parser_class=ArgumentParser)
    show = sub.add_parser("show", help="mostra o convênio e a chave Pix", formatter_class=parser.formatter_class)
    show.add_argument("--json", action="store_true", help="saída em JSON")
    db_option(show, top=False)
    put = sub.add_parser(
        "set",
        help="cadastra o convênio de arrecadação (FEBRABAN) e a chave Pix do município",
        formatter_class=parser.formatter_class,
    )
    put.add_argument("--agreement", metavar="NNNN", help="código do convênio no banco (4 algarismos) — obrigatório")
    put.add_argument(
        "--value-id", metavar="6|8", help="identificador de valor: 6 (módulo 10) ou 8 (módulo 11) — obrigatório"
    )
    put.add_argument(
        "--pix-key", metavar="CHAVE", default="", help="chave Pix: CPF, CNPJ, e-mail, telefone ou aleatória"
    )
    put.add_argument("--pix-name", metavar="NOME", default="", help="nome do recebedor no Pix (até 25 letras)")
    put.add_argument("--pix-city", metavar="CIDADE", default="", help="cidade do recebedor no Pix (até 15 letras)")
    db_option(put, top=False)
    late = sub.add_parser(
        "late",
        help="multa e juros de mora do código tributário do município (sem opções: mostra)",
        formatter_class=parser.formatter_class,
    )
    late.add_argument("--fine-percent", metavar="P", help="multa de mora, % do valor (uma vez), como 2 ou 0,33")
    late.add_argument("--interest-percent", metavar="P", help="juros de mora, % ao mês ou fração, como 1")
    late.add_argument("--source", metavar="FONTE", help="a lei e o artigo que os fixam — obrigatória com taxas")
    late.add_argument("--due-days", metavar="N", help="dias para pagar a segunda via da guia (padrão 5)")
    late.add_argument(
        "--debt-term-days", metavar="N", help="dias depois do vencimento para a inscrição em dívida ativa"
    )
    late.add_argument(
        "--correction-index",
        metavar="ÍNDICE",
        help="índice da correção monetária das cobranças vencidas (como INPC; as correções anuais em Cadastros)",
    )
    late.add_argument(
        "--correction-source", metavar="FONTE", help="a lei e o artigo que mandam corrigir — obrigatória com índice"
    )
    late.add_argument("--json", action="store_true", help="saída em JSON")
    db_option(late, top=False)
    parser.epilog = (
        "Exemplos:\n"
        "  praca collection set --agreement 1234 --value-id 6 --pix-key 12345678000195 "
        '--pix-name "Prefeitura de Olimpia" --pix-city Olimpia\n'
        "  praca collection show --json\n"
        '  praca collection late --fine-percent 2 --interest-percent 1 --source "LC nº 10/2003, art. 120"\n'
        '  praca collection late --correction-index INPC --correction-source "LC nº 10/2003, art. 121"'
    )


def run(args: argparse.Namespace) -> int:
    from desktop.paths import resolve_db_url
    from models.billing.collection.agreement import VALUE_ID_LABELS, get_agreement, set_agreement
    from models.store.bootstrap import close_database, open_database

    action = getattr(args, "action", None) or "show"
    open_database(resolve_db_url(getattr(args, "db", None)))
    try:
        if action == "late":
            return _late(args)
        if action == "set":
            found = set_agreement(
                agreement=args.agreement or "",
                value_id=args.value_id or "",
                pix_key=args.pix_key,
                pix_name=args.pix_name,
                pix_city=args.pix_city,
            )
            print(f"Convênio de arrecadação gravado: {found.agreement}, identificador de valor {found.value_id}.")
        else:
            found = get_agreement()
        if getattr(args, "json", False):
            print(json.dumps(found.as_dict(), ensure_ascii=False, indent=2))
            return 0
        if not found.configured:
            print("Convênio de arrecadação não cadastrado (praca collection set --agreement NNNN --value-id 6|8).")
            return 0
        print(f"Convênio (FEBRABAN): {found.agreement} — segmento {found.segment} (prefeituras)")
        print(f"Identificador de valor: {VALUE_ID_LABELS.get(found.value_id, found.value_id)}")
        if found.has_pix:
            print(f"Chave Pix: {found.pix_key} ({found.pix_kind}) — {found.pix_name}, {found.pix_city}")
        else:
            print("Chave Pix: não cadastrada (a guia sai sem QR Pix).")
        return 0
    finally:
        close_database()


def _late(args: argparse.Namespace) -> int:
    from models.billing.collection.late import get_late_rules, set_late_rules

    if _late_given(args):
        current = get_late_rules()
        rules = set_late_rules(
            fine_percent=args.fine_percent if args.fine_percent is not None else str(current.fine_percent),
            interest_percent=(
                args.interest_percent if args.interest_percent is not None else str(current.interest_percent)
            ),
            source=args.source if args.source is not None else current.source,
            due_days=args.due_days if args.due_days is not None else str(current.due_days),
            debt_term=(
                args.debt_term_days
                if args.debt_term_days is not None
                else ("" if current.debt_term is None else str(current.debt_term))
            ),
            correction_index=(args.correction_index if args.correction_index is not None else current.correction_index),
            correction_source=(
                args.correction_source if args.correction_source is not None else current.correction_source
            ),
        )
        print("Regras de multa e juros de mora gravadas.")
    else:
        rules = get_late_rules()
    if args.json:
        print(json.dumps(rules.as_dict(), ensure_ascii=False, indent=2))
        return 0
    if not rules.configured:
        print("Multa e juros de mora: não cadastrados (nada é acrescido a uma cobrança vencida).")
    else:
        pct = lambda d: f"{d.normalize():f}".replace(".", ",")  # noqa: E731 - a local formatter
        print(
            f"Multa de mora: {pct(rules.fine_percent)}% do valor; juros de mora: {pct(rules.interest_percent)}% "
            f"ao mês ou fração — {rules.source}"
        )
    if rules.correcting:
        print(
            f"Correção monetária: {rules.correction_index} (correções anuais de Cadastros → Correção monetária), "
            f"multa e juros sobre o valor corrigido — {rules.correction_source}"
        )
    else:
        print("Correção monetária: índice não declarado (--correction-index ÍNDICE --correction-source FONTE).")
    print(f"Segunda via da guia: vence {rules.due_days} dia(s) depois de emitida.")
    if rules.debt_term is None:
        print("Inscrição em dívida ativa: prazo não cadastrado (--debt-term-days N).")
    else:
        print(f"Inscrição em dívida ativa: {rules.debt_term} dia(s) depois do vencimento.")
    return 0
