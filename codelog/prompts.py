"""Problem statements as plain-text prompts: HTML stripped, structure and sample I/O kept."""

from __future__ import annotations

import html
import re
from html.parser import HTMLParser

_BLOCK = {
    "p",
    "div",
    "section",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "ul",
    "ol",
    "table",
    "tr",
    "br",
    "hr",
}
_HEADINGS = {"h1", "h2", "h3", "h4", "h5", "h6"}


class _TextExtractor(HTMLParser):
    """Collects text; <pre> content verbatim (sample inputs/outputs live there), the rest reflowed."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.pre_depth = 0
        self.skip_depth = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style"):
            self.skip_depth += 1
        elif tag == "pre":
            self.pre_depth += 1
            self.parts.append("\n")
        elif tag == "li":
            self.parts.append("\n- ")
        elif tag in ("td", "th"):
            self.parts.append(" ")
        elif tag in _HEADINGS:
            self.parts.append("\n\n## " if tag in ("h2", "h3") else "\n\n")
        elif tag in _BLOCK:
            self.parts.append("\n")

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style"):
            self.skip_depth = max(0, self.skip_depth - 1)
        elif tag == "pre":
            self.pre_depth = max(0, self.pre_depth - 1)
            self.parts.append("\n")
        elif tag in _BLOCK or tag in _HEADINGS:
            self.parts.append("\n")

    def handle_data(self, data: str) -> None:
        if self.skip_depth:
            return
        if self.pre_depth:
            self.parts.append(data)
        else:
            self.parts.append(re.sub(r"\s+", " ", data))


def html_to_text(document: str) -> str:
    """Plain text of a CodeNet problem statement."""
    parser = _TextExtractor()
    parser.feed(document)
    parser.close()
    text = html.unescape("".join(parser.parts))
    lines = [line.rstrip() for line in text.splitlines()]
    # Leading spaces only matter inside <pre>; elsewhere they are reflow artefacts.
    text = "\n".join(lines)
    text = re.sub(r"\n{3,}", "\n\n", text)
    return text.strip() + "\n"
