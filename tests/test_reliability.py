"""Issue 16 §7: contention explained and errors clean — the month's run, the read-only and foreign files."""

from __future__ import annotations

import datetime as dt

import pytest
from factories import open_new_database, sjc_stall

from models.billing import charges
from models.billing.charges import Charge, MonthRunBusy, generate_month, plan_month


def test_a_second_desk_generating_the_month_on_postgresql_is_told(keys, inpc, database):
    if not database.startswith("postgresql"):
        pytest.skip("the advisory lock is PostgreSQL's; SQLite's single writer queues the runs")
    import psycopg2

    from models.store.db import parse_url

    sjc_stall(keys)
    target = parse_url(database)
    other = psycopg2.connect(
        dbname=target.dbname,
        user=target.user,
        host=target.host,
        port=target.port,
        options=f"-c search_path={target.schema}",
    )
    try:
        with other.cursor() as cur:  # another desk, in the middle of its run
            cur.execute(f"SELECT pg_try_advisory_lock({charges.MONTH_RUN_LOCK})")
            assert cur.fetchone()[0]
        with pytest.raises(MonthRunBusy, match="O mês já está sendo gerado em outra mesa"):
            generate_month(2026, 9, by="tesouraria", today=dt.date(2026, 9, 1))
        assert Charge.select().count() == 0
        with other.cursor() as cur:
            cur.execute(f"SELECT pg_advisory_unlock({charges.MONTH_RUN_LOCK})")
    finally:
        other.close()
    assert len(generate_month(2026, 9, by="tesouraria", today=dt.date(2026, 9, 1))) == 1


def test_the_month_is_planned_before_the_write_and_a_run_made_meanwhile_is_not_repeated(keys, inpc, monkeypatch):
    """The plan is computed outside the write transaction; what another desk wrote meanwhile is left out at the
    write, never a duplicate or a raw IntegrityError."""
    from models.store.db import db

    sjc_stall(keys, "Ana Maria Souza")
    sjc_stall(keys, "Beatriz Lima Rocha")
    stale = plan_month(2026, 9, today=dt.date(2026, 9, 1))
    depth = []

    def planned_outside(*args, **kwargs):
        depth.append(db.transaction_depth())
        return stale

    first = generate_month(2026, 9, by="tesouraria", today=dt.date(2026, 9, 1))  # the other desk's run
    monkeypatch.setattr(charges.month, "plan_month", planned_outside)
    assert generate_month(2026, 9, by="tesouraria", today=dt.date(2026, 9, 1)) == []
    assert depth == [0] and len(first) == 2 and Charge.select().count() == 2


# --------------------------------------------------------------------------- every subcommand: exit 0 or 2


def _subcommands():
    """``(argv prefix, its parser)`` for every subcommand and every action under it (``permit print``…)."""
    import argparse

    from desktop.cli import build_parser

    def walk(prefix, parser):
        subs = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
        if not subs:
            yield prefix, parser
            return
        yield prefix, parser
        for name, child in subs[0].choices.items():
            yield from walk([*prefix, name], child)

    top = build_parser()
    for name, parser in next(a for a in top._actions if a.__class__.__name__ == "_SubParsersAction").choices.items():
        if name in ("demo", "init", "pg-setup"):  # they create databases or server roles: tested on their own
            continue
        yield from walk([name], parser)


NASTY = [
    "9999-12-31",
    "0001-01-01",
    "1899-12-31",
    "2026-02-30",
    "2026-13",
    "99999999999999999999",
    str(2**63),
    "-1",
    "0",
    "1",
    "3",
    "",
    " ",
    "abc",
    "1.000,00",
    "1,5",
    "1e309",
    "NaN",
    "\x1b[31m",
    "a\x00b",
    "2026/00001",
    "sapezal-2014",
    "sjc-2014",
    "olimpia-2025",
    "x" * 300,
    '=HYPERLINK("x")',
    "/dev/full",
    "nada/x.pdf",
    ".",
    "-",
    "g01=2,g02=1",
    "UFESP",
]


def test_every_subcommand_ends_in_exit_0_or_2_and_one_clean_line(demo_database, tmp_path, monkeypatch, app_ready):
    """Hypothesis over every subcommand's own options, their values drawn from the calendar's edges, ids beyond
    64 bits, outputs that cannot be written, control characters…: exit 0 or 2, never a traceback or an
    "erro inesperado"."""
    import contextlib
    import io

    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    from desktop.cli import main
    from models.store.bootstrap import close_database

    db_url = demo_database.url  # a copy of the session's demo (tests/demo_db.py)
    close_database()
    monkeypatch.chdir(tmp_path)  # a relative --out lands here, never in the repository
    (tmp_path / "folder").mkdir()
    (tmp_path / "in.csv").write_text("nome;cpf\nAna;123\n", encoding="utf-8")
    values = st.sampled_from(
        [
            *NASTY,
            "in.csv",
            str(tmp_path / "folder"),
            str(tmp_path / "out.pdf"),
            str(tmp_path / "out.xlsx"),
            str(tmp_path / "b.praca-backup"),
        ]
    )
    commands = list(_subcommands())

    def argv_for(draw_index, picks):
        prefix, parser = commands[draw_index % len(commands)]
        argv = ["--db", db_url, *prefix]
        for action, value, use in picks(parser):
            if not use:
                continue
            if not action.option_strings:
                argv.append(value)
            elif action.nargs == 0:
                argv.append(action.option_strings[0])
            else:
                argv += [action.option_strings[0], value]
        if prefix and prefix[0] == "restore" and "--check" not in argv:
            argv.append("--check")  # never replace the test's database
        return argv

    @st.composite
    def argvs(draw):
        index = draw(st.integers(0, len(commands) - 1))

        def picks(parser):
            for action in parser._actions:
                if action.dest in ("help", "version", "db", "user") or action.__class__.__name__ == "_SubParsersAction":
                    continue
                choices = list(action.choices) if action.choices else []
                value = draw(st.sampled_from(choices) | values if choices else values)
                yield action, value, draw(st.booleans()) or action.required or not action.option_strings

        return argv_for(index, picks)

    @settings(
        max_examples=int(__import__("os").environ.get("PRACA_FUZZ_EXAMPLES", "60")),
        deadline=None,
        suppress_health_check=list(HealthCheck),
        derandomize=not __import__("os").environ.get("PRACA_FUZZ_RANDOM"),
    )
    @given(argvs())
    def check(argv):
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main(argv)
            except SystemExit as exc:  # argparse's own refusals
                code = exc.code
        said = err.getvalue()
        assert code in (0, 2), (argv, code, said)
        assert "Traceback" not in said and "erro inesperado" not in said, (argv, said)
        assert all(".partial" not in p.name for p in tmp_path.iterdir()), argv

    check()


@pytest.mark.parametrize(
    "argv,says",
    [
        (
            ["deadline", "--regime", "sapezal-2014", "--kind", "defence", "--from", "9999-12-31"],
            "Data fora do calendário",
        ),
        (
            [
                "draw",
                "--regime",
                "sapezal-2014",
                "--input",
                "in.csv",
                "--vacancies",
                "2",
                "--seed",
                "1",
                "--events",
                "1000000000",
            ],
            "no máximo 1000",
        ),
        # a device that never ends is refused before a byte is read (it once filled the machine's memory)
        (["regimes", "check", "/dev/full"], "não é um arquivo comum"),
        (["regimes", "install", "/dev/zero"], "não é um arquivo comum"),
        (["draw", "--regime", "sapezal-2014", "--input", "/dev/full", "--vacancies", "2"], "não é um arquivo comum"),
        (["regimes", "check", "."], "é uma pasta"),
    ],
)
def test_inputs_at_the_edges_are_one_clean_line(argv, says, tmp_path, monkeypatch, capsys):
    from desktop.cli import main

    monkeypatch.chdir(tmp_path)
    (tmp_path / "in.csv").write_text("id,name\n1,Ana Souza\n2,Bia Lima\n", encoding="utf-8")
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and says in err and "inesperado" not in err


def test_an_id_beyond_64_bits_and_a_damaged_file_are_one_clean_line(database, tmp_path, capsys):
    from desktop.cli import main

    assert main(["--db", database, "layout", "export", "--site", str(2**64), "--out", str(tmp_path / "m.json")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "inesperado" not in err
    damaged = tmp_path / "danificado.sqlite3"
    damaged.write_bytes(b"SQLite format 3\x00" + bytes(range(256)) * 40)
    assert main(["--db", f"sqlite:///{damaged}", "sites"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "inesperado" not in err and "danificado" in err


def test_a_killed_postgresql_session_is_one_clean_line(database, monkeypatch, capsys):
    if not database.startswith("postgresql"):
        pytest.skip("a PostgreSQL server's session")
    from desktop.cli import main
    from models import sites

    real = sites.site_rows

    def killed_midway():
        from models.store.db import db

        db.execute_sql("SELECT pg_terminate_backend(pg_backend_pid())")  # the server ends this desk's session
        return real()

    monkeypatch.setattr(sites, "site_rows", killed_midway)
    assert main(["--db", database, "sites"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "A conexão com" in err and "caiu" in err and "inesperado" not in err


def test_a_foreign_sqlite_file_is_left_exactly_as_it_was(tmp_path):
    import sqlite3

    from models.store.bootstrap import open_database
    from models.store.db import DatabaseError

    foreign = tmp_path / "outro.sqlite3"
    with sqlite3.connect(foreign) as conn:
        conn.execute("CREATE TABLE receitas (nome TEXT)")
    before = foreign.read_bytes()
    with pytest.raises(DatabaseError):
        open_database(f"sqlite:///{foreign}")
    assert foreign.read_bytes() == before
    assert sqlite3.connect(foreign).execute("PRAGMA journal_mode").fetchone()[0] == "delete"
    assert not (tmp_path / "outro.sqlite3-wal").exists()


def test_a_database_on_read_only_media_is_read_and_a_write_is_one_line(tmp_path, monkeypatch, capsys):
    """Read-only media: the file and its folder cannot be written (as root, chmod does not stop us: the check
    that sees it is what is replaced here)."""
    from desktop.cli import main
    from models.demo.sites import demo_sites
    from models.store import db as dbmod
    from models.store.bootstrap import close_database

    url = f"sqlite:///{tmp_path / 'praca.sqlite3'}"
    open_new_database(url)
    demo_sites()
    close_database()
    monkeypatch.setattr(dbmod, "_writable", lambda path: False)
    monkeypatch.setattr(dbmod.os, "access", lambda path, mode: False)  # the folder too: immutable
    assert main(["--db", url, "sites"]) == 0
    assert "Rua" in capsys.readouterr().out
    assert main(["--db", url, "units", "set", "UFESP", "2031", "40,00", "--source", "teste"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "somente para leitura" in err
