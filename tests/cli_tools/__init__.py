"""Tool modules that ``tests/unit/test_cli_serve.py`` serves with ``toolcall serve``."""
