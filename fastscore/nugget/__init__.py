"""TAC KBP event nugget detection and event coreference (EvmEval rules)."""
