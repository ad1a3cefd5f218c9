"""Search as you type at the front desk: CPF/CNPJ (any punctuation) or part of a name."""

from __future__ import annotations

from dataclasses import dataclass

from models.br import format_cnpj, format_cpf
from models.people import Company, Person, search_key


@dataclass(frozen=True)
class Match:
    kind: str  # "person" | "company"
    id: int
    name: str
    document: str  # formatted CPF/CNPJ
    detail: str  # trade name, city…


def _document_fragment(text: str) -> str:
    """Digits and letters of a typed CPF/CNPJ fragment (alphanumeric CNPJs have letters)."""
    return "".join(c for c in text.upper() if c.isalnum())


def find_applicants(text: str, limit: int = 50) -> list[Match]:
    """People and companies whose document starts with, or whose name contains, what was typed.

    Words are matched in any order, without accents or case ("silva jose"
    finds "José da Silva").
    """
    text = (text or "").strip()
    if not text:
        return []
    fragment = _document_fragment(text)
    matches: list[Match] = []
    # A CPF or CNPJ (digits, or the alphanumeric CNPJ) typed whole or in part, punctuation ignored.
    looks_like_document = (" " not in text.strip() and len(fragment) >= 3
                           and sum(c.isdigit() for c in fragment) >= 2)
    people = []
    companies = []
    if looks_like_document:
        people = list(Person.select(Person.id, Person.name, Person.cpf, Person.city).where(
            Person.cpf.startswith(fragment)).order_by(Person.name).limit(limit))
        companies = list(Company.select(Company.id, Company.legal_name, Company.trade_name, Company.cnpj).where(
            Company.cnpj.startswith(fragment)).order_by(Company.legal_name).limit(limit))
    if not people and not companies and any(c.isalpha() for c in text):
        words = search_key(text).split()
        person_filter = Person.search_name.contains(words[0])
        company_filter = Company.search_name.contains(words[0])
        for word in words[1:]:
            person_filter &= Person.search_name.contains(word)
            company_filter &= Company.search_name.contains(word)
        people = (Person.select(Person.id, Person.name, Person.cpf, Person.city)
                  .where(person_filter).order_by(Person.name).limit(limit))
        companies = (Company.select(Company.id, Company.legal_name, Company.trade_name, Company.cnpj)
                     .where(company_filter).order_by(Company.legal_name).limit(limit))
    for p in people:
        matches.append(Match("person", p.id, p.name, format_cpf(p.cpf), p.city))
    for c in companies:
        matches.append(Match("company", c.id, c.legal_name, format_cnpj(c.cnpj), c.trade_name))
    return matches[:limit]
