"""A product's name in its own manifest (issue #29, ADR 0030, ADR 0038) names the product, not a person ("\"name\":
\"Black Helper\"").

Known by its own keys, never by a list of products: a key only a manifest has beside the name key in its mapping
(``MANIFEST_KEYS``: ``manifest_version``, ``publisher``, ``engines``, any key ending in ``version`` ...), or the name
key opening a line of a TOML table that describes a package; or by its shape in any syntax (``manifest_sections``):
a key naming a product (``name``, ``title``, or a key ending in either whose other words name no person: ``Plugin
Name``, ``PRODUCT_NAME``, ``Implementation-Title``) beside a version key and an identity key (an id, a description,
a licence ...) or a version key of its own prefix (``PRODUCT_VERSION``) in one tag, element or section. A name inside
a nested record (``"author": {"name": ...}``, ``maintainers:\n  - name:``) is not the product's: ``author`` and
``maintainers`` keep naming persons."""

from __future__ import annotations

import re

from ztgate.redaction.detection.manifest_sections import section_keys
from ztgate.redaction.detection.wordlists import phrases, words

# Keys that only a product's manifest has (lower case): WebExtensions, npm, VS Code, Helm, Expo/Heroku app.json.
MANIFEST_KEYS = frozenset((
    "manifest_version homepage_url publisher engines apiversion appversion kubeversion icons permissions "
    "host_permissions content_scripts background browser_action page_action action default_locale "
    "activationevents contributes categories devdependencies peerdependencies scripts bin main module "
    "keywords license slug sdkversion bundleidentifier "
    # A static site's configuration (MkDocs, Jekyll, Hugo) beside its site_name or title.
    "site_url repo_url docs_dir theme plugins nav baseurl").split())
_MANIFEST_KEYS = frozenset(k.replace("_", "") for k in MANIFEST_KEYS)
# The keys that name the product (lower case, "_" and "-" dropped).
PRODUCT_NAME_KEYS = frozenset({"name", "displayname", "productname", "shortname", "sitename"})
_KEY = re.compile(r"""^([ \t]*)["']?([A-Za-z][\w\-]*)["']?[ \t]*[:=]""")
# The key right before a value at start ("\"name\": \"", "displayName: ", "name = \"").
_KEY_BEFORE = re.compile(r"""(?<![\w\-])["']?([A-Za-z][\w\-]*)["']?[ \t]*[:=][ \t]*["']?$""")
_TOML_TABLE = re.compile(r"^[ \t]*\[[ \t]*([\w\-.\" ]+?)[ \t]*\][ \t]*$", re.MULTILINE)
_PACKAGE_TABLES = frozenset({"project", "package", "tool.poetry", "workspace.package", "tool.flit.metadata"})
# Parts of a key that say what a manifest's section is about, besides its name and version (lower case): its
# identity, description and licence.
IDENTITY_KEY_PARTS = frozenset((
    "id identifier guid uuid upgradecode productcode symbolicname description summary license licence homepage "
    "url website entrypoint main").split())
# Parts of a key that make a name key a person's ("author name", "first_name", "publisher display name").
_PERSON_PARTS = (words("person_key_words") | words("person_roles") | words("person_name_parts")
                 | words("record_name_parts") | frozenset(p for p in phrases("author_slot_words") if " " not in p)
                 | frozenset({"full", "user", "real", "nick", "legal", "maiden", "contact", "publisher", "vendor",
                              "company", "manufacturer", "provider"}))
_HUMP = re.compile(r"(?<=[a-z])(?=[A-Z])")
# How far either side of the key its siblings are looked for.
REACH = 2048


def _norm(key: str) -> str:
    return key.casefold().replace("_", "").replace("-", "")


def product_name_field(text: str, start: int) -> bool:
    """The value at start is the product's own name in its manifest (module doc)."""
    return _named_manifest_field(text, start) or product_name_by_shape(text, start)


def key_parts(key: str) -> list[str]:
    """A key's words, lower case, split at case humps, blanks, '_', '-' and '.'."""
    return [p for p in re.split(r"[_\-.\s:]+", _HUMP.sub("_", key).casefold()) if p]


def product_name_by_shape(text: str, start: int) -> bool:
    """The value at start stands under a key naming a product, beside a version key and an identity key or a
    version key of the same prefix in the same tag, element or section (module doc)."""
    found = section_keys(text, start)
    if found is None:
        return False
    key, siblings = found
    parts = key_parts(key)
    if not parts or parts[-1] not in ("name", "title") or any(p in _PERSON_PARTS for p in parts[:-1]):
        return False
    versions = [key_parts(k) for k in siblings if key_parts(k)[-1:] == ["version"]]
    if not versions:
        return False
    return (any(v[:-1] == parts[:-1] for v in versions if len(v) > 1)
            or any(p in IDENTITY_KEY_PARTS for k in siblings for p in (*key_parts(k), "".join(key_parts(k)))))


def _named_manifest_field(text: str, start: int) -> bool:
    line_start = text.rfind("\n", 0, start) + 1
    key = _KEY_BEFORE.search(text, max(line_start, start - 40), start)
    if key is None or _norm(key.group(1)) not in PRODUCT_NAME_KEYS:
        return False
    lead = text[line_start:key.start()]
    if lead.strip(" \t{,"):  # a key inside an inline record ("{name = ", "\"author\": {\"name\": "): not the product's
        return False
    indent = len(lead) - len(lead.lstrip(" \t"))
    if text[key.end(1):key.end(1) + 3].lstrip("\"' \t").startswith("="):  # TOML: the table the key is in
        table = None
        for table in _TOML_TABLE.finditer(text, max(0, start - REACH), line_start):
            pass
        if table is not None and table.group(1).replace('"', "").strip() in _PACKAGE_TABLES:
            return True  # otherwise an INI-style file (a plugin's metadata.txt, library.properties): its siblings
    return _sibling_manifest_key(text, line_start, indent)


def _sibling_manifest_key(text: str, line_start: int, indent: int) -> bool:
    """A manifest key at the same indentation as the name key, within the same mapping (no line less indented
    between them)."""
    lines_before = text[max(0, line_start - REACH):line_start].split("\n")[:-1]
    line_end = text.find("\n", line_start)
    lines_after = text[line_end + 1:line_end + 1 + REACH].split("\n") if line_end >= 0 else []
    for lines in (reversed(lines_before), lines_after):
        for line in lines:
            if not line.strip() or line.strip() in "{}[],":
                if line.strip() in ("}", "},", "]", "],") and len(line) - len(line.lstrip(" \t")) < indent:
                    break
                continue
            m = _KEY.match(line)
            own = len(line) - len(line.lstrip(" \t"))
            if own < indent:
                break
            if m is not None and own == indent and (_norm(m.group(2)) in _MANIFEST_KEYS
                                                    or _norm(m.group(2)).endswith("version")):
                return True  # any version key ("version", "qgisMinimumVersion", "appVersion") marks a package
    return False
