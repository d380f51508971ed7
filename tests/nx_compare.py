"""Helpers shared by the NetworkX-backend tests: comparing result dicts, running on a device."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator


def assert_dict_as_networkx(func, *args, **kwargs) -> None:
    """``func(*args, **kwargs)`` through the backend ends as NetworkX's own call does: the
    same exception type, or the same dict (:func:`assert_same_dict`)."""
    theirs = outcome(func, *args, **kwargs)
    ours = outcome(func, *args, backend="warpgraph", **kwargs)
    assert ours[1] is theirs[1], (ours, theirs, kwargs)
    if theirs[1] is None:
        assert_same_dict(ours[0], theirs[0])


def outcome(func, *args, **kwargs) -> tuple:
    """``(result, None)``, or ``(None, exception type)`` (compared by type: NetworkX's errors
    are the backend's too)."""
    try:
        return func(*args, **kwargs), None
    except Exception as exc:
        return None, type(exc)


def assert_same_dict(ours: dict, theirs: dict) -> None:
    """Equal items in the same order (NetworkX's), and values of the same types (``int`` 0
    against ``0.0`` differ)."""
    assert list(ours.items()) == list(theirs.items())
    assert [type(v) for v in ours.values()] == [type(v) for v in theirs.values()]


@contextlib.contextmanager
def backend_device(nx, device: str) -> Iterator[None]:
    """Run the warpgraph backend on ``device`` ("cpu" or "gpu") inside the block."""
    cfg = nx.config.backends.warpgraph
    saved = cfg.device
    cfg.device = device
    try:
        yield
    finally:
        cfg.device = saved
