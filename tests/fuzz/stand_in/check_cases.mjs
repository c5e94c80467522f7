// Works out again, with JavaScript itself, each case the stand-in for emscripten::val answered
// (cases.cc, whose program is the argument): Number.prototype.toString, JSON.stringify of strings
// and of objects made member by member, Emscripten 3.1.6's stringToUTF8Array (copied below from
// its src/runtime_strings.js) and Embind's std::string reading through TextDecoder. Exits 1 on
// the first ten differences, listed.
//
//   node tests/fuzz/stand_in/check_cases.mjs build-sanitize/tests/stand_in_cases
import { execFileSync } from 'node:child_process';

// Emscripten 3.1.6, src/runtime_strings.js, as it is (ASSERTIONS and CAN_ADDRESS_2GB off).
function stringToUTF8Array(str, heap, outIdx, maxBytesToWrite) {
  if (!(maxBytesToWrite > 0)) return 0;
  var startIdx = outIdx;
  var endIdx = outIdx + maxBytesToWrite - 1;
  for (var i = 0; i < str.length; ++i) {
    var u = str.charCodeAt(i);
    if (u >= 0xD800 && u <= 0xDFFF) {
      var u1 = str.charCodeAt(++i);
      u = 0x10000 + ((u & 0x3FF) << 10) | (u1 & 0x3FF);
    }
    if (u <= 0x7F) {
      if (outIdx >= endIdx) break;
      heap[outIdx++] = u;
    } else if (u <= 0x7FF) {
      if (outIdx + 1 >= endIdx) break;
      heap[outIdx++] = 0xC0 | (u >> 6);
      heap[outIdx++] = 0x80 | (u & 63);
    } else if (u <= 0xFFFF) {
      if (outIdx + 2 >= endIdx) break;
      heap[outIdx++] = 0xE0 | (u >> 12);
      heap[outIdx++] = 0x80 | ((u >> 6) & 63);
      heap[outIdx++] = 0x80 | (u & 63);
    } else {
      if (outIdx + 3 >= endIdx) break;
      heap[outIdx++] = 0xF0 | (u >> 18);
      heap[outIdx++] = 0x80 | ((u >> 12) & 63);
      heap[outIdx++] = 0x80 | ((u >> 6) & 63);
      heap[outIdx++] = 0x80 | (u & 63);
    }
  }
  heap[outIdx] = 0;
  return outIdx - startIdx;
}

const decoder = new TextDecoder('utf8');  // TEXTDECODER=2: Emscripten's UTF8Decoder

// Embind's std::string fromWireType: each run between NUL bytes through the decoder alone.
function embindString(bytes) {
  let out;
  let start = 0;
  for (let i = 0; i <= bytes.length; ++i) {
    if (i === bytes.length || bytes[i] === 0) {
      const run = decoder.decode(bytes.subarray(start, i));
      out = out === undefined ? run : out + String.fromCharCode(0) + run;
      start = i + 1;
    }
  }
  return out;
}

function utf8(text) {
  const heap = new Uint8Array(text.length * 4 + 1);
  return Buffer.from(heap.subarray(0, stringToUTF8Array(text, heap, 0, heap.length))).toString('hex');
}

const unitsOf = (text) => JSON.stringify(Array.from({ length: text.length }, (_, i) => text.charCodeAt(i)));
const textOf = (units) => String.fromCharCode(...units);

// What JavaScript answers the case, beside what the stand-in answered.
function answers(c) {
  if (c.number !== undefined) {
    const x = new Float64Array(new BigUint64Array([BigInt(`0x${c.number}`)]).buffer)[0];
    return [['Number.prototype.toString', String(x), c.text]];
  }
  if (c.units) {
    const text = textOf(c.units);
    return [['JSON.stringify', unitsOf(JSON.stringify(text)), JSON.stringify(c.stringify)],
      ['stringToUTF8Array', utf8(text), c.utf8]];
  }
  if (c.bytes !== undefined) {
    const decoded = embindString(Uint8Array.from(Buffer.from(c.bytes, 'hex')));
    return [['TextDecoder', unitsOf(decoded), JSON.stringify(c.decoded)]];
  }
  const object = {};
  for (const [key, number, array] of c.steps) {
    const value = array ? [number ?? NaN, , key] : number ?? NaN;  // a hole between
    // An own member as JSON.parse makes one, "__proto__" too; a key set again keeps its place.
    Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
  }
  return [['JSON.stringify of an object', unitsOf(JSON.stringify(object)), JSON.stringify(c.stringify)]];
}

const output = execFileSync(process.argv[2], { maxBuffer: 1 << 28, encoding: 'utf8' });
let cases = 0;
const differences = [];
for (const line of output.split('\n')) {
  if (!line) continue;
  ++cases;
  const c = JSON.parse(line);
  for (const [what, javascript, standIn] of answers(c)) {
    if (javascript !== standIn) differences.push(`${what}: ${line}\n  JavaScript: ${javascript}`);
  }
}
console.log(`stand-in for emscripten::val: ${cases} cases, ${differences.length} differ from JavaScript`);
for (const difference of differences.slice(0, 10)) console.log(difference);
process.exitCode = differences.length === 0 && cases > 0 ? 0 : 1;
