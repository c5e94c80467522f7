// The core's loader: instantiates vramcalc.wasm, or vramcalc-full.wasm (the same with the
// config.json importer), and gives their C functions (bindings.cc) back as string functions.
// Hand-written in place of Emscripten's generated glue: the modules are standalone wasm that
// import two functions, so this is all the JS they need.
//
//   const core = await createVramcalc();        // a browser: fetches vramcalc.wasm beside this file
//   const full = await createVramcalc({ file: 'vramcalc-full.wasm' });  // reads config.json files too
//   const core = await createVramcalc({ wasmBinary: bytes });   // Node, or the single file
//   JSON.parse(core.evaluate('{"model": "qwen3-8b"}'));
//
// Every function takes strings (or Uint8Arrays of UTF-8, given to the core byte for byte) and
// returns strings; errors are inside the returned JSON. A trap (which no request should cause)
// stops the instance: later calls throw instead of answering.

const encoder = new TextEncoder();
const decoder = new TextDecoder();

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
 * @returns {Promise<{version(): string, evaluate(request: string): string,
 *   evaluateWithConfig(request: string, config: string): string, sweep(request: string): string,
 *   catalog(): string}>}
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
    evaluate: (request) => call(core.vramcalc_evaluate, request),
    evaluateWithConfig: (request, config) => call(core.vramcalc_evaluate_with_config, request, config),
    sweep: (request) => call(core.vramcalc_sweep, request),
    catalog: () => call(core.vramcalc_catalog),
  };
}
