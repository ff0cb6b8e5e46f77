"""normalize stage."""
