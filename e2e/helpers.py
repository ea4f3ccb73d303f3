"""Steps a player takes on the phone, written with role and label locators."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import Browser, Locator, Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout


def fill_new_game(
    page: Page,
    names: list[str],
    plague: list[str] | None = None,
    expansion: bool = False,
    blank_rest: bool = False,
    server: str = "",
) -> None:
    """Open the new-game form (on ``server``, the suite's own by default) and fill it: the players, the plague
    card's souls in order (with ``blank_rest``, every slot after them emptied), the expansion if asked, the
    standard layout."""
    page.goto(f"{server}/")
    souls = list(plague or [])
    if blank_rest:
        souls += ["—"] * (page.locator("select[name=plague]").count() - len(souls))
    for i, name in enumerate(names):
        page.get_by_label(f"Player {i + 1}", exact=True).fill(name)
    for i, colour in enumerate(souls):
        page.get_by_label(f"Soul {i + 1}", exact=True).select_option(label=colour)
    if expansion:
        page.get_by_label("Play with the Plutus & Phlegyas expansion").check()
    # The edition's standard layout keeps journeys deterministic (Lily: Haystack + Bonfire, Eagle:
    # Banquet + Wall, Key: Bank + Market, Cross: Courtyard + Palace).
    page.get_by_label("Florence location tiles").select_option("default")


def create_game(
    page: Page, names: list[str], plague: list[str] | None = None, expansion: bool = False, server: str = ""
) -> None:
    """Fill the new-game form (on ``server``, the suite's own by default) and start the game."""
    fill_new_game(page, names, plague, expansion, server=server)
    page.get_by_role("button", name="Start the game").click()
    expect(page.get_by_role("heading", name=f"{names[0]}'s turn")).to_be_visible()
    page.wait_for_function("() => window.htmx !== undefined")  # the deferred script has run
    settle(page)


def second_phone(browser: Browser, playwright: Any, url: str, **extra: Any) -> Page:
    """Another phone at the table (its own Pixel 7 context, with ``extra`` options) open at ``url``;
    close it with ``page.context.close()``."""
    context = browser.new_context(**playwright.devices["Pixel 7"], **extra)
    page = context.new_page()
    page.set_default_timeout(8000)
    page.goto(url)
    page.wait_for_function("() => window.htmx !== undefined")
    return page


def settle(page: Page) -> None:
    """The page's live stream is open (its first presence list arrived) and no htmx request or swap
    is in flight, so the next tap's answer is not raced by the page's own first refresh."""
    expect(page.locator("#presence .presence-list")).to_have_count(1)
    expect(page.locator(".htmx-request, .htmx-swapping, .htmx-settling")).to_have_count(0)


def bring_and_end_turn(page: Page, player: str, colour: str, to: str, place: str) -> None:
    """A plain turn for ``player``: one ``colour`` soul from the Cemetery to the shield ``to``, a
    member to the Florence location ``place``, then the end of the turn."""
    page.get_by_role("link", name=f"Bring in one {colour} soul").click()
    shield(page, to, "button").click()
    location(page, place).click()
    page.get_by_role("button", name=f"End {player}'s turn").click()


def stat(page: Page, player: str, name: str) -> Locator:
    """A player's resource on the players panel, e.g. stat(page, "Ana", "Drachmas")."""
    card = page.get_by_role("listitem", name=player).locator("dl.stats > div")
    return card.filter(has=page.get_by_role("term").filter(has_text=re.compile(rf"^{re.escape(name)}$"))).get_by_role(
        "definition"
    )


def shield(page: Page, name: str, role: str = "button") -> Locator:
    """A shield on the map of Hell by its name (e.g. "2C"), as a button, a link or an image."""
    return page.get_by_role(role, name=re.compile(rf"^{name}, circle "))  # type: ignore[arg-type]


def location(page: Page, name: str) -> Locator:
    """A Florence location's button (its name goes on with what it gives)."""
    return page.get_by_role("button", name=re.compile(rf"^{name}\b"))


class Taps:
    """Counts the taps a journey needs, as a player makes them: a click, a field filled, an option chosen."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.count = 0

    def tap(self, target: Locator) -> None:
        self.count += 1
        target.click()

    def fill(self, target: Locator, text: str) -> None:
        self.count += 1
        target.fill(text)

    def choose(self, target: Locator, value: str) -> None:
        self.count += 1
        target.select_option(value)


# The element the page focused (the result of a tap or the next step) and the main button of its
# section: each must lie inside the viewport and be what a thumb hits at its centre — not the sticky
# header, the undo bar or any other fixed element over it. A visually hidden heading stands for its
# section (the section's top must then show). Answers the problems found, an empty list when none.
NEXT_STEP_PROBLEMS = """() => {
  const problems = [];
  const focused = document.activeElement;
  if (!focused || focused === document.body) { return problems; }
  const tiny = (el) => { const r = el.getBoundingClientRect(); return r.width <= 2 || r.height <= 2; };
  const section = focused.closest("section, .card, details, form") || focused.parentElement;
  const step = tiny(focused) ? section : focused;
  const shown = (el) => el.checkVisibility({visibilityProperty: true})
    && !el.closest("details:not([open]) > :not(summary)");
  const main = [...section.querySelectorAll("button.primary, a.button.primary")].find(shown) || null;
  const name = (el) => (el.id ? "#" + el.id : el.tagName.toLowerCase()) + " "
    + JSON.stringify((el.innerText || el.getAttribute("aria-label") || "").trim().slice(0, 40));
  const check = (el, what) => {
    const r = el.getBoundingClientRect();
    const y = r.top + Math.min(r.height / 2, 22);  // a tall section: a point near its top
    const x = r.left + r.width / 2;
    if (r.top < 0 || y > window.innerHeight || (r.height <= 200 && r.bottom > window.innerHeight)) {
      const where = `top ${Math.round(r.top)}, bottom ${Math.round(r.bottom)}, viewport ${window.innerHeight}`;
      problems.push(`${what} ${name(el)} is outside the viewport (${where})`);
      return;
    }
    const hit = document.elementFromPoint(x, y);
    if (!hit || !(hit === el || el.contains(hit))) {
      const cover = hit ? (hit.closest(".topbar, .undo-bar, .offline-banner, [id]") || hit) : null;
      problems.push(`${what} ${name(el)} is covered at its centre by ${cover ? name(cover) : "nothing"}`);
    }
  };
  check(step, "the next step");
  if (main && main !== step) { check(main, "its main button"); }
  return problems;
}"""


# A part is fingerprinted without the seq (companion/web/screens/parts.py), so an answer leaves the parts
# that did not change and table.js brings their forms' seq and links' "at=" to the new seq. Every seq a
# tap on the game would send must be the game's (data-seq): answers the ones that are not.
STALE_SEQS = """() => {
  const game = document.getElementById("game");
  if (!game || !game.hasAttribute("data-seq")) { return []; }
  const now = game.getAttribute("data-seq");
  const stale = [];
  game.querySelectorAll('input[name="seq"], #part-cells input[name="at"]').forEach((input) => {
    const where = input.form ? input.form.getAttribute("action") : input.name;
    if (input.value !== now) { stale.push(`${where}: ${input.value}`); }
  });
  game.querySelectorAll("[href], [hx-get], [data-href]").forEach((el) => {
    for (const name of ["href", "hx-get", "data-href"]) {
      const found = /[?&]at=(\\d+)/.exec(el.getAttribute(name) || "");
      if (found && found[1] !== now) { stale.push(`${name}=${el.getAttribute(name)}`); }
    }
  });
  return stale.map((s) => `${s} (the game is at ${now})`);
}"""


def assert_screen_at_one_seq(page: Page, timeout: float = 3000) -> None:
    """Every form and link of the game would send the game's own seq (none kept from an earlier answer)."""
    try:
        page.wait_for_function(f"() => ({STALE_SEQS})().length === 0", timeout=timeout)
    except PlaywrightTimeout:
        stale = page.evaluate(STALE_SEQS)
        if stale:
            raise AssertionError(f"at {page.url}: stale seq in " + "; ".join(stale[:5])) from None


FRESH_PARTS = """async () => {
  const answer = await fetch(location.pathname, { credentials: "same-origin" });
  const found = (await answer.text()).match(/data-parts="([^"]*)"/);
  return found ? found[1] : null;
}"""


def assert_parts_as_fresh(page: Page) -> None:
    """The parts the phone says it holds (``#game``'s ``data-parts``, which ``table.js`` merges from each answer's
    ``game:update``) are exactly those of the game drawn afresh, in the same order: every part an answer sent is
    known by its new digest, every other by the one it had. Only where nothing is chosen on the screen."""
    held = page.locator("#game").get_attribute("data-parts")
    fresh = page.evaluate(FRESH_PARTS)
    assert held and held == fresh, (held, fresh)


def next_step_problems(page: Page) -> list[str]:
    """What hides the focused next step or its main button (empty when both can be seen and tapped)."""
    found: list[str] = page.evaluate(NEXT_STEP_PROBLEMS)
    return found


def assert_next_step_reachable(page: Page, timeout: float = 3000) -> None:
    """The focused next step and its section's main button are inside the viewport and not covered by any
    fixed or sticky element (checked with the element at their centre point). Waits up to ``timeout`` ms
    for a scroll in progress to end. Also checks that the screen is at one seq (``assert_screen_at_one_seq``)."""
    assert_screen_at_one_seq(page, timeout)
    try:
        page.wait_for_function(f"() => ({NEXT_STEP_PROBLEMS})().length === 0", timeout=timeout)
    except PlaywrightTimeout:  # the timeout says nothing; the problems say what is wrong
        problems = next_step_problems(page)
        if problems:
            raise AssertionError(f"at {page.url}: " + "; ".join(problems)) from None


IN_SIGHT = """(el) => {
  const r = el.getBoundingClientRect();
  const x = r.left + r.width / 2, y = r.top + r.height / 2;
  if (r.top < 0 || r.bottom > window.innerHeight) { return false; }
  const hit = document.elementFromPoint(x, y);
  return !!hit && (hit === el || el.contains(hit));
}"""


def assert_in_sight(target: Locator, timeout: float = 3000) -> None:
    """``target`` lies inside the viewport and is what shows at its centre (no sticky bar over it)."""
    handle = target.element_handle(timeout=timeout)
    assert handle is not None
    try:
        target.page.wait_for_function(f"(el) => ({IN_SIGHT})(el)", arg=handle, timeout=timeout)
    except PlaywrightTimeout:
        box = handle.bounding_box()
        raise AssertionError(f"{target} is out of sight or covered: {box} at {target.page.url}") from None
