"""`ztgate up`'s supervisor: keeps every part of the suite running (ztgate/supervisor/supervisor.py)."""
