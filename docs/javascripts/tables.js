// On a phone the stylesheet stacks every table, one row a block; each cell then needs its
// column's heading beside it. This copies each heading into its cells' data-label, which the
// stylesheet shows before the cell's text.
document.querySelectorAll(".md-typeset table").forEach(function (table) {
  var heads = Array.prototype.map.call(table.querySelectorAll("thead th"), function (th) {
    return th.textContent.trim();
  });
  table.querySelectorAll("tbody tr").forEach(function (row) {
    Array.prototype.forEach.call(row.children, function (cell, index) {
      if (heads[index]) {
        cell.setAttribute("data-label", heads[index]);
      }
    });
  });
});
