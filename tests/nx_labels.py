"""Node labels for the NetworkX-backend tests' random graphs (shared by their modules)."""

from __future__ import annotations

import random


def shuffled_labels(kind: str, n: int, rng: random.Random) -> list:
    """``n`` distinct labels in shuffled order (node order differs from label order): ``"str"``
    (``"v3"``), ``"tuple"`` (``(3, "t3")``), ``"int"`` (the ints) or, for any other ``kind``,
    a mix of tuples and strings."""
    ids = list(range(n))
    rng.shuffle(ids)
    if kind == "str":
        return [f"v{i}" for i in ids]
    if kind == "tuple":
        return [(i % 7, f"t{i}") for i in ids]
    if kind == "int":
        return ids
    return [("mixed", i) if i % 3 else f"s{i}" for i in ids]
