"""`conformance inspect FILE`: a file's structure, as the reference reads it.

`parquet_file` (Parquet, with `parquet_encryption` for Parquet Modular Encryption) and
`orc_file` (ORC) build one JSON document of what the file holds, with the reference's own
parsers (reference_impl); `render` prints it as indented text, or as JSON with `--json`.
The format is the file's leading magic (`conformance.formats`, each record's `inspector`).
"""
