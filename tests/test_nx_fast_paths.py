"""``warpgraph.nx.fast_paths()`` and the warning a failed self-test logs.

A fast path whose self-test fails leaves the results right and only slower, so nothing else
would tell: session 29 found the workers' copies off in every fresh process since session 26.
"""

from __future__ import annotations

import logging

import pytest

pytest.importorskip("networkx")

import warpgraph.nx as wnx  # noqa: E402
from warpgraph.nx import (  # noqa: E402
    _capi,
    _capi_nodes,
    _cpython,
    _dict_layout,
    _keyset,
    _parallel_copies,
    _presized,
)


def test_fast_paths_say_what_each_module_decided():
    paths = wnx.fast_paths()
    assert paths["dict_tables_read_in_place"] is _cpython.available()
    assert paths["copies_by_workers"] is _parallel_copies.allowed()
    assert paths["copy_threads_needed"] == _parallel_copies.PARALLEL_COPY_THREADS
    assert paths["numba_threads"] >= 1
    assert paths["tables_sized_in_parallel"] is _presized.available()
    if not paths["dict_tables_read_in_place"]:
        assert paths["sets_written_directly"] is False


def _warnings(caplog) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == "warpgraph.nx"]


def test_failed_copy_self_test_is_logged_and_turns_the_copies_off(monkeypatch, caplog):
    if not (_parallel_copies._allocator_is_default() and _parallel_copies._raw_api()):
        pytest.skip("the workers' copies are not used on this interpreter")
    monkeypatch.setattr(_parallel_copies, "_STATE", {})  # (restored after: decided anew here)
    monkeypatch.setattr(_parallel_copies, "_self_test", lambda: False)
    with caplog.at_level(logging.WARNING, logger="warpgraph.nx"):
        assert _parallel_copies.allowed() is False
        assert _parallel_copies.allowed() is False  # decided once: logged once
    [message] = _warnings(caplog)
    assert "the workers' dict copies failed" in message and "PyDict_Copy" in message


def test_failed_reader_self_test_is_logged(monkeypatch, caplog):
    monkeypatch.setattr(_dict_layout, "_STATE", {})
    monkeypatch.setattr(_dict_layout, "_layout_supported", lambda: True)
    monkeypatch.setattr(_cpython, "_self_test", lambda: False)
    with caplog.at_level(logging.WARNING, logger="warpgraph.nx"):
        assert _cpython.available() is False
    [message] = _warnings(caplog)
    assert "reading dict tables in place failed" in message


def test_unsupported_layout_is_not_a_failure(monkeypatch, caplog):
    """An interpreter the reader does not support (PyPy, free-threaded...) is no bug: no log."""
    monkeypatch.setattr(_dict_layout, "_STATE", {})
    monkeypatch.setattr(_dict_layout, "_layout_supported", lambda: False)
    with caplog.at_level(logging.WARNING, logger="warpgraph.nx"):
        assert _cpython.available() is False
    assert _warnings(caplog) == []


def test_failed_set_self_test_is_logged(monkeypatch, caplog):
    if not (_cpython.available() and _capi.DIRECT_REFCOUNTS):
        pytest.skip("sets are not written directly on this interpreter")
    monkeypatch.setattr(_keyset, "_TESTED", {})
    monkeypatch.setattr(_keyset, "_build_pairs", lambda pairs: set())  # (a wrong set)
    with caplog.at_level(logging.WARNING, logger="warpgraph.nx"):
        assert _keyset._self_tested() is False
    [message] = _warnings(caplog)
    assert "sets written directly failed" in message


def test_failed_table_self_test_is_logged_and_leaves_tables_to_cpython(monkeypatch, caplog):
    if _presized._allocator() is None or not _cpython.available():
        pytest.skip("tables are not sized in parallel on this interpreter")
    monkeypatch.setattr(_presized, "_STATE", {})
    monkeypatch.setattr(_presized, "_self_test", lambda allocate: False)
    with caplog.at_level(logging.WARNING, logger="warpgraph.nx"):
        assert _presized.available() is False
        assert _presized.empty_table_dict(1 << 16) is None
    [message] = _warnings(caplog)
    assert "sizing empty dicts in parallel failed" in message and "dict.fromkeys" in message
    assert _capi_nodes.empty_dict_for(1 << 16) == {}  # (CPython's way)
