"""Private package (see docs/internal/architecture.md)."""
