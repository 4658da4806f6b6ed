"""Speed comparisons against baselines, run side by side in one process (see README)."""
