"""Hardware detection and the model tier it implies.

``detect()`` looks at the machine (usable RAM, respecting container memory
limits; CPU cores; NVIDIA GPUs; Apple Silicon unified memory) and never
raises: every probe is optional and time-boxed. ``tier_for()`` maps that
description onto one of three tiers, each with a default Ollama model:

| Tier   | Model          | Context | compact_interval | Chosen when
                                             |
|--------|----------------|---------|------------------|------------------------------------------------------------------------------------------|
| high   | `qwen2.5:14b`  | 16384   | 70               | NVIDIA GPU with >= 16 GiB VRAM, or Apple
Silicon with >= 32 GiB unified memory            |
| medium | `qwen2.5:7b`   | 8192    | 50               | NVIDIA GPU with >= 8 GiB VRAM; Apple
Silicon with >= 16 GiB; CPU-only with >= 16 GiB RAM and >= 4 cores |
| low    | `llama3.2:3b`  | 4096    | 40               | everything else (e.g. 8 GiB laptops, or a
2-core box whatever its RAM)                    |

Rules, in order:

1. NVIDIA GPU present: use the one with the most VRAM. >= 16 GiB is high,
   >= 8 GiB is medium; a smaller GPU does not help, so fall through to the
   CPU-only rule.
2. Apple Silicon (unified memory): >= 32 GiB high, >= 16 GiB medium, else low.
3. CPU-only: >= 16 GiB RAM and >= 4 cores is medium, else low. CPU-only is
   capped at medium because a 14B model is too slow without a GPU.

Memory sizes are GiB (1024**3 bytes) and compared with a 1/16 tolerance,
because machines report a little less than their nominal size (a "16 GB"
laptop shows ~15.5 GiB): >= 15 GiB counts as 16, >= 30 as 32, >= 7.5 as 8.
"RAM" means usable RAM: the smaller of physical memory and any cgroup
memory limit (containers). "Cores" are the logical CPUs this process may
run on.

The tier can be forced by name (config ``tier`` / env ``TATLOCK_TIER``),
see ``current_tier()``.
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable

    Run = Callable[..., subprocess.CompletedProcess[str]]

__all__ = [
    "GIB",
    "TIERS",
    "Gpu",
    "Hardware",
    "Tier",
    "current_tier",
    "describe",
    "detect",
    "tier_by_name",
    "tier_for",
]

GIB = 1024**3
PROBE_TIMEOUT = 3.0  # seconds, for every subprocess / driver probe

# cgroup v1 reports "no limit" as a huge number (9223372036854771712 on x86-64).
_CGROUP_V1_UNLIMITED = 2**60


@dataclass(frozen=True)
class Gpu:
    name: str
    vram_bytes: int
    vendor: str  # "nvidia", ...


@dataclass(frozen=True)
class Hardware:
    ram_bytes: int  # usable RAM: min(physical, cgroup limit); Apple: hw.memsize
    cpu_count: int
    gpus: tuple[Gpu, ...] = ()
    unified_memory: bool = False  # Apple Silicon
    cgroup_limited: bool = False  # ram_bytes comes from a cgroup limit


@dataclass(frozen=True)
class Tier:
    name: str  # "low" | "medium" | "high"
    model: str  # default Ollama model tag
    compact_interval: int
    context_size: int  # tokens
    reason: str  # one human sentence saying why this tier
    # where a direct answer is written (config ``answer_form``): "json", inside the assessment's
    # JSON (one call, the first byte soonest), or "plain", a short routing call and then the
    # answer as plain text; chosen per tier by `scripts/bench answers --env TATLOCK_ANSWER_FORM=...`
    answer_form: str = "json"


# The one table of tiers. ``reason`` here is generic; tier_for() and
# tier_by_name() replace it with the actual reason.
TIERS: dict[str, Tier] = {
    # the smallest models answer far better as a plain chat client asks them than inside JSON
    # (SmolLM2, `scripts/bench answers`: see the README's Hardware tiers)
    "low": Tier(
        "low", "llama3.2:3b", 40, 4096, "Small model for modest machines.", answer_form="plain"
    ),
    "medium": Tier("medium", "qwen2.5:7b", 50, 8192, "7B model for mid-range machines."),
    "high": Tier("high", "qwen2.5:14b", 70, 16384, "14B model for a large GPU or Apple Silicon."),
}


# --------------------------------------------------------------------------
# Detection
# --------------------------------------------------------------------------


def detect(*, root: str = "/", run: Run = subprocess.run) -> Hardware:
    """Describe this machine. Never raises; unknown values fall back safely.

    ``root`` is where ``sys/fs/cgroup`` is looked up and ``run`` is used for
    every subprocess (``nvidia-smi``, ``sysctl``); both exist for tests.
    """
    try:
        system, machine = _platform()
    except Exception:
        system, machine = "", ""

    cpu_count = _cpu_count()
    total = _physical_ram()

    unified = False
    if system == "Darwin":
        unified = machine == "arm64" or _sysctl(run, "hw.optional.arm64") == "1"
        memsize = _parse_int(_sysctl(run, "hw.memsize"))
        if memsize and memsize > 0:
            total = memsize

    limit = _cgroup_memory_limit(root) if system == "Linux" or root != "/" else None
    cgroup_limited = limit is not None and (total <= 0 or limit < total)
    ram = limit if cgroup_limited and limit is not None else total

    gpus: tuple[Gpu, ...] = ()
    if not unified:
        try:
            gpus = _nvidia_gpus(run)
        except Exception:
            gpus = ()

    return Hardware(
        ram_bytes=max(int(ram), 0),
        cpu_count=max(int(cpu_count), 1),
        gpus=gpus,
        unified_memory=unified,
        cgroup_limited=cgroup_limited,
    )


def _platform() -> tuple[str, str]:
    import platform

    return platform.system(), platform.machine()


def _cpu_count() -> int:
    try:
        return len(os.sched_getaffinity(0)) or 1  # respects taskset / cpusets
    except Exception:
        return os.cpu_count() or 1


def _physical_ram() -> int:
    # the POSIX count first: the same figure as psutil's on Linux and macOS, without importing
    # psutil on every start (about 20 ms of `tatlock ask`); psutil where there is no sysconf
    try:
        pages = int(os.sysconf("SC_PHYS_PAGES"))
        if pages > 0:
            return int(os.sysconf("SC_PAGE_SIZE")) * pages
    except (AttributeError, ValueError, OSError):
        pass
    try:
        import psutil

        return int(psutil.virtual_memory().total)
    except Exception:
        return 0


def _read_text(path: str) -> str | None:
    try:
        with open(path, encoding="ascii", errors="replace") as fh:
            return fh.read(256).strip()
    except Exception:
        return None


def _parse_int(text: str | None) -> int | None:
    if text is None:
        return None
    try:
        return int(text.strip())
    except (ValueError, AttributeError):
        return None


def _cgroup_memory_limit(root: str) -> int | None:
    """The smallest real cgroup memory limit under ``root``, or None."""
    cgroup = os.path.join(root, "sys", "fs", "cgroup")
    limits: list[int] = []

    v2 = _read_text(os.path.join(cgroup, "memory.max"))
    if v2 is not None and v2 != "max":
        value = _parse_int(v2)
        if value is not None and value > 0:
            limits.append(value)

    v1 = _parse_int(_read_text(os.path.join(cgroup, "memory", "memory.limit_in_bytes")))
    if v1 is not None and 0 < v1 < _CGROUP_V1_UNLIMITED:
        limits.append(v1)

    return min(limits) if limits else None


def _run_text(run: Run, argv: list[str]) -> str | None:
    """stdout of ``argv`` if it succeeds within PROBE_TIMEOUT, else None."""
    try:
        proc = run(argv, capture_output=True, text=True, timeout=PROBE_TIMEOUT, check=False)
    except Exception:  # FileNotFoundError, TimeoutExpired, PermissionError, ...
        return None
    if getattr(proc, "returncode", 1) != 0:
        return None
    out = getattr(proc, "stdout", None)
    if isinstance(out, bytes):
        out = out.decode("utf-8", "replace")
    return out if isinstance(out, str) else None


def _sysctl(run: Run, key: str) -> str | None:
    out = _run_text(run, ["sysctl", "-n", key])
    return out.strip() if out is not None else None


def _nvidia_gpus(run: Run) -> tuple[Gpu, ...]:
    gpus = _nvml_gpus()
    if gpus is not None:
        return gpus
    exe = shutil.which("nvidia-smi")
    if not exe:
        return ()
    out = _run_text(
        run,
        [exe, "--query-gpu=name,memory.total", "--format=csv,noheader,nounits"],
    )
    return parse_nvidia_smi(out) if out else ()


def parse_nvidia_smi(text: str) -> tuple[Gpu, ...]:
    """Parse ``nvidia-smi --query-gpu=name,memory.total --format=csv,noheader,nounits``.

    Each line is ``<name>, <MiB>``; malformed lines are skipped.
    """
    gpus: list[Gpu] = []
    for line in text.splitlines():
        name, sep, mib = line.rpartition(",")
        if not sep:
            continue
        try:
            vram = int(float(mib.strip()) * 1024**2)
        except ValueError:
            continue  # "[N/A]" etc.
        if vram > 0:
            gpus.append(Gpu(name=name.strip() or "NVIDIA GPU", vram_bytes=vram, vendor="nvidia"))
    return tuple(gpus)


def _nvml_gpus() -> tuple[Gpu, ...] | None:
    """GPUs via nvidia-ml-py, or None when it is unavailable or fails.

    NVML calls can block on a wedged driver, so they run in a daemon thread
    that is abandoned after PROBE_TIMEOUT (reported as no GPUs).
    """
    try:
        import pynvml  # nvidia-ml-py
    except Exception:
        return None

    import threading

    result: list[tuple[Gpu, ...] | None] = []

    def probe() -> None:
        try:
            pynvml.nvmlInit()
        except Exception:
            result.append(None)
            return
        try:
            gpus = []
            for i in range(pynvml.nvmlDeviceGetCount()):
                handle = pynvml.nvmlDeviceGetHandleByIndex(i)
                name = pynvml.nvmlDeviceGetName(handle)
                if isinstance(name, bytes):
                    name = name.decode("utf-8", "replace")
                total = int(pynvml.nvmlDeviceGetMemoryInfo(handle).total)
                gpus.append(Gpu(name=str(name), vram_bytes=total, vendor="nvidia"))
            result.append(tuple(gpus))
        except Exception:
            result.append(None)
        finally:
            try:
                pynvml.nvmlShutdown()
            except Exception:
                pass

    thread = threading.Thread(target=probe, name="tatlock-nvml", daemon=True)
    thread.start()
    thread.join(PROBE_TIMEOUT)
    if thread.is_alive():
        return ()  # driver hung; nvidia-smi would likely hang too
    return result[0] if result else None


# --------------------------------------------------------------------------
# Tiers
# --------------------------------------------------------------------------


def _at_least(nbytes: int, gib: float) -> bool:
    """``nbytes`` is at least a nominal ``gib`` GiB, with a 1/16 tolerance."""
    return nbytes >= gib * GIB * 15 / 16


def _gib(nbytes: int) -> str:
    return f"{nbytes / GIB:.1f} GiB"


def _tier(name: str, reason: str) -> Tier:
    return replace(TIERS[name], reason=reason)


def tier_for(hw: Hardware) -> Tier:
    """The tier this hardware supports (pure; see the module docstring)."""
    nvidia = [g for g in hw.gpus if g.vendor == "nvidia"]
    small_gpu = ""
    if nvidia:
        best = max(nvidia, key=lambda g: g.vram_bytes)
        where = f"{best.name} with {_gib(best.vram_bytes)} VRAM"
        if _at_least(best.vram_bytes, 16):
            return _tier("high", f"{where}: GPU inference of a 14B model.")
        if _at_least(best.vram_bytes, 8):
            return _tier(
                "medium", f"{where}: GPU inference of a 7B model (high needs 16 GiB VRAM)."
            )
        small_gpu = f"{where} is too small to help (8 GiB needed)"

    if hw.unified_memory:
        where = f"Apple Silicon with {_gib(hw.ram_bytes)} unified memory"
        if _at_least(hw.ram_bytes, 32):
            return _tier("high", f"{where}: room for a 14B model.")
        if _at_least(hw.ram_bytes, 16):
            return _tier("medium", f"{where}: room for a 7B model (high needs 32 GiB).")
        return _tier("low", f"{where}: a 3B model fits comfortably (medium needs 16 GiB).")

    ram = _gib(hw.ram_bytes) + (" RAM (container limit)" if hw.cgroup_limited else " RAM")
    cores = f"{hw.cpu_count} core" + ("" if hw.cpu_count == 1 else "s")
    gpu = small_gpu or "no GPU"
    if not _at_least(hw.ram_bytes, 16):
        return _tier(
            "low", f"{ram}, {cores}, {gpu}: CPU inference, too little memory for a 7B model."
        )
    if hw.cpu_count < 4:
        return _tier(
            "low",
            f"{ram} but only {cores}, {gpu}: CPU inference of a 7B model would be too slow (needs 4 "
            f"cores).",
        )
    return _tier(
        "medium",
        f"{ram}, {cores}, {gpu}: CPU inference, capped at medium because a 14B model is too slow "
        f"without a GPU.",
    )


def tier_by_name(name: str) -> Tier:
    """The tier called ``name`` (case-insensitive); ValueError if unknown."""
    key = str(name).strip().lower()
    if key not in TIERS:
        raise ValueError(
            f"unknown tier {name!r}: expected one of {', '.join(TIERS)} (or 'auto' to detect)"
        )
    return _tier(key, f"Tier {key!r} was chosen explicitly in configuration.")


@functools.lru_cache(maxsize=1)
def _detect_cached() -> Hardware:
    return detect()


def current_tier(config_override: str | None = None) -> tuple[Tier, Hardware]:
    """The tier to use now and the (cached, per-process) detected hardware.

    ``config_override`` is the configured tier name (config ``tier`` or env
    ``TATLOCK_TIER``, resolved by the caller). None, "" and "auto" mean
    detect; an unknown name raises ValueError.
    """
    hw = _detect_cached()
    if config_override is None or config_override.strip().lower() in ("", "auto"):
        return tier_for(hw), hw
    tier = tier_by_name(config_override)
    detected = tier_for(hw)
    if detected.name != tier.name:
        tier = replace(
            tier,
            reason=f"Tier {tier.name!r} was chosen explicitly in configuration "
            f"(this machine would get {detected.name!r}).",
        )
    return tier, hw


def describe(hw: Hardware) -> str:
    """Short multi-line human summary, for ``tatlock doctor``."""
    lines = [
        f"RAM: {_gib(hw.ram_bytes)} usable",
        f"Container memory limit: {'yes' if hw.cgroup_limited else 'no'}",
        f"CPU cores: {hw.cpu_count}",
    ]
    if hw.gpus:
        for gpu in hw.gpus:
            lines.append(f"GPU: {gpu.name} ({gpu.vendor}), {_gib(gpu.vram_bytes)} VRAM")
    else:
        lines.append("GPU: none detected")
    lines.append(f"Unified memory: {'yes (Apple Silicon)' if hw.unified_memory else 'no'}")
    return "\n".join(lines)
