"""A card room's rules expert: incidents in, cited rulings out."""
