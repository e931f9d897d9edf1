/**
 * DataMatrix ECC 200 for the labels' short ASCII texts, encoded here: ASCII encodation, Reed-Solomon
 * over GF(256) and the standard module placement (ISO/IEC 16022, annex F), for the square symbols
 * of one data region (10×10 to 26×26, up to 44 data codewords). bwip-js's general encoder takes
 * most of a label's drawing time; texts beyond these sizes, or beyond ASCII, are left to it
 * (barcodes.ts). The tests read every symbol back with ZXing.
 */

/** Symbol side, data codewords, error-correction codewords. */
const SIZES: ReadonlyArray<readonly [number, number, number]> = [
  [10, 3, 5],
  [12, 5, 7],
  [14, 8, 10],
  [16, 12, 12],
  [18, 18, 14],
  [20, 22, 18],
  [22, 30, 20],
  [24, 36, 24],
  [26, 44, 28],
];

const EXP = new Array<number>(512);
const LOG = new Array<number>(256);
{
  let x = 1;
  for (let i = 0; i < 255; i++) {
    EXP[i] = x;
    LOG[x] = i;
    x <<= 1;
    if (x & 0x100) x ^= 0x12d;
  }
  for (let i = 255; i < 512; i++) EXP[i] = EXP[i - 255]!;
}
const mul = (a: number, b: number) => (a === 0 || b === 0 ? 0 : EXP[LOG[a]! + LOG[b]!]!);

const generators = new Map<number, number[]>();
/** The generator polynomial of degree n, roots α^1 … α^n, highest degree first (monic). */
function generator(n: number): number[] {
  let g = generators.get(n);
  if (!g) {
    g = [1];
    for (let i = 1; i <= n; i++) {
      const next = new Array<number>(g.length + 1).fill(0);
      for (let j = 0; j < g.length; j++) {
        next[j] = next[j]! ^ g[j]!;
        next[j + 1] = next[j + 1]! ^ mul(g[j]!, EXP[i]!);
      }
      g = next;
    }
    generators.set(n, g);
  }
  return g;
}

function errorCorrection(data: readonly number[], n: number): number[] {
  const g = generator(n);
  const remainder = new Array<number>(n).fill(0);
  for (const d of data) {
    const factor = d ^ remainder[0]!;
    remainder.shift();
    remainder.push(0);
    for (let i = 0; i < n; i++) remainder[i] = remainder[i]! ^ mul(g[i + 1]!, factor);
  }
  return remainder;
}

/** ASCII encodation: a character is its code + 1, two digits 130 + their value; null beyond ASCII. */
function asciiCodewords(text: string): number[] | null {
  const words: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code > 127) return null;
    const next = text.charCodeAt(i + 1);
    if (code >= 48 && code <= 57 && next >= 48 && next <= 57) {
      words.push(130 + (code - 48) * 10 + (next - 48));
      i++;
    } else {
      words.push(code + 1);
    }
  }
  return words;
}

/** Where each bit of each codeword goes in the data region (annex F): 10 × codeword + bit, 1 = fixed dark. */
function placement(nrow: number, ncol: number): Int32Array {
  const grid = new Int32Array(nrow * ncol);
  const module = (row: number, col: number, chr: number, bit: number) => {
    let r = row;
    let c = col;
    if (r < 0) {
      r += nrow;
      c += 4 - ((nrow + 4) % 8);
    }
    if (c < 0) {
      c += ncol;
      r += 4 - ((ncol + 4) % 8);
    }
    grid[r * ncol + c] = 10 * chr + bit;
  };
  const utah = (row: number, col: number, chr: number) => {
    module(row - 2, col - 2, chr, 1);
    module(row - 2, col - 1, chr, 2);
    module(row - 1, col - 2, chr, 3);
    module(row - 1, col - 1, chr, 4);
    module(row - 1, col, chr, 5);
    module(row, col - 2, chr, 6);
    module(row, col - 1, chr, 7);
    module(row, col, chr, 8);
  };
  const corner = (chr: number, cells: ReadonlyArray<readonly [number, number]>) => {
    for (const [i, [r, c]] of cells.entries()) module(r, c, chr, i + 1);
  };
  let chr = 1;
  let row = 4;
  let col = 0;
  do {
    if (row === nrow && col === 0)
      corner(chr++, [
        [nrow - 1, 0],
        [nrow - 1, 1],
        [nrow - 1, 2],
        [0, ncol - 2],
        [0, ncol - 1],
        [1, ncol - 1],
        [2, ncol - 1],
        [3, ncol - 1],
      ]);
    if (row === nrow - 2 && col === 0 && ncol % 4 !== 0)
      corner(chr++, [
        [nrow - 3, 0],
        [nrow - 2, 0],
        [nrow - 1, 0],
        [0, ncol - 4],
        [0, ncol - 3],
        [0, ncol - 2],
        [0, ncol - 1],
        [1, ncol - 1],
      ]);
    if (row === nrow - 2 && col === 0 && ncol % 8 === 4)
      corner(chr++, [
        [nrow - 3, 0],
        [nrow - 2, 0],
        [nrow - 1, 0],
        [0, ncol - 2],
        [0, ncol - 1],
        [1, ncol - 1],
        [2, ncol - 1],
        [3, ncol - 1],
      ]);
    if (row === nrow + 4 && col === 2 && ncol % 8 === 0)
      corner(chr++, [
        [nrow - 1, 0],
        [nrow - 1, ncol - 1],
        [0, ncol - 3],
        [0, ncol - 2],
        [0, ncol - 1],
        [1, ncol - 3],
        [1, ncol - 2],
        [1, ncol - 1],
      ]);
    do {
      if (row < nrow && col >= 0 && grid[row * ncol + col] === 0) utah(row, col, chr++);
      row -= 2;
      col += 2;
    } while (row >= 0 && col < ncol);
    row += 1;
    col += 3;
    do {
      if (row >= 0 && col < ncol && grid[row * ncol + col] === 0) utah(row, col, chr++);
      row += 2;
      col -= 2;
    } while (row < nrow && col >= 0);
    row += 3;
    col += 1;
  } while (row < nrow || col < ncol);
  if (grid[nrow * ncol - 1] === 0) {
    grid[nrow * ncol - 1] = 1;
    grid[nrow * ncol - ncol - 2] = 1;
  }
  return grid;
}

/**
 * The symbol's modules, row by row from the top (1 dark), or null when the text needs more than
 * one data region or is not ASCII.
 */
export function dataMatrixModules(text: string): { side: number; dark: Uint8Array } | null {
  const data = asciiCodewords(text);
  if (!data) return null;
  const size = SIZES.find(([, capacity]) => capacity >= data.length);
  if (!size) return null;
  const [side, capacity, ecc] = size;
  const words = [...data];
  // Padding: 129, then 129 scrambled by position (253-state randomising).
  if (words.length < capacity) words.push(129);
  while (words.length < capacity) {
    const position = words.length + 1;
    const value = 129 + ((149 * position) % 253) + 1;
    words.push(value > 254 ? value - 254 : value);
  }
  const codewords = [...words, ...errorCorrection(words, ecc)];
  const region = side - 2;
  const grid = placement(region, region);
  const dark = new Uint8Array(side * side);
  for (let r = 0; r < side; r++) {
    for (let c = 0; c < side; c++) {
      let on: boolean;
      if (c === 0 || r === side - 1)
        on = true; // the L finder: left column, bottom row
      else if (r === 0)
        on = c % 2 === 0; // the clock track on top
      else if (c === side - 1)
        on = r % 2 === 1; // and on the right
      else {
        const v = grid[(r - 1) * region + (c - 1)]!;
        on = v === 1 || (v >= 10 && ((codewords[Math.floor(v / 10) - 1]! >> (8 - (v % 10))) & 1) === 1);
      }
      dark[r * side + c] = on ? 1 : 0;
    }
  }
  return { side, dark };
}
