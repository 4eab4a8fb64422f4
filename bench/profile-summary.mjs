// A text summary of a V8 CPU profile (`node --cpu-prof` writes one `.cpuprofile` per process at exit): where the
// busy time went, by function (self time and inclusive time) and by package or the service's own folder.
//
//   node bench/profile-summary.mjs FILE.cpuprofile [--top 25] [--last SECONDS] [--skip SECONDS] [--root dist]
//
// --last keeps only the samples of the profile's last SECONDS (the load window when the service was stopped
// right after it); --skip drops its first SECONDS (start-up). Percentages are of the busy samples: all but
// `(idle)`. Groups: `node_modules/<package>` by package, the service's files (`dist/…`, tsc's output, one
// file per source file) by folder and by file, Node's own (`node:…`) by module, and V8's pseudo-frames
// (`(garbage collector)`, `(program)`: native code with no JavaScript frame) as they are.
// Plain ES module with nothing from bench/support.mjs: it reads a file and prints, it starts and measures nothing.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const argv = process.argv.slice(2);
const flag = (name, fallback) => {
  const at = argv.indexOf(`--${name}`);
  return at === -1 ? fallback : argv[at + 1];
};
const file = argv.find((arg, i) => !arg.startsWith('--') && !argv[i - 1]?.startsWith('--'));
if (file === undefined) {
  console.error('usage: node bench/profile-summary.mjs FILE.cpuprofile [--top 25] [--last SECONDS] [--skip SECONDS]');
  process.exit(2);
}
const TOP = Number(flag('top', '25'));
const LAST_S = flag('last', null);
const SKIP_S = flag('skip', null);

const profile = JSON.parse(readFileSync(file, 'utf8'));
const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
const parent = new Map();
for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);

/** Where a frame's code lives: a package, a file of the service, a Node module or a V8 pseudo-frame. */
function placeOf(callFrame) {
  const url = callFrame.url ?? '';
  if (url === '') {
    // `new Function` code has no URL: Fastify's compiled serializers (fast-json-stringify: anonymousN) and
    // request validators (ajv: validateN); the rest is V8's pseudo-frames and native functions.
    if (/^(anonymous\d*|validate\d+)$/.test(callFrame.functionName)) return { group: '(generated: serializers, validators)', file: '(generated)' };
    return { group: callFrame.functionName.startsWith('(') ? callFrame.functionName : '(native)', file: '(native)' };
  }
  if (url.startsWith('node:')) return { group: `node:${url.slice(5).split('/')[0]}`, file: url };
  const path = url.startsWith('file://') ? fileURLToPath(url) : url;
  const modules = path.lastIndexOf('/node_modules/');
  if (modules !== -1) {
    const rest = path.slice(modules + '/node_modules/'.length).split('/');
    const name = rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
    return { group: name, file: `${name}/${rest.slice(rest[0].startsWith('@') ? 2 : 1).join('/')}` };
  }
  const dist = path.lastIndexOf('/dist/');
  if (dist !== -1) {
    const inside = path.slice(dist + 1);
    return { group: `${inside.split('/').slice(0, -1).join('/') || 'dist'}/`, file: inside };
  }
  return { group: path.split('/').slice(-2, -1)[0] ?? path, file: path };
}

const keyOf = (callFrame) => `${callFrame.functionName || '(anonymous)'} ${placeOf(callFrame).file}:${callFrame.lineNumber + 1}`;

// The samples in the window, each weighted by the time until the next one (µs).
const times = [];
let t = profile.startTime;
for (const delta of profile.timeDeltas) times.push((t += delta));
const from = SKIP_S === null ? -Infinity : profile.startTime + Number(SKIP_S) * 1e6;
const lastFrom = LAST_S === null ? -Infinity : profile.endTime - Number(LAST_S) * 1e6;
const self = new Map();
const inclusive = new Map();
const groups = new Map();
const groupsInclusive = new Map();
const files = new Map();
let busy = 0;
let idle = 0;
const add = (map, key, value) => map.set(key, (map.get(key) ?? 0) + value);
for (let i = 0; i < profile.samples.length; i += 1) {
  if (times[i] < from || times[i] < lastFrom) continue;
  const weight = (times[i + 1] ?? profile.endTime) - times[i];
  const leaf = nodes.get(profile.samples[i]);
  if (leaf.callFrame.functionName === '(idle)') {
    idle += weight;
    continue;
  }
  busy += weight;
  add(self, keyOf(leaf.callFrame), weight);
  const place = placeOf(leaf.callFrame);
  add(groups, place.group, weight);
  add(files, place.file, weight);
  // Inclusive: every function on the stack once, however often it recurses.
  const seen = new Set();
  const seenGroups = new Set();
  for (let id = leaf.id; id !== undefined; id = parent.get(id)) {
    const { callFrame } = nodes.get(id);
    const key = keyOf(callFrame);
    if (key.startsWith('(root)')) continue;
    const { group } = placeOf(callFrame);
    if (!seenGroups.has(group)) {
      seenGroups.add(group);
      add(groupsInclusive, group, weight);
    }
    if (seen.has(key)) continue;
    seen.add(key);
    add(inclusive, key, weight);
  }
}

const ms = (us) => (us / 1000).toFixed(0).padStart(7);
const pct = (us) => `${((100 * us) / Math.max(busy, 1)).toFixed(1).padStart(5)} %`;
const table = (title, map) => {
  console.log(`\n${title}`);
  for (const [key, us] of [...map].sort((a, b) => b[1] - a[1]).slice(0, TOP)) console.log(`${ms(us)} ms ${pct(us)}  ${key}`);
};
const window = [SKIP_S && `after the first ${SKIP_S} s`, LAST_S && `the last ${LAST_S} s`].filter(Boolean).join(', ') || 'the whole profile';
console.log(`${file}: ${window}; busy ${(busy / 1e6).toFixed(2)} s, idle ${(idle / 1e6).toFixed(2)} s ` +
  `(${profile.samples.length} samples in all, ${((profile.endTime - profile.startTime) / 1e6).toFixed(1)} s)`);
table('By package or folder (self time)', groups);
table('By package or folder (inclusive: the samples with it anywhere on the stack)', groupsInclusive);
table('By file (self time)', files);
table(`Top ${TOP} functions by self time`, self);
table(`Top ${TOP} functions by inclusive time`, inclusive);
