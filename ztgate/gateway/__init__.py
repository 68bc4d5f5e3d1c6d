"""The Envoy front proxy: configuration rendering and process management."""
