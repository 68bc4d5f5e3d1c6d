"""mTLS inside the suite: the certificates `ztgate certs init` issues, and a service that serves with
them over real gRPC on loopback, accepting only the parts it names.

The service is a generic echo handler written here (a stand-in for "some service"): what is tested
is the runtime's TLS and caller check around it."""

from __future__ import annotations

import datetime as dt
import stat
from collections.abc import AsyncIterator
from pathlib import Path

import grpc
import pytest
from cryptography import x509

from ztgate.common import pki
from ztgate.common.server import Runtime, ServiceSpec
from ztgate.common.settings import ClientTlsSettings, OtelSettings, ServerSettings, TlsSettings
from ztgate.common.tls import client_credentials

SERVICE = "test.v1.Echo"


@pytest.fixture(scope="module")
def suite(tmp_path_factory: pytest.TempPathFactory) -> pki.Pki:
    return pki.create(tmp_path_factory.mktemp("pki") / "suite")


def _spec() -> ServiceSpec:
    async def echo(request: bytes, context: grpc.aio.ServicerContext) -> bytes:
        return b"echo:" + request

    async def chunks(request: bytes, context: grpc.aio.ServicerContext) -> AsyncIterator[bytes]:
        yield b"1:" + request
        yield b"2:" + request

    def register(server: grpc.aio.Server) -> None:
        server.add_generic_rpc_handlers([grpc.method_handlers_generic_handler(SERVICE, {
            "Echo": grpc.unary_unary_rpc_method_handler(echo),
            "Chunks": grpc.unary_stream_rpc_method_handler(chunks)})])

    async def start() -> None:
        return None

    return ServiceSpec(name="echo", service_names=[SERVICE], register=register, start=start)


@pytest.fixture
async def redaction_like(suite: pki.Pki) -> AsyncIterator[int]:
    """A server with the redaction service's certificate that accepts only Envoy and the operator."""
    tls = TlsSettings(cert=suite.cert(pki.REDACTION), key=suite.key(pki.REDACTION), client_ca=suite.ca,
                      allowed_clients=(pki.ENVOY, pki.OPERATOR))
    runtime = Runtime(_spec(), ServerSettings(listen="127.0.0.1:0", tls=tls, shutdown_grace_s=0),
                      OtelSettings())
    port = await runtime.start()
    yield port
    await runtime.stop()


def _as(suite: pki.Pki, name: str | None) -> grpc.ChannelCredentials:
    if name is None:
        return client_credentials(ClientTlsSettings(ca=suite.ca))
    return client_credentials(ClientTlsSettings(ca=suite.ca, cert=suite.cert(name), key=suite.key(name)))


async def _echo(port: int, creds: grpc.ChannelCredentials | None, host: str = "127.0.0.1") -> bytes:
    target = f"{host}:{port}"
    channel = grpc.aio.secure_channel(target, creds) if creds else grpc.aio.insecure_channel(target)
    async with channel:
        return await channel.unary_unary(f"/{SERVICE}/Echo")(b"hi", timeout=5)


def test_certs_init_issues_every_identity_with_private_keys_closed(suite: pki.Pki) -> None:
    expiry = suite.check()
    assert dt.timedelta(days=360) < expiry - dt.datetime.now(dt.UTC) < dt.timedelta(days=366)
    assert stat.S_IMODE(suite.dir.stat().st_mode) == 0o700
    for name in pki.IDENTITIES:
        assert stat.S_IMODE(suite.key(name).stat().st_mode) == 0o600
        cert = x509.load_pem_x509_certificate(suite.cert(name).read_bytes())
        assert cert.subject.get_attributes_for_oid(x509.NameOID.COMMON_NAME)[0].value == name
        dns = cert.extensions.get_extension_for_class(x509.SubjectAlternativeName).value.get_values_for_type(
            x509.DNSName)
        assert name in dns
        usages = set(cert.extensions.get_extension_for_class(x509.ExtendedKeyUsage).value)
        assert (x509.ExtendedKeyUsageOID.SERVER_AUTH in usages) == (name in (*pki.SERVERS, pki.GATEWAY))
        assert (x509.ExtendedKeyUsageOID.CLIENT_AUTH in usages) == (name != pki.GATEWAY)
    assert not list(suite.dir.glob("ca*.key"))  # the CA's key is never written


def test_certs_init_refuses_to_overwrite_without_force(tmp_path: Path) -> None:
    first = pki.create(tmp_path / "p")
    ca = first.ca.read_bytes()
    with pytest.raises(pki.PkiError, match="--force"):
        pki.create(tmp_path / "p")
    assert pki.create(tmp_path / "p", force=True).ca.read_bytes() != ca


def test_check_names_what_is_missing_or_expired_and_what_to_run(tmp_path: Path) -> None:
    with pytest.raises(pki.PkiError, match="holds no suite certificates: run `ztgate certs init"):
        pki.Pki(tmp_path / "none").check()
    made = pki.create(tmp_path / "p", days=30)
    made.key(pki.ENVOY).unlink()
    with pytest.raises(pki.PkiError, match=r"lacks envoy\.key: run `ztgate certs init --dir .* --force`"):
        made.check()
    later = pki.create(tmp_path / "q", days=30)
    with pytest.raises(pki.PkiError, match="is not valid now"):
        later.check(now=dt.datetime.now(dt.UTC) + dt.timedelta(days=31))


def test_caller_names_without_a_client_ca_are_refused_at_load(suite: pki.Pki) -> None:
    with pytest.raises(ValueError, match="allowed_clients needs tls.client_ca"):
        TlsSettings(cert=suite.cert(pki.REDACTION), key=suite.key(pki.REDACTION), allowed_clients=(pki.ENVOY,))


async def test_envoy_and_the_operator_are_served(suite: pki.Pki, redaction_like: int) -> None:
    assert await _echo(redaction_like, _as(suite, pki.ENVOY)) == b"echo:hi"
    assert await _echo(redaction_like, _as(suite, pki.OPERATOR), host="localhost") == b"echo:hi"


async def test_another_part_of_the_suite_is_refused_by_name(
        suite: pki.Pki, redaction_like: int, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level("WARNING", logger="ztgate.common.tls"), pytest.raises(grpc.aio.AioRpcError) as info:
        await _echo(redaction_like, _as(suite, pki.INFERENCE_PRIMARY))
    assert info.value.code() == grpc.StatusCode.PERMISSION_DENIED
    assert "inference-primary may not call this service" in (info.value.details() or "")
    [refused] = [r for r in caplog.records if getattr(r, "event", "") == "caller_refused"]
    assert refused.caller == pki.INFERENCE_PRIMARY and refused.method == f"/{SERVICE}/Echo"
    # Streams too: refused before the first message.
    async with grpc.aio.secure_channel(f"127.0.0.1:{redaction_like}", _as(suite, pki.TELEMETRY)) as channel:
        call = channel.unary_stream(f"/{SERVICE}/Chunks")(b"x", timeout=5)
        with pytest.raises(grpc.aio.AioRpcError) as info:
            [chunk async for chunk in call]
    assert info.value.code() == grpc.StatusCode.PERMISSION_DENIED


async def test_no_certificate_plaintext_or_another_suites_certificates_never_connect(
        suite: pki.Pki, redaction_like: int, tmp_path: Path) -> None:
    other = pki.create(tmp_path / "other")
    # Presenting another suite's certificate; trusting another suite's CA (so not this server).
    foreign_client = ClientTlsSettings(ca=suite.ca, cert=other.cert(pki.ENVOY), key=other.key(pki.ENVOY))
    foreign_server = ClientTlsSettings(ca=other.ca, cert=other.cert(pki.ENVOY), key=other.key(pki.ENVOY))
    for creds in (_as(suite, None), None, client_credentials(foreign_client), client_credentials(foreign_server)):
        with pytest.raises(grpc.aio.AioRpcError) as info:
            await _echo(redaction_like, creds)
        assert info.value.code() == grpc.StatusCode.UNAVAILABLE
