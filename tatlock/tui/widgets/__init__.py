"""The widgets of the TUI, one module per component."""
