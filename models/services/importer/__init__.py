"""Import of the town's existing lists: vendors (people or companies) and, optionally, their permits.

The steps, the same for the window and for ``praca import vendors``:

1. :func:`read_sheet` reads an ``.xlsx`` (openpyxl, read-only: the first sheet)
   or a ``.csv`` (``;`` or ``,``; UTF-8, with or without BOM, else Latin-1 /
   Windows-1252 — one encoding for the whole file: a file with lines of each
   is refused naming them, and a cell already garbled, "JoÃ£o", is refused).
   The first non-empty row is the header; empty rows are left out; every row
   keeps its line number in the file.
2. A :class:`Mapping` says which column holds each Praça field
   (:data:`FIELDS`) and, for the permit fields, may give one value for every
   row (``defaults``: the regime and the kind of permit, usually).
   :func:`guess_mapping` proposes one from the header names in pt-BR ("Nome",
   "CPF", "Data de nascimento"…); mappings are saved and loaded as JSON and the
   last one used for a given header is remembered (:func:`remember_mapping`).
3. :func:`preview_import` checks every row — CPF and CNPJ check digits, dates
   (dd/mm/aaaa, ISO or Excel serial numbers), sizes (> 0, at most two
   decimals), required fields, duplicates within the file and against the
   database — and lists each bad row with its line number and reason.
   Nothing is written.
4. :func:`import_rows` writes, after the clerk confirms: every good row (the
   bad ones are left out), or nothing at all when the clerk chose "tudo ou
   nada" and a row is bad. It never blocks the other desks (issue 26 §7):
   every row is prepared with no transaction open (validated by the people
   models' own validators, its permit made but for its number) and staged in
   numbered batches, each a short transaction that no other desk sees
   (:mod:`~models.services.importer.staging`; a desk killed meanwhile resumes
   after its last batch); then one short transaction checks again what another
   desk registered meanwhile and publishes every row — one insert per table,
   one audit entry per table, the permits' numbers taken last. A cancel
   removes the batches, or rolls the publication back.

Readings:

* A row is a **person** when it has a CPF, a **company** when it has a CNPJ; a
  column "CPF/CNPJ" is split by length. A row with both is a company whose
  partner is the person (an MEI and its owner): the person is registered too,
  or linked when already registered.
* A CPF or CNPJ already registered refuses the row ("já cadastrado") — an
  import never changes a registered person or company — except the CPF of a
  company's partner, which links to the person registered.
* **Permits** are imported when a permit column has a value in the row. The
  old number goes to ``notes`` as "número anterior"; Praça gives the permit
  its own number from the year's gapless counter, as for any permit. The
  term is the one in the list (both dates required); the status is active, or
  expired when the last day has passed. The permit is an existing one:
  eligibility and limits were decided when it was granted and are not
  checked again. The kind must accept the holder (person or company).

The package, one module per step (each imports only those before it):

* :mod:`~models.services.importer.fields` — the Praça fields a column may hold, the limits.
* :mod:`~models.services.importer.sheet` — step 1, reading the file (``.xlsx`` or ``.csv``).
* :mod:`~models.services.importer.mapping` — step 2, which column is which field; saved, guessed, remembered.
* :mod:`~models.services.importer.rows` — checking one row (documents, dates, sizes, the permit's fields).
* :mod:`~models.services.importer.preview` — step 3, every row checked, nothing written.
* :mod:`~models.services.importer.staging` — the tables where an import's prepared rows wait, in batches.
* :mod:`~models.services.importer.writing` — step 4, the batches staged and published (people, companies, permits).

It sits above :mod:`models.permits` (it writes permits through their tables and signs them) and reads only the
people models' own validators and writers.
"""

from __future__ import annotations

from models.services.importer.fields import (
    FIELDS,
    ImportCancelled,
)
from models.services.importer.mapping import (
    Mapping,
    guess_mapping,
    header_signature,
    load_mapping,
    recall_mapping,
    remember_mapping,
    save_mapping,
)
from models.services.importer.preview import (
    Preview,
    preview_import,
)
from models.services.importer.rows import (
    check_row,
    parse_date,
    parse_size,
)
from models.services.importer.sheet import (
    Sheet,
    decode_text,
    read_sheet,
)
from models.services.importer.writing import ImportResult, import_rows, release_connection

__all__ = [
    "FIELDS",
    "ImportCancelled",
    "ImportResult",
    "Mapping",
    "Preview",
    "Sheet",
    "check_row",
    "decode_text",
    "guess_mapping",
    "header_signature",
    "import_rows",
    "load_mapping",
    "parse_date",
    "parse_size",
    "preview_import",
    "read_sheet",
    "recall_mapping",
    "release_connection",
    "remember_mapping",
    "save_mapping",
]
