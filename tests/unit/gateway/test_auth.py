"""Gateway tokens: keys from `ztgate token keygen` and the tokens `ztgate token mint` signs."""

from __future__ import annotations

import json
import stat

import jwt
import pytest

from ztgate.cli import main
from ztgate.gateway.auth import TokenError, keygen, mint


def _verify(token: str, jwks_path, **options) -> dict:
    [jwk] = json.loads(jwks_path.read_text())["keys"]
    key = jwt.PyJWK(jwk).key
    return jwt.decode(token, key, algorithms=["ES256"], audience="ztgate-gateway", issuer="ztgate",
                      **options)


def test_a_minted_token_verifies_against_the_jwks_with_its_tenant(tmp_path) -> None:
    key, jwks = keygen(tmp_path)
    token = mint(key, tenant="acme", issuer="ztgate", audience="ztgate-gateway", ttl_s=60)
    claims = _verify(token, jwks)
    [jwk] = json.loads(jwks.read_text())["keys"]
    assert jwt.get_unverified_header(token)["kid"] == jwk["kid"] and "d" not in jwk  # public half only
    assert claims["tenant"] == "acme" and claims["sub"] == "acme" and claims["exp"] - claims["iat"] == 60
    assert claims["scope"] == "inference redaction"  # by default a token may call both APIs
    assert stat.S_IMODE(key.stat().st_mode) == 0o600  # the private key is the owner's alone


def test_scopes_are_a_space_separated_claim_and_unknown_ones_are_refused(tmp_path) -> None:
    key, jwks = keygen(tmp_path)
    base = {"tenant": "acme", "issuer": "ztgate", "audience": "ztgate-gateway"}
    assert _verify(mint(key, **base, scopes=("inference",), scope_claim="scp"), jwks)["scp"] == "inference"
    assert "scope" not in _verify(mint(key, **base, scopes=()), jwks)
    with pytest.raises(TokenError, match="unknown scope admin: the gateway knows inference, redaction"):
        mint(key, **base, scopes=("inference", "admin"))


def test_expired_tokens_and_other_keys_do_not_verify(tmp_path) -> None:
    key, jwks = keygen(tmp_path / "a")
    other, _ = keygen(tmp_path / "b")
    with pytest.raises(jwt.ExpiredSignatureError):
        _verify(mint(key, tenant="acme", issuer="ztgate", audience="ztgate-gateway", ttl_s=1, now=1e9), jwks)
    with pytest.raises(jwt.InvalidSignatureError):
        _verify(mint(other, tenant="acme", issuer="ztgate", audience="ztgate-gateway"), jwks)


def test_keygen_does_not_replace_a_key_unless_forced(tmp_path) -> None:
    key, _ = keygen(tmp_path)
    before = key.read_bytes()
    with pytest.raises(TokenError, match="--force"):
        keygen(tmp_path)
    keygen(tmp_path, force=True)
    assert key.read_bytes() != before


@pytest.mark.parametrize("setup, words", [
    (lambda p: None, "ztgate token keygen"),
    (lambda p: (p / "signing-key.pem").write_text("not a key"), "not a key from"),
    (lambda p: (p / "signing-key.pem").write_text("# kid: 1\n-----BEGIN PRIVATE KEY-----\nxx\n"),
     "no readable private key"),
])
def test_mint_says_what_is_wrong_with_the_key(tmp_path, setup, words) -> None:
    setup(tmp_path)
    with pytest.raises(TokenError, match=words):
        mint(tmp_path / "signing-key.pem", tenant="acme", issuer="i", audience="a")


def test_the_cli_makes_keys_and_prints_a_token(tmp_path, capsys) -> None:
    assert main(["token", "keygen", "--out", str(tmp_path)]) == 0
    assert main(["token", "mint", "--key", str(tmp_path / "signing-key.pem"), "--tenant", "acme",
                 "--ttl-s", "120"]) == 0
    token = capsys.readouterr().out.strip()
    assert _verify(token, tmp_path / "jwks.json")["tenant"] == "acme"
    assert main(["token", "keygen", "--out", str(tmp_path)]) == 2  # refuses to overwrite
    assert "--force" in capsys.readouterr().err
    assert main(["token", "mint", "--key", str(tmp_path / "signing-key.pem"), "--tenant", "acme",
                 "--scope", "inference"]) == 0
    assert _verify(capsys.readouterr().out.strip(), tmp_path / "jwks.json")["scope"] == "inference"
    assert main(["token", "mint", "--key", str(tmp_path / "signing-key.pem"), "--tenant", "acme",
                 "--scope", "admin"]) == 2
    assert "unknown scope admin" in capsys.readouterr().err


def test_mint_refuses_a_lifetime_beyond_the_gateways_maximum(tmp_path) -> None:
    key, jwks = keygen(tmp_path)
    base = {"tenant": "acme", "issuer": "ztgate", "audience": "ztgate-gateway"}
    claims = _verify(mint(key, **base, ttl_s=86400), jwks)  # the default maximum, a day, is fine
    assert claims["exp"] - claims["iat"] == 86400
    with pytest.raises(TokenError, match=r"86401 s is longer than gateway.auth.max_token_lifetime_s \(86400 s\)"):
        mint(key, **base, ttl_s=86401)
    with pytest.raises(TokenError, match="--ttl-s 60 or less"):
        mint(key, **base, ttl_s=61, max_ttl_s=60)


def test_the_cli_refuses_a_ttl_above_the_configured_maximum(tmp_path, capsys, monkeypatch) -> None:
    key, _ = keygen(tmp_path)
    monkeypatch.setenv("ZTGATE_GATEWAY__AUTH__MAX_TOKEN_LIFETIME_S", "600")
    assert main(["token", "mint", "--key", str(key), "--tenant", "acme", "--ttl-s", "601"]) == 2
    err = capsys.readouterr().err
    assert "gateway.auth.max_token_lifetime_s (600 s)" in err and "--ttl-s 600 or less" in err
    assert main(["token", "mint", "--key", str(key), "--tenant", "acme", "--ttl-s", "600"]) == 0


def test_the_cli_mints_with_the_key_beside_the_configured_jwks(tmp_path, capsys, monkeypatch) -> None:
    from ztgate.gateway.auth import keygen_at

    key, jwks = keygen_at(tmp_path / "volume" / "tokens.json")
    assert key == tmp_path / "volume" / "signing-key.pem" and stat.S_IMODE(key.stat().st_mode) == 0o600
    monkeypatch.setenv("ZTGATE_GATEWAY__AUTH__JWKS_PATH", str(jwks))
    assert main(["token", "mint", "--tenant", "acme"]) == 0
    assert _verify(capsys.readouterr().out.strip(), jwks)["tenant"] == "acme"
