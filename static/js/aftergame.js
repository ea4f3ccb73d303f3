/* After the game: share the result (the phone's share sheet, else the clipboard). Print is
   page_actions.js's, on every page (handling it here too opened the print dialog twice). */
(function () {
  "use strict";

  function status(button, text) {
    var card = button.closest(".card");
    var box = card && card.querySelector(".share-status");
    if (box) { box.textContent = text; }
  }

  function copy(button, message) {
    if (navigator.clipboard && navigator.clipboard.writeText) {
      return navigator.clipboard.writeText(message).then(function () {
        status(button, button.getAttribute("data-copied"));
      });
    }
    return Promise.reject(new Error("no clipboard"));
  }

  /* The link is the public address when one is configured, else this network's (the page says so). */
  function share(button) {
    var text = button.getAttribute("data-share-text");
    var url = button.getAttribute("data-share-url") || "";
    var title = button.getAttribute("data-share-title");
    var message = url ? text + " " + url : text;
    if (navigator.share) {
      var data = url ? { title: title, text: text, url: url } : { title: title, text: text };
      navigator.share(data).catch(function (err) {
        if (!err || err.name !== "AbortError") { copy(button, message).catch(function () {}); }
      });
      return;
    }
    copy(button, message).catch(function () { status(button, message); });
  }

  document.addEventListener("click", function (e) {
    var target = e.target instanceof Element ? e.target : null;
    var shareButton = target && target.closest("[data-share]");
    if (shareButton) { e.preventDefault(); share(shareButton); }
  });
})();
