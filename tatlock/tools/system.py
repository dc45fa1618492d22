"""A snapshot of this machine's health (CPU, memory, disk, OS).

Lets the butler answer "is my laptop struggling?" or "how much disk is left?" from
facts rather than invention. psutil is imported on call: it is only needed here and
in hardware detection, not on every start-up path.
"""

from __future__ import annotations

import os
import platform
from pathlib import Path
from typing import Any

from tatlock.tools.base import ToolContext

_GIB = 1024**3


def _gib(n: float) -> float:
    return round(n / _GIB, 1)


def get_system_info(*, ctx: ToolContext) -> dict[str, Any]:
    """Return CPU, memory, home-disk usage, OS and Python version."""
    try:
        import psutil
    except ImportError:  # pragma: no cover - a declared dependency
        return {"error": "System information needs the psutil package."}

    cpu: dict[str, Any] = {
        "count": psutil.cpu_count(logical=True),
        "physical_cores": psutil.cpu_count(logical=False),
        # a short sample: long enough to mean something, short enough not to stall a turn
        "percent": psutil.cpu_percent(interval=0.2),
    }
    try:
        cpu["load_average"] = [round(x, 2) for x in os.getloadavg()]
    except (AttributeError, OSError):  # Windows has no load average
        pass

    vm = psutil.virtual_memory()
    memory = {
        "total_gib": _gib(vm.total),
        "available_gib": _gib(vm.available),
        "used_percent": round(vm.percent, 1),
    }

    home = Path.home()
    target = str(home) if home.exists() else os.path.abspath(os.sep)
    try:
        du = psutil.disk_usage(target)
        disk: dict[str, Any] = {
            "path": target,
            "total_gib": _gib(du.total),
            "free_gib": _gib(du.free),
            "used_percent": round(du.percent, 1),
        }
    except OSError as exc:
        disk = {"path": target, "error": f"Disk usage could not be read ({exc.strerror or exc})."}

    return {
        "cpu": cpu,
        "memory": memory,
        "disk": disk,
        "os": {
            "system": platform.system(),
            "release": platform.release(),
            "platform": platform.platform(terse=True),
            "machine": platform.machine(),
        },
        "python_version": platform.python_version(),
    }
