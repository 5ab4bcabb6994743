"""Byte spans of the readers' buffers."""
import numpy as np

from ._jit import njit


@njit(cache=True)
def same_bytes(a, sa, ea, b, sb, eb):
    """Whether ``a[sa:ea]`` and ``b[sb:eb]`` hold the same bytes (a loop: no slice objects in a kernel's loop)."""
    if ea - sa != eb - sb:
        return False
    for i in range(ea - sa):
        if a[sa + i] != b[sb + i]:
            return False
    return True


@njit(cache=True)
def starts_with(a, s, e, prefix):
    """Whether ``a[s:e]`` starts with the bytes of ``prefix``."""
    return e - s >= len(prefix) and same_bytes(a, s, s + len(prefix), prefix, 0, len(prefix))


@njit(cache=True)
def find_byte(a, s, e, byte):
    """The first position of ``byte`` in ``a[s:e]``, else ``e``."""
    while s < e and a[s] != byte:
        s += 1
    return s


@njit(cache=True)
def ascii_number(a, s, e, most):
    """The number ``a[s:e]`` writes in 1 to ``most`` ASCII digits, else -1."""
    if e <= s or e - s > most:
        return -1
    value = 0
    for k in range(s, e):
        c = np.int64(a[k])  # widened first: the bytes are uint8 (and plain Python ints without the JIT)
        if c < 48 or c > 57:
            return -1
        value = value * 10 + (c - 48)
    return value
