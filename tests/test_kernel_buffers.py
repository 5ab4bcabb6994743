"""Kernels that sort every document reuse their buffers (``kernels/order``): the orders written into dirty buffers
are Python's stable sorts."""
import numpy as np
from hypothesis import given, settings, strategies as st

from fastscore.kernels.order import lex_order_into, order_into
from tests.conftest import KERNEL_RUNS

KEYS = st.lists(st.tuples(st.integers(0, 6), st.integers(0, 4)), max_size=40)


@KERNEL_RUNS
@settings(max_examples=200, deadline=None)
@given(KEYS, st.integers(-5, 5))
def test_orders_written_into_reused_buffers_are_stable_sorts(runner, pairs, garbage):
    major = np.array([a for a, _ in pairs], dtype=np.int64)
    minor = np.array([b for _, b in pairs], dtype=np.int64)
    n = len(pairs)
    counts, first, moved, out = (np.full(size, garbage, dtype=np.int64) for size in (8, n + 3, n + 3, n + 3))
    runner(order_into)(minor, 5, counts, out)
    assert out[:n].tolist() == sorted(range(n), key=lambda i: minor[i])
    runner(lex_order_into)(major, minor, 7, 5, counts, first, moved, out)
    assert out[:n].tolist() == sorted(range(n), key=lambda i: (major[i], minor[i]))
