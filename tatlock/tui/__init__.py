"""The Textual TUI (imported only when it starts: `tatlock ask` and `--help` never load Textual)."""
