"""The redaction service: detection/ (what is private), anonymising/ (what replaces it), the vault
(pseudonyms back to originals), runtime/ (where the work runs) and the service, server and policies here."""
