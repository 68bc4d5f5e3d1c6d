"""The wire protocols the gateway speaks besides its own gRPC contract (one package per API)."""
