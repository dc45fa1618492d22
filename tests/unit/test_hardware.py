from __future__ import annotations

import pathlib
import subprocess
import sys

import pytest

from tatlock import hardware
from tatlock.hardware import (
    GIB,
    TIERS,
    Gpu,
    Hardware,
    Tier,
    current_tier,
    describe,
    detect,
    tier_by_name,
    tier_for,
)

MIB = 1024**2
_real_nvml = hardware._nvml_gpus  # before any fixture patches it


def gib(x: float) -> int:
    return int(x * GIB)


def nvidia(name: str, vram_gib: float) -> Gpu:
    return Gpu(name=name, vram_bytes=gib(vram_gib), vendor="nvidia")


# ---------------------------------------------------------------- tier_for


@pytest.mark.parametrize(
    ("hw", "expected"),
    [
        pytest.param(Hardware(gib(8), 4), "low", id="8GiB-laptop-no-gpu"),
        pytest.param(Hardware(gib(7.6), 8), "low", id="8GB-laptop-reports-7.6GiB"),
        pytest.param(Hardware(gib(15.6), 8), "medium", id="16GB-8core-desktop"),
        pytest.param(Hardware(gib(64), 16), "medium", id="64GiB-16core-cpu-only-capped"),
        pytest.param(Hardware(gib(24), 2), "low", id="24GiB-but-2-cores"),
        pytest.param(Hardware(gib(14), 8), "low", id="14GiB-below-tolerance"),
        pytest.param(
            Hardware(gib(32), 8, gpus=(nvidia("NVIDIA GeForce RTX 3060", 12),)),
            "medium",
            id="rtx3060-12GiB",
        ),
        pytest.param(
            Hardware(gib(8), 4, gpus=(nvidia("NVIDIA GeForce RTX 3060", 12),)),
            "medium",
            id="rtx3060-small-ram",
        ),
        pytest.param(
            Hardware(gib(64), 16, gpus=(nvidia("NVIDIA GeForce RTX 4090", 24),)),
            "high",
            id="rtx4090-24GiB",
        ),
        pytest.param(
            Hardware(gib(16), 8, gpus=(Gpu("NVIDIA RTX A4000", 16376 * MIB, "nvidia"),)),
            "high",
            id="16GB-card-reports-16376MiB",
        ),
        pytest.param(
            Hardware(gib(32), 8, gpus=(nvidia("NVIDIA GeForce RTX 2060", 6),)),
            "medium",
            id="6GiB-gpu-32GiB-ram-via-cpu",
        ),
        pytest.param(
            Hardware(gib(8), 8, gpus=(nvidia("NVIDIA GeForce GTX 1060", 6),)),
            "low",
            id="6GiB-gpu-8GiB-ram",
        ),
        pytest.param(
            Hardware(gib(32), 8, gpus=(Gpu("Radeon RX 7900", gib(24), "amd"),)),
            "medium",
            id="non-nvidia-gpu-ignored",
        ),
        pytest.param(Hardware(gib(16), 8, unified_memory=True), "medium", id="apple-m2-16"),
        pytest.param(Hardware(gib(64), 12, unified_memory=True), "high", id="m3-max-64"),
        pytest.param(Hardware(gib(8), 8, unified_memory=True), "low", id="m1-8"),
        pytest.param(Hardware(gib(24), 8, unified_memory=True), "medium", id="m2-24"),
        pytest.param(Hardware(gib(32), 8, unified_memory=True), "high", id="m2-max-32"),
    ],
)
def test_tier_for_sample_machines(hw: Hardware, expected: str) -> None:
    tier = tier_for(hw)
    assert tier.name == expected
    assert tier.model == TIERS[expected].model
    assert tier.context_size == TIERS[expected].context_size
    assert tier.compact_interval == TIERS[expected].compact_interval
    assert tier.reason and tier.reason.endswith(".")


def test_tier_table() -> None:
    assert set(TIERS) == {"low", "medium", "high"}
    assert (TIERS["low"].model, TIERS["low"].compact_interval, TIERS["low"].context_size) == (
        "llama3.2:3b",
        40,
        4096,
    )
    assert (
        TIERS["medium"].model,
        TIERS["medium"].compact_interval,
        TIERS["medium"].context_size,
    ) == (
        "qwen2.5:7b",
        50,
        8192,
    )
    assert (TIERS["high"].model, TIERS["high"].compact_interval, TIERS["high"].context_size) == (
        "qwen2.5:14b",
        70,
        16384,
    )
    for name, tier in TIERS.items():
        assert tier.name == name


def test_two_gpus_largest_used() -> None:
    hw = Hardware(
        gib(16),
        8,
        gpus=(nvidia("NVIDIA GeForce GTX 1650", 4), nvidia("NVIDIA GeForce RTX 4090", 24)),
    )
    tier = tier_for(hw)
    assert tier.name == "high"
    assert "RTX 4090" in tier.reason


def test_reasons_explain() -> None:
    low = tier_for(Hardware(gib(24), 2))
    assert "2 cores" in low.reason and "24.0 GiB" in low.reason and "no GPU" in low.reason
    capped = tier_for(Hardware(gib(64), 16))
    assert "capped at medium" in capped.reason
    limited = tier_for(Hardware(gib(4), 8, cgroup_limited=True))
    assert "container limit" in limited.reason
    small = tier_for(Hardware(gib(32), 8, gpus=(nvidia("NVIDIA GeForce RTX 2060", 6),)))
    assert "too small" in small.reason and "RTX 2060" in small.reason


def test_tier_for_is_pure() -> None:
    hw = Hardware(gib(16), 8)
    assert tier_for(hw) == tier_for(hw)


# ----------------------------------------------------------- tier_by_name


def test_tier_by_name() -> None:
    assert tier_by_name("high").model == "qwen2.5:14b"
    assert tier_by_name(" Medium ").name == "medium"
    assert isinstance(tier_by_name("low"), Tier)


@pytest.mark.parametrize("name", ["huge", "", "3b", "auto"])
def test_tier_by_name_unknown(name: str) -> None:
    with pytest.raises(ValueError, match=r"unknown tier .*low, medium, high"):
        tier_by_name(name)


def test_current_tier_override_and_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = []
    fake = Hardware(gib(24), 2)

    def fake_detect(**_: object) -> Hardware:
        calls.append(1)
        return fake

    monkeypatch.setattr(hardware, "detect", fake_detect)
    hardware._detect_cached.cache_clear()
    try:
        tier, hw = current_tier()
        assert (tier.name, hw) == ("low", fake)
        tier, _ = current_tier("HIGH")
        assert tier.name == "high" and tier.model == "qwen2.5:14b"
        assert "'low'" in tier.reason
        assert current_tier("auto")[0].name == "low"
        assert current_tier("")[0].name == "low"
        with pytest.raises(ValueError):
            current_tier("bogus")
        assert len(calls) == 1  # detection cached for the process
    finally:
        hardware._detect_cached.cache_clear()


# ------------------------------------------------------------------ detect


class FakeRun:
    """Stands in for subprocess.run; maps argv[0] basename / key to behaviour."""

    def __init__(self, responses: dict[str, object]) -> None:
        self.responses = responses
        self.calls: list[list[str]] = []

    def __call__(self, argv, **kwargs):
        self.calls.append(list(argv))
        assert kwargs.get("timeout") == 3 or kwargs.get("timeout") == 3.0
        key = argv[0].rsplit("/", 1)[-1]
        if key == "sysctl":
            key = f"sysctl {argv[-1]}"
        resp = self.responses.get(key)
        if resp is None:
            raise FileNotFoundError(argv[0])
        if isinstance(resp, BaseException):
            raise resp
        rc, out = resp
        return subprocess.CompletedProcess(argv, rc, stdout=out, stderr="")


@pytest.fixture
def linux(monkeypatch: pytest.MonkeyPatch):
    """A deterministic Linux box: no NVML, nvidia-smi on PATH only if asked."""
    monkeypatch.setattr(hardware, "_platform", lambda: ("Linux", "x86_64"))
    monkeypatch.setattr(hardware, "_nvml_gpus", lambda: None)
    monkeypatch.setattr(hardware, "_physical_ram", lambda: gib(32))
    monkeypatch.setattr(hardware.shutil, "which", lambda name: None)
    return monkeypatch


def with_smi(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(
        hardware.shutil,
        "which",
        lambda name: "/usr/bin/nvidia-smi" if name == "nvidia-smi" else None,
    )


def write(tmp_path, rel: str, text: str) -> None:
    path = tmp_path / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def test_cgroup_v2_limit_respected(linux, tmp_path) -> None:
    write(tmp_path, "sys/fs/cgroup/memory.max", f"{4 * GIB}\n")
    hw = detect(root=str(tmp_path), run=FakeRun({}))
    assert hw.ram_bytes == 4 * GIB
    assert hw.cgroup_limited is True
    assert tier_for(hw).name == "low"


def test_cgroup_v2_max_ignored(linux, tmp_path) -> None:
    write(tmp_path, "sys/fs/cgroup/memory.max", "max\n")
    hw = detect(root=str(tmp_path), run=FakeRun({}))
    assert hw.ram_bytes == gib(32)
    assert hw.cgroup_limited is False


def test_cgroup_limit_above_ram_not_a_limit(linux, tmp_path) -> None:
    write(tmp_path, "sys/fs/cgroup/memory.max", f"{64 * GIB}\n")
    hw = detect(root=str(tmp_path), run=FakeRun({}))
    assert (hw.ram_bytes, hw.cgroup_limited) == (gib(32), False)


def test_cgroup_v1_huge_value_ignored(linux, tmp_path) -> None:
    write(tmp_path, "sys/fs/cgroup/memory/memory.limit_in_bytes", "9223372036854771712\n")
    hw = detect(root=str(tmp_path), run=FakeRun({}))
    assert (hw.ram_bytes, hw.cgroup_limited) == (gib(32), False)


def test_cgroup_v1_limit_respected(linux, tmp_path) -> None:
    write(tmp_path, "sys/fs/cgroup/memory/memory.limit_in_bytes", f"{2 * GIB}\n")
    hw = detect(root=str(tmp_path), run=FakeRun({}))
    assert (hw.ram_bytes, hw.cgroup_limited) == (2 * GIB, True)


def test_cgroup_garbage_ignored(linux, tmp_path) -> None:
    write(tmp_path, "sys/fs/cgroup/memory.max", "not a number\n")
    write(tmp_path, "sys/fs/cgroup/memory/memory.limit_in_bytes", "0\n")
    hw = detect(root=str(tmp_path), run=FakeRun({}))
    assert (hw.ram_bytes, hw.cgroup_limited) == (gib(32), False)


def test_no_cgroup_files(linux, tmp_path) -> None:
    hw = detect(root=str(tmp_path), run=FakeRun({}))
    assert (hw.ram_bytes, hw.cgroup_limited, hw.gpus) == (gib(32), False, ())


def test_nvidia_smi_two_gpus(linux, tmp_path) -> None:
    with_smi(linux)
    run = FakeRun(
        {"nvidia-smi": (0, "NVIDIA GeForce GTX 1650, 4096\nNVIDIA GeForce RTX 4090, 24564\n")}
    )
    hw = detect(root=str(tmp_path), run=run)
    assert hw.gpus == (
        Gpu("NVIDIA GeForce GTX 1650", 4096 * MIB, "nvidia"),
        Gpu("NVIDIA GeForce RTX 4090", 24564 * MIB, "nvidia"),
    )
    assert run.calls == [
        ["/usr/bin/nvidia-smi", "--query-gpu=name,memory.total", "--format=csv,noheader,nounits"]
    ]
    tier = tier_for(hw)
    assert tier.name == "high" and "RTX 4090" in tier.reason


def test_nvidia_smi_malformed_lines_skipped() -> None:
    text = "garbage\nTesla T4, [N/A]\nNVIDIA A100-SXM4-80GB, 81920\n\n"
    assert hardware.parse_nvidia_smi(text) == (Gpu("NVIDIA A100-SXM4-80GB", 81920 * MIB, "nvidia"),)


@pytest.mark.parametrize(
    "response",
    [
        pytest.param(
            (9, "NVIDIA-SMI has failed because it couldn't communicate with the driver"), id="rc9"
        ),
        pytest.param(subprocess.TimeoutExpired("nvidia-smi", 3), id="timeout"),
        pytest.param(PermissionError("denied"), id="permission"),
        pytest.param(OSError("boom"), id="oserror"),
        pytest.param((0, ""), id="empty"),
    ],
)
def test_nvidia_smi_failing(linux, tmp_path, response) -> None:
    with_smi(linux)
    hw = detect(root=str(tmp_path), run=FakeRun({"nvidia-smi": response}))
    assert hw.gpus == ()
    assert hw.ram_bytes == gib(32)


def test_nvidia_smi_absent_not_called(linux, tmp_path) -> None:
    run = FakeRun({"nvidia-smi": (0, "NVIDIA GeForce RTX 4090, 24564\n")})
    hw = detect(root=str(tmp_path), run=run)
    assert hw.gpus == ()
    assert run.calls == []


def test_nvml_preferred_over_smi(linux, tmp_path) -> None:
    with_smi(linux)
    gpu = Gpu("NVIDIA GeForce RTX 3060", 12 * GIB, "nvidia")
    linux.setattr(hardware, "_nvml_gpus", lambda: (gpu,))
    run = FakeRun({})
    hw = detect(root=str(tmp_path), run=run)
    assert hw.gpus == (gpu,)
    assert run.calls == []


def test_fake_pynvml_module(linux, tmp_path) -> None:
    """The real _nvml_gpus against a stub pynvml module."""
    import types

    class Mem:
        total = 8 * GIB

    stub = types.SimpleNamespace(
        nvmlInit=lambda: None,
        nvmlShutdown=lambda: None,
        nvmlDeviceGetCount=lambda: 1,
        nvmlDeviceGetHandleByIndex=lambda i: i,
        nvmlDeviceGetName=lambda h: b"NVIDIA GeForce RTX 3070",
        nvmlDeviceGetMemoryInfo=lambda h: Mem(),
    )
    linux.setitem(sys.modules, "pynvml", stub)
    linux.setattr(hardware, "_nvml_gpus", _real_nvml)
    hw = detect(root=str(tmp_path), run=FakeRun({}))
    assert hw.gpus == (Gpu("NVIDIA GeForce RTX 3070", 8 * GIB, "nvidia"),)
    assert tier_for(hw).name == "medium"


def test_fake_pynvml_init_failure_falls_back_to_smi(linux, tmp_path) -> None:
    import types

    def fail() -> None:
        raise RuntimeError("NVML Shared Library Not Found")

    linux.setitem(sys.modules, "pynvml", types.SimpleNamespace(nvmlInit=fail))
    linux.setattr(hardware, "_nvml_gpus", _real_nvml)
    with_smi(linux)
    hw = detect(
        root=str(tmp_path), run=FakeRun({"nvidia-smi": (0, "NVIDIA GeForce RTX 4090, 24564\n")})
    )
    assert [g.name for g in hw.gpus] == ["NVIDIA GeForce RTX 4090"]


def test_apple_silicon(monkeypatch: pytest.MonkeyPatch, tmp_path) -> None:
    monkeypatch.setattr(hardware, "_platform", lambda: ("Darwin", "arm64"))
    monkeypatch.setattr(hardware, "_nvml_gpus", lambda: None)
    monkeypatch.setattr(hardware, "_physical_ram", lambda: gib(15))
    run = FakeRun({"sysctl hw.memsize": (0, f"{16 * GIB}\n")})
    hw = detect(root=str(tmp_path), run=run)
    assert hw.unified_memory is True
    assert hw.ram_bytes == 16 * GIB
    assert hw.gpus == ()
    assert tier_for(hw).name == "medium"


def test_apple_silicon_under_rosetta(monkeypatch: pytest.MonkeyPatch, tmp_path) -> None:
    monkeypatch.setattr(hardware, "_platform", lambda: ("Darwin", "x86_64"))
    monkeypatch.setattr(hardware, "_physical_ram", lambda: gib(64))
    run = FakeRun(
        {"sysctl hw.optional.arm64": (0, "1\n"), "sysctl hw.memsize": (0, f"{64 * GIB}\n")}
    )
    hw = detect(root=str(tmp_path), run=run)
    assert hw.unified_memory is True
    assert tier_for(hw).name == "high"


def test_intel_mac_sysctl_failing(monkeypatch: pytest.MonkeyPatch, tmp_path) -> None:
    monkeypatch.setattr(hardware, "_platform", lambda: ("Darwin", "x86_64"))
    monkeypatch.setattr(hardware, "_nvml_gpus", lambda: None)
    monkeypatch.setattr(hardware.shutil, "which", lambda name: None)
    monkeypatch.setattr(hardware, "_physical_ram", lambda: gib(16))
    hw = detect(
        root=str(tmp_path),
        run=FakeRun({"sysctl hw.memsize": subprocess.TimeoutExpired("sysctl", 3)}),
    )
    assert hw.unified_memory is False
    assert hw.ram_bytes == gib(16)


def test_detect_never_raises_when_everything_breaks(
    monkeypatch: pytest.MonkeyPatch, tmp_path
) -> None:
    def boom(*a, **k):
        raise RuntimeError("boom")

    monkeypatch.setattr(hardware, "_platform", boom)
    monkeypatch.setattr(hardware, "_nvml_gpus", boom)
    hw = detect(root=str(tmp_path), run=boom)
    assert hw.cpu_count >= 1
    assert hw.gpus == ()


# ------------------------------------------------------------ real machine


def test_detect_real_machine() -> None:
    hw = detect()
    assert isinstance(hw, Hardware)
    assert hw.ram_bytes > 0
    assert hw.cpu_count >= 1
    assert all(g.vram_bytes > 0 and g.name for g in hw.gpus)
    tier = tier_for(hw)
    assert tier.name in TIERS
    text = describe(hw)
    assert "RAM:" in text and "CPU cores:" in text


def test_describe() -> None:
    hw = Hardware(
        gib(23.4),
        8,
        gpus=(nvidia("NVIDIA GeForce RTX 4090", 24),),
        unified_memory=False,
        cgroup_limited=True,
    )
    text = describe(hw)
    assert text.splitlines() == [
        "RAM: 23.4 GiB usable",
        "Container memory limit: yes",
        "CPU cores: 8",
        "GPU: NVIDIA GeForce RTX 4090 (nvidia), 24.0 GiB VRAM",
        "Unified memory: no",
    ]
    assert "GPU: none detected" in describe(Hardware(gib(8), 4, unified_memory=True))
    assert "Unified memory: yes" in describe(Hardware(gib(8), 4, unified_memory=True))


def test_import_is_light() -> None:
    code = (
        "import sys; import tatlock.hardware; "
        "bad = [m for m in ('psutil', 'pynvml', 'threading', 'platform') if m in sys.modules]; "
        "print(','.join(bad))"
    )
    root = pathlib.Path(__file__).resolve().parents[2]
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=30, cwd=root
    )
    assert out.returncode == 0, out.stderr
    assert "psutil" not in out.stdout and "pynvml" not in out.stdout
