"""The Parquet cases of the catalogue, one module per area of the Parquet specification."""
