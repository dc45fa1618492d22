"""tatlock: a terminal-first personal butler with long-term memory."""

__version__ = "0.1.0"

import logging as _logging

# a library: its warnings go where the application sends them, never raw onto the user's screen
_logging.getLogger(__name__).addHandler(_logging.NullHandler())
