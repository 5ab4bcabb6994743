"""Coreference scoring (CoNLL-2012 reference scorer v8.01 semantics, plus LEA)."""
