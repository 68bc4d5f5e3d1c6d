"""`ztgate top`: one terminal screen of the running suite, refreshed every second."""
