"""Command line for the rulings expert."""
