"""Test support: protocol-faithful fake servers over real loopback HTTP (not shipped)."""
