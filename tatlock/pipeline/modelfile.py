"""The file a trained model ships in (the route classifier, the gate's learnt check).

Binary, so that loading it is a read, not a parse: a first line that says what the file is and
the version of its layout (``magic``), a JSON header (``<I`` length first), the feature names one
a line (``<I`` length first), then the weights as float32 little-endian bytes to the end.
Written beside the target and renamed over it: a failed write leaves the old file.
"""

from __future__ import annotations

import json
import struct
from pathlib import Path
from typing import Any


def write(path: Path, magic: bytes, header: dict[str, Any], names: str, weights: bytes) -> None:
    head = json.dumps(header, separators=(",", ":"), sort_keys=True).encode("utf-8")
    encoded = names.encode("utf-8")
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_bytes(
        b"".join(
            (magic, struct.pack("<I", len(head)), head, struct.pack("<I", len(encoded)), encoded)
        )
        + weights
    )
    tmp.replace(path)


def read(path: Path, magic: bytes, not_one: str) -> tuple[dict[str, Any], str, memoryview]:
    """(header, feature names, weights) of a file ``write`` wrote. A file that does not start
    with ``magic`` is a ValueError saying "<name> is not <not_one>"; one cut short or garbled,
    "<name> is damaged (...)"."""
    blob = path.read_bytes()
    if not blob.startswith(magic):
        raise ValueError(f"{path.name} is not {not_one}")
    try:
        at = len(magic)
        (size,) = struct.unpack_from("<I", blob, at)
        header = json.loads(blob[at + 4 : at + 4 + size].decode("utf-8"))
        at += 4 + size
        (size,) = struct.unpack_from("<I", blob, at)
        names = blob[at + 4 : at + 4 + size].decode("utf-8")
        at += 4 + size
    except (struct.error, UnicodeDecodeError, ValueError) as exc:
        raise ValueError(f"{path.name} is damaged ({exc})") from None
    if not isinstance(header, dict):
        raise ValueError(f"{path.name} is damaged (its header is no object)")
    return header, names, memoryview(blob)[at:]
