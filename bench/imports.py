"""A 10.000-row import (Arquivo → Importar ambulantes…) while another desk works (issue 26 §7).

Praça: :func:`models.services.importer.import_rows` of a list of 10.000 vendors, each with a permit of the São
José dos Campos night feiras — prepared and staged in numbered batches, each a short transaction, and published in
one. Measured: the publication, the longest transaction of the import (the one moment another desk may wait for
it), budget ≤ 1 s; and another desk (a process of its own, with its own connection) that logs in and records a
payment again and again from the import's start to its end: its slowest round, budget ≤ 2 s — the issue's own
figure. The whole import's time is reported beside them. Before issue 26, the import was one transaction of
about 95 s on PostgreSQL, and every other desk's login failed meanwhile.
"""

from __future__ import annotations

import csv
import datetime as _dt
import multiprocessing
import os
import statistics
import tempfile
import time

from bench.common import Figure, limit_figure, open_scratch, say, thousands

NAME = "imports"
ROWS = 10_000
PUBLISH_LIMIT = 1.0
OTHER_DESK_LIMIT = 2.0
TODAY = _dt.date(2026, 11, 30)
CTX = multiprocessing.get_context("spawn")
CLERK_PASSWORD = "senha-da-caixa-2026"


def _cpf(n: int) -> str:
    from stdnum.br import cpf

    base = f"{n:09d}"
    return base + cpf._calc_check_digits(base)


def _list(path: str, first: int) -> str:
    with open(path, "w", newline="", encoding="utf-8") as fh:
        out = csv.writer(fh, delimiter=";")
        out.writerow(["Nome", "CPF", "Ramo", "Seção", "Frente", "Profundidade", "Início", "Validade", "Nº do alvará"])
        for i in range(ROWS):
            letters = "".join(chr(65 + int(d)) for d in str(first + i)).capitalize()
            name, cpf = f"Ambulante {letters} Souza", _cpf(first + i)
            out.writerow([name, cpf, "banana", "i", "2,5", "3", "01/01/2026", "31/12/2027", ""])
    return path


def _other_desk(url: str, charge_id: int, ready, finished, out) -> None:
    """Another desk (a process of its own): once its database is open, log in and pay R$ 1,00, again and again,
    until the import ends."""
    from models.access import session, users
    from models.billing.charges import Charge, record_payment
    from models.store.bootstrap import close_database, open_database

    open_database(url)
    rounds: list[float] = []
    failure = ""
    try:
        ready.set()
        n = 0
        while True:
            begin = time.perf_counter()
            try:
                user = users.authenticate("ana.caixa", CLERK_PASSWORD)
                with session.acting_as(user.as_session()):
                    record_payment(
                        Charge.get_by_id(charge_id),
                        paid_on=TODAY,
                        amount="1,00",
                        reference=f"B-{os.getpid()}-{n}",
                        by="ana.caixa",
                        today=TODAY,
                    )
            except Exception as exc:  # a lock timeout is what this measures against
                failure = f"{type(exc).__name__}: {exc}"
                break
            rounds.append(time.perf_counter() - begin)
            n += 1
            if finished.is_set():
                break
            time.sleep(0.05)
    finally:
        close_database()
        out.put((rounds, failure))


def run(backend: str, repeat: int) -> list[Figure]:
    from bench.common import ADMIN, PASSWORD
    from models.access import session, users
    from models.billing.charges import create_charge
    from models.registry.people import PersonInput, save_person
    from models.services import importer
    from models.services.importer import writing

    publications: list[float] = []
    wholes: list[float] = []
    slowest: list[float] = []
    failures: list[str] = []
    original = writing._publish_run

    def timed(*args, **kwargs):
        begin = time.perf_counter()
        try:
            return original(*args, **kwargs)
        finally:
            publications.append(time.perf_counter() - begin)

    folder = tempfile.mkdtemp(prefix="praca-bench-import-")
    with open_scratch(backend) as url:
        admin = users.authenticate(ADMIN[0], PASSWORD).as_session()
        with session.acting_as(admin):
            users.create_user(
                username="ana.caixa",
                name="Ana da Caixa",
                role="atendente",
                password=CLERK_PASSWORD,
                confirm=CLERK_PASSWORD,
            )
            debtor = save_person(PersonInput(name="Devedora Maria Aparecida", cpf=_cpf(1)), today=TODAY)
            charge = create_charge(
                kind="other",
                regime="olimpia-2025",
                label="Preço público",
                amount="40,00",
                due_on=TODAY,
                basis="LC 324/2025, art. 178",
                by="bench",
                person_id=debtor.id,
                today=TODAY,
            )
        writing._publish_run = timed
        try:
            for attempt in range(repeat):
                path = _list(os.path.join(folder, f"lista-{attempt}.csv"), 100_000 + attempt * ROWS)
                sheet = importer.read_sheet(path)
                mapping = importer.guess_mapping(sheet.headers)
                mapping.defaults.update(regime="sjc-2014", permit_kind="feirante")
                preview = importer.preview_import(sheet, mapping, today=TODAY)
                ready, finished, out = CTX.Event(), CTX.Event(), CTX.Queue()
                desk = CTX.Process(target=_other_desk, args=(url, charge.id, ready, finished, out), daemon=True)
                desk.start()
                ready.wait(120)
                begin = time.perf_counter()
                try:
                    with session.acting_as(admin):
                        importer.import_rows(preview, today=TODAY)
                finally:
                    wholes.append(time.perf_counter() - begin)
                    finished.set()
                    rounds, failure = out.get(timeout=600)
                    desk.join(30)
                slowest.append(max(rounds) if rounds else float("inf"))
                if failure:
                    failures.append(failure)
                    slowest[-1] = float("inf")
        finally:
            writing._publish_run = original
    say(
        f"  [{backend}] {thousands(ROWS)} linhas por importação; importação inteira: mediana "
        f"{statistics.median(wholes):.2f} s"
    )
    other = limit_figure(
        f"another desk logs in and pays during a {thousands(ROWS)}-row import (slowest round)",
        backend,
        slowest,
        OTHER_DESK_LIMIT,
        detail="; ".join(failures) or f"whole import {statistics.median(wholes):.2f} s (median)",
    )
    return [
        limit_figure(
            f"import of {thousands(ROWS)} rows: the publication (its longest transaction)",
            backend,
            publications,
            PUBLISH_LIMIT,
        ),
        other,
    ]
