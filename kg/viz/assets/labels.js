/* kg label layer: node labels as DOM text over a sigma canvas, placed by priority without overlap.
 *
 * Sigma's own label grid keeps one label per grid cell, so long labels still overlap.
 * Here, after every render, candidates are taken in priority order and each label is put
 * at the first of four places around its node (right, left, above, below) where its box,
 * measured with the page's font, overlaps no label already placed and lies inside the
 * canvas; otherwise it is left out. Zooming in spreads the nodes, so more labels fit.
 * Labels are text nodes (textContent), so a test can read their boxes from the page. */
(function () {
  "use strict";

  var GAP = 2;  // pixels kept free between two labels

  function LabelLayer(renderer, container, options) {
    this.renderer = renderer;
    this.options = options;
    this.font = options.font || "system-ui, sans-serif";
    this.weight = options.weight || "500";
    this.layer = document.createElement("div");
    this.layer.className = "kg-labels";
    this.layer.setAttribute("aria-hidden", "true");
    container.append(this.layer);
    this.pool = [];
    this.placed = [];
    this.widths = new Map();
    this.context = document.createElement("canvas").getContext("2d");
    this.lastMs = 0;
  }

  LabelLayer.prototype.measure = function (text, size) {
    var key = size + "|" + text;
    var width = this.widths.get(key);
    if (width === undefined) {
      this.context.font = this.weight + " " + size + "px " + this.font;
      width = Math.ceil(this.context.measureText(text).width);
      this.widths.set(key, width);
    }
    return width;
  };

  /* Place the labels of options.candidates() (node keys, most important first). */
  LabelLayer.prototype.update = function () {
    var started = performance.now();
    var renderer = this.renderer, options = this.options;
    var dims = renderer.getDimensions(), width = dims.width, height = dims.height;
    var cell = 64, grid = new Map(), placed = [];
    var max = options.max ? options.max() : 400;
    var candidates = options.candidates();
    var scanLimit = options.scanLimit || 6000;

    function collides(box) {
      var x0 = Math.floor((box[0] - GAP) / cell), x1 = Math.floor((box[2] + GAP) / cell);
      var y0 = Math.floor((box[1] - GAP) / cell), y1 = Math.floor((box[3] + GAP) / cell);
      for (var gx = x0; gx <= x1; gx++) {
        for (var gy = y0; gy <= y1; gy++) {
          var list = grid.get(gx * 100003 + gy);
          if (!list) continue;
          for (var k = 0; k < list.length; k++) {
            var o = list[k];
            if (box[0] < o[2] + GAP && o[0] < box[2] + GAP && box[1] < o[3] + GAP && o[1] < box[3] + GAP) return true;
          }
        }
      }
      return false;
    }
    function add(box) {
      var x0 = Math.floor(box[0] / cell), x1 = Math.floor(box[2] / cell);
      var y0 = Math.floor(box[1] / cell), y1 = Math.floor(box[3] / cell);
      for (var gx = x0; gx <= x1; gx++) {
        for (var gy = y0; gy <= y1; gy++) {
          var key = gx * 100003 + gy, list = grid.get(key);
          if (!list) grid.set(key, list = []);
          list.push(box);
        }
      }
    }
    (options.keepClear ? options.keepClear() : []).forEach(add);  // e.g. a legend over the canvas
    for (var i = 0, scanned = 0; i < candidates.length && placed.length < max && scanned < scanLimit; i++) {
      var node = candidates[i];
      var data = renderer.getNodeDisplayData(node);
      if (!data || data.hidden) continue;
      scanned++;
      var p = renderer.framedGraphToViewport(data);
      if (p.x < -200 || p.x > width + 200 || p.y < -50 || p.y > height + 50) continue;
      var text = options.text(node);
      if (!text) continue;
      var size = options.fontSize(node);
      var w = this.measure(text, size), h = Math.ceil(size * 1.25);
      var r = renderer.scaleSize(data.size) + 2;
      var spots = [
        [p.x + r, p.y - h / 2], [p.x - r - w, p.y - h / 2], [p.x - w / 2, p.y - r - h], [p.x - w / 2, p.y + r]
      ];
      for (var s = 0; s < spots.length; s++) {
        var box = [Math.round(spots[s][0]), Math.round(spots[s][1])];
        box.push(box[0] + w, box[1] + h);
        if (box[0] < 0 || box[1] < 0 || box[2] > width || box[3] > height || collides(box)) continue;
        add(box);
        placed.push({ node: node, text: text, size: size, box: box });
        break;
      }
    }
    this.draw(placed);
    this.placed = placed;
    this.lastMs = performance.now() - started;
  };

  LabelLayer.prototype.draw = function (placed) {
    while (this.pool.length < placed.length) {
      var span = document.createElement("span");
      span.className = "kg-label";
      this.layer.append(span);
      this.pool.push(span);
    }
    for (var i = 0; i < this.pool.length; i++) {
      var el = this.pool[i];
      if (i >= placed.length) { if (!el.hidden) el.hidden = true; continue; }
      var label = placed[i];
      el.hidden = false;
      if (el.textContent !== label.text) el.textContent = label.text;
      el.style.fontSize = label.size + "px";
      el.style.lineHeight = (label.box[3] - label.box[1]) + "px";
      el.style.transform = "translate(" + label.box[0] + "px," + label.box[1] + "px)";
      el.dataset.node = label.node;
      el.classList.toggle("strong", !!(this.options.strong && this.options.strong(label.node)));
    }
  };

  /* The placed labels: [{node, text, box: [left, top, right, bottom]}] in canvas pixels. */
  LabelLayer.prototype.boxes = function () {
    return this.placed.map(function (p) { return { node: p.node, text: p.text, box: p.box.slice() }; });
  };

  /* Draw a hovered node as a white halo without a label (the layer shows its label). */
  LabelLayer.drawHover = function (context, data) {
    context.beginPath();
    context.arc(data.x, data.y, data.size + 3, 0, Math.PI * 2);
    context.fillStyle = "#ffffff";
    context.shadowColor = "rgba(0, 0, 0, 0.35)";
    context.shadowBlur = 8;
    context.fill();
    context.shadowBlur = 0;
  };

  window.KgLabelLayer = LabelLayer;
})();
