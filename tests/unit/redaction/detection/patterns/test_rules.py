"""Every catalogue rule: true positives in realistic sentences and near misses side by side, exact value spans."""

from __future__ import annotations

import random
import string
from pathlib import Path

import pytest

from ztgate.redaction.detection.patterns.catalogue import load_catalogue
from ztgate.redaction.detection.patterns.scanner import PatternScanner
from ztgate.redaction.types import Detection

_rng = random.Random(20240611)


def tok(n: int, alphabet: str = string.ascii_letters + string.digits) -> str:
    """A random-looking token body (deterministic), with at least one digit and one capital."""
    body = "".join(_rng.choice(alphabet) for _ in range(n))
    if alphabet == string.ascii_letters + string.digits and n >= 4:
        body = body[:-2] + _rng.choice(string.digits) + _rng.choice(string.ascii_uppercase)
    return body


GHP = "ghp_" + tok(36)
GHO = "gho_" + tok(36)
GH_PAT = "github_pat_11A" + tok(19) + "_" + tok(59)
GLPAT = "glpat-" + tok(20)
XOXB = f"xoxb-{_rng.randrange(10**11, 10**12)}-{_rng.randrange(10**12, 10**13)}-{tok(24)}"
XAPP = f"xapp-1-A{_rng.randrange(10**9, 10**10)}-{_rng.randrange(10**12, 10**13)}-{tok(64, '0123456789abcdef')}"
SLACK_HOOK = f"https://hooks.slack.com/services/T{tok(8).upper()}/B{tok(8).upper()}/{tok(24)}"
SK_LIVE = "sk_live_" + tok(24)
RK_LIVE = "rk_live_" + tok(24)
SK_TEST = "sk_test_" + tok(24)
WHSEC = "whsec_" + tok(32)
AIZA = "AIza" + tok(35, string.ascii_letters + string.digits + "-_")
GOCSPX = "GOCSPX-" + tok(28)
YA29 = "ya29." + tok(60, string.ascii_letters + string.digits + "-_")
OPENAI_LEGACY = "sk-" + tok(20) + "T3BlbkFJ" + tok(20)
OPENAI_PROJ = "sk-proj-" + tok(74) + "-" + tok(40) + "_" + tok(30)
ANTHROPIC = "sk-ant-api03-" + tok(80) + "-" + tok(10) + "AA"
MAILGUN = "key-" + tok(32, "0123456789abcdef")
HF = "hf_" + "".join(_rng.choice([c.upper(), c]) for c in (_rng.choice(string.ascii_lowercase) for _ in range(34)))
NPM = "npm_" + tok(36)
PYPI = "pypi-AgEIcHlwaS5vcmc" + tok(60)
SENDGRID = "SG." + tok(22) + "." + tok(43)
AZURE_KEY = tok(86) + "=="
TELEGRAM = f"{_rng.randrange(10**8, 10**9)}:AA" + tok(33)
JWT = ("eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ"
       ".SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c")
NOT_A_JWT = "eyJub3QiOiJhIHRva2VuIn0.eyJoZWxsbyI6IndvcmxkIn0.c2lnbmF0dXJlLWhlcmU"  # header {"not": "a token"}
AWS_SECRET = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"
AWS_SECRET_2 = tok(40, string.ascii_letters + string.digits + "+/")
GIT_SHA = "3f786850e387550fdab836ed7e6dc881de23001b"
SHA256 = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
UUID = "123e4567-e89b-12d3-a456-426614174000"
HIGH_ENTROPY = "zq8Hk2LmN4pR7sT1vW3xY5aB6cD9eF0g"
HEX_KEY = "5f4dcc3b5aa765d61d8327deb882cf99"
B64_KEY = "ZJ26GFhRtaX0+3ml1hM9dz0UiAhWRe8F0X6TspGRgPA="
B62_KEY = "q7Rk2ZpX9vLmB4tNw8YcH3sD"
PEM_BODY = "\n".join(tok(64, string.ascii_letters + string.digits + "+/") for _ in range(6)) + "\n" + tok(20) + "=="


def pem(kind: str) -> str:
    label = f"{kind} PRIVATE KEY".strip()
    return f"-----BEGIN {label}-----\n{PEM_BODY}\n-----END {label}-----"


ENCRYPTED_PEM = ("-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,3F17F5316E2BAC89\n\n"
                 f"{PEM_BODY}\n-----END RSA PRIVATE KEY-----")
PEM_NO_END = f"-----BEGIN OPENSSH PRIVATE KEY-----\n{PEM_BODY}"

# (rule id, entity type, text, the value: the exact text the finding must cover, or a tuple of values)
POSITIVES = [
    # --- email
    ("email_address", "EMAIL_ADDRESS", "Please reply to jane.doe@example.com by Friday.", "jane.doe@example.com"),
    ("email_address", "EMAIL_ADDRESS", "cc: Ops <ops+alerts@mail.corp.example.co.uk>",
     "ops+alerts@mail.corp.example.co.uk"),
    ("email_address", "EMAIL_ADDRESS", "contact=j_smith-42@sub-domain.example.org;",
     "j_smith-42@sub-domain.example.org"),
    ("email_address", "EMAIL_ADDRESS", "schreib an josé.müller@bücher.de bitte", "josé.müller@bücher.de"),
    ("email_address", "EMAIL_ADDRESS", "メールはyamada@example.jpです", "yamada@example.jp"),
    # --- phones
    ("phone_us_formatted", "PHONE_NUMBER", "You can reach me at (555) 123-4567 after 5pm.", "(555) 123-4567"),
    ("phone_us_formatted", "PHONE_NUMBER", "Her cell is 555-123-4567.", "555-123-4567"),
    ("phone_us_formatted", "PHONE_NUMBER", "Office: 415.555.0123, ask for Sam", "415.555.0123"),
    ("phone_us_formatted", "PHONE_NUMBER", "Toll free 1-800-555-0199 any time", "1-800-555-0199"),
    ("phone_us_formatted", "PHONE_NUMBER", "Call +1 (415) 555-0123 today", "+1 (415) 555-0123"),
    ("phone_international", "PHONE_NUMBER", "My number is +14155550123, text me.", "+14155550123"),
    ("phone_international", "PHONE_NUMBER", "London office: +44 20 7946 0958.", "+44 20 7946 0958"),
    ("phone_international", "PHONE_NUMBER", "Berlin: +49 30 1234567", "+49 30 1234567"),
    ("phone_international", "PHONE_NUMBER", "Paris +33 1 23 45 67 89 (standard)", "+33 1 23 45 67 89"),
    ("phone_with_context", "PHONE_NUMBER", "You can reach her at 2123 4567 after 5pm.", "2123 4567"),
    ("phone_with_context", "PHONE_NUMBER", "0991 23 45 67 (mobile)", "0991 23 45 67"),
    ("phone_with_context", "PHONE_NUMBER", "my mobile is 8 (912) 345-67-89.", "8 (912) 345-67-89"),
    ("phone_international", "PHONE_NUMBER", "Abidjan: +225 21 23 4 56789", "+225 21 23 4 56789"),
    ("email_address", "EMAIL_ADDRESS", "Write to o'brien@example.com please.", "o'brien@example.com"),
    ("email_address", "EMAIL_ADDRESS", "почта: info@пример.рф.", "info@пример.рф"),
    ("email_address", "EMAIL_ADDRESS", "mail anna@example.xn--p1ai now", "anna@example.xn--p1ai"),
    ("email_address", "EMAIL_ADDRESS", "mail: Anna.Berg+News@Shop.Photography", "Anna.Berg+News@Shop.Photography"),
    ("phone_with_context", "PHONE_NUMBER", "call me at 4155550123 tomorrow", "4155550123"),
    ("phone_us_bare", "PHONE_NUMBER", "Chad Rowland,chad@example.com,8014943418,Santiago", "8014943418"),
    ("phone_us_bare", "PHONE_NUMBER", "text the confirmation to 7183724181.", "7183724181"),
    ("phone_with_context", "PHONE_NUMBER", "Phone: 020 7946 0958", "020 7946 0958"),
    ("phone_with_context", "PHONE_NUMBER", "mobile 06 12 34 56 78, evenings only", "06 12 34 56 78"),
    ("phone_national_layout", "PHONE_NUMBER", "1042,Siobhan O'Connor,s@x.ie,020 7946 0321,Galway", "020 7946 0321"),
    ("phone_national_layout", "PHONE_NUMBER", "Telefono: 030 12345678", "030 12345678"),
    ("phone_national_layout", "PHONE_NUMBER", "Standard : 01 23 45 67 89 (Paris)", "01 23 45 67 89"),
    ("phone_national_layout", "PHONE_NUMBER", "Ring (0161) 496 0000 after six", "(0161) 496 0000"),
    ("phone_national_layout", "PHONE_NUMBER", "電話: 03-1234-5678", "03-1234-5678"),
    # --- cards
    ("credit_card_grouped", "CREDIT_CARD", "Visa 4111 1111 1111 1111 exp 12/27", "4111 1111 1111 1111"),
    ("credit_card_grouped", "CREDIT_CARD", "charge card 5500-0000-0000-0004 please", "5500-0000-0000-0004"),
    ("credit_card_grouped", "CREDIT_CARD", "Amex: 3782 822463 10005", "3782 822463 10005"),
    ("credit_card_grouped", "CREDIT_CARD", "Discover 6011 1111 1111 1117.", "6011 1111 1111 1117"),
    ("credit_card_grouped", "CREDIT_CARD", "ref 1 4111 1111 1111 1111 done", "4111 1111 1111 1111"),
    ("credit_card_contiguous", "CREDIT_CARD", "my card number is 4012888888881881 thanks", "4012888888881881"),
    ("credit_card_contiguous", "CREDIT_CARD", "pan=2221000000000009", "2221000000000009"),
    ("credit_card_contiguous", "CREDIT_CARD", "amex 378282246310005", "378282246310005"),
    # --- SSN
    ("us_ssn_dashed", "US_SSN", "Applicant SSN 536-22-1234 on file", "536-22-1234"),
    ("us_ssn_dashed", "US_SSN", "ssn:219-09-9998", "219-09-9998"),
    ("us_ssn_with_context", "US_SSN", "SSN: 536221234", "536221234"),
    ("us_ssn_with_context", "US_SSN", "her social security number is 536 22 1234.", "536 22 1234"),
    # --- IBAN
    ("iban", "IBAN_CODE", "Wire to DE89 3704 0044 0532 0130 00 today", "DE89 3704 0044 0532 0130 00"),
    ("iban", "IBAN_CODE", "IBAN: GB82WEST12345698765432", "GB82WEST12345698765432"),
    ("iban", "IBAN_CODE", "FR14 2004 1010 0505 0001 3M02 606 (Paris branch)", "FR14 2004 1010 0505 0001 3M02 606"),
    ("iban", "IBAN_CODE", "account NL91ABNA0417164300.", "NL91ABNA0417164300"),
    # --- IP
    ("ipv4_address", "IP_ADDRESS", "The server at 192.168.10.24 is down.", "192.168.10.24"),
    ("ipv4_address", "IP_ADDRESS", "ssh root@10.0.0.1", "10.0.0.1"),
    ("ipv4_address", "IP_ADDRESS", "allow 203.0.113.7/32", "203.0.113.7"),
    ("ipv6_address", "IP_ADDRESS", "client 2001:db8:85a3::8a2e:370:7334 connected", "2001:db8:85a3::8a2e:370:7334"),
    ("ipv6_address", "IP_ADDRESS", "ping fe80::1 now", "fe80::1"),
    ("ipv6_address", "IP_ADDRESS", "listen [2001:db8::1]:8080", "2001:db8::1"),
    ("ipv6_address", "IP_ADDRESS", "addr 2001:0db8:0000:0000:0000:ff00:0042:8329.",
     "2001:0db8:0000:0000:0000:ff00:0042:8329"),
    ("ipv6_address", "IP_ADDRESS", "mapped ::ffff:192.0.2.128 here", "::ffff:192.0.2.128"),
    # --- MAC
    ("mac_address", "MAC_ADDRESS", "device 00:1A:2B:3C:4D:5E joined", "00:1A:2B:3C:4D:5E"),
    ("mac_address", "MAC_ADDRESS", "hw=00-1a-2b-3c-4d-5e;", "00-1a-2b-3c-4d-5e"),
    ("mac_address", "MAC_ADDRESS", "Cisco mac 001a.2b3c.4d5e", "001a.2b3c.4d5e"),
    # --- dates of birth
    ("date_of_birth_numeric", "DATE_OF_BIRTH", "Patient born on 1985-03-12 in Leeds.", "1985-03-12"),
    ("date_of_birth_numeric", "DATE_OF_BIRTH", "DOB: 03/12/1985", "03/12/1985"),
    ("date_of_birth_numeric", "DATE_OF_BIRTH", "Date of birth 12.03.1985, male", "12.03.1985"),
    ("date_of_birth_numeric", "DATE_OF_BIRTH", "1990-07-04 (date of birth)", "1990-07-04"),
    ("date_of_birth_numeric", "DATE_OF_BIRTH", "birthdate=7/4/90", "7/4/90"),
    ("date_of_birth_text", "DATE_OF_BIRTH", "Her birthday is March 3, 1985.", "March 3, 1985"),
    ("date_of_birth_other_calendars", "DATE_OF_BIRTH", "生年月日：平成8年11月3日", "平成8年11月3日"),
    ("date_of_birth_other_calendars", "DATE_OF_BIRTH", "تاريخ الميلاد: ١٢ آذار ١٩٩٤", "١٢ آذار ١٩٩٤"),
    ("date_of_birth_other_calendars", "DATE_OF_BIRTH", "Data urodzenia: 17.XI.1979.", "17.XI.1979"),
    ("uk_sort_code", "ID_NUMBER", "My sort code is 20-41-87, thanks.", "20-41-87"),
    ("postcode_after_cue", "LOCATION", "Ship it to my postal code M4C 1B5, please.", "M4C 1B5"),
    ("date_of_birth_text", "DATE_OF_BIRTH", "I was born on the 3rd of March 1985", "3rd of March 1985"),
    ("date_of_birth_text", "DATE_OF_BIRTH", "D.O.B.: 14 Feb 1972", "14 Feb 1972"),
    # --- other dates tied to a person (age, life events, a patient's stay)
    ("personal_date_numeric", "DATE_OF_BIRTH", "My son turns 16 on 11/09/2009.", "11/09/2009"),
    ("personal_date_numeric", "DATE_OF_BIRTH", "Patient was admitted on 2023-04-05.", "2023-04-05"),
    ("personal_date_text", "DATE_OF_BIRTH", "Our wedding anniversary is November 9th, 2009.", "November 9th, 2009"),
    ("birthday_day_month", "DATE_OF_BIRTH", "My uncle, who turns 60 on 3 March, loves jazz.", "3 March"),
    ("date_of_birth_intl_text", "DATE_OF_BIRTH", "Ich bin am 3. Mai 1985 geboren.", "3. Mai 1985"),
    ("date_of_birth_cjk", "DATE_OF_BIRTH", "She was born 2001年11月20日 in Kobe.", "2001年11月20日"),
    ("labelled_id_marked", "ID_NUMBER", "My student no. 20190042 is on the form.", "20190042"),
    ("labelled_id_marked", "ID_NUMBER", "Employee ID: QX-55012 needs access.", "QX-55012"),
    ("labelled_id_marked", "ID_NUMBER", "badge no. 551203-Q", "551203-Q"),
    ("labelled_id_self", "ID_NUMBER", "MRN 0033817264, admitted yesterday.", "0033817264"),
    ("labelled_id_marked", "ID_NUMBER", "Her employee ID is QX-55012 and she starts Monday.", "QX-55012"),
    ("labelled_id_self", "ID_NUMBER", "His MRN is 0033817264.", "0033817264"),
    ("labelled_id_self", "ID_NUMBER", "Personalnummer 5521-0841", "5521-0841"),
    ("labelled_id_bare", "ID_NUMBER", "member 77 301 554 called", "77 301 554"),
    ("labelled_id_bare", "ID_NUMBER", "passport X1234567", "X1234567"),
    # --- the generalised classes (issue #29, pii-values-general): any wording of a label, any date format
    ("labelled_id_marked", "ID_NUMBER", "My membership no. 7 expired.", "7"),
    ("labelled_id_marked", "ID_NUMBER", "Socio n° 042, al día.", "042"),
    ("labelled_id_marked", "ID_NUMBER", "cliente núm. X9Q-77", "X9Q-77"),
    ("labelled_id_marked", "ID_NUMBER", "Member Nr. AB-12-345 bitte", "AB-12-345"),
    ("labelled_id_self", "ID_NUMBER", "Her badge is 88, his is 91.", "88"),
    ("labelled_id_self", "ID_NUMBER", "my library card 4471 expired", "4471"),
    ("labelled_id_self", "ID_NUMBER", "Kundennr. 4471", "4471"),
    ("labelled_id_self", "ID_NUMBER", "numéro de client 88 21", "88"),
    ("labelled_id_self", "ID_NUMBER", "Case no. 12-0045 was closed.", "12-0045"),
    ("labelled_id_bare", "ID_NUMBER", "patient X9Q-77 is in bed 4", "X9Q-77"),
    # national identifiers after their own label (national-ids)
    ("national_id_br_cpf", "ID_NUMBER", "Meu CPF é o CPF 123.456.789-09, obrigado.", "123.456.789-09"),
    ("national_id_ca_sin", "ID_NUMBER", "Payroll needs my SIN 046 454 286 today.", "046 454 286"),
    ("national_id_tr_tckn", "ID_NUMBER", "T.C. kimlik no: 10000000146", "10000000146"),
    ("national_id_fi_hetu", "ID_NUMBER", "Henkilötunnus 131052-308T, Helsinki", "131052-308T"),
    ("national_id_in_pan", "ID_NUMBER", "PAN card no. ABCPE1234F attached", "ABCPE1234F"),
    ("national_id_co_cedula", "ID_NUMBER", "tarjeta de identidad 1.023.456.789", "1.023.456.789"),
    ("national_id_cl_rut", "ID_NUMBER", "RUT 12.345.678-5 sin teléfono", "12.345.678-5"),
    # rules/national_ids.yaml: values made by ztgate_bench.national_ids (seed 2020), a label only where required
    ("national_id_it_codice_fiscale", "ID_NUMBER", "Alex Morgan (OPLNRF62S65L173Z) asked again.", "OPLNRF62S65L173Z"),
    ("national_id_es_dni", "ID_NUMBER", "Alex Morgan (39277127G) asked again.", "39277127G"),
    ("national_id_es_nie", "ID_NUMBER", "Alex Morgan (Y0531819G) asked again.", "Y0531819G"),
    ("national_id_cz_rodne_cislo_slashed", "ID_NUMBER", "Alex Morgan (630121/7340) asked again.", "630121/7340"),
    ("national_id_cz_rodne_cislo_bare", "ID_NUMBER", "Signed, Alex Morgan, rodné číslo 8601209331.", "8601209331"),
    ("national_id_be_national_number_dotted", "ID_NUMBER", "Alex Morgan (98.03.24-669.40) asked again.", "98.03.24-669.40"),
    ("national_id_be_national_number_bare", "ID_NUMBER", "Signed, Alex Morgan, rijksregisternummer 90082851113.", "90082851113"),
    ("national_id_fr_nir", "ID_NUMBER", "Alex Morgan (1 70 09 65 120 538 83) asked again.", "1 70 09 65 120 538 83"),
    ("national_id_no_fodselsnummer", "ID_NUMBER", "Alex Morgan (07029655094) asked again.", "07029655094"),
    ("national_id_ro_cnp", "ID_NUMBER", "Alex Morgan (2901025264154) asked again.", "2901025264154"),
    ("national_id_ee_isikukood", "ID_NUMBER", "Alex Morgan (49710133903) asked again.", "49710133903"),
    ("national_id_is_kennitala", "ID_NUMBER", "Alex Morgan (120174-3399) asked again.", "120174-3399"),
    ("national_id_is_kennitala_bare", "ID_NUMBER", "Kennitala: 1201743399, Reykjavík", "1201743399"),
    ("national_id_gr_amka", "ID_NUMBER", "ΑΜΚΑ 15078912340 της μητέρας μου", "15078912340"),
    ("national_id_hr_oib", "ID_NUMBER", "Pitam za sestru, OIB 69435151530.", "69435151530"),
    ("national_id_yu_jmbg", "ID_NUMBER", "Prijava: EMŠO 2207875503147.", "2207875503147"),
    ("national_id_hu_taj", "ID_NUMBER", "Kérdezi a nagymamám, TAJ-szám: 047 812 363.", "047 812 363"),
    ("national_id_cn_resident_id", "ID_NUMBER", "Alex Morgan (320102197509117514) asked again.", "320102197509117514"),
    ("national_id_tw_national_id", "ID_NUMBER", "Alex Morgan (A172860131) asked again.", "A172860131"),
    ("national_id_kr_rrn", "ID_NUMBER", "Alex Morgan (140915-4263073) asked again.", "140915-4263073"),
    ("national_id_sg_nric", "ID_NUMBER", "Alex Morgan (S7894636I) asked again.", "S7894636I"),
    ("national_id_hk_id_bracketed", "ID_NUMBER", "Alex Morgan (Z325197(8)) asked again.", "Z325197(8)"),
    ("national_id_hk_id_bare", "ID_NUMBER", "Signed, Alex Morgan, HKID R6418685.", "R6418685"),
    ("national_id_za_id", "ID_NUMBER", "Alex Morgan (8704057746181) asked again.", "8704057746181"),
    ("national_id_mx_curp", "ID_NUMBER", "Alex Morgan (LUGX680826MDFNZV07) asked again.", "LUGX680826MDFNZV07"),
    ("national_id_ch_ahv_dotted", "ID_NUMBER", "Alex Morgan (756.6659.4750.24) asked again.", "756.6659.4750.24"),
    ("national_id_ch_ahv_bare", "ID_NUMBER", "Signed, Alex Morgan, AHV-Nr. 7568068235725.", "7568068235725"),
    ("national_id_br_cpf_formatted", "ID_NUMBER", "Alex Morgan (986.395.406-32) asked again.", "986.395.406-32"),
    ("national_id_pl_pesel", "ID_NUMBER", "Signed, Alex Morgan, PESEL 57090896286.", "57090896286"),
    ("national_id_se_personnummer", "ID_NUMBER", "Signed, Alex Morgan, personnummer 880926-2424.", "880926-2424"),
    ("national_id_nl_bsn", "ID_NUMBER", "Signed, Alex Morgan, BSN 907858612.", "907858612"),
    ("national_id_bg_egn", "ID_NUMBER", "Signed, Alex Morgan, ЕГН 7804059499.", "7804059499"),
    ("national_id_at_svnr", "ID_NUMBER", "Signed, Alex Morgan, SVNr 7226 140278.", "7226 140278"),
    ("national_id_ie_ppsn", "ID_NUMBER", "Signed, Alex Morgan, PPSN 7828957V.", "7828957V"),
    ("national_id_ca_sin_other_wordings", "ID_NUMBER", "Signed, Alex Morgan, social insurance number 208 943 415.", "208 943 415"),
    ("national_id_tr_tckn_other_wordings", "ID_NUMBER", "Signed, Alex Morgan, national ID number 70997567190.", "70997567190"),
    ("national_id_in_aadhaar", "ID_NUMBER", "Signed, Alex Morgan, Aadhaar 8449 4840 8144.", "8449 4840 8144"),
    ("national_id_jp_my_number", "ID_NUMBER", "Signed, Alex Morgan, マイナンバー 1520 1946 0384.", "1520 1946 0384"),
    ("national_id_kr_rrn_bare", "ID_NUMBER", "Signed, Alex Morgan, 주민등록번호 9011011610272.", "9011011610272"),
    ("national_id_au_tfn", "ID_NUMBER", "Signed, Alex Morgan, TFN 008 359 566.", "008 359 566"),
    ("national_id_au_medicare", "ID_NUMBER", "Signed, Alex Morgan, Medicare card 3548 67139 6.", "3548 67139 6"),
    ("national_id_nz_ird", "ID_NUMBER", "Signed, Alex Morgan, IRD number 11-937-675.", "11-937-675"),
    ("national_id_il_teudat_zehut", "ID_NUMBER", "Signed, Alex Morgan, teudat zehut 506151430.", "506151430"),
    ("national_id_cl_rut_other_wordings", "ID_NUMBER", "Nombre | RUT\nCamila Rojas | 12.345.678-5", "12.345.678-5"),
    ("national_id_dk_cpr", "ID_NUMBER", "Mette Hansen, CPR-nr. 150386-1234", "150386-1234"),
    ("national_id_uk_nino", "ID_NUMBER", "Payroll form: NI number AB 12 34 56 C", "AB 12 34 56 C"),
    ("national_id_dni_shape", "ID_NUMBER", "Martín Gómez, DNI 30.123.456, Rosario", "30.123.456"),
    ("home_directory_user", "PERSON", "cd /home/mlindqvist/projects", "mlindqvist"),
    ("file_name_person", "PERSON", "Attached: payroll_Maria_Lindqvist.csv", "Maria_Lindqvist"),
    ("handle_after_cue", "PERSON", "Our contact (WeChat zxy_gz1990, +86 755)", "zxy_gz1990"),
    ("handle_self_introduced", "PERSON", "From my study chat (I'm @deniz.k_34 there)", "@deniz.k_34"),
    ("handle_chat_speaker", "PERSON", "[16:02] @lukas.e09: what did Planck propose?", "@lukas.e09"),
    ("handle_online", "PERSON", "My son ('olliebot_2012' online) asks", "olliebot_2012"),
    ("reference_after_label", "ID_NUMBER", "Booking ref. for our museum tour: BM-7741-QZ, lead", "BM-7741-QZ"),
    ("street_address_unit_comma", "LOCATION", "Candidate: X, Flat 7, Rustom Terrace, Colaba", "Flat 7, Rustom Terrace"),
    ("handle_chat_speaker", "PERSON", "[2024-11-03 21:14] mei_lam88: quick one", "mei_lam88"),
    ("postal_address_jp", "LOCATION", "送り先: 〒150-0042 東京都渋谷区宇田川町4-2", "〒150-0042 東京都渋谷区宇田川町4-2"),
    ("street_address_korean", "LOCATION", "보내는 곳: 대구광역시 수성구 달구벌대로 412, 201동 1502호입니다",
     "대구광역시 수성구 달구벌대로 412, 201동 1502호"),
    ("street_address_korean", "LOCATION", "주소 인천 연수구 센트럴로 9번길 31", "인천 연수구 센트럴로 9번길 31"),
    ("street_address_russian", "LOCATION", "Адрес: ул. Полевая, д. 17, кв. 44, Тверь", "ул. Полевая, д. 17, кв. 44"),
    ("street_address_russian", "LOCATION", "пишите на вул. Квітнева 12/3", "вул. Квітнева 12/3"),
    ("handle_after_cue", "PERSON", "can you check my login quen_l07 still works?", "quen_l07"),
    ("handle_after_cue", "PERSON", "My user on the server is tkoral3 if that matters.", "tkoral3"),
    ("handle_speaking", "PERSON", "@quiet_fern42 said the docs are wrong", "@quiet_fern42"),
    ("handle_reddit_user", "PERSON", "Thanks to u/halv_77 for the tip", "u/halv_77"),
    ("handle_mentioned", "PERSON", "Settling a bet with @velvet_22: who won?", "@velvet_22"),
    ("handle_signature", "PERSON", "Is it longer?\n— tinder_olek", "tinder_olek"),
    ("handle_message_sender", "PERSON", "From: marrow_k\nTo: me", "marrow_k"),
    ("street_address_greek", "LOCATION", "Στείλτε το: Οδός Σκουφά 47, 106 73 Αθήνα.", "Οδός Σκουφά 47, 106 73"),
    ("street_address_indonesian_malay", "LOCATION", "Kirim ke Jl. Kebon Jeruk No. 9, Kel. Sukasari, Bogor.",
     "Jl. Kebon Jeruk No. 9, Kel. Sukasari"),
    ("street_address_malay_number_first", "LOCATION", "Alamat: 17, Jalan Cempaka 2, Taman Bukit, Ipoh.",
     "17, Jalan Cempaka 2, Taman Bukit"),
    ("handle_discord_tag", "PERSON", "add me on Discord, orri.k#0932", "orri.k#0932"),
    ("postcode_town_after_street_number", "LOCATION", "Send it to ul. Lipowa 8/2, 31-042 Kraków.", "31-042 Kraków"),
    ("date_of_birth_after_b", "DATE_OF_BIRTH", "Ada Berg (b. 3 Mar '85) in Leeds", "3 Mar '85"),
    ("date_of_birth_text", "DATE_OF_BIRTH", "DOB 03-Mar-1985", "03-Mar-1985"),
    ("date_of_birth_text", "DATE_OF_BIRTH", "born Mar 3 '85", "Mar 3 '85"),
    ("date_of_birth_numeric", "DATE_OF_BIRTH", "dob=19850314", "19850314"),
    ("street_address_prefix_first", "LOCATION", "J'habite Rue du Bac 12, Bruxelles", "Rue du Bac 12"),
    ("street_address_nordic", "LOCATION", "Asun osoitteessa Mannerheimintie 5, Helsinki", "Mannerheimintie 5"),
    ("street_address_nordic", "LOCATION", "Bor i Strandvejen 100, Hellerup", "Strandvejen 100"),
    ("street_address_nordic", "LOCATION", "Kontor: Karl Johans gate 22, Oslo", "Karl Johans gate 22"),
    ("postcode_town_in_address_line", "LOCATION", "Kungsgatan 44, 111 35 Stockholm", "111 35 Stockholm"),
    ("postcode_town_in_address_line", "LOCATION", "Lindenweg 14, 6020 Innsbruck", "6020 Innsbruck"),
    ("po_box", "LOCATION", "Send the forms to P.O. Box 2231, thanks.", "P.O. Box 2231"),
    ("thai_moo_address", "LOCATION", "Address: 12/4 Moo 7, Chiang Mai", "12/4 Moo 7"),
    ("postcode_before_town", "LOCATION", "Book it under Anna, 6020 Innsbruck.", "6020 Innsbruck"),
    ("town_before_postcode", "LOCATION", "Deliver to 42 Elm St, Springfield, IL 62704.", "Springfield, IL 62704"),
    ("street_address_indian", "LOCATION", "He lives at 24/C Hill Road.", "24/C Hill Road"),
    # --- AWS
    ("aws_access_key_id", "AWS_ACCESS_KEY_ID", "aws_access_key_id = AKIAIOSFODNN7EXAMPLE", "AKIAIOSFODNN7EXAMPLE"),
    ("aws_access_key_id", "AWS_ACCESS_KEY_ID", "temporary creds ASIAY34FZKBOKMUTVV7A expire soon",
     "ASIAY34FZKBOKMUTVV7A"),
    ("aws_secret_access_key", "AWS_SECRET_KEY", f"aws_secret_access_key = {AWS_SECRET}", AWS_SECRET),
    ("aws_secret_access_key", "AWS_SECRET_KEY", f'{{"SecretAccessKey": "{AWS_SECRET}"}}', AWS_SECRET),
    ("aws_secret_access_key", "AWS_SECRET_KEY", f"my AWS secret key: {AWS_SECRET}", AWS_SECRET),
    ("aws_secret_access_key", "AWS_SECRET_KEY", f"export AWS_SECRET_ACCESS_KEY={AWS_SECRET}", AWS_SECRET),
    ("aws_secret_access_key_bare", "AWS_SECRET_KEY", f"AWS creds AKIAIOSFODNN7EXAMPLE / {AWS_SECRET}", AWS_SECRET),
    ("aws_secret_access_key_bare", "AWS_SECRET_KEY", f"terraform plan prints {AWS_SECRET_2} in the output",
     AWS_SECRET_2),
    # --- GitHub / GitLab / Slack
    ("github_token", "GITHUB_TOKEN", f"git clone https://{GHP}@github.com/org/repo.git", GHP),
    ("github_token", "GITHUB_TOKEN", f"oauth token {GHO}.", GHO),
    ("github_fine_grained_token", "GITHUB_TOKEN", f"GITHUB_TOKEN={GH_PAT}", GH_PAT),
    ("gitlab_token", "GITLAB_TOKEN", f"use {GLPAT} for the registry", GLPAT),
    ("slack_token", "SLACK_TOKEN", f"SLACK_BOT_TOKEN={XOXB}", XOXB),
    ("slack_token", "SLACK_TOKEN", f"app token {XAPP} (socket mode)", XAPP),
    ("slack_webhook_url", "SLACK_TOKEN", f"post to {SLACK_HOOK} when done", SLACK_HOOK),
    # --- Stripe / Google / OpenAI / others
    ("stripe_secret_key", "STRIPE_KEY", f"stripe.api_key = '{SK_LIVE}'", SK_LIVE),
    ("stripe_secret_key", "STRIPE_KEY", f"restricted key {RK_LIVE}", RK_LIVE),
    ("stripe_secret_key", "STRIPE_KEY", f"tests use {SK_TEST}", SK_TEST),
    ("stripe_webhook_secret", "STRIPE_KEY", f"endpoint secret {WHSEC}", WHSEC),
    ("google_api_key", "GOOGLE_API_KEY", f"https://maps.googleapis.com/maps/api/js?key={AIZA}&callback=init", AIZA),
    ("google_oauth_secret", "GENERIC_SECRET", f'"client_secret":"{GOCSPX}"', GOCSPX),
    ("google_oauth_secret", "GENERIC_SECRET", f"access token {YA29} expires in 3599", YA29),
    ("openai_api_key", "OPENAI_API_KEY", f"OPENAI_API_KEY={OPENAI_LEGACY}", OPENAI_LEGACY),
    ("openai_api_key", "OPENAI_API_KEY", f"client = OpenAI(api_key=\"{OPENAI_PROJ}\")", OPENAI_PROJ),
    ("openai_api_key", "OPENAI_API_KEY", f"anthropic key {ANTHROPIC}", ANTHROPIC),
    ("huggingface_token", "GENERIC_SECRET", f"huggingface-cli login --token {HF}", HF),
    ("npm_pypi_token", "GENERIC_SECRET", f"//registry.npmjs.org/:_authToken={NPM}", NPM),
    ("npm_pypi_token", "GENERIC_SECRET", f"password = {PYPI}", PYPI),
    ("sendgrid_api_key", "GENERIC_SECRET", f"SENDGRID_API_KEY={SENDGRID}", SENDGRID),
    ("mailgun_api_key", "GENERIC_SECRET", f"My teammate posted {MAILGUN} in #general", MAILGUN),
    ("azure_storage_key", "GENERIC_SECRET",
     f"DefaultEndpointsProtocol=https;AccountName=acct;AccountKey={AZURE_KEY};EndpointSuffix=core.windows.net",
     AZURE_KEY),
    ("telegram_bot_token", "GENERIC_SECRET", f"bot = Bot('{TELEGRAM}')", TELEGRAM),
    ("jwt", "JWT", f"the cookie was session={JWT}; Path=/", JWT),
    # --- private keys
    ("private_key_pem", "PRIVATE_KEY", f"key:\n{pem('RSA')}\nthanks", pem("RSA")),
    ("private_key_pem", "PRIVATE_KEY", f"{pem('')}\n", pem("")),
    ("private_key_pem", "PRIVATE_KEY", f"id_ed25519:\n{pem('OPENSSH')}", pem("OPENSSH")),
    ("private_key_pem", "PRIVATE_KEY", f"{pem('EC')} and {pem('DSA')}", (pem("EC"), pem("DSA"))),
    ("private_key_pem", "PRIVATE_KEY", f"pkcs8 {pem('ENCRYPTED')}.", pem("ENCRYPTED")),
    ("private_key_pem", "PRIVATE_KEY", f"legacy:\n{ENCRYPTED_PEM}\n", ENCRYPTED_PEM),
    ("private_key_pem", "PRIVATE_KEY", f'{{"private_key": "{pem("").replace(chr(10), chr(92) + "n")}\\n"}}',
     pem("").replace("\n", "\\n")),
    ("private_key_pem_unterminated", "PRIVATE_KEY", f"here is half my key:\n{PEM_NO_END}\n\nwhat is wrong?",
     PEM_NO_END),
    # --- passwords
    ("connection_string_password", "PASSWORD", "DATABASE_URL=postgres://admin:S3cr3tP%40ss@db.internal:5432/app",
     "S3cr3tP%40ss"),
    ("connection_string_password", "PASSWORD", "redis://:hunter2@cache:6379/0", "hunter2"),
    ("connection_string_password", "PASSWORD", "mongodb+srv://app:p@ss:w0rd@cluster0.example.net/db", "p@ss:w0rd"),
    ("password_assignment", "PASSWORD", "login with password=hunter2 and retry", "hunter2"),
    ("password_assignment", "PASSWORD", '{"user": "bob", "password": "correct horse battery staple"}',
     "correct horse battery staple"),
    ("password_assignment", "PASSWORD", "DB_PASSWORD: 'p@ss w0rd!'", "p@ss w0rd!"),
    ("password_assignment", "PASSWORD", "passwd: Xy9!abc", "Xy9!abc"),
    ("password_assignment", "PASSWORD", "conn = connect(host, pwd=Tr0ub4dor, port=5432)", "Tr0ub4dor"),
    ("password_assignment", "PASSWORD", "mysqlPassword := \"s3cret\"", "s3cret"),
    ("password_in_prose", "PASSWORD", "my password is Tr0ub4dor&3, don't share it.", "Tr0ub4dor&3"),
    ("password_in_prose", "PASSWORD", "The wifi passphrase was hunter22.", "hunter22"),
    ("secret_assignment", "GENERIC_SECRET", "SECRET_KEY = 'django-insecure-7x!k@2#p'", "django-insecure-7x!k@2#p"),
    ("secret_assignment", "GENERIC_SECRET", "client_secret: abc123", "abc123"),
    ("cli_secret_flag", "PASSWORD", "mysql -h db --password hunter2 -e 'select 1'", "hunter2"),
    ("cli_secret_flag", "PASSWORD", "curl -u admin:s3cr3t https://api.example.com", "s3cr3t"),
    ("cli_secret_flag", "PASSWORD", "run --api-key=AbC123xyz --verbose", "AbC123xyz"),
    ("mysql_password_flag", "PASSWORD", "mysql -u webapp -p'EBM~po!iO!mTPzShT' -h db.local", "EBM~po!iO!mTPzShT"),
    ("mysql_password_flag", "PASSWORD", "mysqldump -uroot -phunter2 shop > shop.sql", "hunter2"),
    ("userlist_password", "PASSWORD", 'pgbouncer userlist.txt: "app" "Battery369~23h" - auth fails', "Battery369~23h"),
    ("password_after_keyword", "PASSWORD", "bind as cn=svc with password battery-staple-correct-horse83 fails",
     "battery-staple-correct-horse83"),
    ("password_after_keyword", "PASSWORD", "I set my laptop password to Violet7369!GaU. Is it strong?",
     "Violet7369!GaU"),
    ("authorization_header_token", "BEARER_TOKEN", "Authorization: Bearer abcdef123456", "abcdef123456"),
    ("authorization_header_token", "BEARER_TOKEN", f"-H 'authorization: token {GHP}'", GHP),
    ("authorization_header_token", "BEARER_TOKEN", f'headers={{"Authorization": "Bearer {JWT}"}}', JWT),
    ("authorization_basic", "PASSWORD", "Authorization: Basic dXNlcjpwYXNzd29yZA==", "dXNlcjpwYXNzd29yZA=="),
    ("bearer_token", "BEARER_TOKEN", f"use Bearer {HEX_KEY} in requests", HEX_KEY),
    ("bearer_token", "BEARER_TOKEN", f"bearer {HIGH_ENTROPY}", HIGH_ENTROPY),
    # --- generic high-entropy keys
    ("generic_key_assignment", "GENERIC_SECRET", f"api_key = '{HIGH_ENTROPY}'", HIGH_ENTROPY),
    ("generic_key_assignment", "GENERIC_SECRET", f"X-API-Key: {HEX_KEY}", HEX_KEY),
    ("generic_key_assignment", "GENERIC_SECRET", f"ACCESS_TOKEN={HIGH_ENTROPY}", HIGH_ENTROPY),
    ("generic_key_assignment", "GENERIC_SECRET", f'{{"clientSecret": "{HIGH_ENTROPY}"}}', HIGH_ENTROPY),
    ("generic_key_assignment", "GENERIC_SECRET", f"token: {UUID}", UUID),
    ("generic_key_in_prose", "GENERIC_SECRET", f"my api key is {HIGH_ENTROPY}.", HIGH_ENTROPY),
    ("generic_key_in_prose", "GENERIC_SECRET", f"The access token was {HEX_KEY}", HEX_KEY),
    ("generic_secret_near_key_word", "GENERIC_SECRET", f"what service does this token belong to? {HEX_KEY}", HEX_KEY),
    ("generic_secret_near_key_word", "GENERIC_SECRET", f"{B64_KEY}\n^ that's the API key we rotated", B64_KEY),
    ("high_entropy_bare", "GENERIC_SECRET", f"My teammate posted {B64_KEY} in the #general channel", B64_KEY),
    ("generic_secret_near_key_word", "GENERIC_SECRET",
     f"My teammate posted {HEX_KEY} in the #general channel. How do I rotate a signing secret?", HEX_KEY),
    ("generic_secret_near_key_word", "GENERIC_SECRET",
     f"terraform plan prints {HEX_KEY} in the output. How do I mark it sensitive?", HEX_KEY),
    ("high_entropy_bare", "GENERIC_SECRET", f"what is {B62_KEY}?", B62_KEY),
    # --- street addresses (LOCATION)
    ("street_address_number_first", "LOCATION", "Ship to 77865 Alyssa Bridge Suite 370, Lyon",
     "77865 Alyssa Bridge Suite 370"),
    ("street_address_number_first", "LOCATION", "She moved to 288 Nicholas Turnpike last year.", "288 Nicholas Turnpike"),
    ("street_address_number_first", "LOCATION", "Address: 4614 Justin Hollow Apt. 085, Denver",
     "4614 Justin Hollow Apt. 085"),
    ("street_address_number_first", "LOCATION", "letters go to 221B Baker St, London", "221B Baker St"),
    ("street_address_number_first", "LOCATION", "Our office is at 350 Fifth Avenue.", "350 Fifth Avenue"),
    ("street_address_unit_first", "LOCATION", "Address: Flat 75B Roberts Circle, Miami", "Flat 75B Roberts Circle"),
    ("street_address_unit_first", "LOCATION", "current address Studio 8 Peters Gardens, Leeds",
     "Studio 8 Peters Gardens"),
    ("street_address_unit_first", "LOCATION", "parking on Studio 67 Sheppard Passage again", "Studio 67 Sheppard Passage"),
    ("street_address_name_first", "LOCATION", "Lieferung an Junckenring 9/6, Illertissen", "Junckenring 9/6"),
    ("street_address_name_first", "LOCATION", "at Claus-Dieter-Ruppersberger-Weg 8/1, Atlanta",
     "Claus-Dieter-Ruppersberger-Weg 8/1"),
    ("street_address_name_first", "LOCATION", "Wir wohnen in der Hauptstraße 12a.", "Hauptstraße 12a"),
    ("street_address_name_first", "LOCATION", "Berliner Allee 5, 40212 Düsseldorf", "Berliner Allee 5"),
    ("street_address_name_first", "LOCATION", "Vivo en Calle Mayor 5, Madrid", "Calle Mayor 5"),
    ("street_address_name_first", "LOCATION", "Abito in Via Roma 10, Torino", "Via Roma 10"),
    ("street_address_french", "LOCATION", "Envoyez-le au 12 rue de la Paix, Paris", "12 rue de la Paix"),
    ("street_address_french", "LOCATION", "4 Avenue Victor Hugo, Lyon", "4 Avenue Victor Hugo"),
    ("street_address_name_first", "LOCATION", "Address: Karlijnbaan 6, Utrecht", "Karlijnbaan 6"),
    ("street_address_name_first", "LOCATION", "Address: Keanosteeg 75, Leiden", "Keanosteeg 75"),
    ("street_address_name_first", "LOCATION", "woont op Mayalaan 9 in Delft", "Mayalaan 9"),
    ("street_address_polish", "LOCATION", "parking on ulica Truskawkowa 113. How", "ulica Truskawkowa 113"),
    ("street_address_polish", "LOCATION", "Address: al. Moniuszki 44, Kraków", "al. Moniuszki 44"),
    ("street_address_polish", "LOCATION", "arrived at al. Konstytucji 3 Maja 218, Gdańsk", "al. Konstytucji 3 Maja 218"),
    ("street_address_polish", "LOCATION", "mieszkam przy pl. Żwirki i Wigury 97/25", "pl. Żwirki i Wigury 97/25"),
    ("street_address_polish", "LOCATION", "vCard:\nul. Jeżynowa 28\nOlkusz", "ul. Jeżynowa 28"),
    ("street_address_indian", "LOCATION", "fix the heating at 959 Sehgal Chowk, Pune.", "959 Sehgal Chowk"),
    ("street_address_indian", "LOCATION", "envelope: Asha Rao, 14/77 Kulkarni Chowk, Pune", "14/77 Kulkarni Chowk"),
    ("street_address_indian", "LOCATION", "Address: H.No. 64, Tripathi Marg, Delhi", "H.No. 64, Tripathi Marg"),
    ("street_address_indian", "LOCATION", "vCard:\n59/00 Aggarwal Nagar\nSydney", "59/00 Aggarwal Nagar"),
    ("street_address_prefix_first", "LOCATION", "Address: Callejón Rosa Vidal 4 Piso 5, Ciudad",
     "Callejón Rosa Vidal 4 Piso 5"),
    ("street_address_prefix_first", "LOCATION", "update the address to Strada Tonia, 53 Piano 0, Roma",
     "Strada Tonia, 53 Piano 0"),
    ("street_address_prefix_first", "LOCATION", "vCard:\nChácara Paulo Pinto, 87\nRecife", "Chácara Paulo Pinto, 87"),
    ("street_address_prefix_first", "LOCATION", "Rotonda Claudia, 9 - Torino", "Rotonda Claudia, 9"),
    ("street_address_french_no_number", "LOCATION", "fix the heating at boulevard de Blanc, Navarra.",
     "boulevard de Blanc"),
    ("street_address_french_no_number", "LOCATION", "Livraison: chemin Françoise Rey, Lyon", "chemin Françoise Rey"),
    # --- people and places by label (PERSON, LOCATION)
    ("person_after_label", "PERSON", "Fill in this form:\nName: Lot Blewanus\nDOB: 1974-12-27", "Lot Blewanus"),
    ("person_after_label", "PERSON", '{"name": "Yuri Gomes", "email": "yg@example.com"}', "Yuri Gomes"),
    ("person_after_label", "PERSON", "customer=Ada Lovelace; plan=pro", "Ada Lovelace"),
    ("person_after_label", "PERSON", "Card: 4111... Cardholder: Ahmed Hamann.", "Ahmed Hamann"),
    ("person_after_label", "PERSON", "full_name: Igor da Mata", "Igor da Mata"),
    ("person_after_label", "PERSON", "Patient: Seán O'Brien-Walsh, ward 4", "Seán O'Brien-Walsh"),
    ("person_after_phrase", "PERSON", "Compose a note on behalf of Jayson Smit.", "Jayson Smit"),
    ("person_after_phrase", "PERSON", "Proofread: 'Dear Caio Costela, your payment was declined.'", "Caio Costela"),
    ("person_after_phrase", "PERSON", "Hi, my name is Alma Mühle and I live in Hamburg.", "Alma Mühle"),
    ("person_after_phrase", "PERSON", "Summarize: Customer Donato Vespucci reported a double charge",
     "Donato Vespucci"),
    ("person_after_phrase", "PERSON", "Background check form: full name Dalton Pena, SSN on file", "Dalton Pena"),
    ("person_after_phrase", "PERSON", "a short story about a fisherman named Tito Alegre", "Tito Alegre"),
    ("person_after_title", "PERSON", "Please forward this to Mr. Smith today.", "Smith"),
    ("person_after_title", "PERSON", "Dr Ana Lima will see you now", "Ana Lima"),
    ("person_after_title", "PERSON", "Sehr geehrte Frau Müller,", "Müller"),
    ("person_after_signoff", "PERSON", "See you Monday.\n\nBest regards,\nJayson Smit\n", "Jayson Smit"),
    ("person_after_signoff", "PERSON", "Signed, Ana Lima", "Ana Lima"),
    ("place_after_label", "LOCATION", "city: Lyon\nzip: 69001", "Lyon"),
    ("place_after_label", "LOCATION", "name=Anthony Doyle; country=New Zealand", "New Zealand"),
    ("place_after_label", "LOCATION", '{"location": "Neustadt am Rübenberge"}', "Neustadt am Rübenberge"),
]

# (rule id, text): the rule must not report anything in the text.
NEGATIVES = [
    # --- street addresses: technical words, versions, German-looking English words
    ("street_address_number_first", "Deploy 3 Docker Way replicas"),
    ("street_address_number_first", "Bump to 2.5 Main Street release"),
    ("street_address_number_first", "Top 10 Python Tips for 2024"),
    ("street_address_number_first", "see the 3 Stack Trace lines below"),
    ("street_address_number_first", "we closed 12 Story Points this sprint"),
    ("street_address_number_first", "the 3 Main Streetcar lines"),
    ("street_address_unit_first", "Suite 5 Docker Drive"),
    ("street_address_unit_first", "Unit 3 tests passed on Main Street"),
    ("street_address_name_first", "upgrade to Spring 5 and String 10"),
    ("street_address_name_first", "the Offering 2 tier"),
    ("street_address_name_first", "Hauptstraße is closed"),
    ("street_address_name_first", "python3 -m Keyring 3"),
    ("street_address_name_first", "version Weg 1.2.3"),
    ("street_address_french", "12 rue"),
    ("street_address_french", "2 Place Docker"),
    ("street_address_name_first", "buy an iPad 5 or a Notepad 2"),
    ("street_address_name_first", "the Behoof 3 release"),
    ("street_address_polish", "Smith et al. Nature 2019 showed it"),
    ("street_address_polish", "ul. Docker 5"),
    ("street_address_polish", "al. moniuszki 44"),
    ("street_address_indian", "Release 2024, Python Path"),
    ("street_address_indian", "see 3 Config Path entries"),
    ("street_address_indian", "v1.2 Kulkarni Chowk"),
    ("street_address_prefix_first", "Campo 3 of the form"),
    ("street_address_prefix_first", "Vila Docker, 5"),
    ("street_address_prefix_first", "Strada Tonia is long"),
    ("street_address_french_no_number", "the avenue Docker opened"),
    ("street_address_french_no_number", "rue de la"),
    ("street_address_french_no_number", "boulevard de la paix"),
    # --- people and places by label: technical values, lower case, one word where two are needed
    ("person_after_label", "name: Build And Test"),
    ("person_after_label", '{"name": "Docker"}'),
    ("person_after_label", "name=lot blewanus"),
    ("person_after_label", "Name: John"),
    ("person_after_label", "user_name: ADMIN ROOT"),
    ("person_after_label", "name: Config.yaml Loader"),
    ("person_after_phrase", "Dear Hiring Manager,"),
    ("person_after_phrase", "on behalf of the Customer Success Team"),
    ("person_after_phrase", "Customer Service Portal is down"),
    ("person_after_phrase", "a fisherman named Lidia"),
    ("person_after_title", "Dr. Docker says hi"),
    ("person_after_title", "Ms Office and Mr. robot"),
    ("person_after_signoff", "Thanks,\nThe Team\n"),
    ("person_after_signoff", "Cheers, Docker Compose\n"),
    ("place_after_label", "region: Default"),
    ("place_after_label", "city: Build"),
    ("place_after_label", "location: /var/log/app"),
    ("place_after_label", "country=US"),
    ("email_address", "npm install lodash@4.17.21 --save"),
    ("email_address", "@dataclass(frozen=True) and user@localhost"),
    ("email_address", "b'\\n@io.envoyproxy.envoy.extensions.filters'"),
    ("phone_us_formatted", "ISBN 0-306-40615-2 and order number 555-123-4567"),
    ("phone_us_formatted", "build 12-555-123-4567-89"),
    ("phone_us_formatted", "area 055-123-4567 is not a North American number"),
    ("phone_international", "x+12345678 and 3+1234"),
    ("phone_international", "+1234567890123456 is too long"),
    ("phone_with_context", "the unix timestamp 1699999999 marks the release"),
    ("phone_us_bare", "the unix timestamp 1699999999 and order 8014943418 and 5551234567"),
    ("phone_us_bare", "id=2125550199-3 and 12125550199"),
    ("phone_with_context", "call the function with 2024-03-15 as the date"),
    ("phone_national_layout", "released 01.02.2024, build 0.12.345.6789"),
    ("phone_national_layout", "checksum 0123 4567 8901 matches"),
    ("phone_national_layout", "the 415 555 0123 sample has no trunk prefix"),
    ("credit_card_grouped", "Visa 4111 1111 1111 1112 (wrong check digit)"),
    ("credit_card_grouped", "years 2024 2025 2026 2027"),
    ("credit_card_contiguous", "order 1234567890123456 shipped"),
    ("credit_card_contiguous", "card 4111111111111112"),
    ("credit_card_contiguous", "tracking 0000000000000000"),
    ("credit_card_contiguous", "weights (-1.4532867670059204, -1.06896)"),
    ("us_ssn_dashed", "invalid 000-12-3456 666-12-3456 912-34-5678 123-00-4567 123-45-0000"),
    ("us_ssn_dashed", "the famous 078-05-1120 card"),
    ("us_ssn_dashed", "part 1-536-22-1234-5"),
    ("us_ssn_with_context", "order 536221234 was shipped"),
    ("us_ssn_with_context", "SSN: 000221234"),
    ("iban", "Wire to DE89 3704 0044 0532 0130 01 today"),
    ("iban", "SKU AB12 CDEF GHIJ KLMN"),
    ("ipv4_address", "upgrade from 1.2.3 to 1.2.3.4.5"),
    ("ipv4_address", "bad 256.1.1.1 and 01.02.03.04"),
    ("ipv4_address", "version 4.0.0.0 of the assembly"),
    ("ipv4_address", "bind 0.0.0.0 and 127.0.0.1 (not personal data)"),
    ("ipv4_address", "coords -1.4532867670059204 and 0.6571555733680725"),
    ("ipv6_address", "std::vector<int> and Foo::Bar::baz()"),
    ("ipv6_address", "at 12:30:45 and mac 00:1A:2B:3C:4D:5E"),
    ("ipv6_address", "the Abc::Def namespace"),
    ("ipv6_address", "slices a[1::2] and t[::2], loopback [::1]:8080"),
    ("mac_address", "00:1A:2B:3C:4D and 00:1A-2B:3C-4D:5E"),
    ("mac_address", "ids 00:1A:2B:3C:4D:5E:6F:70"),
    ("mac_address", "all zero 00:00:00:00:00:00"),
    ("date_of_birth_numeric", "The meeting is on 2024-03-12 at noon."),
    ("date_of_birth_numeric", "born on 2099-01-01 (in the future)"),
    ("date_of_birth_numeric", "DOB: 13/13/1985"),
    ("date_of_birth_text", "The release shipped on March 3, 2021."),
    ("personal_date_numeric", "Python 3.12 was released on 2023-10-02."),
    ("personal_date_numeric", "He turns 16 on 31/02/2009 (no such day)."),
    ("personal_date_text", "The Berlin Wall fell on 9 November 1989."),
    ("birthday_day_month", "Bastille Day is 14 July; the shop opens on 3 March."),
    ("date_of_birth_intl_text", "Die Mauer fiel am 9. November 1989."),
    ("date_of_birth_cjk", "1945年8月15日に戦争が終わった。"),
    ("labelled_id_marked", "This is release no. 4 of the tool."),
    ("labelled_id_marked", "Your member ID is required to log in."),
    ("labelled_id_marked", "member ID 2024 cohort"),
    ("labelled_id_self", "The MRN field is required; the licence v3 text applies."),
    ("labelled_id_self", "Case 2: the test case #3 and use case 4 fail."),
    ("labelled_id_self", "my card was declined twice"),
    ("labelled_id_marked", "Issue #5521 and ticket no. 12 are closed."),
    ("labelled_id_bare", "The A350, H100 and account 2FA settings."),
    ("date_of_birth_text", "Version 3 shipped on 03-Mar-2021; v2 in Mar 3 '19."),
    ("street_address_nordic", "The Kalevala tie 5 times"),
    ("date_of_birth_after_b", "Step b. 2.1 on page 4; plan b. 2099-01-01"),
    ("date_of_birth_after_b", "a. the draft; b. 2021-05-04 release\nb. 2020-01-02 notes; Item b. 3 Mar 2019"),
    ("email_address", "@app.route('/') and npm i @types/node@18.2.0"),
    ("labelled_id_bare", "In 2024 we had 250 staff; account 500 users, Staff 2025 retreat."),
    ("labelled_id_bare", "customer A350 flights"),
    ("national_id_br_cpf", "CPF 123.456.789-08 fails its check digits; order 123.456.789-09"),
    ("national_id_ca_sin", "SIN 046 454 287 and sin(046) in radians"),
    ("national_id_tr_tckn", "TCKN 10000000147; build 10000000146"),
    ("national_id_fi_hetu", "hetu 131052-308U; the file 131052-308T.log"),
    ("national_id_in_pan", "PAN to ABCDE1234F? pan abcde1234f"),
    ("national_id_co_cedula", "cédula 2024; cedula field 12 of 40"),
    ("national_id_cl_rut", "RUT 12.345.678-4; run 12.345.678-5"),
    ("national_id_it_codice_fiscale", "Alex Morgan (OPLNRF62S65L173N) asked; order OPLNRF62S65L173Z"),
    ("national_id_es_dni", "Alex Morgan (39277127B) asked; order 39277127G"),
    ("national_id_es_nie", "Alex Morgan (Y0531819Z) asked; order Y0531819G"),
    ("national_id_cz_rodne_cislo_slashed", "Alex Morgan (630121/7344) asked; order 630121/7340"),
    ("national_id_cz_rodne_cislo_bare", "rodné číslo 8601209335; order 8601209331; 8601209331 with no label at all"),
    ("national_id_be_national_number_dotted", "Alex Morgan (98.03.24-669.21) asked; order 98.03.24-669.40"),
    ("national_id_be_national_number_bare", "rijksregisternummer 90082851174; order 90082851113; 90082851113 with no label at all"),
    ("national_id_fr_nir", "Alex Morgan (1 70 09 65 120 538 91) asked; order 1 70 09 65 120 538 83"),
    ("national_id_no_fodselsnummer", "Alex Morgan (07029655076) asked; order 07029655094"),
    ("national_id_ro_cnp", "Alex Morgan (2901025264158) asked; order 2901025264154"),
    ("national_id_ee_isikukood", "Alex Morgan (49710133901) asked; order 49710133903"),
    ("national_id_is_kennitala", "Alex Morgan (120174-3389) asked; order 120174-3399"),
    ("national_id_is_kennitala_bare", "Kennitala: 1201743389; order 1201743399"),
    ("national_id_gr_amka", "ΑΜΚΑ 15078912341; order 15078912340"),
    ("national_id_hr_oib", "OIB 69435151531; invoice 69435151530"),
    ("national_id_yu_jmbg", "EMŠO 2207875503148; order 2207875503147"),
    ("national_id_hu_taj", "TAJ-szám: 047 812 364; ticket 047 812 363"),
    ("national_id_cn_resident_id", "Alex Morgan (320102197509117517) asked; order 320102197509117514"),
    ("national_id_tw_national_id", "Alex Morgan (A172860135) asked; order A172860131"),
    ("national_id_kr_rrn", "Alex Morgan (140915-4263071) asked; order 140915-4263073"),
    ("national_id_sg_nric", "Alex Morgan (S7894636Q) asked; order S7894636I"),
    ("national_id_hk_id_bracketed", "Alex Morgan (Z325197(7)) asked; order Z325197(8)"),
    ("national_id_hk_id_bare", "HKID R6418686; order R6418685; R6418685 with no label at all"),
    ("national_id_za_id", "Alex Morgan (8704057746188) asked; order 8704057746181"),
    ("national_id_mx_curp", "Alex Morgan (LUGX680826MDFNZV05) asked; order LUGX680826MDFNZV07"),
    ("national_id_ch_ahv_dotted", "Alex Morgan (756.6659.4750.28) asked; order 756.6659.4750.24"),
    ("national_id_ch_ahv_bare", "AHV-Nr. 7568068235726; order 7568068235725; 7568068235725 with no label at all"),
    ("national_id_br_cpf_formatted", "Alex Morgan (986.395.406-62) asked; order 986.395.406-32"),
    ("national_id_pl_pesel", "PESEL 57090896287; order 57090896286; 57090896286 with no label at all"),
    ("national_id_se_personnummer", "personnummer 880926-2425; order 880926-2424; 880926-2424 with no label at all"),
    ("national_id_nl_bsn", "BSN 907858610; order 907858612; 907858612 with no label at all"),
    ("national_id_bg_egn", "ЕГН 7804059496; order 7804059499; 7804059499 with no label at all"),
    ("national_id_at_svnr", "SVNr 7223 140278; order 7226 140278; 7226 140278 with no label at all"),
    ("national_id_ie_ppsn", "PPSN 7828957I; order 7828957V; 7828957V with no label at all"),
    ("national_id_ca_sin_other_wordings", "social insurance number 208 943 417; order 208 943 415; 208 943 415 with no label at all"),
    ("national_id_tr_tckn_other_wordings", "national ID number 70997567145; order 70997567190; 70997567190 with no label at all"),
    ("national_id_in_aadhaar", "Aadhaar 8449 4840 8146; order 8449 4840 8144; 8449 4840 8144 with no label at all"),
    ("national_id_jp_my_number", "マイナンバー 1520 1946 0386; order 1520 1946 0384; 1520 1946 0384 with no label at all"),
    ("national_id_kr_rrn_bare", "주민등록번호 9011011610275; order 9011011610272; 9011011610272 with no label at all"),
    ("national_id_au_tfn", "TFN 008 359 565; order 008 359 566; 008 359 566 with no label at all"),
    ("national_id_au_medicare", "Medicare card 3548 67131 6; order 3548 67139 6; 3548 67139 6 with no label at all"),
    ("national_id_nz_ird", "IRD number 11-937-671; order 11-937-675; 11-937-675 with no label at all"),
    ("national_id_il_teudat_zehut", "teudat zehut 506151434; order 506151430; 506151430 with no label at all"),
    ("national_id_cl_rut_other_wordings", "Nombre | RUT\nCamila Rojas | 12.345.678-4; order 12.345.678-5"),
    ("national_id_dk_cpr", "CPR-nr. 310286-1234 (no 31 February); build 150386-1234"),
    ("national_id_uk_nino", "NI number QQ 12 34 56 C is a specimen; ticket AB 12 34 56 C"),
    ("national_id_dni_shape", "DNI 11.111.111; CPF 30.123.456; order 30.123.456"),
    ("home_directory_user", "cd /home/runner/work && ls C:\\Users\\Public\\ example.com/home/page"),
    ("file_name_person", "Open Max_Pool.py and Data_Loader.py"),
    ("handle_after_cue", "Join our Discord server; the Telegram bot replies; WeChat @renovate-bot"),
    ("handle_self_introduced", "Use @property; I'm @dependabot's reviewer; ping @sre-oncall"),
    ("handle_chat_speaker", "[10:02] @scheduler: job 5521 done"),
    ("handle_online", "The 'server' online; 'build' online"),
    ("reference_after_label", "Our order reference is ORD-2024-1183; REF 2024/118/B; policy v2; account 500"),
    ("street_address_unit_comma", "Flat 7, red terrace; Unit 4, the Building"),
    ("handle_chat_speaker", "[10:01:22] ci_runner: build 442 passed"),
    ("postal_address_jp", "Is 〒150-0002 in Shibuya? 〒 is the postal mark"),
    ("street_address_korean", "마포구는 어디에 있나요? 세종대로 175는 유명합니다"),
    ("street_address_russian", "Что находится на ул. Арбат? Улица Ленина названа в 1924 году"),
    ("handle_speaking", "@property\ndef size(self): ...\n@dependabot said the lockfile is old"),
    ("handle_after_cue", "ssh login node_1 failed; set my user_id to 5"),
    ("handle_reddit_user", "The cpu/mem ratio; install under /usr/u/local"),
    ("handle_mentioned", "How does @lru_cache work? Use @pytest.mark.parametrize and the @my_hook decorator."),
    ("handle_signature", "- item_one\n— 2024"),
    ("handle_message_sender", "From: the 1990s to now"),
    ("street_address_greek", "Η οδός Ερμού είναι εμπορικός δρόμος."),
    ("street_address_indonesian_malay", "Jalan Braga di Bandung terkenal dengan kafenya."),
    ("street_address_malay_number_first", "Pada 2019, Jalan Ampang ditutup untuk perarakan."),
    ("date_of_birth_other_calendars", "平成8年に生まれた。"),
    ("uk_sort_code", "The score was 20-41-87 at half time."),
    ("postcode_after_cue", "Which district has the postcode SW1A 1AA?"),
    ("handle_discord_tag", "Fixes #1234 and PR#1235; our Discord server has 1234 members"),
    ("postcode_town_after_street_number", "Chapter 12, 2024 Olympics; page 4, 8080 Port"),
    ("po_box", "PO 4500123 was approved."),
    ("thai_moo_address", "The Moo Deng video has 12 million views."),
    ("postcode_before_town", "The 2024 Olympics were booked out."),
    ("postcode_before_town", "6020 Innsbruck is in Tyrol."),
    ("town_before_postcode", "Windows 10 runs on Intel 8086 chips."),
    ("postcode_town_in_address_line", "In 2019, 2500 Users and 2024 Olympics, 4096 Tokens."),
    ("town_before_postcode", "Book it under Anna, 6020 Innsbruck."),
    ("aws_access_key_id", "AKIA1234 is too short; XAKIAIOSFODNN7EXAMPLE is glued"),
    ("aws_secret_access_key", f"aws commit {GIT_SHA}"),
    ("aws_secret_access_key", "aws_secret_access_key = ${AWS_SECRET_ACCESS_KEY}"),
    ("aws_secret_access_key_bare", f"the AWS docs mention commit {GIT_SHA}"),
    ("aws_secret_access_key_bare", f"aws secret in a longer blob x{AWS_SECRET}yz"),
    ("aws_secret_access_key_bare", "ThisIsAnIdentifierNameThatIsFortyLetters or AbcdefghijklmnopqrstuvwxyzAbcdefghij"),
    ("github_token", "the ghp_ prefix marks personal tokens; ghp_short"),
    ("github_fine_grained_token", "see github_pat_docs"),
    ("gitlab_token", "glpat-short"),
    ("slack_token", "xoxb- tokens start with xoxb"),
    ("slack_webhook_url", "https://hooks.slack.com/services/"),
    ("stripe_secret_key", "pk_live_" + tok(24) + " is publishable"),
    ("stripe_webhook_secret", "whsec_short"),
    ("google_api_key", "AIzaShort"),
    ("google_oauth_secret", "GOCSPX-short"),
    ("openai_api_key", "pip install scikit-learn; sk-learn; risk-management-framework-docs"),
    ("openai_api_key", "sk-this-is-not-a-real-key-at-all"),
    ("huggingface_token", "hf_hub_download and hf_transfer are functions"),
    ("npm_pypi_token", "npm_config_registry is an env var"),
    ("sendgrid_api_key", "SG.short.value"),
    ("mailgun_api_key", "key-value store and key-" + "0" * 31),
    ("azure_storage_key", "sig=abc and AccountKey=${KEY}"),
    ("telegram_bot_token", "ratio 123456789:AAB"),
    ("jwt", f"not a token: {NOT_A_JWT}"),
    ("jwt", "eyJhbGc.short.x"),
    ("private_key_pem", "-----BEGIN PUBLIC KEY-----\nMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE\n-----END PUBLIC KEY-----"),
    ("private_key_pem", "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----"),
    ("private_key_pem_unterminated", "-----BEGIN PUBLIC KEY-----\n" + PEM_BODY),
    ("connection_string_password", "https://example.com:8443/path and postgres://user:${DB_PASSWORD}@db/app"),
    ("connection_string_password", "ssh://git@github.com/org/repo"),
    ("password_assignment", "the password policy is strict"),
    ("password_assignment", "password: ******** and password = None"),
    ("password_assignment", "password = os.environ['DB_PASSWORD']; pwd: ${DB_PASS}; passwd={{ vault_pw }}"),
    ("password_assignment", "passwordless: true; bypass=1; compass: north"),
    ("password_assignment", "password=self.password"),
    ("password_assignment", "password: <your-password>"),
    ("password_assignment", "def login(username: str, password: str) -> bool:"),
    ("password_assignment", "user, password = parse_authorization_basic(header); password: Optional[str] = None"),
    ("password_assignment", "first pass: build the graph; typed_pass = not isinstance(x, T)"),
    ("password_assignment", "key_password = key_password; inline_pass = InlineClosureCallPass()"),
    ("password_in_prose", "the password is strict, your password is incorrect."),
    ("password_in_prose", "my password is Correct"),
    ("secret_assignment", "secret: true\nsecretName: my-tls-secret\nsecrets:"),
    ("secret_assignment", "client_secret: session_create_params.ClientSecret | NotGiven"),
    ("cli_secret_flag", "--password $DB_PASS --password-file /run/secrets/pw"),
    ("mysql_password_flag", "ssh -p2222 host and mysql -p"),
    ("mysql_password_flag", "docker run -p8080:80 nginx"),
    ("userlist_password", '"app" "Battery369~23h" in a csv'),
    ("password_after_keyword", "the password policy is strict; reset your password to something; password sha256"),
    ("password_after_keyword", "password reset for 2 users; password hashing with bcrypt"),
    ("authorization_header_token", "Authorization: Bearer <token> or Authorization: Bearer $TOKEN"),
    ("authorization_basic", "Authorization: Basic <credentials>"),
    ("bearer_token", "the bearer of this letter; Bearer tokenization-strategy-document"),
    ("generic_key_assignment", "max_tokens: 1024 and api_key = get_api_key_from_env()"),
    ("generic_key_assignment", "sort_key = 'created_at_timestamp_desc'; token: 'your_api_token_here'"),
    ("generic_key_assignment", "primary_key: user_account_identifier"),
    ("generic_key_assignment", "key = quantize_fp8_maybe_pad_head_dim(x); key: _ConstantAttributeType"),
    ("generic_key_assignment", "token = getAccessTokenFromCache(); SECRET_KEY = MAX_RETRY_COUNT_V2"),
    ("generic_key_in_prose", "the api key is stored in the vault"),
    ("generic_secret_near_key_word", f"the token refresh fix landed in commit {GIT_SHA}"),
    ("generic_secret_near_key_word", "tokens: EsmFold2AtomEncoder, Qwen2_5OmniDecoderLayer, token_ids_0=token_ids_0"),
    ("generic_secret_near_key_word", "b'\\x1aKey\\x14LabelExtractorsEntry\\x12'"),
    ("generic_secret_near_key_word", f"the md5 {HEX_KEY} of the file is case sensitive"),
    ("generic_secret_near_key_word", f"rotate the logs; the build {HEX_KEY} failed"),
    ("high_entropy_bare", f"sha256-{B64_KEY} is the integrity digest"),
    ("high_entropy_bare", "class NFCISO15693CustomCommandConfiguration(Data2VecTextForCausalLM): pass"),
    ("high_entropy_bare", "see /api/v2/Users/12345/Profile and getAccessTokenFromCache2"),
]

# Whole prompts that must produce no finding at all: code, hashes, UUIDs, versions, prose about passwords.
CLEAN_PROMPTS = [
    f"commit {GIT_SHA} fixed the build; sha256 {SHA256}",
    f"request id {UUID} failed",
    "Bump requests from 2.31.0 to 2.32.3 and pin numpy v1.26.4; python 3.11.7; node v20.10.0",
    "the password policy is strict: 12 characters minimum, rotated every 90 days",
    "def get_token(self):\n    return self.session.post(url, timeout=30).json()['access_token']",
    "for (int i = 0; i < 10; i++) { std::cout << i << std::endl; }",
    "The meeting is on 2024-03-12 and the deadline is 03/15/2024.",
    "Our revenue grew 12.5% to 1,234,567 in Q3 2023; order #4111111111111112 shipped.",
    "Use 1.2.3.4.5 as the OID prefix and 10.0 as the threshold.",
    "The unix timestamp 1699999999 corresponds to November 2023.",
    "git checkout -b feature/token-refresh && git rebase origin/main",
    "SELECT id, email_hash FROM users WHERE created_at > NOW() - INTERVAL '7 days';",
]


@pytest.fixture(scope="module")
def scanner(hs_cache_dir: Path) -> PatternScanner:
    return PatternScanner(cache_dir=hs_cache_dir)  # the session's cache: the catalogue compiles once


def _by_rule(detections: list[Detection], rule_id: str) -> list[Detection]:
    return [d for d in detections if d.recognizer == rule_id]


@pytest.mark.parametrize(("rule_id", "entity", "text", "value"), POSITIVES,
                         ids=[f"{p[0]}-{i}" for i, p in enumerate(POSITIVES)])
def test_rule_finds_value_with_exact_span(scanner: PatternScanner, rule_id: str, entity: str, text: str,
                                          value: str | tuple[str, ...]) -> None:
    values = value if isinstance(value, tuple) else (value,)
    expected = []
    for v in values:
        start = text.index(v)
        expected.append((entity, start, start + len(v)))
    found = _by_rule(scanner.scan(text), rule_id)
    assert [(d.entity_type, d.start, d.end) for d in found] == expected, (
        f"{rule_id} found {[text[d.start:d.end] for d in found]!r}")
    assert all(0 < d.score <= 1 for d in found)


@pytest.mark.parametrize(("rule_id", "text"), NEGATIVES, ids=[f"{n[0]}-{i}" for i, n in enumerate(NEGATIVES)])
def test_rule_ignores_near_miss(scanner: PatternScanner, rule_id: str, text: str) -> None:
    found = _by_rule(scanner.scan(text), rule_id)
    assert found == [], f"{rule_id} wrongly found {[text[d.start:d.end] for d in found]!r}"


@pytest.mark.parametrize("text", CLEAN_PROMPTS)
def test_clean_prompt_has_no_findings(scanner: PatternScanner, text: str) -> None:
    found = scanner.scan(text)
    assert found == [], f"wrongly found {[(d.recognizer, text[d.start:d.end]) for d in found]!r}"


def test_every_rule_has_positives_and_near_misses() -> None:
    rule_ids = {rule.id for rule in load_catalogue().rules}
    assert rule_ids - {p[0] for p in POSITIVES} == set()
    assert rule_ids - {n[0] for n in NEGATIVES} == set()
    assert {p[0] for p in POSITIVES} | {n[0] for n in NEGATIVES} <= rule_ids


def test_every_required_entity_type_has_a_rule() -> None:
    entities = {rule.entity for rule in load_catalogue().rules}
    assert {"EMAIL_ADDRESS", "PHONE_NUMBER", "CREDIT_CARD", "US_SSN", "IBAN_CODE", "IP_ADDRESS", "MAC_ADDRESS",
            "DATE_OF_BIRTH", "AWS_ACCESS_KEY_ID", "AWS_SECRET_KEY", "GITHUB_TOKEN", "GITLAB_TOKEN", "SLACK_TOKEN",
            "STRIPE_KEY", "GOOGLE_API_KEY", "OPENAI_API_KEY", "JWT", "PRIVATE_KEY", "PASSWORD", "BEARER_TOKEN",
            "GENERIC_SECRET"} <= entities


def test_secret_in_a_mixed_prompt_is_fully_covered(scanner: PatternScanner) -> None:
    text = (f"Hi! My email is jane@example.com, card 4111-1111-1111-1111, and here are my creds: "
            f"AWS {'AKIAIOSFODNN7EXAMPLE'} / {AWS_SECRET}, token {GHP}, db postgres://app:Pa55word!@db:5432/x, "
            f"and {JWT}.")
    found = scanner.scan(text)
    covered = set()
    for d in found:
        covered.update(range(d.start, d.end))
    for secret in ("AKIAIOSFODNN7EXAMPLE", AWS_SECRET, GHP, "Pa55word!", JWT, "4111-1111-1111-1111",
                   "jane@example.com"):
        start = text.index(secret)
        assert set(range(start, start + len(secret))) <= covered, secret
