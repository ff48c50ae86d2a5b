// passforge serve: the pages, rendered in the browser from the JSON API
// (docs/serve.md). Every value from a store is inserted as text (never as
// HTML): trajectories hold whatever a model wrote.
'use strict';

const app = document.getElementById('app');
let pollTimer = null;

function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === 'class') el.className = v;
    else if (k.startsWith('on')) el.addEventListener(k.slice(2), v);
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

// Replaces the page's content; lists are flattened, null/false left out.
function render(...nodes) {
  app.replaceChildren(...nodes.flat(3).filter((n) => n !== null && n !== undefined && n !== false));
}

const fmt = (v, d = 3) => (v === null || v === undefined ? '–' : Number(v).toFixed(d));
const pct = (v) => (v === null || v === undefined ? '–' : (100 * v).toFixed(1) + '%');
const enc = encodeURIComponent;

async function api(path) {
  const res = await fetch(path, { credentials: 'same-origin' });
  const body = await res.json().catch(() => ({ error: 'HTTP ' + res.status }));
  if (!res.ok) throw new Error(body.error || 'HTTP ' + res.status);
  return body;
}

function link(href, text) {
  return h('a', { href, onclick: (e) => { if (e.button === 0 && !e.metaKey && !e.ctrlKey) { e.preventDefault(); go(href); } } }, text);
}

function badge(text, cls) { return h('span', { class: 'badge ' + (cls || text) }, text); }
function card(k, v) { return h('div', { class: 'card' }, h('div', { class: 'k' }, k), h('div', { class: 'v' }, v)); }
function table(headers, rows, numeric = []) {
  return h('table', {},
    h('thead', {}, h('tr', {}, headers.map((t, i) => h('th', { class: numeric.includes(i) ? 'num' : null }, t)))),
    h('tbody', {}, rows.map((r) => h('tr', {}, r.map((c, i) => h('td', { class: numeric.includes(i) ? 'num' : null }, c))))));
}
function warnings(list) { return (list || []).map((w) => h('div', { class: 'warn' }, w)); }

// --- syntax highlighting (C++/CUDA and Python pass files) -----------------
const KEYWORDS = new Set(('auto bool break case char class const constexpr continue default do double else enum ' +
  'extern float for if inline int long namespace return short signed sizeof static struct switch template ' +
  'typedef typename union unsigned using void volatile while __global__ __device__ __host__ __shared__ ' +
  '__restrict__ __syncthreads blockIdx threadIdx blockDim gridDim def import from as pass lambda None True ' +
  'False and or not in is with yield raise try except finally elif self').split(' '));
const TOKEN = /(\/\/[^\n]*|#[^\n]*|\/\*[\s\S]*?\*\/)|("(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*')|(\b\d+(?:\.\d+)?(?:[eE][-+]?\d+)?[fFuUlL]*\b)|([A-Za-z_]\w*)/g;

function highlight(text, path) {
  const pre = h('pre', { class: 'code' });
  const isPython = /\.py$/.test(path || '');
  let last = 0;
  for (const m of text.matchAll(TOKEN)) {
    if (m.index > last) pre.append(text.slice(last, m.index));
    let cls = null;
    if (m[1]) cls = (m[1].startsWith('#') && !isPython && /^#\s*(include|define|pragma|if|endif|else)/.test(m[1])) ? 'tok-k' : 'tok-c';
    else if (m[2]) cls = 'tok-s';
    else if (m[3]) cls = 'tok-n';
    else if (m[4] && KEYWORDS.has(m[4])) cls = 'tok-k';
    pre.append(cls ? h('span', { class: cls }, m[0]) : m[0]);
    last = m.index + m[0].length;
  }
  pre.append(text.slice(last));
  return pre;
}

function diffView(file) {
  const pre = h('pre', { class: 'diff' });
  for (const [op, text] of file.lines) {
    pre.append(h('span', { class: op === '+' ? 'add' : op === '-' ? 'del' : 'ctx' }, op + ' ' + text));
  }
  return h('details', { class: 'file-diff' }, h('summary', {}, 'diff ' + file.path), pre);
}

// --- pages -----------------------------------------------------------------
async function runsPage() {
  const data = await api('/api/runs');
  const running = data.runs.some((r) => r.status === 'running');
  document.getElementById('live').textContent = running ? 'live: refreshing every 3 s' : '';
  const rows = data.runs.map((r) => {
    const total = r.episodes_total;
    const done = r.episodes_done || 0;
    const bar = h('span', { class: 'bar' }, h('span', {}));
    if (total) bar.firstChild.style.width = Math.min(100, (100 * done) / total) + '%';
    return [
      link('/run/' + enc(r.name), r.name),
      badge(r.status),
      h('span', {}, bar, total ? `${done} / ${total}` : `${done}`),
      fmt(r.mean_best_as), pct(r.correct_rate), fmt(r.episodes_per_hour, 1),
      r.evaluation_mode ? badge(r.evaluation_mode, r.evaluation_mode) : '',
      [...new Set((r.runs || []).map((x) => x.model).filter(Boolean))].join(', '),
      r.experiment ? link('/run/' + enc(r.name) + '/experiment', r.experiment) : (r.error || ''),
    ];
  });
  render(
    h('h1', {}, 'Runs'),
    data.runs.length ? table(['run', 'status', 'episodes done', 'mean best AS', 'correct', 'episodes/h',
      'evaluations', 'model', 'experiment'], rows, [3, 4, 5])
      : h('p', { class: 'muted' }, 'No run stores found.'));
  if (running) pollTimer = setTimeout(() => route(true), 3000);
}

async function runPage(name) {
  const r = await api('/api/runs/' + enc(name));
  const base = '/api/runs/' + enc(name);
  const taskSel = h('select', { id: 'f-task' }, h('option', { value: '' }, 'all tasks'),
    r.tasks.map((t) => h('option', { value: t.task }, t.task)));
  const statusSel = h('select', { id: 'f-status' }, ['', 'finished', 'running', 'interrupted', 'failed']
    .map((s) => h('option', { value: s }, s || 'any status')));
  const flagged = h('input', { type: 'checkbox', id: 'f-flagged' });
  const text = h('input', { type: 'search', id: 'f-text', placeholder: 'exit reason, failure…' });
  const body = h('tbody', {});
  const count = h('span', { class: 'muted' });
  function renderEpisodes() {
    const q = text.value.toLowerCase();
    const shown = r.episode_rows.filter((e) => (!taskSel.value || e.task === taskSel.value) &&
      (!statusSel.value || e.status === statusSel.value) && (!flagged.checked || e.flags.length) &&
      (!q || [e.exit_reason, ...e.failure_classes, ...e.flags, e.id].join(' ').toLowerCase().includes(q)));
    count.textContent = `${shown.length} of ${r.episode_rows.length} episodes`;
    body.replaceChildren(...shown.map((e) => h('tr', { class: 'episode-row' },
      h('td', {}, link(`/run/${enc(name)}/episode/${enc(e.id)}`, `${e.task} #${e.sample}`)),
      h('td', {}, badge(e.status)), h('td', {}, e.exit_reason),
      h('td', { class: 'num' }, fmt(e.best_as)), h('td', {}, e.correct ? 'yes' : 'no'),
      h('td', { class: 'num' }, fmt(e.speedup, 2)), h('td', { class: 'num' }, e.turns),
      h('td', { class: 'num' }, e.tokens), h('td', {}, e.flags.map((f) => badge(f, 'flag'))),
      h('td', {}, e.failure_classes.join(', ')))));
  }
  for (const el of [taskSel, statusSel, flagged, text]) el.addEventListener('input', renderEpisodes);
  renderEpisodes();
  const s = r.stats;
  render(
    h('div', { class: 'crumbs' }, link('/', 'Runs'), ' / ', name),
    h('h1', {}, name, ' ', badge(r.status)),
    h('div', { class: 'muted' }, r.path, ' · ', (r.runs || []).map((x) => `${x.id} (${x.model || 'no model'}, ${x.prompt_variant})`).join('; ')),
    warnings(r.warnings),
    h('div', { class: 'cards' }, card('episodes', `${r.episodes_done} / ${r.episodes_total ?? '?'}`),
      card('mean best AS', fmt(r.mean_best_as)), card('correct', pct(r.correct_rate)),
      card('episodes / hour', fmt(r.episodes_per_hour, 1)), card('turns / episode', fmt(s.turns_per_episode, 2)),
      card('evaluations', `${s.evaluations.full} full / ${s.evaluations.compile_only} compile-only`)),
    r.experiment ? h('p', {}, 'This store holds an experiment: ', link(`/run/${enc(name)}/experiment`, r.experiment + ' report')) : null,
    h('h2', {}, 'Charts'),
    h('div', { class: 'charts' }, h('img', { src: base + '/charts/es_curve.svg', alt: 'mean ES_t curve' }),
      h('img', { src: base + '/charts/failures.svg', alt: 'failure-class histogram' })),
    h('h2', {}, 'Tasks'),
    table(['task', 'episodes', 'mean best AS', 'max best AS', 'hidden AS', 'correct', 'speedup (correct)', 'fast_1', 'flags', 'exit reasons'],
      r.tasks.map((t) => [t.task, t.episodes, fmt(t.mean_best_as), fmt(t.max_best_as), fmt(t.hidden_as), pct(t.correct_rate),
        fmt(t.geomean_speedup, 2), pct(t.fast_1), t.flags.map((f) => badge(f, 'flag')),
        Object.entries(t.exit_reasons).map(([k, n]) => `${k}: ${n}`).join(', ')]), [1, 2, 3, 4, 5, 6, 7]),
    h('h2', {}, 'Episodes'),
    h('div', { class: 'filters' }, h('label', {}, 'task ', taskSel), h('label', {}, 'status ', statusSel),
      h('label', {}, flagged, ' flagged only'), text, count),
    h('table', { id: 'episodes' }, h('thead', {}, h('tr', {}, ['episode', 'status', 'exit reason', 'best AS', 'correct',
      'speedup', 'turns', 'tokens', 'flags', 'failure classes'].map((t) => h('th', {}, t)))), body));
  if (r.status === 'running') pollTimer = setTimeout(() => route(true), 5000);
}

// Tool-call arguments: one line per key; file contents shown as code (with
// the call's path for highlighting) instead of one escaped JSON string.
function argumentsView(args) {
  if (args === null || typeof args !== 'object' || Array.isArray(args)) {
    return h('pre', {}, typeof args === 'string' ? args : JSON.stringify(args, null, 2));
  }
  return h('div', { class: 'args' }, Object.entries(args).map(([k, v]) => {
    const multiline = typeof v === 'string' && v.includes('\n');
    return h('div', { class: 'arg' }, h('span', { class: 'key' }, k + ': '),
      multiline ? highlight(v, typeof args.path === 'string' ? args.path : '')
        : h('code', {}, typeof v === 'string' ? v : JSON.stringify(v)));
  }));
}

function messageView(m) {
  const calls = (m.tool_calls || []).map((c) => h('div', { class: 'call' },
    h('span', { class: 'name' }, c.name), ' ', h('span', { class: 'muted' }, c.id), argumentsView(c.arguments)));
  const long = m.content.length > 4000 && m.role !== 'assistant';
  const content = m.content ? h('pre', { class: 'content' }, m.content) : null;
  return h('div', { class: 'msg ' + m.role, 'data-turn': m.turn },
    h('div', { class: 'head' }, h('span', { class: 'role' }, m.role), `turn ${m.turn} · #${m.seq}`,
      m.name ? ` · ${m.name}` : '', m.latency_ms ? ` · ${(m.latency_ms / 1000).toFixed(1)} s` : ''),
    m.reasoning ? h('details', { class: 'reasoning' }, h('summary', {}, `reasoning (${m.reasoning.length} chars)`), h('pre', {}, m.reasoning)) : null,
    long ? h('details', {}, h('summary', {}, `${m.content.length} chars`), content) : content,
    calls);
}

function evaluationView(e) {
  const files = Object.entries(e.files || {});
  return h('div', { class: 'eval' + (e.best ? ' best' : ''), 'data-turn': e.turn },
    h('div', { class: 'head' }, h('b', {}, `${e.kind} · turn ${e.turn}`), ' ', badge(e.mode, e.mode),
      e.best ? ' best of the episode' : '', e.counts ? '' : h('span', { class: 'muted' }, ' (does not count as a success)')),
    table(['AS', 'hidden AS', 'correct rate', 'speedup', 'unstable', 'failure classes'],
      [[fmt(e.as), fmt(e.hidden_as), pct(e.correct_rate), fmt(e.geomean_speedup, 2), e.unstable ? 'yes' : 'no',
        (e.failure_classes || []).join(', ')]]),
    (e.hack_flags || []).length ? h('div', { class: 'flags' }, 'flags: ', e.hack_flags.map((f) => badge(f, 'flag')),
      table(['where', 'evidence', 'message'], e.flag_evidence.map((x) => [x.where, JSON.stringify(x.what), x.message || '']))) : null,
    e.result && e.result.message ? h('pre', { class: 'report-message' }, e.result.message) : null,
    (e.diff || []).map(diffView),
    files.map(([path, text]) => h('details', { class: 'file' }, h('summary', {}, path), highlight(text, path))),
    h('details', {}, h('summary', {}, 'full evaluation report (JSON)'), h('pre', {}, JSON.stringify(e.result, null, 2))));
}

async function episodePage(name, id) {
  const e = await api(`/api/runs/${enc(name)}/episodes/${enc(id)}`);
  const turns = [...new Set(e.messages.map((m) => m.turn))];
  const thread = h('div', { id: 'thread' });
  const buttons = h('div', { class: 'turns' });
  function show(turn) {
    for (const b of buttons.children) b.classList.toggle('active', b.dataset.turn === String(turn));
    const items = [];
    for (const t of turns) {
      if (turn !== 'all' && t !== turn) continue;
      items.push(...e.messages.filter((m) => m.turn === t).map(messageView));
      items.push(...e.evaluations.filter((x) => x.turn === t).map(evaluationView));
    }
    thread.replaceChildren(...items);
  }
  buttons.append(h('button', { 'data-turn': 'all', onclick: () => show('all') }, 'all turns'));
  for (const t of turns) {
    const ev = e.evaluations.filter((x) => x.turn === t && x.as !== null);
    const as = ev.length ? ' · AS ' + fmt(Math.max(...ev.map((x) => x.as)), 2) : '';
    buttons.append(h('button', { 'data-turn': t, onclick: () => show(t) }, `turn ${t}${as}`));
  }
  render(
    h('div', { class: 'crumbs' }, link('/', 'Runs'), ' / ', link('/run/' + enc(name), name), ' / ', e.task, ' #', e.sample),
    h('h1', {}, `${e.task} #${e.sample} `, badge(e.status)),
    h('div', { class: 'cards' }, card('exit reason', e.exit_reason || '–'), card('best AS', fmt(e.best_as)),
      card('turns', e.turns), card('tokens', `${e.prompt_tokens} + ${e.completion_tokens}`),
      card('wall time', fmt(e.wall_time_s, 1) + ' s'), card('model', e.model || '–')),
    h('h2', {}, 'AS per turn'),
    table(['turn', 'kind', 'mode', 'AS', 'correct rate', 'speedup', 'flags'],
      e.evaluations.map((x) => [x.turn, x.kind, x.mode, fmt(x.as), pct(x.correct_rate), fmt(x.geomean_speedup, 2),
        (x.hack_flags || []).join(', ')]), [0, 3, 4, 5]),
    h('h2', {}, 'Conversation'), buttons, thread);
  show('all');
}

function abView(name, rep) {
  return [
    h('p', {}, `A/B ${rep.id}: score = ${rep.score} (${rep.mode}), ${rep.tasks.length} tasks`),
    table(['arm', 'run', 'prompt variant', 'model', 'episodes', 'mean score', 'correct', 'tokens/episode'],
      rep.arms.map((a) => [a.name, a.run_id, a.prompt_variant, a.model, a.episodes, fmt(a.mean_score), pct(a.correct_rate),
        fmt(a.tokens_per_episode, 0)]), [4, 5, 6, 7]),
    h('h2', {}, 'Paired differences'),
    table(['comparison', 'tasks', 'mean', '95% CI', 'sign test p', 'Wilcoxon p', 'verdict'],
      rep.comparisons.map((c) => [`${c.b} − ${c.a}`, c.tasks, fmt(c.mean), c.ci95 ? `[${fmt(c.ci95[0])}, ${fmt(c.ci95[1])}]` : '–',
        fmt(c.sign_test.p), fmt(c.wilcoxon.p), c.verdict]), [1, 2, 4, 5]),
    h('div', { class: 'charts' }, h('img', { src: `/api/runs/${enc(name)}/experiment.svg`, alt: 'paired differences' })),
  ];
}

function improveView(name, rep) {
  const m = (x, f) => (x ? f(x) : '–');
  return [
    h('p', {}, `improve loop ${rep.id}: ${rep.rounds.length} of ${rep.rounds_planned} rounds; score = ${rep.score} (${rep.mode})`),
    table(['round', 'model', 'exemplars', 'train score', 'train correct', 'eval score', 'eval correct', 'selected', 'sft', 'dpo', 'steps done'],
      rep.rounds.map((r) => [r.round, r.model, r.exemplars, m(r.train, (x) => fmt(x.mean_score)), m(r.train, (x) => pct(x.correct_rate)),
        m(r.eval, (x) => fmt(x.mean_score)), m(r.eval, (x) => pct(x.correct_rate)), r.selected, r.sft_records, r.dpo_records,
        r.done.join(', ')]), [0, 2, 3, 4, 5, 6, 7, 8, 9]),
    h('div', { class: 'charts' }, h('img', { src: `/api/runs/${enc(name)}/experiment.svg`, alt: 'per-round metrics' })),
  ];
}

async function manifestView(name) {
  const m = await api(`/api/runs/${enc(name)}/export`);
  return [
    h('p', {}, `passforge export --format ${m.format} (min AS ${fmt(m.min_as, 2)}) would write `,
      h('b', { class: 'export-kept' }, `${m.kept.length} of ${m.episodes_read}`), ' episodes.'),
    Object.keys(m.excluded).length ? table(['dropped by', 'episodes'], Object.entries(m.excluded), [1]) : null,
    m.kept.length ? h('details', {}, h('summary', {}, 'episodes kept'), h('ul', {}, m.kept.map((id) => h('li', {}, id)))) : null,
  ];
}

async function experimentPage(name) {
  const x = await api(`/api/runs/${enc(name)}/experiment`);
  const body = x.kind === 'ab' ? abView(name, x.report) : x.kind === 'improve' ? improveView(name, x.report)
    : [h('p', { class: 'muted' }, 'This store holds a plain run, no experiment.')];
  render(
    h('div', { class: 'crumbs' }, link('/experiments', 'Experiments'), ' / ', link('/run/' + enc(name), name)),
    h('h1', {}, `${name}: ${x.kind || 'run'}`), body,
    h('h2', {}, 'Export manifest'), ...(await manifestView(name)));
}

async function experimentsPage() {
  const data = await api('/api/runs');
  const sections = [];
  for (const r of data.runs) {
    if (r.status === 'unreadable') continue;
    sections.push(h('section', { class: 'store' }, h('h2', {}, link('/run/' + enc(r.name), r.name), ' ',
      r.experiment ? link(`/run/${enc(r.name)}/experiment`, `${r.experiment} report`) : h('span', { class: 'muted' }, 'plain run')),
    ...(await manifestView(r.name))));
  }
  render(h('h1', {}, 'Experiments and export manifests'),
    sections.length ? sections : h('p', { class: 'muted' }, 'No run stores found.'));
}

// --- routing -----------------------------------------------------------------
async function route(refresh) {
  clearTimeout(pollTimer);
  const parts = location.pathname.split('/').filter(Boolean).map(decodeURIComponent);
  for (const a of document.querySelectorAll('[data-nav]')) {
    a.classList.toggle('active', (a.dataset.nav === 'experiments') === (parts[0] === 'experiments' || parts[2] === 'experiment'));
  }
  if (!refresh) document.getElementById('live').textContent = '';
  try {
    if (parts.length === 0) await runsPage();
    else if (parts[0] === 'experiments') await experimentsPage();
    else if (parts[0] === 'run' && parts.length === 2) await runPage(parts[1]);
    else if (parts[0] === 'run' && parts[2] === 'episode') await episodePage(parts[1], parts.slice(3).join('/'));
    else if (parts[0] === 'run' && parts[2] === 'experiment') await experimentPage(parts[1]);
    else render(h('p', { class: 'error' }, 'No such page.'));
  } catch (err) {
    render(h('p', { class: 'error' }, String(err.message || err)));
  }
}

function go(href) {
  history.pushState(null, '', href);
  window.scrollTo(0, 0);
  route(false);
}

for (const a of document.querySelectorAll('.top a')) {
  a.addEventListener('click', (e) => { e.preventDefault(); go(a.getAttribute('href')); });
}
window.addEventListener('popstate', () => route(false));
if (location.search.includes('token=')) history.replaceState(null, '', location.pathname);
route(false);
