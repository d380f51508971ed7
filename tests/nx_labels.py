"""Node labels and random graphs for the NetworkX-backend tests (shared by their modules)."""

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


def weighted_graph(nx, seed: int, directed: bool, kind: str, *, negative: bool = False,
                   zeros: bool = False):  # fmt: skip
    """A random graph with a ``cost`` on most edges (the rest NetworkX's default 1; float
    costs on every edge), isolated nodes and non-integer labels; ``kind`` picks int or float
    costs, ``negative`` lets int costs go down to -2 and float ones be negative, ``zeros``
    adds zero costs (ties) to the float ones."""
    rng = random.Random(seed)
    n = rng.randint(2, 60)
    labels = shuffled_labels("mixed" if seed % 2 else "str", n, rng)
    G = nx.DiGraph() if directed else nx.Graph()
    G.add_nodes_from(labels)
    floats = [0.25, 1.5, 3.0] + ([0.0] if zeros else [])
    for _ in range(rng.randint(0, 3 * n)):
        u, v = rng.choice(labels), rng.choice(labels)
        if u == v:
            continue
        low = -2 if negative else 0
        cost = rng.randint(low, 9) if kind == "int" else rng.choice(floats) * (1 + low)
        if rng.random() < 0.8 or kind == "float":
            G.add_edge(u, v, cost=cost)
        else:
            G.add_edge(u, v)
    return G


def random_graph(nx, seed: int, *, directed: bool, kind: str, n: int | None = None,
                 edges_per_node: int = 3):  # fmt: skip
    """Up to ``edges_per_node * n`` random edges (self-loops possible) among ``n`` shuffled
    labels of ``kind`` (:func:`shuffled_labels`; ``n`` random from 1 to 60 by default)."""
    rng = random.Random(seed)
    n = rng.randint(1, 60) if n is None else n
    labels = shuffled_labels(kind, n, rng)
    G = nx.DiGraph() if directed else nx.Graph()
    G.add_nodes_from(labels)
    for _ in range(rng.randint(0, edges_per_node * n)):
        G.add_edge(rng.choice(labels), rng.choice(labels))
    return G
