// Types of vramcalc's API (index.js). The core's full answer is documented in the project's
// wasm/README.md; the fields below are the ones a caller needs most, the rest are typed loosely.

export type Fit = 'comfortable' | 'tight' | 'no_fit';
export type Runtime = 'reference' | 'llamacpp' | 'ollama' | 'vllm' | 'sglang' | 'mlx';
export type Section =
  'model' | 'simulator' | 'curve' | 'matrix' | 'hardware' | 'related' | 'commands' | 'card' | 'offload' | 'pool' | 'serving';

/** A device of one's own: "custom:<GB>:<GB/s>[:<FP16 TFLOPS>[/<INT8 TOPS>]]:<cuda|rocm|vulkan|metal>[+unified][@<compute capability, Apple GPU family or AMD GFX version>]:<name>". */
export type CustomDeviceId = `custom:${string}`;

export interface Request {
  model?: string;                 // a catalog id, e.g. "qwen3-8b"
  format?: string;                // e.g. "Q4_K_M", "FP8", "AWQ_INT4"
  context?: number;               // tokens per sequence
  batch?: number;                 // concurrent sequences
  kv_dtype?: string;              // "fp16", "fp8", "q8_0", "q4_0"
  device?: string | CustomDeviceId;
  device_count?: number;          // identical devices in parallel, 1 to 8
  compare?: string[];             // more hardware-table rows
  runtime?: Runtime;
  memory_utilization?: number;    // vLLM, SGLang
  max_num_batched_tokens?: number;
  ubatch?: number;                // llama.cpp
  flash_attention?: boolean;
  parallel?: number;              // llama.cpp, Ollama slots
  host_memory?: number;           // GB of system RAM (default 32), for what does not fit on the GPU
  host_memory_type?: string;      // e.g. "ddr5-5600-2ch" (catalog().host_memory_types)
  host_bandwidth?: number;        // GB/s of one's own; replaces host_memory_type's
  prompt_tokens?: number;         // serving: the prompt (default 4096)
  output_tokens?: number;         // serving: the answer (default 512)
  min_user_tps?: number;          // serving: the decode rate each user gets at least (default 20)
  sections?: Section[];
}

export interface ErrorAnswer {
  ok: false;
  schema: number;
  error: { code: string; message: string; field: string };
}

export interface Simulator {
  device: string;
  runtime: Runtime;
  format: string;
  kv_dtype: string;
  context: number;
  batch: number;
  device_count: number;
  weights_gib: number;
  kv_cache_gib: number;
  state_gib: number;
  overhead_gib: number;
  total_gib: number;
  per_device_gib: number;
  capacity_gib: number;
  usage_pct: number;
  fit: Fit;
  decode_tps: number;
  max_context: number;
  max_context_capped: boolean;
  [field: string]: unknown;
}

export interface MatrixRow {
  format: string;
  label: string;
  bpw: number;
  weights_gib: number;
  total_gib: Record<string, number>;  // by context in tokens
  recommended_device: string | null;
  recommended_device_count: number | null;
}

/** linux: an APU's GTT limit, raised by `amd-ttm --set <GiB>`; macos: the wired limit, by `sudo sysctl iogpu.wired_limit_mb=<MiB>`. */
export interface GpuMap {
  os: 'linux' | 'macos'; default_gib: number; needed_gib: number; set_gib: number; set_mib: number; command: string;
}

export interface HardwareRow {
  device: string;
  name: string;
  memory_gib: number;
  bandwidth_gbps: number;
  needed_gib: number;
  usage_pct: number;
  fit: Fit;
  decode_tps: number;
  offload_decode_tps: number;     // where it does not fit under llama.cpp or Ollama: the rate of the plan that runs it; 0: none
  gpu_map: GpuMap | null;         // where the OS must let the GPU use more (a Mac's wired limit, an APU's GTT): as Response's
  [field: string]: unknown;
}

/** An estimate's error on published runs, in percent (points 0: none, unknown). */
export interface ErrorSummary { points: number; median_error_pct: number; p90_error_pct: number; worst_error_pct: number }

/** One way to split the model between the GPU and host RAM (llama.cpp's -ngl, --n-cpu-moe). */
export interface OffloadPlan {
  kind: 'layers' | 'experts';
  gpu_layers: number;
  ram_expert_layers: number;
  flags: string;                  // "-ngl 29", "-ngl 999 --n-cpu-moe 22", "-ngl 999 --cpu-moe"
  device_gib: number;
  host_gib: number;
  ram_share_pct: number;          // of the weights
  fit: Fit;                       // on the GPU
  fits_host: boolean;
  decode_tps: number;
}

/** When the model does not fit under llama.cpp or Ollama on a GPU with RAM beside it. */
export interface Offload {
  host_memory_gib: number;
  host_usable_gib: number;
  host_bandwidth_gbps: number;
  host_memory_type: string;       // "custom" for host_bandwidth
  plans: OffloadPlan[];
  chosen: number | null;          // the plan that runs, or null: none does (too little RAM)
  max_context: number;            // the longest context at which it runs, alone or with a plan; 0: none
  holdout: ErrorSummary;
  [field: string]: unknown;
}

/** A prompt and its answer on the simulator's devices (core/ESTIMATION.md section 8). */
export interface Serving {
  prompt_tokens: number;
  output_tokens: number;
  beyond_context: boolean;        // longer together than the request's context
  short_prompt: boolean;          // under 512 tokens: shorter than every calibration run, slower than shown
  // why the figures are 0, if they are: no peak compute, no prefill rule, no plan runs the model,
  // its plan keeps whole layers in RAM (not modelled), the card's host link is not known
  gap: 'none' | 'no_peak' | 'no_rule' | 'no_fit' | 'layers_in_ram' | 'no_link';
  peak_tflops: number;            // one device's dense FP16 peak
  // attention_efficiency: attention's share of the FP16 peak with flash attention (the engines'
  // default), attention_efficiency_without_fa without it (llama.cpp's -fa off); prompt_ms: a fixed
  // time per prompt, where the rule's runs time whole requests (mlx-lm, vLLM, SGLang)
  rule: ({ efficiency: number; attention_efficiency: number; attention_efficiency_without_fa: number; prompt_ms: number;
    holdout: ErrorSummary } & ErrorSummary &
    Record<string, unknown>) | null;
  rule_borrowed: boolean;         // another engine's rule: its error unknown
  rule_runtime: string;
  prefill_tps: number;            // prompt tokens per second
  ttft_s: number;                 // time to first token
  decode_tps: number;             // in the middle of the answer
  total_s: number;                // the prompt and the answer
  // The model runs with the experts of ram_expert_layers layers in RAM (section 8.3): copy_s of
  // the prompt's time copies them over the host link; no concurrency then.
  offload: { ram_expert_layers: number; copy_s: number; link_gbps: number; link_efficiency: number;
    error: ErrorSummary; holdout: ErrorSummary } | null;
  concurrency: { sequences: number; per_user_tps: number; aggregate_tps: number; compute_bound: boolean }[];
  max_sequences: number;          // the most sequences of the prompt and answer the memory admits
  min_user_tps: number;
  users_at_min_tps: number;       // how many get min_user_tps or more each
}

export interface Answer {
  ok: true;
  schema: number;
  model?: Record<string, unknown>;
  simulator?: Simulator;
  curve?: unknown[];
  matrix?: MatrixRow[];
  hardware?: HardwareRow[];
  related?: unknown[];
  commands?: unknown[];
  card?: { checkpoint: string; ollama_tag: string; ollama_tag_weights: string; release: string };
  offload?: Offload | null;
  ways?: Record<string, unknown> | null;
  // A unified-memory GPU that may use less of the RAM by default than the model needs (a Strix Halo
  // under Linux, where it fits; a Mac under an engine, where it fits only once raised): what it uses,
  // what it must use, the value to set and the command; with the offload section
  gpu_map?: GpuMap | null;
  pool?: Record<string, unknown> | null;
  serving?: Serving | null;
}

export interface SweepRequest {
  context?: number;
  batch?: number;
  kv_dtype?: string;
  runtime?: Runtime;
  device?: string | CustomDeviceId;
  compare?: string[];
  device_count?: number;
}

/** Flat arrays indexed (model × formats + format) × devices + device. */
export interface SweepAnswer {
  ok: true;
  schema: number;
  context: number;
  batch: number;
  kv_dtype: string;
  runtime: Runtime;
  device_count: number;
  models: string[];
  max_position: number[];         // each model's own maximum context
  formats: string[];
  devices: string[];
  fit_ids: Fit[];
  total_gib: number[];
  fit: number[];                  // indexes into fit_ids
  decode_tps: number[];
  max_context: number[];          // at most the model's maximum
  max_context_capped: number[];   // 1: memory would allow more
  ttft_s: number[];               // first token of a prompt of the whole context; 0: no estimate
  gpu_mapped_gib: number[];       // per device: what an APU's GPU maps by default (0: all of it)
  gpu_map_cells: number[];        // cells whose OS must let the GPU use more, ascending (Response's gpu_map)
  gpu_map_set_gib: number[];      // per such cell: amd-ttm --set's GiB (an APU under Linux), else 0
  gpu_map_set_mib: number[];      // per such cell: iogpu.wired_limit_mb's MiB (a Mac, "no_fit" until raised), else 0
  gpu_map_commands: string[];     // per such cell: the command that sets it
}

export interface Catalog {
  ok: true;
  schema: number;
  models: Array<{ id: string; name: string; family: string; params_total: number; moe: boolean }>;
  devices: Array<{ id: string; name: string; memory_gib: number; bandwidth_gbps: number; vendor: string; platform: string; [field: string]: unknown }>;
  formats: Array<{ id: string; label: string; bpw: number; moe_only: boolean; [field: string]: unknown }>;
  runtimes: Array<{ id: Runtime; formats: string[]; kv_dtypes: string[]; [field: string]: unknown }>;
  langs: string[];
  [field: string]: unknown;
}

/** `request` as an object, or its JSON text (a string, or UTF-8 bytes). */
export function evaluate(request?: Request | string | Uint8Array, config?: string | object): Promise<Answer | ErrorAnswer>;
export function sweep(request?: SweepRequest): Promise<SweepAnswer | ErrorAnswer>;
export function catalog(): Promise<Catalog | ErrorAnswer>;
export function version(): Promise<string>;

/** One tensor role of an imported model: its bytes, tensors and parameters. */
export interface ImportLine { role: string; bytes: number; tensors: number; params: number }

export interface ImportAnswer {
  ok: true;
  description: Record<string, unknown>;  // {"schema": "vramcalc.model/1", …}: evaluate({model: description})
  file_type: string;                      // the file's own type, e.g. "Q3_K_S"
  format: { id: string; exact: boolean; note: string };
  files: Array<{ path: string; kind: 'gguf' | 'mmproj' | 'safetensors' | 'index' | 'config' }>;
  lines: ImportLine[];                    // vision and MTP on lines of their own
  total_bytes: number;
  params_total: number;                   // the language model's
  origin: { kind: 'hub' | 'local'; host: string; repo: string | null; revision: string | null };
}

export interface ImportError { ok: false; error: { field: string; message: string; choices?: string[] } }

/** A Hugging Face repo id or link, {repo, revision, file}, or local files (headers only). */
export function importModel(source: string | { repo: string; revision?: string | null; file?: string | null } | Iterable<Blob & { name: string }>,
  options?: { hubUrl?: string; fetch?: typeof fetch }): Promise<ImportAnswer | ImportError>;
