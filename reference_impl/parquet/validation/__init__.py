"""The validator: is the metadata of a Parquet file true to its data?

See ``validate`` for the entry point and the vocabulary of findings.
"""
