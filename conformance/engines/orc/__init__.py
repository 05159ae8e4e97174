"""ORC adapters: one module per engine, writing and reading ORC files."""
