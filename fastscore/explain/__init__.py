"""Coreference error analysis (``fastscore explain``): Kummerfeld & Klein's seven error types and cort's
spanning-tree recall and precision errors, as per-document statistics."""
