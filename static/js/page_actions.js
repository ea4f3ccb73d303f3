/* Inferno Companion: page actions without inline script (the Content-Security-Policy runs scripts
   only from static/). A [data-print] button prints the page; a focusable [role=button] that is not
   a real button (the hell map's shields) acts on Enter as on a click. */
(function () {
  "use strict";

  document.addEventListener("click", function (e) {
    var button = e.target && e.target.closest ? e.target.closest("[data-print]") : null;
    if (button) { window.print(); }
  });

  document.addEventListener("keyup", function (e) {
    if (e.key !== "Enter" || !e.target || !e.target.closest) { return; }
    var target = e.target.closest("[role=button]");
    if (!target || target.tagName === "BUTTON" || target.tagName === "A") { return; }
    target.dispatchEvent(new MouseEvent("click", { bubbles: true, cancelable: true }));
  });
})();
