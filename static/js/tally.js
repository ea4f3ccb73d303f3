/* Quick tally: the − / + buttons beside a number (without JavaScript the number is typed). */
(function () {
  "use strict";

  document.documentElement.classList.add("has-steppers");
  document.addEventListener("click", function (e) {
    var button = e.target.closest ? e.target.closest("[data-step]") : null;
    if (!button) { return; }
    var input = button.parentNode.querySelector("input");
    if (!input) { return; }
    var value = parseInt(input.value, 10) || 0;
    var next = value + parseInt(button.getAttribute("data-step"), 10);
    var low = parseInt(input.getAttribute("min"), 10);
    var high = parseInt(input.getAttribute("max"), 10);
    if (!isNaN(low) && next < low) { next = low; }
    if (!isNaN(high) && next > high) { next = high; }
    input.value = String(next);
    input.dispatchEvent(new Event("change", { bubbles: true }));
  });
})();
