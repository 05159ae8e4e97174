"""The ORC entries of the bad-file corpus: faults of a file's tail, type tree, stripes,
chunks and values, each a ``conformance.golden.bad_file.BadFile``."""
