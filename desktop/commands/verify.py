"""``praca verify QRTEXT [--json]`` — checks the QR of an issued permit, on the desk, offline.

The text read from the QR of a permit, an ID card or a placard (the signed text,
or the whole verification address that holds it) is checked with the
municipality's public keys kept in the database (``--db``, else the default
one), then what the QR says against the permit's record there — the permit
exists, its holder, validity and act match (a QR signed with a leaked key for
another holder is "inválido") — and its status: "válido" (exit 0); "inválido", "vencido",
or "revogada / suspensa / cancelada desde DATA" for a permit no longer in force
(exit 1), with what the QR says and a line naming what was checked. Without a
database, ``--key FILE`` checks against one public key file (an inspector's
laptop) the signature only, and says plainly that the status was not checked; and an old desk's key
folder (``<data folder>/keys``) is used when there is no database at all. A
text that is not a Praça QR is one line on stderr and exit 2. ``-`` reads the
text from standard input: ``zbarimg --raw -q cartao.png | praca verify -``.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import sys
from pathlib import Path

from desktop.paths import keys_dir, resolve_db_url
from models.access.signing import PUBLIC_KEY_FILE, STATUS_NOT_CHECKED, PermitSummary, Verification, verify_text
from models.base.br import format_cnpj, format_cpf
from models.base.errors import UserError

LOGIN = False  # a signature and a permit's public status; shows only what the QR itself carries


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("qrtext", metavar="QRTEXT", help="o texto lido do QR code (PRACA1.…); '-' lê da entrada padrão")
    parser.add_argument(
        "--key",
        metavar="ARQUIVO",
        type=Path,
        default=None,
        help=f"confere só com esta chave pública ({PUBLIC_KEY_FILE}), sem banco de dados; "
        "padrão: as chaves da prefeitura no banco (--db)",
    )
    parser.add_argument("--json", action="store_true", help="saída em JSON")
    parser.epilog = (
        "Saída: 0 válido; 1 inválido, vencido, revogada, suspensa ou cancelada; 2 texto que não é um QR code "
        "do Praça.\n"
        "Exemplos:\n  praca verify PRACA1.…\n  zbarimg --raw -q cartao.png | praca verify -"
    )


def run(args: argparse.Namespace) -> int:
    text = sys.stdin.read() if args.qrtext == "-" else args.qrtext
    text = text.strip()
    if args.key is not None:
        result = verify_text(text, args.key)
    else:
        result = _verify_in_database(text, getattr(args, "db", None))
    if result.malformed:
        raise UserError(result.message, field="qrtext")
    if args.json:
        print(json.dumps(as_dict(result), ensure_ascii=False, indent=2))
    else:
        print(as_text(result), end="")
    return 0 if result.ok else 1


def _verify_in_database(text: str, explicit_db: str | None) -> Verification:
    """The database's keys and the permit's status; with no database at all (an old desk), its key folder."""
    from models.permits.signatures import verify_here
    from models.store.bootstrap import close_database, open_database
    from models.store.db import NoDatabase

    try:
        open_database(resolve_db_url(explicit_db))
    except NoDatabase:
        if explicit_db is not None:
            raise
        return verify_text(text, keys_dir())
    try:
        return verify_here(text)
    finally:
        close_database()


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


def checked_text(result: Verification) -> str:
    """What was checked, one line: with the database every fact; with a public key alone, the signature only —
    and then plainly that the permit's status was not checked."""
    if not result.checked:
        return ""
    line = f"Conferido: {', '.join(result.checked)}."
    if result.summary is not None and not result.status_checked:
        line += " " + STATUS_NOT_CHECKED
    return line


def as_text(result: Verification) -> str:
    lines = [f"{result.status_pt} — {result.message}"]
    if result.summary is not None:
        rows = summary_rows(result.summary)
        width = max(len(label) for label, _ in rows) + 1
        lines += [f"  {label + ':':<{width}} {value}" for label, value in rows]
    if result.checked:
        lines.append(checked_text(result))
    return "\n".join(lines) + "\n"


def as_dict(result: Verification) -> dict:
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
        "key": result.key_id,
        "standing": result.standing,
        "standing_since": result.standing_since.isoformat() if result.standing_since else None,
        "summary": summary,
        "checked": list(result.checked),
        "status_checked": result.status_checked,
        "key_revoked_on": result.key_revoked_on.isoformat() if result.key_revoked_on else None,
    }
