"""The database and what keeps it whole: connection, schema, audit trail, backups, files written."""
