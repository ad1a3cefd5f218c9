"""Search as you type at the front desk: CPF/CNPJ (any punctuation) or part of a name."""

from __future__ import annotations

from dataclasses import dataclass

from peewee import OP, Expression, PostgresqlDatabase

from models.base.br import format_cnpj, format_cpf
from models.base.text import search_key
from models.registry.people import Company, Person
from models.store.db import db


@dataclass(frozen=True)
class Match:
    kind: str  # "person" | "company"
    id: int
    name: str
    document: str  # formatted CPF/CNPJ
    detail: str  # trade name, city…


def document_fragment(text: str) -> str:
    """Digits and letters of a typed CPF/CNPJ fragment (alphanumeric CNPJs have letters)."""
    return "".join(c for c in text.upper() if c.isalnum())


_ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"  # what a compact CPF/CNPJ is written with, in sort order


def prefix_upper(fragment: str) -> str | None:
    """The first text after every text that starts with ``fragment`` (``"929"`` → ``"92A"``), in
    :data:`_ALPHABET`'s order; ``None`` when nothing sorts after them (``"ZZ"``)."""
    head = fragment.rstrip(_ALPHABET[-1])
    return head[:-1] + _ALPHABET[_ALPHABET.index(head[-1]) + 1] if head else None


def _starts_with(column, fragment: str):
    """``column`` starts with ``fragment``, said as a range too (``"922" <= cpf < "923"``) so the database walks
    the column's index instead of reading every row."""
    condition = column.startswith(fragment)
    if not fragment or any(c not in _ALPHABET for c in fragment):
        return condition
    upper = prefix_upper(fragment)
    return condition & (column >= fragment) & (column < upper) if upper else condition & (column >= fragment)


def _contains(column, word: str):
    """``column`` holds ``word``. Both are search keys (lower case, no accents): PostgreSQL's case-sensitive LIKE
    finds what its ILIKE would, in half the time over 50.000 people; SQLite's LIKE ignores case anyway."""
    if isinstance(db.obj, PostgresqlDatabase):
        return Expression(column, OP.LIKE, f"%{word}%")
    return column.contains(word)


def _by_name(column):
    """Sort by ``column`` without walking its index: the few rows that match are sorted instead (walking the
    name index to find 50 matches reads the whole table, row by row, when a text matches little or nothing)."""
    return column.concat("")


def find_applicants(text: str, limit: int = 50) -> list[Match]:
    """People and companies whose document starts with, or whose name contains, what was typed.

    Words are matched in any order, without accents or case ("silva jose"
    finds "José da Silva").
    """
    text = (text or "").strip()
    if not text:
        return []
    fragment = document_fragment(text)
    matches: list[Match] = []
    # A CPF or CNPJ (digits, or the alphanumeric CNPJ) typed whole or in part, punctuation ignored.
    looks_like_document = " " not in text.strip() and len(fragment) >= 3 and sum(c.isdigit() for c in fragment) >= 2
    people = []
    companies = []
    if looks_like_document:
        people = list(
            Person.select(Person.id, Person.name, Person.cpf, Person.city)
            .where(_starts_with(Person.cpf, fragment))
            .order_by(_by_name(Person.name))
            .limit(limit)
        )
        companies = list(
            Company.select(Company.id, Company.legal_name, Company.trade_name, Company.cnpj)
            .where(_starts_with(Company.cnpj, fragment))
            .order_by(_by_name(Company.legal_name))
            .limit(limit)
        )
    words = search_key(text).split()  # empty for a name in letters without a Latin form (Greek, Chinese…)
    if not people and not companies and words and any(c.isalpha() for c in text):
        person_filter = _contains(Person.search_name, words[0])
        company_filter = _contains(Company.search_name, words[0])
        for word in words[1:]:
            person_filter &= _contains(Person.search_name, word)
            company_filter &= _contains(Company.search_name, word)
        people = list(
            Person.select(Person.id, Person.name, Person.cpf, Person.city)
            .where(person_filter)
            .order_by(_by_name(Person.name))
            .limit(limit)
        )
        companies = list(
            Company.select(Company.id, Company.legal_name, Company.trade_name, Company.cnpj)
            .where(company_filter)
            .order_by(_by_name(Company.legal_name))
            .limit(limit)
        )
    for p in people:
        matches.append(Match("person", p.id, p.name, format_cpf(p.cpf), p.city))
    for c in companies:
        matches.append(Match("company", c.id, c.legal_name, format_cnpj(c.cnpj), c.trade_name))
    return matches[:limit]
