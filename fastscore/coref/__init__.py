"""Coreference scoring (CoNLL-2012 reference scorer v8.01 semantics, plus LEA)."""
from ..pairing import Pairing

PAIRING = Pairing("empty", "warn", "gold")  # v8.01's: a response document not in the key is ignored (warned)
