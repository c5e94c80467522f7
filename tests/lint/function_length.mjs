// Lists every function longer than the project's limit ("Functions stay under 60 lines") in
// core/ and wasm/ (C++: *.h, *.cc) and web/ and wasm/ (JavaScript: *.js, *.mjs, but not the
// build scripts in web/tools/), longest first, then a summary, and exits 1 when any is too long.
//
//   node tests/lint/function_length.mjs [--max 60] [--top N]
//
// --max sets the limit (a function of exactly --max lines passes); --top N also lists the N
// longest functions, over the limit or not, as a report of what is next in line. The exit
// status is 2 when the arguments are wrong or a file cannot be parsed.
//
// A function's length is counted from the line where its signature starts through the line of
// its closing brace, both included, so blank and comment lines inside count as a reader sees
// them. In C++ the signature starts at the function's name, with its qualification (the `Foo`
// of `Foo::Bar`, or `operator`): a return type or template header on an earlier line is not
// counted. In JavaScript it starts at the `function` keyword (or the `async` before it), at a
// method's name, or at an arrow function's parameters. A function nested in another is listed
// on its own and also counts toward its parent's length, since the reader has to read it there.
//
// C++ is read with the small tokenizer below rather than a compiler front end, which the
// project does not want to depend on. It skips comments, string and character literals
// (escapes included), raw strings (R"vc(...)vc") and preprocessor lines (continuations
// included), then looks at every `{` outside function bodies. A function body is a `{` after
// a parameter list's `)`, optionally followed by qualifiers (const, noexcept, override, final,
// &, &&), a trailing return type or a constructor's member-initializer list. Member functions
// defined in class bodies count, and so does a macro used like a definition, such as
// EMSCRIPTEN_BINDINGS(name) { ... }. Namespace, extern "C", class, struct, union and enum
// bodies and brace initializers are not functions. Lambdas inside a function are part of its
// length and not listed on their own; a lambda at namespace or class scope is listed only when
// it is assigned straight to a variable (`auto kF = [](int x) {`), under the variable's name,
// because that is the one case where it reads like a function definition. Known limits: #if
// branches are both read and macros are not expanded, so a signature split across #if/#else
// or hidden in a macro can be misread; function-try-blocks and requires-clauses are not
// recognised. None of these occur in the project today.
//
// JavaScript is parsed by acorn as ES modules. Function declarations and expressions, arrow
// functions with a block body, and class and object methods (private, static, getters and
// setters included) count; an arrow with an expression body is a single expression and does
// not. Before any file is read, the build's @NAME@ placeholders (web/sw.js is a template the
// build fills in) are replaced by 0, which keeps every line where it was.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import * as acorn from 'acorn';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

// ---- C++: tokenizer ------------------------------------------------------------------------

const RAW_PREFIXES = new Set(['R', 'LR', 'uR', 'UR', 'u8R']);
const QUOTE_PREFIXES = new Set(['L', 'u', 'U', 'u8']);
// `>>` is deliberately not one token: it closes two template argument lists as often as it
// shifts, and only the former matters here.
const PUNCTUATORS = ['<=>', '<<=', '->*', '...', '::', '->', '&&', '||', '==', '!=', '<=', '>=',
  '+=', '-=', '*=', '/=', '%=', '&=', '|=', '^=', '<<', '++', '--', '.*'];

/** The C++ tokens of `text` as {type: 'ident'|'number'|'string'|'punct', text, line}. */
export function tokenizeCpp(text) {
  const lexer = { text, pos: 0, line: 1, lineStart: true, directive: false, tokens: [] };
  while (lexer.pos < text.length) lexOne(lexer);
  return lexer.tokens;
}

// Consumes one piece of the input: whitespace, a comment, a line splice or a token. Tokens
// of a preprocessor directive are read like any others, so that a comment or string in one
// is skipped correctly, and dropped; the directive ends at the first newline that is not
// spliced away.
function lexOne(lexer) {
  const { text } = lexer;
  const c = text[lexer.pos];
  const pair = text.slice(lexer.pos, lexer.pos + 2);
  if (c === '\n') {
    Object.assign(lexer, { line: lexer.line + 1, pos: lexer.pos + 1, lineStart: true, directive: false });
  } else if (c === '\\' && /^\\\r?\n/.test(text.slice(lexer.pos, lexer.pos + 3))) {
    lexer.pos = text.indexOf('\n', lexer.pos) + 1;
    lexer.line += 1;
  } else if (/\s/.test(c)) {
    lexer.pos += 1;
  } else if (pair === '//') {
    skipLineComment(lexer);
  } else if (pair === '/*') {
    const end = text.indexOf('*/', lexer.pos + 2);
    skipTo(lexer, end < 0 ? text.length : end + 2);
  } else if (c === '#' && lexer.lineStart) {
    lexer.directive = true;
    lexer.lineStart = false;
    lexer.pos += 1;
  } else {
    lexer.lineStart = false;
    const token = readToken(lexer);
    if (!lexer.directive) lexer.tokens.push(token);
  }
}

// Advances to `end`, counting the newlines passed over.
function skipTo(lexer, end) {
  for (let i = lexer.pos; i < end; i += 1) if (lexer.text[i] === '\n') lexer.line += 1;
  lexer.pos = end;
}

// A // comment runs to the end of the line, and past it when the line ends in a backslash.
function skipLineComment(lexer) {
  let end = lexer.text.indexOf('\n', lexer.pos);
  while (end > 0 && /\\\r?$/.test(lexer.text.slice(end - 2, end))) end = lexer.text.indexOf('\n', end + 1);
  skipTo(lexer, end < 0 ? lexer.text.length : end);
}

function readToken(lexer) {
  const { text, pos, line } = lexer;
  const rest = text.slice(pos, pos + 3);
  let end;
  let type = 'punct';
  const word = /^[A-Za-z_$][\w$]*/.exec(text.slice(pos, pos + 256));
  if (word && text[pos + word[0].length] === '"' && RAW_PREFIXES.has(word[0])) {
    end = rawStringEnd(text, pos + word[0].length);
    type = 'string';
  } else if (word && /["']/.test(text[pos + word[0].length] ?? '') && QUOTE_PREFIXES.has(word[0])) {
    end = quotedEnd(text, pos + word[0].length);
    type = 'string';
  } else if (word) {
    end = pos + word[0].length;
    type = 'ident';
  } else if (/^(\d|\.\d)/.test(rest)) {
    // A pp-number: digits, letters, dots, exponent signs and ' digit separators (1'000).
    end = pos + /^\.?\d(?:[eEpP][+-]|'\w|[\w.])*/.exec(text.slice(pos, pos + 256))[0].length;
    type = 'number';
  } else if (rest[0] === '"' || rest[0] === "'") {
    end = quotedEnd(text, pos);
    type = 'string';
  } else {
    end = pos + (PUNCTUATORS.find((p) => rest.startsWith(p)) ?? rest[0]).length;
  }
  const token = { type, text: text.slice(pos, end), line };
  skipTo(lexer, end);
  return token;
}

// The end of a "..." or '...' literal whose quote is at `pos`; a backslash escapes the next
// character. An unterminated literal ends at the end of its line, as the compiler would say.
function quotedEnd(text, pos) {
  const quote = text[pos];
  let i = pos + 1;
  while (i < text.length && text[i] !== quote && text[i] !== '\n') i += text[i] === '\\' ? 2 : 1;
  return Math.min(i + 1, text.length);
}

// The end of a raw string R"delim( ... )delim" whose opening quote is at `pos`: nothing inside,
// not even a backslash or a quote, ends it before `)delim"`.
function rawStringEnd(text, pos) {
  const open = text.indexOf('(', pos);
  const delimiter = text.slice(pos + 1, open);
  if (open < 0 || delimiter.length > 16 || /[\s\\()]/.test(delimiter)) return quotedEnd(text, pos);
  const close = text.indexOf(`)${delimiter}"`, open + 1);
  return close < 0 ? text.length : close + delimiter.length + 2;
}

// ---- C++: finding function definitions -------------------------------------------------

const QUALIFIERS = new Set(['const', 'volatile', 'noexcept', 'override', 'final', '&', '&&']);
const NOT_NAMES = new Set(['if', 'for', 'while', 'switch', 'catch', 'return', 'sizeof',
  'decltype', 'alignas', 'alignof', 'static_assert', 'noexcept', 'throw', 'requires']);
const CLASS_KEYS = new Set(['class', 'struct', 'union']);

/** The functions defined in C++ source `text` as [{name, line, lines}], in source order. */
export function measureCpp(text) {
  const tokens = tokenizeCpp(text);
  const found = [];
  // A stray `}` ends the outermost scope early; reading on keeps the rest of the file.
  for (let i = 0; i < tokens.length;) i = scanScope(tokens, i, found);
  return found;
}

// Reads the declarations of one file, namespace or class scope from tokens[i] and returns the
// index just past its closing brace. `head` collects the tokens of the declaration being read
// since the last `;`, `}` or access label. A brace group inside a head (a braced argument, a
// member's brace initializer) stays in it as one '{}' token, so the head can go on after it;
// any other brace group that is no function body also ends the head, so that a head this
// script cannot read does not spoil the next one.
function scanScope(tokens, i, found) {
  let head = [];
  while (i < tokens.length) {
    const token = tokens[i];
    if (token.text === '}') return i + 1;
    if (token.text === ';' || isAccessLabel(head, token)) {
      head = [];
      i += 1;
    } else if (token.text !== '{') {
      head.push(token);
      i += 1;
    } else {
      const kind = classify(head);
      if (kind.scope) {
        i = scanScope(tokens, i + 1, found);
        head = [];
        continue;
      }
      const close = matchingBrace(tokens, i);
      if (kind.name) found.push({ name: kind.name, line: kind.line, lines: tokens[close].line - kind.line + 1 });
      head = kind.inHead ? [...head, { type: 'braces', text: '{}', line: token.line }] : [];
      i = close + 1;
    }
  }
  return i;
}

function isAccessLabel(head, token) {
  return token.text === ':' && head.length === 1 && /^(public|protected|private)$/.test(head[0].text);
}

// The index of the `}` that closes the `{` at tokens[i] (the last token when none does).
function matchingBrace(tokens, i) {
  let depth = 0;
  for (let k = i; k < tokens.length; k += 1) {
    if (tokens[k].text === '{') depth += 1;
    else if (tokens[k].text === '}' && --depth === 0) return k;
  }
  return tokens.length - 1;
}

// What the `{` after the declaration tokens `head` opens: {scope: true} for a namespace,
// extern "C" or class body, {name, line} for a function body, {inHead: true} for braces
// within a head, {} for anything else.
function classify(head) {
  if (depthBefore(head, head.length) > 0) return { inHead: true };  // f(Foo{1}) or f(Opts o = {}).
  const decl = withoutTemplateHeader(head);
  if (decl.some((t) => t.text === 'namespace')) return { scope: true };
  if (decl.length === 2 && decl[0].text === 'extern' && decl[1].type === 'string') return { scope: true };
  const colon = initializerListColon(decl);
  // Within a member-initializer list, a `{` after a name is that member's brace initializer.
  if (colon >= 0 && (decl.at(-1).type === 'ident' || decl.at(-1).text === '>')) return { inHead: true };
  const equals = decl.findIndex((t, k) =>
    t.text === '=' && decl[k - 1]?.text !== 'operator' && depthBefore(decl, k) === 0);
  if (equals >= 0) {
    const variable = decl[equals - 1];
    const isLambda = decl[equals + 1]?.text === '[' && variable?.type === 'ident';
    return isLambda ? { name: variable.text, line: variable.line } : {};
  }
  const fn = functionName(decl, colon);
  if (fn) return fn;
  const isClass = decl.some((t) => CLASS_KEYS.has(t.text)) && !decl.some((t) => t.text === 'enum');
  return isClass ? { scope: true } : {};
}

// How many ( and [ are open before tokens[end].
function depthBefore(tokens, end) {
  let depth = 0;
  for (let k = 0; k < end; k += 1) {
    if (tokens[k].text === '(' || tokens[k].text === '[') depth += 1;
    else if (tokens[k].text === ')' || tokens[k].text === ']') depth -= 1;
  }
  return depth;
}

// `head` without any leading `template <...>` headers, whose default arguments may hold `=`,
// `class` or parentheses that say nothing about what follows.
function withoutTemplateHeader(head) {
  let start = 0;
  while (head[start]?.text === 'template' && head[start + 1]?.text === '<') {
    let k = start + 1;
    for (let angles = 0; k < head.length; k += 1) {
      if (depthBefore(head, k) > depthBefore(head, start)) continue;  // `<` in (...) compares.
      if (head[k].text === '<') angles += 1;
      else if (head[k].text === '>' && --angles === 0) break;
    }
    start = k + 1;
  }
  return head.slice(start);
}

// The index of the `:` that starts a constructor's member-initializer list (the first `:` at
// depth 0 that follows a parameter list and its qualifiers), or -1.
function initializerListColon(decl) {
  const colon = decl.findIndex((t, k) => t.text === ':' && depthBefore(decl, k) === 0);
  if (colon < 0) return -1;
  let k = colon - 1;
  while (k >= 0 && QUALIFIERS.has(decl[k].text)) k -= 1;
  return decl[k]?.text === ')' ? colon : -1;
}

// {name, line} when `decl` ends like a function head: a parameter list, then qualifiers and
// maybe a trailing return type or member-initializer list (from `colon`); else null.
function functionName(decl, colon) {
  let end = colon >= 0 ? colon : decl.length;
  const arrow = decl.findIndex((t, k) =>
    t.text === '->' && k < end && decl[k - 1]?.text !== 'operator' && depthBefore(decl, k) === 0);
  if (arrow >= 0) end = arrow;
  for (;;) {
    const last = decl[end - 1];
    if (last && QUALIFIERS.has(last.text)) {
      end -= 1;
    } else if (last?.text === ')' && /^(noexcept|throw)$/.test(decl[openingParen(decl, end - 1) - 1]?.text)) {
      end = openingParen(decl, end - 1) - 1;
    } else {
      break;
    }
  }
  if (decl[end - 1]?.text !== ')') return null;
  return nameBefore(decl, openingParen(decl, end - 1));
}

// The index of the `(` that the `)` at decl[close] closes.
function openingParen(decl, close) {
  let depth = 0;
  for (let k = close; k >= 0; k -= 1) {
    if (decl[k].text === ')') depth += 1;
    else if (decl[k].text === '(' && --depth === 0) return k;
  }
  return 0;
}

// The qualified name written before the parameter list that opens at decl[open]: `Bar`,
// `Foo::Bar`, `Foo::~Foo`, `operator==`, `operator()`, `operator bool`; template arguments
// (`f<int>`) are left out. Null when what precedes is no name (a keyword, a lambda's `]`).
function nameBefore(decl, open) {
  let last = open - 1;
  let first = decl.slice(Math.max(0, last - 3), last + 1).findLastIndex((t) => t.text === 'operator');
  if (first >= 0) {
    first += Math.max(0, last - 3);
  } else {
    if (decl[last]?.text === '>') last = skipTemplateArguments(decl, last) - 1;
    if (decl[last]?.type !== 'ident' || NOT_NAMES.has(decl[last].text)) return null;
    first = decl[last - 1]?.text === '~' ? last - 1 : last;
  }
  for (;;) {
    let k = first - 2;
    if (decl[first - 1]?.text === 'operator') {  // A conversion: operator std::string().
      first -= 1;
      continue;
    }
    if (decl[first - 1]?.text !== '::') break;
    if (decl[k]?.text === '>') k = skipTemplateArguments(decl, k) - 1;
    if (decl[k]?.type !== 'ident') break;
    first = k;
  }
  const words = decl.slice(first, last + 1);
  const name = words.map((t, k) =>
    (k > 0 && t.type === 'ident' && words[k - 1].type === 'ident' ? ' ' : '') + t.text);
  // A qualifier's template arguments (`Foo<T>::Bar`) are left out too.
  return { name: name.join('').replace(/<.*?>(?=::)/g, ''), line: decl[first].line };
}

// The index of the `<` that opens the template argument list closed by the `>` at decl[close].
function skipTemplateArguments(decl, close) {
  let depth = 0;
  for (let k = close; k >= 0; k -= 1) {
    if (decl[k].text === '>') depth += 1;
    else if (decl[k].text === '<' && --depth === 0) return k;
  }
  return 0;
}

// ---- JavaScript ------------------------------------------------------------------------

/** The functions defined in JavaScript module `text` as [{name, line, lines}], in source order. */
export function measureJs(text) {
  const program = acorn.parse(text, { ecmaVersion: 'latest', sourceType: 'module', locations: true });
  const found = [];
  visitJs(program, null, { owner: null, className: null }, found);
  return found.sort((a, b) => a.line - b.line);
}

// Visits `node` and everything under it. `context` carries the name of the function the node
// is in (`owner`, for naming anonymous callbacks) and of the class it is in.
function visitJs(node, parent, context, found) {
  let inner = context;
  if (node.type === 'ClassDeclaration' || node.type === 'ClassExpression') {
    inner = { ...context, className: node.id?.name ?? bindingName(parent) ?? '<class>' };
  } else if (isCountedFunction(node)) {
    const name = jsFunctionName(node, parent, context);
    const line = (isMethod(parent) ? parent.key : node).loc.start.line;
    found.push({ name, line, lines: node.loc.end.line - line + 1 });
    // An anonymous callback is named after the nearest named function around it.
    if (!name.startsWith('<')) inner = { ...context, owner: name };
  }
  for (const value of Object.values(node)) {
    for (const child of Array.isArray(value) ? value : [value]) {
      if (typeof child?.type === 'string') visitJs(child, node, inner, found);
    }
  }
}

function isCountedFunction(node) {
  return node.type === 'FunctionDeclaration' || node.type === 'FunctionExpression' ||
    (node.type === 'ArrowFunctionExpression' && node.body.type === 'BlockStatement');
}

// A class method, or an object literal's method, getter or setter: its signature starts at
// its name, not at the parameter list where acorn's function node begins.
function isMethod(parent) {
  return parent?.type === 'MethodDefinition' ||
    (parent?.type === 'Property' && (parent.method || parent.kind !== 'init'));
}

// `start`, `VramCalculator.#render`, `VramCalculator.get value`, `state.onChange` for
// `state.onChange = () => {`, `<arrow in renderPlot>` for an anonymous callback in a function,
// or `<arrow passed to self.addEventListener>` for one at the top level.
function jsFunctionName(node, parent, context) {
  if (node.id) return node.id.name;
  const accessor = parent.kind === 'get' || parent.kind === 'set' ? `${parent.kind} ` : '';
  if (parent.type === 'MethodDefinition' || parent.type === 'PropertyDefinition') {
    return `${context.className}.${accessor}${keyName(parent.key)}`;
  }
  if (parent.type === 'Property') return `${accessor}${keyName(parent.key)}`;
  const binding = bindingName(parent);
  if (binding) return binding;
  const kind = node.type === 'ArrowFunctionExpression' ? 'arrow' : 'function';
  if (context.owner) return `<${kind} in ${context.owner}>`;
  const callee = /^(Call|New)Expression$/.test(parent.type) && expressionName(parent.callee);
  const call = parent.type === 'NewExpression' ? `new ${callee}` : callee;
  return callee ? `<${kind} passed to ${call}>` : `<${kind}>`;
}

function keyName(key) {
  if (key.type === 'PrivateIdentifier') return `#${key.name}`;
  if (key.type === 'Identifier') return key.name;
  return key.type === 'Literal' ? String(key.value) : '[computed]';
}

// The name a function or class expression is given by where it stands: `const x = ...`,
// `a.b = ...`, a default parameter value, or `export default`.
function bindingName(parent) {
  if (parent?.type === 'VariableDeclarator' || parent?.type === 'AssignmentPattern') {
    return expressionName(parent.id ?? parent.left);
  }
  if (parent?.type === 'AssignmentExpression') return expressionName(parent.left);
  return parent?.type === 'ExportDefaultDeclaration' ? 'default' : null;
}

function expressionName(node) {
  if (node.type === 'Identifier') return node.name;
  if (node.type === 'ThisExpression') return 'this';
  if (node.type !== 'MemberExpression' || node.computed) return null;
  const object = expressionName(node.object);
  return object && `${object}.${keyName(node.property)}`;
}

// ---- The tree and the command line --------------------------------------------------------

const SOURCES = [
  { dir: 'core', pattern: /\.(h|cc)$/, language: 'C++', measure: measureCpp },
  { dir: 'wasm', pattern: /\.(h|cc)$/, language: 'C++', measure: measureCpp },
  { dir: 'wasm', pattern: /\.mjs$/, language: 'JavaScript', measure: measureJs },
  { dir: 'web', pattern: /\.m?js$/, language: 'JavaScript', measure: measureJs, skip: /^web\/tools\// },
];

/**
 * Every function in the project's sources under `root`, as
 * {functions: [{path, language, name, line, lines}], files: {language: count}}.
 */
export function measureTree(root = ROOT) {
  const functions = [];
  const files = {};
  for (const { dir, pattern, language, measure, skip } of SOURCES) {
    const paths = readdirSync(path.join(root, dir), { recursive: true })
      .map((file) => path.posix.join(dir, file.split(path.sep).join('/')))
      .filter((file) => pattern.test(file) && !skip?.test(file))
      .sort();
    for (const file of paths) {
      const text = readFileSync(path.join(root, file), 'utf8').replace(/@[A-Z][A-Z0-9_]*@/g, '0');
      let measured;
      try {
        measured = measure(text);
      } catch (error) {
        throw new Error(`${file}: ${error.message}`);
      }
      for (const fn of measured) functions.push({ path: file, language, ...fn });
      files[language] = (files[language] ?? 0) + 1;
    }
  }
  return { functions, files };
}

function format(fn) {
  return `${fn.path}:${fn.line}  ${fn.name}  ${fn.lines} lines`;
}

function main() {
  const options = { max: { type: 'string', default: '60' }, top: { type: 'string', default: '0' } };
  const { values } = parseArgs({ options });
  const [max, top] = [values.max, values.top].map(Number);
  if (!Number.isInteger(max) || !Number.isInteger(top) || max < 1 || top < 0) {
    console.error('usage: node tests/lint/function_length.mjs [--max 60] [--top N]');
    return 2;
  }
  const { functions, files } = measureTree();
  const longest = functions.toSorted((a, b) =>
    b.lines - a.lines || a.path.localeCompare(b.path) || a.line - b.line);
  const over = longest.filter((fn) => fn.lines > max);
  for (const fn of over) console.log(format(fn));
  if (top > 0) {
    const gap = over.length > 0 ? '\n' : '';
    console.log(`${gap}The ${Math.min(top, longest.length)} longest functions, over the limit or not:`);
    for (const fn of longest.slice(0, top)) console.log(format(fn));
  }
  const checked = Object.entries(files).map(([language, count]) =>
    `${functions.filter((fn) => fn.language === language).length} ${language} functions in ${count} files`);
  console.log(`Checked ${checked.join(' and ')}: ${over.length} longer than ${max} lines.`);
  return over.length > 0 ? 1 : 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  try {
    process.exitCode = main();
  } catch (error) {
    console.error(`function_length: ${error.message}`);
    process.exitCode = 2;
  }
}
