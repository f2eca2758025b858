/* kg term map: the entities of a field placed by co-occurrence (sigma.js + graphology over #kg-data).
 * Data strings reach the DOM through textContent / text nodes only (never innerHTML).
 * window.kgMap exposes the state for tests, the benchmark and the browser console. */
(function () {
  "use strict";

  var T0 = performance.now();
  var DATA = JSON.parse(document.getElementById("kg-data").textContent);
  var T_PARSE = performance.now();
  var META = DATA.meta, E = DATA.entities, P = DATA.papers;
  var LABEL_FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, Arial, sans-serif";
  var DIM = "#e6e9ec", LINK = "#d5dbe0", LINK_FOCUS = "#6f7d8a", NO_COMMUNITY = "#c5cbd1";
  var LIST_LIMIT = 25;
  // colour scales: viridis for years, blue-grey-red for "less / as / more than expected"
  var VIRIDIS = ["#440154", "#3b528b", "#21918c", "#5ec962", "#fde725"];
  var DIVERGING = ["#2166ac", "#92c5de", "#e0e0e0", "#f4a582", "#b2182b"];
  var DENSITY = [[255, 255, 255, 0], [198, 219, 239, 150], [107, 174, 214, 200], [120, 198, 121, 220],
    [254, 224, 139, 235], [244, 109, 67, 245], [165, 0, 38, 250]];

  var byId = new Map();
  E.forEach(function (e, i) { byId.set(e.id, i); });
  var communities = new Map();
  DATA.communities.forEach(function (c) { communities.set(c.id, c); });
  var maxPapers = E.reduce(function (m, e) { return Math.max(m, e.p); }, 1);
  var neighbours = E.map(function () { return []; });
  DATA.links.forEach(function (l) { neighbours[l[0]].push(l[1]); neighbours[l[1]].push(l[0]); });
  var genericCount = E.filter(function (e) { return e.g; }).length;

  // Entities a filter hides are taken out of the graph, not only hidden: sigma keeps hidden
  // nodes in its WebGL buffers, and software WebGL (no GPU) pays for every one each frame.
  // The map opens with the smallest minimum of papers that draws at most DRAW_LIMIT entities.
  var DRAW_LIMIT = 2000;
  function openingMinimum() {
    var floor = Math.max(1, META.min_papers || 1), counts = E.map(function (e) { return e.p; }).sort(function (a, b) { return b - a; });
    return counts.length > DRAW_LIMIT ? Math.max(floor, counts[DRAW_LIMIT] + 1) : floor;
  }
  var state = {
    selected: null, hovered: null, focus: null, community: null, view: "network", colourBy: "community",
    minPapers: openingMinimum(), hiddenTypes: new Set(), hideGeneric: true, showLinks: true,
    visibleCount: 0, ready: false, error: null, timings: {}
  };

  // ---- small helpers (text only) --------------------------------------------------------
  function el(tag, opts) {
    var e = document.createElement(tag);
    opts = opts || {};
    if (opts.cls) e.className = opts.cls;
    if (opts.text != null) e.textContent = String(opts.text);
    if (opts.title) e.title = String(opts.title);
    if (opts.onclick) e.addEventListener("click", opts.onclick);
    for (var i = 2; i < arguments.length; i++) {
      if (arguments[i] != null && arguments[i] !== false) e.append(arguments[i]);
    }
    return e;
  }
  function dot(colour) {
    var d = el("span", { cls: "dot" });
    d.style.background = colour;
    return d;
  }
  function shorten(text, max) {
    text = String(text);
    return text.length > max ? text.slice(0, max - 1) + "…" : text;
  }
  function safeUrl(url) {
    try {
      var u = new URL(String(url));
      return u.protocol === "http:" || u.protocol === "https:" ? u.href : null;
    } catch (e) { return null; }
  }
  function hex(c) { return [parseInt(c.slice(1, 3), 16), parseInt(c.slice(3, 5), 16), parseInt(c.slice(5, 7), 16)]; }
  function ramp(stops, t) {
    t = Math.max(0, Math.min(1, t));
    var at = t * (stops.length - 1), i = Math.min(stops.length - 2, Math.floor(at)), f = at - i;
    var a = hex(stops[i]), b = hex(stops[i + 1]);
    return "#" + [0, 1, 2].map(function (k) {
      return ("0" + Math.round(a[k] + (b[k] - a[k]) * f).toString(16)).slice(-2);
    }).join("");
  }
  function gradient(stops) { return "linear-gradient(to right, " + stops.join(", ") + ")"; }

  // ---- what an entity shows: colour by community, average year or venue share ------------
  function meanYear(e) {
    if (!e.yr) return null;
    var n = 0, sum = 0;
    e.yr.forEach(function (count, k) { n += count; sum += count * META.years[k]; });
    return n ? sum / n : null;
  }
  function venueShare(e, k) {
    if (!e.vn) return null;
    var n = e.vn.reduce(function (s, v) { return s + v; }, 0);
    return n ? e.vn[k] / n : null;
  }
  function colourOf(e) {
    if (state.colourBy === "community") {
      var c = communities.get(e.c);
      return c ? c.color : NO_COMMUNITY;
    }
    if (state.colourBy === "year") {
      var y = meanYear(e), y0 = META.years[0], y1 = META.years[META.years.length - 1];
      return y == null ? NO_COMMUNITY : ramp(VIRIDIS, (y - y0) / (y1 - y0));
    }
    var k = Number(state.colourBy.slice(6)), share = venueShare(e, k), expected = META.venue_share[k];
    if (share == null) return NO_COMMUNITY;
    var t = share >= expected ? 0.5 + 0.5 * (share - expected) / (1 - expected || 1)
      : 0.5 - 0.5 * (expected - share) / (expected || 1);
    return ramp(DIVERGING, t);
  }
  function sizeOf(e) { return 2.5 + 16 * Math.sqrt(e.p / maxPapers); }
  function visible(i) {
    var e = E[i];
    return e.p >= state.minPapers && !state.hiddenTypes.has(e.t) && !(state.hideGeneric && e.g);
  }

  // ---- graph and renderer ------------------------------------------------------------------
  var graph = new graphology.Graph({ type: "undirected", multi: false, allowSelfLoops: false });
  var maxWeight = DATA.links.reduce(function (m, l) { return Math.max(m, l[2]); }, 1);
  var visibleNow = new Uint8Array(E.length);
  // sigma's y axis points up, as matplotlib's: the page and the figure show the same map
  function syncGraph() {
    var links = state.showLinks && state.view === "network", stale = false;
    function wanted(k) { var l = DATA.links[k]; return links && visibleNow[l[0]] && visibleNow[l[1]]; }
    graph.forEachNode(function (id) { if (!visibleNow[byId.get(id)]) stale = true; });
    graph.forEachEdge(function (key) { if (!wanted(Number(key.slice(1)))) stale = true; });
    // sigma re-indexes the whole graph on every node or edge dropped; one clear costs one re-index
    if (stale) graph.clear();
    for (var i = 0; i < E.length; i++) {
      var e = E[i];
      if (visibleNow[i] && !graph.hasNode(e.id)) {
        graph.addNode(e.id, { x: e.x, y: e.y, size: sizeOf(e), color: colourOf(e), label: shorten(e.n, 40), kind: e.t });
      }
    }
    DATA.links.forEach(function (l, k) {
      if (wanted(k) && !graph.hasEdge("l" + k)) {
        graph.addEdgeWithKey("l" + k, E[l[0]].id, E[l[1]].id, { size: 0.4 + 2.2 * Math.sqrt(l[2] / maxWeight), color: LINK });
      }
    });
  }
  for (var first = 0; first < E.length; first++) visibleNow[first] = visible(first) ? 1 : 0;
  syncGraph();
  var T_GRAPH = performance.now();

  function nodeReducer(node, data) {
    var i = byId.get(node), res = Object.assign({}, data);
    if (state.view === "density") { res.color = "rgba(29, 35, 41, 0.45)"; res.size = 1.6; }
    if (state.focusSet && !state.focusSet.has(node)) { res.color = DIM; res.zIndex = 0; }
    else if (state.community != null && E[i].c !== state.community) { res.color = DIM; res.zIndex = 0; }
    else res.zIndex = 1;
    if (node === state.focus || node === state.selected) { res.highlighted = true; res.zIndex = 2; }
    return res;
  }
  function edgeReducer(edge, data) {
    var res = Object.assign({}, data);
    if (state.focus) {
      var ends = graph.extremities(edge);
      if (ends[0] === state.focus || ends[1] === state.focus) { res.color = LINK_FOCUS; res.zIndex = 1; }
      else res.hidden = true;
    }
    return res;
  }

  var container = document.getElementById("map");
  var renderer = null;
  var T_SIGMA = performance.now();
  try {
    renderer = new Sigma(graph, container, {
      nodeReducer: nodeReducer, edgeReducer: edgeReducer, zIndex: true,
      renderLabels: false, defaultDrawNodeHover: KgLabelLayer.drawHover,
      defaultEdgeColor: LINK, minCameraRatio: 0.01, maxCameraRatio: 3, stagePadding: 30,
      hideEdgesOnMove: DATA.links.length > 1000  // links come back when the camera stops
    });
    // the frame is that of every entity, so filtering never re-centres or re-scales the map
    var xs = E.map(function (e) { return e.x; }), ys = E.map(function (e) { return e.y; });
    if (E.length) {
      renderer.setCustomBBox({ x: [Math.min.apply(null, xs), Math.max.apply(null, xs)],
        y: [Math.min.apply(null, ys), Math.max.apply(null, ys)] });
    }
  } catch (error) {
    state.error = String(error && error.message || error);
    container.append(el("p", { cls: "muted", text: "This page needs WebGL to draw the map: " + state.error }));
  }
  var T_READY_SIGMA = performance.now();

  // ---- density: a kernel estimate over the visible entities, weighted by papers -----------
  var densityCanvas = el("canvas");
  densityCanvas.id = "density";
  container.prepend(densityCanvas);
  var densityImage = null, densityBounds = null, GRID = 256;
  function computeDensity() {
    var xs = E.map(function (e) { return e.x; }), ys = E.map(function (e) { return e.y; });
    var x0 = Math.min.apply(null, xs), x1 = Math.max.apply(null, xs), y0 = Math.min.apply(null, ys), y1 = Math.max.apply(null, ys);
    var pad = 0.08 * Math.max(x1 - x0, y1 - y0, 1e-6);
    x0 -= pad; x1 += pad; y0 -= pad; y1 += pad;
    var grid = new Float32Array(GRID * GRID);
    for (var i = 0; i < E.length; i++) {
      if (!visibleNow[i]) continue;
      var gx = Math.floor((E[i].x - x0) / (x1 - x0) * (GRID - 1)), gy = Math.floor((E[i].y - y0) / (y1 - y0) * (GRID - 1));
      grid[gy * GRID + gx] += E[i].p;
    }
    var sigma = GRID / 48, radius = Math.ceil(3 * sigma), kernel = [], k;
    for (k = -radius; k <= radius; k++) kernel.push(Math.exp(-k * k / (2 * sigma * sigma)));
    var tmp = new Float32Array(GRID * GRID), x, y, s;
    for (y = 0; y < GRID; y++) for (x = 0; x < GRID; x++) {
      s = 0;
      for (k = -radius; k <= radius; k++) { var xx = x + k; if (xx >= 0 && xx < GRID) s += grid[y * GRID + xx] * kernel[k + radius]; }
      tmp[y * GRID + x] = s;
    }
    var max = 0;
    for (y = 0; y < GRID; y++) for (x = 0; x < GRID; x++) {
      s = 0;
      for (k = -radius; k <= radius; k++) { var yy = y + k; if (yy >= 0 && yy < GRID) s += tmp[yy * GRID + x] * kernel[k + radius]; }
      grid[y * GRID + x] = s;
      if (s > max) max = s;
    }
    var image = new ImageData(GRID, GRID);
    for (var p = 0; p < GRID * GRID; p++) {
      var t = max ? Math.sqrt(grid[p] / max) : 0, at = t * (DENSITY.length - 1);
      var j = Math.min(DENSITY.length - 2, Math.floor(at)), f = at - j;
      for (var c = 0; c < 4; c++) image.data[p * 4 + c] = DENSITY[j][c] + (DENSITY[j + 1][c] - DENSITY[j][c]) * f;
    }
    var off = document.createElement("canvas");
    off.width = GRID; off.height = GRID;
    off.getContext("2d").putImageData(image, 0, 0);
    densityImage = off;
    densityBounds = [x0, y0, x1, y1];
  }
  function drawDensity() {
    var dims = renderer.getDimensions(), ratio = window.devicePixelRatio || 1;
    if (densityCanvas.width !== Math.round(dims.width * ratio) || densityCanvas.height !== Math.round(dims.height * ratio)) {
      densityCanvas.width = Math.round(dims.width * ratio); densityCanvas.height = Math.round(dims.height * ratio);
      densityCanvas.style.width = dims.width + "px"; densityCanvas.style.height = dims.height + "px";
    }
    var ctx = densityCanvas.getContext("2d");
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.clearRect(0, 0, densityCanvas.width, densityCanvas.height);
    if (state.view !== "density" || !densityImage) return;
    // grid row 0 is the smallest graph y; graphToViewport turns and flips it as sigma does
    var a = renderer.graphToViewport({ x: densityBounds[0], y: densityBounds[1] });
    var b = renderer.graphToViewport({ x: densityBounds[2], y: densityBounds[3] });
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    ctx.imageSmoothingEnabled = true;
    ctx.translate(a.x, a.y);
    ctx.scale((b.x - a.x) / GRID, (b.y - a.y) / GRID);
    ctx.drawImage(densityImage, 0, 0);
  }

  // ---- labels: by priority (papers), never overlapping, never under the legend ------------
  var legend = document.getElementById("legend");
  var byPriority = E.map(function (e, i) { return i; }).sort(function (a, b) {
    return (E[b].p - E[a].p) || E[a].n.localeCompare(E[b].n);
  }).map(function (i) { return E[i].id; });
  var focusOrder = [];
  var labels = renderer ? new KgLabelLayer(renderer, container, {
    font: LABEL_FONT, weight: "500",
    candidates: function () { return state.focus ? focusOrder : byPriority; },
    text: function (node) { return graph.getNodeAttribute(node, "label"); },
    fontSize: function (node) { return Math.round(2 * (11 + 6 * Math.sqrt(E[byId.get(node)].p / maxPapers))) / 2; },
    strong: function (node) { return node === state.focus || node === state.selected; },
    keepClear: function () {
      var c = container.getBoundingClientRect(), r = legend.getBoundingClientRect();
      return legend.hidden ? [] : [[r.left - c.left, r.top - c.top, r.right - c.left, r.bottom - c.top]];
    },
    max: function () { var d = renderer.getDimensions(); return Math.max(20, Math.round(d.width * d.height / 6000)); }
  }) : null;
  if (renderer) {
    renderer.on("beforeRender", function () { drawDensity(); });
    renderer.on("afterRender", function () { labels.update(); });
  }

  function refresh(options) {
    var count = 0;
    for (var i = 0; i < E.length; i++) { visibleNow[i] = visible(i) ? 1 : 0; count += visibleNow[i]; }
    state.visibleCount = count;
    syncGraph();
    state.focus = state.hovered || state.selected;
    if (state.focus && !visibleNow[byId.get(state.focus)]) state.focus = null;
    if (state.focus) {
      var f = byId.get(state.focus);
      state.focusSet = new Set([state.focus].concat(neighbours[f].map(function (j) { return E[j].id; })));
      focusOrder = [state.focus].concat(byPriority.filter(function (n) { return n !== state.focus && state.focusSet.has(n); }));
    } else {
      state.focusSet = null;
      focusOrder = [];
    }
    if (options && options.recolour) {
      E.forEach(function (e) { if (graph.hasNode(e.id)) graph.setNodeAttribute(e.id, "color", colourOf(e)); });
    }
    if (options && options.density) computeDensity();
    if (renderer) renderer.refresh({ skipIndexation: !(options && options.recolour) });
    updateStats();
  }

  // ---- sidebar: title, stats, view, colour, filters -----------------------------------------
  document.getElementById("title").textContent = META.title;
  var stats = document.getElementById("stats");
  function updateStats() {
    stats.textContent = state.visibleCount.toLocaleString() + " of " + E.length.toLocaleString() + " entities shown · " +
      META.papers.toLocaleString() + " of " + META.graph_papers.toLocaleString() + " papers · " +
      META.links.toLocaleString() + " links (papers shared ≥ 2)";
  }
  document.getElementById("footer").textContent =
    "Made with " + META.generator + " · sigma.js · graphology. Entities placed by co-occurrence (papers shared), " +
    "coloured by community, sized by papers. Scroll to zoom: more names appear. Click an entity for its papers.";

  var colourBy = document.getElementById("colour-by");
  [["community", "community"]].concat(META.years.length > 1 ? [["year", "average year"]] : [])
    .concat(META.venues.length > 1 ? META.venues.map(function (v, k) { return ["venue:" + k, "share at " + v]; }) : [])
    .forEach(function (o) { var option = el("option", { text: o[1] }); option.value = o[0]; colourBy.append(option); });
  colourBy.addEventListener("change", function () { setColourBy(colourBy.value); });
  Array.prototype.forEach.call(document.querySelectorAll("input[name=view]"), function (radio) {
    radio.addEventListener("change", function () { if (radio.checked) setView(radio.value); });
  });
  document.getElementById("show-links").addEventListener("change", function (event) {
    state.showLinks = event.target.checked; refresh();
  });
  document.getElementById("reset-view").addEventListener("click", function () {
    if (renderer) renderer.getCamera().animatedReset({ duration: 300 });
  });

  var minInput = document.getElementById("min-papers"), minOutput = document.getElementById("min-papers-value");
  minInput.min = String(Math.max(1, META.min_papers || 1));
  minInput.max = String(Math.max(Number(minInput.min) + 1, Math.min(100, maxPapers)));
  minInput.value = String(state.minPapers);
  minOutput.textContent = String(state.minPapers);
  minInput.addEventListener("input", function () { setMinPapers(Number(minInput.value)); });

  var typeList = document.getElementById("types"), typeItems = {};
  DATA.types.forEach(function (t) {
    var box = el("input");
    box.type = "checkbox"; box.checked = true;
    box.setAttribute("aria-label", "Show " + t.type + " entities");
    var li = el("li", { title: "Show or hide " + t.type + " entities" }, box, el("span", { text: t.type }),
      el("span", { cls: "count", text: t.count.toLocaleString() }));
    li.addEventListener("click", function (event) {
      if (event.target !== box) event.preventDefault();
      setTypeVisible(t.type, state.hiddenTypes.has(t.type));
    });
    typeItems[t.type] = li;
    typeList.append(li);
  });
  var hideGeneric = document.getElementById("hide-generic");
  if (!genericCount) {
    hideGeneric.disabled = true;
    document.getElementById("generic-text").textContent = "leave out generic terms (none flagged)";
  } else {
    document.getElementById("generic-text").textContent = "leave out generic terms (" + genericCount + ")";
  }
  hideGeneric.addEventListener("change", function () { setHideGeneric(hideGeneric.checked); });

  function setColourBy(mode) {
    state.colourBy = mode;
    colourBy.value = mode;
    renderLegend();
    refresh({ recolour: true });
  }
  function setView(view) {
    state.view = view;
    colourBy.disabled = view === "density";
    Array.prototype.forEach.call(document.querySelectorAll("input[name=view]"), function (r) { r.checked = r.value === view; });
    renderLegend();
    refresh({ density: view === "density" });
  }
  function setMinPapers(n) {
    state.minPapers = n;
    minInput.value = String(n);
    minOutput.textContent = String(n);
    closeIfHidden();
    refresh({ density: state.view === "density" });
  }
  function setTypeVisible(type, show) {
    if (show) state.hiddenTypes.delete(type); else state.hiddenTypes.add(type);
    if (typeItems[type]) {
      typeItems[type].classList.toggle("off", !show);
      typeItems[type].querySelector("input").checked = show;
    }
    closeIfHidden();
    refresh({ density: state.view === "density" });
  }
  function setHideGeneric(hide) {
    state.hideGeneric = hide;
    hideGeneric.checked = hide;
    closeIfHidden();
    refresh({ density: state.view === "density" });
  }
  function closeIfHidden() {
    if (state.selected && !visible(byId.get(state.selected))) closePanel(true);
  }

  // ---- legend (inside the map's viewport) ----------------------------------------------------
  function renderLegend() {
    legend.replaceChildren();
    if (state.view === "density") {
      legend.append(el("h3", { text: "Density" }));
      var bar = el("div", { cls: "bar" });
      bar.style.background = "linear-gradient(to right, " + DENSITY.map(function (c) {
        return "rgba(" + c[0] + "," + c[1] + "," + c[2] + "," + (c[3] / 255).toFixed(2) + ")";
      }).join(", ") + ")";
      legend.append(bar, el("div", { cls: "ends" }, el("span", { text: "few papers" }), el("span", { text: "many" })),
        el("div", { cls: "note", text: "Papers of the entities nearby (Gaussian kernel, square-root scale)." }));
    } else if (state.colourBy === "community") {
      legend.append(el("h3", { text: "Communities" }));
      var list = el("ol");
      DATA.communities.slice(0, 12).forEach(function (c) {
        var li = el("li", { title: "Show community " + c.id + " only (click again for all)" }, dot(c.color),
          el("span", { text: shorten(c.label, 40) }), el("span", { cls: "count", text: String(c.size) }));
        li.classList.toggle("on", state.community === c.id);
        li.addEventListener("click", function () { setCommunity(state.community === c.id ? null : c.id); });
        list.append(li);
      });
      legend.append(list);
      if (DATA.communities.length > 12) legend.append(el("div", { cls: "note", text: "+ " + (DATA.communities.length - 12) + " smaller communities" }));
    } else if (state.colourBy === "year") {
      var yearBar = el("div", { cls: "bar" });
      yearBar.style.background = gradient(VIRIDIS);
      legend.append(el("h3", { text: "Average year of its papers" }), yearBar,
        el("div", { cls: "ends" }, el("span", { text: String(META.years[0]) }), el("span", { text: String(META.years[META.years.length - 1]) })));
    } else {
      var k = Number(state.colourBy.slice(6)), venueBar = el("div", { cls: "bar" });
      venueBar.style.background = gradient(DIVERGING);
      legend.append(el("h3", { text: "Share of its papers at " + META.venues[k] }), venueBar,
        el("div", { cls: "ends" }, el("span", { text: "less" }), el("span", { text: "as expected" }), el("span", { text: "more" })),
        el("div", { cls: "note", text: "Expected: " + Math.round(100 * META.venue_share[k]) + "% (the venue's share of all papers)." }));
    }
    if (renderer) renderer.refresh({ skipIndexation: true });
  }
  function setCommunity(id) {
    state.community = id;
    renderLegend();
    refresh();
  }

  // ---- search ----------------------------------------------------------------------------------
  var searchIndex = E.map(function (e) {
    return [e.n].concat(e.al || []).map(function (s) { return String(s).toLowerCase(); });
  });
  function search(query, limit) {
    var q = String(query || "").trim().toLowerCase();
    if (!q) return [];
    var hits = [];
    for (var i = 0; i < E.length; i++) {
      var best = 9;
      for (var j = 0; j < searchIndex[i].length; j++) {
        var s = searchIndex[i][j], pos = s.indexOf(q);
        if (pos < 0) continue;
        var score = s === q ? 0 : pos === 0 ? 1 : /[\s\-(]/.test(s[pos - 1]) ? 2 : 3;
        if (j > 0) score += 0.5;
        if (score < best) best = score;
      }
      if (best < 9) hits.push([best, -E[i].p, E[i].n.length, i]);
    }
    hits.sort(function (a, b) { return a[0] - b[0] || a[1] - b[1] || a[2] - b[2] || a[3] - b[3]; });
    return hits.slice(0, limit || 12).map(function (h) { return E[h[3]].id; });
  }
  var input = document.getElementById("search"), suggestionsList = document.getElementById("suggestions");
  var suggestions = [], active = 0;
  function showSuggestions() {
    suggestions = search(input.value, 12);
    active = 0;
    suggestionsList.replaceChildren();
    suggestions.forEach(function (id, k) {
      var e = E[byId.get(id)];
      var li = el("li", { cls: k === active ? "active" : "" }, dot(colourOf(e)), el("span", { text: shorten(e.n, 50) }),
        el("span", { cls: "type", text: e.t + " · " + e.p }));
      li.addEventListener("mousedown", function (event) { event.preventDefault(); choose(id); });
      suggestionsList.append(li);
    });
    if (input.value.trim() && !suggestions.length) suggestionsList.append(el("li", { cls: "muted", text: "No match" }));
    suggestionsList.hidden = !input.value.trim();
  }
  function choose(id) {
    suggestionsList.hidden = true;
    input.value = E[byId.get(id)].n;
    select(id);
  }
  input.addEventListener("input", showSuggestions);
  input.addEventListener("focus", function () { if (input.value.trim()) showSuggestions(); });
  input.addEventListener("blur", function () { suggestionsList.hidden = true; });
  input.addEventListener("keydown", function (event) {
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      if (!suggestions.length) return;
      active = (active + (event.key === "ArrowDown" ? 1 : suggestions.length - 1)) % suggestions.length;
      Array.prototype.forEach.call(suggestionsList.children, function (li, k) { li.classList.toggle("active", k === active); });
      event.preventDefault();
    } else if (event.key === "Enter") {
      if (!suggestions.length) suggestions = search(input.value, 12);
      if (suggestions.length) choose(suggestions[active] || suggestions[0]);
      event.preventDefault();
    } else if (event.key === "Escape") {
      suggestionsList.hidden = true;
    }
  });

  // ---- selection and the panel: papers with the sentence that mentions the entity --------------
  var panel = document.getElementById("panel"), body = document.getElementById("panel-body");
  function resize() { if (renderer) { renderer.resize(); renderer.refresh(); } }
  function closePanel(quiet) {
    state.selected = null;
    panel.hidden = true;
    resize();
    if (quiet !== true) refresh();
  }
  document.getElementById("close-panel").addEventListener("click", function () { closePanel(); });

  function select(id) {
    if (!byId.has(id)) return false;
    var i = byId.get(id), e = E[i];
    if (state.hiddenTypes.has(e.t)) setTypeVisible(e.t, true);
    if (e.p < state.minPapers) setMinPapers(Math.max(Number(minInput.min), e.p));
    if (e.g && state.hideGeneric) setHideGeneric(false);
    state.selected = id;
    renderPanel(i);
    var wasHidden = panel.hidden;
    panel.hidden = false;
    if (wasHidden) resize();
    refresh();
    if (renderer) {
      var d = renderer.getNodeDisplayData(id), camera = renderer.getCamera();
      if (d) camera.animate({ x: d.x, y: d.y, ratio: Math.min(camera.ratio, 0.5) }, { duration: 350 });
    }
    return true;
  }

  var chars = new Map();
  function codePoints(k) {
    if (!chars.has(k)) chars.set(k, Array.from(P[k].a || ""));
    return chars.get(k);
  }
  function sentence(k, start, end) {
    var cs = codePoints(k);
    if (!cs.length || start < 0 || end > cs.length || start >= end) return null;
    var s = start, e = end, floor = Math.max(0, start - 400), ceil = Math.min(cs.length, end + 400);
    while (s > floor && !(/\s/.test(cs[s - 1]) && /[.!?]/.test(cs[s - 2] || ""))) s--;
    while (e < ceil && !(/[.!?]/.test(cs[e - 1] || "") && /\s/.test(cs[e] || " ") && e > end)) e++;
    var q = el("blockquote");
    q.append(cs.slice(s, start).join(""), el("mark", { text: cs.slice(start, end).join("") }), cs.slice(end, e).join(""));
    return q;
  }
  function paperItem(m) {
    var paper = P[m[0]], href = safeUrl(paper.u);
    var title = href ? el("a", { text: paper.t }) : el("span", { text: paper.t, cls: "title" });
    if (href) { title.href = href; title.target = "_blank"; title.rel = "noopener noreferrer"; }
    var item = el("div", { cls: "item paper" }, el("div", null, title, m[3] ? el("span", { cls: "badge", text: "proposes" }) : null));
    var facts = [paper.v, paper.y].filter(function (x) { return x != null && x !== ""; }).join(" ");
    if (facts) item.append(el("div", { cls: "rel", text: facts }));
    var quote = sentence(m[0], m[1], m[2]);
    if (quote) item.append(quote);
    return item;
  }
  function bars(title, names, counts) {
    var total = counts.reduce(function (s, v) { return s + v; }, 0);
    if (!total) return null;
    var grid = el("div", { cls: "bars" }), top = Math.max.apply(null, counts);
    names.forEach(function (name, k) {
      var fill = el("div", { cls: "fill" });
      fill.style.width = (100 * counts[k] / top) + "%";
      grid.append(el("span", { text: String(name) }), el("div", null, fill), el("span", { cls: "n", text: String(counts[k]) }));
    });
    return el("div", null, el("h3", { text: title }), grid);
  }
  function renderPanel(i) {
    var e = E[i];
    body.replaceChildren();
    var community = communities.get(e.c);
    body.append(el("div", { cls: "kind" }, dot(colourOf(e)), el("span", { text: e.t + (community ? " · community " + community.id : "") })));
    body.append(el("h2", { cls: "name", text: e.n }));
    var proposers = e.m.filter(function (m) { return m[3]; }).length;
    var facts = [e.p + (e.p === 1 ? " paper" : " papers"), proposers + (proposers === 1 ? " proposes it" : " propose it")];
    if (e.g) facts.push("flagged generic");
    body.append(el("p", { cls: "facts", text: facts.join(" · ") }));
    if (community) body.append(el("p", { cls: "facts", text: "Community: " + community.label }));
    if (e.al && e.al.length) body.append(el("p", { cls: "facts", text: "Also: " + e.al.join(", ") }));
    if (e.yr && META.years.length > 1) { var years = bars("Papers per year", META.years, e.yr); if (years) body.append(years); }
    if (e.vn) { var venues = bars("Papers per venue", META.venues, e.vn); if (venues) body.append(venues); }
    if (e.r && e.r.length) {
      body.append(el("h3", { text: "Often with" }));
      var chips = el("div", { cls: "chips" });
      e.r.forEach(function (r) {
        var other = E[r[0]];
        chips.append(el("span", { cls: "chip", title: other.t + ": " + r[1] + " papers together", onclick: function () { select(other.id); } },
          dot(colourOf(other)), el("span", { text: other.n + " (" + r[1] + ")" })));
      });
      body.append(chips);
    }
    var box = el("div", { cls: "papers" }, el("h3", { text: "Papers (" + e.m.length.toLocaleString() + ")" }));
    var shown = 0;
    function more() {
      e.m.slice(shown, shown + LIST_LIMIT).forEach(function (m) { box.append(paperItem(m)); });
      shown = Math.min(e.m.length, shown + LIST_LIMIT);
      if (shown < e.m.length) {
        var button = el("button", { cls: "more", text: "Show " + Math.min(LIST_LIMIT, e.m.length - shown) + " more" });
        button.addEventListener("click", function () { button.remove(); more(); });
        box.append(button);
      }
    }
    more();
    body.append(box);
  }

  // ---- events ------------------------------------------------------------------------------------
  if (renderer) {
    renderer.on("enterNode", function (ev) { state.hovered = ev.node; container.style.cursor = "pointer"; refresh(); });
    renderer.on("leaveNode", function () { state.hovered = null; container.style.cursor = ""; refresh(); });
    renderer.on("clickNode", function (ev) { select(ev.node); });
    renderer.on("clickStage", function () { if (state.selected) closePanel(); });
  }
  document.addEventListener("keydown", function (event) {
    if (event.key === "Escape" && document.activeElement !== input && state.selected) closePanel();
    if (event.key === "/" && document.activeElement !== input) { input.focus(); input.select(); event.preventDefault(); }
  });

  renderLegend();
  refresh({ density: true });
  state.ready = true;
  // milliseconds: the script's own steps, and since navigation started (performance.now's origin)
  state.timings = {
    parse: T_PARSE - T0, graph: T_GRAPH - T_PARSE, sigma: T_READY_SIGMA - T_SIGMA, total: performance.now() - T0,
    scriptStartAt: T0, readyAt: performance.now()
  };
  requestAnimationFrame(function () {
    requestAnimationFrame(function () { state.timings.firstFrameAt = performance.now(); });
  });
  window.kgMap = {
    data: DATA, graph: graph, renderer: renderer, state: state, labels: labels,
    select: select, search: search, closePanel: closePanel, setColourBy: setColourBy, setView: setView,
    setMinPapers: setMinPapers, setTypeVisible: setTypeVisible, setHideGeneric: setHideGeneric, setCommunity: setCommunity,
    labelBoxes: function () { return labels ? labels.boxes() : []; }, colourOf: function (id) { return colourOf(E[byId.get(id)]); }
  };
})();
