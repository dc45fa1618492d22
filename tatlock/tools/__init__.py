"""Built-in tools. Each family lives in its own module; `registry.BUILTIN_TOOLS` lists them."""
