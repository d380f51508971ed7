#!/usr/bin/env bash
# One batched GPU session: every gpu-marked test, the demo on the GPU, and GPU benchmarks.
# Usage on a GPU machine, from the repository root:  OUT=/some/dir bash tools/gpu_check.sh
# (on the lent device the wheels in .whl/ are installed first: hypothesis, rich, nvidia-ml-py...)
set -uo pipefail
OUT=${OUT:-gpu_check_out}
mkdir -p "$OUT"
if [ -d .whl ]; then
  python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
    --target /tmp/site .whl/*.whl && export PYTHONPATH=/tmp/site
fi
export PYTHONPATH=src:${PYTHONPATH:-} PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv | tee "$OUT/gpu.txt"
python3 -m pytest -m "gpu and not slow" -q -p no:cacheprovider -ra 2>&1 | tail -40 \
  | tee "$OUT/pytest_gpu.txt"
python3 -m warpgraph.cli demo --device gpu 2>&1 | tee "$OUT/demo_gpu.txt"
