"""A chat model's refusal written in its own words ("I don't know.", "The passages do not
mention this [1].").

The answer prompt asks a model that finds no answer to write ``INSUFFICIENT_EVIDENCE`` (and
``insufficient_evidence: true``); models often say it in words instead, sometimes with a
marker. :func:`is_refusal` reads such an answer as the refusal it is
(:func:`chains.citations.says_insufficient`), so the run ends ``no_evidence`` rather than
``answered`` with a citation of a passage that does not answer, or ``failed`` for citing
nothing.

Only a whole answer is a refusal: every one of its sentences (at most
:data:`MAX_SENTENCES`, markers removed) is one of :data:`REFUSAL_PATTERNS`, and none holds a
contrast ("…, but …") that goes on to say something. A real answer that merely contains a
negation ("The AGM is not held in August; it is held in June [1].") is no refusal: its
subject is not the passages, the answerer or the answer.
"""

from __future__ import annotations

import re

#: A refusal is at most this many sentences.
MAX_SENTENCES = 3
_SOURCES = (
    r"(?:the |these |those |this |your |my |any |all )?(?:supplied |provided |given |available "
    r"|retrieved |cited |above |following |relevant )?(?:passages?|documents?|sources?|context"
    r"|texts?|excerpts?|materials?|records?|information|evidence|data|files?)"
    r"(?: (?:supplied|provided|given|available|above|here|i (?:have|was given)))?"
)
_SAYING = (
    r"(?:mention|say|state|contain|include|answer|cover|specify|provide|address|describe|"
    r"explain|give|discuss|indicate|list|show|tell|hold|have|offer|support|define|identify|"
    r"reference|refer to)s?"
)
_NOT = r"(?:do not|does not|did not|don't|doesn't|didn't)"
_CANNOT = (
    r"(?:(?:i|we) (?:cannot|can not|can't|could not|couldn't|am unable to|was unable to|"
    r"am not able to|was not able to|did not|didn't)|i'm (?:unable|not able) to)"
)
#: Where a bare "not stated" / "no information" may say it is missing ("… in the passages")
#: or what about ("… about this fault code"): nothing else follows them ("Not provided for
#: contractors [1]." answers).
_TAIL = (
    rf"(?:\s(?:(?:in|from|within|among|by) {_SOURCES}|(?:about|regarding|concerning|on|as to)\s)"
)
_TAIL += r".*)?"
#: The refusal statements, each matched against one whole sentence, lower-cased, markers
#: removed, end punctuation dropped (``’`` read as ``'``). The one list of them: extend it
#: here.
REFUSAL_PATTERNS: tuple[str, ...] = (
    # the passages do not say: "The passages do not mention this fault code."
    rf"(?:none of )?{_SOURCES} {_NOT} (?:directly |explicitly |specifically |clearly )?"
    rf"{_SAYING}(?:\s.*)?",
    rf"none of {_SOURCES} {_SAYING}(?:\s.*)?",
    # the passages hold nothing: "The documents contain no information about it."
    rf"{_SOURCES} (?:contains?|provides?|gives?|has|have|holds?|offers?|includes?) no "
    r"(?:information|answer|mention|details?|data|evidence|reference)(?:\s.*)?",
    # the answerer does not know / cannot find: "I don't know.", "I could not find the answer."
    r"(?:i|we) (?:do not|don't) (?:know|have (?:enough |that |this |the |any )?"
    r"(?:information|evidence|data|details?))(?:\s.*)?",
    rf"{_CANNOT} (?:find|answer|determine|tell|say|locate|identify|confirm)(?:\s.*)?",
    r"(?:i|we) (?:found|find|have|see) no (?:information|answer|mention|evidence|data|details?|"
    r"reference)(?:\s.*)?",
    # the answer is not there: "Unknown.", "Not stated in the passages.", "No information."
    r"(?:unknown|not known|n/?a|no answer|cannot be determined|insufficient (?:evidence|"
    rf"information)|not enough (?:evidence|information)){_TAIL}",
    r"(?:(?:the |this )?(?:answer|information|it|this|that) (?:is|was) )?not "
    r"(?:stated|mentioned|specified|given|provided|found|covered|available|included|"
    rf"addressed|known|in {_SOURCES}){_TAIL}",
    r"(?:the |this )?(?:answer|question) (?:cannot|can not|can't|could not) be "
    r"(?:found|determined|answered|given)(?:\s.*)?",
    r"(?:(?:there is|there's) )?no mention(?:\s.*)?",
    r"(?:(?:there is|there's|there are) )?no (?:information|answer|evidence|data|"
    rf"details?|reference|indication){_TAIL}",
)
_REFUSAL = re.compile("|".join(f"(?:{p})" for p in REFUSAL_PATTERNS))
#: A sentence that goes on to say something after its refusal ("…, but the fee is £5").
_CONTRAST = re.compile(r"\b(?:but|however|although|though|except|instead|yet|whereas)\b|;")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")


def _sentences(text: str) -> list[str]:
    return [s.strip() for s in _SENTENCE_END.split(text) if s.strip()]


def is_refusal_sentence(sentence: str) -> bool:
    """Whether one sentence (markers removed) only says the answer is not there.

    Args:
        sentence: One sentence, without citation markers.
    """
    text = " ".join(sentence.lower().replace("’", "'").split()).strip(" .!?:;,\"'")
    return bool(text) and not _CONTRAST.search(text) and _REFUSAL.fullmatch(text) is not None


def is_refusal(prose: str) -> bool:
    """Whether a whole answer (citation markers already removed) is a refusal: at most
    :data:`MAX_SENTENCES` sentences, each a refusal statement (:data:`REFUSAL_PATTERNS`).

    Args:
        prose: The answer's text without its markers and without the ``<summary>`` block.
    """
    sentences = _sentences(prose)
    return 0 < len(sentences) <= MAX_SENTENCES and all(map(is_refusal_sentence, sentences))
