"""Counter-based random numbers shared by the CPU (Numba) and GPU (CUDA) generators.

Every random word is a pure function of a 64-bit key and a counter: word ``c`` of stream
``key`` is the SplitMix64 output ``mix64(key + (c + 1) * GAMMA)``. The R-MAT generator reads
counter ``e * W + w`` for word ``w`` of edge ``e``, so an edge's endpoints depend only on the key
and the edge's index. That gives three properties a stateful generator cannot:

* the result does not depend on the number of threads or on how the work is split;
* the CPU kernels here and the CUDA kernels in ``generators.cu`` produce *identical* output;
* any slice of an edge list can be generated on its own (as Graph500's reference does with its
  skippable MRG).

``mix64`` is a bijection of 64-bit words (xor-shifts and multiplications by odd constants), so
``random_keys`` gives distinct keys and sorting them yields a permutation with no ties: the
permutation is unique, whatever sort (NumPy's here, CUB's radix sort on the GPU) made it.

The same arithmetic lives in ``generators.cu``; keep the two in step (the GPU tests compare them).
"""

from __future__ import annotations

import numba as nb
import numpy as np

GAMMA = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_MASK32 = np.uint64(0xFFFFFFFF)
_ONE = np.uint64(1)
_S30 = np.uint64(30)
_S27 = np.uint64(27)
_S31 = np.uint64(31)
_S32 = np.uint64(32)
_S40 = np.uint64(40)
_S54 = np.uint64(54)
_S60 = np.uint64(60)
_S62 = np.uint64(62)
_INV24 = np.float32(1.0 / (1 << 24))
# Multiplicative inverses modulo 2**64 of _M1, _M2 and GAMMA (for unmix64 and _counters_of).
_M1_INV = np.uint64(0x96DE1B173F119089)
_M2_INV = np.uint64(0x319642B2D24D8EC3)
_GAMMA_INV = np.uint64(0xF1DE83E19937733D)


@nb.njit(cache=True, inline="always")
def mix64(z):
    """SplitMix64 finalizer: a bijection of uint64 words with full avalanche."""
    z = (z ^ (z >> _S30)) * _M1
    z = (z ^ (z >> _S27)) * _M2
    return z ^ (z >> _S31)


@nb.njit(cache=True, inline="always")
def word(key, counter):
    """Random 64-bit word number ``counter`` (a uint64) of stream ``key``."""
    return mix64(key + (counter + _ONE) * GAMMA)


@nb.njit(cache=True, inline="always")
def mulhi64(a, b):
    """High 64 bits of the 128-bit product of two uint64 words (CUDA's ``__umul64hi``)."""
    a_lo = a & _MASK32
    a_hi = a >> _S32
    b_lo = b & _MASK32
    b_hi = b >> _S32
    p0 = a_lo * b_lo
    p1 = a_lo * b_hi
    p2 = a_hi * b_lo
    p3 = a_hi * b_hi
    mid = (p0 >> _S32) + (p1 & _MASK32) + (p2 & _MASK32)
    return p3 + (p1 >> _S32) + (p2 >> _S32) + (mid >> _S32)


@nb.njit(cache=True, inline="always")
def bounded(h, n):
    """Map a random word ``h`` to ``[0, n)`` by multiply-high (bias at most n / 2**64)."""
    return mulhi64(h, n)


@nb.njit(parallel=True, cache=True, nogil=True)
def random_keys(key, n):
    """``n`` distinct pseudo-random uint64 keys (word ``i`` of stream ``key``)."""
    out = np.empty(n, dtype=np.uint64)
    for i in nb.prange(n):
        out[i] = word(key, np.uint64(i))
    return out


@nb.njit(cache=True, inline="always")
def unmix64(z):
    """Inverse of :func:`mix64`."""
    z = (z ^ (z >> _S31) ^ (z >> _S62)) * _M2_INV
    z = (z ^ (z >> _S27) ^ (z >> _S54)) * _M1_INV
    return z ^ (z >> _S30) ^ (z >> _S60)


@nb.njit(parallel=True, cache=True, nogil=True)
def _counters_of(sorted_keys, key, out):
    """``out[j]`` = the counter whose word is ``sorted_keys[j]`` (inverts :func:`word`)."""
    for j in nb.prange(sorted_keys.shape[0]):
        out[j] = (unmix64(sorted_keys[j]) - key) * _GAMMA_INV - _ONE


def random_permutation(key: np.uint64, n: int, dtype=np.int64) -> np.ndarray:
    """A pseudo-random permutation of ``range(n)``: the argsort of ``random_keys(key, n)``.

    The keys are sorted themselves (NumPy's SIMD sort) and each sorted key is mapped back to its
    index through the inverse of ``mix64``, which is cheaper than an argsort. Equal to
    ``cupy.argsort(keys)`` on the GPU because the keys are distinct.
    """
    key = np.uint64(key)
    keys = random_keys(key, n)
    keys.sort()
    out = np.empty(n, dtype=dtype)
    _counters_of(keys, key, out)
    return out


@nb.njit(parallel=True, cache=True, nogil=True)
def gap_weights(key, m):
    """GAP's weights: uniform integers in [1, 255] (int32), word ``e`` of stream ``key``."""
    out = np.empty(m, dtype=np.int32)
    n255 = np.uint64(255)
    for e in nb.prange(m):
        out[e] = np.int32(bounded(word(key, np.uint64(e)), n255)) + np.int32(1)
    return out


@nb.njit(parallel=True, cache=True, nogil=True)
def unit_weights(key, m):
    """Graph500 reference weights: uniform float32 in [0, 1) on a 2**-24 grid."""
    out = np.empty(m, dtype=np.float32)
    for e in nb.prange(m):
        out[e] = np.float32(word(key, np.uint64(e)) >> _S40) * _INV24
    return out


@nb.njit(parallel=True, cache=True, nogil=True)
def uniform_pairs(key, n, m, src, dst):
    """Fill ``src``/``dst`` with ``m`` independent uniform pairs from ``[0, n)``."""
    nn = np.uint64(n)
    for e in nb.prange(m):
        c = np.uint64(e) * np.uint64(2)
        src[e] = bounded(word(key, c), nn)
        dst[e] = bounded(word(key, c + _ONE), nn)


_RMAT_CHUNK = 2048


@nb.njit(parallel=True, cache=True, nogil=True)
def rmat_pairs(key, scale, t_a, t_ab, t_abc, src, dst, first=0):
    """Fill ``src``/``dst`` with R-MAT edges; level ``l`` uses 32 bits of word ``e*W + l//2``.

    ``src[i]``/``dst[i]`` receive edge ``e = first + i`` of the list (``first > 0``: one chunk
    of a longer list, equal to the same slice of the whole list).

    A level's 32-bit draw ``r`` picks quadrant A (r < t_a), B (< t_ab), C (< t_abc) or D, that
    is row bit ``r >= t_ab`` and column bit ``t_a <= r < t_ab or r >= t_abc``; level ``l`` sets
    bit ``l`` of both endpoints. Edges go in chunks, words level by level within a chunk, so the
    inner loop is branch-free and SIMD-vectorized (64-bit multiplies in AVX-512 or AVX2 lanes).
    """
    m = src.shape[0]
    nwords = (scale + 1) // 2
    w64 = np.uint64(nwords)
    nchunks = (m + _RMAT_CHUNK - 1) // _RMAT_CHUNK
    for chunk in nb.prange(nchunks):
        e0 = chunk * _RMAT_CHUNK
        count = min(_RMAT_CHUNK, m - e0)
        u = np.zeros(_RMAT_CHUNK, dtype=np.int64)
        v = np.zeros(_RMAT_CHUNK, dtype=np.int64)
        for w in range(nwords):
            lo = 2 * w
            hi = lo + 1
            two = hi < scale  # the last word of an odd scale carries one level
            for i in range(count):
                h = word(key, np.uint64(first + e0 + i) * w64 + np.uint64(w))
                r = h >> _S32
                ge_ab = np.int64(r >= t_ab)
                uu = ge_ab << lo
                vv = (np.int64(r >= t_a) ^ ge_ab ^ np.int64(r >= t_abc)) << lo
                if two:
                    r = h & _MASK32
                    ge_ab = np.int64(r >= t_ab)
                    uu |= ge_ab << hi
                    vv |= (np.int64(r >= t_a) ^ ge_ab ^ np.int64(r >= t_abc)) << hi
                u[i] |= uu
                v[i] |= vv
        for i in range(count):
            src[e0 + i] = u[i]
            dst[e0 + i] = v[i]


@nb.njit(parallel=True, cache=True, nogil=True)
def relabel_pairs(src, dst, perm):
    """``src[e] = perm[src[e]]`` and the same for ``dst``, in place.

    A separate pass rather than a gather inside :func:`rmat_pairs`: with nothing else to do, each
    core keeps many cache misses in flight, which makes the pass several times faster.
    """
    for e in nb.prange(src.shape[0]):
        src[e] = perm[src[e]]
        dst[e] = perm[dst[e]]


@nb.njit(parallel=True, cache=True, nogil=True)
def take_pairs(src, dst, order):
    """New arrays ``src[order]`` and ``dst[order]`` (a parallel gather)."""
    m = order.shape[0]
    out_src = np.empty(m, dtype=src.dtype)
    out_dst = np.empty(m, dtype=dst.dtype)
    for e in nb.prange(m):
        out_src[e] = src[order[e]]
        out_dst[e] = dst[order[e]]
    return out_src, out_dst
