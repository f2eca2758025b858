import pytest

from kg.extract.clean import clean_text, find_urls


@pytest.mark.parametrize(
    "raw, clean",
    [
        (r"a 4.5$\times$ speedup", "a 4.5× speedup"),
        ("**M**otif-b**A**sed **G**NN", "Motif-bAsed GNN"),
        (r"DAWN (\textbf{D}ynamic frame)", "DAWN (Dynamic frame)"),
        (r"see~\url{https://x.org/a}.", "see https://x.org/a."),
        (r"\href{https://x.org}{Demo Website.}", "Demo Website."),
        # a Markdown link (arXiv's ``[this https URL](...)``) is read as its address, never as names
        ("code at [this https URL](https://github.com/a/ZorbNet).", "code at https://github.com/a/ZorbNet."),
        ("see [1] (Smith) and [here](http://x.org/a_b)", "see [1] (Smith) and http://x.org/a_b"),
        (r"a $\min$-$\max$ problem", "a min-max problem"),
        ("a ``strong ticket''", 'a "strong ticket"'),
        ("we introduce *TRON*, a model", "we introduce TRON, a model"),
        ("This method, _filter GLOB_, infers", "This method, filter GLOB, infers"),
        (r"bias of $\ell_\infty$ and $x_i$ in snake_case", "bias of ℓ_∞ and x_i in snake_case"),
        (r"up to 50\% faster", "up to 50% faster"),
        (r"a CIoU of $\textbf{90.4\%}$", "a CIoU of 90.4%"),  # an escape inside a style command
        # symbols, math and font switches inside a style command
        (r"achieves $\mathbf{\ge 2\times}$ faster training", "achieves ≥2× faster training"),
        (r"is \textbf{5.18$\times$} faster for $\boldsymbol{\theta}$", "is 5.18× faster for θ"),
        (r"\text{\bf Z}orb", "Zorb"),
        (r"only $25\\%$ of it", "only 25% of it"),  # an escape escaped twice
        ("plain text stays", "plain text stays"),
        # a sentence glued to the one before it gets its space; an address keeps its period
        ("on CIFAR100.The code is at github.com/Foo/Bar.Baz now", "on CIFAR100. The code is at github.com/Foo/Bar.Baz now"),
        ("in physics.We observe, e.g. on Foo.org", "in physics. We observe, e.g. on Foo.org"),
        # a letter's power as names write it; a number's stays (values read it)
        (r"we propose N$^2$-GNN and CFR$^{+}$", "we propose N²-GNN and CFR⁺"),
        (r"in $O(n^2)$ time with $10^6$ samples", "in O(n²) time with 10^6 samples"),
        # TeX accents: the letter with its mark (name keys then fold Latin accents)
        (r"the Fr\'echet Inception Distance and Mat\'ern kernels", "the Fréchet Inception Distance and Matérn kernels"),
        (r"Erd\H{o}s, {\"u}ber, na\"ive, \'{\i}", "Erdős, über, naïve, í"),
    ],
)
def test_clean_text_removes_markup(raw, clean):
    assert clean_text(raw).text == clean


@pytest.mark.parametrize(
    "raw, word",
    [
        ("**M**otif-b**A**sed **G**NN", "Motif-bAsed"),
        (r"DAWN (\textbf{D}ynamic frame)", "Dynamic"),
        (r"see~\url{https://x.org/a}.", "https://x.org/a"),
        (r"a 4.5$\times$ speedup", "speedup"),
        (r"a CIoU of $\textbf{90.4\%}$ here", "here"),
        ("on CIFAR100.The code", "code"),
        (r"N$^2$-GNN wins", "wins"),
        (r"the R\'enyi entropy", "entropy"),
    ],
)
def test_clean_text_maps_spans_back_to_raw(raw, word):
    c = clean_text(raw)
    start = c.text.index(word)
    raw_start, raw_end = c.raw_span(start, start + len(word))
    # the raw span covers the word with its markup, and nothing before or after it
    assert raw[raw_start:raw_end].replace("*", "").replace(r"\textbf{", "").replace("}", "") == word


def test_clean_text_records_bold_letters():
    c = clean_text("a **t**wo-step framework for **r**isk c**o**ntrol")
    assert "".join(c.text[s:e] for s, e, kind in c.emphasis if kind == "bold") == "tro"


@pytest.mark.parametrize(
    "raw, urls",
    [
        (r"available at~\url{https://github.com/a/B}.", ["https://github.com/a/B"]),
        (r"\href{https://fugatto.github.io/}{Demo}", ["https://fugatto.github.io/"]),
        ("code: https://github.com/x/y. Page (https://x.io/p).", ["https://github.com/x/y", "https://x.io/p"]),
        ("see www.example.org, too", ["https://www.example.org"]),
        ("no url here.", []),
        ("data at huggingface.co/datasets/a/B.", ["https://huggingface.co/datasets/a/B"]),
        ("mail me@github.com/x", []),
    ],
)
def test_find_urls_are_clean(raw, urls):
    assert find_urls(raw) == urls


@pytest.mark.parametrize(
    "raw, clean",
    [
        ("Abstract: We propose Zorb.", "We propose Zorb."),
        ("ABSTRACT\nWe study Zorb.", "We study Zorb."),
        ("Abstract — We study Zorb.", "We study Zorb."),
        ("Abstract Semantic parsing is key.", "Semantic parsing is key."),
        ("Abstract reasoning is hard.", "Abstract reasoning is hard."),
        ("Summary statistics help.", "Summary statistics help."),
        ("Abstract", "Abstract"),
    ],
)
def test_a_leading_abstract_heading_is_dropped_and_offsets_still_map(raw, clean):
    result = clean_text(raw)
    assert result.text == clean
    start, end = result.raw_span(0, len(result.text))
    assert raw[start:end] == clean


def test_markdown_underscores_mark_italics_only_as_a_closed_pair():
    c = clean_text(r"we call it _span glue_ and keep $a_b$, x_i and _unclosed")
    assert [c.text[s:e] for s, e, kind in c.emphasis] == ["span glue"]
    assert "_unclosed" in c.text and "a_b" in c.text


def test_quoted_phrases_are_emphasis_paired_in_order():
    c = clean_text("we call ``span rules,'' the \u201cplinth drift\u201d, a \"b\" and \"glue sets\" then \"unclosed")
    quoted = [c.text[s:e] for s, e, kind in c.emphasis if kind == "quoted"]
    assert quoted == ["span rules,", "plinth drift", "glue sets"]
