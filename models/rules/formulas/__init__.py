"""The rule language of the regime files (issue 29 §1): a small, safe, non-Turing-complete expression
language for amounts and conditions — :mod:`.syntax` (tokenizer and recursive-descent parser, back to text),
:mod:`.types` (units and the checker that types every expression at load time), :mod:`.evaluate` (``Decimal``
evaluation and the formula written with its values). Never Python's ``eval``: the only operations are the
grammar's. The fees that use it: :mod:`models.rules.regimes.fee_formulas` (checked against the act) and
:mod:`models.rules.fees.formula` (priced, line by line, with the articles).
"""
