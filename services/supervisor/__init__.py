"""`ztgate up`'s supervisor: keeps every part of the suite running (services/supervisor/supervisor.py)."""
