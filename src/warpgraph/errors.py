"""Exception hierarchy of warpgraph.

Every error raised on purpose by warpgraph derives from :class:`WarpgraphError`, and each also
derives from the built-in exception a Python user would expect (``ValueError`` for bad input,
``MemoryError`` for memory, ``RuntimeError`` for an absent device), so ``except ValueError`` keeps
working in code written for NetworkX or SciPy.

Examples
--------
>>> from warpgraph.errors import GraphFormatError
>>> err = GraphFormatError("expected 2 columns, got 1", path="g.txt", line=7)
>>> str(err)
'g.txt:7: expected 2 columns, got 1'
"""

from __future__ import annotations

__all__ = [
    "ConvergenceError",
    "DeviceUnavailableError",
    "GraphFormatError",
    "InvalidArgumentError",
    "NegativeCycleError",
    "OutOfDeviceMemory",
    "OutOfHostMemory",
    "VerificationError",
    "WarpgraphError",
]


class WarpgraphError(Exception):
    """Base class of every exception warpgraph raises on purpose."""


class InvalidArgumentError(WarpgraphError, ValueError):
    """An argument has a wrong value, type or dtype (for example a vertex id out of range)."""


class GraphFormatError(WarpgraphError, ValueError):
    """A graph file (or in-memory edge data) is malformed.

    Parameters
    ----------
    reason : str
        What is wrong, in words a user can act on.
    path : str, optional
        The file being read.
    line : int, optional
        1-based line number of the offending line (text formats), if known.
    """

    def __init__(self, reason: str, path: str | None = None, line: int | None = None):
        self.reason = reason
        self.path = None if path is None else str(path)
        self.line = line
        where = ""
        if self.path is not None:
            where = self.path + (f":{line}" if line is not None else "") + ": "
        elif line is not None:
            where = f"line {line}: "
        super().__init__(where + reason)

    def __reduce__(self):  # keep the fields through pickling (multiprocessing, pytest-xdist)
        return (type(self), (self.reason, self.path, self.line))


class DeviceUnavailableError(WarpgraphError, RuntimeError):
    """``device="gpu"`` was asked for but CuPy or a CUDA device is not available."""


class OutOfDeviceMemory(WarpgraphError, MemoryError):
    """The data does not fit in the GPU's free memory.

    Parameters
    ----------
    bytes_needed : int
        How many bytes the operation needs on the device.
    bytes_free : int, optional
        How many bytes the device had free when the check was made.
    what : str
        What was being placed on the device.
    """

    def __init__(self, bytes_needed: int, bytes_free: int | None = None, what: str = "data"):
        self.bytes_needed = int(bytes_needed)
        self.bytes_free = None if bytes_free is None else int(bytes_free)
        msg = f"{what} needs {_in_units(self.bytes_needed)} of GPU memory"
        if self.bytes_free is not None:
            msg += f" but only {_in_units(self.bytes_free)} is free"
        msg += "; use device='cpu', a smaller graph, or free GPU memory first"
        super().__init__(msg)

    def __reduce__(self):
        return (OutOfDeviceMemory, (self.bytes_needed, self.bytes_free))


class OutOfHostMemory(WarpgraphError, MemoryError):
    """The data cannot fit in the host's available memory.

    Parameters
    ----------
    bytes_needed : int
        At least how many bytes the operation needs on the host.
    bytes_free : int
        How many bytes the host had available when the check was made.
    what : str
        What was being built.
    hint : str, optional
        What the user can do instead.
    """

    def __init__(self, bytes_needed: int, bytes_free: int, what: str = "data", hint: str = ""):
        self.bytes_needed = int(bytes_needed)
        self.bytes_free = int(bytes_free)
        self.what, self.hint = what, hint
        msg = (
            f"{what} needs at least {_in_units(self.bytes_needed)} of host memory but only "
            f"{_in_units(self.bytes_free)} is available"
        )
        super().__init__(msg + (f"; {hint}" if hint else ""))

    def __reduce__(self):
        return (OutOfHostMemory, (self.bytes_needed, self.bytes_free, self.what, self.hint))


class VerificationError(WarpgraphError, AssertionError):
    """A result failed its verifier (for example a Graph500 BFS check); names vertex and rule."""


class NegativeCycleError(WarpgraphError, ValueError):
    """A negative-weight cycle is reachable from the source of a shortest-path search.

    Parameters
    ----------
    vertex : int
        A vertex on the cycle.
    cycle : list of int, optional
        The vertices of the cycle in order, when it was asked for.
    """

    def __init__(self, vertex: int, cycle: list[int] | None = None):
        self.vertex = int(vertex)
        self.cycle = cycle
        msg = f"negative cycle reachable from the source; vertex {self.vertex} lies on it"
        if cycle:
            msg += f" (cycle: {' -> '.join(map(str, cycle))})"
        super().__init__(msg)

    def __reduce__(self):
        return (NegativeCycleError, (self.vertex, self.cycle))


class ConvergenceError(WarpgraphError, RuntimeError):
    """An iterative method (PageRank's power iteration) did not reach its tolerance.

    Parameters
    ----------
    iterations : int
        The iterations run (the ``max_iter`` asked for).
    what : str
        The method, for the message.
    """

    def __init__(self, iterations: int, what: str = "power iteration"):
        self.iterations = int(iterations)
        self.what = what
        super().__init__(f"{what} did not converge in {self.iterations} iterations")

    def __reduce__(self):
        return (ConvergenceError, (self.iterations, self.what))


def _in_units(size: int) -> str:
    """``size`` bytes in GiB, or MiB below one GiB.

    Examples
    --------
    >>> _in_units(3 * 2**30), _in_units(2**20 + 2**19)
    ('3.00 GiB', '1.50 MiB')
    """
    return f"{size / 2**30:.2f} GiB" if size >= 2**30 else f"{size / 2**20:.2f} MiB"
