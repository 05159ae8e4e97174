"""The engine protocol (docs/engine-protocol.md): an implementation under test in any
language, as a long-lived executable speaking newline-delimited JSON."""
