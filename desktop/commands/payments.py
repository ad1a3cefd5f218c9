"""``praca payments import|reverse`` — payments that arrive by themselves (issue 30 §4, §5).

* ``praca payments import ARQUIVO [--dry-run] [--json]`` — the bank's FEBRABAN arrecadação return file: each
  record matched to its guia by the barcode; all or nothing; the same file (agreement + NSA) twice changes nothing.
* ``praca payments reverse Nº --reason MOTIVO`` — a payment reversed (estorno): a new act; the charge reopens.
* ``praca payments credits [--charge NÚMERO] [--all] [--json]`` — the payers' credits.
* ``praca payments apply-credit --charge NÚMERO [--credit Nº] [--amount VALOR] [--json]`` — a payer's open credit
  used on their charge: one act per credit drawn on, a payment on the charge; the rest of a credit stays open.
* ``praca payments refund-credit Nº --reason MOTIVO [--amount VALOR] [--json]`` — a credit refunded: an act.
"""

from __future__ import annotations

import argparse
import json

from models.base.errors import UserError


def LOGIN(args: argparse.Namespace) -> bool:  # noqa: N802 - the name desktop/cli.py looks up
    return True


def configure(parser: argparse.ArgumentParser) -> None:
    from desktop.cli import ArgumentParser, db_option

    sub = parser.add_subparsers(dest="action", metavar="AÇÃO", title="ações", parser_class=ArgumentParser)
    imp = sub.add_parser(
        "import",
        help="importa o arquivo de retorno do banco (FEBRABAN, 150 posições)",
        formatter_class=parser.formatter_class,
    )
    imp.add_argument("file", metavar="ARQUIVO", help="o arquivo de retorno (registros A, G e Z)")
    imp.add_argument("--dry-run", action="store_true", help="só mostra o que seria feito; nada é gravado")
    imp.add_argument(
        "--accept-overpayment",
        action="store_true",
        help="registra como crédito do contribuinte o que foi pago a maior ou em duplicidade",
    )
    imp.add_argument("--json", action="store_true", help="saída em JSON")
    db_option(imp, top=False)
    rec = sub.add_parser("record", help="registra um pagamento feito no balcão", formatter_class=parser.formatter_class)
    rec.add_argument("--charge", metavar="NÚMERO", help="a cobrança (AAAA/NNNNN) — obrigatória")
    rec.add_argument("--amount", metavar="VALOR", help="o valor pago, como 300,00 — obrigatório")
    rec.add_argument("--paid-on", metavar="DD/MM/AAAA", help="a data do pagamento — obrigatória")
    rec.add_argument("--reference", metavar="Nº", help="o número do boleto ou do recibo — obrigatório")
    rec.add_argument(
        "--accept-overpayment",
        action="store_true",
        help="aceita um valor acima do devido: o excesso fica como crédito do contribuinte",
    )
    db_option(rec, top=False)
    rev = sub.add_parser(
        "reverse",
        help="estorna um pagamento (a cobrança volta a ficar em aberto)",
        formatter_class=parser.formatter_class,
    )
    rev.add_argument("payment", metavar="Nº", help="o número do pagamento")
    rev.add_argument("--reason", metavar="MOTIVO", help="por que o pagamento é estornado — obrigatório")
    rev.add_argument("--json", action="store_true", help="saída em JSON")
    db_option(rev, top=False)
    cred = sub.add_parser(
        "credits",
        help="lista os créditos dos contribuintes (pago a maior ou em duplicidade)",
        formatter_class=parser.formatter_class,
    )
    cred.add_argument("--charge", metavar="NÚMERO", help="só os créditos do devedor desta cobrança")
    cred.add_argument("--all", action="store_true", help="também os já usados ou devolvidos")
    cred.add_argument("--json", action="store_true", help="saída em JSON")
    db_option(cred, top=False)
    use = sub.add_parser(
        "apply-credit",
        help="usa o crédito em aberto do devedor numa cobrança dele (um ato por crédito usado)",
        formatter_class=parser.formatter_class,
    )
    use.add_argument("--charge", metavar="NÚMERO", help="a cobrança a pagar com o crédito — obrigatória")
    use.add_argument("--credit", metavar="Nº", help="só este crédito (padrão: os do devedor, do mais antigo)")
    use.add_argument("--amount", metavar="VALOR", help="quanto usar, como 50,00 (padrão: o que a cobrança deve)")
    use.add_argument("--json", action="store_true", help="saída em JSON")
    db_option(use, top=False)
    ref = sub.add_parser(
        "refund-credit", help="registra a devolução de um crédito (um ato)", formatter_class=parser.formatter_class
    )
    ref.add_argument("credit", metavar="Nº", help="o número do crédito")
    ref.add_argument("--reason", metavar="MOTIVO", help="o motivo e como foi devolvido — obrigatório")
    ref.add_argument("--amount", metavar="VALOR", help="quanto devolver (padrão: todo o saldo)")
    ref.add_argument("--json", action="store_true", help="saída em JSON")
    db_option(ref, top=False)
    parser.epilog = (
        "Exemplos:\n"
        "  praca payments import RET20260310.txt --dry-run\n"
        "  praca payments import RET20260310.txt --json\n"
        '  praca payments reverse 17 --reason "Cheque devolvido"\n'
        "  praca payments credits --charge 2026/00012\n"
        "  praca payments apply-credit --charge 2026/00012\n"
        '  praca payments refund-credit 3 --reason "Ordem bancária nº 123"'
    )


def run(args: argparse.Namespace) -> int:
    from desktop.paths import resolve_db_url
    from models.store.bootstrap import close_database, open_database

    action = getattr(args, "action", None)
    if action is None:
        raise UserError("Informe a ação: praca payments import ARQUIVO ou praca payments reverse Nº --reason MOTIVO.")
    if action == "reverse" and not (args.payment or "").strip().isdigit():
        raise UserError(f"Número de pagamento inválido: '{args.payment}'.", field="payment")
    for name in ("credit",):
        value = getattr(args, name, None)
        if action in ("apply-credit", "refund-credit") and value is not None and not value.strip().isdigit():
            raise UserError(f"Número de crédito inválido: '{value}'.", field="credit")
    open_database(resolve_db_url(getattr(args, "db", None)))
    try:
        if action == "import":
            return _import(args)
        if action == "record":
            return _record(args)
        if action in ("credits", "apply-credit", "refund-credit"):
            return _credits(args, action)
        return _reverse(args)
    finally:
        close_database()


def _import(args: argparse.Namespace) -> int:
    from models.base.money import format_brl, from_centavos
    from models.billing.collection.bank_files import import_return
    from models.billing.collection.returns import CATEGORIES

    result = import_return(args.file, dry_run=args.dry_run, accept_overpayment=args.accept_overpayment)
    preview = result.preview
    if args.json:
        data = preview.as_dict()
        data["dry_run"] = bool(args.dry_run)
        data["payments"] = result.payments
        data["credits"] = result.credits
        print(json.dumps(data, ensure_ascii=False, indent=2))
        return 0
    h = preview.parsed.header
    if preview.already is not None:
        print(
            f"O arquivo do convênio {h.agreement}, NSA {h.nsa}, já foi importado em "
            f"{preview.already.imported_at:%d/%m/%Y} por {preview.already.imported_by}: nada foi alterado."
        )
        return 0
    print(
        f"Retorno do convênio {h.agreement}, NSA {h.nsa}, gerado em {h.generated_on:%d/%m/%Y}: "
        f"{len(preview.items)} pagamento(s), {format_brl(from_centavos(preview.parsed.total_centavos))}."
    )
    for item in preview.items:
        guia = f"guia {item.guia.number} ({item.guia.payer_name})" if item.guia else item.detail.barcode
        note = f" — {item.note}" if item.note else ""
        print(f"  registro {item.detail.record}: {format_brl(item.amount)} {item.category_label}, {guia}{note}")
    counts = preview.counts()
    print("Resumo: " + "; ".join(f"{CATEGORIES[k]}: {v}" for k, v in counts.items() if v))
    if args.dry_run:
        print("Simulação (--dry-run): nada foi gravado.")
    else:
        print(f"Importado: {result.payments} pagamento(s) registrado(s), {result.credits} crédito(s).")
    return 0


def _reverse(args: argparse.Namespace) -> int:
    from models.billing.collection.desk import reverse_payment

    reversal = reverse_payment(int(args.payment), reason=args.reason or "")
    if args.json:
        print(
            json.dumps(
                {
                    "number": reversal.number,
                    "payment": reversal.payment_id,
                    "amount": f"{reversal.amount:.2f}",
                    "charge": reversal.payment.charge.number,
                    "charge_status": reversal.payment.charge.status,
                },
                ensure_ascii=False,
                indent=2,
            )
        )
        return 0
    print(
        f"Estorno nº {reversal.number} do pagamento {reversal.payment_id} "
        f"(cobrança nº {reversal.payment.charge.number}): a cobrança volta a ficar em aberto."
    )
    return 0


def _record(args: argparse.Namespace) -> int:
    import datetime as _dt

    from models.base.money import format_brl
    from models.billing.collection.desk import record_desk_payment
    from models.billing.collection.guias import find_charges
    from models.rules.deadlines import parse_moment

    charge = find_charges([args.charge or ""])[0]
    paid_on = parse_moment(args.paid_on or "", what="Data do pagamento")
    if isinstance(paid_on, _dt.datetime):
        paid_on = paid_on.date()
    payment = record_desk_payment(
        charge,
        paid_on=paid_on,
        amount=args.amount or "",
        reference=args.reference or "",
        accept_overpayment=args.accept_overpayment,
    )
    print(f"Pagamento nº {payment.id} de {format_brl(payment.amount)} registrado na cobrança nº {charge.number}.")
    return 0


def _credits(args: argparse.Namespace, action: str) -> int:
    from models.base.money import format_brl
    from models.billing.collection.credits import apply_credit, credit_lines, credits_for, refund_credit
    from models.billing.collection.guias import find_charges

    if action == "apply-credit":
        if not args.charge:
            raise UserError("Informe a cobrança: --charge NÚMERO.", field="charge")
        charge = find_charges([args.charge])[0]
        uses = apply_credit(charge, credit_id=int(args.credit) if args.credit else None, amount=args.amount)
        charge = find_charges([args.charge])[0]
        data = {
            "charge": charge.number,
            "charge_status": charge.status,
            "still_owed": f"{charge.open_amount:.2f}",
            "uses": [
                {"number": u.number, "credit": u.credit_id, "amount": f"{u.amount:.2f}", "payment": u.payment_id}
                for u in uses
            ],
            "credits": [line.as_dict() for line in credits_for(charge)],
        }
        if args.json:
            print(json.dumps(data, ensure_ascii=False, indent=2))
            return 0
        for u in uses:
            print(
                f"Ato nº {u.number}: {format_brl(u.amount)} do crédito nº {u.credit_id} usados na cobrança nº "
                f"{charge.number} (pagamento nº {u.payment_id})."
            )
        print(f"A cobrança nº {charge.number} está {charge.status_label}; deve {format_brl(charge.open_amount)}.")
        return 0
    if action == "refund-credit":
        use = refund_credit(int(args.credit), reason=args.reason or "", amount=args.amount)
        if args.json:
            print(
                json.dumps(
                    {"number": use.number, "credit": use.credit_id, "amount": f"{use.amount:.2f}"},
                    ensure_ascii=False,
                    indent=2,
                )
            )
            return 0
        print(f"Ato nº {use.number}: devolução de {format_brl(use.amount)} do crédito nº {use.credit_id} registrada.")
        return 0
    if args.charge:
        charge = find_charges([args.charge])[0]
        lines = credit_lines(
            person_id=charge.person_id or None, company_id=charge.company_id or None, open_only=not args.all
        )
    else:
        lines = credit_lines(open_only=not args.all)
    if args.json:
        print(json.dumps([line.as_dict() for line in lines], ensure_ascii=False, indent=2))
        return 0
    if not lines:
        print("Nenhum crédito em aberto." if not args.all else "Nenhum crédito.")
    for line in lines:
        print(f"{line.payer}: {line.text}")
    return 0
