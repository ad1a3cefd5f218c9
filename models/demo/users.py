"""The demo's users, documented in the README: login, name, role, one password."""

from __future__ import annotations

from models.access.users import User, hash_password
from models.store import desks
from models.store.db import db

#: The demo's users (documented in the README): login, name, role; password ``praca2026``.
DEMO_USERS = (
    ("admin", "Administrador do Praça", "administrador"),
    ("ana.souza", "Ana Souza", "atendente"),
    ("carlos.lima", "Carlos Lima", "atendente"),
    ("fiscal.marcos", "Marcos Ribeiro", "fiscal"),
    ("chefe.fiscalizacao", "Helena Prado", "chefe"),
)
DEMO_PASSWORD = "praca2026"


def demo_users() -> int:
    """The demo's documented users, each password hashed with a salt of its own."""
    with db.atomic():
        for username, name, role in DEMO_USERS:
            User.create(username=username, name=name, role=role, password_hash=hash_password(DEMO_PASSWORD))
            desks.store_verifier(db.obj, username, DEMO_PASSWORD)  # PostgreSQL: valid at the desks too
    return len(DEMO_USERS)
