"""The podium: server-rendered HTML pages for floor staff and house managers, on the ruling service."""
