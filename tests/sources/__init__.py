"""Small tool modules the definition and emit tests import."""
