"""The suite's own certificate authority, for mTLS between Envoy, the services and the collector.

`ztgate certs init` (and `ztgate up`, when the folder is empty) issues one certificate per part of
the suite from a fresh CA. The CA's private key lives only in memory while it issues: nobody can
mint another suite identity from the folder afterwards; rotating means issuing the whole set again
(`--force`). Each part is known by the common name of its certificate, which a service checks
against the callers it accepts (`server.tls.allowed_clients`), and servers are verified by the
DNS name in theirs (Envoy matches it; Python clients match the address they dial).
"""

from __future__ import annotations

import datetime as dt
import ipaddress
import os
from dataclasses import dataclass
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

from ztgate import parts
from ztgate.common.settings import ClientTlsSettings, MeshSettings, TlsSettings
from ztgate.parts import identity_of

CA_FILE = "ca.pem"
# The identities, from the one list of parts (ztgate/parts.py); the names stay here for callers.
ENVOY = identity_of("envoy")
OPERATOR = parts.OPERATOR
REDACTION = identity_of("redaction")
INFERENCE_PRIMARY = identity_of("inference-primary")
INFERENCE_FALLBACK = identity_of("inference-fallback")
TELEMETRY = identity_of("telemetry")
GATEWAY = parts.GATEWAY
# Parts that serve gRPC (they also export OTLP to the collector, as clients).
SERVERS = parts.SERVERS
CLIENTS_ONLY = tuple(name for name in parts.IDENTITIES if name not in (*SERVERS, GATEWAY))
IDENTITIES = parts.IDENTITIES
# Names every server certificate carries besides its own: the suite's services listen on loopback.
_LOOPBACK_NAMES = ("localhost",)
_LOOPBACK_IPS = ("127.0.0.1", "::1")
DEFAULT_DAYS = 365
# A certificate closer to its end than this makes `ztgate up` say so.
RENEW_WARNING_DAYS = 14


class PkiError(Exception):
    """The certificate folder is missing, incomplete or expired; the message says what to run."""


@dataclass(frozen=True)
class Pki:
    """A certificate folder: ca.pem, then NAME.pem and NAME.key per identity."""

    dir: Path

    @classmethod
    def of(cls, mesh: MeshSettings) -> Pki:
        """The suite's folder as the configuration names it (`mesh.pki_dir`)."""
        return cls(mesh.pki_dir.expanduser().resolve())

    @property
    def ca(self) -> Path:
        return self.dir / CA_FILE

    def cert(self, name: str) -> Path:
        return self.dir / f"{name}.pem"

    def key(self, name: str) -> Path:
        return self.dir / f"{name}.key"

    def exists(self) -> bool:
        return self.ca.is_file()

    def check(self, now: dt.datetime | None = None, names: tuple[str, ...] = IDENTITIES) -> dt.datetime:
        """Raises PkiError unless every file of `names` (default: every identity) is there and
        valid now; returns the first expiry. A part's own folder (`ztgate prepare`) holds only
        its own identity's."""
        now = now or dt.datetime.now(dt.UTC)
        fix = f"run `ztgate certs init --dir {self.dir}{' --force' if self.exists() else ''}`"
        paths = [self.ca, *(p for name in names for p in (self.cert(name), self.key(name)))]
        if not self.exists():
            raise PkiError(f"{self.dir} holds no suite certificates: {fix}")
        missing = [p.name for p in paths if not p.is_file()]
        if missing:
            raise PkiError(f"certificate folder {self.dir} lacks {', '.join(missing)}: {fix}")
        first_expiry = None
        for path in (self.ca, *(self.cert(n) for n in names)):
            cert = x509.load_pem_x509_certificate(path.read_bytes())
            if not cert.not_valid_before_utc <= now <= cert.not_valid_after_utc:
                raise PkiError(f"certificate {path} is not valid now (valid {cert.not_valid_before_utc:%Y-%m-%d} "
                               f"to {cert.not_valid_after_utc:%Y-%m-%d}): {fix}")
            if first_expiry is None or cert.not_valid_after_utc < first_expiry:
                first_expiry = cert.not_valid_after_utc
        assert first_expiry is not None
        return first_expiry

    def read(self, name: str) -> tuple[bytes, bytes, bytes]:
        """(CA bundle, certificate chain, private key) of one identity, for gRPC credentials."""
        return self.ca.read_bytes(), self.cert(name).read_bytes(), self.key(name).read_bytes()


def _name(common_name: str) -> x509.Name:
    return x509.Name([x509.NameAttribute(NameOID.ORGANIZATION_NAME, "ztgate suite"),
                      x509.NameAttribute(NameOID.COMMON_NAME, common_name)])


def _write(path: Path, data: bytes, mode: int) -> None:
    # Created with its final mode: a private key is never readable by others, not even briefly.
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, mode)
    with os.fdopen(fd, "wb") as handle:
        handle.write(data)
    os.chmod(path, mode)


def _pem(cert: x509.Certificate) -> bytes:
    return cert.public_bytes(serialization.Encoding.PEM)


def create(directory: Path, *, force: bool = False, days: int = DEFAULT_DAYS,
           extra_names: tuple[str, ...] = ()) -> Pki:
    """Issues a fresh CA and every identity's certificate into `directory`.

    `extra_names` are more DNS names for the servers (a host name their clients dial)."""
    directory = directory.expanduser()
    pki = Pki(directory)
    if pki.exists() and not force:
        raise PkiError(f"{directory} already holds a suite CA; pass --force to issue a new set "
                       "(every part of a running suite must then restart)")
    directory.mkdir(parents=True, exist_ok=True)
    os.chmod(directory, 0o700)
    now = dt.datetime.now(dt.UTC) - dt.timedelta(minutes=5)  # tolerate small clock skew
    until = now + dt.timedelta(days=days)
    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca_name = _name("ztgate suite CA")
    ca = (x509.CertificateBuilder().subject_name(ca_name).issuer_name(ca_name)
          .public_key(ca_key.public_key()).serial_number(x509.random_serial_number())
          .not_valid_before(now).not_valid_after(until)
          .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
          .add_extension(x509.KeyUsage(digital_signature=False, content_commitment=False,
                                       key_encipherment=False, data_encipherment=False,
                                       key_agreement=False, key_cert_sign=True, crl_sign=True,
                                       encipher_only=False, decipher_only=False), critical=True)
          .add_extension(x509.SubjectKeyIdentifier.from_public_key(ca_key.public_key()), critical=False)
          .sign(ca_key, hashes.SHA256()))
    _write(pki.ca, _pem(ca), 0o644)
    for name in IDENTITIES:
        key = ec.generate_private_key(ec.SECP256R1())
        usages = [] if name == GATEWAY else [ExtendedKeyUsageOID.CLIENT_AUTH]
        alt: list[x509.GeneralName] = [x509.DNSName(name)]
        if name in SERVERS or name == GATEWAY:
            usages.insert(0, ExtendedKeyUsageOID.SERVER_AUTH)
            alt += [x509.DNSName(n) for n in (*_LOOPBACK_NAMES, *extra_names)]
            alt += [x509.IPAddress(ipaddress.ip_address(ip)) for ip in _LOOPBACK_IPS]
        cert = (x509.CertificateBuilder().subject_name(_name(name)).issuer_name(ca_name)
                .public_key(key.public_key()).serial_number(x509.random_serial_number())
                .not_valid_before(now).not_valid_after(until)
                .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
                .add_extension(x509.KeyUsage(digital_signature=True, content_commitment=False,
                                             key_encipherment=False, data_encipherment=False,
                                             key_agreement=False, key_cert_sign=False, crl_sign=False,
                                             encipher_only=False, decipher_only=False), critical=True)
                .add_extension(x509.ExtendedKeyUsage(usages), critical=False)
                .add_extension(x509.SubjectAlternativeName(alt), critical=False)
                .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(ca_key.public_key()),
                               critical=False)
                .sign(ca_key, hashes.SHA256()))
        _write(pki.key(name), key.private_bytes(serialization.Encoding.PEM,
                                                serialization.PrivateFormat.PKCS8,
                                                serialization.NoEncryption()), 0o600)
        _write(pki.cert(name), _pem(cert), 0o644)
    return pki


def operator_tls(mesh: MeshSettings) -> ClientTlsSettings | None:
    """The operator's client credentials (`ztgate up`/`status` health checks, `ztgate redact
    --address SERVICE`), None when the suite runs without mTLS."""
    return part_tls(mesh, OPERATOR)


def part_tls(mesh: MeshSettings, part: str) -> ClientTlsSettings | None:
    """The client credentials of one identity of the suite, None when it runs without mTLS."""
    if not mesh.mtls:
        return None
    suite = Pki.of(mesh)
    return ClientTlsSettings(ca=suite.ca, cert=suite.cert(part), key=suite.key(part))


def server_tls(directory: Path, part: str, callers: tuple[str, ...]) -> TlsSettings:
    """The listener settings of `part` from the certificates in `directory`, taking calls from
    `callers` only."""
    suite = Pki(directory)
    return TlsSettings(cert=suite.cert(part), key=suite.key(part), client_ca=suite.ca,
                       allowed_clients=callers)
