"""Golden artefacts: the catalogue of files every reader must reject (issue 6)."""
