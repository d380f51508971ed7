"""Small real graphs shipped inside the package, for examples and tests without a network.

==============  ========  =====  =======================================================
name            vertices  edges  what
==============  ========  =====  =======================================================
``karate``      34        78     Zachary's karate club, weighted (interaction contexts)
``lesmis``      77        254    Les Miserables co-appearances, weighted, with names
``florentine``  15        20     Florentine families marriage ties, with names
``davis``       32        89     Davis Southern Women (bipartite: 18 women, 14 events)
==============  ========  =====  =======================================================

All are undirected. Origin and licences: ``warpgraph/data/README.md``.

Examples
--------
>>> from warpgraph.io.datasets import load_example
>>> G = load_example("karate")
>>> G.num_vertices, G.num_edges, int(G.weights.sum()) // 2
(34, 78, 231)
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path
from typing import Any

from ..errors import InvalidArgumentError

__all__ = ["EXAMPLES", "example_path", "list_examples", "load_example"]

EXAMPLES: dict[str, dict[str, Any]] = {
    "karate": {"file": "karate.mtx.gz", "vertices": 34, "edges": 78, "options": {}},
    "lesmis": {"file": "lesmis.net.gz", "vertices": 77, "edges": 254, "options": {"names": True}},
    "florentine": {"file": "florentine.txt.gz", "vertices": 15, "edges": 20, "options": {}},
    "davis": {"file": "out.davis-southern-women.gz", "vertices": 32, "edges": 89, "options": {}},
}

_FLORENTINE = (
    "Acciaiuoli Medici Castellani Peruzzi Strozzi Barbadori Ridolfi Tornabuoni Albizzi "
    "Salviati Pazzi Bischeri Guadagni Ginori Lamberteschi"
).split()


def list_examples() -> list[str]:
    """Names accepted by :func:`load_example`."""
    return sorted(EXAMPLES)


def example_path(name: str) -> Path:
    """Path of the file holding example ``name``.

    Raises
    ------
    InvalidArgumentError
        For an unknown name (the message lists the known ones).
    """
    if name not in EXAMPLES:
        raise InvalidArgumentError(
            f"unknown example graph {name!r}; known: {', '.join(list_examples())}"
        )
    return Path(str(resources.files("warpgraph.data").joinpath(EXAMPLES[name]["file"])))


def load_example(name: str, **kwargs: Any):
    """Load a shipped example graph; keyword arguments go to :func:`warpgraph.io.load`.

    Vertex names, where the data have them (``lesmis``, ``florentine``), are put in
    ``G.vertex_labels``.

    Examples
    --------
    >>> G = load_example("florentine")
    >>> G.vertex_labels[1], int(G.degree()[1])
    ('Medici', 6)
    """
    from . import load

    spec = EXAMPLES.get(name)
    path = example_path(name)
    options = {**spec["options"], **kwargs}
    G = load(path, **options)
    if name == "florentine" and G.vertex_labels is None:
        G.vertex_labels = list(_FLORENTINE)
    return G
