"""Golden artefacts (docs/architecture.md, 'Golden artefacts'): the corpus of files with expected values,
the bad files every reader must reject, and the regressions property tests found. What is
neutral (the bad-file model, the corpus, its manifest, verification, the reject cells,
paths) sits here; each format's bad files sit in its folder, ``parquet/`` and ``orc/``."""
