"""Facts: a read incident turned into the flat facts the rules test (never refuses); the catalogue
beside the code, one YAML file per topic."""
