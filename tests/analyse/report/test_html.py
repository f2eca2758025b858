"""HTML of the report's blocks: escaped, self-contained, a navigation after the lede."""

from __future__ import annotations

import base64

from kg.analyse.report.document import Figure, Heading, Paragraph, Table
from kg.analyse.report.html import to_html

XSS = "<script>alert(1)</script>"


def test_html_escapes_and_inlines():
    page = to_html([Heading(1, XSS), Paragraph("lede"), Heading(2, "What goes together"), Paragraph(XSS),
                    Figure("f", "<svg/>", 'say "hi"'), Table(["n", XSS], [[XSS, 1]])], title=XSS)
    assert "<script" not in page and page.count("&lt;script&gt;") == 5
    assert '<p class="lede">lede</p>\n<nav><a href="#what-goes-together">What goes together</a></nav>' in page
    assert '<h2 id="what-goes-together">' in page
    svg = base64.b64encode(b"<svg/>").decode()
    assert f'<img alt="say &quot;hi&quot;" src="data:image/svg+xml;base64,{svg}">' in page
    assert "<td class=num>1</td>" in page
    assert "default-src 'none'; img-src data:" in page
