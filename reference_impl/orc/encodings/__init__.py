"""ORC's run-length encodings of byte, boolean and integer streams (ORCv1.md, 'Run Length Encoding')."""
