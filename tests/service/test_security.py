"""Bearer-token auth through the interceptor (health stays open) and TLS with a self-signed cert."""

from __future__ import annotations

import shutil
import subprocess

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from lictor.v1 import diagnostics_service_pb2 as diag_pb
from lictor.v1 import game_service_pb2 as game_pb
from service.client import connect, stubs
from service.server import create_server

TOKEN = "s3cret-token"


@pytest.fixture
def auth_server(tmp_path):
    srv, port = create_server("127.0.0.1:0", db_path=tmp_path / "a.db", auth_token=TOKEN)
    yield port
    srv.stop(None).wait(5)
    srv.close()


def test_no_token_is_unauthenticated(auth_server):
    ch = grpc.insecure_channel(f"127.0.0.1:{auth_server}")
    api = stubs(ch)
    with pytest.raises(grpc.RpcError) as err:
        api.games.ListGames(game_pb.ListGamesRequest(), timeout=5)
    assert err.value.code() == grpc.StatusCode.UNAUTHENTICATED
    with pytest.raises(grpc.RpcError) as err:
        api.games.ListGames(
            game_pb.ListGamesRequest(), timeout=5, metadata=[("authorization", "Bearer wrong")]
        )
    assert err.value.code() == grpc.StatusCode.UNAUTHENTICATED
    from lictor.v1 import match_service_pb2 as match_pb

    with pytest.raises(grpc.RpcError) as err:  # streaming methods too
        list(api.matches.WatchMatch(match_pb.WatchMatchRequest(match_id="x"), timeout=5))
    assert err.value.code() == grpc.StatusCode.UNAUTHENTICATED
    # Health stays open.
    health = health_pb2_grpc.HealthStub(ch)
    assert (
        health.Check(health_pb2.HealthCheckRequest(), timeout=5).status
        == health_pb2.HealthCheckResponse.SERVING
    )
    ch.close()


def test_token_is_accepted(auth_server):
    ch = connect(f"127.0.0.1:{auth_server}", token=TOKEN)
    api = stubs(ch)
    assert api.games.ListGames(game_pb.ListGamesRequest(), timeout=5).games
    ch.close()


def _self_signed(tmp_path):
    """(cert PEM, key PEM) for localhost: the cryptography package if installed, else openssl."""
    try:
        import datetime

        from cryptography import x509  # type: ignore[import-not-found]
        from cryptography.hazmat.primitives import hashes, serialization  # type: ignore[import-not-found]
        from cryptography.hazmat.primitives.asymmetric import ec  # type: ignore[import-not-found]
        from cryptography.x509.oid import NameOID  # type: ignore[import-not-found]

        key = ec.generate_private_key(ec.SECP256R1())
        name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "localhost")])
        now = datetime.datetime.now(datetime.UTC)
        cert = (
            x509.CertificateBuilder()
            .subject_name(name)
            .issuer_name(name)
            .public_key(key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(minutes=1))
            .not_valid_after(now + datetime.timedelta(days=1))
            .add_extension(x509.SubjectAlternativeName([x509.DNSName("localhost")]), critical=False)
            .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
            .sign(key, hashes.SHA256())
        )
        return (
            cert.public_bytes(serialization.Encoding.PEM),
            key.private_bytes(
                serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
            ),
        )
    except ImportError:
        pass
    if shutil.which("openssl") is None:
        pytest.skip("neither the cryptography package nor the openssl CLI is available")
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(
        [
            "openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
            "-nodes", "-days", "1", "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost",
            "-keyout", str(key), "-out", str(cert),
        ],
        check=True,
        capture_output=True,
    )  # fmt: skip
    return cert.read_bytes(), key.read_bytes()


def test_tls_handshake_with_a_self_signed_cert(tmp_path):
    cert, key = _self_signed(tmp_path)
    srv, port = create_server(
        "127.0.0.1:0", db_path=tmp_path / "t.db", tls_cert=cert, tls_key=key, auth_token=TOKEN
    )
    try:
        ch = connect(f"localhost:{port}", token=TOKEN, ca_cert=cert)
        api = stubs(ch)
        assert api.diagnostics.Echo(diag_pb.EchoRequest(payload=b"tls"), timeout=10).payload == b"tls"
        ch.close()
        plain = grpc.insecure_channel(f"127.0.0.1:{port}")  # plaintext is refused
        with pytest.raises(grpc.RpcError):
            stubs(plain).diagnostics.Echo(diag_pb.EchoRequest(), timeout=2)
        plain.close()
    finally:
        srv.stop(None).wait(5)
        srv.close()
