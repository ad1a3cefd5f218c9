"""Errors the domain raises for the user to read.

A ``UserError`` carries one clear pt-BR line: the command line prints it on
stderr and exits 2, a screen shows it at the field or in a message box.
"""


class UserError(Exception):
    """Bad input or a state that forbids the operation; the message is for the user."""

    exit_code = 2

    def __init__(self, message: str, *, field: str | None = None):
        super().__init__(message)
        self.message = message
        self.field = field

    def __str__(self) -> str:
        return self.message


class FieldErrors(UserError):
    """Several fields are wrong at once: ``errors`` maps each field to its message (form order)."""

    def __init__(self, errors: dict[str, str]):
        first_field, first_message = next(iter(errors.items()))
        super().__init__(first_message, field=first_field)
        self.errors = dict(errors)
