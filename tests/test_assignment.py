"""The Hungarian solver behind CEAF (and the optimal nugget mapping) against scipy."""
import numpy as np
from hypothesis import example, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from scipy.optimize import linear_sum_assignment

from fastscore.kernels.ceaf import max_weight_assignment
from tests.conftest import KERNEL_RUNS

weights = hnp.arrays(np.float64, st.tuples(st.integers(1, 7), st.integers(1, 7)),
                     elements=st.sampled_from([0.0, 0.25, 0.5, 2 / 3, 1.0, 1.5, 2.0, 3.0]))


@KERNEL_RUNS
@settings(max_examples=400, deadline=None)
@given(weights)
@example(np.zeros((2, 3)))
@example(np.ones((3, 2)))
def test_assignment_is_optimal_and_one_to_one(runner, w):
    cols = runner(max_weight_assignment)(w)
    rows = np.flatnonzero(cols >= 0)
    assert len(set(cols[rows].tolist())) == len(rows)  # one-to-one
    assert len(rows) == min(w.shape)
    r, c = linear_sum_assignment(w, maximize=True)
    assert abs(w[rows, cols[rows]].sum() - w[r, c].sum()) <= 1e-12
