#!/usr/bin/env bash
# Run NetworkX's own tests for the functions warpgraph dispatches, through the warpgraph backend.
#
#   tools/run_nx_tests.sh [extra pytest args]
#
# NETWORKX_TEST_BACKEND=warpgraph makes every dispatchable call convert its graphs to the backend;
# NETWORKX_FALLBACK_TO_NX=True lets calls the backend cannot run (can_run False) go to NetworkX.
# Only the test files of the dispatched functions are run; the last line is the pass count.
# Not part of CI (see docs/NETWORKX.md for the latest count).
set -euo pipefail

NX_DIR=$(python -c "import networkx, os; print(os.path.dirname(networkx.__file__))")
FILES=(
  "$NX_DIR/algorithms/components/tests/test_connected.py"
  "$NX_DIR/algorithms/components/tests/test_weakly_connected.py"
  "$NX_DIR/algorithms/shortest_paths/tests/test_unweighted.py"
  "$NX_DIR/algorithms/tests/test_cluster.py"
  "$NX_DIR/algorithms/tests/test_core.py"
  "$NX_DIR/algorithms/tests/test_triads.py"
  "$NX_DIR/algorithms/traversal/tests/test_bfs.py"
)
# Keep only the tests that call a dispatched function (the files also test other functions).
SELECT="connected or component or shortest_path_length or triangle or transitivity \
or clustering or cluster or core or triad or census or layers"

LOG=$(mktemp)
trap 'rm -f "$LOG"' EXIT
set +e
NETWORKX_TEST_BACKEND=warpgraph NETWORKX_FALLBACK_TO_NX=True \
  python -m pytest -q -p no:cacheprovider --rootdir "$NX_DIR" -k "$SELECT" "${FILES[@]}" "$@" \
  2>&1 | tee "$LOG"
status=${PIPESTATUS[0]}
set -e
summary=$(grep -E '^[=]* ?[0-9]+ (passed|failed)' "$LOG" | tail -1 || true)
passed=$(grep -oE '[0-9]+ passed' <<<"$summary" | grep -oE '[0-9]+' || echo 0)
echo "warpgraph NetworkX backend: ${passed} NetworkX tests passed (${summary//=/})"
exit "$status"
