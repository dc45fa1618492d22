"""The current date and time, so the model never has to guess "today".

Local models have no clock and a stale training cut-off; asking this tool is the only
reliable way for them to know the date, weekday or timezone. Uses ``ctx.now`` so tests
(and any future "pretend it is ..." feature) can inject a fixed clock.
"""

from __future__ import annotations

from typing import Any

from tatlock.tools.base import ToolContext
from tatlock.tools.dates import format_offset, tz_name

# not strftime("%A"): that follows the process locale, and the model expects English
_WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


def get_current_datetime(*, ctx: ToolContext) -> dict[str, Any]:
    """Return the user's local date, time, weekday and timezone."""
    now = ctx.now()
    if now.tzinfo is None:  # a careless injected clock; interpret as local time
        now = now.astimezone()
    return {
        "iso": now.isoformat(timespec="seconds"),
        "date": now.date().isoformat(),
        "time": now.strftime("%H:%M"),
        "weekday": _WEEKDAYS[now.weekday()],
        "timezone": tz_name(now),
        "utc_offset": format_offset(now),
    }
