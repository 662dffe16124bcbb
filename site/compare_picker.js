// Progressive enhancement of the compare index: two selects that go to the chosen pair's page. The
// page lists every pair, grouped by device, for a reader without this script; the picker finds its
// target among those links, so it never names a page that was not rendered.
(function () {
  "use strict";
  var form = document.getElementById("compare-picker");
  if (!form) { return; }
  var first = form.elements.first;
  var second = form.elements.second;
  var status = form.querySelector("[role=status]");
  // A pair is rendered once, with the reference (or the earlier dataset) as its base.
  function pairHref(a, b) {
    var links = document.querySelectorAll("a[data-base][data-other]");
    for (var i = 0; i < links.length; i += 1) {
      var base = links[i].getAttribute("data-base");
      var other = links[i].getAttribute("data-other");
      if ((base === a && other === b) || (base === b && other === a)) { return links[i].getAttribute("href"); }
    }
    return null;
  }
  if (first.options.length > 1 && second.selectedIndex === first.selectedIndex) {
    second.selectedIndex = first.selectedIndex === 0 ? 1 : 0;
  }
  form.addEventListener("submit", function (event) {
    event.preventDefault();
    if (first.value === second.value) {
      status.textContent = "Choose two different datasets.";
      return;
    }
    var href = pairHref(first.value, second.value);
    if (href === null) {
      status.textContent = "No comparison of these two datasets was rendered.";
      return;
    }
    window.location.href = href;
  });
  form.hidden = false;
})();
