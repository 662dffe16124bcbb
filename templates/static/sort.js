// Progressive enhancement: column headers of tables marked "sortable" become buttons that sort the
// rows, and the benchmark table gets a checkbox per dataset column. Without this script every table
// reads fully, in the dataset's own order, with every dataset's column shown.
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
  // One checkbox per dataset column group (cells carrying data-group), to show or hide it.
  function addGroupSwitches(table) {
    var groups = [];
    table.querySelectorAll("thead tr:first-child th[data-group]").forEach(function (header) {
      groups.push({ slug: header.getAttribute("data-group"), label: header.textContent.trim() });
    });
    if (groups.length === 0) { return; }
    var box = document.createElement("fieldset");
    box.className = "groups";
    var legend = document.createElement("legend");
    legend.textContent = "Datasets beside the featured one";
    box.appendChild(legend);
    groups.forEach(function (group) {
      var label = document.createElement("label");
      var input = document.createElement("input");
      input.type = "checkbox";
      input.checked = true;
      input.addEventListener("change", function () {
        table.querySelectorAll("[data-group=\"" + group.slug + "\"]").forEach(function (cell) {
          cell.hidden = !input.checked;
        });
      });
      label.appendChild(input);
      label.appendChild(document.createTextNode(" " + group.label));
      box.appendChild(label);
    });
    table.parentNode.parentNode.insertBefore(box, table.parentNode);
  }
  document.querySelectorAll("table.sortable").forEach(function (table) {
    makeSortable(table);
    addGroupSwitches(table);
  });
})();
