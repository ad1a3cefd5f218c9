"""People, companies and their applications at the front desk, search and the import of old lists.

The package spans two levels. Below the permits: :mod:`~models.registry.people` (people, companies, partners),
:mod:`~models.registry.search`, :mod:`~models.registry.town` (which town this copy serves) and
:mod:`~models.registry.applications` (the applications' tables, statuses and history) — the permits' tables name
them. Above the permits, billing and the sites: :mod:`~models.registry.filing` (filing reads the map desk's event
dates), :mod:`~models.registry.front_desk` (the applicant's facts from the database: permits held, debts, selection
lists) and :mod:`~models.registry.importer` (writes permits). This ``__init__`` imports nothing, so importing a
lower module never pulls in the upper ones.
"""
