// Memory against context as an SVG: the stacked breakdown (weights, recurrent state, overhead,
// KV cache), the total curve, the device's capacity, the out-of-memory point, the model's max
// position and the current context. Built once per container; each frame only moves
// attributes and changes texts.
import { byId, put, setAttr } from '../dom.js';
import * as fmt from '../format.js';

const NS = 'http://www.w3.org/2000/svg';
const BOX = { left: 52, right: 16, top: 26, bottom: 40 };
const MIN_LOG2 = 9;

// Per container: its SVG parts, its size and the last frame (a resize redraws it). The SVG's
// user units are the container's CSS pixels, so text keeps its size on a phone and lines stay
// crisp. The current context's line and dot, the only things a slider move changes, sit above
// the SVG as HTML moved by a transform: the compositor moves them, and the SVG is not
// repainted on every frame.
const plots = new WeakMap();

// From the width the container is laid out at (a ResizeObserver's, so that drawing never
// forces a layout: the first frame draws at the default size, and the observer redraws at the
// real one in the next).
function measure(containerWidth) {
  const shown = Math.max(containerWidth, 1);
  const width = Math.round(Math.min(Math.max(shown, 280), 1000));
  // scale: CSS pixels per SVG unit, where the container is narrower or wider than the SVG's range.
  return { width, height: Math.round(Math.min(Math.max(width * 0.5, 220), 340)), scale: shown / width };
}

function svg(name, attrs = {}, parent = null) {
  const element = document.createElementNS(NS, name);
  for (const [key, value] of Object.entries(attrs)) element.setAttribute(key, String(value));
  if (parent) parent.append(element);
  return element;
}

/** Moves an overlay element (and sets its height) when it changed. */
function move(element, transform, height) {
  if (element.style.transform !== transform) element.style.transform = transform;
  if (height !== undefined && element.style.height !== height) element.style.height = height;
}

function set(element, attrs) {
  for (const [key, value] of Object.entries(attrs)) setAttr(element, key, value);
}

function svgParts(root) {
  svg('title', { id: 'plot-svg-title' }, root);
  svg('desc', { id: 'plot-svg-desc' }, root);
  const clip = svg('clipPath', { id: 'plot-clip' }, svg('defs', {}, root));
  const grid = svg('g', { class: 'plot-grid' }, root);
  const xTicks = svg('g', { class: 'plot-ticks' }, root);
  const data = svg('g', { 'clip-path': 'url(#plot-clip)' }, root);
  const line = (cls) => svg('line', { class: cls, 'vector-effect': 'non-scaling-stroke' }, data);
  const text = (cls, anchor) => svg('text', { class: cls, 'text-anchor': anchor }, root);
  return {
    root, title: root.firstChild, desc: root.childNodes[1], grid, xTicks,
    clipRect: svg('rect', { x: BOX.left, y: BOX.top }, clip),
    weights: svg('rect', { class: 'plot-weights' }, data),
    state: svg('rect', { class: 'plot-state' }, data),
    overhead: svg('rect', { class: 'plot-overhead' }, data),
    kv: svg('path', { class: 'plot-kv' }, data),
    total: svg('path', { class: 'plot-total', 'vector-effect': 'non-scaling-stroke' }, data),
    decode: svg('path', { class: 'plot-decode', 'vector-effect': 'non-scaling-stroke' }, data),
    capacity: line('plot-capacity'),
    maxPosition: line('plot-maxpos'),
    oomDot: svg('circle', { class: 'plot-oom-dot', r: 5 }, root),
    capacityLabel: text('plot-label', 'start'),
    oomLabel: text('plot-label plot-oom-label', 'start'),
    maxPositionLabel: text('plot-label plot-muted', 'end'),
    decodeLabel: text('plot-label plot-decode-label', 'end'),
    xAxis: text('plot-axis', 'end'),
    yAxis: svg('text', { class: 'plot-axis', x: 4, y: 14 }, root),
  };
}

function build(container) {
  const root = svg('svg', {
    class: 'plot-svg', role: 'img',
    'aria-labelledby': 'plot-svg-title plot-svg-desc', 'data-testid': 'plot-svg',
  });
  const plot = { parts: svgParts(root), size: { width: 640, height: 300, scale: 1 }, lastFrame: null, keys: {} };
  plot.parts.current = document.createElement('div');
  plot.parts.current.className = 'plot-current';
  plot.parts.currentDot = document.createElement('div');
  plot.parts.currentDot.className = 'plot-current-dot';
  const marker = document.createElement('div');
  marker.className = 'plot-marker';
  marker.setAttribute('aria-hidden', 'true');
  marker.append(plot.parts.current, plot.parts.currentDot);
  container.replaceChildren(root, marker);
  // The redraw waits for the next frame: drawing changes the SVG's height, and a size change
  // inside the observer's own callback would be a ResizeObserver loop.
  new ResizeObserver((entries) => {
    const next = measure(entries[entries.length - 1].contentRect.width);
    const { size } = plot;
    if (next.width === size.width && next.height === size.height && next.scale === size.scale) return;
    requestAnimationFrame(() => {
      plot.size = next;
      if (plot.lastFrame) draw(plot, ...plot.lastFrame);
    });
  }).observe(container);
  plots.set(container, plot);
  return plot;
}

/** A round step for about `count` ticks up to `max`. */
function niceStep(max, count) {
  const raw = max / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  return [1, 2, 2.5, 5, 10].map((m) => m * power).find((step) => step >= raw) ?? 10 * power;
}

/** The total at `tokens`, interpolated between curve points (exact: KV is linear in between). */
function totalAt(curve, tokens) {
  for (let i = 1; i < curve.length; i += 1) {
    const a = curve[i - 1];
    const b = curve[i];
    if (tokens <= b.context) {
      return a.total_gib + ((tokens - a.context) / (b.context - a.context)) * (b.total_gib - a.total_gib);
    }
  }
  return curve[curve.length - 1].total_gib;
}

const r1 = (v) => Math.round(v * 10) / 10;

/**
 * What all the scenario's devices may hold, beside the curve's total of all of them: the
 * runtime's capacity per device (the device's memory for the reference profile) times N.
 */
const capacityOf = (sim) => sim.capacity_gib * sim.device_count;
const devicesLabel = (t, sim) => (sim.device_count > 1
  ? t('unit.times', { count: sim.device_count, device: sim.device_name }) : sim.device_name);

/** The frame's scales: tokens → x (log2) and GiB → y, in SVG units. */
function scales({ width, height }, sim, maxLog2) {
  const base = sim.weights_gib + sim.state_gib + sim.overhead_gib;
  // The y range depends on the device and the weights only, so it holds still while dragging.
  const yTop = Math.max(capacityOf(sim), base) * 1.3;
  const yStep = niceStep(yTop, 5);
  const yMax = Math.ceil(yTop / yStep) * yStep;
  const plotW = width - BOX.left - BOX.right;
  const plotH = height - BOX.top - BOX.bottom;
  return {
    width, height, plotW, plotH, yStep, yMax, maxLog2, base,
    x: (tokens) => BOX.left + ((Math.log2(tokens) - MIN_LOG2) / (maxLog2 - MIN_LOG2)) * plotW,
    y: (gib) => BOX.top + plotH - (Math.min(gib, yMax * 2) / yMax) * plotH,
    inRange: (tokens) => tokens >= 2 ** MIN_LOG2 && tokens <= 2 ** maxLog2,
  };
}

/** The y grid and its labels, rebuilt when the range, the language or the size changes. */
function drawGrid(plot, s, lang) {
  const key = `${s.yMax}|${lang}|${s.width}x${s.height}`;
  if (plot.keys.grid === key) return;
  plot.keys.grid = key;
  const lines = [];
  for (let v = 0; v <= s.yMax + 1e-9; v += s.yStep) {
    lines.push(svg('line', { x1: BOX.left, x2: s.width - BOX.right, y1: r1(s.y(v)), y2: r1(s.y(v)) }));
    const label = svg('text', { x: BOX.left - 6, y: r1(s.y(v)) + 4, 'text-anchor': 'end' });
    label.textContent = fmt.share(lang, v);
    lines.push(label);
  }
  plot.parts.grid.replaceChildren(...lines);
}

/** The context ticks: one label per 70 px or so (every 1, 2, 3 … octaves). */
function drawTicks(plot, s) {
  const key = `${s.maxLog2}|${s.width}x${s.height}`;
  if (plot.keys.ticks === key) return;
  plot.keys.ticks = key;
  const ticks = [];
  const every = Math.max(1, Math.ceil((s.maxLog2 - MIN_LOG2) / Math.max(1, Math.floor(s.plotW / 70))));
  for (let k = MIN_LOG2; k <= s.maxLog2; k += 1) {
    const at = r1(s.x(2 ** k));
    ticks.push(svg('line', { x1: at, x2: at, y1: BOX.top + s.plotH, y2: BOX.top + s.plotH + 4 }));
    if ((k - MIN_LOG2) % every === 0) {
      const label = svg('text', { x: at, y: BOX.top + s.plotH + 17, 'text-anchor': 'middle' });
      label.textContent = fmt.contextLabel(2 ** k);
      ticks.push(label);
    }
  }
  plot.parts.xTicks.replaceChildren(...ticks);
}

/** The stacked bands (weights, state, overhead), the KV area and the total curve. */
function drawAreas(parts, s, sim, curve) {
  const band = (element, from, to) => set(element, {
    x: BOX.left, width: s.plotW, y: r1(s.y(to)), height: r1(s.y(from) - s.y(to)),
  });
  band(parts.weights, 0, sim.weights_gib);
  band(parts.state, sim.weights_gib, sim.weights_gib + sim.state_gib);
  band(parts.overhead, sim.weights_gib + sim.state_gib, s.base);
  const points = curve.map((p) => `${r1(s.x(p.context))},${r1(s.y(p.total_gib))}`);
  set(parts.total, { d: `M${points.join('L')}` });
  const first = r1(s.x(curve[0].context));
  const last = r1(s.x(curve[curve.length - 1].context));
  const baseY = r1(s.y(s.base));
  set(parts.kv, { d: `M${points.join('L')}L${last},${baseY}L${first},${baseY}Z` });
}

/**
 * Decode speed against context on its own scale (the curve's fastest point at 90 % of the
 * height), over the contexts that fit (up to the simulator's max context), with its values at the
 * shortest of them and at the largest (or the model's maximum): it falls as the KV cache to read
 * grows. Where nothing fits there is no decode to show, as the verdict's figure says. Engine
 * profiles only: the reference profile's plot stays the reference page's.
 */
function drawDecode(parts, s, response, { t, lang }) {
  const fitting = response.curve.filter((p) => p.context <= response.simulator.max_context);
  const rates = fitting.map((p) => p.decode_tps).filter((v) => v > 0);
  const engine = response.simulator.runtime !== 'reference';
  const shown = engine && rates.length === fitting.length && rates.length > 1 ? 'visible' : 'hidden';
  set(parts.decode, { visibility: shown });
  set(parts.decodeLabel, { visibility: shown });
  if (shown === 'hidden') return;
  const top = Math.max(...rates) / 0.9;
  const y = (v) => BOX.top + s.plotH - (v / top) * s.plotH;
  set(parts.decode, { d: `M${fitting.map((p) => `${r1(s.x(p.context))},${r1(y(p.decode_tps))}`).join('L')}` });
  // The label's range ends at the model's max position (the curve may run past it).
  const last = fitting.filter((p) => p.context <= response.model.max_position_embeddings).pop() ?? fitting[0];
  set(parts.decodeLabel, { x: s.width - BOX.right, y: 14 });  // in the top margin, right of the y axis' title
  put(parts.decodeLabel, t('plot.decode', { first: fmt.fixed(lang, rates[0], 1), last: fmt.fixed(lang, last.decode_tps, 1),
    tokens: fmt.contextLabel(last.context) }));
}

/**
 * The areas and the decode curve, redrawn when the curve (the page keeps the same one while only
 * the context moves), the scales, the bands or the language changed.
 */
function drawCurves(plot, s, response, view) {
  const sim = response.simulator;
  const key = [s.width, s.height, s.yMax, s.maxLog2, sim.weights_gib, sim.state_gib, s.base, view.lang].join('|');
  if (plot.keys.curve === response.curve && plot.keys.curveScales === key) return;
  plot.keys.curve = response.curve;
  plot.keys.curveScales = key;
  drawAreas(plot.parts, s, sim, response.curve);
  drawDecode(plot.parts, s, response, view);
}

/** The capacity line, the model's max position and the out-of-memory point. */
function drawMarks(parts, s, response, { t, lang }) {
  const sim = response.simulator;
  const capacityY = r1(s.y(capacityOf(sim)));
  set(parts.capacity, { x1: BOX.left, x2: s.width - BOX.right, y1: capacityY, y2: capacityY });
  set(parts.capacityLabel, { x: BOX.left + 6, y: capacityY - 6 });
  put(parts.capacityLabel, t('plot.capacity', { device: devicesLabel(t, sim), capacity: fmt.gb(lang, capacityOf(sim)) }));
  const maxPosition = response.model.max_position_embeddings;
  const positionX = r1(s.x(maxPosition));
  const showPosition = s.inRange(maxPosition) ? 'visible' : 'hidden';
  set(parts.maxPosition, { x1: positionX, x2: positionX, y1: BOX.top, y2: BOX.top + s.plotH, visibility: showPosition });
  set(parts.maxPositionLabel, { x: positionX - 4, y: BOX.top + 12, visibility: showPosition });
  put(parts.maxPositionLabel, t('plot.max_position'));
  const showOom = s.inRange(sim.max_context) ? 'visible' : 'hidden';
  const oomX = r1(s.x(Math.max(sim.max_context, 2 ** MIN_LOG2)));
  const oomY = r1(s.y(totalAt(response.curve, sim.max_context)));
  set(parts.oomDot, { cx: oomX, cy: oomY, visibility: showOom });
  set(parts.oomLabel, { x: Math.min(oomX + 8, s.width - BOX.right - 110), y: oomY + 18, visibility: showOom });
  put(parts.oomLabel, t('plot.oom', { tokens: fmt.integer(lang, sim.max_context) }));
}

/** The current context's line and dot, above the SVG. */
function drawCurrent(parts, s, sim, scale) {
  const cx = r1(s.x(Math.min(Math.max(sim.context, 2 ** MIN_LOG2), 2 ** s.maxLog2)) * scale);
  const cy = r1(Math.max(s.y(sim.total_gib), BOX.top) * scale);
  move(parts.current, `translate(${cx}px, ${r1(BOX.top * scale)}px)`, `${r1(s.plotH * scale)}px`);
  move(parts.currentDot, `translate(${cx}px, ${cy}px)`);
}

/** The SVG's title and description, for screen readers. */
function describe(parts, response, { t, lang, catalog }) {
  const sim = response.simulator;
  const format = fmt.quantLabel(catalog, sim.format);
  put(parts.title, `${t('plot.heading')} (${response.model.name})`);
  put(parts.desc, t('plot.desc', {
    model: response.model.name,
    format,
    device: devicesLabel(t, sim),
    tokens: fmt.integer(lang, sim.context),
    total: fmt.gb(lang, sim.total_gib),
    capacity: fmt.gb(lang, capacityOf(sim)),
    oom: sim.max_context > 0 ? t('plot.oom_at', { tokens: fmt.integer(lang, sim.max_context) }) : t('plot.oom_none'),
  }));
}

function draw(plot, response, view) {
  const [last, lastView] = plot.lastFrame ?? [];
  const drawnSize = plot.drawnSize;
  plot.lastFrame = [response, view];
  plot.drawnSize = plot.size;
  const { parts, size } = plot;
  // Only the context moved (the controller keeps the curve of the last whole answer): the curve,
  // its axes and marks stay as they are, and the line and dot move. The description, which
  // repeats the context for screen readers, follows once the slider rests.
  if (last !== undefined && last.curve === response.curve && lastView.lang === view.lang && drawnSize === size) {
    drawCurrent(parts, scales(size, response.simulator, view.maxLog2), response.simulator, size.scale);
    if (!view.moving) describe(parts, response, view);
    return;
  }
  const s = scales(size, response.simulator, view.maxLog2);
  set(parts.root, { viewBox: `0 0 ${s.width} ${s.height}` });
  set(parts.clipRect, { width: s.plotW, height: s.plotH });
  set(parts.xAxis, { x: s.width - BOX.right, y: s.height - 4 });
  put(parts.xAxis, view.t('plot.x_axis'));
  put(parts.yAxis, view.t('plot.y_axis'));
  drawGrid(plot, s, view.lang);
  drawTicks(plot, s);
  drawCurves(plot, s, response, view);
  drawMarks(parts, s, response, view);
  drawCurrent(parts, s, response.simulator, size.scale);
  describe(parts, response, view);
}

export function renderPlot(root, response, view) {
  const container = byId(root, 'plot');
  if (!container) return;
  draw(plots.get(container) ?? build(container), response, view);
}
