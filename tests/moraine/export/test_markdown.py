"""The Markdown export leaves nothing from a trace live: no link, image or HTML, whatever the text tries.

Each document is rendered by a CommonMark renderer (markdown-it-py's ``commonmark`` preset, raw HTML on, as most
renderers have it), and the HTML it makes holds no ``<a>``, no ``<img>`` and no tag the exporter did not write;
the hostile text is still shown, as text. A message's own code fences and formatting are kept.
"""

from __future__ import annotations

import re

import pytest
from markdown_it import MarkdownIt

from generated.models import EventContent
from moraine.export.markdown import render_markdown
from moraine.export.walk import Transcript, TranscriptEvent, TranscriptTurn

_RENDERER = MarkdownIt("commonmark")
# What the renderer makes of the exporter's own Markdown and HTML: nothing else may appear.
_WRITTEN_TAGS = {"h1", "h2", "p", "ul", "li", "code", "pre", "strong", "em", "details", "summary", "br", "hr"}
_TAG = re.compile(r"</?([a-zA-Z][a-zA-Z0-9]*)")
_FOLDED = "tool_response"


def _event(ordinal: int, kind: str, text: str, tool: str | None = None) -> TranscriptEvent:
    content_format = "tool_response" if kind == _FOLDED else "text"
    content = EventContent(format=content_format, text=text, truncated=False, tool_name=tool)
    return TranscriptEvent(ordinal=ordinal, type=kind, timestamp=None, content=content)


def _document(*events: tuple[str, str], title: str | None = "A session", tool: str | None = None) -> str:
    built = [
        _event(i + 1, kind, text, tool if kind == _FOLDED else None) for i, (kind, text) in enumerate(events)
    ]
    turn = TranscriptTurn(id="turn:t", ordinal=1, completed=True, started_at=None, events=built)
    transcript = Transcript(
        "session", "session:ses_0000000000001", title, "codex", "codex", None, None, [turn]
    )
    return render_markdown(transcript)


def _rendered(document: str) -> str:
    """Return the HTML a renderer makes of ``document``, after checking it holds only tags the exporter wrote."""
    html = _RENDERER.render(document)
    tags = {tag.lower() for tag in _TAG.findall(html)}
    assert tags <= _WRITTEN_TAGS, (tags - _WRITTEN_TAGS, document, html)
    return html


HOSTILE = {
    "image-and-javascript-link": [
        (
            "user_input",
            "look ![](http://tracker.example/pixel.png) and [click](javascript:alert(1)) [^1] "
            "<http://evil.example/auto> <img src=http://evil.example/i>",
        )
    ],
    "reference-link-and-definition": [
        ("assistant_response", "see [home]\n\n[home]: http://evil.example/ref")
    ],
    "escaped-bracket-in-the-text": [
        ("user_input", "a \\[x](http://evil.example/pre) \\\\[y](http://evil.example/b)")
    ],
    "unclosed-fence-then-a-tool-output": [
        ("assistant_response", "```\nan unclosed fence"),
        (_FOLDED, "[out](http://evil.example/out) <img src=http://evil.example/tool>\n"),
        ("user_input", "```\n[after](http://evil.example/after)"),
    ],
    "indented-fence": [
        ("user_input", "- item\n\n  ```\n[in](http://evil.example/list)\n```\n![z](http://e.example/z)")
    ],
    "carriage-return-closer": [("user_input", "```\ncode\r```\r[cr](http://evil.example/cr)")],
    "no-break-space-after-a-closer": [
        ("user_input", "```\ncode\n```\u00a0\n[nb](http://evil.example/nb)\n```\n[x](http://evil.example/x)")
    ],
    "tilde-fence-inside-a-backtick-one": [
        ("user_input", "````\n~~~\n[in](http://evil.example/code)\n````\n[t](http://evil.example/t)")
    ],
}


@pytest.mark.parametrize("events", list(HOSTILE.values()), ids=list(HOSTILE))
def test_links_images_and_html_in_transcript_text_are_shown_as_text(events: list[tuple[str, str]]) -> None:
    html = _rendered(_document(*events))
    assert "<a " not in html and "<img" not in html
    for _, text in events:
        for target in re.findall(r"http://[a-z.]+/[a-z]*", text):
            assert target in html, target  # shown, as text


def test_a_title_and_a_tool_name_cannot_link_either() -> None:
    document = _document(
        ("user_input", "hi"),
        (_FOLDED, "ok"),
        title="[t](http://evil.example/title) ![i](http://evil.example/img)",
        tool="[tool](javascript:alert(2))",
    )
    html = _rendered(document)
    assert "<a " not in html and "<img" not in html
    assert "[t](http://evil.example/title)" in html


def test_a_messages_own_code_fences_and_formatting_are_kept_and_its_links_are_not() -> None:
    message = (
        "Use **this** ([the docs](http://evil.example/doc)):\n\n```python\nvalue = items[0] if items else None\n```"
        "\n\nand `grep -n`."
    )
    html = _rendered(_document(("assistant_response", message)))
    assert '<pre><code class="language-python">value = items[0] if items else None\n</code></pre>' in html
    assert "<strong>this</strong>" in html and "<code>grep -n</code>" in html
    assert "<a " not in html and "([the docs](http://evil.example/doc))" in html
