"""Opening graph files: transparent compression, whole-file buffers, atomic writes.

Reading: the compression is recognised by its magic bytes (whatever the file is called):
gzip, bzip2, xz/lzma and zstd (zstd needs the optional ``zstandard`` package). An uncompressed
file is memory-mapped, so a text parser reads it without a copy; a compressed one is inflated
into one buffer in blocks (memory: the uncompressed size).

Writing: the compression follows the file name suffix. Every writer goes through
:func:`atomic_output`, which writes a temporary file in the target folder and renames it over
the target only once everything was written, so a failed or interrupted write never leaves a
half-written graph behind.
"""

from __future__ import annotations

import bz2
import contextlib
import gzip
import lzma
import mmap
import os
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO, Any

import numpy as np

from ..errors import GraphFormatError

__all__ = [
    "COMPRESSION_SUFFIXES",
    "ProgressFn",
    "atomic_output",
    "compression_from_magic",
    "compression_from_name",
    "open_binary",
    "read_buffer",
    "strip_compression",
]

ProgressFn = Callable[[int, int], None]

COMPRESSION_SUFFIXES = {
    ".gz": "gzip",
    ".gzip": "gzip",
    ".bz2": "bz2",
    ".xz": "xz",
    ".lzma": "xz",
    ".zst": "zstd",
    ".zstd": "zstd",
}

_MAGIC = (
    (b"\x1f\x8b", "gzip"),
    (b"BZh", "bz2"),
    (b"\xfd7zXZ\x00", "xz"),
    (b"\x5d\x00\x00", "xz"),  # legacy .lzma stream
    (b"\x28\xb5\x2f\xfd", "zstd"),
)

BLOCK = 1 << 24


def strip_compression(path: str | os.PathLike) -> tuple[str, str | None]:
    """``("g.mtx", "gzip")`` for ``"g.mtx.gz"``; the name without its compression suffix."""
    name = os.fspath(path)
    low = name.lower()
    for suf, comp in COMPRESSION_SUFFIXES.items():
        if low.endswith(suf):
            return name[: -len(suf)], comp
    return name, None


def compression_from_name(path: str | os.PathLike) -> str | None:
    return strip_compression(path)[1]


def compression_from_magic(head: bytes) -> str | None:
    for magic, comp in _MAGIC:
        if head.startswith(magic):
            return comp
    return None


def _zstd():
    try:
        import zstandard
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise ImportError(
            "reading or writing .zst files needs the optional 'zstandard' package: "
            "pip install 'warpgraph[compress]' (or pip install zstandard)"
        ) from exc
    return zstandard


def _decompressor(comp: str, raw: IO[bytes]) -> IO[bytes]:
    if comp == "gzip":
        return gzip.GzipFile(fileobj=raw, mode="rb")
    if comp == "bz2":
        return bz2.BZ2File(raw, mode="rb")
    if comp == "xz":
        return lzma.LZMAFile(raw, mode="rb")
    if comp == "zstd":
        return _zstd().ZstdDecompressor().stream_reader(raw, read_across_frames=True)
    raise AssertionError(comp)


def _head(path: str) -> bytes:
    with open(path, "rb") as f:
        return f.read(8)


@contextlib.contextmanager
def open_binary(path: str | os.PathLike) -> Iterator[IO[bytes]]:
    """A readable binary stream of the (decompressed) content of ``path``."""
    path = os.fspath(path)
    _check_exists(path)
    comp = compression_from_magic(_head(path))
    raw = open(path, "rb")
    try:
        if comp is None:
            yield raw
        else:
            with _decompressor(comp, raw) as f:
                yield _Guard(f, path)
    finally:
        raw.close()


class _Guard:
    """Turns decompression errors (corrupt or truncated archives) into GraphFormatError."""

    def __init__(self, f: IO[bytes], path: str):
        self._f = f
        self._path = path

    def read(self, n: int = -1) -> bytes:
        try:
            return self._f.read(n)
        except (OSError, EOFError, lzma.LZMAError, ValueError) as exc:
            raise GraphFormatError(
                f"corrupt or truncated compressed data ({exc})", self._path
            ) from None
        except Exception as exc:  # zstandard.ZstdError and friends
            if type(exc).__module__.startswith("zstandard"):
                raise GraphFormatError(
                    f"corrupt or truncated compressed data ({exc})", self._path
                ) from None
            raise

    def readinto(self, b: Any) -> int:
        data = self.read(len(b))
        b[: len(data)] = data
        return len(data)


def _check_exists(path: str) -> None:
    if not os.path.exists(path):
        raise FileNotFoundError(f"no such file: {path!r}")
    if os.path.isdir(path):
        raise IsADirectoryError(f"{path!r} is a folder, not a graph file")


def read_buffer(
    path: str | os.PathLike, progress: ProgressFn | None = None, *, text: bool = False
) -> np.ndarray:
    """The whole (decompressed) content of ``path`` as a read-only uint8 array.

    Uncompressed files are memory-mapped (no copy). ``progress(done, total)`` is called with
    byte counts of the file on disk while a compressed file is inflated. ``text=True`` skips a
    leading UTF-8 byte order mark (a view, not a copy; line numbers are unchanged).
    """
    buf = _read_buffer(path, progress)
    if text and buf.shape[0] >= 3 and bytes(buf[:3]) == b"\xef\xbb\xbf":
        buf = buf[3:]
    return buf


def _read_buffer(path: str | os.PathLike, progress: ProgressFn | None) -> np.ndarray:
    path = os.fspath(path)
    _check_exists(path)
    size = os.path.getsize(path)
    comp = compression_from_magic(_head(path))
    if comp is None:
        if size == 0:
            return np.zeros(0, dtype=np.uint8)
        with open(path, "rb") as f:
            mm = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
        with contextlib.suppress(AttributeError, OSError):
            mm.madvise(mmap.MADV_SEQUENTIAL)
        if progress is not None:
            progress(size, size)
        return np.frombuffer(mm, dtype=np.uint8)
    out = bytearray()
    with open(path, "rb") as raw:
        with _decompressor(comp, raw) as f:
            g = _Guard(f, path)
            while True:
                chunk = g.read(BLOCK)
                if not chunk:
                    break
                out += chunk
                if progress is not None:
                    progress(raw.tell(), size)
    return np.frombuffer(out, dtype=np.uint8)


class _ZstdWriter:
    def __init__(self, raw: IO[bytes]):
        self._w = _zstd().ZstdCompressor(level=3, threads=-1).stream_writer(raw, closefd=False)

    def write(self, b: Any) -> int:
        return self._w.write(b)

    def close(self) -> None:
        self._w.flush(_zstd().FLUSH_FRAME)
        self._w.close()


@contextlib.contextmanager
def atomic_output(path: str | os.PathLike, compression: str | None = "auto") -> Iterator[IO[bytes]]:
    """Write ``path`` atomically: a temporary file in the same folder, renamed on success.

    ``compression="auto"`` picks it from the suffix (``.gz``, ``.bz2``, ``.xz``, ``.zst``).

    Examples
    --------
    >>> import os, tempfile
    >>> d = tempfile.mkdtemp()
    >>> with atomic_output(os.path.join(d, "x.txt")) as f:
    ...     _ = f.write(b"0 1\\n")
    >>> open(os.path.join(d, "x.txt"), "rb").read()
    b'0 1\\n'
    """
    path = os.fspath(path)
    if compression == "auto":
        compression = compression_from_name(path)
    if compression is not None and compression not in ("gzip", "bz2", "xz", "zstd"):
        raise ValueError(f"unknown compression {compression!r}")
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise FileNotFoundError(f"folder {folder!r} does not exist")
    fd, tmp = tempfile.mkstemp(prefix="." + Path(path).name + ".", suffix=".tmp", dir=folder)
    raw = os.fdopen(fd, "wb")
    try:
        if compression is None:
            yield raw
        else:
            if compression == "gzip":
                f: Any = gzip.GzipFile(fileobj=raw, mode="wb", compresslevel=6, mtime=0)
            elif compression == "bz2":
                f = bz2.BZ2File(raw, mode="wb")
            elif compression == "xz":
                f = lzma.LZMAFile(raw, mode="wb", preset=6)
            else:
                f = _ZstdWriter(raw)
            try:
                yield f
            finally:
                f.close()
        raw.flush()
        os.fsync(raw.fileno())
        raw.close()
        mode = 0o666 & ~_umask()
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        raw.close()
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
