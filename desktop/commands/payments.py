"""``praca payments import|reverse`` — payments that arrive by themselves (issue 30 §4, §5).

* ``praca payments import ARQUIVO [--dry-run] [--json]`` — the bank's FEBRABAN arrecadação return file: each
  record matched to its guia by the barcode; all or nothing; the same file (agreement + NSA) twice changes nothing.
* ``praca payments reverse Nº --reason MOTIVO`` — a payment reversed (estorno): a new act; the charge reopens.
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
    parser.epilog = (
        "Exemplos:\n"
        "  praca payments import RET20260310.txt --dry-run\n"
        "  praca payments import RET20260310.txt --json\n"
        '  praca payments reverse 17 --reason "Cheque devolvido"'
    )


def run(args: argparse.Namespace) -> int:
    from desktop.paths import resolve_db_url
    from models.store.bootstrap import close_database, open_database

    action = getattr(args, "action", None)
    if action is None:
        raise UserError("Informe a ação: praca payments import ARQUIVO ou praca payments reverse Nº --reason MOTIVO.")
    if action == "reverse" and not (args.payment or "").strip().isdigit():
        raise UserError(f"Número de pagamento inválido: '{args.payment}'.", field="payment")
    open_database(resolve_db_url(getattr(args, "db", None)))
    try:
        if action == "import":
            return _import(args)
        if action == "record":
            return _record(args)
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
