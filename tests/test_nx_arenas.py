"""Freed object arenas kept for reuse (``warpgraph.nx._arenas``): each case runs in a fresh
interpreter, since the keeper replaces CPython's arena allocator for the whole process."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

from warpgraph.nx import _arenas

pytestmark = pytest.mark.skipif(
    not _arenas._supported(), reason="the arena keeper runs on Linux with a GIL-enabled CPython"
)


def _run(body: str, **env: str) -> list[str]:
    """Run ``body`` in a fresh interpreter (``A`` is the module); its printed words."""
    script = "import resource\nfrom warpgraph.nx import _arenas as A\n" + textwrap.dedent(body)
    environ = {k: v for k, v in os.environ.items() if k != _arenas.LIMIT_ENV} | env
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, env=environ, timeout=120
    )
    assert out.returncode == 0, out.stdout + out.stderr  # (and no crash at exit)
    return out.stdout.split()


def test_freed_arenas_are_reused_up_to_the_limit():
    words = _run(
        """
        print(A.keep_object_arenas(64), A.keep_object_arenas(64))
        def faults():
            return resource.getrusage(resource.RUSAGE_SELF).ru_minflt
        first = faults()
        made = [{i: str(i)} for i in range(400_000)]  # ~100 MiB of small objects
        first = faults() - first
        del made
        s = A.arena_stats()
        print(s["installed"], s["kept"] * s["arena_size"] == 64 * 2**20, s["arena_size"])
        again = faults()
        made = [{i: str(i)} for i in range(400_000)]
        again = faults() - again
        print(A.arena_stats()["reused"] == 64, again < first - 64 * 2**20 // 4096 // 2)
        print(all(d[i] == str(i) for i, d in enumerate(made)))
        del made
        kept = A.arena_stats()["kept"]
        print(A.release_object_arenas() == kept, A.arena_stats()["kept"])
        """
    )
    assert words == ["True", "False", "1", "True", "1048576", "True", "True", "True", "True", "0"]


def test_many_cycles_keep_objects_intact():
    """Arenas handed out again hold new objects correctly, through many build/free cycles
    with the collector running, up to the limit and past it."""
    words = _run(
        """
        import gc
        A.keep_object_arenas(16)
        ok = True
        for r in range(30):
            n = 20_000 * (1 + r % 7)
            made = [[i, {"k": i}, (i, str(i))] for i in range(n)]
            if r % 3 == 0:
                gc.collect()
            ok = ok and all(x[0] == i and x[1]["k"] == i and x[2][1] == str(i)
                            for i, x in enumerate(made))
            del made
        s = A.arena_stats()
        print(ok, s["reused"] > 0, s["kept"] * s["arena_size"] <= 16 * 2**20)
        A._restore()  # the previous allocator back; later objects come from it
        print(A.arena_stats()["installed"], A.arena_stats()["kept"])
        made = [{i: i} for i in range(200_000)]
        print(sum(d[i] for i, d in enumerate(made)) == sum(range(200_000)))
        """
    )
    assert words == ["True", "True", "True", "0", "0", "True"]


def test_limit_from_the_environment():
    assert _run("print(A.keep_object_arenas(), A.arena_stats()['installed'])", **{
        _arenas.LIMIT_ENV: "0"
    }) == ["False", "0"]  # fmt: skip
    words = _run(
        "print(A.keep_object_arenas(), A.arena_stats()['limit'])", **{_arenas.LIMIT_ENV: "32"}
    )
    assert words == ["True", str(32 * 2**20)]


def test_bad_limits_are_refused_with_the_reason():
    words = _run(
        """
        for bad in (-1, 1.5, True, "64"):
            try:
                A.keep_object_arenas(bad)
            except ValueError as e:
                print("refused" if "non-negative int" in str(e) else e)
        print(A.arena_stats()["installed"])
        """
    )
    assert words == ["refused"] * 4 + ["0"]
    script = "from warpgraph.nx import _arenas as A\nA.keep_object_arenas()"
    out = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True, text=True, env=os.environ | {_arenas.LIMIT_ENV: "lots"},
    )  # fmt: skip
    assert out.returncode != 0 and f"{_arenas.LIMIT_ENV} must be a whole number" in out.stderr


def test_the_first_conversion_installs_it():
    nx = pytest.importorskip("networkx")
    if "warpgraph" not in nx.utils.backends.backends:
        pytest.skip("warpgraph is not registered as a NetworkX backend")
    words = _run(
        """
        import networkx as nx
        print(A.arena_stats()["installed"])
        G = nx.path_graph(5)
        print(nx.number_connected_components(G, backend="warpgraph"),
              A.arena_stats()["installed"])
        """
    )
    assert words == ["0", "1", "1"]


def test_public_names_do_not_load_numba_before_use():
    script = textwrap.dedent(
        """
        import sys
        import warpgraph.nx as wnx
        print("numba" in sys.modules, wnx.arena_stats()["installed"], "numba" in sys.modules)
        from warpgraph.nx import _arenas
        print(wnx.release_object_arenas is _arenas.release_object_arenas)
        """
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert out.stdout.split() == ["False", "0", "True", "True"], out.stdout + out.stderr
