"""Every ranking weight, in one place: the defaults BM25, the session evidence, word forms, dates and the hybrid
fusion start from (``docs/ranking.md`` explains each; configuration may override the marked ones).

Nothing here is read at import time by a query: ``moraine.store.reads.search.Bm25``, ``moraine.config.Config``,
``moraine.handler_api.Settings`` and ``moraine.semantic.hybrid.SemanticSettings`` take their defaults from here.
"""

from __future__ import annotations

__all__ = [
    "BM25_B",
    "BM25_K1",
    "CONTEXT_LEXICAL",
    "CONTEXT_WEIGHT",
    "FORM_MAX_SHARE",
    "FORM_WEIGHT",
    "FUSION_DEPTH",
    "FUSION_MIN_WORDS",
    "FUSION_TIE",
    "MEANING_FLOOR",
    "PROMPT_SHARE",
    "REPLIES_FIRST",
    "REPLY_REACH",
    "SESSION_DEPTH",
    "SESSION_WEIGHT",
    "TIME_WEIGHT",
    "TOOL_B",
    "TOOL_FORM_WEIGHT",
    "TOOL_TYPES",
    "VECTOR_WEIGHT",
    "WHEN_WEIGHT",
]

# BM25 (config: [search] bm25_k1, bm25_b): term-frequency saturation and document-length normalization.
BM25_K1 = 1.2
BM25_B = 0.75

# Tool calls and their outputs (TOOL_TYPES) are ranked with their own length normalization TOOL_B and without word
# forms (TOOL_FORM_WEIGHT 0): their lengths range from a word to pages, and their words are code and output, not
# prose. Measured on the coding set (2026-12-04), tool-typed queries, MRR@10 (tool call / tool output answers):
# b 0.75 with forms 0.798 / 0.627; b 1.0 without forms 0.852 / 0.700.
TOOL_TYPES = ("tool_call", "tool_response")
TOOL_B = 1.0
TOOL_FORM_WEIGHT = 0.0

# Session evidence: an event's score is own / best own + SESSION_WEIGHT * session / best session (0: events alone),
# over the best SESSION_DEPTH events.
SESSION_WEIGHT = 1.0
SESSION_DEPTH = 50

# Word forms: a query word's other forms weigh FORM_WEIGHT of the word (0: off); a form in more than FORM_MAX_SHARE
# of the events is left out (costly, tells little).
FORM_WEIGHT = 0.5
FORM_MAX_SHARE = 0.05

# Dates: events in the period the query names score 1 + TIME_WEIGHT times more (0: off).
TIME_WEIGHT = 0.5

# Hybrid fusion (config: [semantic] vector_weight, depth, context, min_words): the vector similarity weighs
# VECTOR_WEIGHT against the lexical score's 1; FUSION_DEPTH candidates from each ranker; a message's similarity
# takes CONTEXT_WEIGHT from its neighbours; queries with fewer than FUSION_MIN_WORDS plain words stay lexical.
VECTOR_WEIGHT = 0.5
FUSION_DEPTH = 50
CONTEXT_WEIGHT = 0.3
FUSION_MIN_WORDS = 2
# Lexical candidates whose similarity in context is read (the rest keep only their lexical score on the vector side
# unless they are among the nearest): on LoCoMo's dev half 10 gave MRR 0.852 against 0.853 for all 51.
CONTEXT_LEXICAL = 10
# A tiny lexical term in the fused score: a lexical winner wins a tie.
FUSION_TIE = 1e-6
# (config: [semantic] meaning_floor) A hit containing none of the query's words (a meaning match, from the vector
# side alone) is shown only at this similarity or above: on the relevance set 0.845 kept all 3 answers among such
# hits while cutting them from 187 to 23 in the top tens (MRR@10 unchanged in every category).
MEANING_FLOOR = 0.845

# Replies first (moraine/store/reads/replies.py): a person's message whose question names a query term hands its
# score to the next event when that is a person's message too, and keeps PROMPT_SHARE of it (REPLIES_FIRST: on);
# the next event is looked for within REPLY_REACH seqs.
REPLIES_FIRST = True
PROMPT_SHARE = 0.9
REPLY_REACH = 4

# Question form (moraine/store/reads/saidwhen.py): a query that asks when lifts the candidates that say when (a
# relative day or period, a weekday, a month, a year) 1 + WHEN_WEIGHT times (0: off).
WHEN_WEIGHT = 0.3
