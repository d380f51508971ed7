"""Empty dicts whose tables are sized without CPython's one-thread clearing (``nx._presized``).

The oracle is CPython itself: ``dict.fromkeys`` of a dict of ``count`` entries
(``_capi_nodes.fromkeys_sized``) makes the table that ``empty_table_dict(count)`` must match, and
the dicts must then behave as any dict (filled, grown, copied, emptied, freed). A table from
the wrong allocator would be freed into the wrong domain: ``PYTHONMALLOC=debug`` aborts the
interpreter then, which the subprocess test checks.
"""

from __future__ import annotations

import ctypes
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

pytest.importorskip("networkx")

from warpgraph.nx import _capi, _capi_nodes, _presized  # noqa: E402

needs_tables = pytest.mark.skipif(
    not _presized.available(), reason="tables are not sized in parallel on this interpreter"
)


def _keys(d: dict) -> int:
    return ctypes.c_int64.from_address(id(d) + 32).value


def _header(d: dict, count: int) -> bytes:
    raw = ctypes.string_at(_keys(d), 32 + (1 << _presized.table_shape(count)[1]))
    return raw[:11] + raw[12:]  # (byte 11: padding)


@pytest.mark.parametrize(
    "count", [0, 1, 5, 8, 11, 4095, 4096, 5461, 5462, 43690, 2**17 + 3, 501264]
)
def test_table_shape_is_cpythons(count):
    made = _capi_nodes.fromkeys_sized(count)
    log2_size, log2_bytes, usable = _presized.table_shape(count)
    keys = _keys(made)
    assert ctypes.c_uint8.from_address(keys + 8).value == log2_size
    assert ctypes.c_uint8.from_address(keys + 9).value == log2_bytes
    assert ctypes.c_int64.from_address(keys + 16).value == usable


@needs_tables
@pytest.mark.parametrize("count", [_presized.MIN_ENTRIES, 6000, 2**17, 300_001])
def test_table_matches_the_one_cpython_makes(count):
    ours = _presized.empty_table_dict(count)
    assert type(ours) is dict and ours == {} and len(ours) == 0
    assert _header(ours, count) == _header(_capi_nodes.fromkeys_sized(count), count)
    assert _capi_nodes.empty_dict_for(count) == {}


def test_small_tables_are_left_to_cpython():
    assert _presized.empty_table_dict(_presized.MIN_ENTRIES - 1) is None
    assert _capi_nodes.empty_dict_for(10) == {}


@needs_tables
def test_a_table_behaves_as_any_dict_through_growth_copy_and_deletion():
    count = 5000
    d = _presized.empty_table_dict(count)
    usable = _presized.table_shape(count)[2]
    for k in range(usable + 100):  # (past its usable entries: CPython grows it)
        d[str(k) if k % 3 else k] = [k]
    expected = {(str(k) if k % 3 else k): [k] for k in range(usable + 100)}
    assert d == expected and list(d) == list(expected)
    copy = d.copy()
    del d[0], d["1"]
    assert len(d) == usable + 98 and 0 not in d and copy[0] == [0]
    d.clear()
    assert d == {} and len(copy) == usable + 100


@needs_tables
def test_values_for_keys_fills_a_table_made_here():
    """The parallel clone (the path of per-node result dicts) writes into such a table."""
    api = _capi.api()
    keys_of = {k: None for k in range(20000)}
    values = np.arange(20000, dtype=np.int64) * 3
    d = _capi_nodes.values_for_keys(api.fns, keys_of, values)
    assert d == {k: 3 * k for k in range(20000)}
    d[20000] = 1  # (and CPython inserts into it afterwards)
    assert len(d) == 20001 and d[19999] == 59997


@needs_tables
def test_tables_are_freed_into_their_own_allocator_domain():
    """Under ``PYTHONMALLOC=debug`` a block freed by another allocator family aborts the
    interpreter; made, filled, grown and freed there, the tables must not."""
    script = textwrap.dedent(
        """
        import gc, numpy as np
        import networkx as nx
        from warpgraph.nx import _capi, _capi_nodes, _presized
        assert _presized.available()
        for count in (4096, 70000):
            d = _presized.empty_table_dict(count)
            for k in range(count + count // 2):
                d[k] = k
            del d
        keys_of = dict.fromkeys(range(9000))
        made = _capi_nodes.values_for_keys(_capi.api().fns, keys_of, np.ones(9000, np.int64))
        assert made == dict.fromkeys(range(9000), 1)
        del made
        G = nx.grid_2d_graph(80, 80)
        H = nx.k_core(nx.convert_node_labels_to_integers(G), backend="warpgraph")
        assert H.number_of_nodes() == 6400
        del H
        gc.collect()
        print("ok")
        """
    )
    env = dict(os.environ, PYTHONMALLOC="debug")
    done = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True,
                          text=True, timeout=600)  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip().endswith("ok")


@pytest.mark.parametrize(
    ("count", "error"), [(-1, ValueError), (2.5, TypeError), ("5000", TypeError), (None, TypeError)]
)
def test_a_count_that_is_no_entry_count_is_refused(count, error):
    with pytest.raises(error):
        _presized.empty_table_dict(count)
    with pytest.raises(error):
        _presized.table_shape(count)


@needs_tables
def test_the_shared_empty_table_keeps_its_reference_count():
    """The new ``{}`` took a reference to CPython's shared empty table; swapping in the new
    table gives it back (3.11; 3.12+ leave an immortal count alone either way)."""
    from warpgraph.nx import _dict_layout

    shared = ctypes.c_int64.from_address(_dict_layout.empty_keys_address())
    before = shared.value
    made = [_presized.empty_table_dict(5000) for _ in range(5)]
    assert shared.value == before
    del made
    assert shared.value == before


def test_the_table_self_test_passes_where_the_allocator_is_known():
    """A failed self-test only slows results down (``dict.fromkeys`` then), so nothing else
    would tell: on CPython 3.11-3.13 with the GIL it must pass."""
    from warpgraph.nx import _cpython

    allocate = _presized._allocator()
    if allocate is None or not _cpython.available():
        pytest.skip("no known table allocator on this interpreter")
    assert _presized._self_test(allocate)
    assert _presized.available()
