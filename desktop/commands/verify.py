"""``praca verify QRTEXT [--json]`` — checks the QR of an issued permit, offline.

The text read from the QR of a permit, an ID card or a placard is checked with
the municipality's public key (``<data folder>/keys/ed25519-public.pem``, or
``--key FILE``): "válido" (exit 0), "inválido" or "vencido" (exit 1), with
what the QR says. A text that is not a Praça QR at all is one line on stderr
and exit 2. ``-`` reads the text from standard input, so a scanner can pipe
into it: ``zbarimg --raw -q cartao.png | praca verify -``.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import sys
from pathlib import Path

from desktop.paths import keys_dir
from models.br import format_cnpj, format_cpf
from models.errors import UserError
from models.signing import PUBLIC_KEY_FILE, PermitSummary, Verification, public_key_fingerprint, verify_text


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("qrtext", metavar="QRTEXT",
                        help="o texto lido do QR code (PRACA1.…); '-' lê da entrada padrão")
    parser.add_argument("--key", metavar="ARQUIVO", type=Path, default=None,
                        help=f"chave pública da prefeitura ({PUBLIC_KEY_FILE}); "
                        "padrão: a da pasta de dados do usuário")
    parser.add_argument("--json", action="store_true", help="saída em JSON")
    parser.epilog = (
        "Saída: 0 válido, 1 inválido ou vencido, 2 texto que não é um QR code do Praça.\n"
        "Exemplos:\n  praca verify PRACA1.…\n  zbarimg --raw -q cartao.png | praca verify -"
    )


def run(args: argparse.Namespace) -> int:
    text = sys.stdin.read() if args.qrtext == "-" else args.qrtext
    text = text.strip()
    key = args.key if args.key is not None else keys_dir()
    result = verify_text(text, key)
    if result.malformed:
        raise UserError(result.message, field="qrtext")
    if args.json:
        print(json.dumps(as_dict(result, key), ensure_ascii=False, indent=2))
    else:
        print(as_text(result), end="")
    return 0 if result.ok else 1


def _document(number: str) -> str:
    if len(number) == 11:
        return f"CPF {format_cpf(number)}"
    if len(number) == 14:
        return f"CNPJ {format_cnpj(number)}"
    return number


def summary_rows(summary: PermitSummary) -> list[tuple[str, str]]:
    return [
        ("Número", summary.number),
        ("Titular", summary.holder_name),
        ("Documento", _document(summary.holder_document) if summary.holder_document else "—"),
        ("Tipo", summary.kind_label),
        ("Local", summary.place or "—"),
        ("Validade", f"{summary.valid_from:%d/%m/%Y} a {summary.valid_until:%d/%m/%Y}"),
        ("Município", summary.municipality),
        ("Regime", summary.regime_id),
    ]


def as_text(result: Verification) -> str:
    lines = [f"{result.status_pt} — {result.message}"]
    if result.summary is not None:
        rows = summary_rows(result.summary)
        width = max(len(label) for label, _ in rows) + 1
        lines += [f"  {label + ':':<{width}} {value}" for label, value in rows]
    return "\n".join(lines) + "\n"


def as_dict(result: Verification, key) -> dict:
    summary = None
    if result.summary is not None:
        s = result.summary
        summary = {
            "number": s.number,
            "holder_name": s.holder_name,
            "holder_document": s.holder_document,
            "kind_label": s.kind_label,
            "place": s.place,
            "valid_from": s.valid_from.isoformat(),
            "valid_until": s.valid_until.isoformat(),
            "regime_id": s.regime_id,
            "municipality": s.municipality,
        }
    return {
        "status": result.status,
        "status_pt": result.status_pt,
        "message": result.message,
        "not_yet_in_force": result.not_yet_in_force,
        "checked_on": dt.date.today().isoformat(),
        "key": public_key_fingerprint(key),
        "summary": summary,
    }
