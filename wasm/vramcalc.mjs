// The core's loader: instantiates vramcalc.wasm, or vramcalc-full.wasm (the same with the
// config.json importer), and gives their C functions (bindings.cc, full.cc) back as string
// functions.
// Hand-written in place of Emscripten's generated glue: the modules are standalone wasm that
// import two functions, so this is all the JS they need.
//
//   const core = await createVramcalc();        // a browser: fetches vramcalc.wasm beside this file
//   const full = await createVramcalc({ file: 'vramcalc-full.wasm' });  // reads config.json files too
//   const core = await createVramcalc({ wasmBinary: bytes });   // Node, or the single file
//   JSON.parse(core.evaluate({ model: 'qwen3-8b' }));       // an object: both modules
//   JSON.parse(full.evaluate('{"model": "qwen3-8b"}'));     // JSON text: vramcalc-full.wasm
//
// Every function takes strings (or Uint8Arrays of UTF-8, given to the core byte for byte) and
// returns strings; errors are inside the returned JSON. A request object goes to the core as
// fields (core/src/request_fields.h), which vramcalc.wasm reads without a JSON reader; JSON
// text, and an object the fields cannot carry (a config.json or a device as an object), only
// vramcalc-full.wasm reads (vramcalc.wasm answers json_unavailable). A trap (which no request
// should cause) stops the instance: later calls throw instead of answering.

const encoder = new TextEncoder();
const decoder = new TextDecoder();

const MAX_REQUEST_BYTES = 1 << 20;  // as the core's
const MAX_FIELDS = 64;  // members (core/src/request_fields.cc)
const LONE_SURROGATE = /\p{Cs}/u;

// The bytes of request fields, written front to back into one buffer that grows as needed and
// is kept between calls: a request per animation frame allocates only its result. (A
// TextEncoder.encode() or a typed array per value cost ~1 µs each, 30 µs a request.)
const out = {
  bytes: new Uint8Array(512),
  view: null,
  size: 0,
  // Empty again; a buffer grown for a large request is let go.
  reset() {
    if (this.bytes.length > 1 << 16) [this.bytes, this.view] = [new Uint8Array(512), null];
    this.size = 0;
  },
  room(count) {
    if (this.size + count <= this.bytes.length) return;
    const grown = new Uint8Array(Math.max(2 * this.bytes.length, this.size + count));
    grown.set(this.bytes.subarray(0, this.size));
    this.bytes = grown;
    this.view = null;
  },
  byte(value) {
    this.room(1);
    this.bytes[this.size++] = value;
  },
  varint(value) {
    for (; value > 0x7f; value >>>= 7) this.byte((value & 0x7f) | 0x80);
    this.byte(value);
  },
  float64(value) {
    this.room(8);
    this.view ??= new DataView(this.bytes.buffer);
    this.view.setFloat64(this.size, value, true);  // little-endian, as wasm reads it
    this.size += 8;
  },
  // Its UTF-8 length, then the UTF-8 (at most 3 bytes a UTF-16 unit): encoded past room for the
  // length's varint, then moved up to it.
  text(value) {
    this.room(5 + 3 * value.length);
    const start = this.size;
    const { written } = encoder.encodeInto(value, this.bytes.subarray(start + 5));
    this.varint(written);
    this.bytes.copyWithin(this.size, start + 5, start + 5 + written);
    this.size += written;
  },
};

/**
 * The request object as fields (core/src/request_fields.h): what its JSON text says, so the core
 * answers it byte for byte as it answers that text. Null when the fields cannot carry it: not an
 * object, an object or an array as a member's value or an array's element, a string with a lone
 * surrogate, more than 64 members, or more than 1 MiB.
 */
export function requestFields(request) {
  const json = JSON.stringify(request);
  // (Its UTF-8 may take 3 bytes a character: the count matters above a third of the limit.)
  if (json === undefined || (json.length > MAX_REQUEST_BYTES / 3 && encoder.encode(json).length > MAX_REQUEST_BYTES)) {
    return null;
  }
  const plain = JSON.parse(json);
  if (plain === null || typeof plain !== 'object' || Array.isArray(plain)) return null;
  const members = Object.entries(plain);
  if (members.length > MAX_FIELDS) return null;
  const scalar = (value) => {
    if (value === null || typeof value === 'boolean') {
      out.byte(value === null ? 0x6e : value ? 0x74 : 0x66);  // n, t, f
    } else if (typeof value === 'number') {
      out.byte(0x64);  // d
      out.float64(value);
      out.text(JSON.stringify(value));
    } else if (typeof value === 'string' && !LONE_SURROGATE.test(value)) {
      out.byte(0x73);  // s
      out.text(value);
    } else {
      return false;
    }
    return true;
  };
  out.reset();
  for (const [key, value] of members) {
    if (LONE_SURROGATE.test(key)) return null;
    out.text(key);
    if (Array.isArray(value)) {
      out.byte(0x61);  // a
      out.varint(value.length);
      if (!value.every(scalar)) return null;
    } else if (!scalar(value)) {
      return null;
    }
  }
  return out.size > MAX_REQUEST_BYTES ? null : out.bytes.slice(0, out.size);
}

const isText = (request) => typeof request === 'string' || request instanceof Uint8Array;
const jsonOf = (request) => (isText(request) ? request : JSON.stringify(request) ?? '');

function stopped(code) {
  return new Error(`vramcalc: the core stopped (exit ${code})`);
}

async function instantiate({ wasmBinary, module, locateFile, file = 'vramcalc.wasm' }, imports) {
  if (module) return { instance: await WebAssembly.instantiate(module, imports) };
  if (wasmBinary) return WebAssembly.instantiate(wasmBinary, imports);
  const url = locateFile ? locateFile(file) : new URL(file, import.meta.url);
  try {
    return await WebAssembly.instantiateStreaming(fetch(url, { credentials: 'same-origin' }), imports);
  } catch {
    // A server that does not say application/wasm: compile from the bytes instead.
    const response = await fetch(url, { credentials: 'same-origin' });
    if (!response.ok) throw new Error(`vramcalc: ${url} answered ${response.status}`);
    return WebAssembly.instantiate(await response.arrayBuffer(), imports);
  }
}

/**
 * @param {{wasmBinary?: BufferSource, module?: WebAssembly.Module, file?: string,
 *   locateFile?: (name: string) => string | URL}} [options]
 *   `file`: the module beside this loader (default vramcalc.wasm); `wasmBinary`: its bytes
 *   instead; `module`: it compiled already (web/boot.js).
 * @returns {Promise<{version(): string, evaluate(request: string | object): string,
 *   evaluateWithConfig(request: string | object, config: string): string,
 *   sweep(request: string): string, catalog(): string}>}
 *   evaluate(): an object as fields when they carry it (requestFields), else as its JSON.
 */
export default async function createVramcalc(options = {}) {
  let exitCode = null;
  const imports = {
    env: { emscripten_notify_memory_growth() {} },
    wasi_snapshot_preview1: {
      proc_exit(code) {
        exitCode = code;
        throw stopped(code);
      },
    },
  };
  const { instance } = await instantiate(options, imports);
  const core = instance.exports;
  core._initialize();

  // Copies `text` (a string, or its UTF-8 bytes as a Uint8Array, passed as they are) into a
  // block of the module's memory: [pointer, size in bytes].
  const argument = (text) => {
    const bytes = text instanceof Uint8Array ? text : encoder.encode(text);
    const pointer = core.vramcalc_alloc(bytes.length);
    if (pointer === 0) throw new Error('vramcalc: the core is out of memory');
    new Uint8Array(core.memory.buffer, pointer, bytes.length).set(bytes);
    return [pointer, bytes.length];
  };
  // Runs `fn` with the texts as (pointer, size) pairs and reads its answer, freeing every block.
  // A trap inside (which no input should cause) leaves the instance in no known state: it is
  // stopped, as Emscripten's own glue stops after an abort.
  const call = (fn, ...texts) => {
    if (exitCode !== null) throw stopped(exitCode);
    let answer = 0;
    let blocks = [];
    try {
      blocks = texts.map(argument);
      answer = fn(...blocks.flat());
    } catch (error) {
      exitCode ??= 'trap';
      throw error;
    }
    try {
      if (answer === 0) throw new Error('vramcalc: the core is out of memory');
      const size = new DataView(core.memory.buffer).getUint32(answer, true);
      return decoder.decode(new Uint8Array(core.memory.buffer, answer + 4, size));
    } finally {
      for (const [pointer] of blocks) core.vramcalc_free(pointer);
      if (answer) core.vramcalc_free(answer);
    }
  };

  return {
    version: () => call(core.vramcalc_version),
    evaluate: (request) => {
      const fields = isText(request) ? null : requestFields(request);
      return fields ? call(core.vramcalc_evaluate_fields, fields) : call(core.vramcalc_evaluate, jsonOf(request));
    },
    evaluateWithConfig: (request, config) => call(core.vramcalc_evaluate_with_config, jsonOf(request), config),
    sweep: (request) => call(core.vramcalc_sweep, request),
    catalog: () => call(core.vramcalc_catalog),
  };
}
