"""Rulebooks: the format, loading with positions, checking, merging house books."""
