"""Record the iteration order of Python 2.7 sets of string tuples (run it with Python 2.7).

    PY27 scripts/make_py2_set_order.py > tests/data/py2_set_order.json

Random (mention, mention, relation) tuples, including repeats, ASCII and
non-ASCII ids and enough items to resize the table several times; for each
case the tuples in the order they were added and ``list(set)``.
fastscore.nugget.py2order must give the same orders (tests/test_sequencing.py).
"""
import json
import random
import sys

assert sys.version_info[0] == 2, "run this with Python 2.7: it records Python 2's set order"
random.seed(20261122)
cases = []
for n in [0, 1, 2, 4, 5, 6, 8, 13, 21, 40, 90, 200, 700]:
    for _ in range(4):
        pool = ["E%d" % random.randint(0, 3 * n + 3) for _ in range(max(2, n // 2))]
        pool += ["em-%d" % k for k in range(3)] + ["\xc3\xa9v%d" % k for k in range(2)] + ["", "x"]
        items = [(random.choice(pool), random.choice(pool), random.choice(["After", "Subevent"]))
                 for _ in range(n)]
        s = set()
        for it in items:
            s.add(it)
        cases.append({"added": [[x.decode("utf-8") for x in it] for it in items],
                      "order": [[x.decode("utf-8") for x in it] for it in list(s)]})
json.dump({"generator": "scripts/make_py2_set_order.py (Python 2.7.18)", "cases": cases}, sys.stdout)
sys.stdout.write("\n")
