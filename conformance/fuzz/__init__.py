"""The fuzzing campaign: structure-aware mutants of the golden and bad files, each read
by the reference in an isolated worker and classified (docs/fuzzing.md)."""
