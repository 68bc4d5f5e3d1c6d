"""Post-match validators: one parametrized table per validator, valid values and near misses side by side."""

from __future__ import annotations

import datetime as dt
import inspect

import pytest

from ztgate.redaction.detection.patterns import calendars, national_ids
from ztgate.redaction.detection.patterns import validators as v


def _table(valid: list[str], invalid: list[str]) -> list[pytest.param]:
    return ([pytest.param(x, True, id=f"ok:{x[:40]}") for x in valid]
            + [pytest.param(x, False, id=f"no:{x[:40]}") for x in invalid])


@pytest.mark.parametrize(("value", "expected"), _table(
    ["4111111111111111", "4111 1111 1111 1111", "79927398713", "00"],
    ["4111111111111112", "79927398710", "1", ""],
))
def test_luhn(value: str, expected: bool) -> None:
    assert v.luhn(value) is expected


@pytest.mark.parametrize(("value", "expected"), _table(
    ["4111 1111 1111 1111", "4012888888881881", "5500-0000-0000-0004", "2221000000000009", "378282246310005",
     "3782 822463 10005", "6011111111111117", "6500000000000002", "3530111333300000", "30569309025904",
     "4222222222222"],
    ["4111111111111112", "1234567890123456", "9111111111111111", "0000000000000000", "4111 1111 1111",
     "37828224631000", "41111111111111111111", "5500000000000004000"],
))
def test_credit_card(value: str, expected: bool) -> None:
    assert v.credit_card(value) is expected


@pytest.mark.parametrize(("value", "expected"), _table(
    ["DE89 3704 0044 0532 0130 00", "DE89370400440532013000", "GB82WEST12345698765432", "GB82 WEST 1234 5698 7654 32",
     "FR14 2004 1010 0505 0001 3M02 606", "NL91ABNA0417164300", "nl91abna0417164300", "NO9386011117947",
     "MT84MALT011000012345MTLCAST001S"],
    ["DE89 3704 0044 0532 0130 01", "DE89370400440532013", "XX89370400440532013000", "GB82WEST1234569876543",
     "DEAB370400440532013000", "DE89-3704-0044-0532-0130-0Ä", ""],
))
def test_iban(value: str, expected: bool) -> None:
    assert v.iban(value) is expected


@pytest.mark.parametrize(("value", "expected"), _table(
    ["536-22-1234", "536221234", "219-09-9998", "001-01-0001", "665-99-9999", "772 11 0001"],
    ["000-12-3456", "666-12-3456", "900-12-3456", "999-99-9999", "123-00-4567", "123-45-0000", "078-05-1120",
     "219-09-9999", "123-45-6789", "111-11-1111", "53622123", "5362212345"],
))
def test_us_ssn(value: str, expected: bool) -> None:
    assert v.us_ssn(value) is expected


@pytest.mark.parametrize(("value", "expected"), _table(
    ["192.168.10.24", "10.0.0.1", "8.8.8.8", "255.255.255.255", "2001:db8:85a3::8a2e:370:7334", "fe80::1",
     "2001:0db8:0000:0000:0000:ff00:0042:8329", "::ffff:192.0.2.128", "2001:db8::1"],
    ["256.1.1.1", "1.2.3", "1.2.3.4.5", "01.02.03.04", "0.0.0.0", "127.0.0.1", "::1", "::", "1::2", "::2",
     "Abc::Def", "dead::beef", "12:30:45", "00:1A:2B:3C:4D:5E", ""],
))
def test_ip_address(value: str, expected: bool) -> None:
    assert v.ip_address(value) is expected


@pytest.mark.parametrize(("value", "expected"), _table(
    ["00:1A:2B:3C:4D:5E", "00-1a-2b-3c-4d-5e", "001a.2b3c.4d5e", "ff:ff:ff:ff:ff:ff"],
    ["00:1A-2B:3C-4D:5E", "00:1A:2B:3C:4D", "00:00:00:00:00:00", "0000.0000.0000", "00:1A:2B:3C:4D:5G",
     "001a.2b3c.4d5"],
))
def test_mac_address(value: str, expected: bool) -> None:
    assert v.mac_address(value) is expected


@pytest.mark.parametrize(("value", "expected"), _table(
    ["(555) 123-4567", "555-123-4567", "555.123.4567", "1-800-555-0199", "+1 (415) 555-0123", "4155550123",
     "14155550123"],
    ["055-123-4567", "155-123-4567", "555-123-456", "111-111-1111", "2-555-123-4567", "41555501234"],
))
def test_phone_us(value: str, expected: bool) -> None:
    assert v.phone_us(value) is expected


@pytest.mark.parametrize(("value", "expected"), _table(
    ["+14155550123", "+44 20 7946 0958", "+49 30 1234567", "+33 1 23 45 67 89", "+91 98765 43210",
     "+86 138 0013 8000", "+81 3-1234-5678", "+1 (555) 123-4567"],
    ["+12345", "+1234567890123456", "+100 200 300", "+999 1234 5678"],
))
def test_phone_international(value: str, expected: bool) -> None:
    assert v.phone_international(value) is expected


@pytest.mark.parametrize(("value", "expected"), _table(
    ["4155550123", "020 7946 0958", "06 12 34 56 78", "030 1234567", "+44 20 7946 0958", "555 1234"],
    ["2024-03-15", "15/03/2024", "192.168.10.24", "123456", "1111111111", "1234567890123456"],
))
def test_phone_any(value: str, expected: bool) -> None:
    assert v.phone_any(value) is expected


TODAY = dt.date(2025, 6, 1)


@pytest.mark.parametrize(("value", "expected"), _table(
    ["1985-03-12", "12/03/1985", "03/12/1985", "31/12/1999", "12/31/1999", "12.03.1985", "7/4/90", "7/4/05",
     "March 3, 1985", "Mar. 3 1985", "3rd of March 1985", "14 Feb 1972", "29/02/2000", "1900-01-01", "7/4/30"],
    ["2099-01-01", "1899-12-31", "13/13/1985", "31/02/1985", "29/02/1999", "1985-13-01", "Smarch 3, 1985",
     "March 32, 1985", "1985", "12/03", "2025-06-02"],
))
def test_date_of_birth(value: str, expected: bool) -> None:
    assert v.date_of_birth(value, today=TODAY) is expected


@pytest.mark.parametrize(("value", "expected"), _table(
    ["hunter2", "correct horse battery staple", "p@ss w0rd!", "S3cr3tP%40ss", "Tr0ub4dor&3", "abc123",
     "MyPassword123", "\"quoted-secret\"", "Summer", "SuperSecret", "hunTer"],
    ["", "true", "False", "null", "None", "********", "xxxxxxxx", "${DB_PASSWORD}", "$DB_PASS", "{{ vault_pw }}",
     "<your-password>", "[REDACTED]", "os.environ['DB_PASSWORD']", "os.getenv('PW')", "process.env.DB_PASS",
     "self.password", "config.db.password", "your_password_here", "password", "db_password", "DB_PASSWORD", "str)",
     "Optional[str]", "SecretStr", "parse_authorization_basic(authorization)", "params.ClientSecret", "not",
     "%(password)s", "changeme"],
))
def test_password_value(value: str, expected: bool) -> None:
    assert v.password_value(value) is expected


@pytest.mark.parametrize(("value", "expected"), _table(
    ["Tr0ub4dor&3", "hunter22", "p@ssword", "hunTer"],
    ["strict", "incorrect", "Correct", "e-mailed", "abc", "********"],
))
def test_password_like(value: str, expected: bool) -> None:
    assert v.password_like(value) is expected


@pytest.mark.parametrize(("value", "expected"), _table(
    ["zq8Hk2LmN4pR7sT1vW3xY5aB6cD9eF0g", "5f4dcc3b5aa765d61d8327deb882cf99", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
     "qZrTbWmXkLpNvBcDfGhJ", "123e4567-e89b-12d3-a456-426614174000", "AbCdEfGhIjKlMnOpQrSt"],
    ["short1A", "aaaaaaaaaaaaaaaaaaaaaaaa", "get_token_from_env", "read_api_key_from_file", "getAccessTokenFromCache",
     "quantize_fp8_maybe_pad_head_dim", "MAX_RETRY_COUNT_V2", "created_at_timestamp_desc", "your_api_token_here",
     "_ConstantAttributeType", "bert-base-uncased-whole-word", "abababababababababab", "0000000000000000"],
))
def test_high_entropy_secret(value: str, expected: bool) -> None:
    assert v.high_entropy_secret(value) is expected


@pytest.mark.parametrize(("value", "expected"), _table(
    ["sk-proj-Ab3dEf7hIj9kLmN0pQ", "hf_AbCdEfGhIjKlMnOpQrStUvWxYzAbCdEfGh", "sk-Zx81bQ4r9T3BlbkFJkw2"],
    ["sk-this-is-not-a-real-key-at-all", "sk-xxxxxxxxxxxxxxxxxxxxxxxx", "sk-aaaaaaaaaaaaaaaaaaaaaaaa",
     "hf_abcdefghijklmnopqrstuvwxyzabcdefgh"],
))
def test_random_token(value: str, expected: bool) -> None:
    assert v.random_token(value) is expected


@pytest.mark.parametrize(("value", "expected"), _table(
    ["wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "je7MtGbClwBF/2Zp9Utk/h3yCo8nvbEXAMPLEKEY"],
    ["3f786850e387550fdab836ed7e6dc881de23001b", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKE", "A" * 40,
     "org/cpython/file/7aaba721ebc0/Lib/socket", "Data2VecAudioForAudioFrameClassification",
     "0123456789abcdefABCDEFwJalrXUtnFEMI/K7MD"],
))
def test_aws_secret_key(value: str, expected: bool) -> None:
    assert v.aws_secret_key(value) is expected


@pytest.mark.parametrize(("value", "expected"), _table(
    ["eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c",
     "eyJ0eXAiOiJKV1QifQ.eyJhIjoxfQ.c2ln"],
    ["eyJub3QiOiJhIHRva2VuIn0.eyJoZWxsbyI6IndvcmxkIn0.c2lnbmF0dXJl", "eyJhbGciOiJIUzI1NiJ9.eyJzdWIi",
     "eyJ!!!.abc.def", "eyWxyz.abc.def", "WyJhbGciXQ.eyJhIjoxfQ.c2ln"],
))
def test_jwt(value: str, expected: bool) -> None:
    assert v.jwt(value) is expected


@pytest.mark.parametrize(("value", "bits"), [
    ("", 0.0), ("aaaa", 0.0), ("ab", 1.0), ("abcd", 2.0), ("aabb", 1.0), ("0123456789abcdef", 4.0),
])
def test_shannon_entropy(value: str, bits: float) -> None:
    assert v.shannon_entropy(value) == pytest.approx(bits)


def test_registry_names_every_public_validator_and_each_answers_a_bool() -> None:
    public = {name for module in (v, national_ids, calendars) for name, fn in inspect.getmembers(module, inspect.isfunction)
              if fn.__module__ == module.__name__ and not name.startswith("_") and name != "shannon_entropy"}
    assert public == set(v.VALIDATORS)
    for name, fn in v.VALIDATORS.items():
        assert fn("") in (True, False, None), name
        assert fn("x" * 1000) in (True, False, None), name


@pytest.mark.parametrize(("value", "expected"), _table(
    ["8014943418", "7183724181", "(212) 555-0199"],
    ["5551234567", "1699999999", "0123456789", "2125550199123"],
))
def test_phone_us_strict(value: str, expected: bool) -> None:
    assert v.phone_us_strict(value) is expected


@pytest.mark.parametrize(("value", "expected"), _table(
    ["battery-staple-correct-horse83", "Violet7369!GaU", "hunter22", "p@ssword"],
    ["policy", "strict", "sha256", "bcrypt", "abc12", "123456", "reset", "${PASS}"],
))
def test_password_token(value: str, expected: bool) -> None:
    assert v.password_token(value) is expected


@pytest.mark.parametrize(("value", "expected"), _table(
    ["ZJ26GFhRtaX0+3ml1hM9dz0UiAhWRe8F0X6TspGRgPA=", "q7Rk2ZpX9vLmB4tNw8YcH3sD",
     "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"],
    ["short1Ab", "NFCISO15693CustomCommandConfiguration", "Data2VecTextForCausalLM", "getAccessTokenFromCache2",
     "/api/v2/Users/12345/Profile", "alllowercase1234567890abcdef", "ALLUPPERCASE1234567890ABCDEF",
     "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
     "java/src/com/google/i18n/phonenumbers/PhoneNumberUtil", "0123456789abcdefABCDEF"],
))
def test_random_base64(value: str, expected: bool) -> None:
    assert v.random_base64(value) is expected


@pytest.mark.parametrize(("value", "expected"), _table(
    ["5527281d8cfc2fdb99fdf1b0aefd9bf2", "key-90eef00669d1aa6a00305f38e95fabc8",
     "ZJ26GFhRtaX0+3ml1hM9dz0UiAhWRe8F0X6TspGRgPA=", "wrkspc_011CZkZaBF1tNoB5wlCeusgy"],
    ["token_ids_0", "EsmFold2AtomEncoder", "Qwen2_5OmniDecoderLayer", "M2M100ScaledWordEmbedding",
     "2nd_nonlinear_autonomous_conserved_Integral", "proto2/compiler/internal/generator", "_CONFIGSERVICEV2",
     "1234567890123456", "deadbeef12"],
))
def test_bare_secret(value: str, expected: bool) -> None:
    assert v.bare_secret(value) is expected


@pytest.mark.parametrize(("value", "expected"), [
    ("Lot Blewanus", True), ("Igor da Mata", True), ("Seán O'Brien-Walsh", True), ("Alma Mühle", True),
    ("Build And Test", False), ("Hiring Manager", False), ("Docker", False), ("Customer Success Team", False),
    ("lot blewanus", False), ("John2 Smith", False), ("Config.yaml Loader", False),
    ("The Ledger Authors", False), ("Packaging Team", False), ("Apache Software Foundation", False),
])
def test_person_name_refuses_technical_and_common_words(value: str, expected: bool) -> None:
    assert v.person_name(value) is expected


@pytest.mark.parametrize(("value", "expected"), [
    ("Lyon", True), ("New Zealand", True), ("The Hague", True), ("Neustadt am Rübenberge", True),
    ("Default", False), ("Build", False), ("Production", False),
])
def test_place_name_refuses_technical_and_common_words(value: str, expected: bool) -> None:
    assert v.place_name(value) is expected


@pytest.mark.parametrize(("value", "expected"), [
    ("77865 Alyssa Bridge Suite 370", True), ("12 Spring Street", True), ("Junckenring 9/6", True),
    ("Kaiserring 4", True), ("Claus-Dieter-Ruppersberger-Weg 8/1", True), ("Calle Mayor 5", True),
    ("3 Docker Way", False), ("Spring 5", False), ("String 10", False), ("Offering 2", False),
    ("Keyring 3", False), ("Flat 64 Vincent Run", True), ("5 Test Run", False), ("Run", False),
    ("Rubenpad 0", True), ("Koenhof 41", True), ("Karlijnbaan 6", True), ("Notepad 2", False),
    ("Touchpad 3", False), ("Behoof 3", False), ("ul. Długa 90", True), ("ul. Docker 5", False),
])
def test_street_address_refuses_technical_words_and_english_ring_words(value: str, expected: bool) -> None:
    assert v.street_address(value) is expected
