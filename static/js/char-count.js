// Live character count for <textarea data-char-limit="N" id="X">, shown in the element marked
// data-char-count-for="X". Line breaks count as one character, as the server counts them.
(function () {
  "use strict";

  var format = new Intl.NumberFormat("en-US");

  function update(field, output, limit) {
    var length = field.value.replace(/\r\n?/g, "\n").length;
    output.textContent = format.format(length) + " / " + format.format(limit) + " characters";
    var over = length > limit;
    output.classList.toggle("over", over);
    output.classList.toggle("near", !over && length > limit * 0.9);
    field.setAttribute("aria-invalid", over ? "true" : "false");
  }

  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("textarea[data-char-limit]").forEach(function (field) {
      var output = document.querySelector('[data-char-count-for="' + field.id + '"]');
      var limit = parseInt(field.getAttribute("data-char-limit"), 10);
      if (!output || !limit) {
        return;
      }
      update(field, output, limit);
      field.addEventListener("input", function () { update(field, output, limit); });
    });
  });
})();
