#!/usr/bin/env bash
# A time-boxed GPU check for one lent-device call: the gpu-marked tests of the given groups run
# as parallel pytest processes (most of their time is Numba JIT on the host), then the GPU demo.
# Usage on a GPU machine, from the repository root:  OUT=/some/dir bash tools/gpu_final.sh
set -uo pipefail
OUT=${OUT:-gpu_check_out}
LIMIT=${LIMIT:-240}
mkdir -p "$OUT"
source tools/device_env.sh  # wheels, NetworkX entry points, PYTHONPATH
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > "$OUT/gpu.txt"
groups=(
  "tests/test_bfs_gpu.py tests/test_bfs.py"
  "tests/test_components.py tests/test_gpu_stats.py tests/test_components_cpu.py"
  "tests/test_sssp.py tests/test_sssp_gpu.py tests/test_graph500.py"
  "tests/test_scc.py tests/test_bench.py tests/test_gpu_loader.py tests/test_gpu_csr.py tests/test_gpu_transfer.py"
  "tests/test_nx_backend.py tests/test_csgraph.py tests/test_cli.py tests/test_triangles.py tests/test_ktruss.py tests/test_kcore.py tests/test_triads.py"
  "tests/test_bfs_scale.py tests/test_graph.py tests/test_generators.py tests/test_stats.py tests/test_gpu_transpose.py"
  "tests/test_langford.py tests/test_device.py tests/test_bench_energy.py tests/test_scc_cpu_fast.py"
)
# Every other test file runs in one of REST_GROUPS more groups (files dealt round-robin), so a
# new file with gpu-marked tests is not missed; as one group they ran past a 300 s limit (s58).
named=" ${groups[*]} "
REST_GROUPS=${REST_GROUPS:-4}
rest=()
k=0
for f in tests/test_*.py; do
  case "$named" in *" $f "*) ;; *) rest[k % REST_GROUPS]="${rest[k % REST_GROUPS]:-} $f"; k=$((k + 1)) ;; esac
done
for g in "${rest[@]}"; do groups+=("$g"); done
# EXTRA: a command run beside the test groups (a benchmark whose peer is CPU-bound);
# AFTER: a command run once the tests and the demo are done (a GPU timing that needs a quiet GPU).
if [ -n "${EXTRA:-}" ]; then bash -c "$EXTRA" > "$OUT/extra.txt" 2>&1 & fi
i=0
for g in "${groups[@]}"; do
  # shellcheck disable=SC2086
  timeout "$LIMIT" python3 -m pytest -m "gpu and not slow" -q -p no:cacheprovider -ra $g \
    > "$OUT/pytest_$i.txt" 2>&1 &
  i=$((i + 1))
done
wait
# One log for all groups (a lent machine returns a limited number of files), each under its
# file list; a group without a summary line was stopped by LIMIT.
for i in "${!groups[@]}"; do
  f="$OUT/pytest_$i.txt"
  { echo "== group $i:${groups[$i]}"; cat "$f"; } >> "$OUT/pytest_all.txt"
  echo "== group $i"; tail -4 "$f"; rm -f "$f"
done
timeout 100 python3 -m warpgraph.cli demo --device gpu > "$OUT/demo_gpu.txt" 2>&1
tail -22 "$OUT/demo_gpu.txt"
if [ -n "${AFTER:-}" ]; then bash -c "$AFTER" > "$OUT/after.txt" 2>&1; tail -30 "$OUT/after.txt"; fi
wait
