"""Regions that scroll take keyboard focus (axe's scrollable-region-focusable, WCAG 2.1.1).

Whether a table overflows depends on the fonts of the machine that draws it: the activity
table fitted at 1280 px here and overflowed in CI. So every element styled to scroll carries
``tabindex="0"`` and a name whether or not it overflows on this machine.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings

from conversations.markdown import render_markdown

TEMPLATES = Path(settings.BASE_DIR) / "templates"
# The classes nova.css gives overflow: auto (table-wrap scrolls sideways, boxed down).
SCROLLING_CLASSES = ("table-wrap", "boxed")
OPENING_TAG = re.compile(r"<(?:div|section|pre)\b[^>]*>")


def _scrolling_tags() -> list[tuple[str, str]]:
    found = []
    for path in sorted(TEMPLATES.rglob("*.html")):
        for tag in OPENING_TAG.findall(path.read_text()):
            classes = re.search(r'class="([^"]*)"', tag)
            if classes and set(classes.group(1).split()) & set(SCROLLING_CLASSES):
                found.append((str(path.relative_to(TEMPLATES)), tag))
    return found


def test_the_templates_have_scrolling_regions_to_check() -> None:
    # The scan must see the tables it guards, or the next test would pass on nothing.
    files = {name for name, _tag in _scrolling_tags()}
    assert {"billing/activity.html", "chat/models.html", "billing/usage.html"} <= files


@pytest.mark.parametrize(("template", "tag"), _scrolling_tags())
def test_every_scrolling_region_is_focusable_and_named(template: str, tag: str) -> None:
    assert 'tabindex="0"' in tag, f"{template}: {tag}"
    assert 'role="region"' in tag, f"{template}: {tag}"
    assert re.search(r'aria-label="[^"]+"', tag), f"{template}: {tag}"


def test_a_code_block_in_a_message_is_focusable() -> None:
    html = render_markdown("Run this:\n\n```\n" + "x = 1; " * 80 + "\n```\n")
    assert '<pre tabindex="0"><code>' in html


def test_a_message_cannot_set_attributes_itself() -> None:
    # The tabindex is nh3's doing: a message's own HTML stays text, attributes and all.
    html = render_markdown('<pre tabindex="5" onclick="x()">a</pre>\n\n`b`')
    assert "&lt;pre tabindex=" in html
    assert "<pre" not in html
    assert "<code>b</code>" in html
