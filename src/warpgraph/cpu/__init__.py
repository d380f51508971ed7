"""Numba CPU primitives shared by the algorithms (CSR construction, scans, compaction)."""
