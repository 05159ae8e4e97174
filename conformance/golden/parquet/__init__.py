"""The Parquet entries of the bad-file corpus: faults of a file's structure, the type
rules' forbidden annotations and the lenient readings' files, each a
``conformance.golden.bad_file.BadFile``."""
