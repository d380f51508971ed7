# Source from the repository root on a lent GPU machine: `source tools/device_env.sh`.
# Installs the carried wheels (.whl/) into /tmp/site, registers warpgraph's NetworkX entry points
# by hand (warpgraph is not pip-installed there) and puts src/ and /tmp/site on PYTHONPATH as
# absolute paths, so scripts run from any directory.
if [ -d .whl ]; then
  python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
    --target /tmp/site .whl/*.whl
fi
_wg_info=/tmp/site/warpgraph-0.1.0.dist-info
mkdir -p "$_wg_info"
printf 'Metadata-Version: 2.1\nName: warpgraph\nVersion: 0.1.0\n' > "$_wg_info/METADATA"
printf '[networkx.backends]\nwarpgraph = warpgraph.nx.interface:backend_interface\n\n[networkx.backend_info]\nwarpgraph = warpgraph.nx:get_info\n' \
  > "$_wg_info/entry_points.txt"
unset _wg_info
export PYTHONPATH="$PWD/src:/tmp/site${PYTHONPATH:+:$PYTHONPATH}" PYTHONUNBUFFERED=1
