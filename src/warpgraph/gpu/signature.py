"""Kernel parameter lists read from the CUDA sources, so launches can check and convert arguments.

CuPy passes a Python ``int`` to a kernel as a 64-bit integer and a Python ``float`` as a
``double`` whatever the kernel declares. The driver then reads as many bytes as the parameter
needs: a ``long long`` parameter given a 4-byte value reads garbage in its upper half, a
``float`` given a double reads half of the double. :func:`kernel_params` recovers each kernel's
declared parameter types (with template arguments substituted from the name expression) so
:func:`warpgraph.gpu.launch.convert_args` can convert every scalar to exactly the declared width
and check every array's dtype.

The parser covers the forms warpgraph's kernels use (docs/GPU.md, "Writing a kernel")::

    template <typename V, int OP>
    __global__ void name(const V* __restrict__ a, long long n, ...)
    extern "C" __global__ void name(...)

Examples
--------
>>> src = '''
... template <typename V>
... __global__ void count(const V* __restrict__ ids, long long m, unsigned long long* out) {}
... '''
>>> [(p.name, p.is_pointer, str(p.dtype)) for p in kernel_params(src, "count<int>")]
[('ids', True, 'int32'), ('m', False, 'int64'), ('out', True, 'uint64')]
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

__all__ = ["Param", "find_kernels", "kernel_params", "parse_name_expression", "split_top_level"]

# C/C++ spellings of scalar types -> NumPy dtype names (LP64: long is 64-bit).
C_TYPES: dict[str, str] = {
    "bool": "bool",
    "char": "int8",
    "signed char": "int8",
    "unsigned char": "uint8",
    "short": "int16",
    "short int": "int16",
    "unsigned short": "uint16",
    "int": "int32",
    "signed": "int32",
    "signed int": "int32",
    "unsigned": "uint32",
    "unsigned int": "uint32",
    "long": "int64",
    "long int": "int64",
    "unsigned long": "uint64",
    "long long": "int64",
    "long long int": "int64",
    "unsigned long long": "uint64",
    "unsigned long long int": "uint64",
    "float": "float32",
    "double": "float64",
    "int8_t": "int8",
    "int16_t": "int16",
    "int32_t": "int32",
    "int64_t": "int64",
    "uint8_t": "uint8",
    "uint16_t": "uint16",
    "uint32_t": "uint32",
    "uint64_t": "uint64",
    "size_t": "uint64",
    "ptrdiff_t": "int64",
    # aliases of common.cuh
    "wg::eid_t": "int64",
    "eid_t": "int64",
    "wg::u64": "uint64",
    "u64": "uint64",
}

_QUALIFIERS = {"const", "volatile", "__restrict__", "__restrict", "restrict"}

_KERNEL_RE = re.compile(
    r"(?:template\s*<(?P<tparams>[^{};]*?)>\s*)?"
    r"(?:extern\s+\"C\"\s+)?"
    r"__global__\s+(?:__launch_bounds__\s*\([^)]*\)\s*)?"
    r"void\s+(?:__launch_bounds__\s*\([^)]*\)\s*)?"
    r"(?P<name>[A-Za-z_]\w*)\s*\((?P<params>[^)]*)\)\s*\{",
)


@dataclass(frozen=True)
class Param:
    """One kernel parameter: its name, C type (as resolved), pointer-ness and NumPy dtype.

    ``dtype`` is the element type for a pointer, the value type for a scalar, and ``None`` when
    the type is not a plain arithmetic type (for example ``void*`` or a struct).
    """

    name: str
    ctype: str
    is_pointer: bool
    dtype: np.dtype | None


def strip_comments(src: str) -> str:
    """Remove ``//`` and ``/* */`` comments (string literals in kernels are not expected)."""
    src = re.sub(r"/\*.*?\*/", " ", src, flags=re.S)
    return re.sub(r"//[^\n]*", "", src)


def split_top_level(text: str, sep: str = ",") -> list[str]:
    """Split ``text`` at ``sep`` outside ``<>``, ``()`` and ``[]``; strip parts, drop empty ones.

    Examples
    --------
    >>> split_top_level("a<int, 2>, long long b")
    ['a<int, 2>', 'long long b']
    """
    parts, depth, cur = [], 0, []
    for ch in text:
        if ch in "<([":
            depth += 1
        elif ch in ">)]":
            depth -= 1
        if ch == sep and depth == 0:
            parts.append("".join(cur).strip())
            cur = []
        else:
            cur.append(ch)
    parts.append("".join(cur).strip())
    return [p for p in parts if p]


def parse_name_expression(expr: str) -> tuple[str, list[str]]:
    """``"merge_runs<float, 0>"`` -> ``("merge_runs", ["float", "0"])``.

    Examples
    --------
    >>> parse_name_expression("count_degrees<long long>")
    ('count_degrees', ['long long'])
    >>> parse_name_expression("plain")
    ('plain', [])
    """
    expr = expr.strip()
    if "<" not in expr:
        return expr, []
    base, rest = expr.split("<", 1)
    rest = rest.strip()
    if not rest.endswith(">"):
        raise ValueError(f"malformed name expression {expr!r}")
    return base.strip(), split_top_level(rest[:-1])


def find_kernels(src: str) -> dict[str, tuple[list[str], str]]:
    """Map each ``__global__`` function name in ``src`` to (template parameters, parameter text)."""
    found: dict[str, tuple[list[str], str]] = {}
    for m in _KERNEL_RE.finditer(strip_comments(src)):
        tparams = split_top_level(m.group("tparams") or "")
        found[m.group("name")] = (tparams, m.group("params"))
    return found


def _normalize_type(tokens: list[str]) -> str:
    return " ".join(t for t in tokens if t not in _QUALIFIERS)


def _parse_param(text: str, subst: dict[str, str]) -> Param:
    tokens = re.findall(r"\*|&|[A-Za-z_][\w:]*", text)
    if not tokens:
        raise ValueError(f"cannot parse kernel parameter {text!r}")
    n_ptr = tokens.count("*")
    words = [t for t in tokens if t not in ("*", "&")]
    name = words[-1] if len(words) > 1 else ""
    type_words = words[:-1] if len(words) > 1 else words
    ctype = _normalize_type(type_words)
    ctype = subst.get(ctype, ctype)
    ctype = " ".join(ctype.split())
    if ctype.startswith("const "):
        ctype = ctype[len("const ") :]
    np_name = C_TYPES.get(ctype)
    dtype = np.dtype(np_name) if np_name is not None and n_ptr <= 1 else None
    return Param(name=name, ctype=ctype + "*" * n_ptr, is_pointer=n_ptr > 0, dtype=dtype)


def kernel_params(src: str, name_expression: str) -> tuple[Param, ...] | None:
    """The parameters of kernel ``name_expression`` declared in ``src``, or ``None`` if not found.

    Template type parameters (``typename``/``class``) are replaced by the name expression's
    arguments; non-type template parameters are skipped.
    """
    base, targs = parse_name_expression(name_expression)
    kernels = find_kernels(src)
    if base not in kernels:
        return None
    tparams, ptext = kernels[base]
    subst: dict[str, str] = {}
    for i, tp in enumerate(tparams):
        words = tp.split("=")[0].split()
        if len(words) >= 2 and words[0] in ("typename", "class") and i < len(targs):
            subst[words[-1]] = " ".join(targs[i].split())
    try:
        return tuple(_parse_param(p, subst) for p in split_top_level(ptext) if p != "void")
    except ValueError:
        return None
