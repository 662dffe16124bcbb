// Progressive enhancement: column headers of tables marked "sortable" become buttons that sort the
// rows, and tables marked "filterable" get a text box that shows only the rows containing its text.
// Without this script every table reads fully, in the dataset's own order.
(function () {
  "use strict";
  function key(cell) {
    // A row whose cell spans several columns has no cell of its own under the last ones.
    if (!cell) { return ""; }
    var raw = cell.getAttribute("data-sort");
    var text = raw !== null && raw !== "" ? raw : cell.textContent.trim();
    var number = parseFloat(text.replace(/,/g, ""));
    return isNaN(number) ? text.toLowerCase() : number;
  }
  function compare(a, b) {
    if (typeof a === typeof b) { return a < b ? -1 : a > b ? 1 : 0; }
    return typeof a === "number" ? -1 : 1;
  }
  // The headers that stand over one column, with that column's index, counting row and column spans.
  function columnHeaders(thead) {
    var taken = [];
    var found = [];
    Array.prototype.forEach.call(thead.rows, function (row, r) {
      var column = 0;
      Array.prototype.forEach.call(row.cells, function (cell) {
        while (taken[r] && taken[r][column]) { column += 1; }
        for (var i = 0; i < cell.rowSpan; i += 1) {
          taken[r + i] = taken[r + i] || [];
          for (var j = 0; j < cell.colSpan; j += 1) { taken[r + i][column + j] = true; }
        }
        // Only a header that reaches the last header row stands over a single column of figures.
        if (cell.colSpan === 1 && r + cell.rowSpan === thead.rows.length) { found.push({ header: cell, column: column }); }
        column += cell.colSpan;
      });
    });
    return found;
  }
  function makeSortable(table) {
    var headers = columnHeaders(table.tHead);
    headers.forEach(function (entry) {
      var header = entry.header;
      var button = document.createElement("button");
      button.type = "button";
      while (header.firstChild) { button.appendChild(header.firstChild); }
      header.appendChild(button);
      header.classList.add("sortable-header");
      button.addEventListener("click", function () {
        var ascending = header.getAttribute("aria-sort") !== "ascending";
        headers.forEach(function (other) { other.header.removeAttribute("aria-sort"); });
        header.setAttribute("aria-sort", ascending ? "ascending" : "descending");
        var body = table.tBodies[0];
        var rows = Array.prototype.slice.call(body.rows);
        rows.sort(function (x, y) {
          var order = compare(key(x.cells[entry.column]), key(y.cells[entry.column]));
          return ascending ? order : -order;
        });
        rows.forEach(function (row) { body.appendChild(row); });
      });
    });
  }
  function rowText(row) { return row.textContent.replace(/\s+/g, " ").toLowerCase(); }
  function makeFilterable(table, index) {
    var rows = [];
    Array.prototype.forEach.call(table.tBodies, function (body) {
      Array.prototype.forEach.call(body.rows, function (row) { rows.push(row); });
    });
    if (!table.id) { table.id = "filtered-table-" + (index + 1); }
    var box = document.createElement("p");
    box.className = "table-filter";
    var label = document.createElement("label");
    label.appendChild(document.createTextNode("Show rows containing "));
    var input = document.createElement("input");
    input.type = "search";
    input.setAttribute("aria-controls", table.id);
    label.appendChild(input);
    var count = document.createElement("span");
    count.setAttribute("role", "status");
    count.setAttribute("aria-live", "polite");
    box.appendChild(label);
    box.appendChild(document.createTextNode(" "));
    box.appendChild(count);
    // Above the scrolling wrapper, where there is one, so the box stays in view on a phone.
    var anchor = table.parentNode.classList.contains("table-wrap") ? table.parentNode : table;
    anchor.parentNode.insertBefore(box, anchor);
    input.addEventListener("input", function () {
      var words = input.value.trim().toLowerCase();
      var shown = 0;
      rows.forEach(function (row) {
        row.hidden = words !== "" && rowText(row).indexOf(words) === -1;
        if (!row.hidden) { shown += 1; }
      });
      count.textContent = words === "" ? "" : shown + " of " + rows.length + " rows";
    });
  }
  document.querySelectorAll("table.sortable").forEach(function (table) {
    makeSortable(table);
  });
  document.querySelectorAll("table.filterable").forEach(function (table, index) {
    makeFilterable(table, index);
  });
})();
