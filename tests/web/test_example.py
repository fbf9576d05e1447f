"""examples/browser/ai-opponent.html, the one-file browser client, plays against the AI through the
Connect endpoint from another origin (a file:// page: origin "null", allowed by --http-cors-origin)."""

from __future__ import annotations

from pathlib import Path

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "browser" / "ai-opponent.html"


def test_the_example_page_gets_an_ai_opponent(page, table_server):
    _, base = table_server
    page.goto(f"{EXAMPLE.as_uri()}?server={base.rstrip('/')}&game=tiberius&level=1")
    for _ in range(3):
        page.wait_for_selector("#moves button.move")
        assert page.locator("#status").text_content() == "Your turn."  # set before the buttons
        before = page.locator("#log li").count()
        page.locator("#moves button.move").first.click()
        page.wait_for_function(f"() => document.querySelectorAll('#log li').length > {before}")
    page.wait_for_selector("#log li.ai")  # the AI's moves, refereed and logged
    assert "Error" not in (page.locator("#status").text_content() or "")
