"""A vehicle's registration plate: after a cue in any of the languages read ("plate", "number plate",
"registration", "registered as", "Kennzeichen", "matrícula", "targa", "immatriculation", "véhicule", "kenteken",
"车牌" ...), or in a common national layout inside a sentence about a vehicle ("our Ford Focus DV21 KHO was
towed"). HIPAA Safe Harbor lists vehicle identifiers, licence plates included, among its identifiers (ADR 0027).

After a cue the value has a plate's shape: groups of capitals and digits split by a dash, a space or a middle dot,
at least two letters and two digits, at most twelve characters (an optional Han province before it). Without a cue
only the national layouts count (France and Italy AB-123-CD, the UK AB12 CDE, Germany and Austria B-XR 4417, Spain
4821 KLT), and only with a vehicle's word in the sentence. Model, part, error and flight numbers (BMW M340i,
XS7J-6714-AA, P0420, LH 2417) have no layout of these and no cue, and stay."""

from __future__ import annotations

import re

from ztgate.redaction.detection.names.context.base import ContextRule, Span

ENTITY = "ID_NUMBER"
_GROUP = r"[A-ZÄÖÜ0-9]{1,6}"
_PLATE = rf"(?P<value>(?:[\u4e00-\u9fff](?:[ \t]?))?{_GROUP}(?:(?:[\- ·.]|[ \t]-[ \t]){_GROUP}){{0,3}})"
_CUE = re.compile(
    r"(?<![\w\-])(?i:licen[cs]e[ \t]+plate|number[ \t]+plate|registration[ \t]+plate|plate|plates|"
    r"registration(?:[ \t]+(?:number|no\.?|mark))?|reg(?:\.|istration)?[ \t]+(?:no\.?|number)|registered[ \t]+as|"
    r"kfz-kennzeichen|kennzeichen|nummernschild|matr[ií]cula|placa|targa|immatriculation|"
    r"plaque(?:[ \t]+d['’]immatriculation)?|kenteken|rekisterinumero|registreringsnummer|regnr\.?|"
    r"(?:car|vehicle|van)[ \t]+reg|reg[ \t]+plate|spz|ečv|(?:numer|tablica|tablicy)[ \t]+rejestracyjn[a-z]*|"
    r"rejestracja|(?:registrační|poznávací)[ \t]+značk[a-z]*|rendszám|nummerplaat|nummerbord)"
    r"|车牌号?|车牌号码|ナンバー|번호판")
# (a marker after the cue is written with its dot, so a plate opening "NR10" is not read as "nr.")
# (the vehicle whose plate it is may stand between: "Het kenteken van mijn auto is", "la matrícula de mi coche es")
_OF_VEHICLE = (r"(?:[ \t]+(?i:of|van|von|de|di|del|du|des|der|my|our|his|her|mijn|onze|zijn|mi|mon|ma|mio|mia|meines|"
               r"het|the|la|le|il|el|auta|car|van|auto|coche|voiture|macchina|wagens?|samochodu|mého|mojego|bilen|"
               r"min)){0,3}")
_AFTER_CUE = re.compile(rf"{_OF_VEHICLE}(?:[ \t]+(?:is|was|ist|es|est|è|je|to|är|er|jest|[Nn]o\.|[Nn]r\.|[Nn]umber))?"
                        rf"[ \t]*[:#]?[ \t]*{_PLATE}"
                        r"(?![\w@]|[\-/.]\w)")
_LAYOUTS = re.compile(
    r"(?<![\w\-])(?P<value>[A-Z]{2}[\- ]\d{3}[\- ][A-Z]{2}"          # France (SIV), Italy
    r"|[A-Z]{2}\d{2}[ ]?[A-Z]{3}"                                   # United Kingdom
    r"|[A-ZÄÖÜ]{1,3}-[A-Z]{1,2}[ ]?\d{1,4}[EH]?"                    # Germany
    r"|\d{4}[ \-]?[B-DF-HJ-NP-TV-Z]{3}"                             # Spain
    r"|\d[A-Z][A-Z0-9][ ]\d{4}"                                      # Czechia, Slovakia (old)
    r"|\d{1,2}-[A-Z]{2,3}-\d{1,2}|[A-Z]{1,3}-\d{2,3}-[A-Z]{1,2}|[A-Z]{2}-\d{2}-[A-Z]{2}"  # the Netherlands
    r"|[A-Z]{2,3}[ ]\d{1,3}[A-Z]{1,2}\d{0,2})(?![\w\-])")            # Poland (a letter among the digits)
_VEHICLE = re.compile(
    r"(?i)\b(?:car|cars|van|truck|lorry|motorbike|motorcycle|scooter|moped|vehicle|camper|campervan|motorhome|"
    r"caravan|trailer|taxi|suv|pickup|towed|parked|parking|clamped|speeding|drive|drove|driving|rental|hatchback|"
    r"estate|saloon|auto|auta|autem|wagen|fahrzeug|voiture|véhicule|coche|vehículo|macchina|veicolo|bil|mot|tüv|itv|"
    r"samochód|samochodu|vůz|vozidlo|apk|kenteken|garage)\b")
_SENTENCE = 160


def plate_shaped(value: str) -> bool:
    """Two letters and two digits at least, at most twelve characters without the separators, and no year before
    a model's letters ("2019 BMW")."""
    if re.match(r"(?:19|20)\d\d[ ]", value):
        return False
    bare = re.sub(r"[\- ·.\t]", "", value)
    letters = sum(c.isalpha() for c in bare)
    digits = sum(c.isdigit() for c in bare)
    return letters >= 2 and digits >= 2 and len(bare) <= 12


def _vehicle_sentence(text: str, start: int, end: int) -> bool:
    """A vehicle's word in the sentence around the value (a bounded window, cut at sentence ends)."""
    lo = max(0, start - _SENTENCE)
    before = text[lo:start]
    cut = max(before.rfind(". "), before.rfind("? "), before.rfind("! "), before.rfind("\n"))
    after = text[end:end + _SENTENCE]
    stop = re.search(r"[.?!](?:\s|$)|\n", after)
    window = before[cut + 1:] + " " + (after[:stop.start()] if stop else after)
    return _VEHICLE.search(window) is not None


class LicencePlateRecognizer(ContextRule):
    NAME = "LicencePlateRecognizer"
    SCORE = 0.8
    ENTITIES = (ENTITY,)

    def find(self, text: str) -> list[Span]:
        out: list[Span] = []
        for cue in _CUE.finditer(text):
            m = _AFTER_CUE.match(text, cue.end())
            if m is not None and plate_shaped(m.group("value")):
                out.append((m.start("value"), m.end("value"), ENTITY))
        for m in _LAYOUTS.finditer(text):
            if plate_shaped(m.group("value")) and _vehicle_sentence(text, m.start(), m.end()):
                out.append((m.start("value"), m.end("value"), ENTITY))
        return sorted(set(out))
