"""Coreference error analysis (``fastscore explain``): Kummerfeld & Klein's seven error types and cort's
spanning-tree recall and precision errors, as per-document statistics."""
from ..pairing import Pairing

PAIRING = Pairing("empty", "warn", "gold")  # the Analyser's: key documents, an absent response as empty
