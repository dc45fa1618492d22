"""tatlock: a terminal-first personal butler with long-term memory."""

__version__ = "0.1.0"
