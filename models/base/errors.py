"""Errors the domain raises for the user to read.

A ``UserError`` carries one clear pt-BR line: the command line prints it on
stderr and exits 2, a screen shows it at the field or in a message box. A
message that quotes what was typed is kept on one line: line breaks and tabs in
it become spaces, other control characters (NUL…) become ``�``.
"""

import unicodedata

_SPACES = {"\t", "\n", "\r", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029"}


def one_line(text: str) -> str:
    """``text`` on one line, without control characters (see the module's docstring)."""
    text = str(text)
    if text.isprintable():
        return text
    return "".join(" " if c in _SPACES else "�" if unicodedata.category(c) == "Cc" else c for c in text)


class UserError(Exception):
    """Bad input or a state that forbids the operation; the message is for the user. ``step`` names the first step
    (models.services.first_steps) whose absence forbids it — no signing key, no collection agreement —, for a
    screen to offer to open it."""

    exit_code = 2

    def __init__(self, message: str, *, field: str | None = None, step: str | None = None):
        message = one_line(message)
        super().__init__(message)
        self.message = message
        self.field = field
        self.step = step

    def __str__(self) -> str:
        return self.message


class Cancelled(Exception):  # noqa: N818 - not an error: what the clerk chose
    """Background work stopped — the clerk pressed Cancelar, or a ``progress`` callback raised it — and its
    transaction was rolled back: the one cancellation type, from the domain's steps to the screens'
    ``views.operations.run_operation``."""


class FieldErrors(UserError):  # noqa: N818 - a UserError of several fields; the name is the screens' API
    """Several fields are wrong at once: ``errors`` maps each field to its message (form order)."""

    def __init__(self, errors: dict[str, str]):
        errors = {key: one_line(message) for key, message in errors.items()}
        first_field, first_message = next(iter(errors.items()))
        super().__init__(first_message, field=first_field)
        self.errors = dict(errors)
