"""Rebuild given_names.txt (a development tool, not used at run time; needs nomquamgender and wordfreq).

    pip install --target /tmp/gn nomquamgender==0.1.4 wordfreq==3.1.1
    PYTHONPATH=/tmp/gn python ztgate/redaction/data/build_given_names.py > ztgate/redaction/data/given_names.txt

Source: nomquamgender 0.1.4 (MIT; Van Buskirk, Clauset and Larremore 2023), given names and how many
people bear them across 36 national and administrative name lists. Kept: Latin-script names of three
letters or more, seen in at least two lists by at least MIN_PEOPLE people, that are not common English
words (wordfreq's Zipf frequency under RARE_ZIPF, or under COMMON_ZIPF for a name borne by at least
COMMON_PEOPLE people: "Iain" and "Lars" stay, "Login", "Sublime" and "Cisco" go).
"""

from __future__ import annotations

import json
import re
import sys
from importlib.util import find_spec
from pathlib import Path

from wordfreq import zipf_frequency

MIN_PEOPLE = 50
RARE_ZIPF = 2.8
COMMON_ZIPF = 3.6
COMMON_PEOPLE = 3000
_LETTERS = "a-zà-öø-ÿāăąćĉċčďđēĕėęěĝğġģĥħĩīĭįıĵķĺļľŀłńņňōŏőœŕŗřśŝşšţťŧũūŭůűųŵŷźżžșț"
_NAME = re.compile(rf"[{_LETTERS}]{{3,}}(?:-[{_LETTERS}]{{2,}})?")


def main() -> None:
    spec = find_spec("nomquamgender")  # located, not imported: its __init__ needs packages we do not use
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit("nomquamgender is not installed")
    path = Path(next(iter(spec.submodule_search_locations))) / "name_data.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    kept = []
    for name, (lists, people, *_rest) in data.items():
        if lists < 2 or people < MIN_PEOPLE or not _NAME.fullmatch(name):
            continue
        zipf = zipf_frequency(name, "en")
        if zipf < RARE_ZIPF or (zipf < COMMON_ZIPF and people >= COMMON_PEOPLE):
            kept.append(name)
    sys.stdout.write("# Given names (casefolded), built by build_given_names.py from nomquamgender 0.1.4 (MIT).\n")
    sys.stdout.write("\n".join(sorted(set(kept))) + "\n")


if __name__ == "__main__":
    main()
