"""Public list ``historical``: historical states, dynasties, eras, events and documents (``data/public/historical.txt``,
written by hand), and names of that shape: words and then a head ("the Mongol Empire", "the Ming Dynasty", "the
Bronze Age", "the Cuban Missile Crisis"), or "Battle of", "Treaty of", "Siege of" and more words, or an era's adjective and a place ("Victorian England",
"Ancient Egypt", "Feudal Japan"). spaCy reads
many as a person or a place ("Roman Empire"), so the list holds for PERSON, LOCATION and NRP."""

from __future__ import annotations

import re

from ztgate.redaction.detection.public import PublicList, from_lines, heads_pattern
from ztgate.redaction.detection.public._data import read_lines

HEADS = ["Empire", "Dynasty", "Caliphate", "Sultanate", "Khanate", "Shogunate", "League", "Confederacy",
         "Confederation", "Kingdom", "War", "Wars", "Revolution", "Rebellion", "Uprising", "Revolt", "Crisis",
         "Restoration", "Reformation", "Renaissance", "Age", "Era", "Period", "Epoch", "Depression", "Rush",
         "Massacre", "Blockade", "Pact", "Accords", "Armada", "Crusade", "Plague", "Famine", "Expedition",
         # Historical states and polities (ADR 0034): "the Dutch Republic", "the Polish-Lithuanian Commonwealth"
         "Republic", "Duchy", "Grand Duchy", "Principality", "Commonwealth", "Emirate", "Tsardom", "Despotate",
         "Margraviate", "Electorate", "Protectorate", "Raj", "Rus'", "Rus"]
EVENT_OF = re.compile(r"(?:battle|siege|sack|fall|treaty|peace|congress|council|edict|partition|unification) of "
                      r"(?:the )?[^\W\d_][\w'’.\- ]{1,40}")
# A state named "<kind> of <place>" ("the Republic of Venice", "the Grand Duchy of Lithuania", "the Kingdom of
# Aksum"; ADR 0034).
STATE_OF = re.compile(r"(?:grand |free |holy |united )?(?:republic|kingdom|duchy|archduchy|principality|empire|emirate|"
                      r"county|margraviate|electorate|tsardom|khanate|sultanate|caliphate|despotate|commonwealth|"
                      r"confederation|protectorate|dominion|viceroyalty|state|city|realm|crown|lordship|bishopric|"
                      r"prince-bishopric) of (?:the )?[^\W\d_][\w'’.\-]*(?: (?:and |the )?[^\W\d_][\w'’.\-]*){0,3}")

# An era's adjective and then a place; no adjective that is also a given name ("Roman", "Tudor").
ERA_OF_PLACE = re.compile(r"(?:victorian|elizabethan|edwardian|medieval|mediaeval|ancient|imperial|colonial|feudal|"
                          r"prehistoric|pre-columbian|ptolemaic|pharaonic|byzantine|ottoman|mughal|tsarist|napoleonic|"
                          r"weimar|soviet) [^\W\d_][\w'’.\-]{1,30}(?: [^\W\d_][\w'’.\-]{1,30})?")


def load() -> PublicList:
    return from_lines("historical", frozenset({"PERSON", "LOCATION", "NRP"}), read_lines("historical.txt"),
                      patterns=(heads_pattern(HEADS), EVENT_OF, ERA_OF_PLACE, STATE_OF))
