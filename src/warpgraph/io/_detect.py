"""Format detection: by file name (after any compression suffix), else by sniffing the content."""

from __future__ import annotations

import os
import re

from ..errors import GraphFormatError
from ._source import compression_from_magic, open_binary, strip_compression

__all__ = ["detect_format", "format_from_name", "sniff"]

# name -> extensions (lower case, after the compression suffix is stripped)
EXTENSIONS: dict[str, tuple[str, ...]] = {
    "mtx": (".mtx", ".mm"),
    "edgelist": (".txt", ".el", ".wel", ".edgelist", ".tsv", ".csv", ".snap", ".edge"),
    "dimacs": (".gr", ".dimacs", ".col"),
    "metis": (".graph", ".metis"),
    "konect": (".konect", ".tsv.konect"),
    "edges": (".edges",),
    "pajek": (".net", ".paj", ".pajek"),
    "graph500": (".g500", ".graph500"),
    "graphtool": (".gt",),
    "wgb": (".wgb",),
    "lgraph": (".lg", ".lgraph"),
}

WGB_MAGIC = b"WARPGRPH"
GT_MAGIC = "⛾ gt".encode()

_DIMACS_P = re.compile(rb"^p\s+(sp|tw|edge|col)\b", re.I)


def format_from_name(path: str | os.PathLike) -> str | None:
    """Format implied by the file name, or None (``.graph`` needs a look inside: see sniff)."""
    name, _ = strip_compression(os.path.basename(os.fspath(path)))
    low = name.lower()
    if low.startswith("out.") and "." in low:
        return "konect"
    for fmt, exts in EXTENSIONS.items():
        if any(low.endswith(e) for e in exts):
            return fmt
    return None


def _head(path: str, size: int = 1 << 16) -> bytes:
    with open_binary(path) as f:
        return f.read(size)


def sniff(head: bytes) -> str | None:
    """Guess a format from the first bytes of the (decompressed) content."""
    if head.startswith(b"\xef\xbb\xbf"):  # UTF-8 byte order mark
        head = head[3:]
    if head.startswith(WGB_MAGIC):
        return "wgb"
    if head.startswith(GT_MAGIC):
        return "graphtool"
    if head[:14].lower() == b"%%matrixmarket":
        return "mtx"
    if b"\x00" in head[:4096]:
        return None  # binary without a known magic (Graph500 edge lists have none)
    for raw in head.split(b"\n")[:-1] or [head]:
        line = raw.strip()
        if not line:
            continue
        low = line.lower()
        if low.startswith(b"*"):
            return "pajek"
        if low.startswith(b"%") and re.match(rb"^%\s*(sym|asym|bip)\b", low):
            return "konect"
        if _DIMACS_P.match(low) or low == b"c" or low.startswith(b"c "):
            return "dimacs"
        if low.startswith(b"t ") or low == b"t":
            return "lgraph"
        if low[:1] in (b"#", b"%"):
            continue
        if re.match(rb"^[+-]?\d", low):
            return "edgelist"
        return None
    return "edgelist" if not head.strip() else None


def detect_format(path: str | os.PathLike) -> str:
    """The format name of ``path``: from its extension, else from its first bytes.

    Raises
    ------
    GraphFormatError
        If neither the name nor the content says.

    Examples
    --------
    >>> format_from_name("road.gr.xz"), format_from_name("out.ucidata-zachary")
    ('dimacs', 'konect')
    """
    path = os.fspath(path)
    fmt = format_from_name(path)
    if fmt == "metis":
        head = _head(path, 4096)
        for raw in head.split(b"\n"):
            line = raw.strip()
            if not line or line.startswith(b"%"):
                continue
            if line.startswith(b"t ") or line == b"t":
                return "lgraph"
            break
        return "metis"
    if fmt is not None:
        return fmt
    head = _head(path)
    found = sniff(head)
    if found is None:
        with open(path, "rb") as f:
            comp = compression_from_magic(f.read(8))
        hint = "" if comp is None else f" (after {comp} decompression)"
        raise GraphFormatError(
            "cannot tell the graph format from the file name or its first bytes" + hint
            + "; pass format= (one of: " + ", ".join(sorted(EXTENSIONS)) + ")",
            path,
        )  # fmt: skip
    return found
