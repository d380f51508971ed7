"""The command line: help texts, info, demo, error reporting."""

from __future__ import annotations

import json

import pytest

from warpgraph.cli.main import build_parser, main
from warpgraph.io.datasets import example_path


def _commands():
    parser = build_parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    return sorted(sub.choices)


def test_every_command_has_help(capsys):
    names = _commands()
    assert {"demo", "info", "convert", "generate"} <= set(names)
    for name in names:
        with pytest.raises(SystemExit) as exc:
            main([name, "--help"])
        assert exc.value.code == 0
        assert "usage: warpgraph " + name in capsys.readouterr().out


def test_no_command_prints_help(capsys):
    assert main([]) == 1
    assert "warpgraph demo" in capsys.readouterr().out


def test_info_without_file(capsys):
    assert main(["info"]) == 0
    assert "numba" in capsys.readouterr().out


def test_info_file_json(capsys):
    assert main(["info", str(example_path("karate")), "--json", "--device", "cpu"]) == 0
    stats = json.loads(capsys.readouterr().out)
    assert stats["n"] == 34 and stats["m"] == 78 and stats["weak_components"] == 1


def test_missing_file_is_one_clear_line(capsys):
    assert main(["info", "/nonexistent/graph.mtx"]) == 2
    err = capsys.readouterr().err
    assert "error:" in err and "/nonexistent/graph.mtx" in err and "Traceback" not in err


def test_demo_small_passes_its_checks(capsys):
    assert main(["demo", "--scale", "8", "--device", "cpu", "--repeat", "1"]) == 0
    out = capsys.readouterr().out
    assert "all checks passed" in out and "build CSR" in out and "PageRank" in out


def test_sparse_ids_refused_with_the_way_out_then_compacted(tmp_path, capsys):
    """A file whose largest id cannot index a CSR in memory: one clear line naming
    --compact-ids; with it, the ranked vertices are named by their ids in the file."""
    big = 2**40
    path = tmp_path / "sparse.el"
    path.write_text(f"5 {big}\n{big} 77\n77 5\n5 77\n")
    assert main(["pagerank", str(path), "--device", "cpu"]) == 2
    err = " ".join(capsys.readouterr().err.split())
    assert "host memory" in err and "--compact-ids" in err and "Traceback" not in err
    assert main(["pagerank", str(path), "--compact-ids", "--device", "cpu", "--json"]) == 0
    out = capsys.readouterr().out
    assert "vertex 1 (77)" in out


def test_compact_ids_sources_are_the_files_ids(tmp_path, capsys):
    """bfs / sssp with --compact-ids: --source names a vertex by its id in the file, the
    results name it so too; an id in no edge is one clear error."""
    big = 2**40
    path = tmp_path / "sparse.el"
    path.write_text(f"5 {big} 2\n{big} 77 3\n77 5 4\n5 77 1\n")
    base = [str(path), "--compact-ids", "--device", "cpu", "--json"]
    assert main(["bfs", *base, "--source", "77", "--verify"]) == 0
    (rec,) = json.loads(capsys.readouterr().out)["results"]
    assert (rec["source"], rec["levels"], rec["reached"]) == (77, 3, 3)
    assert main(["sssp", *base, "--source", str(big), "--verify"]) == 0
    (rec,) = json.loads(capsys.readouterr().out)["results"]
    assert (rec["source"], rec["max_distance"], rec["reached"]) == (big, 7, 3)
    assert main(["bfs", *base, "--source", "6"]) == 2
    assert "vertex 6 is in no edge" in " ".join(capsys.readouterr().err.split())


def test_load_progress_on_a_terminal(monkeypatch, tmp_path):
    import io

    from rich.console import Console

    from warpgraph.cli import ui

    buffer = io.StringIO()
    monkeypatch.setattr(ui, "err_console", Console(file=buffer, force_terminal=True, width=100))
    G = ui.load_with_progress(str(example_path("karate")))
    assert G.num_vertices == 34
    assert "reading karate" in buffer.getvalue()


def test_convert_round_trip(tmp_path, capsys):
    out = tmp_path / "karate.wgb"
    assert main(["convert", str(example_path("karate")), str(out)]) == 0
    capsys.readouterr()  # the conversion summary
    assert main(["info", str(out), "--json", "--device", "cpu"]) == 0
    stats = json.loads(capsys.readouterr().out)
    assert (stats["n"], stats["m"]) == (34, 78)


def test_threads_option_pins_the_count_for_the_command_only(capsys):
    import numba

    from warpgraph.cpu import threads

    before, dynamic = numba.get_num_threads(), threads.DYNAMIC_THREADS
    assert main(["--threads", "1", "info"]) == 0
    assert "fixed: 1 (DYNAMIC_THREADS off)" in capsys.readouterr().out
    assert (numba.get_num_threads(), threads.DYNAMIC_THREADS) == (before, dynamic)


@pytest.mark.parametrize("count", ["0", "100000"])
def test_threads_option_out_of_range_is_refused(count, capsys):
    assert main(["--threads", count, "info"]) == 2
    assert "--threads must be between 1 and" in capsys.readouterr().err
