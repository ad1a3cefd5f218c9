"""One pt-BR line for an error nobody expected — the start-up's message box, the main window's, the daily backup's.

Apart from desktop.app so that the main window reads it without importing the start-up, which imports the main
window (issue 27 §3: no import cycle, counting imports inside functions).
"""

from __future__ import annotations

from models.base.errors import UserError


def explain(exc: BaseException) -> str:
    """One pt-BR line for an error nobody expected (the traceback goes to stderr)."""
    import peewee

    if isinstance(exc, UserError):
        return exc.message
    from models.store.db import database_error_text

    known = database_error_text(exc)
    if known is not None:
        return known
    first_line = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    if isinstance(exc, (peewee.InterfaceError, peewee.OperationalError)):
        return f"A conexão com o banco de dados falhou: {first_line}. Nada foi gravado pela metade."
    if isinstance(exc, peewee.DataError):
        return f"O banco de dados recusou um valor: {first_line}. Nada foi gravado."
    return f"Erro inesperado ({type(exc).__name__}: {exc}). O detalhe foi registrado no terminal."
