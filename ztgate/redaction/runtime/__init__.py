"""Where analysis runs: the pool of analysis worker processes, per-tenant thread lanes for CPU work off the
event loop, and the fair share of both between tenants."""
