/* The big screen's score follows the game: when the live game part is redrawn at a newer entry,
   the score part below it is fetched again. */
(function () {
  "use strict";

  document.addEventListener("htmx:afterSettle", function () {
    var game = document.getElementById("game");
    var score = document.getElementById("viewer-score");
    if (!game || !score || !window.htmx) { return; }
    if (game.getAttribute("data-seq") === score.getAttribute("data-seq")) { return; }
    score.setAttribute("data-seq", game.getAttribute("data-seq"));
    window.htmx.ajax("GET", score.getAttribute("data-refresh"), { target: "#viewer-score", swap: "outerHTML" });
  });
})();
