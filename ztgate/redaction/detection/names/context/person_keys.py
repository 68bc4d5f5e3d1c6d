"""A name-shaped pair that is the value of a key, a field, a label or a tag about a person, whatever the format:
``author=``, ``"maintainer": "``, ``LABEL maintainer="``, ``\\author{``, ``@author``, ``:reviewer:``, ``..
codeauthor::``, ``<owner>``, ``[signed-off]``, ``On-Call -``, ``set(AUTHOR "``, in any comment syntax and any
case or separator style (issue #29).

The key is the identifier right before the value and its separator (``:``, ``=``, ``:=``, ``=>``, ``->``, ``::``,
``|``, a bracket, a tab, a quote; a bare blank only after ``@``, ``\\``, ``:`` or ``..``); it is a person's when one
of its parts, split at case humps, ``_``, ``-``, ``.`` and blanks, is a word of ``data/words/person_key_words.txt``
(author, owner, reviewer, on-call ...) or a role (``data/words/person_roles.txt``: analyst, sre ...), or when it
ends in "by" ("created_by", "Reported by"). The value must be a
name-shaped pair (``person_pairs``): the same keys hold teams, bots, handles and tools ("owner: @infra",
"maintainer: platform-team", "author = release-bot"). Further pairs of a list under the same key count too
("authors: A B, C D").
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ztgate.redaction.detection.names.context.base import ContextRule, Span
from ztgate.redaction.detection.names.context.person_pairs import pairs
from ztgate.redaction.detection.text_shape import line_bounds
from ztgate.redaction.detection.wordlists import words

# The key words, and the roles of people (``data/words/person_roles.txt``: "# Analyst: ", "engineer = ", "sre:").
KEY_WORDS = words("person_key_words") | words("person_roles")
# How far before a value its key and separator are looked for.
KEY_REACH = 60
# Markdown's emphasis may close around the key or after its colon ("**Attendees:** ", "*Reviewers*: ", ADR 0030).
_SEP = (r"""(?:(?:\*{1,2}|__?)?[ \t]*["'`]?[ \t]*(?:(?:::?=?|:=|=>?|->|\||[{(\[>\]]|-)[ \t]*)+(?:\*{1,2}|__?)?["'`\[]*[ \t]*"""
        r"""|\t+[ \t]*["'`]?|[ \t]+["'`])""")
_KEY = r"(?P<key>_*[A-Za-z][A-Za-z0-9]*(?:[_\-.][A-Za-z0-9]+)*_*(?:[ \t]+by)?)"  # "__maintainer__" too
# The key and its separator, ending right where the value starts.
_KEY_BEFORE = re.compile(
    rf"(?:^-{{0,2}}|(?<=[^\w\-.])|(?<=[ \t]--))(?:(?:@|\\|\.\.[ \t]+|:|(?<![^ \t\n])\.(?=[A-Za-z])){_KEY}[ \t]*(?::{{1,2}}|\{{)?[ \t]*[\"'`]?[ \t]*"
    rf"|{_KEY.replace('key', 'key2')}{_SEP}"
    # a quoted key, a comma, the quoted value after VALUE or a brace: an .rc VALUE "CompanyName", "v" (ADR 0038)
    rf"|(?:(?<=VALUE[ \t])|(?<=\{{)|(?<=\{{[ \t]))[\"']{_KEY.replace('key', 'key3')}[\"'][ \t]*,[ \t]*[\"']"
    # an atom key, a comma, the value or a list of values opening a tuple: Erlang's {maintainers, ["v", (ADR 0048)
    rf"|(?<=\{{)[ \t]*{_KEY.replace('key', 'key4')}[ \t]*,[ \t]*(?:\[[ \t]*)?[\"']?)$", re.MULTILINE)
# A COBOL paragraph of the IDENTIFICATION DIVISION, its upper-case name and a period opening the line
# ("       AUTHOR. NAME."): the period is a separator only there, never in prose ("ask the owner. Release Notes").
_PARAGRAPH_BEFORE = re.compile(r"[ \t]*(?P<key>[A-Z][A-Z\-]*)\.[ \t]+")
_HUMP = re.compile(r"(?<=[a-z])(?=[A-Z])")
# Between two values of one list ("A B, C D", "A B and C D", "A B; C D").
_LIST_GAP = re.compile(r"""[ \t]*["'`]?[ \t]*(?:[,;&/]|and|\+)[ \t]*["'`]?[ \t]*""")
# A key and its separator, then the earlier values of its list, ending where a later value starts ("authors =
# [\"A B\", \"", "reviewers: A B, "); a bot's bracketed tag inside a value ("renovate[bot], ").
_KEY_BEFORE_ITEMS = re.compile(_KEY_BEFORE.pattern.removesuffix("$")
                               + rf"(?:(?:[^,;&/\n\[\](){{}}\"'`]|\[[\w\-]{{1,20}}\]){{1,60}}?{_LIST_GAP.pattern})+$", re.MULTILINE)


def person_key(key: str) -> bool:
    """A key about a person: one of its parts is a person-key word, or it ends in "by" (module doc)."""
    parts = [p for p in re.split(r"[_\-.\s]+", _HUMP.sub("_", key).casefold()) if p]
    if not parts:
        return False
    return (any(p in KEY_WORDS for p in parts) or "".join(parts) in KEY_WORDS
            or (len(parts) >= 2 and parts[-1] == "by"))


# A YAML list item's dash before its value, and the parent key a block list hangs under ("reviewers:\n  - ").
_ITEM = re.compile(r"([ \t]*)-[ \t]+[\"']?")
_PARENT = re.compile(r"([ \t]*)[\"']?([A-Za-z][\w\-. ]{0,40}?)[\"']?[ \t]*:[ \t]*$")
# How many lines above an item its parent key is looked for.
ITEM_REACH = 12


def keyed_by_person(text: str, start: int, is_key: Callable[[str], bool] = person_key) -> bool:
    """A key about a person and its separator end right before start (module doc), on start's line, or before the
    earlier values of a list start is a later value of; or a bare
    ``name`` key does, in a record whose own key is a person's (``record_about_a_person``: "<developer>
    <name>", "\"author\": {\"name\": ", "maintainers:\n  - name: ", "[owner]\nname = "); or start is the
    ``content`` or ``value`` of a tag whose ``name``, ``property`` or ``itemprop`` is a person key ("<meta
    name=\"creator\" content=\""); or start is an item of a YAML block list whose key is a person's
    ("maintainers:\n  - NAME"); or start is an item of a bracketed list opened on an earlier line under the key
    (``_open_list_under``: "authors = [\n  \"A B\",\n  \"NAME\""); or start is the ``<string>`` of a property
    list's ``<key>`` ("<key>ORGANIZATIONNAME</key>\n<string>NAME"); or start opens a line of the section under a
    heading about persons (``_under_person_heading``: "=head1 AUTHOR", ".SH AUTHORS", "## Maintainers", an RST title). ``is_key`` says
    which keys are about a person (``person_key``; ``author_slots`` asks its narrower author-like slots)."""
    lo = line_bounds(text, start)[0]
    m = _KEY_BEFORE.search(text, max(lo, start - KEY_REACH), start)
    if m is None:  # a later value of a list under the key ("authors = [\"A B\", \"NAME\"]")
        m = _KEY_BEFORE_ITEMS.search(text, max(lo, start - 3 * KEY_REACH), start)
    if m is None:
        m = _PARAGRAPH_BEFORE.fullmatch(text, lo, start)
    if m is not None:
        groups = m.groupdict()
        key = groups.get("key") or groups.get("key2") or groups.get("key3") or groups["key4"]
        if is_key(key):
            return True
        if (key.casefold().replace("_", "").replace("-", "") in _NAME_KEYS
                and record_about_a_person(text, m.start(), is_key)):
            return True
    if _tag_field_about_a_person(text, lo, start, is_key) or _plist_value_of(text, start, is_key):
        return True
    if _open_list_under(text, start, is_key):
        return True
    item = _ITEM.fullmatch(text, lo, start)
    if item is not None and _parent_key_about_a_person(text, lo, len(item.group(1)), is_key):
        return True
    return _LINE_LEAD.fullmatch(text, lo, start) is not None and _under_person_heading(text, lo, is_key)


# Keys that hold a person's name inside a record about that person: a developer's ``<name>``, an author's
# ``"name"``, a maintainer's ``name:`` (written without ``_`` or ``-``).
_NAME_KEYS = frozenset({"name", "fullname", "displayname", "realname", "n"})
# How far back a record's opening is looked for.
RECORD_REACH = 600
_XML_TAG = re.compile(r"<(/?)([A-Za-z][\w:.\-]*)(?:\s[^<>]*?)?(/?)>")
_JSON_OPEN = re.compile(r"""["']?([A-Za-z][\w\-. ]{0,40}?)["']?[ \t]*[:=][ \t]*\[?[ \t\n]*\{[ \t]*$""")
_TOML_TABLE = re.compile(r"^[ \t]*\[{1,2}[ \t]*([\w\-.\" ]+?)[ \t]*\]{1,2}[ \t]*$", re.MULTILINE)


def record_about_a_person(text: str, key_pos: int, is_key: Callable[[str], bool] = person_key) -> bool:
    """The record a ``name`` key at key_pos belongs to has a person's key: the XML element it is a child of
    ("<developer>\n  <name>"), the JSON object it opens ("\"author\": {\"name\"", "\"authors\": [{\"name\"", a later
    record of that list: "maintainers = [{name = \"A\"}, {name = "), the
    YAML mapping it is a key of ("author:\n  name:", "maintainers:\n  - name:") or the TOML table it is under
    ("[owner]\nname = ")."""
    lo = max(0, key_pos - RECORD_REACH)
    if key_pos > 0 and text[key_pos - 1] == "<" or text[key_pos:key_pos + 1] == "<":
        open_tags: list[str] = []
        for tag in _XML_TAG.finditer(text, lo, key_pos):
            closing, name, empty = tag.groups()
            if closing:
                while open_tags and open_tags.pop() != name:
                    pass
            elif not empty:
                open_tags.append(name)
        return bool(open_tags) and is_key(open_tags[-1].rsplit(":", 1)[-1])
    depth = 0
    for i in range(key_pos - 1, lo - 1, -1):  # the innermost unclosed brace before the key: a JSON object
        c = text[i]
        if c == "}":
            depth += 1
        elif c == "{":
            if depth == 0:
                opened = _JSON_OPEN.search(text, max(lo, i - KEY_REACH), i + 1)
                if opened is not None:
                    return is_key(opened.group(1))
                return _list_of_records_under(text, i, lo, is_key)
            depth -= 1
    line_start = line_bounds(text, key_pos)[0]
    lead = text[line_start:key_pos]
    if not lead.strip(" \t-\"'"):  # a YAML key: the mapping's parent key, one indentation up
        if _parent_key_about_a_person(text, line_start, len(lead) - len(lead.lstrip(" \t")) + ("-" in lead) * 2, is_key):
            return True
        table = None
        for table in _TOML_TABLE.finditer(text, lo, line_start):
            pass
        return table is not None and is_key(table.group(1).strip("\" ").rsplit(".", 1)[-1])
    return False


# The name attribute and the value attribute of one tag: "<meta name=\"author\" content=\"", "<property
# name=\"maintainer\" value=\"".
_TAG_VALUE = re.compile(r"""(?:content|value)[ \t]*=[ \t]*["']$""")
_TAG_FIELD = re.compile(r"""\b(?:name|property|itemprop)[ \t]*=[ \t]*["']([\w:.\-]{2,60})["']""")


def _tag_field_about_a_person(text: str, line_start: int, start: int, is_key: Callable[[str], bool] = person_key
                              ) -> bool:
    """start is the content or value of a tag whose name, property or itemprop is a person key (``keyed_by_person``)."""
    if _TAG_VALUE.search(text, max(line_start, start - 12), start) is None:
        return False
    tag_start = text.rfind("<", line_start, start)
    tag_end = text.find(">", start, start + 200)
    if tag_start < 0 or tag_end < 0:
        return False
    return any(is_key(f.group(1).replace(":", "_")) for f in _TAG_FIELD.finditer(text, tag_start, tag_end))


# An item of a list: a quoted string, then the separator before the next ("\"A B <a@b.c>\",\n    ").
_LIST_ITEMS = re.compile(r"""\s*(?:(?:"[^"\n]{0,120}"|'[^'\n]{0,120}')\s*(?:[,;]\s*)?)*["']""")
# How far back the opening bracket of a list across lines is looked for, and how many brackets are tried.
LIST_REACH = 600
_LIST_OPENERS = 4


def _open_list_under(text: str, start: int, is_key: Callable[[str], bool] = person_key) -> bool:
    """start is a quoted item of a list whose bracket opened on an earlier line (or on a line of its own), only
    quoted items before it, and the key before that bracket (or ending the line above it) is about a person: a TOML,
    JSON, Python, Lua, Perl or Erlang list across lines ("authors = [\n    \"A B\",\n    \"NAME\"", "\"maintainers\": [\n \"NAME\"", "{maintainers,\n [\"NAME\"")."""
    lo = max(0, start - LIST_REACH)
    pos = start
    for _ in range(_LIST_OPENERS):
        pos = max(text.rfind(c, lo, pos) for c in "[({")
        if pos < 0:
            return False
        if not _LIST_ITEMS.fullmatch(text, pos + 1, start):
            continue
        key = _key_before_bracket(text, pos)
        if key is not None:
            return is_key(key)
    return False


def _key_before_bracket(text: str, pos: int) -> str | None:
    """The key whose value the bracket at pos opens, on its line or ending the line above when the bracket opens its
    own line ("authors = [", "\"maintainers\":\n  [", "{maintainers,\n [")."""
    line_start = line_bounds(text, pos)[0]
    before = text[max(line_start, pos - KEY_REACH):pos + 1]
    if not before[:-1].strip() and line_start > 0:
        above = text[line_bounds(text, line_start - 1)[0]:line_start - 1].rstrip()
        before = above[-KEY_REACH:] + " " + text[pos]
    m = _KEY_BEFORE.search(before)
    if m is None:
        return None
    groups = m.groupdict()
    return groups.get("key") or groups.get("key2") or groups.get("key3") or groups["key4"]


def _list_of_records_under(text: str, brace: int, lo: int, is_key: Callable[[str], bool]) -> bool:
    """The record opening at brace is a later item of a list under a person's key: the list's unclosed bracket,
    found over the earlier records, has such a key ("maintainers = [\n  {name = \"A\"},\n  {name = ")."""
    depth = 0
    for j in range(brace - 1, lo - 1, -1):
        c = text[j]
        if c in "}]":
            depth += 1
        elif c == "{" and depth > 0:
            depth -= 1
        elif c == "[":
            if depth == 0:
                key = _key_before_bracket(text, j)
                return key is not None and is_key(key)
            depth -= 1
        elif c == "{":
            return False  # the record sits in an object, not a list
    return False


# A property list's key and the string after it ("<key>ORGANIZATIONNAME</key>\n\t<string>").
_PLIST_KEY = re.compile(r"<key>[ \t]*([A-Za-z][\w.\- ]{0,60}?)[ \t]*</key>\s{0,40}<string>[ \t]*$")


def _plist_value_of(text: str, start: int, is_key: Callable[[str], bool] = person_key) -> bool:
    """start is the string of a property list's key about a person (``keyed_by_person``)."""
    m = _PLIST_KEY.search(text, max(0, start - 2 * KEY_REACH - 40), start)
    return m is not None and is_key(m.group(1))


# The start of a line before a value under a heading: indentation and a list bullet.
_LINE_LEAD = re.compile(r"[ \t]*(?:[-*+•][ \t]+)?")
# Headings of sections in man, POD, Markdown, AsciiDoc and plain text; an RST title is the line over its underline.
_HEADING = re.compile(r"[ \t]*(?:=head\d|\.S[HS]|#{1,6}|={1,6})[ \t]+[\"']?([^\n\"']{1,60}?)[\"']?[ \t#=]*"
                      r"|[ \t]*(?:\*{1,2}|__?)?([A-Za-z][^\n:*]{0,40}?)(?:\*{1,2}|__?)?:(?:\*{1,2}|__?)?[ \t]*")
_UNDERLINE = re.compile(r"[ \t]*([=\-~^\"'`#*+])\1{2,}[ \t]*")
# How many lines above a value its heading is looked for, and how many words a heading about persons has.
HEADING_REACH = 8
_HEADING_WORDS = 4


def _under_person_heading(text: str, line_start: int, is_key: Callable[[str], bool] = person_key) -> bool:
    """The line at line_start is in the section under a heading about persons, at most HEADING_REACH lines
    below it, over blank lines and other short lines (a list of names): "=head1 AUTHOR\n\nNAME", ".SH
    AUTHORS\nNAME", "## Maintainers\n\n- NAME", "Authors\n-------\n\nNAME", "Contributors:\n  NAME"."""
    end = line_start - 1
    for _ in range(HEADING_REACH):
        if end < 0:
            return False
        lo = line_bounds(text, end)[0]
        line = text[lo:end]
        title = None
        if _UNDERLINE.fullmatch(line) and lo > 0:
            above = line_bounds(text, lo - 1)[0]
            title = text[above:lo - 1].strip()
        elif (heading := _HEADING.fullmatch(line)) is not None:
            title = (heading.group(1) or heading.group(2)).strip()
        if title is not None:
            return len(title.split()) <= _HEADING_WORDS and is_key(title)
        if len(line.split()) > 6:
            return False
        end = lo - 1
    return False


def _parent_key_about_a_person(text: str, line_start: int, indent: int,
                               is_key: Callable[[str], bool] = person_key) -> bool:
    """The key of the block list whose item at ``indent`` starts the line at line_start, looked for at most
    ITEM_REACH lines up over the list's other items (and their fields), is about a person."""
    end = line_start - 1
    for _ in range(ITEM_REACH):
        if end < 0:
            return False
        lo = line_bounds(text, end)[0]
        line = text[lo:end]
        own = len(line) - len(line.lstrip(" \t"))
        item = _ITEM.match(line)
        if item is not None and line.strip() != "-" and len(item.group(0).rstrip("\"'")) == indent:
            end = lo - 1  # the first key of the same mapping, after its item's dash ("  - family: X" above "    given:")
            continue
        if line.strip() and own < indent + (0 if line.lstrip().startswith("-") else 1):
            parent = _PARENT.fullmatch(line)
            return parent is not None and own <= indent and is_key(parent.group(2))
        end = lo - 1
    return False


class PersonKeyRecognizer(ContextRule):
    NAME = "PersonKeyRecognizer"
    SCORE = 0.9
    ENTITIES = ("PERSON",)

    def find(self, text: str) -> list[Span]:
        out: list[Span] = []
        last_end = -1
        for start, end in sorted(set(pairs(text))):
            if start < last_end:
                continue
            lo = line_bounds(text, start)[0]
            if last_end >= lo and _LIST_GAP.fullmatch(text, last_end, start):
                out.append((start, end, "PERSON"))
                last_end = end
                continue
            if keyed_by_person(text, start):
                out.append((start, end, "PERSON"))
                last_end = end
        return out
