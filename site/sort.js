// Progressive enhancement: column headers of tables marked "sortable" become buttons that sort the
// rows. Without this script every table reads fully, in the dataset's own order.
(function () {
  "use strict";
  function key(cell) {
    var raw = cell.getAttribute("data-sort");
    var text = raw !== null && raw !== "" ? raw : cell.textContent.trim();
    var number = parseFloat(text.replace(/,/g, ""));
    return isNaN(number) ? text.toLowerCase() : number;
  }
  function compare(a, b) {
    if (typeof a === typeof b) { return a < b ? -1 : a > b ? 1 : 0; }
    return typeof a === "number" ? -1 : 1;
  }
  document.querySelectorAll("table.sortable").forEach(function (table) {
    var headers = table.querySelectorAll("thead th");
    headers.forEach(function (header, column) {
      var button = document.createElement("button");
      button.type = "button";
      button.textContent = header.textContent;
      header.textContent = "";
      header.appendChild(button);
      header.classList.add("sortable-header");
      button.addEventListener("click", function () {
        var ascending = header.getAttribute("aria-sort") !== "ascending";
        headers.forEach(function (other) { other.removeAttribute("aria-sort"); });
        header.setAttribute("aria-sort", ascending ? "ascending" : "descending");
        var body = table.tBodies[0];
        var rows = Array.prototype.slice.call(body.rows);
        rows.sort(function (x, y) {
          var order = compare(key(x.cells[column]), key(y.cells[column]));
          return ascending ? order : -order;
        });
        rows.forEach(function (row) { body.appendChild(row); });
      });
    });
  });
})();
