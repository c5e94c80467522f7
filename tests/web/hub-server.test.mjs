// The offline Hub server (tests/support/hub-server.mjs) read through the Hugging Face libraries the
// page's import uses: @huggingface/gguf for GGUF files (shards included) and @huggingface/hub for
// safetensors checkpoints (sharded indexes included). The expected figures are the ones
// tests/golden/headers/SOURCES.md states for each fixture, from its sources.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { gguf, ggufAllShards } from '@huggingface/gguf';
import { fileDownloadInfo, listFiles, modelInfo, parseSafetensorsMetadata } from '@huggingface/hub';
import { parseRange, startHubServer } from '../support/hub-server.mjs';

let hub;
before(async () => { hub = await startHubServer(); });
after(async () => { await hub?.close(); });

const resolveUrl = (repo, file) => `${hub.url}/${repo}/resolve/main/${file}`;

// ggml type id -> [elements per block, bytes per block] (ggml's type traits), for the types the
// fixtures hold.
const GGML_BLOCKS = {
  0: [1, 4], 1: [1, 2], 8: [32, 34], 10: [256, 84], 12: [256, 144], 13: [256, 176], 14: [256, 210],
  16: [256, 66], 18: [256, 98], 21: [256, 110], 22: [256, 82], 30: [1, 2],
};

function tensorStats(tensorInfos) {
  let params = 0;
  let bytes = 0;
  for (const { shape, dtype } of tensorInfos) {
    const n = shape.reduce((acc, d) => acc * Number(d), 1);
    const [block, size] = GGML_BLOCKS[dtype] ?? assert.fail(`unexpected ggml type ${dtype}`);
    params += n;
    bytes += (n / block) * size;
  }
  return { tensors: tensorInfos.length, params, bytes };
}

// The end of the last tensor's data: each tensor's bytes padded to the 32-byte alignment.
function dataEnd({ tensorDataOffset, tensorInfos }) {
  return tensorInfos.reduce((end, info) => end + Math.ceil(tensorStats([info]).bytes / 32) * 32,
    Number(tensorDataOffset));
}

// Each single-file GGUF fixture: repo, file, and the figures SOURCES.md states.
const GGUF_FIXTURES = [
  { repo: 'vramcalc-fixtures/qwen3-8b-ollama-Q4_K_M', file: 'qwen3-8b-Q4_K_M.gguf', arch: 'qwen3',
    tensors: 399, params: 8_190_735_360, bytes: 5_219_418_112 },
  { repo: 'unsloth/Qwen3.5-4B-GGUF', file: 'Qwen3.5-4B-UD-IQ2_XXS.gguf', arch: 'qwen35',
    tensors: 426, params: 4_205_751_296, bytes: 1_509_249_024 },
  { repo: 'unsloth/Qwen3.5-35B-A3B-GGUF', file: 'Qwen3.5-35B-A3B-Q3_K_S.gguf', arch: 'qwen35moe',
    tensors: 733, params: 34_660_610_688, bytes: 15_254_866_432 },
  { repo: 'vramcalc-fixtures/Qwen3-VL-8B-Instruct-GGUF', file: 'Qwen3-VL-8B-Instruct-F16.gguf', arch: 'qwen3vl',
    tensors: 399, params: 8_190_735_360, bytes: 16_382_087_168 },
  { repo: 'vramcalc-fixtures/Qwen3-VL-8B-Instruct-GGUF', file: 'mmproj-Qwen3-VL-8B-Instruct-F16.gguf', arch: 'clip',
    tensors: 352, params: 576_388_336, bytes: 1_159_009_216 },
  { repo: 'vramcalc-fixtures/DeepSeek-V2-Lite-MLA-F16', file: 'Deep-2-Lite-64x1.5B-F16-mla.gguf', arch: 'deepseek2',
    tensors: 431, params: 15_763_107_328, bytes: 31_533_283_328 },
];

for (const fx of GGUF_FIXTURES) {
  test(`@huggingface/gguf reads ${fx.repo}/${fx.file} through a redirect to the CDN origin`, async () => {
    const out = await gguf(resolveUrl(fx.repo, fx.file), { computeParametersCount: true });
    const head = await fetch(resolveUrl(fx.repo, fx.file), { method: 'HEAD', redirect: 'manual' });
    assert.equal(Number(head.headers.get('x-linked-size')), dataEnd(out), 'served size = header + tensor data');
    assert.equal(out.metadata['general.architecture'], fx.arch);
    assert.equal(out.parameterCount, fx.params);
    assert.deepEqual(tensorStats(out.tensorInfos), { tensors: fx.tensors, params: fx.params, bytes: fx.bytes });
  });
}

test('the Qwen3-VL text model and its mmproj add up to the safetensors checkpoint', async () => {
  const repo = 'vramcalc-fixtures/Qwen3-VL-8B-Instruct-GGUF';
  const [text, mmproj] = await Promise.all(['Qwen3-VL-8B-Instruct-F16.gguf', 'mmproj-Qwen3-VL-8B-Instruct-F16.gguf']
    .map((file) => gguf(resolveUrl(repo, file), { computeParametersCount: true })));
  assert.equal(text.parameterCount + mmproj.parameterCount, 8_767_123_696);
  assert.equal(mmproj.metadata['clip.projector_type'], 'qwen3vl_merger');
  assert.equal(text.metadata['qwen3vl.n_deepstack_layers'], 3);
});

test('ggufAllShards reads the six gguf-split shards, split keys included', async () => {
  const repo = 'vramcalc-fixtures/Qwen3.5-35B-A3B-GGUF-split';
  const { shards, parameterCount, urls } = await ggufAllShards(
    resolveUrl(repo, 'Qwen3.5-35B-A3B-Q3_K_S-00001-of-00006.gguf'));
  assert.equal(urls.length, 6);
  assert.equal(shards.length, 6);
  assert.equal(parameterCount, 34_660_610_688);
  const all = shards.flatMap((s) => s.tensorInfos);
  assert.deepEqual(tensorStats(all), { tensors: 733, params: 34_660_610_688, bytes: 15_254_866_432 });
  assert.deepEqual(shards.map((s) => s.tensorInfos.length), [128, 128, 128, 128, 128, 93]);
  const sizes = await Promise.all(urls.map(async (url) => Number((await fetch(url, { method: 'HEAD', redirect: 'manual' }))
    .headers.get('x-linked-size'))));
  assert.deepEqual(sizes, shards.map(dataEnd));
  shards.forEach((s, i) => {
    assert.equal(s.metadata['split.no'], i);
    assert.equal(s.metadata['split.count'], 6);
    assert.equal(s.metadata['split.tensors.count'], 733);
  });
  assert.equal(shards[0].metadata['general.architecture'], 'qwen35moe');
  assert.equal(shards[1].metadata['general.architecture'], undefined);
});

test('parseSafetensorsMetadata reads a sharded checkpoint through its model.safetensors.index.json', async () => {
  const out = await parseSafetensorsMetadata({
    repo: 'deepcogito/cogito-v1-preview-qwen-14B', hubUrl: hub.url, computeParametersCount: true,
  });
  assert.equal(out.sharded, true);
  assert.equal(Object.keys(out.headers).length, 6);
  assert.equal(out.index.metadata.total_size, 29_531_895_808);
  assert.equal(Object.keys(out.index.weight_map).length, 579);
  assert.deepEqual(out.parameterCount, { BF16: 14_765_947_904 });
  const tensors = Object.values(out.headers).flatMap((h) => Object.keys(h).filter((k) => k !== '__metadata__'));
  assert.equal(tensors.length, 579);
});

test('parseSafetensorsMetadata reads a single model.safetensors and its config.json', async () => {
  const out = await parseSafetensorsMetadata({
    repo: 'vramcalc-fixtures/Qwen3-VL-8B-Instruct-single', hubUrl: hub.url, computeParametersCount: true,
  });
  assert.equal(out.sharded, false);
  assert.equal(Object.keys(out.header).filter((k) => k !== '__metadata__').length, 750);
  assert.deepEqual(out.parameterCount, { BF16: 8_767_123_696 });
});

test('the published shard sizes are what the Hub reports, and each header ends where its data starts', async () => {
  const repo = 'deepcogito/cogito-v1-preview-qwen-14B';
  const info = await fileDownloadInfo({ repo, path: 'model-00001-of-00006.safetensors', hubUrl: hub.url });
  assert.equal(info.size, 4_982_125_520);
  assert.equal(new URL(info.url).origin, hub.cdnUrl);
  const files = [];
  for await (const entry of listFiles({ repo, hubUrl: hub.url })) files.push(entry);
  const sizes = Object.fromEntries(files.filter((f) => f.lfs).map((f) => [f.path, f.size]));
  assert.deepEqual(sizes, {
    'model-00001-of-00006.safetensors': 4_982_125_520, 'model-00002-of-00006.safetensors': 4_954_847_344,
    'model-00003-of-00006.safetensors': 4_954_847_392, 'model-00004-of-00006.safetensors': 4_954_847_392,
    'model-00005-of-00006.safetensors': 4_954_847_392, 'model-00006-of-00006.safetensors': 4_730_447_400,
  });
  assert.equal(await fileDownloadInfo({ repo, path: 'missing.safetensors', hubUrl: hub.url }), null);
  for (const [file, size] of Object.entries(sizes)) {
    const url = resolveUrl(repo, file);
    const length = Number(Buffer.from(await (await fetch(url, { headers: { Range: 'bytes=0-7' } })).arrayBuffer())
      .readBigUInt64LE(0));
    const header = await (await fetch(url, { headers: { Range: `bytes=8-${7 + length}` } })).json();
    const end = Math.max(...Object.entries(header).filter(([k]) => k !== '__metadata__').map(([, t]) => t.data_offsets[1]));
    assert.equal(8 + length + end, size, file);
  }
});

test('model info, revisions and errors follow the Hub', async () => {
  const info = await modelInfo({ name: 'Qwen/Qwen3-8B', hubUrl: hub.url, additionalFields: ['sha', 'filePaths'] });
  assert.deepEqual(info.filePaths, ['config.json']);
  assert.match(info.sha, /^[0-9a-f]{40}$/);
  const bySha = await fetch(`${hub.url}/api/models/Qwen/Qwen3-8B/revision/${info.sha}`);
  assert.equal((await bySha.json()).sha, info.sha);
  const config = await fetch(`${hub.url}/Qwen/Qwen3-8B/resolve/${info.sha}/config.json`);
  assert.equal(config.status, 200);
  assert.equal(config.headers.get('x-repo-commit'), info.sha);
  assert.equal((await config.json()).model_type, 'qwen3');
  const cases = [
    [`${hub.url}/api/models/nobody/nothing`, 'RepoNotFound'],
    [`${hub.url}/Qwen/Qwen3-8B/resolve/nope/config.json`, 'RevisionNotFound'],
    [`${hub.url}/Qwen/Qwen3-8B/resolve/main/missing.json`, 'EntryNotFound'],
  ];
  for (const [url, code] of cases) {
    const res = await fetch(url);
    assert.equal(res.status, 404, url);
    assert.equal(res.headers.get('x-error-code'), code, url);
  }
});

test('a resolve of an LFS file redirects with the Hub headers; the CDN serves ranges, zeros past the header', async () => {
  const url = resolveUrl('unsloth/Qwen3.5-4B-GGUF', 'Qwen3.5-4B-UD-IQ2_XXS.gguf');
  const head = await fetch(url, { method: 'HEAD', redirect: 'manual' });
  assert.equal(head.status, 302);
  assert.equal(head.headers.get('x-linked-size'), '1509276192');
  assert.match(head.headers.get('x-linked-etag'), /^"[0-9a-f]{64}"$/);
  assert.ok(head.headers.get('location').startsWith(`${hub.cdnUrl}/lfs/`));
  assert.match(head.headers.get('access-control-expose-headers'), /Content-Range.*ETag.*X-Repo-Commit.*X-Linked-Size.*X-Linked-Etag/);
  const first = await fetch(url, { headers: { Range: 'bytes=0-3' } });
  assert.equal(first.status, 206);
  assert.equal(first.headers.get('content-range'), 'bytes 0-3/1509276192');
  assert.equal(Buffer.from(await first.arrayBuffer()).toString('latin1'), 'GGUF');
  const tail = await fetch(url, { headers: { Range: 'bytes=-16' } });
  assert.equal(tail.headers.get('content-range'), 'bytes 1509276176-1509276191/1509276192');
  assert.deepEqual([...new Uint8Array(await tail.arrayBuffer())], new Array(16).fill(0));
  const past = await fetch(url, { headers: { Range: 'bytes=1509276192-' } });
  assert.equal(past.status, 416);
  assert.equal(past.headers.get('content-range'), 'bytes */1509276192');
  const preflight = await fetch(url, { method: 'OPTIONS', headers: { 'Access-Control-Request-Headers': 'range' } });
  assert.equal(preflight.status, 204);
  assert.equal(preflight.headers.get('access-control-allow-origin'), '*');
});

test('the server logs every request it receives, on both origins', async () => {
  hub.clearRequests();
  const url = resolveUrl('unsloth/Qwen3.5-4B-GGUF', 'Qwen3.5-4B-UD-IQ2_XXS.gguf');
  await (await fetch(url, { headers: { Range: 'bytes=0-7' } })).arrayBuffer();
  await new Promise((resolve) => setTimeout(resolve, 20));
  assert.deepEqual(hub.requests.map(({ origin, method, status, range }) => ({ origin, method, status, range })), [
    { origin: 'hub', method: 'GET', status: 302, range: 'bytes=0-7' },
    { origin: 'cdn', method: 'GET', status: 206, range: 'bytes=0-7' },
  ]);
});

test('parseRange reads single byte ranges as the Hub does', () => {
  assert.deepEqual(parseRange('bytes=0-0', 10), { start: 0, end: 0 });
  assert.deepEqual(parseRange('bytes=5-', 10), { start: 5, end: 9 });
  assert.deepEqual(parseRange('bytes=-3', 10), { start: 7, end: 9 });
  assert.deepEqual(parseRange('bytes=8-100', 10), { start: 8, end: 9 });
  assert.equal(parseRange('bytes=10-', 10), 'invalid');
  assert.equal(parseRange('bytes=0-1,4-5', 10), 'invalid');
  assert.equal(parseRange(undefined, 10), null);
});
