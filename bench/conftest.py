"""Seeded, session-scoped benchmark corpora (written by scripts/gen_corpus.py)."""
import sys
from pathlib import Path

try:
    import pytest
except ImportError:  # the benchmark scripts (scale_out.py...) also run where the test tools are not installed
    pytest = None

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
CORPUS_DIR = ROOT / "bench" / ".corpus"

SIZES = {
    "conll2012-test": dict(docs=348, tokens=170_000, mentions=19_000, clusters=4_700),
    "one-large-doc": dict(docs=1, tokens=20_000, mentions=5_000, clusters=1_200),
}


def corpus(name: str, seed: int = 12345, responses: int = 1) -> list[Path]:
    """[key, response, ...] for a named size, generated once and kept in bench/.corpus."""
    from gen_corpus import generate

    out = CORPUS_DIR / f"{name}-s{seed}-r{responses}"
    paths = [out / "key.conll"] + [
        out / ("response.conll" if responses == 1 else f"response-{r + 1}.conll") for r in range(responses)
    ]
    if not all(p.exists() for p in paths):
        generate(out, seed=seed, responses=responses, **SIZES[name])
    return paths


if pytest is not None:
    @pytest.fixture(scope="session", params=list(SIZES), ids=lambda n: f"corpus={n}")
    def corpus_files(request):
        return corpus(request.param)
