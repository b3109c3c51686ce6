// Display settings for dim pub light, remembered on this device (localStorage), applied before first paint.
(function () {
  var root = document.documentElement;
  root.classList.add("js");
  function apply() {
    root.dataset.theme = localStorage.getItem("talon-theme") || "light";
    root.classList.toggle("large-text", localStorage.getItem("talon-large-text") === "1");
  }
  apply();
  document.addEventListener("click", function (event) {
    var themeButton = event.target.closest("[data-theme-choice]");
    if (themeButton) {
      localStorage.setItem("talon-theme", themeButton.dataset.themeChoice);
      apply();
    }
    var quick = event.target.closest("[data-set]");
    if (quick) {
      // One-tap values for a number field (points by tens); the field stays editable by hand.
      var input = document.getElementById(quick.dataset.set);
      input.value = quick.dataset.value;
      input.dispatchEvent(new Event("change", { bubbles: true }));
    }
    if (event.target.closest("[data-text-size-toggle]")) {
      localStorage.setItem("talon-large-text", root.classList.contains("large-text") ? "0" : "1");
      apply();
    }
  });
})();
