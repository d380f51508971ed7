"""The NetworkX-backend benchmark scripts refuse repeat counts below 1 before any work."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

pytest.importorskip("networkx")
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

import _phases  # noqa: E402
import nx_ab  # noqa: E402
import nx_backend  # noqa: E402
import nx_build  # noqa: E402
import nx_dispatch  # noqa: E402
import nx_fresh_process  # noqa: E402
import nx_reach  # noqa: E402
import nx_short_searches  # noqa: E402
import nx_stall_probe  # noqa: E402


@pytest.mark.parametrize(
    ("main", "argv", "flag"),
    [
        (nx_ab.main, ["--repeat", "0"], "--repeat"),
        (nx_build.main, ["urand:10", "--repeat", "0"], "--repeat"),
        (nx_backend.main, ["--cold-repeat", "0"], "--cold-repeat"),
        (nx_stall_probe.main, ["--calls", "0"], "--calls"),
        (nx_fresh_process.main, ["--cold-repeat", "0"], "--cold-repeat"),
        (nx_reach.main, ["grid:4", "--repeat", "0"], "--repeat"),
        (nx_reach.main, ["grid:4", "--workers", "0"], "--workers"),
        (nx_short_searches.main, ["--repeat", "0"], "--repeat"),
    ],
)
def test_repeat_below_one_refused(main, argv, flag, capsys):
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 2
    assert f"{flag} must be at least 1" in capsys.readouterr().err


@pytest.mark.parametrize("spec", ["ring:5", "grid:", "urand:x", "grid", "grid:4:heavy", "grid:4:"])
def test_unknown_graph_refused(spec):
    with pytest.raises(SystemExit, match=f"unknown graph '{spec}'"):
        nx_backend.edges_for(spec)


def test_unweighted_spec_builds_the_same_edges_with_empty_data():
    weighted, unweighted = nx_backend.build("grid:5"), nx_backend.build("grid:5:unweighted")
    assert weighted["info"]["weighted"] and not unweighted["info"]["weighted"]
    U, W = unweighted["U"], weighted["U"]
    assert sorted(U.edges) == sorted(W.edges) and list(U) == list(W)
    assert all(d == {} for _, _, d in U.edges(data=True))
    assert all(1 <= d["weight"] <= 100 for _, _, d in W.edges(data=True))
    assert sorted(unweighted["D"].edges) == sorted(weighted["D"].edges)


def test_fresh_process_script_refuses_an_unknown_warm_up_graph_before_any_work(monkeypatch):
    def no_build(spec):
        raise AssertionError("built before the specs were checked")

    monkeypatch.setattr(nx_backend, "build", no_build)
    with pytest.raises(SystemExit, match="unknown graph 'ring:3'"):
        nx_fresh_process.main(["--graph", "grid:4", "--warm-up", "ring:3"])


def _ids(objs):
    return sorted(id(o) for o in objs)


def test_copy_plan_of_a_graph_holds_every_container_once():
    import networkx as nx

    G = nx.path_graph(4)
    G.add_edge(0, 1, weight=3)
    plan = dict((fn.__qualname__, objs) for fn, objs in nx_backend._copy_plan(G))
    data = {id(d): d for row in G._adj.values() for d in row.values()}  # shared per edge
    want = [G._node, G._adj, *G._node.values(), *G._adj.values(), *data.values()]
    assert list(plan) == ["dict.copy"]
    assert len(data) == G.number_of_edges()
    assert _ids(plan["dict.copy"]) == _ids(want)


def test_copy_plan_of_a_digraph_has_both_row_kinds():
    import networkx as nx

    D = nx.DiGraph([(0, 1), (1, 2)])
    ((_fn, objs),) = nx_backend._copy_plan(D)
    rows = [*D._succ.values(), *D._pred.values()]
    arcs = [d for row in D._succ.values() for d in row.values()]
    assert _ids(objs) == _ids([D._node, D._succ, D._pred, *D._node.values(), *rows, *arcs])


def test_copy_plan_of_nested_results_and_scalars():
    sets = [{1, 2}, {3}]
    plan = {fn.__qualname__: objs for fn, objs in nx_backend._copy_plan(sets)}
    assert _ids(plan["set.copy"]) == _ids(sets) and plan["list.copy"] == [sets]
    layers = {0: [1, 2], 1: [3]}
    plan = {fn.__qualname__: objs for fn, objs in nx_backend._copy_plan(layers)}
    assert plan["dict.copy"] == [layers] and _ids(plan["list.copy"]) == _ids(layers.values())
    for scalar in (True, 3, 2.5, None):
        assert nx_backend._copy_plan(scalar) == []
        assert nx_backend.result_floor_s(scalar) == 0.0


def test_result_floor_grows_with_the_result():
    small = nx_backend.result_floor_s({i: i for i in range(10)}, repeat=5)
    large = nx_backend.result_floor_s({i: i for i in range(200_000)}, repeat=5)
    assert 0.0 < small < large


def test_dispatch_floor_is_small_and_not_negative():
    assert 0.0 <= nx_backend.dispatch_floor_s(repeat=50) < 0.01


def test_input_floor_reads_a_graph():
    import networkx as nx

    from warpgraph.nx import _cpython

    G = nx.gnm_random_graph(5000, 20000, seed=1)
    t = nx_backend.input_floor_s(G, repeat=2)
    if not _cpython.available():
        assert t is None
        return
    assert 0.0 < t < 1.0
    found = _cpython._dict_entries(G._adj)
    want = sum(hash(v) ^ id(d) for row in G._adj.values() for v, d in row.items())
    got = nx_backend._read_rows(found[1])  # int64 sums wrap: compared modulo 2**64
    assert got % 2**64 == want % 2**64  # every entry, once


def test_input_floor_of_a_small_graph():
    """Under 4096 nodes the outer dict is read by the one-thread reader (it raised until
    session 15: ``benchmarks/nx_backend.py --graphs grid:60`` stopped there)."""
    import networkx as nx

    from warpgraph.nx import _cpython

    t = nx_backend.input_floor_s(nx.grid_2d_graph(30, 30), repeat=1)
    assert t is None if not _cpython.available() else 0.0 < t < 1.0


def test_steal_ticks_reads_proc_stat_or_says_none():
    t = nx_backend.steal_ticks()
    assert t is None or (isinstance(t, int) and t >= 0)
    if Path("/proc/stat").exists():
        assert t is not None


def test_table_counts_ceilings_and_stolen_calls():
    import nx_table

    cell = {"cold_s": 0.01, "cold_all_s": [0.01, 0.05], "cold_steal_ticks": [0, 3]}
    cell.update(cached_median_s=0.005, speedup_cold=150.0)
    slow = dict(cell, speedup_cold=50.0)
    rows = [
        {"graph": "g", "algorithm": "a", "networkx_s": 1.5, "ceiling_x": 900.0, "gpu": cell},
        {"graph": "g", "algorithm": "b", "networkx_s": 0.5, "ceiling_x": 60.0, "gpu": slow},
    ]
    text = nx_table.render({"results": rows}, ordered=set())
    assert "| `b` | 0.50 | 10.0 / 5.0 | 50x | 60x |" in text
    assert "| GPU >= 100x | 1 of 2 (1 within the ceiling) |" in text
    assert "stole CPU time: 2 of 4 (median 50.0 ms)" in text
    # the unstolen calls (0.01 s each): a 150x, b 50x
    assert "| GPU >= 100x, median of the calls with no stolen tick | 1 of 2 |" in text


def test_stall_probe_refuses_a_negative_heap(capsys):
    with pytest.raises(SystemExit) as exc:
        nx_stall_probe.main(["--heap", "-1"])
    assert exc.value.code == 2
    assert "--heap must not be negative" in capsys.readouterr().err


@pytest.mark.parametrize(
    "floor",
    [
        lambda: nx_backend.result_floor_s({1: 2}, repeat=0),
        lambda: nx_backend.dispatch_floor_s(repeat=0),
        lambda: nx_backend.input_floor_s(None, repeat=0),
    ],
)
def test_floors_refuse_zero_repeats(floor):
    with pytest.raises(ValueError, match="repeat must be at least 1, got 0"):
        floor()


def test_stall_summary_ignores_unreadable_steal():
    import numpy as np

    rows = np.array([[1.0, 0, 0, 0, -1, 0]] * 4 + [[50.0, 0, 0, 9, -1, 0]])
    s = nx_stall_probe.summary(rows)
    assert s["outliers"] == 1 and s["outliers_with_preemption"] == 1
    assert s["outliers_with_steal"] == 0 and s["steal_ticks_elsewhere"] == 0


@pytest.mark.parametrize("freeze", [True, False])
def test_reference_results_frozen_before_any_timing(freeze, monkeypatch):
    """NetworkX's results for checking are frozen (out of the collector's walks) right after
    they arrive and before warpgraph's first timed call, unless --no-freeze-reference."""
    import argparse

    g = nx_backend.build("grid:6")
    g["info"]["dispatch_floor_s"] = 1e-6  # (the ceiling divides by the floors)
    events = []
    reference = {"number_connected_components": (0.01, [0.01], 1)}
    monkeypatch.setattr(nx_backend, "networkx_runs", lambda *a: events.append("runs") or reference)
    monkeypatch.setattr(nx_backend.gc, "freeze", lambda: events.append("freeze"))
    real_timed = nx_backend.timed
    monkeypatch.setattr(nx_backend, "timed", lambda *a: events.append("timed") or real_timed(*a))
    args = argparse.Namespace(
        nx_jobs=2, freeze_reference=freeze, warm_each=False, cold_repeat=1, repeat=1,
        nx_timeout=10.0, nx_repeat=1, nx_repeat_below=5.0, profile=None,
    )  # fmt: skip
    rows = nx_backend._run_graph(g, ["number_connected_components"], ["cpu"], args)
    assert rows[0]["cpu"]["verified"] is True
    start = ["runs", "freeze", "timed"] if freeze else ["runs", "timed"]
    assert events[: len(start)] == start
    assert events.count("freeze") == (1 if freeze else 0)


def test_profile_of_first_calls_is_written_untimed(tmp_path, monkeypatch):
    """--profile appends, per function and device, the costliest functions of --cold-repeat
    more first calls (in ms per call), made after the timed ones: the timed calls are as
    many as without it, and the conversion cache is left cleared."""
    import argparse

    g = nx_backend.build("grid:6")
    g["info"]["dispatch_floor_s"] = 1e-6
    out = tmp_path / "profile.txt"
    args = argparse.Namespace(
        nx_jobs=1, freeze_reference=True, warm_each=False, cold_repeat=2, repeat=1,
        nx_timeout=10.0, nx_repeat=1, nx_repeat_below=5.0, profile=str(out),
    )  # fmt: skip
    rows = nx_backend._run_graph(g, ["number_connected_components", "triangles"], ["cpu"], args)
    assert [len(r["cpu"]["cold_all_s"]) for r in rows] == [2, 2]
    text = out.read_text().splitlines()
    heads = [ln for ln in text if ln.startswith("== ")]
    assert [h.split(":")[1].split()[1:] for h in heads] == [
        ["number_connected_components", "cpu"],
        ["triangles", "cpu"],
    ]
    body = [ln.split(maxsplit=3) for ln in text if not ln.startswith("== ")]
    assert body and all(float(own) <= float(cum) + 1e-3 and int(calls) >= 1
                        for own, cum, calls, _ in body)  # fmt: skip
    assert not g["U"].__networkx_cache__


def test_profile_path_that_cannot_be_written_is_refused(tmp_path, capsys):
    with pytest.raises(SystemExit) as exc:
        nx_backend.main(
            ["--profile", str(tmp_path / "no" / "such" / "dir.txt"), "--graphs", "grid:4"]
        )
    assert exc.value.code == 2 and "--profile" in capsys.readouterr().err


def test_fresh_process_script_reports_each_function(capsys):
    """One JSON line: the median first call of each function and of the conversion, in ms."""
    import json

    argv = ["--graph", "grid:12", "--cold-repeat", "1", "--label", "x", "--functions",
            "number_connected_components", "connected_components"]  # fmt: skip
    assert nx_fresh_process.main(argv) == 0
    out = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert out["label"] == "x" and out["graph"] == "grid:12"
    for key in ("number_connected_components_ms", "connected_components_ms", "convert_from_nx_ms"):
        assert out[key] > 0


def test_fresh_process_script_records_phases_with_the_previous_result_held(capsys, monkeypatch):
    """--keep-previous holds each result during the next call; --phases records the build's
    phases per call; the frozen graph is unfrozen after."""
    import gc
    import json

    import networkx as nx

    alive_during_call: list[int] = []
    real = nx.k_core

    def k_core(G, *args, **kwargs):  # counts the k-cores alive when a call starts
        alive_during_call.append(
            sum(type(o) is nx.Graph and len(o) == 100 and o is not G for o in gc.get_objects())
        )
        return real(G, *args, **kwargs)

    monkeypatch.setattr(nx, "k_core", k_core)
    argv = ["--graph", "grid:10", "--functions", "k_core", "--warm-up", "grid:4",
            "--keep-previous", "--freeze", "--phases", "--cold-repeat", "3"]  # fmt: skip
    assert nx_fresh_process.main(argv) == 0
    assert gc.get_freeze_count() == 0
    out = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert out["warm_up"] == "grid:4" and len(out["k_core_all_ms"]) == 3
    assert isinstance(out["fast_paths"]["copies_by_workers"], bool)
    calls = out["k_core_calls"]
    assert [c["build_graph_calls"] for c in calls] == [1, 1, 1]
    for c in calls:
        assert 0 < c["build_graph_ms"] <= c["ms"] and c["node_dicts_ms"] <= c["build_graph_ms"]
    # (the warm-up replaces the untimed call) the 2nd and 3rd calls find the one before alive
    assert alive_during_call[-3:] == [0, 1, 1]


def test_phase_recorder_restores_the_functions_and_records_only_between_start_and_stop():
    import networkx as nx

    from warpgraph.nx import _capi_graph, _parallel_copies

    real = _capi_graph.build_graph, _parallel_copies.copy_data_dicts
    G = nx.grid_2d_graph(6, 6)
    with _phases.PhaseRecorder() as recorder:
        assert _capi_graph.build_graph is not real[0]
        nx.k_core(G, backend="warpgraph")  # outside a record: nothing kept
        recorder.start()
        G.__networkx_cache__.clear()
        nx.k_core(G, backend="warpgraph")
        record = recorder.stop()
        with pytest.raises(RuntimeError, match="without start"):
            recorder.stop()
    assert (_capi_graph.build_graph, _parallel_copies.copy_data_dicts) == real
    assert record["build_graph_calls"] == 1 and record["node_dicts_calls"] == 1
    assert record["copies_calls"] == 1  # (36 nodes: their dicts copied one at a time)
    assert record["faults"] is None or record["faults"] >= record["build_graph_faults"] >= 0


def test_phase_recorder_skips_a_phase_an_older_tree_lacks():
    from warpgraph.nx import _capi

    phases = {"absent": ("warpgraph.nx._capi", "no_such_function"), **_phases.PHASES}
    with _phases.PhaseRecorder(phases) as recorder:
        recorder.start()
        record = recorder.stop()
    assert not hasattr(_capi, "no_such_function")
    assert "absent_ms" not in record and "absent_calls" not in record


def test_backend_benchmark_records_cold_phases(tmp_path):
    import json

    out = tmp_path / "r.json"
    argv = ["--graphs", "grid:6", "--algorithms", "k_core", "triangles", "--warm-up", "grid:4",
            "--cold-repeat", "2", "--repeat", "1", "--phases", "--out", str(out)]  # fmt: skip
    assert nx_backend.main(argv) == 0
    saved = json.loads(out.read_text())
    assert isinstance(saved["fast_paths"]["copies_by_workers"], bool)
    rows = {r["algorithm"]: r["cpu"] for r in saved["results"]}
    assert [c["build_graph_calls"] for c in rows["k_core"]["cold_phases"]] == [1, 1]
    assert all("build_graph_ms" not in c for c in rows["triangles"]["cold_phases"])
    assert len(rows["triangles"]["cold_phases"]) == 2


def test_fresh_process_script_refuses_unknown_functions(capsys):
    with pytest.raises(SystemExit) as exc:
        nx_fresh_process.main(["--graph", "grid:4", "--functions", "triangles", "no_such_fn"])
    assert exc.value.code == 2
    assert "not NetworkX functions: no_such_fn" in capsys.readouterr().err


def test_reach_script_times_both_ways_and_restores_the_backend(tmp_path):
    """Both variants timed (and equal to NetworkX's sets: the backend is checked elsewhere),
    the steps of the in-place calls listed, and the backend's functions put back after."""
    import json

    from warpgraph.nx import _dict_reach, reachability

    before = (reachability._in_place, reachability.reach_within, _dict_reach._search)
    out = tmp_path / "reach.json"
    assert nx_reach.main(["urand:13", "--repeat", "1", "--steps", "--out", str(out)]) == 0
    assert (reachability._in_place, reachability.reach_within, _dict_reach._search) == before
    report = json.loads(out.read_text())
    assert sorted(report) == ["urand:13 cpu ancestors", "urand:13 cpu descendants"]
    for row in report.values():
        assert row["in_place"] > 0 and row["converted"] > 0
        assert set(row["steps_ms"]) >= {"reach_within", "row_tables", "_search", "key_set"}


def test_reach_script_times_the_search_on_each_thread_count(tmp_path):
    import json

    out = tmp_path / "reach.json"
    assert nx_reach.main(["urand:13", "--repeat", "1", "--workers", "1", "--out", str(out)]) == 0
    for row in json.loads(out.read_text()).values():
        assert row["in_place_w1"] > 0 and row["in_place_w1_min"] > 0


def test_cut_lattice_splits_off_the_corner_block():
    import networkx as nx

    U = nx_reach.cut_lattice("grid:6", 2)
    parts = sorted(map(sorted, nx.connected_components(U)), key=len)
    assert parts[0] == [0, 1, 6, 7] and len(parts) == 2 and len(parts[1]) == 32
    full = nx_backend.build("grid:6:unweighted")["U"]
    cut = {frozenset(e) for e in full.edges} - {frozenset(e) for e in U.edges}
    assert cut == {frozenset(e) for e in [(1, 2), (7, 8), (6, 12), (7, 13)]}
    with pytest.raises(SystemExit, match="grid:R specs"):
        nx_reach.cut_lattice("urand:5", 2)
    with pytest.raises(SystemExit, match="0 < B < R"):
        nx_reach.cut_lattice("grid:6", 6)


def test_reach_script_undirected_ab_times_both_ways_and_restores(tmp_path):
    import json

    from warpgraph.nx import reachability

    before = reachability._undirected_in_place
    out = tmp_path / "small.json"
    argv = ["grid:80", "--undirected-ab", "20", "--repeat", "1", "--out", str(out)]
    assert nx_reach.main(argv) == 0
    assert reachability._undirected_in_place is before
    report = json.loads(out.read_text())
    assert sorted(report) == [
        "grid:80 connected cpu descendants",
        "grid:80 cut 20x20, inside cpu descendants",
        "grid:80 cut 20x20, outside cpu descendants",
    ]
    assert [row["reached"] for row in report.values()] == [6399, 399, 5999]
    for row in report.values():
        assert row["equal"] and row["in_place"] > 0 and row["components_pass"] > 0


def test_dispatch_split_times_the_backend_function_inside_and_restores_it():
    from warpgraph.nx.interface import backend_interface

    g = nx_backend.build("grid:70")
    kind, call = nx_backend.CASES["descendants_at_distance"]
    before = backend_interface.descendants_at_distance
    row = nx_dispatch.first_call_split("descendants_at_distance", call, g[kind], g["source"], 3)
    assert backend_interface.descendants_at_distance == before
    assert 0 < row["inside_ms"] < row["first_ms"]
    assert row["dispatcher_ms"] > 0 and row["networkx_ms"] > 0


def test_reach_script_refuses_more_workers_than_numba_threads(capsys):
    import numba

    too_many = str(numba.config.NUMBA_NUM_THREADS + 1)
    with pytest.raises(SystemExit) as exc:
        nx_reach.main(["grid:4", "--workers", too_many])
    assert exc.value.code == 2
    assert "--workers above" in capsys.readouterr().err


def test_ab_script_pairs_cold_calls_with_cpython_sized_tables(tmp_path, monkeypatch):
    import json

    from warpgraph.nx import _capi_nodes, _presized

    if not _presized.available():
        pytest.skip("result tables are not sized in parallel on this Python")
    made = {"parallel": 0, "cpython": 0}  # large tables made each way
    real_made, real_fromkeys = _presized._made, _capi_nodes.fromkeys_sized

    def parallel(count, allocate):
        made["parallel"] += 1
        return real_made(count, allocate)

    def cpython(count):
        made["cpython"] += count >= _presized.MIN_ENTRIES
        return real_fromkeys(count)

    monkeypatch.setattr(_presized, "_made", parallel)
    monkeypatch.setattr(_capi_nodes, "fromkeys_sized", cpython)
    out = tmp_path / "ab.json"
    argv = ["--graph", "grid:80", "--devices", "cpu", "--algorithms", "k_core",
            "--repeat", "2", "--tables-ab", "--out", str(out)]  # fmt: skip
    assert nx_ab.main(argv) == 0
    assert _presized._STATE["ok"] is True
    (row,) = json.loads(out.read_text())["results"]
    assert len(row["cold_all_ms"]) == len(row["tables_off_cold_all_ms"]) == 2
    assert row["tables_off_cold_ms"] > 0
    # k_core of 6,400 nodes: its graph's tables made both ways, CPython's in the paired calls
    assert made["parallel"] > 0 and made["cpython"] > 0


def test_ab_script_refuses_tables_ab_where_tables_are_not_sized_in_parallel(monkeypatch, capsys):
    from warpgraph.nx import _presized

    monkeypatch.setattr(_presized, "available", lambda: False)
    with pytest.raises(SystemExit) as exc:
        nx_ab.main(["--tables-ab"])
    assert exc.value.code == 2
    assert "not sized in parallel" in capsys.readouterr().err


def test_pagerank_is_verified_within_its_tolerance():
    """PageRank's floats are compared within ``n * tol`` (NetworkX's ``tol``), in NetworkX's
    key order; other dicts stay exact."""
    theirs = {"a": 0.25, "b": 0.75}
    assert nx_backend.same({"a": 0.25 + 1e-9, "b": 0.75 - 1e-9}, theirs, "pagerank")
    assert not nx_backend.same({"a": 0.25 + 1e-5, "b": 0.75}, theirs, "pagerank")
    assert not nx_backend.same({"b": 0.75, "a": 0.25}, theirs, "pagerank")  # order
    assert not nx_backend.same({"a": 0.25, "b": 1}, {"a": 0.25, "b": 1.0}, "pagerank")  # type
    assert not nx_backend.same({"a": 0.25 + 1e-9, "b": 0.75}, theirs)  # exact elsewhere


def test_backend_benchmark_runs_and_verifies_pagerank(tmp_path):
    import json

    out = tmp_path / "r.json"
    argv = ["--graphs", "grid:8", "--algorithms", "pagerank", "--warm-up", "grid:4",
            "--cold-repeat", "1", "--repeat", "1", "--out", str(out)]  # fmt: skip
    assert nx_backend.main(argv) == 0
    (row,) = json.loads(out.read_text())["results"]
    assert row["algorithm"] == "pagerank" and row["input"] == "D"
    assert row["cpu"]["verified"] is True
