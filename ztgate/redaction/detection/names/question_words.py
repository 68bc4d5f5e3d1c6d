"""An interrogative of another language opening a question is no name: "Kim był ...?", "Quem foi ...?", "Wann wurde
...?", "Qui était ...?", "Kdo byl ...?" (spaCy's English model reads the capitalised word as a person or a place).
The word counts only at a sentence's start and before a verb or a word of its own language that such a question
goes on with, so "Kim called" (a person named Kim, an English verb) stays a name. Cue words written by hand."""

from __future__ import annotations

import re

from ztgate.redaction.detection.text_shape import at_sentence_start

# Interrogative, then what its own language's question goes on with (a copula or an auxiliary, a lower-case word
# for the ones that are no given name anywhere). "Kim" (Polish "who") is also a given name: only before Polish
# "być" forms. Polish, Portuguese, Spanish, Italian, French, German, Dutch, Czech, Slovak.
_OPENER = re.compile(
    r"(?:Kim|Kto|Kogo|Komu)\s+(?:był|była|było|byli|były|jest|są|będzie|został|została)\b"
    r"|(?:Quem|Quando|Onde|Qual|Quais|Quanto|Quantos|Quantas)\s+(?:foi|é|era|foram|são|eram|inventou|descobriu|"
    r"escreveu|pintou|fundou|construiu|tem|fica|está|a|o|as|os)\b"
    r"|(?:Quién|Quiénes|Cuándo|Dónde|Cuál|Cuáles|Cuánto|Cuántos|Cuántas|Qué|Cómo)\s+[a-záéíóúñ]"
    r"|(?:Chi|Quando|Dove|Quale|Quali|Quanto|Quanti|Quante|Cosa|Che)\s+(?:era|fu|è|sono|erano|furono|ha|hanno|"
    r"aveva|scoprì|inventò|scrisse|dipinse|fondò|costruì|si|il|lo|la|i|gli|le|va|vive|viveva)\b"
    r"|(?:Qui|Quand|Où|Quel|Quelle|Quels|Quelles|Combien|Comment|Pourquoi)\s+(?:était|est|fut|a|ont|étaient|"
    r"sont|de|le|la|les|inventa|découvrit|écrivit|peignit|fonda|construisit)\b"
    # German questions open with their verb ("Ist Mecklenburg-Vorpommern ...?"); no English word among these.
    r"|(?:Ist|Sind|Wird|Wurde|Wurden|Gibt|Liegt|Liegen|Stimmt|Haben|Waren)\s+\S"
    r"|(?:Wer|Wann|Wo|Wie|Was|Welche|Welcher|Welches|Wieso|Warum|Woher|Wohin)\s+(?:[a-zäöüß][\w\-]*)"
    r"|(?:Wie|Wat|Wanneer|Waar|Welke|Hoe|Waarom|Hoeveel)\s+(?:was|is|waren|zijn|werd|heeft|had|ontdekte|schreef|"
    r"vond|bouwde|schilderde)\b"
    # Polish and Czech: the next word has a letter of those languages or is a common short word of theirs ("Jak said"
    # is English after a name).
    r"|(?:Kdo|Kdy|Kde|Jak|Jaký|Jaká|Jaké|Co|Kiedy|Gdzie|Jaki|Jaka|Jakie|Ile)\s+(?:[a-z]*[ąćęłńóśźżčďěňřšťůý]"
    r"[\w\-]*|byl|byla|bylo|byli|je|jsou|jest|to|se|ma|mają|wysoki|wysoka|wysokie|daleko|dużo|długo)\b")


_LOWER_WORDS = re.compile(r"(?:\s+[^\W\d_A-ZÀ-ÞА-ЯΑ-Ω][\w\-]*)*\s*")


def after_question_opener(text: str, start: int, end: int) -> int | None:
    """Where the name in NER's span text[start:end] starts when the span opens with an interrogative of another
    language at a sentence's start (module doc), past the lower-case words NER took with it ("Qué descubrió
    Santiago ..."); ``end`` when nothing is left; None when the span opens with no such word."""
    lead = start
    while lead > 0 and text[lead - 1] in "¿¡":
        lead -= 1
    if not at_sentence_start(text, lead):
        return None
    match = _OPENER.match(text, start)
    if match is None:
        return None
    cut = start + len(match.group().split()[0])
    if cut > end:
        return None
    words = _LOWER_WORDS.match(text, cut, end)
    return min(end, words.end()) if words is not None else cut
