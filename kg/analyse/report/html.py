"""The report as one self-contained HTML page (``report.html``): figures inlined, no scripts."""

from __future__ import annotations

import base64
import html

from kg.analyse.report.document import Block, FileList, Figure, Heading, Paragraph, Table, format_cell

__all__ = ["to_html"]

_STYLE = """
body{font:15px/1.55 system-ui,-apple-system,"Segoe UI",Roboto,Arial,sans-serif;color:#1d2329;max-width:1080px;margin:0 auto;padding:28px 32px 60px;background:#fff}
h1{font-size:26px;margin:0 0 6px}h2{font-size:20px;margin:38px 0 8px;padding-top:12px;border-top:1px solid #e3e6ea}
h3{font-size:15px;margin:22px 0 6px;color:#3b444d}p{margin:6px 0 10px;color:#2b333b}
.lede{color:#69737d}figure{margin:14px 0 18px}figure img{max-width:100%;height:auto;display:block}
figcaption{font-size:13px;color:#69737d;margin-top:4px}
table{border-collapse:collapse;font-size:13.5px;margin:6px 0 14px;width:auto}
th,td{padding:4px 12px 4px 0;text-align:left;border-bottom:1px solid #eef0f2;vertical-align:top}
th{color:#69737d;font-weight:600;border-bottom:1px solid #d5dade}td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}
code{font-size:13px;background:#f3f5f7;padding:1px 5px;border-radius:4px}ul{padding-left:20px}
nav{font-size:13px;color:#69737d;margin:10px 0 0}nav a{color:#2f6fb0;text-decoration:none;margin-right:12px}
"""
#: Nothing but inline style and the figures' data: URIs (the page names untrusted text).
_CSP = "default-src 'none'; img-src data:; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'"

esc = html.escape


def to_html(blocks: list[Block], title: str) -> str:
    """The page: the first paragraph is the lede, followed by a navigation to every section."""
    sections = [b.text for b in blocks if isinstance(b, Heading) and b.level == 2]
    body: list[str] = []
    first_paragraph = True
    for block in blocks:
        if isinstance(block, Paragraph) and first_paragraph:
            first_paragraph = False
            body.append(f'<p class="lede">{esc(block.text)}</p>')
            body.append("<nav>" + "".join(f'<a href="#{_anchor(s)}">{esc(s)}</a>' for s in sections) + "</nav>")
        else:
            body.append(_element(block))
    return (
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        f'<meta http-equiv="Content-Security-Policy" content="{_CSP}">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{esc(title)}</title>\n<style>{_STYLE}</style>\n</head>\n<body>\n"
        + "\n".join(body) + "\n</body>\n</html>\n"
    )


def _element(block: Block) -> str:
    if isinstance(block, Heading):
        anchor = f' id="{_anchor(block.text)}"' if block.level == 2 else ""
        return f"<h{block.level}{anchor}>{esc(block.text)}</h{block.level}>"
    if isinstance(block, Paragraph):
        return f"<p>{esc(block.text)}</p>"
    if isinstance(block, Figure):
        return _figure(block)
    if isinstance(block, Table):
        return _table(block)
    if isinstance(block, FileList):
        return "<ul>" + "".join(f'<li><a href="{esc(p, quote=True)}"><code>{esc(p)}</code></a>: {esc(t)}</li>'
                                for p, t in block.items) + "</ul>"
    raise TypeError(f"not a report block: {block!r}")


def _figure(figure: Figure) -> str:
    content = figure.content if isinstance(figure.content, bytes) else figure.content.encode("utf-8")
    mime = "image/png" if isinstance(figure.content, bytes) else "image/svg+xml"
    data = base64.b64encode(content).decode("ascii")
    return (f'<figure><img alt="{esc(figure.caption, quote=True)}" src="data:{mime};base64,{data}">'
            f"<figcaption>{esc(figure.caption)}</figcaption></figure>")


def _table(table: Table) -> str:
    numeric = [table.numeric(i) for i in range(len(table.header))]
    cls = [" class=num" if n else "" for n in numeric]
    head = "".join(f"<th{cls[i]}>{esc(str(h))}</th>" for i, h in enumerate(table.header))
    rows = "".join("<tr>" + "".join(f"<td{cls[i]}>{esc(format_cell(v))}</td>" for i, v in enumerate(row)) + "</tr>"
                   for row in table.rows)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>"


def _anchor(text: str) -> str:
    return "".join(c if c.isalnum() else "-" for c in text.lower()).strip("-")
