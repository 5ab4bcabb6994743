"""Pure-Python references of the CorefUD matching kernels (kernels/matching.py)."""
from itertools import permutations


def similarity(mode: str, key: tuple, response: tuple) -> float:
    """key, response: (sorted words, head).  partial: R inside K and K's head in R: |R|/|K|;
    head: the same head: |K & R| / |K|."""
    (k, k_head), (r, r_head) = key, response
    k, r = set(k), set(r)
    if mode == "partial":
        return len(r) / len(k) if k_head in r and r <= k else 0.0
    return len(k & r) / len(k) if k_head == r_head else 0.0


def max_overlap(key: list[set], response: list[set]) -> int:
    """The largest total word overlap of a one-to-one pairing of key and response mentions (brute force)."""
    small, large = (key, response) if len(key) <= len(response) else (response, key)
    best = 0
    for chosen in permutations(range(len(large)), len(small)):
        best = max(best, sum(len(a & large[j]) for a, j in zip(small, chosen)))
    return best
