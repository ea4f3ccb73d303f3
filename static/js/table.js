/* Inferno Companion at the table: live refresh (SSE, with a polling fallback), screen wake lock. */
(function () {
  "use strict";

  // A form or a link whose hx-post or hx-get is empty goes where its action or href says: the address is not
  // written twice in every answer. (htmx itself would send it to the page's own address.) First of the
  // handlers below, which read or change the address.
  document.addEventListener("htmx:configRequest", function (e) {
    var elt = e.detail && e.detail.elt;
    if (!elt || !elt.getAttribute || elt.getAttribute("hx-" + e.detail.verb) !== "") { return; }
    var to = e.detail.verb === "get" ? elt.getAttribute("href") || elt.getAttribute("data-href") : elt.getAttribute("action");
    if (to) { e.detail.path = to; }
  });

  function gameSeq() {
    var game = document.getElementById("game");
    return game ? game.getAttribute("data-seq") : null;
  }

  // ``more``: the rest of an answer that left some parts for a second one (screens/parts.py: answer_later),
  // asked for at the same seq: not dropped as a refresh with nothing new (below).
  function refresh(more) {
    var live = document.getElementById("live");
    if (!live || !window.htmx) { return; }
    var url = live.getAttribute("data-refresh") + window.location.search;
    var headers = more ? { "HX-Game-More": "1" } : {};
    window.htmx.ajax("GET", url, { source: "#live-trigger", target: "#game", swap: "outerHTML", headers: headers });
  }

  // A live "seq" event fetches the fresh game only when the log moved past what this screen shows,
  // keeping the current URL (a soul being chosen stays chosen).
  document.addEventListener("htmx:confirm", function (e) {
    if (!e.target || e.target.id !== "live-trigger") { return; }
    var trigger = e.detail && e.detail.triggeringEvent;
    var seq = trigger && trigger.detail && trigger.detail.data;
    if (seq !== undefined && String(seq) === gameSeq()) { e.preventDefault(); }
  });
  document.addEventListener("htmx:configRequest", function (e) {
    if (e.target && e.target.id === "live-trigger") {
      var live = document.getElementById("live");
      e.detail.path = live.getAttribute("data-refresh") + window.location.search;
    }
  });

  // Polling fallback: no EventSource, or the stream keeps failing.
  var pollTimer = null;
  var failures = 0;
  function poll() {
    var live = document.getElementById("live");
    if (!live) { return; }
    fetch(live.getAttribute("data-poll"), { cache: "no-store" })
      .then(function (r) { return r.json(); })
      .then(function (data) { if (String(data.seq) !== gameSeq()) { refresh(); } })
      .catch(function () {});
  }
  function startPolling() { if (!pollTimer) { pollTimer = window.setInterval(poll, 2000); } }
  function stopPolling() { if (pollTimer) { window.clearInterval(pollTimer); pollTimer = null; } }
  document.addEventListener("htmx:sseError", function () { failures += 1; if (failures >= 2) { startPolling(); } });
  document.addEventListener("htmx:sseOpen", function () { failures = 0; stopPolling(); poll(); });
  window.addEventListener("online", poll);
  document.addEventListener("DOMContentLoaded", function () {
    if (document.getElementById("live") && !("EventSource" in window)) { startPolling(); }
  });

  // Answers from the game carry only the parts that changed (the phone says which it shows),
  // and name the element with the result or the next step: it is brought into view and focused.
  document.addEventListener("htmx:configRequest", function (e) {
    var game = document.getElementById("game");
    var elt = e.detail && e.detail.elt;
    var fromGame = elt && (game && game.contains(elt) || elt.id === "live-trigger");
    if (game && fromGame && game.getAttribute("data-parts")) {
      e.detail.headers["HX-Game-Parts"] = game.getAttribute("data-parts");
    }
  });

  function stickyHeight(selector) {
    var el = document.querySelector(selector);
    return el ? el.getBoundingClientRect().height : 0;
  }

  // The undo bar's height, for the sticky buttons of a long form to sit right above it (app.css).
  function noteUndoHeight() {
    var bar = document.querySelector(".undo-bar");
    var height = bar && getComputedStyle(bar).position === "sticky" ? bar.getBoundingClientRect().height : 0;
    document.documentElement.style.setProperty("--undo-h", Math.ceil(height) + "px");
  }
  document.addEventListener("DOMContentLoaded", noteUndoHeight);
  document.addEventListener("htmx:afterSettle", noteUndoHeight);
  window.addEventListener("resize", noteUndoHeight);

  function shown(el) {
    if (el.checkVisibility) { return el.checkVisibility({ visibilityProperty: true }) && !el.closest("details:not([open]) > :not(summary)"); }
    return el.getClientRects().length > 0;
  }

  // The main button of the step shown: the first primary button of its section.
  function mainButton(el) {
    var section = el.closest("section, .card, details, form");
    if (!section) { return null; }
    var buttons = section.querySelectorAll("button.primary, a.button.primary");
    for (var i = 0; i < buttons.length; i += 1) { if (shown(buttons[i])) { return buttons[i]; } }
    return null;
  }

  // The step goes between the sticky header and the undo bar, and its main button with it: from the
  // whose-turn title (the next player's name) when the step is the turn's actions and all fit, else
  // from the step itself. The map's prompt goes to the top, so the whole map of Hell shows below it.
  function bringIntoView(el) {
    var top = stickyHeight(".topbar") + 8;
    var bottom = window.innerHeight - stickyHeight(".undo-bar") - 8;
    var box = el.getBoundingClientRect();
    if (el.id === "map-prompt") { window.scrollBy(0, box.top - top); return; }
    var from = box.top;
    var turn = document.getElementById("turn-title");
    if (el.id === "actions-title" && turn) { from = Math.min(from, turn.getBoundingClientRect().top); }
    var main = mainButton(el);
    var until = main ? Math.max(box.bottom, main.getBoundingClientRect().bottom) : box.bottom;
    if (until - from > bottom - top) { from = box.top; until = Math.min(until, box.top + (bottom - top)); }
    if (from >= top && until <= bottom) { return; }
    var shift = from - top;
    if (from >= top && until - from < bottom - top) { shift = until - bottom; }
    window.scrollBy(0, shift);
  }

  function focusOn(id) {
    var el = document.getElementById(id) || document.getElementById("actions-title") || document.getElementById("turn-title");
    if (!el) { return; }
    var details = el.closest("details");
    while (details) { details.open = true; details = details.parentElement.closest("details"); }
    if (!el.hasAttribute("tabindex") && !/^(A|BUTTON|INPUT|SELECT|TEXTAREA)$/.test(el.tagName)) {
      el.setAttribute("tabindex", "-1");
    }
    bringIntoView(el);
    el.focus({ preventScroll: true });
  }

  // A part is fingerprinted without the seq (screens/parts.py): one the answer did not send again still
  // carries the seq it was drawn at in its forms' fields and its links' "at=". Bring them to the new one
  // (htmx binds a link's address when it processes it: a changed one is processed again).
  function bringToSeq(game, seq) {
    var now = String(seq);
    Array.prototype.forEach.call(game.querySelectorAll('input[name="seq"], #part-cells input[name="at"]'), function (input) {
      if (input.value !== now || input.getAttribute("value") !== now) { input.value = now; input.setAttribute("value", now); }
    });
    var links = game.querySelectorAll('[href*="at="], [hx-get*="at="], [data-href*="at="]');
    Array.prototype.forEach.call(links, function (el) {
      var changed = false;
      ["href", "hx-get", "data-href"].forEach(function (name) {
        var before = el.getAttribute(name);
        if (!before) { return; }
        var after = before.replace(/([?&]at=)\d+/, "$1" + now);
        if (after !== before) { el.setAttribute(name, after); changed = true; }
      });
      if (changed && el.hasAttribute("hx-get") && window.htmx) { window.htmx.process(el); }
    });
  }

  // The parts the phone holds once an answer's are swapped in: a whole block says every part's digest
  // ("parts"), an answer of parts only those it sent ("changed": each takes its new digest, in its
  // place; the others stay as they are). As screens/parts.py's merge_parts.
  function mergeParts(held, changed) {
    var digests = {};
    var names = [];
    function take(words) {
      (words || "").split(/\s+/).forEach(function (word) {
        var colon = word.indexOf(":");
        if (colon < 0) { return; }
        var name = word.slice(0, colon);
        if (!Object.prototype.hasOwnProperty.call(digests, name)) { names.push(name); }
        digests[name] = word.slice(colon + 1);
      });
    }
    take(held);
    take(changed);
    return names.map(function (name) { return name + ":" + digests[name]; }).join(" ");
  }

  function takeParts(game, update) {
    if (typeof update.parts === "string") { game.setAttribute("data-parts", update.parts); }
    else if (typeof update.changed === "string") {
      game.setAttribute("data-parts", mergeParts(game.getAttribute("data-parts"), update.changed));
    }
  }

  // Take the answer's seq and parts as soon as it arrives; a live refresh that brings no newer
  // entry than this screen shows is dropped (it would redraw parts, undo a choice, and lose focus).
  document.addEventListener("htmx:beforeSwap", function (e) {
    var xhr = e.detail && e.detail.xhr;
    var raw = xhr && xhr.getResponseHeader("HX-Trigger-After-Settle");
    var game = document.getElementById("game");
    if (!raw || !game) { return; }
    var update;
    try { update = JSON.parse(raw)["game:update"]; } catch (err) { return; }
    if (!update) { return; }
    // detail.elt is the element the event fires on (the target, #game); the request's own
    // element is in requestConfig: only that tells a live refresh from a tap's answer.
    var elt = (e.detail.requestConfig && e.detail.requestConfig.elt) || e.detail.elt;
    var sameSeq = String(update.seq) === game.getAttribute("data-seq");
    var asked = e.detail.requestConfig && e.detail.requestConfig.headers || {};
    if (elt && elt.id === "live-trigger" && sameSeq && !asked["HX-Game-More"]) { e.detail.shouldSwap = false; return; }
    game.setAttribute("data-seq", String(update.seq));
    takeParts(game, update);
    bringToSeq(game, update.seq);
  });

  document.addEventListener("game:update", function (e) {
    var game = document.getElementById("game");
    var detail = e.detail || {};
    if (game) {
      if (detail.seq !== undefined) { game.setAttribute("data-seq", String(detail.seq)); bringToSeq(game, detail.seq); }
      takeParts(game, detail);  // again after the swap: the same digests (a merge taken twice is the same)
    }
    if (detail.focus) { focusOn(detail.focus); }
    if (detail.more) { refresh(true); }  // the parts this answer left for a second one
  });

  // The map's steady taps (choose a soul, ask why it cannot move, try a landing) are drawn in every
  // phase, so a shield is sent again only when what stands on it changes; the map's values
  // (#part-cells) say which of them work now. One that does not is an image, out of the tab order
  // (a link without its address).
  function steadyTaps() {
    var values = document.getElementById("part-cells");
    if (!values) { return; }
    var souls = values.hasAttribute("data-souls-live");
    var live = { select: souls, why: souls, "try": values.hasAttribute("data-try-live") };
    var bring = bringTo(values);
    var cells = document.querySelectorAll("#map-taps .tap-select, #map-taps .tap-why, #map-taps .tap-try");
    Array.prototype.forEach.call(cells, function (el) {
      var kind = el.classList.contains("tap-try") ? "try" : (el.classList.contains("tap-why") ? "why" : "select");
      var link = el.tagName.toLowerCase() === "a";
      var brings = kind === "try" && bring.indexOf(shieldOf(el)) >= 0;  // lit, as a "bring" tap a page without script has
      el.classList.toggle("tap-bring", brings);
      el.setAttribute("aria-describedby", brings ? "hint-bring" : "hint-" + kind);  // what it does now (empty: nothing)
      if (!live[kind] && !brings) {
        if (link && el.hasAttribute("href")) { el.setAttribute("data-href", el.getAttribute("href")); el.removeAttribute("href"); }
        el.setAttribute("role", "img");
        if (!link) { el.removeAttribute("tabindex"); }
        return;
      }
      if (link) {
        if (el.hasAttribute("data-href")) { el.setAttribute("href", el.getAttribute("data-href")); el.removeAttribute("data-href"); }
        el.removeAttribute("role");
      } else { el.setAttribute("role", "button"); el.setAttribute("tabindex", "0"); }
    });
  }
  // The shield a steady tap is on, and the shields a soul chosen in the Cemetery may be brought to now (the
  // map's values, data-bring-to: the empty shields of circle 1), whose steady tap brings it there.
  function shieldOf(el) { return JSON.parse(el.getAttribute("hx-vals") || "{}").to_shield; }
  function bringTo(values) {
    var to = values && values.getAttribute("data-bring-to");
    return to ? to.split(" ") : [];
  }
  document.addEventListener("htmx:configRequest", function (e) {
    var elt = e.detail && e.detail.elt;
    var values = document.getElementById("part-cells");
    var url = values && values.getAttribute("data-bring");
    if (!url || !elt || !elt.classList || !elt.classList.contains("tap-try")) { return; }
    var to = shieldOf(elt);
    if (bringTo(values).indexOf(to) < 0) { return; }
    e.detail.path = url;  // the soul's colour and the player are the map's values (hx-include)
    delete e.detail.parameters.to_shield;
    delete e.detail.parameters.via;
    e.detail.parameters.shield = to;
  });
  // A guardian's first step (its new shield): the empty shields keep their steady tap, and the map's values
  // (data-guard) say where it leads now, so choosing a guardian sends no shield. The tap opens that address
  // with the shield, as the link a page without script has there does.
  document.addEventListener("htmx:configRequest", function (e) {
    var elt = e.detail && e.detail.elt;
    var values = document.getElementById("part-cells");
    var guard = values && values.getAttribute("data-guard");
    if (!guard || !elt || !elt.classList || !elt.classList.contains("tap-try")) { return; }
    var to = JSON.parse(elt.getAttribute("hx-vals") || "{}").to_shield;
    var path = guard + encodeURIComponent(to);
    e.detail.verb = "get";
    e.detail.path = path;
    e.detail.useUrlParams = true;
    Object.keys(e.detail.parameters).forEach(function (name) { delete e.detail.parameters[name]; });
    window.history.replaceState(window.history.state, "", path);
  });
  document.addEventListener("DOMContentLoaded", steadyTaps);
  document.addEventListener("htmx:afterSettle", steadyTaps);
  document.addEventListener("htmx:oobAfterSwap", steadyTaps);
  document.addEventListener("game:update", steadyTaps);

  // A chip group a card draws here (screens/card_fields.html: copied), named data-name: the chips of the
  // group of data-copy's inputs, or the numbers 1 to data-upto; data-checked is the one checked.
  function numberChip(n) {
    var label = document.createElement("label");
    var input = document.createElement("input");
    label.className = "chip";
    input.type = "radio";
    input.value = String(n);
    label.appendChild(input);
    label.appendChild(document.createTextNode(" " + n));
    return label;
  }
  function copyChips() {
    Array.prototype.forEach.call(document.querySelectorAll(".chips[data-name]"), function (group) {
      if (group.children.length) { return; }
      var chips = [];
      var upto = parseInt(group.getAttribute("data-upto") || "0", 10);
      if (group.hasAttribute("data-copy")) {
        var scope = group.closest("form") || document;
        var first = scope.querySelector('input[name="' + group.getAttribute("data-copy") + '"]');
        var source = first && first.closest(".chips");
        if (!source) { return; }
        chips = Array.prototype.map.call(source.children, function (label) { return label.cloneNode(true); });
        if (upto) { chips = chips.slice(0, upto); }
      } else {
        for (var n = 1; n <= upto; n += 1) { chips.push(numberChip(n)); }
      }
      var checked = group.getAttribute("data-checked");
      chips.forEach(function (label) {
        var input = label.querySelector("input");
        if (!input) { return; }
        input.name = group.getAttribute("data-name");
        input.removeAttribute("checked");
        if (checked !== null && input.value === checked) { input.setAttribute("checked", ""); }
        input.checked = input.hasAttribute("checked");
        group.appendChild(label);
      });
    });
  }

  // Card fields: only the qualifiers the chosen entry needs show; hidden ones are not sent.
  function applyChoices() {
    copyChips();
    var groups = document.querySelectorAll("[data-choice-group]");
    Array.prototype.forEach.call(groups, function (group) {
      var driver = group.querySelector(":scope > .chips input:checked");  // its first chips say what it is
      var value = driver ? driver.value : "";
      Array.prototype.forEach.call(group.querySelectorAll(":scope > .qualifier[data-when]"), function (q) {
        var on = q.getAttribute("data-when").split(" ").indexOf(value) >= 0;
        q.hidden = !on;
        Array.prototype.forEach.call(q.querySelectorAll("input, select"), function (i) { i.disabled = !on; });
      });
    });
  }
  document.addEventListener("change", function (e) {
    if (e.target && e.target.matches && e.target.matches("[data-choice-group] > .chips input")) { applyChoices(); }
  });
  document.addEventListener("DOMContentLoaded", applyChoices);
  document.addEventListener("htmx:afterSettle", applyChoices);

  // Steppers (plague card souls): − and + around each count, named from the group's data-less and
  // data-more with the count's colour (its label's last words), change the number within its bounds.
  function stepButton(input, step, words, colour) {
    var button = document.createElement("button");
    button.type = "button";
    button.setAttribute("data-step", String(step));
    button.setAttribute("aria-controls", input.id);
    button.setAttribute("aria-label", (words || "").replace("{colour}", colour));
    button.textContent = step < 0 ? "\u2212" : "+";
    return button;
  }
  function addSteppers() {
    Array.prototype.forEach.call(document.querySelectorAll(".plague-steppers"), function (group) {
      Array.prototype.forEach.call(group.querySelectorAll(".stepper"), function (row) {
        var input = row.querySelector("input");
        var label = row.querySelector("label");
        if (!input || !label || row.querySelector("button[data-step]")) { return; }
        var colour = label.lastChild ? label.lastChild.textContent.trim() : "";
        row.insertBefore(stepButton(input, -1, group.getAttribute("data-less"), colour), input);
        row.appendChild(stepButton(input, 1, group.getAttribute("data-more"), colour));
      });
    });
  }
  // The plague card is kept while it is hidden (part "plague", shown with its form): the counts a
  // refilled Cemetery took are back to the card's own when it hides, so the next card starts from them.
  function resetHiddenCard() {
    var card = document.getElementById("part-plague");
    if (!card || document.getElementById("plague-form")) { return; }
    Array.prototype.forEach.call(card.querySelectorAll("input"), function (input) {
      if (input.value !== input.defaultValue) { input.value = input.defaultValue; }
    });
  }
  document.addEventListener("htmx:afterSettle", resetHiddenCard);
  document.addEventListener("game:update", resetHiddenCard);
  document.addEventListener("DOMContentLoaded", resetHiddenCard);
  document.addEventListener("DOMContentLoaded", addSteppers);
  document.addEventListener("htmx:afterSettle", addSteppers);
  document.addEventListener("htmx:oobAfterSwap", addSteppers);
  document.addEventListener("click", function (e) {
    var button = e.target && e.target.closest ? e.target.closest("button[data-step]") : null;
    if (!button) { return; }
    var input = document.getElementById(button.getAttribute("aria-controls"));
    if (!input) { return; }
    var value = (parseInt(input.value, 10) || 0) + parseInt(button.getAttribute("data-step"), 10);
    var low = parseInt(input.min || "0", 10);
    var high = parseInt(input.max || "99", 10);
    input.value = String(Math.max(low, Math.min(high, value)));
    input.dispatchEvent(new Event("change", { bubbles: true }));
  });

  // A tap that cannot reach the server is said at once and kept: it is sent again, with the same
  // values and so the same idempotency key, when the connection returns or on one tap of "Send
  // again". The server records a key once, so a tap that did arrive is never recorded twice.
  var unsent = null;
  function showOffline(state) {
    var banner = document.getElementById("offline");
    if (!banner) { return; }
    banner.hidden = !state;
    banner.querySelector("[data-offline]").hidden = state !== "offline";
    banner.querySelector("[data-unsent]").hidden = state !== "unsent";
    banner.querySelector("[data-resend]").hidden = state !== "unsent";
  }
  function resend() {
    var request = unsent;
    unsent = null;
    if (!request || !window.htmx) { showOffline(navigator.onLine ? null : "offline"); return; }
    showOffline(null);
    // A live refresh may have redrawn the game since (the tap did arrive, only its answer was lost): the
    // tap is sent from the game itself then, with the same values and so the same key.
    var source = document.body.contains(request.elt) ? request.elt : document.getElementById("game");
    if (!source) { return; }
    window.htmx.ajax(request.verb, request.path, { source: source, target: "#game", swap: "outerHTML", values: request.values });
  }
  document.addEventListener("htmx:sendError", function (e) {
    var config = e.detail && e.detail.requestConfig;
    var elt = (config && config.elt) || (e.detail && e.detail.elt);
    if (!config || !elt || elt.id === "live-trigger") { return; }
    // A form the page fetches on its own (the Wall's fraud card) is no tap: it fetches itself again when
    // the connection returns (hx-trigger "online from:window"), in its own place.
    if (elt.classList && elt.classList.contains("lazy-form")) { showOffline("offline"); return; }
    var values = {};
    if (config.formData && config.formData.forEach) {
      config.formData.forEach(function (value, name) {
        if (name in values) { values[name] = [].concat(values[name], value); } else { values[name] = value; }
      });
    }
    unsent = { elt: elt, verb: config.verb.toUpperCase(), path: config.path, values: values };
    showOffline("unsent");
  });
  window.addEventListener("online", function () { if (unsent) { resend(); } else { showOffline(null); } });
  window.addEventListener("offline", function () { if (!unsent) { showOffline("offline"); } });
  document.addEventListener("click", function (e) {
    if (e.target && e.target.closest && e.target.closest("[data-resend]")) { resend(); }
  });

  // Keep the screen awake during a game, where the browser allows it.
  var lock = null;
  function keepAwake() {
    if (!document.getElementById("game") || !("wakeLock" in navigator) || document.visibilityState !== "visible") {
      return;
    }
    navigator.wakeLock.request("screen").then(function (l) { lock = l; }).catch(function () {});
  }
  document.addEventListener("visibilitychange", keepAwake);
  document.addEventListener("DOMContentLoaded", keepAwake);
  window.addEventListener("pagehide", function () { if (lock) { lock.release(); } });
})();
