"""Foundations every other part uses and that import nothing of Praça: errors, money, CPF/CNPJ, text."""
