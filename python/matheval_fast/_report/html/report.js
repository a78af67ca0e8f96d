// matheval_fast report: the item browser. No network, no eval, no innerHTML with data: every text of the
// data goes in through textContent, so a response holding HTML or <script> shows as text.
"use strict";
(function () {
  var ROW = 44;          // px, the .row height in report.css: the list is virtual (only visible rows exist)
  var OVERSCAN = 8;
  var data = JSON.parse(document.getElementById("report-data").textContent);
  var cols = data.cols, n = data.n;
  var list = document.getElementById("list"), spacer = document.getElementById("spacer");
  var detail = document.getElementById("detail"), count = document.getElementById("count");
  var controls = document.getElementById("controls");
  var anchors = {};
  for (var i = 0; i < n; i++) anchors[cols.anchor[i]] = i;
  var view = [];          // indices of the items that pass the filters, in data order
  var selected = -1;
  var chosen = {};        // filter column -> code (or -1 for any)
  var query = "";

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }
  function title(i) {
    return data.title.map(function (p) { return p[0] + value(p[1], i); }).join(" · ");
  }
  function value(col, i) {
    var v = cols[col][i];
    if (data.dicts[col] && v !== null && v !== undefined) return data.dicts[col][v];
    return v;
  }

  // Filters: one select per dictionary column, with the count of each value.
  data.filters.forEach(function (f) {
    var counts = new Array(data.dicts[f.col].length).fill(0);
    var c = cols[f.col];
    for (var i = 0; i < n; i++) if (c[i] !== null) counts[c[i]]++;
    var label = el("label", null, f.label);
    var sel = el("select");
    sel.id = "filter-" + f.col;
    sel.dataset.col = f.col;
    var any = el("option", null, "any (" + n + ")");
    any.value = "-1";
    sel.appendChild(any);
    data.dicts[f.col].forEach(function (name, code) {
      var o = el("option", null, name + " (" + counts[code] + ")");
      o.value = String(code);
      sel.appendChild(o);
    });
    sel.addEventListener("change", function () { chosen[f.col] = +sel.value; apply(); });
    chosen[f.col] = -1;
    label.appendChild(sel);
    controls.appendChild(label);
  });
  var searchLabel = el("label", null, "search (" + data.searchLabel + ")");
  var search = el("input");
  search.type = "search";
  search.id = "search";
  search.placeholder = "text, case-insensitive";
  var timer = null;
  search.addEventListener("input", function () {
    clearTimeout(timer);
    timer = setTimeout(function () { query = search.value.toLowerCase(); apply(); }, 150);
  });
  searchLabel.appendChild(search);
  controls.appendChild(searchLabel);

  function matches(i) {
    for (var k = 0; k < data.filters.length; k++) {
      var c = data.filters[k].col;
      if (chosen[c] >= 0 && cols[c][i] !== chosen[c]) return false;
    }
    if (!query) return true;
    for (var s = 0; s < data.search.length; s++) {
      var t = cols[data.search[s]][i];
      if (t && String(t).toLowerCase().indexOf(query) >= 0) return true;
    }
    return false;
  }

  function apply() {
    view = [];
    for (var i = 0; i < n; i++) if (matches(i)) view.push(i);
    list.dataset.count = String(view.length);
    count.textContent = view.length + " of " + n + " " + data.noun;
    spacer.style.height = view.length * ROW + "px";
    list.scrollTop = 0;
    render(true);
  }

  var drawn = {};         // position in view -> row element
  function render(all) {
    if (all) { Object.keys(drawn).forEach(function (k) { drawn[k].remove(); }); drawn = {}; }
    var first = Math.max(0, Math.floor(list.scrollTop / ROW) - OVERSCAN);
    var last = Math.min(view.length, Math.ceil((list.scrollTop + list.clientHeight) / ROW) + OVERSCAN);
    Object.keys(drawn).forEach(function (k) {
      if (k < first || k >= last) { drawn[k].remove(); delete drawn[k]; }
    });
    for (var p = first; p < last; p++) {
      if (drawn[p]) continue;
      var i = view[p];
      var row = el("div", "row" + (i === selected ? " sel" : ""));
      row.setAttribute("role", "option");
      row.dataset.item = cols.anchor[i];
      row.style.top = p * ROW + "px";
      row.appendChild(el("div", "top", data.rowTop.map(function (c) { return value(c, i); })
        .filter(function (x) { return x !== null && x !== undefined && x !== ""; }).join(" · ")));
      row.appendChild(el("div", "main", value(data.rowMain, i)));
      row.addEventListener("click", (function (a) { return function () { location.hash = "item-" + a; }; })(cols.anchor[i]));
      list.appendChild(row);
      drawn[p] = row;
    }
  }
  list.addEventListener("scroll", function () { render(false); });
  window.addEventListener("resize", function () { render(false); });

  function responseBlock(text, span, note) {
    var wrap = el("div");
    var pre = el("pre", "response");
    if (text === null || text === undefined) {
      pre.textContent = "(no response in the log)";
    } else if (span && span[0] >= 0 && span[1] <= text.length) {
      pre.appendChild(document.createTextNode(text.slice(0, span[0])));
      pre.appendChild(el("mark", null, text.slice(span[0], span[1])));
      pre.appendChild(document.createTextNode(text.slice(span[1])));
    } else {
      pre.textContent = text;
    }
    if (text && text.length > 1500) {
      // Long responses are folded; the highlighted answer stays in view.
      pre.classList.add("folded");
      var btn = el("button", null, "show all " + text.length.toLocaleString() + " characters");
      btn.addEventListener("click", function () {
        var folded = pre.classList.toggle("folded");
        btn.textContent = folded ? "show all " + text.length.toLocaleString() + " characters" : "fold";
      });
      wrap.appendChild(btn);
    }
    wrap.insertBefore(pre, wrap.firstChild);
    if (note) wrap.appendChild(el("p", "note", note));
    return wrap;
  }

  function samplesBlock(s) {
    var box = el("div");
    box.appendChild(el("h4", null, "Samples of this item (" + s.rows.length + "), vote groups and the majority"));
    var t = el("table");
    var head = el("tr");
    ["sample", "our answer", "vote group", "ours", "framework", "response"].forEach(function (h) { head.appendChild(el("th", null, h)); });
    t.appendChild(head);
    s.rows.forEach(function (r, k) {
      var tr = el("tr");
      tr.appendChild(el("td", "num", k + (k === s.pick ? " (majority)" : "")));
      tr.appendChild(el("td", "mono", r[0] === null ? "—" : r[0]));
      tr.appendChild(el("td", "num", r[2] === null ? "abstains" : "group of sample " + r[2]));
      tr.appendChild(el("td", r[1] ? "ok" : "no", r[1] === null ? "—" : (r[1] ? "correct" : "wrong")));
      tr.appendChild(el("td", "num", r[4] === null || r[4] === undefined ? "—" : r[4]));
      var td = el("td");
      var d = el("details");
      d.appendChild(el("summary", null, (r[3] || "").length + " characters"));
      d.appendChild(el("pre", "response folded", r[3] === null ? "(none)" : r[3]));
      td.appendChild(d);
      tr.appendChild(td);
      t.appendChild(tr);
    });
    box.appendChild(t);
    return box;
  }

  function show(i) {
    selected = i;
    detail.textContent = "";
    detail.dataset.item = cols.anchor[i];
    var h = el("h3", null, title(i));
    h.id = "item-" + cols.anchor[i];
    detail.appendChild(h);
    var dl = el("dl");
    data.fields.forEach(function (f) {
      var v = value(f[1], i);
      dl.appendChild(el("dt", null, f[0]));
      dl.appendChild(el("dd", f[2] || null, v === null || v === undefined || v === "" ? "—" : v));
    });
    detail.appendChild(dl);
    if (data.responseCol) {
      detail.appendChild(el("h4", null, "Response"));
      detail.appendChild(responseBlock(cols[data.responseCol][i], data.spanCol ? cols[data.spanCol][i] : null,
        data.noteCol ? cols[data.noteCol][i] : null));
      var m = detail.querySelector("mark");
      if (m) { var pre = m.parentNode; pre.scrollTop = Math.max(0, m.offsetTop - pre.offsetTop - 60); }
    }
    if (data.samplesCol && cols[data.samplesCol][i]) detail.appendChild(samplesBlock(cols[data.samplesCol][i]));
    Object.keys(drawn).forEach(function (k) { drawn[k].classList.toggle("sel", view[k] === i); });
  }

  function fromHash() {
    var h = decodeURIComponent(location.hash.slice(1));
    if (h.indexOf("item-") !== 0) return;
    var i = anchors[h.slice(5)];
    if (i === undefined) {
      detail.textContent = "";
      detail.appendChild(el("p", "warn", "No item " + h + " in this report" +
        (data.total > n ? " (it may be one of the items left out past the limit)." : ".")));
      return;
    }
    show(i);
    var p = view.indexOf(i);
    if (p >= 0 && (p * ROW < list.scrollTop || p * ROW > list.scrollTop + list.clientHeight - ROW)) {
      list.scrollTop = Math.max(0, p * ROW - ROW * 2);
    }
    document.getElementById("browser").scrollIntoView();
  }
  window.addEventListener("hashchange", fromHash);
  apply();
  fromHash();
  document.body.dataset.ready = "1";
})();
