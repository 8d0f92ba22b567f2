// A QR code encoder (ISO/IEC 18004): byte mode (UTF-8), error correction level M, the
// smallest version 1–40 that holds the text, the mask with the lowest penalty. Written
// here so the page loads nothing from outside (FRONTEND.md); the e2e unit test checks its
// matrices against the `qrcode` npm package module for module.
//
//   encode(text) → { version, size, mask, modules: Uint8Array rows (1 = dark) }
//   qrSvg(text, { label, quiet = 4 }) → <svg role="img" aria-label> with one <path>

// Level M, versions 1..40: error correction codewords per block and the number of blocks.
const EC_PER_BLOCK = [0, 10, 16, 26, 18, 24, 16, 18, 22, 22, 26, 30, 22, 22, 24, 24, 28, 28, 26, 26, 26,
  26, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28];
const EC_BLOCKS = [0, 1, 1, 1, 2, 2, 4, 4, 4, 5, 5, 5, 8, 9, 9, 10, 10, 11, 13, 14, 16,
  17, 17, 18, 20, 21, 23, 25, 26, 28, 29, 31, 33, 35, 37, 38, 40, 43, 45, 47, 49];
const FORMAT_LEVEL_M = 0;   // the two error-correction bits of the format information

// ---- Reed–Solomon over GF(256), polynomial x^8+x^4+x^3+x^2+1 ------------------------------
const EXP = new Uint8Array(512);
const LOG = new Uint8Array(256);
for (let i = 0, x = 1; i < 255; i++) {
  EXP[i] = x;
  LOG[x] = i;
  x <<= 1;
  if (x & 0x100) x ^= 0x11d;
}
for (let i = 255; i < 512; i++) EXP[i] = EXP[i - 255];
const mul = (a, b) => (a && b ? EXP[LOG[a] + LOG[b]] : 0);

function generator(degree) {
  let g = [1];
  for (let i = 0; i < degree; i++) {
    const next = new Array(g.length + 1).fill(0);
    for (let j = 0; j < g.length; j++) {
      next[j] ^= g[j];
      next[j + 1] ^= mul(g[j], EXP[i]);
    }
    g = next;
  }
  return g;
}

function remainder(data, gen) {
  const out = new Array(gen.length - 1).fill(0);
  for (const b of data) {
    const factor = b ^ out.shift();
    out.push(0);
    for (let i = 0; i < out.length; i++) out[i] ^= mul(gen[i + 1], factor);
  }
  return out;
}

// ---- sizes -------------------------------------------------------------------------------
function rawModules(ver) {
  let n = (16 * ver + 128) * ver + 64;
  if (ver >= 2) {
    const a = Math.floor(ver / 7) + 2;
    n -= (25 * a - 10) * a - 55;
    if (ver >= 7) n -= 36;
  }
  return n;
}
const totalCodewords = (ver) => Math.floor(rawModules(ver) / 8);
const dataCodewords = (ver) => totalCodewords(ver) - EC_PER_BLOCK[ver] * EC_BLOCKS[ver];

function alignmentPositions(ver) {
  if (ver === 1) return [];
  const n = Math.floor(ver / 7) + 2;
  const size = ver * 4 + 17;
  const step = ver === 32 ? 26 : Math.ceil((ver * 4 + 4) / (n * 2 - 2)) * 2;
  const out = [6];
  for (let pos = size - 7; out.length < n; pos -= step) out.splice(1, 0, pos);
  return out;
}

// ---- the data codewords, with their error correction, interleaved ----------------------------
function codewords(bytes, ver) {
  const bits = [];
  const put = (value, len) => { for (let i = len - 1; i >= 0; i--) bits.push((value >>> i) & 1); };
  put(0b0100, 4);
  put(bytes.length, ver < 10 ? 8 : 16);
  for (const b of bytes) put(b, 8);
  const capacity = dataCodewords(ver) * 8;
  put(0, Math.min(4, capacity - bits.length));
  put(0, (8 - (bits.length % 8)) % 8);
  for (let pad = 0xec; bits.length < capacity; pad ^= 0xec ^ 0x11) put(pad, 8);
  const data = [];
  for (let i = 0; i < bits.length; i += 8) data.push(bits.slice(i, i + 8).reduce((a, b) => (a << 1) | b, 0));

  const blocks = EC_BLOCKS[ver];
  const ecLen = EC_PER_BLOCK[ver];
  const total = totalCodewords(ver);
  const shortBlocks = blocks - (total % blocks);
  const shortLen = Math.floor(total / blocks);
  const gen = generator(ecLen);
  const dataBlocks = [];
  const ecBlocks = [];
  for (let i = 0, k = 0; i < blocks; i++) {
    const len = shortLen - ecLen + (i < shortBlocks ? 0 : 1);
    const d = data.slice(k, k + len);
    k += len;
    dataBlocks.push(d);
    ecBlocks.push(remainder(d, gen));
  }
  const out = [];
  for (let i = 0; i <= shortLen - ecLen; i++) {
    for (const d of dataBlocks) if (i < d.length) out.push(d[i]);
  }
  for (let i = 0; i < ecLen; i++) for (const e of ecBlocks) out.push(e[i]);
  return out;
}

// ---- the matrix ----------------------------------------------------------------------------
function formatBits(mask) {
  const data = (FORMAT_LEVEL_M << 3) | mask;
  let rem = data;
  for (let i = 0; i < 10; i++) rem = (rem << 1) ^ ((rem >>> 9) * 0x537);
  return ((data << 10) | rem) ^ 0x5412;
}

function versionBits(ver) {
  let rem = ver;
  for (let i = 0; i < 12; i++) rem = (rem << 1) ^ ((rem >>> 11) * 0x1f25);
  return (ver << 12) | rem;
}

const MASKS = [
  (r, c) => (r + c) % 2 === 0,
  (r) => r % 2 === 0,
  (r, c) => c % 3 === 0,
  (r, c) => (r + c) % 3 === 0,
  (r, c) => (Math.floor(r / 2) + Math.floor(c / 3)) % 2 === 0,
  (r, c) => ((r * c) % 2) + ((r * c) % 3) === 0,
  (r, c) => (((r * c) % 2) + ((r * c) % 3)) % 2 === 0,
  (r, c) => (((r * c) % 3) + ((r + c) % 2)) % 2 === 0,
];

class Matrix {
  constructor(ver) {
    this.size = ver * 4 + 17;
    this.m = Array.from({ length: this.size }, () => new Uint8Array(this.size));
    this.fn = Array.from({ length: this.size }, () => new Uint8Array(this.size));
  }

  set(r, c, dark) { this.m[r][c] = dark ? 1 : 0; this.fn[r][c] = 1; }

  functionPatterns(ver) {
    const n = this.size;
    for (let i = 0; i < n; i++) { this.set(6, i, i % 2 === 0); this.set(i, 6, i % 2 === 0); }
    for (const [r0, c0] of [[3, 3], [3, n - 4], [n - 4, 3]]) {
      for (let dr = -4; dr <= 4; dr++) {
        for (let dc = -4; dc <= 4; dc++) {
          const r = r0 + dr; const c = c0 + dc;
          if (r < 0 || r >= n || c < 0 || c >= n) continue;
          const d = Math.max(Math.abs(dr), Math.abs(dc));
          this.set(r, c, d !== 2 && d !== 4);
        }
      }
    }
    const pos = alignmentPositions(ver);
    for (let i = 0; i < pos.length; i++) {
      for (let j = 0; j < pos.length; j++) {
        if ((i === 0 && j === 0) || (i === 0 && j === pos.length - 1) || (i === pos.length - 1 && j === 0)) continue;
        for (let dr = -2; dr <= 2; dr++) {
          for (let dc = -2; dc <= 2; dc++) this.set(pos[i] + dr, pos[j] + dc, Math.max(Math.abs(dr), Math.abs(dc)) !== 1);
        }
      }
    }
    this.format(0);
    if (ver >= 7) {
      const bits = versionBits(ver);
      for (let i = 0; i < 18; i++) {
        const bit = (bits >>> i) & 1;
        const a = n - 11 + (i % 3); const b = Math.floor(i / 3);
        this.set(b, a, bit);
        this.set(a, b, bit);
      }
    }
  }

  format(mask) {
    const n = this.size;
    const bits = formatBits(mask);
    const bit = (i) => (bits >>> i) & 1;
    for (let i = 0; i <= 5; i++) this.set(i, 8, bit(i));
    this.set(7, 8, bit(6));
    this.set(8, 8, bit(7));
    this.set(8, 7, bit(8));
    for (let i = 9; i < 15; i++) this.set(8, 14 - i, bit(i));
    for (let i = 0; i < 8; i++) this.set(8, n - 1 - i, bit(i));
    for (let i = 8; i < 15; i++) this.set(n - 15 + i, 8, bit(i));
    this.set(n - 8, 8, 1);   // the dark module
  }

  place(words) {
    const n = this.size;
    let i = 0;
    const total = words.length * 8;
    for (let right = n - 1; right >= 1; right -= 2) {
      if (right === 6) right = 5;
      const upward = ((right + 1) & 2) === 0;
      for (let v = 0; v < n; v++) {
        const r = upward ? n - 1 - v : v;
        for (let j = 0; j < 2; j++) {
          const c = right - j;
          if (this.fn[r][c]) continue;
          if (i < total) this.m[r][c] = (words[i >>> 3] >>> (7 - (i & 7))) & 1;
          i++;
        }
      }
    }
  }

  mask(k) {
    const f = MASKS[k];
    for (let r = 0; r < this.size; r++) {
      for (let c = 0; c < this.size; c++) if (!this.fn[r][c] && f(r, c)) this.m[r][c] ^= 1;
    }
  }

  // The penalty rules N1–N4 of the standard: runs of five or more, 2×2 blocks, the
  // 1:1:3:1:1 finder-like pattern beside four light modules, and the dark proportion.
  penalty() {
    const n = this.size;
    const m = this.m;
    let p = 0;
    for (let a = 0; a < n; a++) {
      let runR = 0; let runC = 0; let lastR = -1; let lastC = -1; let winR = 0; let winC = 0;
      for (let b = 0; b < n; b++) {
        const vr = m[a][b]; const vc = m[b][a];
        if (vr === lastR) runR++; else { if (runR >= 5) p += runR - 2; lastR = vr; runR = 1; }
        if (vc === lastC) runC++; else { if (runC >= 5) p += runC - 2; lastC = vc; runC = 1; }
        winR = ((winR << 1) & 0x7ff) | vr;
        winC = ((winC << 1) & 0x7ff) | vc;
        if (b >= 10) {
          if (winR === 0x5d0 || winR === 0x05d) p += 40;
          if (winC === 0x5d0 || winC === 0x05d) p += 40;
        }
      }
      if (runR >= 5) p += runR - 2;
      if (runC >= 5) p += runC - 2;
    }
    let dark = 0;
    for (let r = 0; r < n; r++) {
      for (let c = 0; c < n; c++) {
        dark += m[r][c];
        if (r < n - 1 && c < n - 1) {
          const s = m[r][c] + m[r][c + 1] + m[r + 1][c] + m[r + 1][c + 1];
          if (s === 0 || s === 4) p += 3;
        }
      }
    }
    p += Math.abs(Math.ceil((dark * 100) / (n * n) / 5) - 10) * 10;
    return p;
  }
}

export function encode(text) {
  const bytes = new TextEncoder().encode(String(text));
  let ver = 1;
  while (ver <= 40 && 4 + (ver < 10 ? 8 : 16) + bytes.length * 8 > dataCodewords(ver) * 8) ver++;
  if (ver > 40) throw new RangeError('QR: text too long');
  const qr = new Matrix(ver);
  qr.functionPatterns(ver);
  qr.place(codewords(bytes, ver));
  let best = 0;
  let lowest = Infinity;
  for (let k = 0; k < 8; k++) {
    qr.format(k);
    qr.mask(k);
    const p = qr.penalty();
    qr.mask(k);
    if (p < lowest) { lowest = p; best = k; }
  }
  qr.format(best);
  qr.mask(best);
  return { version: ver, size: qr.size, mask: best, modules: qr.m };
}

// The SVG path of the dark modules, one rectangle per horizontal run, offset by `quiet`.
export function qrPath({ size, modules }, quiet = 4) {
  let d = '';
  for (let r = 0; r < size; r++) {
    for (let c = 0; c < size; c++) {
      if (!modules[r][c]) continue;
      let len = 1;
      while (c + len < size && modules[r][c + len]) len++;
      d += `M${c + quiet} ${r + quiet}h${len}v1h-${len}z`;
      c += len - 1;
    }
  }
  return d;
}

const SVG = 'http://www.w3.org/2000/svg';
export function qrSvg(text, { label = 'QR code', quiet = 4, className = 'qr' } = {}) {
  const code = encode(text);
  const side = code.size + quiet * 2;
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('viewBox', `0 0 ${side} ${side}`);
  svg.setAttribute('class', className);
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', label);
  svg.setAttribute('shape-rendering', 'crispEdges');
  const path = document.createElementNS(SVG, 'path');
  path.setAttribute('d', qrPath(code, quiet));
  svg.append(path);
  return svg;
}
