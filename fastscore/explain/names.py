"""The names of explain's error counts, light enough for the task declaration (no analysis imported)."""

# Kummerfeld & Klein's error types, in the order the Analyser's transformations find them
ERRORS = ("span_error", "conflated_entities", "extra_entity", "extra_mention", "divided_entity",
          "missing_mention", "missing_entity")
CORT = ("cort_recall_errors", "cort_precision_errors")  # cort's spanning-tree edges not recovered
