"""Byte spans of the readers' buffers."""
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
