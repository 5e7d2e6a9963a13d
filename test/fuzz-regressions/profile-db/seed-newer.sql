UPDATE schema_version SET version = 3;
