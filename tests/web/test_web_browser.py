"""The calculator page in a real browser: headless Chromium (Debian's ``chromium`` and
``chromium-driver``) driven by Selenium, against a real ``pokereval serve`` on localhost.

The page's table must show ``pe.equity``'s figures for the same spot; a bad card is
marked inline with the engine's message; the shareable link reloads the same spot;
Cancel stops the server's computation; the evaluator view shows ``pe.evaluate``.
A screenshot is saved in the test's temporary folder (and at $POKEREVAL_SCREENSHOT
when set: that is how docs/web.png is made).
"""
from __future__ import annotations

import os
import shutil
from fractions import Fraction
from pathlib import Path
from urllib.parse import parse_qs, urlparse

import pytest

import pokereval as pe
from pokereval import api, protocol

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
webdriver = pytest.importorskip("selenium.webdriver")
from selenium.common.exceptions import StaleElementReferenceException  # noqa: E402
from selenium.webdriver.chrome.options import Options  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import Select, WebDriverWait  # noqa: E402

from webserver import serve  # noqa: E402

CHROMIUM = os.environ.get("CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
CHROMEDRIVER = os.environ.get("CHROMEDRIVER") or shutil.which("chromedriver") or "/usr/bin/chromedriver"

pytestmark = pytest.mark.skipif(
    not (Path(CHROMIUM).exists() and Path(CHROMEDRIVER).exists()),
    reason="headless browser test needs Debian's chromium and chromium-driver "
           "(apt-get install chromium chromium-driver; CI installs them)")

SPOT = ("omaha-hilo", ["AhAd2c3s", "KK**", "JhTh9c8c"], "7c8d9h")
WAIT = 300  # seconds; generous for a cold Numba cache on a loaded machine


@pytest.fixture(scope="module")
def server():
    with serve("--time-limit", "600") as s:
        yield s


@pytest.fixture(scope="module")
def browser():
    options = Options()
    options.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                "--window-size=1200,980", "--lang=en-US"):
        options.add_argument(arg)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    yield driver
    driver.quit()


def wait(driver, condition, seconds=WAIT):
    # the page redraws its answer: an element found a moment ago may be gone; look again
    return WebDriverWait(driver, seconds, poll_frequency=0.05,
                         ignored_exceptions=(StaleElementReferenceException,)).until(condition)


def open_page(driver, url):
    driver.get(url)
    wait(driver, lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-ready") == "1")


def type_into(driver, element_id, text):
    field = driver.find_element(By.ID, element_id)
    field.clear()
    field.send_keys(text)


def footer(driver) -> str:
    found = driver.find_elements(By.ID, "how")
    return found[0].text if found else ""


def wait_for_answer(driver):
    wait(driver, lambda d: footer(d).startswith(("exact:", "sampled:"))
         and not d.find_element(By.ID, "run").get_attribute("disabled"))


def table(driver) -> list[dict[str, str]]:
    rows = []
    for row in driver.find_elements(By.CSS_SELECTOR, "#equity-table tbody tr"):
        cells = {td.get_attribute("data-field"): td.text
                 for td in row.find_elements(By.CSS_SELECTOR, "td[data-field]")}
        cells["hand"] = row.find_element(By.CSS_SELECTOR, "td.hand").text
        rows.append(cells)
    return rows


def assert_table_is(driver, result):
    """The page's table shows ``result``'s figures, as the CLI prints them."""
    rows = table(driver)
    assert [r["hand"] for r in rows] == [p.hand for p in result.players]
    fields = [f for f in rows[0] if f != "hand"]
    assert set(fields) == {"equity", "high_win", "high_tie", "low_win", "low_tie", "scoop",
                           "three_quarters", "quartered"}
    for row, player in zip(rows, result.players):
        for field in fields:
            assert row[field] == protocol.cell(getattr(player, field)), (player.hand, field)
    legend = driver.find_element(By.ID, "legend").text
    assert f"No low qualifies on {protocol.cell(result.players[0].no_low)}% of run-outs." in legend
    assert footer(driver).startswith(f"exact: {result.samples:,} run-outs walked")


def test_enter_a_spot_run_it_and_share_it(server, browser, tmp_path):
    game, hands, board = SPOT
    expected = pe.equity(game, hands, board)
    open_page(browser, server.url + "/")
    Select(browser.find_element(By.ID, "game")).select_by_value(game)
    type_into(browser, "h1", hands[0])
    type_into(browser, "h2", hands[1])
    browser.find_element(By.ID, "add-player").click()
    type_into(browser, "h3", hands[2])
    type_into(browser, "board", board)
    browser.find_element(By.ID, "run").click()
    wait_for_answer(browser)
    assert_table_is(browser, expected)

    browser.save_screenshot(str(tmp_path / "web.png"))
    assert (tmp_path / "web.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    if os.environ.get("POKEREVAL_SCREENSHOT"):
        browser.save_screenshot(os.environ["POKEREVAL_SCREENSHOT"])

    # the link holds the spot; opening it fills the form and runs it again
    link = browser.find_element(By.ID, "share").get_attribute("href")
    query = parse_qs(urlparse(link).query)
    assert query["game"] == [game] and query["h"] == hands and query["board"] == [board]
    assert urlparse(browser.current_url).query == urlparse(link).query
    browser.get("about:blank")
    open_page(browser, link)
    wait_for_answer(browser)
    assert [browser.find_element(By.ID, f"h{i + 1}").get_attribute("value") for i in range(3)] == hands
    assert browser.find_element(By.ID, "board").get_attribute("value") == board
    assert_table_is(browser, expected)


def test_a_bad_card_is_marked_inline(server, browser):
    game, hands, board = SPOT
    bad = ["AhAd2c3s", "KhKdQcZz"]
    with pytest.raises(pe.PokerEvalError) as info:
        pe.equity(game, bad, board)
    open_page(browser, server.url + f"/?game={game}&board={board}")
    type_into(browser, "h1", bad[0])
    type_into(browser, "h2", bad[1])
    browser.find_element(By.ID, "run").click()
    wait(browser, lambda d: d.find_element(By.ID, "h2-error").text)
    assert browser.find_element(By.ID, "h2-error").text == protocol.one_line(info.value)
    assert "invalid" in browser.find_element(By.ID, "h2").get_attribute("class")
    assert "invalid" not in browser.find_element(By.ID, "h1").get_attribute("class")
    assert browser.find_element(By.ID, "h1-error").text == ""

    type_into(browser, "h2", "KhKdQcJc")  # fixed: the mark goes on the next run
    browser.find_element(By.ID, "run").click()
    wait_for_answer(browser)
    assert browser.find_element(By.ID, "h2-error").text == ""
    assert "invalid" not in browser.find_element(By.ID, "h2").get_attribute("class")


@pytest.mark.parametrize("board, dead, bad", [("7c8d1x", "", "board"), ("7c8d9h", "Kh", "dead"),
                                             ("7c8dAh", "", "board")],
                         ids=["bad-board", "dead-twice", "board-twice"])
def test_the_field_the_error_is_about_is_marked(server, browser, board, dead, bad):
    """The page marks the input the engine's error names (its ``field``), not a guess from
    the message: "duplicate card Ah in player 1 and board" marks the board, not player 1."""
    game, hands = "omaha-hilo", ["AhAd2c3s", "KhKdQcJc"]
    with pytest.raises(pe.PokerEvalError) as info:
        pe.equity(game, hands, board, dead)
    assert info.value.field == bad
    query = f"game={game}&h={hands[0]}&h={hands[1]}&board={board}" + (f"&dead={dead}" if dead else "")
    open_page(browser, server.url + "/?" + query)
    wait(browser, lambda d: d.find_element(By.ID, f"{bad}-error").text)
    assert browser.find_element(By.ID, f"{bad}-error").text == protocol.one_line(info.value)
    marked = [i for i in ("h1", "h2", "board", "dead")
              if "invalid" in browser.find_element(By.ID, i).get_attribute("class")]
    assert marked == [bad]
    assert browser.find_element(By.ID, "form-error").text == ""


def test_cancel_stops_the_computation(server, browser):
    # exact preflop, a hand against every holding: half a minute of work unless cancelled
    # (a flop of the same kind first: the process is warm before the long run)
    assert server.post("/api/equity", {"game": "omaha-hilo", "hands": ["AhAd2c3s", "****"],
                                       "board": "7c8d9h", "exact": True}, timeout=600)[0] == 200
    open_page(browser, server.url + "/?game=omaha-hilo&h=AhAd2c3s&h=****&exact=1")
    wait(browser, lambda d: d.find_element(By.ID, "cancel").is_enabled())
    assert server.wait_busy(1)
    # live progress: the partial table and the count of run-outs walked so far
    wait(browser, lambda d: d.find_element(By.ID, "progress-text").text.startswith("walking run-outs:"))
    assert footer(browser).startswith("PARTIAL:")
    browser.find_element(By.ID, "cancel").click()
    wait(browser, lambda d: d.find_element(By.ID, "progress-text").text.startswith("cancelled"))
    assert browser.find_element(By.ID, "run").is_enabled()
    assert footer(browser).startswith("PARTIAL")
    assert server.wait_busy(0, seconds=120), "the computation kept running after Cancel"
    assert "its client went away" in server.log()


def test_evaluator_view(server, browser):
    game, hole, board = "omaha-hilo", "AhKd2c3s", "Ks5d8h7cKh"
    expected = pe.evaluate(game, hole, board)
    open_page(browser, server.url + "/")
    browser.find_element(By.ID, "tab-eval").click()
    Select(browser.find_element(By.ID, "eval-game")).select_by_value(game)
    type_into(browser, "hole", hole)
    type_into(browser, "eval-board", board)
    browser.find_element(By.ID, "eval-run").click()
    wait(browser, lambda d: d.find_elements(By.ID, "eval-table"))
    rows = [r.text for r in browser.find_elements(By.CSS_SELECTOR, "#eval-table tr")]
    assert rows == [f"High {expected.high} {expected.high.cards}", f"Low {expected.low} {expected.low.cards}"]
    # the evaluator's link reproduces the hand too
    link = browser.find_element(By.ID, "eval-share").get_attribute("href")
    browser.get("about:blank")
    open_page(browser, link)
    wait(browser, lambda d: d.find_elements(By.ID, "eval-table"))
    assert browser.find_element(By.ID, "hole").get_attribute("value") == hole


def test_optional_features_drawn_when_present(browser):
    """With stand-ins for the next-street distribution, the breakdown and percentiles
    (tests/support/web_standins.py), the page draws the curve and the bars and shows the badge."""
    import web_standins

    # stand-ins patched into the server process: its computations must run there too
    with serve("--isolation", "thread", prelude="import web_standins; web_standins.install()") as server:
        open_page(browser, server.url + "/?game=omaha-hilo&h=AhAd2c3s&h=KK**&board=7c8d9h")
        wait_for_answer(browser)
        wait(browser, lambda d: d.find_element(By.ID, "h1-pct").text)
        percent = f"{100 * (1 - web_standins.PERCENTILE):.1f}%"
        assert browser.find_element(By.ID, "h1-pct").text == f"top {percent} of hands"
        assert browser.find_element(By.ID, "h2-pct").text == ""  # a range has no percentile
        # the bars come from a request of their own, after the table
        wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#breakdown svg"))
        bars = browser.find_elements(By.CSS_SELECTOR, "#breakdown svg")
        assert len(bars) == 4  # two players x (high, low)
        assert len(bars[0].find_elements(By.TAG_NAME, "rect")) == 2 * 3  # 2 rows x won/tied/lost
        browser.find_element(By.ID, "graph-run").click()
        wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#graph svg polyline"))
        lines = browser.find_elements(By.CSS_SELECTOR, "#graph svg polyline")
        assert len(lines) == 2
        points = lines[0].get_attribute("points").split()
        assert len(points) == 2 * len(web_standins.CURVE)  # a step per (equity, weight) pair


@pytest.mark.skipif(not hasattr(pe, "percentile"), reason="pe.percentile not in this build")
def test_the_percentile_label_reads_strong_hands_as_top(server, browser):
    """Issue 29 item 2: pe.percentile is ProPokerTools' (a stronger hand has a larger
    percentile, the best class 1.0), so AhAd2c3s is in the top 0.1% of Omaha Hi/Lo hands
    and KcQd7h2s far down, not the other way round."""
    game, strong, weak = "omaha-hilo", "AhAd2c3s", "KcQd7h2s"
    top = {hand: f"top {100 * (1 - pe.percentile(game, hand, players=10)):.1f}% of hands"
           for hand in (weak, strong)}
    assert top[strong] == "top 0.1% of hands"  # what the issue says the page must read
    open_page(browser, server.url + f"/?game={game}&h={weak}&h={strong}")
    wait(browser, lambda d: d.find_element(By.ID, "h1-pct").text and d.find_element(By.ID, "h2-pct").text)
    assert browser.find_element(By.ID, "h1-pct").text == top[weak]
    assert browser.find_element(By.ID, "h2-pct").text == top[strong]


def test_optional_features_hidden_when_absent(server, browser):
    health = server.get("/api/health")["features"]
    open_page(browser, server.url + "/?game=omaha-hilo&h=AhAd2c3s&h=KK**&board=7c8d9h")
    wait_for_answer(browser)
    assert browser.find_element(By.ID, "graph-box").is_displayed() == health["graph"]
    if not health["breakdown"]:
        assert browser.find_elements(By.CSS_SELECTOR, "#breakdown svg") == []
    if not health["percentile"]:
        assert browser.find_element(By.ID, "h1-pct").text == ""


def test_sampled_spot_shows_plus_minus_and_the_whole_seed(server, browser):
    seed = 2**53 + 1  # not a JavaScript number: the page must keep its digits
    game, hands, samples = "stud-hilo", ["As2s3d", "KhKdQc"], 200_000
    expected = pe.equity(game, hands, samples=samples, seed=seed)
    open_page(browser, server.url + f"/?game={game}&h={hands[0]}&h={hands[1]}&samples={samples}&seed={seed}")
    wait_for_answer(browser)
    rows = table(browser)
    for row, player in zip(rows, expected.players):
        assert row["equity"] == f"{protocol.cell(player.equity)} \u00b1{100 * player.std_error:.2f}"
        assert row["scoop"] == protocol.cell(player.scoop) and row["low_win"] == protocol.cell(player.low_win)
    assert footer(browser).startswith(f"sampled: {samples:,} run-outs, standard error")
    assert footer(browser).endswith(f"(seed {seed})")


def test_evaluator_marks_a_bad_card(server, browser):
    with pytest.raises(pe.PokerEvalError) as info:
        pe.evaluate("omaha-hilo", "AhZz2c3s", "Ks5d8h")
    open_page(browser, server.url + "/?view=eval&game=omaha-hilo&hole=AhZz2c3s&board=Ks5d8h")
    wait(browser, lambda d: d.find_element(By.ID, "hole-error").text)
    assert browser.find_element(By.ID, "hole-error").text == protocol.one_line(info.value)
    assert "invalid" in browser.find_element(By.ID, "hole").get_attribute("class")
    assert browser.find_elements(By.ID, "eval-table") == []


# ---------------------------------------------------------------- the Query tab (PQL)

QUARTERED = ("select count(tiesLo(hero)) as quartered from game='omaha8', hero='A2**', "
             "villain1='15%', villain2='15%' where nutLo(hero, river) and not (winsHi(hero) or tiesHi(hero))")


def query_cells(column, exact: bool) -> dict[str, str]:
    """What the Query tab's table shows for a ``PqlResult`` column (as ``pokereval pql``
    prints it: a count as a percentage to 4 places, an average to 4 places and its
    exact fraction)."""
    if column.selector == "histogram":
        value = f"{len(column.value)} buckets (chart below)"
    elif column.selector == "count":
        value = f"{100 * column.value:.4f}%"
    else:
        value = f"{column.value:.4f}"
        if column.fraction is not None and column.fraction.denominator != 1:
            value += f" ({column.fraction})"
    if exact:
        error = "exact"
    elif column.selector in ("histogram", "max", "min"):
        error = "-"
    else:
        error = f"{100 * column.std_error:.4f}%" if column.selector == "count" else f"{column.std_error:.4f}"
    return {"name": column.name, "selector": column.selector, "value": value, "std_error": error,
            "count": f"{column.count:,}" if column.selector == "count" else "-"}


def query_table(driver) -> list[dict[str, str]]:
    return [{td.get_attribute("data-field"): td.text for td in row.find_elements(By.CSS_SELECTOR, "td")}
            for row in driver.find_elements(By.CSS_SELECTOR, "#query-table tbody tr")]


def query_footer(driver) -> str:
    found = driver.find_elements(By.ID, "query-footer")
    return found[0].text if found else ""


def run_query_in_tab(driver, url, query, trials=None, seed=None):
    open_page(driver, url + "/")
    driver.find_element(By.ID, "tab-query").click()
    type_into(driver, "query", query)
    if trials is not None:
        Select(driver.find_element(By.ID, "query-mode")).select_by_value("trials")
        type_into(driver, "query-trials", str(trials))
    if seed is not None:
        type_into(driver, "query-seed", str(seed))
    driver.find_element(By.ID, "query-run").click()


def test_query_tab_sampled_histogram_is_the_api_answer(server, browser):
    """An example picked from the list, sampled with a seed: the table is pe.pql's answer
    for the same query and seed, and the histogram is drawn, one bar per bucket."""
    open_page(browser, server.url + "/")
    browser.find_element(By.ID, "tab-query").click()
    assert browser.find_element(By.ID, "query-view").is_displayed()
    assert not browser.find_element(By.ID, "equity-view").is_displayed()
    examples = Select(browser.find_element(By.ID, "query-example"))
    labels = [o.text for o in examples.options]
    examples.select_by_visible_text(next(t for t in labels if "histogram" in t and "Stud Hi/Lo" in t))
    query = browser.find_element(By.ID, "query").get_attribute("value")
    assert "histogram(fractionalRiverEquity(hero))" in query and "game='stud8'" in query
    Select(browser.find_element(By.ID, "query-mode")).select_by_value("trials")
    type_into(browser, "query-trials", "30000")
    type_into(browser, "query-seed", "11")
    browser.find_element(By.ID, "query-run").click()
    wait(browser, lambda d: query_footer(d))
    expected = pe.pql(query, trials=30000, seed=11)
    assert query_table(browser) == [query_cells(c, expected.exact) for c in expected.columns]
    assert query_footer(browser).startswith(f"{expected.trials:,} trials (seed 11)")
    # the chart: one bar per bucket, labelled with the bucket
    (chart,) = browser.find_elements(By.CSS_SELECTOR, "#query-charts svg")
    buckets = expected.columns[0].value
    assert len(chart.find_elements(By.TAG_NAME, "rect")) == len(buckets)
    texts = [t.text for t in chart.find_elements(By.TAG_NAME, "text")]
    for bucket, fraction, _ in buckets:
        assert api.pql_bucket_label(bucket) in texts
        assert protocol.cell(fraction) in texts
    # the link holds the query and reruns it
    link = browser.find_element(By.ID, "query-share").get_attribute("href")
    assert parse_qs(urlparse(link).query)["q"] == [query]
    browser.get("about:blank")
    open_page(browser, link)
    wait(browser, lambda d: query_footer(d))
    assert query_table(browser) == [query_cells(c, expected.exact) for c in expected.columns]


def test_query_tab_exact_and_where(server, browser):
    exact = ("select avg(riverEquity(hero)) as heroEquity, count(winsHi(hero)) as heroWins "
             "from game='holdem', hero='AhAs', villain='KhKs', board='2c3d4s'")
    run_query_in_tab(browser, server.url, exact)
    wait(browser, lambda d: query_footer(d))
    expected = pe.pql(exact)
    assert expected.exact and expected["heroEquity"].fraction == Fraction(301, 330)
    rows = query_table(browser)
    assert rows == [query_cells(c, True) for c in expected.columns]
    assert rows[0]["value"] == "0.9121 (301/330)"
    assert query_footer(browser).startswith(f"{expected.trials:,} trials (exact, every deal)")

    # a `where` clause: the acceptance line
    run_query_in_tab(browser, server.url, QUARTERED, trials=20000, seed=5)
    wait(browser, lambda d: query_footer(d))
    expected = pe.pql(QUARTERED, trials=20000, seed=5)
    assert query_table(browser) == [query_cells(c, False) for c in expected.columns]
    assert query_footer(browser).startswith(
        f"20,000 trials (seed 5; where held in {100 * expected.acceptance:.4f}% of {expected.dealt:,} dealt)")


@pytest.mark.parametrize("query", [
    "select count(winsLo(p1)) from game='holdem', p1='AA', p2='KK'",
    "select avg(riverEquity(p1) from game='holdem', p1='AA', p2='KK'",
], ids=["type-error", "parse-error"])
def test_query_tab_shows_a_bad_query_in_one_line(server, browser, query):
    with pytest.raises(pe.PokerEvalError) as info:
        pe.pql(query)
    run_query_in_tab(browser, server.url, query)
    wait(browser, lambda d: d.find_element(By.ID, "query-error").text)
    shown = browser.find_element(By.ID, "query-error").text
    assert shown == protocol.one_line(info.value) and "\n" not in shown
    assert "invalid" in browser.find_element(By.ID, "query").get_attribute("class")
    assert query_table(browser) == [] and browser.find_element(By.ID, "query-run").is_enabled()


def test_query_tab_cancel_stops_the_query(server, browser):
    stopped = server.log().count("its client went away")
    run_query_in_tab(browser, server.url, QUARTERED, trials=20_000_000, seed=1)  # minutes of work
    wait(browser, lambda d: d.find_element(By.ID, "query-cancel").is_enabled())
    assert server.wait_busy(1)
    wait(browser, lambda d: d.find_element(By.ID, "query-status").text.startswith("running"))
    browser.find_element(By.ID, "query-cancel").click()
    wait(browser, lambda d: d.find_element(By.ID, "query-status").text.startswith("cancelled"))
    assert browser.find_element(By.ID, "query-run").is_enabled()
    assert not browser.find_element(By.ID, "query-cancel").is_enabled()
    assert server.wait_busy(0, seconds=30), "the query kept running after Cancel"
    wait(browser, lambda d: server.log().count("its client went away") > stopped, seconds=30)
