"""tatlock over the Model Context Protocol (``tatlock mcp``): one user's conversations as MCP
resources and tools. Only ``tatlock mcp`` imports this package (the SDK is slow to import)."""
