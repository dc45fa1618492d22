"""One module per command family; each function takes the parsed arguments, returns an exit code."""
