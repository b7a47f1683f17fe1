// Training-data form: show the fields meant for the selected type only (the question for a
// question-and-answer item) and name the content field for what it holds.
// Without JavaScript every field stays visible and its help text says when it applies.
(function () {
  "use strict";

  function sync(form, select) {
    var type = select.value;
    form.querySelectorAll("[data-show-for-type]").forEach(function (element) {
      var types = element.getAttribute("data-show-for-type").split(" ");
      element.hidden = types.indexOf(type) === -1;
    });
    form.querySelectorAll("[data-label-for-type]").forEach(function (label) {
      var byType = label.getAttribute("data-label-" + type);
      label.textContent = byType || label.getAttribute("data-label-default");
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("form[data-training-form]").forEach(function (form) {
      var select = form.querySelector("select[data-type-select]");
      if (!select) {
        return;
      }
      sync(form, select);
      select.addEventListener("change", function () { sync(form, select); });
    });
  });
})();
