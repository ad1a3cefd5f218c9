"""Steps across several subjects, above them all: what the front desk asks while an application is typed (its
facts from permits, debts and selection lists; eligibility and price), filing with the act's cut-offs and the
map desk's event dates, issuing a permit with its charges (from an application, by renewal, transfer or
exchange), a call's participants and what a held draw turns into, and the import of a town's old lists.

The subject packages below (registry, permits, billing, sites, selection, enforcement) never import this one;
this ``__init__`` imports nothing, so importing one step never pulls in the others.
"""
