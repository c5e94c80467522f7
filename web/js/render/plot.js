// Memory against context as an SVG: the stacked breakdown (weights, overhead, KV cache), the
// total curve, the device's capacity, the out-of-memory point, the model's max position and
// the current context. Built once; each frame only moves attributes and changes texts.
import { put } from '../dom.js';
import * as fmt from '../format.js';

const NS = 'http://www.w3.org/2000/svg';
const BOX = { left: 52, right: 16, top: 26, bottom: 40 };
const MIN_LOG2 = 9;

// The SVG's user units are the container's CSS pixels, so text keeps its size on a phone and
// lines stay crisp; a resize redraws from the last frame's data. The current context's line
// and dot, the only things a slider move changes, sit above the SVG as HTML moved by a
// transform: the compositor moves them, and the SVG is not repainted on every frame.
let parts = null;
let size = { width: 640, height: 300, scale: 1 };
let lastFrame = null;

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
  for (const [key, value] of Object.entries(attrs)) {
    const text = String(value);
    if (element.getAttribute(key) !== text) element.setAttribute(key, text);
  }
}

function build(container) {
  const root = svg('svg', {
    class: 'plot-svg', role: 'img',
    'aria-labelledby': 'plot-svg-title plot-svg-desc', 'data-testid': 'plot-svg',
  });
  const title = svg('title', { id: 'plot-svg-title' }, root);
  const desc = svg('desc', { id: 'plot-svg-desc' }, root);
  const clip = svg('clipPath', { id: 'plot-clip' }, svg('defs', {}, root));
  const clipRect = svg('rect', { x: BOX.left, y: BOX.top }, clip);
  const grid = svg('g', { class: 'plot-grid' }, root);
  const xTicks = svg('g', { class: 'plot-ticks' }, root);
  const data = svg('g', { 'clip-path': 'url(#plot-clip)' }, root);
  parts = {
    root, title, desc, grid, xTicks, clipRect,
    weights: svg('rect', { class: 'plot-weights' }, data),
    overhead: svg('rect', { class: 'plot-overhead' }, data),
    kv: svg('path', { class: 'plot-kv' }, data),
    total: svg('path', { class: 'plot-total', 'vector-effect': 'non-scaling-stroke' }, data),
    capacity: svg('line', { class: 'plot-capacity', 'vector-effect': 'non-scaling-stroke' }, data),
    maxPosition: svg('line', { class: 'plot-maxpos', 'vector-effect': 'non-scaling-stroke' }, data),
    current: document.createElement('div'),
    currentDot: document.createElement('div'),
    oomDot: svg('circle', { class: 'plot-oom-dot', r: 5 }, root),
    capacityLabel: svg('text', { class: 'plot-label', 'text-anchor': 'start' }, root),
    oomLabel: svg('text', { class: 'plot-label plot-oom-label', 'text-anchor': 'start' }, root),
    maxPositionLabel: svg('text', { class: 'plot-label plot-muted', 'text-anchor': 'end' }, root),
    xAxis: svg('text', { class: 'plot-axis', 'text-anchor': 'end' }, root),
    yAxis: svg('text', { class: 'plot-axis', x: 4, y: 14 }, root),
    gridKey: '',
    xKey: '',
  };
  parts.current.className = 'plot-current';
  parts.currentDot.className = 'plot-current-dot';
  const marker = document.createElement('div');
  marker.className = 'plot-marker';
  marker.setAttribute('aria-hidden', 'true');
  marker.append(parts.current, parts.currentDot);
  container.replaceChildren(root, marker);
  // The redraw waits for the next frame: drawing changes the SVG's height, and a size change
  // inside the observer's own callback would be a ResizeObserver loop.
  new ResizeObserver((entries) => {
    const next = measure(entries[entries.length - 1].contentRect.width);
    if (next.width === size.width && next.height === size.height && next.scale === size.scale) return;
    requestAnimationFrame(() => {
      size = next;
      if (lastFrame) renderPlot(...lastFrame);
    });
  }).observe(container);
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

export function renderPlot(response, view) {
  lastFrame = [response, view];
  const { t, lang, maxLog2 } = view;
  if (!parts) build(document.getElementById('plot'));
  const { width, height } = size;
  set(parts.root, { viewBox: `0 0 ${width} ${height}` });
  set(parts.clipRect, { width: width - BOX.left - BOX.right, height: height - BOX.top - BOX.bottom });
  set(parts.xAxis, { x: width - BOX.right, y: height - 4 });
  const sim = response.simulator;
  const curve = response.curve;
  const base = sim.weights_gib + sim.overhead_gib;
  // The y range depends on the device and the weights only, so it holds still while dragging.
  const yTop = Math.max(sim.memory_gib, base) * 1.3;
  const yStep = niceStep(yTop, 5);
  const yMax = Math.ceil(yTop / yStep) * yStep;
  const plotW = width - BOX.left - BOX.right;
  const plotH = height - BOX.top - BOX.bottom;
  const x = (tokens) => BOX.left + ((Math.log2(tokens) - MIN_LOG2) / (maxLog2 - MIN_LOG2)) * plotW;
  const y = (gib) => BOX.top + plotH - (Math.min(gib, yMax * 2) / yMax) * plotH;
  const r1 = (v) => Math.round(v * 10) / 10;

  const gridKey = `${yMax}|${lang}|${width}x${height}`;
  if (parts.gridKey !== gridKey) {
    parts.gridKey = gridKey;
    const lines = [];
    for (let v = 0; v <= yMax + 1e-9; v += yStep) {
      lines.push(svg('line', { x1: BOX.left, x2: width - BOX.right, y1: r1(y(v)), y2: r1(y(v)) }));
      const label = svg('text', { x: BOX.left - 6, y: r1(y(v)) + 4, 'text-anchor': 'end' });
      label.textContent = fmt.share(lang, v);
      lines.push(label);
    }
    parts.grid.replaceChildren(...lines);
  }
  const xKey = `${maxLog2}|${width}x${height}`;
  if (parts.xKey !== xKey) {
    parts.xKey = xKey;
    const ticks = [];
    // One label per 70 px or so: every 1, 2, 3 … octaves.
    const every = Math.max(1, Math.ceil((maxLog2 - MIN_LOG2) / Math.max(1, Math.floor(plotW / 70))));
    for (let k = MIN_LOG2; k <= maxLog2; k += 1) {
      const tokens = 2 ** k;
      ticks.push(svg('line', { x1: r1(x(tokens)), x2: r1(x(tokens)), y1: BOX.top + plotH, y2: BOX.top + plotH + 4 }));
      if ((k - MIN_LOG2) % every === 0) {
        const label = svg('text', { x: r1(x(tokens)), y: BOX.top + plotH + 17, 'text-anchor': 'middle' });
        label.textContent = fmt.contextLabel(tokens);
        ticks.push(label);
      }
    }
    parts.xTicks.replaceChildren(...ticks);
  }
  put(parts.xAxis, t('plot.x_axis'));
  put(parts.yAxis, t('plot.y_axis'));

  set(parts.weights, { x: BOX.left, width: plotW, y: r1(y(sim.weights_gib)), height: r1(y(0) - y(sim.weights_gib)) });
  set(parts.overhead, { x: BOX.left, width: plotW, y: r1(y(base)), height: r1(y(sim.weights_gib) - y(base)) });
  const points = curve.map((p) => `${r1(x(p.context))},${r1(y(p.total_gib))}`);
  set(parts.total, { d: `M${points.join('L')}` });
  const first = curve[0];
  const last = curve[curve.length - 1];
  set(parts.kv, {
    d: `M${points.join('L')}L${r1(x(last.context))},${r1(y(base))}L${r1(x(first.context))},${r1(y(base))}Z`,
  });
  set(parts.capacity, { x1: BOX.left, x2: width - BOX.right, y1: r1(y(sim.memory_gib)), y2: r1(y(sim.memory_gib)) });
  set(parts.capacityLabel, { x: BOX.left + 6, y: r1(y(sim.memory_gib)) - 6 });
  put(parts.capacityLabel, t('plot.capacity', { device: sim.device_name, capacity: fmt.gb(lang, sim.memory_gib) }));

  const inRange = (tokens) => tokens >= 2 ** MIN_LOG2 && tokens <= 2 ** maxLog2;
  const maxPosition = response.model.max_position_embeddings;
  const showMaxPosition = inRange(maxPosition);
  set(parts.maxPosition, {
    x1: r1(x(maxPosition)), x2: r1(x(maxPosition)), y1: BOX.top, y2: BOX.top + plotH,
    visibility: showMaxPosition ? 'visible' : 'hidden',
  });
  set(parts.maxPositionLabel, { x: r1(x(maxPosition)) - 4, y: BOX.top + 12,
    visibility: showMaxPosition ? 'visible' : 'hidden' });
  put(parts.maxPositionLabel, t('plot.max_position'));

  const showOom = inRange(sim.max_context);
  const oomX = r1(x(Math.max(sim.max_context, 2 ** MIN_LOG2)));
  const oomY = r1(y(totalAt(curve, sim.max_context)));
  set(parts.oomDot, { cx: oomX, cy: oomY, visibility: showOom ? 'visible' : 'hidden' });
  set(parts.oomLabel, { x: Math.min(oomX + 8, width - BOX.right - 110), y: oomY + 18,
    visibility: showOom ? 'visible' : 'hidden' });
  put(parts.oomLabel, t('plot.oom', { tokens: fmt.integer(lang, sim.max_context) }));

  const cx = r1(x(Math.min(Math.max(sim.context, 2 ** MIN_LOG2), 2 ** maxLog2)) * size.scale);
  const cy = r1(Math.max(y(sim.total_gib), BOX.top) * size.scale);
  move(parts.current, `translate(${cx}px, ${r1(BOX.top * size.scale)}px)`, `${r1(plotH * size.scale)}px`);
  move(parts.currentDot, `translate(${cx}px, ${cy}px)`);

  const format = response.matrix.find((r) => r.format === sim.format)?.label ?? sim.format;
  put(parts.title, `${t('plot.heading')} (${response.model.name})`);
  put(parts.desc, t('plot.desc', {
    model: response.model.name,
    format,
    device: sim.device_name,
    tokens: fmt.integer(lang, sim.context),
    total: fmt.gb(lang, sim.total_gib),
    capacity: fmt.gb(lang, sim.memory_gib),
    oom: sim.max_context > 0 ? t('plot.oom_at', { tokens: fmt.integer(lang, sim.max_context) }) : t('plot.oom_none'),
  }));
}
