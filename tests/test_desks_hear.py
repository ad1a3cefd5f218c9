"""Issue 27 §5: changes are typed — a desk refreshes only for the tables it shows — and on PostgreSQL the desks
hear each other (LISTEN/NOTIFY): a payment taken at another desk shows on this desk's Painel within 2 s."""

from __future__ import annotations

import datetime as dt
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from factories import open_new_database
from PySide6.QtCore import QSettings

from models.store.files import set_store


@pytest.fixture
def window(app_ready, qtbot, db_url, tmp_path):
    QSettings().clear()
    open_new_database(db_url)
    set_store(tmp_path / "files")
    from desktop.main_window import MainWindow

    win = MainWindow()
    qtbot.addWidget(win)
    win.show()
    yield win
    win.close()


def test_the_painel_is_refreshed_only_for_what_it_shows(window):
    from factories import feira_site

    from models.registry.people import PersonInput, save_person

    window.show_desk("painel")
    home = window.pages["painel"]
    window.show_desk("cadastros")
    home.people.setText("sentinel")
    feira_site()
    window.show_desk("painel")
    assert home.people.text() == "sentinel"  # a site is not on the Painel: not read again
    window.show_desk("cadastros")
    save_person(PersonInput(name="Maria José da Silva", cpf="529.982.247-25"), today=dt.date(2026, 11, 30))
    window.show_desk("painel")
    assert home.people.text() == "1"


def paid(home) -> str:
    return home.month.text().replace("\xa0", " ").replace("\u202f", " ")


def test_a_payment_at_another_desk_shows_on_the_painel_within_two_seconds(window, qtbot, db_url):
    if not db_url.startswith("postgresql"):
        pytest.skip("desks hear each other on PostgreSQL (one desk per SQLite file)")
    from models.billing.charges import create_charge
    from models.registry.people import PersonInput, save_person

    today = dt.date.today()
    debtor = save_person(PersonInput(name="Maria José da Silva", cpf="529.982.247-25"), today=today)
    charge = create_charge(
        kind="other",
        regime="olimpia-2025",
        label="Preço público — TPU",
        amount="150,00",
        due_on=today,
        basis="LC 324/2025, art. 178",
        by="tesouraria",
        person_id=debtor.id,
        today=today,
    )
    window.show_desk("painel")
    home = window.pages["painel"]
    home.refresh()
    assert "pago R$ 0,00" in paid(home)
    # the cashier's desk — another process, another connection — takes the payment
    script = textwrap.dedent(f"""
        import datetime
        from models.access import session
        from models.billing.charges import Charge, record_payment
        from models.store.bootstrap import open_database
        session.log_in(session.SYSTEM)
        open_database({db_url!r})
        today = datetime.date.today()
        record_payment(Charge.get_by_id({charge.id}), paid_on=today, amount="150,00", reference="REC-1",
                       by="tesouraria", today=today)
    """)
    subprocess.run([sys.executable, "-c", script], check=True, cwd=str(Path(__file__).parents[1]))
    qtbot.waitUntil(lambda: "pago R$ 150,00" in paid(home), timeout=2000)


def test_a_transaction_is_heard_once_per_table_after_its_commit_and_a_rollback_never(database, monkeypatch):
    if not database.startswith("postgresql"):
        pytest.skip("LISTEN/NOTIFY is PostgreSQL's")
    import time

    from models.registry.people import PersonInput, save_person
    from models.store import changes
    from models.store.db import db

    listener = changes.Listener(db.obj)
    try:
        with db.atomic():
            for name, cpf in (("Maria José da Silva", "529.982.247-25"), ("João Batista Rocha", "111.444.777-35")):
                save_person(PersonInput(name=name, cpf=cpf), today=dt.date(2026, 11, 30))
        with pytest.raises(RuntimeError), db.atomic():
            save_person(PersonInput(name="Ana Souza Lima", cpf="390.533.447-05"), today=dt.date(2026, 11, 30))
            raise RuntimeError("rolled back")
        time.sleep(0.3)
        listener.connection.poll()
        # other workers' schemas on the same server are heard too: only this schema's notices are this test's
        notices = [n.payload.split(" ", 2) for n in listener.connection.notifies]
        notices = [notice for notice in notices if notice[0] == listener.schema]
        assert [table for _schema, _desk, table in notices].count("person") == 1
        assert {desk for _schema, desk, _table in notices} == {changes.DESK}
        monkeypatch.setattr(changes, "DESK", "another-desk")  # heard as another desk would hear them
        assert listener.take() >= {"person"}
    finally:
        listener.close()
