"""Numba byte scanners shared by the text formats: numeric tables and adjacency lines.

A text graph file is read into one ``uint8`` buffer (memory-mapped when uncompressed), cut into
chunks at line boundaries, and every chunk is parsed in parallel (``prange``) straight into
preallocated NumPy columns: no Python object is created per line or per edge. A chunk that
meets a malformed line stops and reports the byte offset of the first bad token; the driver
(:mod:`warpgraph.io._text`) turns that offset into a 1-based line number by counting newlines.

Two scanners:

* **table**: lines of ``nid`` integer ids, then up to ``nval`` numbers (weights, timestamps),
  optionally after a fixed one-letter prefix (DIMACS ``a``). Comment lines start with a
  comment character after optional blanks; blank lines are skipped.
* **adjacency**: one record per line, a variable number of integers (METIS, Pajek lists).

Numbers: ids are decimal integers with an optional sign, checked for int64 overflow and for a
caller-given range. Values are parsed as int64 when written as integers (kept exact) and as
float64 otherwise. Floats with at most 19 significant digits whose decimal exponent lies in
[-22, 22] and whose mantissa is below 2**53 are converted exactly here (the Clinger fast path:
one correctly rounded multiply or divide of two exact doubles); every other float token (17
digit ``repr`` output, ``inf``, ``nan``, huge exponents) is marked, checked against a strict
grammar, and converted afterwards by Arrow's correctly rounded parser in one vectorized call.
"""

from __future__ import annotations

import numba as nb
import numpy as np

# character classes
C_TOKEN = 0
C_SEP = 1
C_NEWLINE = 2
C_COMMENT = 3

# error codes (res[1])
E_NONE = 0
E_TOKEN = 1  # malformed number / unexpected character
E_FEW = 2  # too few columns
E_MANY = 3  # too many columns
E_RANGE = 4  # id outside [id_lo, id_hi]
E_OVERFLOW = 5  # integer does not fit int64
E_PREFIX = 6  # line does not start with the expected prefix letter
E_MAXROWS = 7  # more data lines than allowed
E_NCOLS = 8  # column count differs from an earlier line
E_ODD = 9  # adjacency: entries do not come in (neighbour, weight) pairs
E_LONG = 10  # number token longer than the fallback buffer

# result slots of the table scanner
R_ROWS = 0
R_ERR = 1
R_ERRPOS = 2
R_NCOLS = 3  # columns of the first data line of the chunk (-1 if none)
R_FIRSTPOS = 4  # byte offset of the first data line of the chunk
R_FALLBACK = 5  # number of value tokens left for NumPy to convert
R_FLOATMASK = 6  # bit j set: value column j holds a non-integer token
R_NSLOTS = 8

INT64_MAX = np.int64(9223372036854775807)

_POW10 = np.array([10.0**k for k in range(23)], dtype=np.float64)
_TWO53 = np.int64(2**53)


def char_classes(comments: bytes = b"#%", comma: bool = False) -> np.ndarray:
    """The 256-entry class table for a format (see the ``C_*`` constants)."""
    cls = np.zeros(256, dtype=np.uint8)
    for ch in b" \t\r\v\f":
        cls[ch] = C_SEP
    if comma:
        cls[ord(",")] = C_SEP
    cls[ord("\n")] = C_NEWLINE
    for ch in comments:
        cls[ch] = C_COMMENT
    return cls


# ---------------------------------------------------------------------------------- numbers
@nb.njit(cache=True, nogil=True, inline="always")
def _parse_int(buf, q, hi, cls):
    """Parse a decimal integer at ``q``: (value, end, status); status 0 ok, 1 bad, 2 overflow."""
    neg = False
    c = buf[q]
    if c == 45:  # '-'
        neg = True
        q += 1
    elif c == 43:  # '+'
        q += 1
    start = q
    val = np.int64(0)
    status = 0
    while q < hi:
        d = np.int64(buf[q]) - 48
        if d < 0 or d > 9:
            break
        if val > (INT64_MAX - d) // 10:
            status = 2
        else:
            val = val * 10 + d
        q += 1
    if q == start:
        return val, q, 1
    if q < hi and cls[buf[q]] != C_SEP and cls[buf[q]] != C_NEWLINE:
        return val, q, 1
    if neg:
        val = -val
    return val, q, status


@nb.njit(cache=True, nogil=True, inline="always")
def _token_end(buf, q, hi, cls):
    while q < hi and cls[buf[q]] != C_SEP and cls[buf[q]] != C_NEWLINE:
        q += 1
    return q


@nb.njit(cache=True, nogil=True, inline="always")
def _parse_value(buf, q, hi, cls):
    """Parse a number at ``q``: (ival, fval, kind, end); kind 0 int, 1 float, 2 fallback.

    For kind 2 the token (which may still be malformed) is left to :func:`_check_float_token`
    and NumPy; ``end`` is then the end of the token.
    """
    q0 = q
    neg = False
    c = buf[q]
    if c == 45:
        neg = True
        q += 1
    elif c == 43:
        q += 1
    mant = np.int64(0)
    ndig = 0  # significant digits kept in mant
    exp10 = 0
    any_digit = False
    dropped = False
    is_int = True
    while q < hi:
        d = np.int64(buf[q]) - 48
        if d < 0 or d > 9:
            break
        any_digit = True
        if mant == 0 and d == 0:
            pass
        elif ndig < 18:
            mant = mant * 10 + d
            ndig += 1
        else:
            exp10 += 1
            dropped = True
        q += 1
    if q < hi and buf[q] == 46:  # '.'
        is_int = False
        q += 1
        while q < hi:
            d = np.int64(buf[q]) - 48
            if d < 0 or d > 9:
                break
            any_digit = True
            if mant == 0 and d == 0:
                exp10 -= 1
            elif ndig < 18:
                mant = mant * 10 + d
                ndig += 1
                exp10 -= 1
            else:
                dropped = True
            q += 1
    if q < hi and (buf[q] == 101 or buf[q] == 69) and any_digit:  # 'e' / 'E'
        is_int = False
        q += 1
        eneg = False
        if q < hi and (buf[q] == 45 or buf[q] == 43):
            eneg = buf[q] == 45
            q += 1
        e = 0
        estart = q
        while q < hi:
            d = np.int64(buf[q]) - 48
            if d < 0 or d > 9:
                break
            if e < 100000:
                e = e * 10 + d
            q += 1
        if q == estart:
            return np.int64(0), 0.0, 2, _token_end(buf, q0, hi, cls)
        exp10 += -e if eneg else e
    if not any_digit or (q < hi and cls[buf[q]] != C_SEP and cls[buf[q]] != C_NEWLINE):
        return np.int64(0), 0.0, 2, _token_end(buf, q0, hi, cls)
    if is_int and not dropped:
        v = -mant if neg else mant
        return v, np.float64(v), 0, q
    if dropped or mant >= _TWO53 or exp10 > 22 or exp10 < -22:
        if mant == 0 and not dropped:
            return np.int64(0), -0.0 if neg else 0.0, 1, q
        return np.int64(0), 0.0, 2, q
    f = np.float64(mant)
    if exp10 >= 0:
        f = f * _POW10[exp10]
    else:
        f = f / _POW10[-exp10]
    return np.int64(0), -f if neg else f, 1, q


@nb.njit(cache=True, nogil=True)
def _check_float_token(tok, n):
    """True if ``tok[:n]`` is [sign] (digits[.digits] | .digits)[e[sign]digits] | inf | nan."""
    i = 0
    if n > 0 and (tok[0] == 43 or tok[0] == 45):
        i = 1
    if n - i in (3, 8):  # inf, nan, infinity (case-insensitive)
        word = tok[i:n]
        low = np.empty(n - i, np.uint8)
        for k in range(n - i):
            ch = word[k]
            low[k] = ch + 32 if 65 <= ch <= 90 else ch
        if n - i == 3:
            if (low[0] == 105 and low[1] == 110 and low[2] == 102) or (
                low[0] == 110 and low[1] == 97 and low[2] == 110
            ):
                return True
        else:
            target = np.array([105, 110, 102, 105, 110, 105, 116, 121], np.uint8)
            ok = True
            for k in range(8):
                if low[k] != target[k]:
                    ok = False
            if ok:
                return True
    digits = 0
    while i < n and 48 <= tok[i] <= 57:
        i += 1
        digits += 1
    if i < n and tok[i] == 46:
        i += 1
        while i < n and 48 <= tok[i] <= 57:
            i += 1
            digits += 1
    if digits == 0:
        return False
    if i < n and (tok[i] == 101 or tok[i] == 69):
        i += 1
        if i < n and (tok[i] == 43 or tok[i] == 45):
            i += 1
        e = 0
        while i < n and 48 <= tok[i] <= 57:
            i += 1
            e += 1
        if e == 0:
            return False
    return i == n


@nb.njit(cache=True, nogil=True, parallel=True)
def gather_tokens(buf, positions, cls):
    """Copy the tokens starting at ``positions`` into Arrow string layout (data, int64 offsets).

    Returns (data, offsets, bad): ``bad`` is the index of the first token that does not follow
    the float grammar (or is longer than 64 bytes), else -1.
    """
    k = positions.shape[0]
    hi = buf.shape[0]
    lens = np.empty(k, dtype=np.int64)
    ok = np.ones(k, dtype=np.bool_)
    for i in nb.prange(k):
        p = positions[i]
        n = _token_end(buf, p, hi, cls) - p
        lens[i] = n
        ok[i] = n <= 64 and _check_float_token(buf[p : p + n], n)
    for i in range(k):
        if not ok[i]:
            return np.empty(0, np.uint8), np.zeros(1, np.int64), i
    offsets = np.zeros(k + 1, dtype=np.int64)
    for i in range(k):
        offsets[i + 1] = offsets[i] + lens[i]
    data = np.empty(offsets[k], dtype=np.uint8)
    for i in nb.prange(k):
        p = positions[i]
        o = offsets[i]
        for j in range(lens[i]):
            data[o + j] = buf[p + j]
    return data, offsets, -1


# ---------------------------------------------------------------------------------- table
@nb.njit(cache=True, nogil=True)
def _scan_table_chunk(
    buf, lo, hi, cls, prefix, nid, nvmin, nvmax, ncols_fixed, extra_ok, ragged,
    id_lo, id_hi, ids, vi, vf, nvrow, row0, max_rows, res,
):  # fmt: skip
    r = row0
    ncols = ncols_fixed
    res[R_NCOLS] = -1
    res[R_FIRSTPOS] = -1
    p = lo
    while p < hi:
        q = p
        while q < hi and cls[buf[q]] == C_SEP:
            q += 1
        if q >= hi:
            break
        c = buf[q]
        if c == 10:
            p = q + 1
            continue
        if cls[c] == C_COMMENT and not (prefix >= 0 and c == prefix):
            while q < hi and buf[q] != 10:
                q += 1
            p = q + 1
            continue
        if r - row0 >= max_rows:
            res[R_ERR] = E_MAXROWS
            res[R_ERRPOS] = p
            res[R_ROWS] = r - row0
            return
        if res[R_FIRSTPOS] < 0:
            res[R_FIRSTPOS] = p
        if prefix >= 0:
            if c != prefix or (q + 1 < hi and cls[buf[q + 1]] != C_SEP and buf[q + 1] != 10):
                res[R_ERR] = E_PREFIX
                res[R_ERRPOS] = q
                res[R_ROWS] = r - row0
                return
            q += 1
        k = 0
        while True:
            while q < hi and cls[buf[q]] == C_SEP:
                q += 1
            if q >= hi or buf[q] == 10:
                break
            if k < nid:
                v, e, st = _parse_int(buf, q, hi, cls)
                if st == 1:
                    res[R_ERR] = E_TOKEN
                elif st == 2:
                    res[R_ERR] = E_OVERFLOW
                elif v < id_lo or v > id_hi:
                    res[R_ERR] = E_RANGE
                if res[R_ERR] != E_NONE:
                    res[R_ERRPOS] = q
                    res[R_ROWS] = r - row0
                    return
                ids[k, r] = v
                q = e
            elif k < nid + nvmax:
                iv, fv, kind, e = _parse_value(buf, q, hi, cls)
                j = k - nid
                if kind == 2:
                    if extra_ok and k >= nid + nvmin and not _looks_numeric(buf[q]):
                        while q < hi and buf[q] != 10:
                            q += 1
                        break
                    if e - q > 64 or not _check_float_token(buf[q:e], e - q):
                        res[R_ERR] = E_TOKEN
                        res[R_ERRPOS] = q
                        res[R_ROWS] = r - row0
                        return
                    res[R_FALLBACK] += 1
                    vi[j, r] = q
                    vf[j, r] = np.nan
                    res[R_FLOATMASK] |= 1 << j
                else:
                    vi[j, r] = iv
                    vf[j, r] = fv
                    if kind == 1:
                        res[R_FLOATMASK] |= 1 << j
                q = e
            else:
                if extra_ok:
                    while q < hi and buf[q] != 10:
                        q += 1
                    break
                res[R_ERR] = E_MANY
                res[R_ERRPOS] = q
                res[R_ROWS] = r - row0
                return
            k += 1
        if k < nid + nvmin:
            res[R_ERR] = E_FEW
            res[R_ERRPOS] = p
            res[R_ROWS] = r - row0
            return
        if ragged:
            nvrow[r] = k - nid
        elif ncols < 0:
            ncols = k
        elif k != ncols:
            res[R_ERR] = E_NCOLS
            res[R_ERRPOS] = p
            res[R_ROWS] = r - row0
            return
        if res[R_NCOLS] < 0:
            res[R_NCOLS] = k
        r += 1
        p = q + 1
    res[R_ROWS] = r - row0


@nb.njit(cache=True, nogil=True, inline="always")
def _looks_numeric(c):
    return (48 <= c <= 57) or c == 45 or c == 43 or c == 46


@nb.njit(cache=True, nogil=True, parallel=True)
def scan_table(
    buf, bounds, caps, cls, prefix, nid, nvmin, nvmax, ncols_fixed, extra_ok, ragged,
    id_lo, id_hi, ids, vi, vf, nvrow, max_rows, results,
):  # fmt: skip
    """Parse chunk ``c`` = ``buf[bounds[c]:bounds[c+1]]`` into rows from ``caps[c]`` on."""
    nchunks = bounds.shape[0] - 1
    for c in nb.prange(nchunks):
        _scan_table_chunk(
            buf, bounds[c], bounds[c + 1], cls, prefix, nid, nvmin, nvmax, ncols_fixed,
            extra_ok, ragged, id_lo, id_hi, ids, vi, vf, nvrow, caps[c], max_rows,
            results[c],
        )  # fmt: skip


@nb.njit(cache=True, nogil=True, parallel=True)
def count_data_lines(buf, bounds, cls, prefix):
    """Lines in every chunk that are neither blank nor comments (as the table scanner sees
    them), so every chunk can write its rows straight to their final place."""
    nchunks = bounds.shape[0] - 1
    out = np.zeros(nchunks, dtype=np.int64)
    for c in nb.prange(nchunks):
        s = 0
        p = bounds[c]
        hi = bounds[c + 1]
        while p < hi:
            while p < hi and cls[buf[p]] == C_SEP:
                p += 1
            if p >= hi:
                break
            ch = buf[p]
            if ch != 10 and not (cls[ch] == C_COMMENT and not (prefix >= 0 and ch == prefix)):
                s += 1
            while p < hi and buf[p] != 10:
                p += 1
            p += 1
        out[c] = s
    return out


@nb.njit(cache=True, nogil=True)
def count_newlines_upto(buf, lo, pos):
    s = 0
    for i in range(lo, pos):
        if buf[i] == 10:
            s += 1
    return s


@nb.njit(cache=True, nogil=True)
def next_newline(buf, p, end):
    """Offset of the first newline in ``buf[p:end]``, or ``end``."""
    while p < end and buf[p] != 10:
        p += 1
    return p


@nb.njit(cache=True, nogil=True)
def prev_newline(buf, p, start):
    """Offset just after the last newline in ``buf[start:p]``, or ``start``."""
    while p > start and buf[p - 1] != 10:
        p -= 1
    return p


@nb.njit(cache=True, nogil=True)
def chunk_bounds(buf, lo, hi, nchunks):
    """``nchunks + 1`` offsets cutting ``buf[lo:hi]`` just after newlines (may repeat)."""
    out = np.empty(nchunks + 1, dtype=np.int64)
    out[0] = lo
    out[nchunks] = hi
    step = (hi - lo) // nchunks
    for c in range(1, nchunks):
        t = max(lo + c * step, out[c - 1])
        if t > lo:
            while t < hi and buf[t - 1] != 10:
                t += 1
        out[c] = t
    return out


# ---------------------------------------------------------------------------------- adjacency
@nb.njit(cache=True, nogil=True)
def _adj_count_chunk(buf, lo, hi, cls, keep_blank, out):
    """Count records (lines) and integer tokens in a chunk."""
    recs = 0
    toks = 0
    p = lo
    while p < hi:
        q = p
        while q < hi and cls[buf[q]] == C_SEP:
            q += 1
        if q < hi and cls[buf[q]] == C_COMMENT:
            while q < hi and buf[q] != 10:
                q += 1
            p = q + 1
            continue
        if q >= hi or buf[q] == 10:
            if keep_blank:
                recs += 1
            p = q + 1
            continue
        recs += 1
        while q < hi and buf[q] != 10:
            if cls[buf[q]] != C_SEP and (q == p or cls[buf[q - 1]] == C_SEP):
                toks += 1
            q += 1
        p = q + 1
    out[0] = recs
    out[1] = toks


@nb.njit(cache=True, nogil=True, parallel=True)
def adj_count(buf, bounds, cls, keep_blank):
    nchunks = bounds.shape[0] - 1
    out = np.zeros((nchunks, 2), dtype=np.int64)
    for c in nb.prange(nchunks):
        _adj_count_chunk(buf, bounds[c], bounds[c + 1], cls, keep_blank, out[c])
    return out


@nb.njit(cache=True, nogil=True)
def _adj_fill_chunk(
    buf, lo, hi, cls, keep_blank, first_is_row, nskip, stride, rec0, ent0, max_recs,
    id_lo, id_hi, src, dst, w, vdata, res,
):  # fmt: skip
    rec = rec0
    ent = ent0
    p = lo
    while p < hi:
        q = p
        while q < hi and cls[buf[q]] == C_SEP:
            q += 1
        if q < hi and cls[buf[q]] == C_COMMENT:
            while q < hi and buf[q] != 10:
                q += 1
            p = q + 1
            continue
        blank = q >= hi or buf[q] == 10
        if blank and not keep_blank:
            p = q + 1
            continue
        if rec >= max_recs:
            if blank:  # tolerated trailing blank line
                p = q + 1
                continue
            res[R_ERR] = E_MAXROWS
            res[R_ERRPOS] = p
            break
        row = rec
        k = 0
        while True:
            while q < hi and cls[buf[q]] == C_SEP:
                q += 1
            if q >= hi or buf[q] == 10:
                break
            v, e, st = _parse_int(buf, q, hi, cls)
            if st != 0:
                res[R_ERR] = E_TOKEN if st == 1 else E_OVERFLOW
                res[R_ERRPOS] = q
                break
            if first_is_row and k == 0:
                if v < id_lo or v > id_hi:
                    res[R_ERR] = E_RANGE
                    res[R_ERRPOS] = q
                    break
                row = v
            elif k < nskip + first_is_row:
                vdata[k - first_is_row, rec] = v
            else:
                j = k - nskip - first_is_row
                if j % stride == 0:
                    if v < id_lo or v > id_hi:
                        res[R_ERR] = E_RANGE
                        res[R_ERRPOS] = q
                        break
                    src[ent] = row
                    dst[ent] = v
                else:
                    w[ent] = v
                if j % stride == stride - 1:
                    ent += 1
            k += 1
            q = e
        if res[R_ERR] != E_NONE:
            break
        if k < nskip + first_is_row and not blank:
            res[R_ERR] = E_FEW
            res[R_ERRPOS] = p
            break
        if k > nskip + first_is_row and (k - nskip - first_is_row) % stride != 0:
            res[R_ERR] = E_ODD
            res[R_ERRPOS] = p
            break
        if k < nskip + first_is_row and blank and nskip > 0:
            res[R_ERR] = E_FEW
            res[R_ERRPOS] = p
            break
        rec += 1
        p = q + 1
    res[R_ROWS] = ent - ent0
    res[R_NCOLS] = rec - rec0


@nb.njit(cache=True, nogil=True, parallel=True)
def adj_fill(
    buf, bounds, cls, keep_blank, first_is_row, nskip, stride, rec0, ent0, max_recs,
    id_lo, id_hi, src, dst, w, vdata, results,
):  # fmt: skip
    nchunks = bounds.shape[0] - 1
    for c in nb.prange(nchunks):
        _adj_fill_chunk(
            buf, bounds[c], bounds[c + 1], cls, keep_blank, first_is_row, nskip, stride,
            rec0[c], ent0[c], max_recs, id_lo, id_hi, src, dst, w, vdata, results[c],
        )  # fmt: skip
