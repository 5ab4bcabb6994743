"""A small key/response pair shipped with fastscore (see LICENSE.md here)."""
from pathlib import Path

HERE = Path(__file__).resolve().parent
KEY = HERE / "key.conll"
RESPONSE = HERE / "response.conll"
