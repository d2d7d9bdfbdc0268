"""One module per schema revision, oldest first (docs/store.md, Migrations)."""
