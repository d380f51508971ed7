#!/usr/bin/env bash
# Run NetworkX's own tests for the functions warpgraph dispatches, through the warpgraph backend.
#
#   tools/run_nx_tests.sh [extra pytest args]
#
# NETWORKX_TEST_BACKEND=warpgraph makes every dispatchable call convert its graphs to the backend;
# NETWORKX_FALLBACK_TO_NX=True lets calls the backend cannot run (can_run False, or a
# NotImplementedError for data it leaves to NetworkX) go to NetworkX. Only the test files of the
# dispatched functions are run, and in them the tests that name one; the summary prints how often
# each backend function was called, and the last line is the pass count.
# CI runs it after the test suite (.ci/run); docs/NETWORKX.md has the latest count.
set -euo pipefail

NX_DIR=$(python3 -c "import networkx, os; print(os.path.dirname(networkx.__file__))")
FILES=(
  "$NX_DIR/algorithms/components/tests/test_connected.py"
  "$NX_DIR/algorithms/components/tests/test_weakly_connected.py"
  "$NX_DIR/algorithms/components/tests/test_strongly_connected.py"
  "$NX_DIR/algorithms/components/tests/test_attracting.py"
  "$NX_DIR/algorithms/components/tests/test_semiconnected.py"
  "$NX_DIR/algorithms/shortest_paths/tests/test_unweighted.py"
  "$NX_DIR/algorithms/shortest_paths/tests/test_weighted.py"
  "$NX_DIR/algorithms/shortest_paths/tests/test_generic.py"
  "$NX_DIR/algorithms/tests/test_cluster.py"
  "$NX_DIR/algorithms/tests/test_core.py"
  "$NX_DIR/algorithms/tests/test_triads.py"
  "$NX_DIR/algorithms/tests/test_dag.py"
  "$NX_DIR/algorithms/traversal/tests/test_bfs.py"
  "$NX_DIR/algorithms/traversal/tests/test_dfs.py"
  "$NX_DIR/algorithms/link_analysis/tests/test_pagerank.py"
  "$NX_DIR/algorithms/tree/tests/test_recognition.py"
  "$NX_DIR/algorithms/tests/test_distance_measures.py"
  "$NX_DIR/algorithms/centrality/tests/test_closeness_centrality.py"
  "$NX_DIR/algorithms/centrality/tests/test_eigenvector_centrality.py"
  "$NX_DIR/algorithms/centrality/tests/test_katz_centrality.py"
  "$NX_DIR/algorithms/tests/test_wiener.py"
  "$NX_DIR/algorithms/centrality/tests/test_betweenness_centrality.py"
  "$NX_DIR/algorithms/centrality/tests/test_harmonic_centrality.py"
  "$NX_DIR/algorithms/tests/test_efficiency.py"
)
# Keep only the tests that call a dispatched function (the files also test other functions).
# (The eigenvector and Katz files are selected whole, by their names: their tests of the NumPy /
# SciPy variants, eigenvector_centrality_numpy and katz_centrality_numpy, are not dispatched
# and run in NetworkX.)
SELECT="connected or component or shortest_path_length or triangle or transitivity \
or clustering or cluster or core or onion or eccentricity or diameter or radius or periphery \
or closeness or average or shell or crust or corona or truss or triad or census \
or layers or bfs or descendants or ancestors or predecessor or successor or tree or scc or strong \
or dijkstra_path_length or bellman_ford_path_length or negative or cycle or pagerank \
or attracting or semiconnected or acyclic or topological or longest or aperiodic or condensation \
or dfs or dls or preorder or postorder or shortest_path or single_source or single_target \
or dijkstra or multi_source or bellman \
or eigenvector or katz \
or center or barycenter or wiener \
or recognition or forest or branching or arborescence or betweenness or harmonic or efficiency"

# A pytest plugin that counts the calls reaching the backend (written to a temporary folder).
PLUGIN_DIR=$(mktemp -d)
LOG=$(mktemp)
trap 'rm -rf "$PLUGIN_DIR" "$LOG"' EXIT
cat >"$PLUGIN_DIR/wg_backend_calls.py" <<'PY'
import collections

CALLS = collections.Counter()


def pytest_configure(config):
    from warpgraph.nx import FUNCTIONS, interface

    for name in FUNCTIONS:
        func = getattr(interface.BackendInterface, name)

        def counted(*args, _func=func, _name=name, **kwargs):
            CALLS[_name] += 1
            return _func(*args, **kwargs)

        setattr(interface.BackendInterface, name, staticmethod(counted))


def pytest_terminal_summary(terminalreporter):
    from warpgraph.nx._common import backend_device

    total = sum(CALLS.values())
    terminalreporter.write_line(f"warpgraph backend device: {backend_device()}")
    calls = ", ".join(f"{k} {v}" for k, v in sorted(CALLS.items()))
    terminalreporter.write_line(f"warpgraph backend called {total} times: {calls}")
PY

set +e
PYTHONPATH="$PLUGIN_DIR${PYTHONPATH:+:$PYTHONPATH}" \
NETWORKX_TEST_BACKEND=warpgraph NETWORKX_FALLBACK_TO_NX=True \
  python3 -m pytest -q -p no:cacheprovider -p wg_backend_calls --rootdir "$NX_DIR" \
  -k "$SELECT" "${FILES[@]}" "$@" 2>&1 | tee "$LOG"
status=${PIPESTATUS[0]}
set -e
summary=$(grep -E '^[=]* ?[0-9]+ (passed|failed)' "$LOG" | tail -1 || true)
passed=$(grep -oE '[0-9]+ passed' <<<"$summary" | grep -oE '[0-9]+' || echo 0)
echo "warpgraph NetworkX backend: ${passed} NetworkX tests passed (${summary//=/})"
exit "$status"
