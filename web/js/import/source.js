// What a user types to import a model: a Hugging Face repo id or a link to a repository, a
// revision or a file. Parsed here, without any request; bad input is an answer, never a throw.

/** The Hub the import asks, unless a caller (a test) names another. */
export const DEFAULT_HUB_URL = 'https://huggingface.co';

// The hosts whose links are read: the Hub and its short domain.
const HUB_HOSTS = new Set(['huggingface.co', 'www.huggingface.co', 'hf.co']);

// A repo id's two parts: letters, digits, "-", "_" and "." (the Hub's rule; at most 96 each).
const NAME_PART = /^[A-Za-z0-9][A-Za-z0-9._-]{0,95}$/;

// The files a link may name: weights the import reads, or config.json (then the repository).
const WEIGHT_FILE = /\.(gguf|safetensors|safetensors\.index\.json)$/i;
const CONFIG_FILE = /(^|\/)config\.json$/;

const USAGE = 'Enter a Hugging Face model as owner/name (e.g. Qwen/Qwen3-8B) or a huggingface.co link to the '
  + 'repository, a revision (…/tree/<revision>) or a .gguf or .safetensors file (…/blob/… or …/resolve/…).';

function refuse(message) {
  return { ok: false, error: { field: 'source', message } };
}

function validName(part) {
  return NAME_PART.test(part) && !part.includes('..') && !part.endsWith('.');
}

/** The link's URL, or null when the text is not one (a scheme is optional for the Hub's hosts). */
function linkOf(text) {
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `https://${text}`;
  try {
    return new URL(withScheme);
  } catch {
    return null;
  }
}

function decoded(parts) {
  try {
    return parts.map((part) => decodeURIComponent(part));
  } catch {
    return null;
  }
}

/** The parts after the host: owner, name, and then tree|blob|resolve|raw, the revision, a path. */
function fromPath(parts, hubUrl) {
  const [owner, name, kind, revision, ...rest] = parts;
  if (['datasets', 'spaces', 'buckets'].includes(owner)) return refuse('Only model repositories can be imported, not datasets or Spaces.');
  if (!owner || !name || !validName(owner) || !validName(name)) return refuse(USAGE);
  const source = { repo: `${owner}/${name}`, revision: null, file: null, folder: null, hubUrl };
  if (kind === undefined) return { ok: true, source };
  if (!revision || !['tree', 'blob', 'resolve', 'raw'].includes(kind)) return refuse(USAGE);
  source.revision = revision;
  const path = rest.join('/');
  if (rest.some((part) => part === '..' || part === '.')) return refuse(USAGE);
  if (kind === 'tree') return { ok: true, source: { ...source, folder: path || null } };
  if (!path) return refuse(USAGE);
  if (CONFIG_FILE.test(path)) return { ok: true, source };
  if (!WEIGHT_FILE.test(path)) {
    return refuse(`"${path.slice(-80)}" is neither a GGUF nor a safetensors file: link a .gguf or .safetensors file, or the repository.`);
  }
  return { ok: true, source: { ...source, file: path } };
}

/**
 * Reads what the user typed.
 * @param {string} text  "owner/name", or a link on huggingface.co or hf.co (with or without
 *   https://): the repository, …/tree/<rev>[/<folder>], …/blob|resolve|raw/<rev>/<file>
 * @param {{hubUrl?: string}} [options]  another Hub whose links are accepted too (the tests' offline Hub)
 * @returns {{ok: true, source: {repo: string, revision: string|null, file: string|null,
 *            folder: string|null, hubUrl: string}} |
 *           {ok: false, error: {field: 'source', message: string}}}
 *   `revision` null means the default branch; `file` a path in the repository (.gguf,
 *   .safetensors or .safetensors.index.json); `folder` a directory a tree link names; `hubUrl`
 *   the Hub to ask.
 */
export function parseSource(text, { hubUrl = DEFAULT_HUB_URL } = {}) {
  const trimmed = typeof text === 'string' ? text.trim() : '';
  if (trimmed === '') return refuse(USAGE);
  if (trimmed.length > 2048) return refuse('That is too long for a Hugging Face link.');
  const pieces = trimmed.split('/');
  // owner/name: an owner has no dot (a host has), and neither part a colon.
  if (pieces.length === 2 && !pieces[0].includes('.') && !trimmed.includes(':')) return fromPath(pieces, hubUrl);
  if (!/[.:]/.test(pieces[0])) return refuse(USAGE);
  const link = linkOf(trimmed);
  if (!link) return refuse(USAGE);
  const injected = new URL(hubUrl).origin;
  if (link.origin !== injected && !(HUB_HOSTS.has(link.hostname.toLowerCase()) && /^https?:$/.test(link.protocol))) {
    const host = HUB_HOSTS.has(link.hostname.toLowerCase()) ? `${link.protocol}//${link.hostname}` : link.hostname;
    return refuse(`Only https links to huggingface.co and hf.co can be imported; ${host || 'this link'} is not one.`);
  }
  const parts = decoded(link.pathname.split('/').filter(Boolean));
  return parts ? fromPath(parts, hubUrl) : refuse(USAGE);
}
