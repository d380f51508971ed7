"""The NetworkX-backend benchmark scripts refuse repeat counts below 1 before any work."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

pytest.importorskip("networkx")
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

import nx_ab  # noqa: E402
import nx_backend  # noqa: E402
import nx_build  # noqa: E402


@pytest.mark.parametrize(
    ("main", "argv", "flag"),
    [
        (nx_ab.main, ["--repeat", "0"], "--repeat"),
        (nx_build.main, ["urand:10", "--repeat", "0"], "--repeat"),
        (nx_backend.main, ["--cold-repeat", "0"], "--cold-repeat"),
    ],
)
def test_repeat_below_one_refused(main, argv, flag, capsys):
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 2
    assert f"{flag} must be at least 1" in capsys.readouterr().err


def test_unknown_graph_refused():
    with pytest.raises(SystemExit, match="unknown graph 'ring:5'"):
        nx_backend.edges_for("ring:5")
