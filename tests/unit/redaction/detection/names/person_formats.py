"""The pieces of the generated families of persons in code and technical text in formats no rule names one by
one (issue #29): comment syntaxes x person-role key spellings x separators, person verbs in comments and log
lines, e-mail addresses and handles beside a name, chat and review transcripts; and the clean family of tools
and projects spelt like given names or surnames, used as products.

Name pools and tools are made up here, apart from every ``code_persons`` split's (the test module checks it), so
the families are tuning material of their own, never a held-out set's.
"""

from __future__ import annotations

GIVEN = ("Gustavo", "Beatriz", "Anneliese", "Torsten", "Kasimir", "Rosalind", "Desmond", "Henrietta", "Ignacio",
         "Clementine", "Yevgeny", "Oksana", "Lorenzo", "Graziella", "Farouk", "Leila", "Kaveh", "Ottilie", "Hemi",
         "Anahera")
SURNAMES = ("Albrechtsen", "Drummond", "Pellegrini", "Sørlie", "Mwangi", "Thorvaldsen", "Kuznetsova",
            "Bertolucci", "Ramírez", "Nakagawa", "Whitcombe", "Featherstone", "Lindahl", "Oyelowo", "Baptiste",
            "Marchetti", "Hollingsworth", "Vasquez-Ortega", "Żurawski", "O'Flaherty")

# Comment and line openers of many languages and formats: {} is the rest of the line.
COMMENTS = ("# {}", "// {}", "-- {}", "; {}", ";; {}", "% {}", "/* {} */", "<!-- {} -->", "REM {}", "' {}",
            " * {}", "#' {}", "{}", "    # {}", "{{# {} #}}", "(* {} *)", "! {}", "%% {}", "-- | {}")
# Keys whose value is a person, in any case and separator style.
PERSON_KEYS = ("author", "Author", "AUTHOR", "authors", "maintainer", "Maintainer", "maintainers", "owner",
               "Owner", "code_owner", "code-owner", "codeOwner", "reviewer", "Reviewers", "reviewed_by",
               "reviewedBy", "assignee", "Assigned-To", "assigned_to", "reporter", "Reported by", "on-call",
               "oncall", "on_call", "OnCall", "contact", "Contact", "cc", "CC", "signed-off", "Signed-off-by",
               "approved", "Approved-by", "approver", "contributor", "Contributors", "written_by", "created_by",
               "createdBy", "primary_contact", "escalation", "tech-lead", "techLead", "pager", "responder",
               "editor", "translator", "tester", "verified-by", "requested-by", "requester")
# A key and its value: {k} the key, {v} the value.
KEY_SHAPES = ("{k}: {v}", "{k} = {v}", "{k}={v}", "{k} := {v}", '"{k}": "{v}"', "'{k}' => '{v}'", '{k}="{v}"',
              "{k} = '{v}'", "@{k} {v}", "\\{k}{{{v}}}", ":{k}: {v}", "{k}:\t{v}", "{k} -> {v}", "{k}: \"{v}\"",
              "LABEL {k}=\"{v}\"", "- {k}: {v}", "{k} :: {v}", "<{k}>{v}</{k}>", "[{k}] {v}", "{k}\t{v}",
              "{k} - {v}", "{k} | {v}", "set({k} \"{v}\")", "{k}({v})")
# A person verb around a name: {} the name.
VERB_FRAMES = ("{} fixed the retry loop", "{} reported the crash on arm64", "paged {} at 03:10",
               "ping {} before merging", "thanks to {} for the repro", "per {}, keep the cast", "cc {}",
               "assigned to {}", "{} suggested the cache", "{} noticed the drift", "asked {} about the quota",
               "handed off to {} for the rollout", "escalated to {}", "{} signed off on the schema",
               "{} approved the migration", "{} will rotate the keys", "waiting on {} for the numbers",
               "{} is on call this week", "blame {} for this regex", "{} broke the nightly, reverting",
               "{} added the index in March", "{} patched the parser", "credit: {}", "via {}",
               "{} owns the billing views", "talked with {} about the limits", "{} rewrote this in Go",
               "{} found the leak", "as discussed with {}", "{} to review", "{} has the context here")
# A name beside a contact value: {n} the name, {e} an e-mail address, {h} a handle.
CONTACT_SHAPES = ("{n} <{e}>", "{n} (@{h})", "{n} ({e})", "{n} - {e}", "{n}, {e}", "{n} @{h}", "[{n}](mailto:{e})",
                  "{n} [{e}]", "{n} <@{h}>", "{n} | {e}")
# Speakers of chat logs and review threads: {} the name.
TRANSCRIPTS = ("<{}> the deploy is stuck again", "{} wrote:\n> use the bulk endpoint", "[{}] rebased on main",
               "**{}**: can we drop the v1 route?", "On Tue, 5 Mar 2024, {} wrote:", "> {}: agreed, ship it",
               "{} commented: the lock is held too long", "@{} replied: fixed in 3e1a9c0",
               "{} (reviewer): please add a test", "— {}, 14:32\nthe queue drained", "{} said: rolling back now")
# Name forms: a given name on the shipped list and a surname; the surname first with a comma.
NAME_FORMS = ("{g} {s}", "{s}, {g}", "{g} {s}")

# Tools and projects spelt like given names or surnames, used as products. Left out on purpose: a lone word
# after a person cue with nothing else about it ("Thanks to Kirby, the logs are structured now."): it reads as a
# person and is hidden (fail closed).
TOOLS = ("Winston", "Morgan", "Bunyan", "Kirby", "Joplin", "Marko", "Aurelia", "Oscar", "Vivaldi", "Rufus",
         "Cyrus", "Godot", "Watson", "Marvin")
CLEAN = ("# {t} 3.2 ships a new config loader\nconfig = load()\n",
         "import {m}\n\nlog = {m}.create_logger(level=\"info\")\n",
         "// configure {t} via {m}.config.js\nmodule.exports = {{ level: 'warn' }};\n",
         "npm install {m} --save\n",
         "pip install {m}==2.4.1\n",
         "-- the {t} exporter writes to this table\nCREATE TABLE events (id INT);\n",
         "logger: {t}\nlevel: debug\n",
         "engine = \"{t}\"  # pinned to 4.2\n",
         "## Upgrading {t}\n\nRun `{m} migrate` after the upgrade.\n",
         "# {t} plugin for the build\nplugins:\n  - {m}-plugin\n",
         "FROM {m}:4.2-alpine\nRUN {m} --version\n",
         "The {t} CLI reads ~/.{m}rc on start.\n",
         "// {t} fixed the memory leak in 3.1.2\n",
         "- Bump {t} from 2.0.1 to 2.1.0\n",
         "See the {t} docs: https://example.org/{m}/docs\n",
         "maintainer: platform-team\nuses: {m}\n",
         "# owner: @infra/{m}-admins\n",
         "author = \"release-bot\"\nbackend = \"{m}\"\n",
         "[{t}] cache warmed in 120 ms\n",
         "<{m}> starting worker 3\n",
         "{t} 4.0 dropped the legacy API; our wrapper in src/{m}/ still calls it.\n")
