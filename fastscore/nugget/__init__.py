"""TAC KBP event nugget detection and event coreference (EvmEval rules)."""
from ..pairing import Pairing

PAIRING = Pairing("empty", "warn", "sorted")  # EvmEval's: gold documents sorted, an absent one as empty
