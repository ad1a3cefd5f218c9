"""People, companies and their applications: the tables and statuses the permits' tables name.

:mod:`~models.registry.people` (people, companies, partners), :mod:`~models.registry.search`,
:mod:`~models.registry.town` (which town this copy serves) and :mod:`~models.registry.applications` (the
applications' tables, statuses and history) sit below the permits. What the front desk asks across subjects,
filing and the import of old lists are steps in :mod:`models.services`, above every subject. This ``__init__``
imports nothing.
"""
