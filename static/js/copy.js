// Copy-to-clipboard for elements marked data-copy-target="<id of the element to copy>".
// The button starts hidden, so browsers without JavaScript just show the text to select.
(function () {
  "use strict";

  function selectText(element) {
    var range = document.createRange();
    range.selectNodeContents(element);
    var selection = window.getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
  }

  function report(targetId, text) {
    var status = document.querySelector('[data-copy-status-for="' + targetId + '"]');
    if (status) {
      status.textContent = text;
    }
  }

  function copy(button) {
    var targetId = button.getAttribute("data-copy-target");
    var target = document.getElementById(targetId);
    if (!target) {
      return;
    }
    var text = target.textContent.trim();
    var done = function () {
      button.textContent = "Copied";
      report(targetId, "Copied to the clipboard.");
      window.setTimeout(function () { button.textContent = "Copy"; }, 2000);
    };
    var fallback = function () {
      selectText(target);
      var ok = false;
      try {
        ok = document.execCommand("copy");
      } catch (error) {
        ok = false;
      }
      if (ok) {
        done();
      } else {
        report(targetId, "Selected: press Ctrl+C (⌘C on a Mac) to copy.");
      }
    };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(done, fallback);
    } else {
      fallback();
    }
  }

  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("[data-copy-target]").forEach(function (button) {
      button.hidden = false;
      button.addEventListener("click", function () { copy(button); });
    });
  });
})();
