"""``praca signing …`` — the municipality's signing key, kept in the database (models.access.signing_keys).

``create`` makes the key pair once; ``rotate`` makes a new one and keeps the old
public key; ``revoke KEYID`` refuses a leaked key's signatures from a date;
``unlock`` lets this desk sign (the passphrase goes to the system keyring);
``forget`` removes it; ``add-key`` keeps an old desk's public key so that what
it signed still verifies; ``url`` sets the verification address put in every
QR; ``list`` shows the keys. The passphrase is asked at the terminal, or read
from ``PRACA_SIGNING_PASSPHRASE`` (scheduled jobs, scripts).
"""

from __future__ import annotations

import argparse
import datetime as _dt
import getpass
import os
import sys
from pathlib import Path

ACTIONS = {
    "list": "lista as chaves da prefeitura",
    "create": "cria a chave de assinatura da prefeitura (uma vez)",
    "rotate": "troca a chave (a antiga continua verificando o que assinou)",
    "revoke": "revoga uma chave vazada a partir de uma data",
    "unlock": "libera esta mesa para assinar (guarda a senha no cofre do sistema)",
    "forget": "esta mesa deixa de assinar (apaga a senha do cofre do sistema)",
    "resign": "reassina as permissões em vigor assinadas por uma chave revogada",
    "add-key": "inclui a chave pública de uma mesa antiga, só para verificação",
    "url": "endereço da página de verificação posto em cada QR code",
}


# Changing the municipality's keys or address is the administrator's act; listing them, and letting this desk
# sign (the passphrase is the proof), are not.
def LOGIN(args) -> bool:  # noqa: N802 - the name every subcommand declares (desktop/login.py)
    return getattr(args, "action", None) in ("create", "rotate", "revoke", "add-key", "resign") or (
        getattr(args, "action", None) == "url" and args.url is not None
    )


def configure(parser: argparse.ArgumentParser) -> None:
    from desktop.cli import ArgumentParser, db_option

    sub = parser.add_subparsers(dest="action", metavar="AÇÃO", title="ações", parser_class=ArgumentParser)
    for name, help_text in ACTIONS.items():
        p = sub.add_parser(name, help=help_text, description=help_text, formatter_class=parser.formatter_class)
        db_option(p, top=False)
        if name == "revoke":
            p.add_argument("key_id", metavar="CHAVE", help="id da chave (praca signing list)")
            p.add_argument("--reason", required=True, metavar="MOTIVO", help="por que a chave é revogada")
            p.add_argument("--on", metavar="DD/MM/AAAA", default=None, help="a partir de quando (padrão: hoje)")
        if name == "add-key":
            p.add_argument(
                "file", metavar="ARQUIVO", type=Path, help="ed25519-public.pem da mesa antiga (ou a pasta keys dela)"
            )
        if name == "url":
            p.add_argument(
                "url",
                metavar="URL",
                nargs="?",
                default=None,
                help="https://…/verificar.html; vazio ('') remove; omitido mostra o atual",
            )
    parser.epilog = (
        "A senha da chave é pedida no terminal ou lida de PRACA_SIGNING_PASSPHRASE.\n"
        "Exemplos:\n  praca signing create\n  praca signing unlock\n"
        "  praca signing url https://www.prefeitura.sp.gov.br/verificar.html"
    )


def _passphrase(confirm: bool) -> str:
    from models.access.signing_keys import PASSPHRASE_ENV
    from models.base.errors import UserError

    given = os.environ.get(PASSPHRASE_ENV)
    if given:
        return given
    if not sys.stdin.isatty():
        raise UserError(f"Informe a senha da chave no terminal ou em {PASSPHRASE_ENV}.", field="passphrase")
    first = getpass.getpass("Senha da chave de assinatura: ")
    if confirm and getpass.getpass("Repita a senha: ") != first:
        raise UserError("As duas senhas não conferem; nada foi alterado.", field="passphrase")
    return first


def run(args: argparse.Namespace) -> int:
    from desktop.paths import resolve_db_url
    from models.access import signing_keys as sk
    from models.base.br import parse_br_date
    from models.base.errors import UserError
    from models.permits import signatures
    from models.store.bootstrap import close_database, open_database

    action = getattr(args, "action", None)
    if action is None:
        raise UserError(
            "Informe a ação: praca signing list|create|rotate|revoke|resign|unlock|forget|add-key|url.", field="action"
        )
    open_database(resolve_db_url(getattr(args, "db", None)))
    try:
        if action == "list":
            rows = sk.key_rows()
            if not rows:
                print("A prefeitura ainda não tem chave de assinatura (praca signing create).")
            for listed in rows:
                mark = " — esta mesa assina" if listed.unlocked else ""
                print(
                    f"{listed.key_id}  {listed.fingerprint}  {listed.state}; criada em {listed.created_at:%d/%m/%Y} "
                    f"por {listed.created_by}{mark}"
                )
            print(f"Endereço de verificação: {sk.verify_url() or '(não definido)'}")
        elif action == "create":
            row = sk.create_key(_passphrase(confirm=True))
            print(f"Chave {row.key_id} criada; esta mesa já pode assinar. Nas outras mesas: praca signing unlock.")
        elif action == "rotate":
            row = sk.rotate_key(_passphrase(confirm=True), today=_dt.date.today())
            print(
                f"Chave {row.key_id} em uso; a anterior continua verificando o que assinou. "
                "Libere de novo as mesas que emitem permissões."
            )
            _remind_page()
        elif action == "revoke":
            on = parse_br_date(args.on, what="Data da revogação", field="on") if args.on else _dt.date.today()
            row = sk.revoke_key(args.key_id, on=on, reason=args.reason)
            if on > _dt.date.today():
                # a revocation from a later day takes effect on that day: until then its signatures verify
                print(
                    f"Chave {row.key_id} revogada a partir de {on:%d/%m/%Y}: até lá, os documentos que ela "
                    "assinou continuam aceitos (praca verify avisa da data); desse dia em diante, não. Ela já não "
                    "assina documentos novos: crie ou troque a chave e use praca signing resign antes dessa data."
                )
            else:
                print(
                    f"Chave {row.key_id} revogada a partir de {on:%d/%m/%Y}. As permissões em vigor que ela "
                    "assinou não são mais aceitas: crie ou troque a chave e use praca signing resign."
                )
            _remind_page()
        elif action == "resign":
            numbers = signatures.resign_permits(today=_dt.date.today())
            active = sk.active_key()
            if numbers and active is not None:  # resigning needs the active key: there is one when anything was
                print(
                    f"{len(numbers)} {'permissão reassinada' if len(numbers) == 1 else 'permissões reassinadas'} "
                    f"com a chave {active.key_id}; reimprima cartões e placas: {', '.join(numbers)}."
                )
            else:
                print(
                    "Nenhuma permissão em vigor foi assinada por chave revogada nem tem QR no formato antigo (PRACA1)."
                )
        elif action == "unlock":
            kept = sk.unlock(_passphrase(confirm=False))
            print(
                "Esta mesa pode assinar"
                + (
                    " (senha guardada no cofre do sistema)."
                    if kept
                    else "; este computador não tem cofre de senhas: ela vale só agora."
                )
            )
        elif action == "forget":
            sk.forget()
            print("Esta mesa não assina mais até ser liberada de novo.")
        elif action == "add-key":
            row = sk.add_public_key(args.file)
            print(f"Chave {row.key_id} incluída, só para verificação.")
            _remind_page()
        elif action == "url":
            if args.url is None:
                print(sk.verify_url() or "(não definido)")
            else:
                sk.set_verify_url(args.url)
                print(f"Endereço de verificação: {args.url.strip() or '(removido)'}")
    finally:
        close_database()
    return 0


def _remind_page() -> None:
    print(
        "A página de verificação publicada mudou: exporte-a de novo (praca verify-page --out verificar.html) "
        "e publique-a no site da prefeitura."
    )
