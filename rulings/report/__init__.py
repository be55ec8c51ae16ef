"""Reports: text, JSON, quotes, the printed book, diff, explain, schemas."""
