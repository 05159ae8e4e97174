"""Parquet adapters: one module per engine, writing and reading Parquet files."""
