"""People, companies and their applications at the front desk, search and the import of old lists."""
