"""Golden artefacts (docs/architecture.md, 'Golden artefacts'): the corpus of files with expected values,
the bad files every reader must reject, and the regressions property tests found."""
