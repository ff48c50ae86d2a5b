// The pages of `passforge serve` in a real headless Chromium, driven by
// playwright-core: makes a replay run (the quickstart, compile-only without a
// GPU), serves it, opens every page, clicks through an episode turn by turn,
// checks what is shown and saves a screenshot of each page.
// Usage: node serve_browser_test.mjs <passforge binary> <artefact dir>
// Exit codes: 0 pass, 1 fail, 77 skipped (no Chromium or playwright-core).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

const SKIP = 77;
const [passforge, artefacts] = process.argv.slice(2);
const chromiumPath = process.env.PF_CHROMIUM || '/usr/bin/chromium';
if (!existsSync(chromiumPath)) {
  console.log(`SKIP: no Chromium at ${chromiumPath} (apt-get install chromium, or set PF_CHROMIUM)`);
  process.exit(SKIP);
}
let chromium;
try {
  ({ chromium } = await import('playwright-core'));
} catch {
  console.log('SKIP: playwright-core is not installed (cd tests/browser && npm ci)');
  process.exit(SKIP);
}

const failures = [];
function check(ok, what) {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}`);
  if (!ok) failures.push(what);
}

mkdirSync(artefacts, { recursive: true });
const work = mkdtempSync(join(tmpdir(), 'pf_browser_'));
const env = { ...process.env };
delete env.OPENAI_BASE_URL;
delete env.OPENAI_MODEL;
const run = spawnSync(passforge, ['run', '--config', 'configs/quickstart.toml', '--set',
  `run.output_dir=${join(work, 'runs')}`, '--set', 'run.run_id=replay'], { env, encoding: 'utf8' });
if (run.status !== 0) {
  console.log(`FAIL passforge run exited ${run.status}\n${run.stdout}\n${run.stderr}`);
  process.exit(1);
}

// An A/B experiment over the same replay: the experiment page's subject.
const abSpec = join(work, 'ab.toml');
writeFileSync(abSpec, `base_config = "${join(process.cwd(), 'configs', 'quickstart.toml')}"
id = "ab"
samples_per_task = 1
[set]
"run.output_dir" = "${join(work, 'runs')}"
[[arms]]
name = "default"
set = { "prompts.variant" = "default" }
[[arms]]
name = "concise"
set = { "prompts.variant" = "concise" }
`);
const ab = spawnSync(passforge, ['ab', '--config', abSpec], { env, encoding: 'utf8' });
if (ab.status !== 0) {
  console.log(`FAIL passforge ab exited ${ab.status}\n${ab.stdout}\n${ab.stderr}`);
  process.exit(1);
}

// What a hostile model could write: markup in a message must show as text
// and never run (the page inserts text; CSP forbids inline script anyway).
const kHostile = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>';
const poison = spawnSync('python3', ['-c', `import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
db.execute("UPDATE messages SET content = content || ? WHERE role = 'assistant'", (sys.argv[2],))
db.commit()`, join(work, 'runs', 'replay', 'passforge.db'), kHostile], { encoding: 'utf8' });
if (poison.status !== 0) {
  console.log(`FAIL could not add the hostile message: ${poison.stderr}`);
  process.exit(1);
}

const server = spawn(passforge, ['serve', '--runs', join(work, 'runs'), '--port', '0'], { env });
const firstLine = await new Promise((resolve) => {
  createInterface({ input: server.stdout }).once('line', resolve);
  server.once('exit', () => resolve(''));
});
const url = (firstLine.match(/http:\/\/\S+?\//) || [])[0];
if (!url) {
  console.log(`FAIL passforge serve printed: ${firstLine}`);
  process.exit(1);
}

const userDataDir = mkdtempSync(join(tmpdir(), 'pf_chromium_'));
const context = await chromium.launchPersistentContext(userDataDir, {
  executablePath: chromiumPath,
  headless: true,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  viewport: { width: 1360, height: 900 },
});
const page = context.pages()[0] || (await context.newPage());
const consoleErrors = [];
page.on('console', (m) => { if (m.type() === 'error') consoleErrors.push(m.text()); });
page.on('pageerror', (e) => consoleErrors.push(String(e)));
page.setDefaultTimeout(15000);
const shot = (name) => page.screenshot({ path: join(artefacts, name), fullPage: true });

try {
  // Runs page.
  await page.goto(url);
  await page.waitForSelector('table a[href="/run/replay"]');
  const runRow = await page.locator('tbody tr', { has: page.locator('a[href="/run/replay"]') }).innerText();
  const abRow = await page.locator('tbody tr', { has: page.locator('a[href="/run/ab"]') }).innerText();
  check(abRow.includes('ab') && /6\s*\/\s*6/.test(abRow), `runs page: the A/B store, 6 / 6 episodes (${abRow.replace(/\s+/g, ' ')})`);
  check(runRow.includes('finished'), `runs page: the replay run is finished (${runRow.replace(/\s+/g, ' ')})`);
  check(/3\s*\/\s*3/.test(runRow), 'runs page: 3 / 3 episodes done');
  await shot('runs.png');

  // Run page.
  await page.click('table a[href="/run/replay"]');
  await page.waitForSelector('#episodes tbody tr.episode-row');
  check(await page.locator('#episodes tbody tr').count() === 3, 'run page: 3 episode rows');
  const tasksText = await page.locator('table').first().innerText();
  for (const t of ['neg-cat-mul-add-6a5c9e', 'add-softmax-dropout-a73f2b', 'linear-mul-truediv-erf-add-mul-2eaa9f']) {
    check(tasksText.includes(t), `run page: task ${t} in the task table`);
  }
  const chartsLoaded = await page.waitForFunction(() => {
    const imgs = [...document.querySelectorAll('.charts img')];
    return imgs.length === 2 && imgs.every((i) => i.complete && i.naturalWidth > 0);
  }, null, { timeout: 10000 }).then(() => true, () => false);
  check(chartsLoaded, 'run page: ES_t and failure-class charts rendered');
  await page.selectOption('#f-task', 'add-softmax-dropout-a73f2b');
  check(await page.locator('#episodes tbody tr').count() === 1, 'run page: the task filter keeps 1 episode');
  await shot('run.png');

  // Episode page: every turn, one at a time.
  await page.click('#episodes tbody tr a');
  await page.waitForSelector('#thread .msg');
  const roles = await page.$$eval('#thread .msg .role', (els) => [...new Set(els.map((e) => e.textContent))]);
  for (const r of ['system', 'user', 'assistant']) check(roles.includes(r), `episode page: a ${r} message`);
  check(await page.locator('#thread .eval').count() >= 2, 'episode page: evaluation reports');
  check((await page.locator('#thread').innerText()).includes(kHostile), 'episode page: markup a model wrote shows as text');
  check(await page.evaluate(() => window.__pwned) === undefined, 'episode page: markup a model wrote does not run');
  await shot('episode.png');
  const turns = await page.$$eval('.turns button', (bs) => bs.map((b) => b.dataset.turn).filter((t) => t !== 'all'));
  check(turns.length >= 2, `episode page: ${turns.length} turns to click through`);
  for (const t of turns) {
    await page.click(`.turns button[data-turn="${t}"]`);
    const shown = await page.$$eval('#thread [data-turn]', (els) => els.map((e) => e.dataset.turn));
    check(shown.length > 0 && shown.every((x) => x === t), `episode page: turn ${t} shows only its ${shown.length} items`);
  }
  await page.click('.turns button[data-turn="all"]');
  const file = page.locator('#thread details.file').first();
  await file.locator('summary').click();
  check(await file.locator('.tok-k').count() > 0, 'episode page: pass file with syntax highlighting');
  const diff = page.locator('#thread details.file-diff').first();
  if (await diff.count()) {
    await diff.locator('summary').click();
    check(await diff.locator('.add, .del').count() > 0, 'episode page: diff between turns');
  } else {
    check(false, 'episode page: a diff between turns');
  }
  await shot('episode-expanded.png');

  // Experiments page and the store's experiment page.
  await page.click('nav a[data-nav="experiments"]');
  await page.waitForSelector('.export-kept');
  const kept = await page.locator('section.store', { has: page.locator('a[href="/run/replay"]') }).locator('.export-kept').innerText();
  check(/of 3$/.test(kept), `experiments page: export manifest (${kept} episodes)`);
  await shot('experiments.png');
  await page.goto(url + 'run/replay/experiment');
  await page.waitForSelector('h1');
  check((await page.locator('main').innerText()).includes('plain run'), 'experiment page: a plain run says so');
  await page.goto(url + 'run/ab/experiment');
  await page.waitForSelector('.charts img');
  const abText = await page.locator('main').innerText();
  check(abText.includes('concise') && abText.includes('default'), 'A/B page: both arms');
  check(/concise − default/.test(abText), 'A/B page: the paired comparison');
  const forest = await page.waitForFunction(() => {
    const i = document.querySelector('.charts img');
    return i && i.complete && i.naturalWidth > 0;
  }, null, { timeout: 10000 }).then(() => true, () => false);
  check(forest, 'A/B page: forest plot rendered');
  await shot('experiment-ab.png');
  check(consoleErrors.length === 0, `no console errors (${consoleErrors.join(' | ')})`);
} catch (err) {
  check(false, `unexpected: ${err.message}`);
  await shot('failure.png').catch(() => {});
} finally {
  await context.close();
  server.kill('SIGINT');
}
console.log(`screenshots: ${artefacts}`);
console.log(failures.length ? `${failures.length} checks failed` : 'all checks passed');
process.exit(failures.length ? 1 : 0);
