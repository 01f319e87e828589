"""``pokereval pql``: PPT's text format, JSON, scripts, spreadsheets and one-line errors.

Figures are never hard-coded: each output is checked against ``pe.pql`` on the same query
(itself checked against the brute-force oracle in tests/pql/).
"""
from __future__ import annotations

import csv
import io
import json
import re
import subprocess
import sys

import pytest

import pokereval as pe
from pokereval.cli import main

EXACT = ("select avg(riverEquity(hero)) as heroEquity, count(scoops(hero)) as scoop, "
         "histogram(fractionalRiverEquity(hero)) as shares "
         "from game='omaha8', hero='AhAd2c3s', villain='KsKdQhJh', board='7c8d9h'")
SAMPLED = ("select count(winsHi(p1)) as wins, avg(riverEquity(p1)) as eq "
           "from game='holdem', p1='TT', p2='AK' where handType(p1, flop) = pair")


@pytest.fixture(autouse=True)
def _plain_output(monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.delenv("POKEREVAL_DEBUG", raising=False)


def run(*argv: str, stdin: str | None = None):
    out, err = io.StringIO(), io.StringIO()
    real_out, real_err, real_in = sys.stdout, sys.stderr, sys.stdin
    sys.stdout, sys.stderr = out, err
    if stdin is not None:
        sys.stdin = io.StringIO(stdin)
    try:
        code = main(list(argv))
    finally:
        sys.stdout, sys.stderr, sys.stdin = real_out, real_err, real_in
    return code, out.getvalue(), err.getvalue()


def _lines(text: str) -> dict[str, str]:
    return dict(m.groups() for m in re.finditer(r"^(\S+) = (.+)$", text, flags=re.M))


def test_text_format_is_ppts_and_matches_the_api():
    code, out, err = run("pql", EXACT)
    assert code == 0, err
    want = pe.pql(EXACT)
    lines = _lines(out)
    eq = want["heroEquity"]
    assert lines["heroEquity"] == f"{eq.value:.4f} ({eq.fraction})"
    scoop = want["scoop"]
    assert lines["scoop"] == f"{100 * scoop.value:.4f}% ({scoop.count})"
    assert "shares:" in out
    for bucket, fraction, count in want["shares"].value:
        assert re.search(rf"^  {re.escape(str(bucket))}\s+= {100 * fraction:.4f}% \({count}\)",
                         out, flags=re.M), bucket
    assert re.search(rf"^{want.trials} trials \(exact", out, flags=re.M)


def test_sampled_text_json_and_seed_agree():
    code, out, _ = run("pql", SAMPLED, "--trials", "30000", "--seed", "5")
    assert code == 0
    want = pe.pql(SAMPLED, trials=30000, seed=5)
    assert _lines(out)["wins"] == f"{100 * want['wins'].value:.4f}% ({want['wins'].count})"
    assert re.search(r"^30000 trials \(seed 5; where held in [\d.]+% of \d+ dealt\)$", out, re.M)
    code, out, _ = run("pql", SAMPLED, "--trials", "30000", "--seed", "5", "--json",
                       "--threads", "1")
    got = json.loads(out)
    assert got["trials"] == 30000 and got["dealt"] == want.dealt
    assert [c["value"] for c in got["columns"]] == [c.value for c in want.columns]
    assert got["columns"][0]["count"] == want["wins"].count


def test_script_from_a_file_and_stdin(tmp_path):
    script = f"/* two statements */ {EXACT};\n{SAMPLED} ;"
    path = tmp_path / "q.pql"
    path.write_text(script)
    code, out, _ = run("pql", str(path), "--json", "--trials", "5000", "--seed", "2")
    assert code == 0
    got = json.loads(out)
    assert got[0]["query"].endswith(EXACT) and got[1]["query"] == SAMPLED
    code2, out2, _ = run("pql", "-", "--json", "--trials", "5000", "--seed", "2", stdin=script)
    assert code2 == 0 and json.loads(out2)[1]["columns"] == got[1]["columns"]


@pytest.mark.parametrize("argv, needle", [
    (["select avg(riverEquity(hero)) from game='holdem', hero='AA', villain='KK' where winsHi(hero) + 1"],
     "column"),
    (["select count(winsLo(p1)) from game='holdem', p1='AA', p2='KK'"], "holdem"),
    ([f"{EXACT}; select count(nutLo(p1, river)) from game='razz', p1='*', p2='*'"],
     "statement 2"),
    (["select avg(riverEquity(p1)) from game='omaha8', p1='****', p2='****', p3='****'",
      "--exact"], "sample instead"),
    ([], "QUERY is required"),
    (["--csv", "/nonexistent/file.csv"], "cannot read"),
    ([EXACT, "--out", "x.csv"], "--out goes with --csv"),
])
def test_bad_input_is_one_line_and_exit_2(argv, needle):
    code, out, err = run("pql", *argv)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("pokereval: error:"), err
    assert needle in err


def test_spreadsheet_rows_are_answered_and_a_bad_row_is_named(tmp_path):
    template = ("select count(winsHi(p1)) as wins, avg(riverEquity(p1)) as eq "
                "from game='holdem', p1='#HERO#', p2='#VILLAIN#', board='#BOARD#'")
    rows = [["#QUERY#", "#HERO#", "#VILLAIN#", "#BOARD#"], [template, "", "", ""],
            ["", "AhAs", "KhKs", "2c3d4s"], ["", "QQ", "AK", "Ah7c2d"], ["", "1Q", "AK", ""]]
    src, dst = tmp_path / "in.csv", tmp_path / "out.csv"
    with open(src, "w", newline="") as f:
        csv.writer(f).writerows(rows)
    code, out, err = run("pql", "--csv", str(src), "--out", str(dst), "--seed", "1")
    assert code == 0 and "1 of 3 rows refused" in err
    with open(dst, newline="") as f:
        got = list(csv.reader(f))
    assert got[0] == rows[0] + ["!TRIALS!", "!ERRORS!", "wins", "eq"]
    assert got[1][0] == template
    for row, answer in zip(rows[2:4], got[2:4]):
        want = pe.pql(template.replace("#HERO#", row[1]).replace("#VILLAIN#", row[2])
                      .replace("#BOARD#", row[3]), seed=1)
        assert answer[:4] == row and answer[4] == str(want.trials) and answer[5] == ""
        assert answer[6] == f"{want['wins'].value:.6g}"
        assert answer[7] == str(want["eq"].fraction)
    assert got[4][4] == "" and "1Q" in got[4][5] and got[4][6:] == ["", ""]


def test_the_installed_command_runs_a_query():
    done = subprocess.run([sys.executable, "-m", "pokereval", "pql", EXACT], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert _lines(done.stdout)["heroEquity"].endswith(f"({pe.pql(EXACT)['heroEquity'].fraction})")


def test_same_answer_on_a_dask_local_cluster():
    distributed = pytest.importorskip("distributed")
    here = pe.pql(SAMPLED, trials=60000, seed=9, threads=2)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster:
        there = pe.pql(SAMPLED, trials=60000, seed=9, scheduler=cluster.scheduler_address)
    assert there.trials == here.trials and there.dealt == here.dealt
    assert [c.value for c in there.columns] == [c.value for c in here.columns]
