"""The on-disk checkpoint store of a table build.

A store is a directory: ``build.json`` (the build's parameters) and one
``<chunk name>.npy`` per finished chunk.  Each chunk is written to a temporary
file and renamed into place (an atomic step), so a build killed at any moment
leaves only whole chunks behind; the next run with the same parameters reads
them back and computes only the rest.  Chunk results are exact integers, so
the resumed build ends bit-identical to an uninterrupted one.
"""
from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np

from ..errors import PokerEvalError

__all__ = ["ChunkStore"]


class ChunkStore:
    """Finished chunks of one build, kept in ``directory``."""

    def __init__(self, directory: str | os.PathLike, params: dict):
        self.path = Path(directory)
        try:
            self.path.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise PokerEvalError(f"cannot create store {str(self.path)!r}: {exc.strerror}") from None
        meta = self.path / "build.json"
        text = json.dumps(params, sort_keys=True)
        if meta.exists():
            if json.loads(meta.read_text()) != json.loads(text):
                raise PokerEvalError(f"store {str(self.path)!r} holds a different build "
                                     f"({meta.read_text().strip()}); use another directory")
        else:
            self._write(meta, text.encode())
        for tmp in self.path.glob("*.tmp"):  # leftovers of a killed write
            tmp.unlink(missing_ok=True)

    def _write(self, target: Path, data: bytes) -> None:
        tmp = target.with_name(target.name + f".{os.getpid()}.tmp")
        with open(tmp, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, target)

    def load(self, name: str) -> np.ndarray | None:
        """The stored result of chunk ``name``, or None."""
        try:
            return np.load(self.path / f"{name}.npy", allow_pickle=False)
        except (FileNotFoundError, ValueError, EOFError, OSError):
            return None

    def save(self, name: str, result: np.ndarray) -> None:
        """Store chunk ``name``'s result (atomically)."""
        import io

        buf = io.BytesIO()
        np.save(buf, np.ascontiguousarray(result), allow_pickle=False)
        self._write(self.path / f"{name}.npy", buf.getvalue())

    def __len__(self) -> int:
        return sum(1 for _ in self.path.glob("*.npy"))
