from ..pairing import Pairing

PAIRING = Pairing("error", "error", "sorted")  # the toolkit's normaliser needs the gold's files exactly
