/* kg graph viewer: sigma.js + graphology over the JSON in #kg-data.
 * The graph's labels and edge types come with the data (DATA.schema, from kg.schema): none is named here.
 * Data strings reach the DOM through textContent / text nodes only (never innerHTML).
 * window.kgViewer exposes the state for tests and for the browser console. */
(function () {
  "use strict";

  var T0 = performance.now();
  var DATA = JSON.parse(document.getElementById("kg-data").textContent);
  var T_PARSE = performance.now();
  var SCHEMA = DATA.schema;
  var ENTITY_TYPES = SCHEMA.entity_types;
  var RELATION_VERBS = SCHEMA.relations;  // edge type -> verb ("evaluated on")
  var RESULT_ROLES = SCHEMA.results;  // result edge type -> role ("on")
  function isMention(type) { return type === SCHEMA.proposes || type === SCHEMA.mentions; }
  var DIM_NODE = "#e4e7ea", EDGE = "#d3d8dd", EDGE_FOCUS = "#6f7d8a";
  var LABEL_FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, Arial, sans-serif";
  var LIST_LIMIT = 60;

  var nodes = DATA.nodes, links = DATA.links;
  var colours = {};
  DATA.types.forEach(function (t) { colours[t.type] = t.color; });
  var byId = new Map();
  nodes.forEach(function (n, i) { byId.set(n.id, i); });
  var linksOf = nodes.map(function () { return []; });
  links.forEach(function (l, i) { linksOf[l[0]].push(i); if (l[1] !== l[0]) linksOf[l[1]].push(i); });

  var state = {
    selected: null, hovered: null, hiddenTypes: new Set(), sizeBy: "papers",
    showEdges: true, neighbours: null, visibleCount: 0, ready: false, error: null
  };

  // ---- small DOM helpers (text only) -------------------------------------------------
  function el(tag, opts) {
    var e = document.createElement(tag);
    opts = opts || {};
    if (opts.cls) e.className = opts.cls;
    if (opts.text != null) e.textContent = String(opts.text);
    if (opts.title) e.title = String(opts.title);
    if (opts.onclick) e.addEventListener("click", opts.onclick);
    for (var i = 2; i < arguments.length; i++) {
      var child = arguments[i];
      if (child == null || child === false) continue;
      e.append(child);
    }
    return e;
  }
  function dot(type) {
    var d = el("span", { cls: "dot" });
    d.style.background = colours[type] || "#999";
    return d;
  }
  function safeUrl(url) {
    try {
      var u = new URL(String(url));
      return u.protocol === "http:" || u.protocol === "https:" ? u.href : null;
    } catch (e) { return null; }
  }
  function extLink(url, text) {
    var href = safeUrl(url);
    if (!href) return el("span", { text: text });
    var a = el("a", { text: text });
    a.href = href; a.target = "_blank"; a.rel = "noopener noreferrer";
    return a;
  }
  function nodeLink(index, text) {
    var n = nodes[index];
    return el("span", { cls: "link", text: text != null ? text : n.name, title: n.type + ": " + n.name,
      onclick: function () { select(n.id); } });
  }
  function shorten(text, max) {
    text = String(text);
    return text.length > max ? text.slice(0, max - 1) + "…" : text;
  }

  // ---- abstracts and evidence (offsets are code points) ---------------------------------
  var charCache = new Map();
  function chars(paperIndex) {
    if (!charCache.has(paperIndex)) {
      var d = nodes[paperIndex].details || {};
      charCache.set(paperIndex, Array.from(d.abstract || ""));
    }
    return charCache.get(paperIndex);
  }
  function sentenceAround(cs, start, end) {
    var s = start, e = end, floor = Math.max(0, start - 400), ceil = Math.min(cs.length, end + 400);
    while (s > floor && !(/\s/.test(cs[s - 1]) && /[.!?]/.test(cs[s - 2] || ""))) s--;
    while (e < ceil && !(/[.!?]/.test(cs[e - 1] || "") && /\s/.test(cs[e] || " ") && e > end)) e++;
    return [s, e];
  }
  function snippet(paperIndex, start, end, wholeSentence) {
    var cs = chars(paperIndex);
    if (!cs.length || start < 0 || end > cs.length) return null;
    var q = el("blockquote");
    if (wholeSentence) { q.append(cs.slice(start, end).join("")); return q; }
    var bounds = sentenceAround(cs, start, end);
    q.append(cs.slice(bounds[0], start).join(""));
    q.append(el("mark", { text: cs.slice(start, end).join("") }));
    q.append(cs.slice(end, bounds[1]).join(""));
    return q;
  }

  // ---- graph -----------------------------------------------------------------------------
  var graph = new graphology.Graph({ type: "undirected", multi: false, allowSelfLoops: false });
  var maxPapers = 1, maxDegree = 1;
  nodes.forEach(function (n) {
    maxPapers = Math.max(maxPapers, n.papers || 0);
    maxDegree = Math.max(maxDegree, n.degree || 0);
  });
  function nodeSize(n) {
    var v = state.sizeBy === "degree" ? (n.degree || 0) / maxDegree : (n.papers || 0) / maxPapers;
    return 2.5 + 14 * Math.sqrt(v);
  }
  nodes.forEach(function (n) {
    graph.addNode(n.id, {
      x: n.x, y: -n.y, size: nodeSize(n), color: colours[n.type] || "#999",
      label: shorten(n.name, ENTITY_TYPES.indexOf(n.type) >= 0 ? 48 : 36), kind: n.type
    });
  });
  links.forEach(function (l) {
    if (l[0] === l[1]) return;
    var a = nodes[l[0]].id, b = nodes[l[1]].id;
    if (!graph.hasEdge(a, b)) {
      var relation = !!RELATION_VERBS[l[2]];
      graph.addEdge(a, b, { size: relation ? 1 : 0.6, color: relation ? "#bfc7cf" : EDGE });
    }
  });

  function visible(node) { return !state.hiddenTypes.has(graph.getNodeAttribute(node, "kind")); }

  function nodeReducer(node, data) {
    var res = Object.assign({}, data);
    if (state.hiddenTypes.has(data.kind)) { res.hidden = true; return res; }
    if (state.neighbours) {
      if (node === state.focus) {
        res.highlighted = true; res.zIndex = 2;
      } else if (state.neighbours.has(node)) {
        res.zIndex = 1;
      } else {
        res.color = DIM_NODE; res.zIndex = 0;
      }
    }
    if (node === state.selected) { res.highlighted = true; res.zIndex = 2; }
    return res;
  }
  function edgeReducer(edge, data) {
    var res = Object.assign({}, data);
    if (!state.showEdges) { res.hidden = true; return res; }
    if (state.neighbours) {
      var ends = graph.extremities(edge);
      if (ends[0] === state.focus || ends[1] === state.focus) { res.color = EDGE_FOCUS; res.size = 1.4; res.zIndex = 1; }
      else res.hidden = true;
    }
    return res;
  }

  var container = document.getElementById("graph");
  var renderer = null;
  var T_SIGMA = performance.now();
  try {
    renderer = new Sigma(graph, container, {
      nodeReducer: nodeReducer, edgeReducer: edgeReducer, zIndex: true,
      renderLabels: false, defaultDrawNodeHover: KgLabelLayer.drawHover,  // labels: the label layer below
      defaultEdgeColor: EDGE, hideEdgesOnMove: graph.size > 20000,
      // thin one-pixel lines draw far faster than antialiased quads on big graphs
      defaultEdgeType: graph.size > 5000 ? "line" : "rectangle",
      edgeProgramClasses: Sigma.rendering && Sigma.rendering.EdgeLineProgram
        ? { line: Sigma.rendering.EdgeLineProgram, rectangle: Sigma.rendering.EdgeRectangleProgram } : undefined,
      minCameraRatio: 0.02, maxCameraRatio: 4, stagePadding: 40
    });
  } catch (error) {
    state.error = String(error && error.message || error);
    container.append(el("p", { cls: "muted", text: "This page needs WebGL to draw the graph: " + state.error }));
  }

  var T_READY_SIGMA = performance.now();

  // ---- labels: by priority (entities before papers and results, then papers, then degree),
  // never overlapping; a focused node's neighbours first, so the names around it stay readable
  function isEntity(n) { return ENTITY_TYPES.indexOf(n.type) >= 0 ? 0 : 1; }
  var byPriority = nodes.map(function (n) { return n.id; }).sort(function (a, b) {
    var na = nodes[byId.get(a)], nb = nodes[byId.get(b)];
    return (isEntity(na) - isEntity(nb)) || (nb.papers - na.papers) || (nb.degree - na.degree) ||
      na.name.localeCompare(nb.name);
  });
  var focusOrder = [];
  var labels = renderer ? new KgLabelLayer(renderer, container, {
    font: LABEL_FONT, weight: "500",
    candidates: function () { return state.neighbours ? focusOrder : byPriority; },
    text: function (node) { return graph.getNodeAttribute(node, "label"); },
    fontSize: function (node) { return node === state.focus ? 13 : 12; },
    strong: function (node) { return node === state.focus || node === state.selected; },
    // about one label per 8,000 square pixels: a map to read, not a wall of text
    max: function () { var d = renderer.getDimensions(); return Math.max(20, Math.round(d.width * d.height / 8000)); }
  }) : null;
  if (renderer) renderer.on("afterRender", function () { labels.update(); });

  function refresh() {
    state.focus = state.hovered || state.selected;
    state.neighbours = state.focus ? new Set(graph.neighbors(state.focus).concat([state.focus])) : null;
    focusOrder = state.focus ? [state.focus].concat(byPriority.filter(function (n) {
      return n !== state.focus && state.neighbours.has(n);
    })) : [];
    var count = 0;
    graph.forEachNode(function (n) { if (visible(n)) count++; });
    state.visibleCount = count;
    if (renderer) renderer.refresh({ skipIndexation: false });
  }

  // ---- sidebar -----------------------------------------------------------------------------
  document.getElementById("title").textContent = DATA.meta.title;
  var counts = {};
  DATA.types.forEach(function (t) { counts[t.type] = t.count; });
  var entityCount = ENTITY_TYPES.reduce(function (s, t) { return s + (counts[t] || 0); }, 0);
  document.getElementById("stats").textContent =
    (counts[SCHEMA.paper] || 0).toLocaleString() + " papers · " + entityCount.toLocaleString() + " entities · " +
    links.length.toLocaleString() + " links";
  document.getElementById("footer").textContent =
    "Made with " + DATA.meta.generator + " · sigma.js · graphology. Drag to pan, scroll to zoom, " +
    "hover to see a node's neighbours, click for its papers and evidence.";

  var legend = document.getElementById("legend");
  var legendItems = {};
  DATA.types.forEach(function (t) {
    var li = el("li", { title: "Show or hide " + t.type + " nodes" }, dot(t.type), el("span", { text: t.type }),
      el("span", { cls: "count", text: t.count.toLocaleString() }));
    li.addEventListener("click", function () { setTypeVisible(t.type, state.hiddenTypes.has(t.type)); });
    legendItems[t.type] = li;
    legend.append(li);
  });
  function setTypeVisible(type, show) {
    if (show) state.hiddenTypes.delete(type); else state.hiddenTypes.add(type);
    if (legendItems[type]) legendItems[type].classList.toggle("off", !show);
    if (!show && state.selected && graph.getNodeAttribute(state.selected, "kind") === type) closePanel();
    refresh();
  }
  document.getElementById("show-all").addEventListener("click", function () {
    DATA.types.forEach(function (t) { setTypeVisible(t.type, true); });
  });
  document.getElementById("entities-only").addEventListener("click", function () {
    DATA.types.forEach(function (t) { setTypeVisible(t.type, ENTITY_TYPES.indexOf(t.type) >= 0); });
  });
  document.getElementById("size-by").addEventListener("change", function (event) {
    state.sizeBy = event.target.value;
    nodes.forEach(function (n) { graph.setNodeAttribute(n.id, "size", nodeSize(n)); });
    refresh();
  });
  document.getElementById("show-edges").addEventListener("change", function (event) {
    state.showEdges = event.target.checked; refresh();
  });
  document.getElementById("reset-view").addEventListener("click", function () {
    if (renderer) renderer.getCamera().animatedReset({ duration: 300 });
  });

  var top = document.getElementById("top");
  nodes.map(function (n, i) { return i; })
    .filter(function (i) { return ENTITY_TYPES.indexOf(nodes[i].type) >= 0; })
    .sort(function (a, b) { return (nodes[b].papers - nodes[a].papers) || nodes[a].name.localeCompare(nodes[b].name); })
    .slice(0, 12)
    .forEach(function (i) {
      top.append(el("li", null, nodeLink(i), el("span", { cls: "muted", text: " " + nodes[i].papers + " papers" })));
    });
  if (!top.children.length) document.getElementById("top-section").hidden = true;

  // ---- search --------------------------------------------------------------------------------
  var searchIndex = nodes.map(function (n) {
    var names = [n.name].concat((n.details && n.details.aliases) || []);
    return names.map(function (s) { return String(s).toLowerCase(); });
  });
  function search(query, limit) {
    var q = String(query || "").trim().toLowerCase();
    if (!q) return [];
    var hits = [];
    for (var i = 0; i < nodes.length; i++) {
      var best = 9;
      for (var j = 0; j < searchIndex[i].length; j++) {
        var s = searchIndex[i][j], pos = s.indexOf(q);
        if (pos < 0) continue;
        var score = s === q ? 0 : pos === 0 ? 1 : /[\s\-(]/.test(s[pos - 1]) ? 2 : 3;
        if (j > 0) score += 0.5;
        if (score < best) best = score;
      }
      if (best < 9) hits.push([best, -(nodes[i].papers || 0), nodes[i].name.length, i]);
    }
    hits.sort(function (a, b) { return a[0] - b[0] || a[1] - b[1] || a[2] - b[2] || a[3] - b[3]; });
    return hits.slice(0, limit || 12).map(function (h) { return nodes[h[3]].id; });
  }
  var input = document.getElementById("search");
  var list = document.getElementById("suggestions");
  var suggestions = [], active = 0;
  function showSuggestions() {
    suggestions = search(input.value, 12);
    active = 0;
    list.replaceChildren();
    suggestions.forEach(function (id, k) {
      var n = nodes[byId.get(id)];
      var li = el("li", { cls: k === active ? "active" : "" }, dot(n.type), el("span", { text: shorten(n.name, 60) }),
        el("span", { cls: "type", text: n.type }));
      li.addEventListener("mousedown", function (event) { event.preventDefault(); choose(id); });
      list.append(li);
    });
    if (input.value.trim() && !suggestions.length) list.append(el("li", { cls: "muted", text: "No match" }));
    list.hidden = !input.value.trim();
  }
  function choose(id) {
    list.hidden = true;
    input.value = nodes[byId.get(id)].name;
    select(id);
  }
  input.addEventListener("input", showSuggestions);
  input.addEventListener("focus", function () { if (input.value.trim()) showSuggestions(); });
  input.addEventListener("blur", function () { list.hidden = true; });
  input.addEventListener("keydown", function (event) {
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      if (!suggestions.length) return;
      active = (active + (event.key === "ArrowDown" ? 1 : suggestions.length - 1)) % suggestions.length;
      Array.prototype.forEach.call(list.children, function (li, k) { li.classList.toggle("active", k === active); });
      event.preventDefault();
    } else if (event.key === "Enter") {
      if (!suggestions.length) suggestions = search(input.value, 12);
      if (suggestions.length) choose(suggestions[active] || suggestions[0]);
      event.preventDefault();
    } else if (event.key === "Escape") {
      list.hidden = true;
    }
  });

  // ---- selection and the details panel -----------------------------------------------------
  var panel = document.getElementById("panel");
  var body = document.getElementById("panel-body");
  function resize() { if (renderer) { renderer.resize(); renderer.refresh(); } }
  function closePanel() {
    state.selected = null;
    panel.hidden = true;
    resize();
    refresh();
  }
  document.getElementById("close-panel").addEventListener("click", closePanel);

  function select(id) {
    if (!byId.has(id)) return false;
    var n = nodes[byId.get(id)];
    if (state.hiddenTypes.has(n.type)) setTypeVisible(n.type, true);
    state.selected = id;
    renderPanel(byId.get(id));
    var wasHidden = panel.hidden;
    panel.hidden = false;
    if (wasHidden) resize();
    refresh();
    if (renderer) {
      var d = renderer.getNodeDisplayData(id);
      var camera = renderer.getCamera();
      if (d) camera.animate({ x: d.x, y: d.y, ratio: Math.min(camera.ratio, 0.6) }, { duration: 350 });
    }
    return true;
  }

  function section(title, items, render) {
    if (!items.length) return null;
    var box = el("div", null, el("h3", { text: title + " (" + items.length.toLocaleString() + ")" }));
    var shown = 0;
    function more() {
      items.slice(shown, shown + LIST_LIMIT).forEach(function (item) { box.append(render(item)); });
      shown = Math.min(items.length, shown + LIST_LIMIT);
      if (shown < items.length) {
        var button = el("button", { cls: "more", text: "Show " + Math.min(LIST_LIMIT, items.length - shown) + " more" });
        button.addEventListener("click", function () { button.remove(); more(); });
        box.append(button);
      }
    }
    more();
    return box;
  }
  function paperLine(p) {
    var d = nodes[p].details || {};
    return [d.year, d.venue].filter(function (x) { return x != null && x !== ""; }).join(" · ");
  }
  function byYearThenTitle(a, b) {
    var da = nodes[a].details || {}, db = nodes[b].details || {};
    return ((db.year || 0) - (da.year || 0)) || nodes[a].name.localeCompare(nodes[b].name);
  }

  function renderPanel(i) {
    var n = nodes[i], d = n.details || {};
    body.replaceChildren();
    body.append(el("div", { cls: "kind" }, dot(n.type), el("span", { text: n.type })));
    body.append(el("h2", { cls: "name", text: n.type === SCHEMA.paper && d.title ? d.title : n.name }));
    var own = linksOf[i].map(function (k) { return links[k]; });
    if (ENTITY_TYPES.indexOf(n.type) >= 0) renderEntity(i, n, d, own);
    else if (n.type === SCHEMA.paper) renderPaper(i, n, d, own);
    else renderOther(i, n, d, own);
  }

  function renderEntity(i, n, d, own) {
    var facts = [n.papers + (n.papers === 1 ? " paper" : " papers")];
    if (d.mention_count) facts.push(d.mention_count + " mentions");
    if (d.catalogue_id) facts.push(d.catalogue_id);
    body.append(el("p", { cls: "facts", text: facts.join(" · ") }));
    if (d.aliases && d.aliases.length) body.append(el("p", { cls: "facts", text: "Also: " + d.aliases.join(", ") }));

    var relations = own.filter(function (l) { return RELATION_VERBS[l[2]]; });
    var relBox = section("Relations", relations, function (l) {
      var item = el("div", { cls: "item" });
      var line = el("div");
      if (l[0] === i) line.append(el("span", { text: n.name + " " + RELATION_VERBS[l[2]] + " " }), nodeLink(l[1]));
      else line.append(nodeLink(l[0]), el("span", { text: " " + RELATION_VERBS[l[2]] + " " + n.name }));
      item.append(line);
      l[3].slice(0, 3).forEach(function (s) {
        var q = snippet(s[0], s[1], s[2], true);
        if (q) { item.append(q); item.append(el("div", { cls: "rel" }, el("span", { text: "— " }), nodeLink(s[0], shorten(nodes[s[0]].name, 80)))); }
      });
      return item;
    });
    if (relBox) body.append(relBox);

    var mentions = own.filter(function (l) { return l[1] === i && isMention(l[2]); });
    mentions.sort(function (a, b) { return (a[2] === SCHEMA.proposes ? 0 : 1) - (b[2] === SCHEMA.proposes ? 0 : 1) || byYearThenTitle(a[0], b[0]); });
    var paperBox = section("Papers", mentions, function (l) {
      var p = l[0];
      var item = el("div", { cls: "item" }, el("div", null, nodeLink(p, nodes[p].name),
        l[2] === SCHEMA.proposes ? el("span", { cls: "badge", text: "proposes" }) : null));
      var line = paperLine(p);
      if (line) item.append(el("div", { cls: "rel", text: line }));
      l[3].slice(0, 2).forEach(function (s) { var q = snippet(s[0], s[1], s[2], false); if (q) item.append(q); });
      if (l[3].length > 2) item.append(el("div", { cls: "rel", text: "+ " + (l[3].length - 2) + " more mentions" }));
      return item;
    });
    if (paperBox) body.append(paperBox);

    var results = own.filter(function (l) { return l[1] === i && RESULT_ROLES[l[2]]; });
    var resultBox = section("Results", results, function (l) { return resultItem(l[0], l[2]); });
    if (resultBox) body.append(resultBox);
  }

  function resultItem(r, kind) {
    var rd = nodes[r].details || {};
    var item = el("div", { cls: "item" }, el("div", null, nodeLink(r, nodes[r].name),
      kind ? el("span", { cls: "rel", text: "  " + RESULT_ROLES[kind] }) : null));
    var p = byId.get(rd.paper);
    if (p != null && rd.start != null) {
      var q = snippet(p, rd.start, rd.end, false);
      if (q) item.append(q);
      item.append(el("div", { cls: "rel" }, el("span", { text: "— " }), nodeLink(p, shorten(nodes[p].name, 80))));
    }
    return item;
  }

  function renderPaper(i, n, d, own) {
    var facts = [];
    if (d.authors && d.authors.length) body.append(el("p", { cls: "facts", text: d.authors.join(", ") }));
    if (d.year) facts.push(String(d.year));
    if (d.venue) facts.push(d.venue);
    var factLine = el("p", { cls: "facts", text: facts.join(" · ") });
    var urls = [];
    if (d.doi) urls.push(["DOI", "https://doi.org/" + encodeURI(d.doi)]);
    if (d.arxiv_id) urls.push(["arXiv", "https://arxiv.org/abs/" + encodeURIComponent(d.arxiv_id).replace(/%2F/g, "/")]);
    if (d.url) urls.push(["link", d.url]);
    urls.forEach(function (u) { factLine.append(document.createTextNode(facts.length ? " · " : "")); factLine.append(extLink(u[1], u[0])); facts.push(u[0]); });
    body.append(factLine);

    var entities = own.filter(function (l) { return l[0] === i && isMention(l[2]); });
    if (entities.length) {
      body.append(el("h3", { text: "Entities (" + entities.length + ")" }));
      var chips = el("div", { cls: "chips" });
      entities.sort(function (a, b) {
        return ENTITY_TYPES.indexOf(nodes[a[1]].type) - ENTITY_TYPES.indexOf(nodes[b[1]].type) ||
          nodes[a[1]].name.localeCompare(nodes[b[1]].name);
      }).forEach(function (l) {
        var e = nodes[l[1]];
        chips.append(el("span", { cls: "chip", title: e.type + (l[2] === SCHEMA.proposes ? " (proposed here)" : ""),
          onclick: function () { select(e.id); } }, dot(e.type), el("span", { text: e.name + (l[2] === SCHEMA.proposes ? " ★" : "") })));
      });
      body.append(chips);
    }
    if (d.abstract) {
      body.append(el("h3", { text: "Abstract" }));
      var spans = [];
      entities.forEach(function (l) { l[3].forEach(function (s) { spans.push([s[1], s[2], l[1]]); }); });
      spans.sort(function (a, b) { return a[0] - b[0] || b[1] - a[1]; });
      var cs = chars(i), at = 0, para = el("div", { cls: "abstract" });
      spans.forEach(function (s) {
        if (s[0] < at || s[1] > cs.length) return;
        para.append(cs.slice(at, s[0]).join(""));
        var mark = el("mark", { text: cs.slice(s[0], s[1]).join(""), title: nodes[s[2]].type + ": " + nodes[s[2]].name,
          onclick: function () { select(nodes[s[2]].id); } });
        mark.style.cursor = "pointer";
        mark.style.boxShadow = "inset 0 -2px 0 " + (colours[nodes[s[2]].type] || "#999");
        para.append(mark);
        at = s[1];
      });
      para.append(cs.slice(at).join(""));
      body.append(para);
    }
    var results = own.filter(function (l) { return l[0] === i && l[2] === SCHEMA.reports; });
    var resultBox = section("Results", results, function (l) { return resultItem(l[1], null); });
    if (resultBox) body.append(resultBox);
    var code = own.filter(function (l) { return l[0] === i && l[2] === SCHEMA.has_code; });
    var codeBox = section("Code", code, function (l) {
      var c = nodes[l[1]];
      return el("div", { cls: "item" }, extLink((c.details || {}).url || c.name, c.name));
    });
    if (codeBox) body.append(codeBox);
  }

  function renderOther(i, n, d, own) {
    if (d.url) body.append(el("p", { cls: "facts" }, extLink(d.url, d.url)));
    if (n.type === SCHEMA.result) {
      var metric = d.metric && d.metric !== "value" ? d.metric : "not stated";
      body.append(el("p", { cls: "facts", text: "metric: " + metric + " · value: " + (d.value || "?") }));
      var p = byId.get(d.paper);
      if (p != null && d.start != null) {
        var q = snippet(p, d.start, d.end, false);
        if (q) body.append(q);
      }
      var about = own.filter(function (l) { return l[0] === i; });
      var aboutBox = section("About", about, function (l) {
        return el("div", { cls: "item" }, el("span", { cls: "rel", text: RESULT_ROLES[l[2]] + ": " }), nodeLink(l[1]));
      });
      if (aboutBox) body.append(aboutBox);
    }
    var papers = own.filter(function (l) { return l[1] === i && nodes[l[0]].type === SCHEMA.paper; }).map(function (l) { return l[0]; });
    papers = Array.from(new Set(papers)).sort(byYearThenTitle);
    var paperBox = section("Papers", papers, function (p) {
      var line = paperLine(p);
      return el("div", { cls: "item" }, el("div", null, nodeLink(p)), line ? el("div", { cls: "rel", text: line }) : null);
    });
    if (paperBox) body.append(paperBox);
  }

  // ---- events --------------------------------------------------------------------------------
  if (renderer) {
    renderer.on("enterNode", function (e) { state.hovered = e.node; container.style.cursor = "pointer"; refresh(); });
    renderer.on("leaveNode", function () { state.hovered = null; container.style.cursor = ""; refresh(); });
    renderer.on("clickNode", function (e) { select(e.node); });
    renderer.on("clickStage", function () { if (state.selected) closePanel(); });
  }
  document.addEventListener("keydown", function (event) {
    if (event.key === "Escape" && document.activeElement !== input && state.selected) closePanel();
    if (event.key === "/" && document.activeElement !== input) { input.focus(); input.select(); event.preventDefault(); }
  });

  refresh();
  state.ready = true;
  state.timings = { scriptsStart: T0, parse: T_PARSE - T0, build: T_SIGMA - T_PARSE, sigma: T_READY_SIGMA - T_SIGMA,
    total: performance.now() - T0 };
  requestAnimationFrame(function () { state.timings.firstFrame = performance.now() - T0; });
  window.kgViewer = {
    data: DATA, graph: graph, renderer: renderer, state: state,
    labelBoxes: function () { return labels ? labels.boxes() : []; },
    select: select, search: search, setTypeVisible: setTypeVisible, closePanel: closePanel
  };
})();
