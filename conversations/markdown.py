"""Markdown for the dashboard's conversation pages: markdown-it-py renders, nh3 sanitises.

Messages come from users and from models, so both are untrusted. Two layers keep raw HTML
out of the page: markdown-it runs with ``html=False`` (HTML in a message is escaped as text),
and its output then goes through nh3 with a small allow-list, which would strip anything a
renderer bug let through (event handlers, ``javascript:`` links, scripts, styles).
"""

from __future__ import annotations

from functools import cache

import nh3
from django.utils.safestring import SafeString, mark_safe
from markdown_it import MarkdownIt

ALLOWED_TAGS = frozenset(
    {
        "a", "p", "br", "hr", "em", "strong", "del", "s", "code", "pre", "blockquote",
        "ul", "ol", "li", "h1", "h2", "h3", "h4", "h5", "h6",
        "table", "thead", "tbody", "tr", "th", "td",
    }
)  # fmt: skip
# No style (CSP forbids inline styles) and no class (a message must not borrow the page's).
ALLOWED_ATTRIBUTES = {"a": {"href", "title"}, "ol": {"start"}}
# A code block scrolls sideways when a line is long: a scrolling region must take keyboard
# focus, or keyboard users cannot read the rest of it (WCAG 2.1.1, axe scrollable-region-focusable).
SET_ATTRIBUTES = {"pre": {"tabindex": "0"}}
URL_SCHEMES = frozenset({"http", "https", "mailto"})


@cache
def _renderer() -> MarkdownIt:
    # Images are off: a remote image in a reply would be a tracking pixel (and CSP blocks it).
    return (
        MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False})
        .enable(["table", "strikethrough"])
        .disable("image")
    )


def render_markdown(text: str) -> SafeString:
    """The message as sanitised HTML, safe to put in a template as is."""
    html = _renderer().render(text)
    cleaned = nh3.clean(
        html,
        tags=set(ALLOWED_TAGS),
        clean_content_tags={"script", "style"},
        attributes={tag: set(names) for tag, names in ALLOWED_ATTRIBUTES.items()},
        set_tag_attribute_values={tag: dict(values) for tag, values in SET_ATTRIBUTES.items()},
        url_schemes=set(URL_SCHEMES),
        link_rel="nofollow noopener noreferrer",
        strip_comments=True,
    )
    # The one mark_safe of this app: the string is nh3's output, not user data.
    return mark_safe(cleaned)  # noqa: S308
