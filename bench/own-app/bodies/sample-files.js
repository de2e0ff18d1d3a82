// @ts-check
// A small file of each kind the bench sends to an upload route, valid and decodable as that kind: an app that checks
// the file's real type (its magic number, as Nest's FileTypeValidator does with file-type) or decodes it (sharp,
// image-size) takes it. Each is a 16×16 picture (a one-page PDF) padded to the size asked for in the format's own
// comment (a PNG tEXt chunk, a JPEG COM segment, a GIF comment extension, a WebP XMP chunk, a PDF comment), with
// deterministic text, so every run sends the same bytes.
import { crc32, deflateSync } from 'node:zlib';
import { payloadText } from '../../model/payloads.js';

const SIDE = 16;

/** @param {string} text */
const ascii = (text) => Buffer.from(text, 'latin1');
/** @param {number} value */
const u16le = (value) => Buffer.from([value & 0xff, value >> 8]);
/** @param {number} value */
const u16be = (value) => Buffer.from([value >> 8, value & 0xff]);
/** @param {number} value */
const u32le = (value) => {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32LE(value);
  return bytes;
};
/** @param {number} value */
const u32be = (value) => {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32BE(value);
  return bytes;
};
/** Padding text of `bytes` characters, at least none. @param {number} bytes @param {string} seed */
const padding = (bytes, seed) => ascii(payloadText(Math.max(0, bytes), seed));

/**
 * A PNG: 16×16 RGB, a gradient, then a tEXt chunk that brings it to `bytes`.
 * @param {number} bytes @param {string} seed
 */
export function png(bytes, seed) {
  const chunk = (/** @type {string} */ type, /** @type {Buffer} */ data) => {
    const typed = Buffer.concat([ascii(type), data]);
    return Buffer.concat([u32be(data.length), typed, u32be(crc32(typed))]);
  };
  const header = Buffer.concat([u32be(SIDE), u32be(SIDE), Buffer.from([8, 2, 0, 0, 0])]);
  const rows = Array.from({ length: SIDE }, (_, y) =>
    Buffer.from([0, ...Array.from({ length: SIDE }, (_, x) => [x * 16, y * 16, 128]).flat()]),
  );
  const head = Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(rows))),
  ]);
  const end = chunk('IEND', Buffer.alloc(0));
  const keyword = ascii('Comment\0');
  const room = bytes - head.length - end.length - 12 - keyword.length;
  const text = room > 0 ? [chunk('tEXt', Buffer.concat([keyword, padding(room, seed)]))] : [];
  return Buffer.concat([head, ...text, end]);
}

/**
 * A baseline JPEG: 16×16 greyscale, mid grey (every DCT coefficient 0, each coded by a one-code Huffman table), after
 * a JFIF header and a COM segment that brings it to `bytes`.
 * @param {number} bytes @param {string} seed
 */
export function jpeg(bytes, seed) {
  const segment = (/** @type {number} */ marker, /** @type {Buffer} */ data) =>
    Buffer.concat([Buffer.from([0xff, marker]), u16be(data.length + 2), data]);
  // one code of length 1 ('0') for symbol 0: a DC difference of 0, an AC end of block
  const oneCode = (/** @type {number} */ tableClass) =>
    segment(0xc4, Buffer.from([tableClass << 4, 1, ...Array(15).fill(0), 0]));
  const jfif = segment(0xe0, Buffer.concat([ascii('JFIF\0'), Buffer.from([1, 1, 0, 0, 1, 0, 1, 0, 0])]));
  const body = Buffer.concat([
    segment(0xdb, Buffer.from([0, ...Array(64).fill(1)])),
    segment(0xc0, Buffer.concat([Buffer.from([8]), u16be(SIDE), u16be(SIDE), Buffer.from([1, 1, 0x11, 0])])),
    oneCode(0),
    oneCode(1),
    segment(0xda, Buffer.from([1, 1, 0x00, 0, 63, 0])),
    // four blocks of two 1-bit codes each: eight zero bits
    Buffer.from([0x00]),
    Buffer.from([0xff, 0xd9]),
  ]);
  const head = Buffer.concat([Buffer.from([0xff, 0xd8]), jfif]);
  const room = bytes - head.length - body.length - 4;
  const comment = room > 0 ? [segment(0xfe, padding(Math.min(room, 0xfffd), seed))] : [];
  return Buffer.concat([head, ...comment, body]);
}

/**
 * A GIF89a: 16×16, two colours in 4×4 squares, its LZW codes kept 3 bits wide by a clear code before every two
 * pixels, after a comment extension that brings it to `bytes`.
 * @param {number} bytes @param {string} seed
 */
export function gif(bytes, seed) {
  const CLEAR = 4;
  const END = 5;
  const pixel = (/** @type {number} */ at) => (((at % SIDE) >> 2) + (Math.floor(at / SIDE) >> 2)) & 1;
  /** @type {number[]} */
  const codes = [];
  for (let i = 0; i < SIDE * SIDE; i += 2) codes.push(CLEAR, pixel(i), pixel(i + 1));
  codes.push(END);
  const packed = Buffer.alloc(Math.ceil((codes.length * 3) / 8));
  codes.forEach((code, i) => {
    for (let bit = 0; bit < 3; bit++) if (code & (1 << bit)) packed[(i * 3 + bit) >> 3] |= 1 << ((i * 3 + bit) & 7);
  });
  const head = Buffer.concat([
    ascii('GIF89a'),
    u16le(SIDE),
    u16le(SIDE),
    Buffer.from([0x80, 0, 0, 0x20, 0x60, 0xa0, 0xf0, 0xc0, 0x40]),
  ]);
  const image = Buffer.concat([
    Buffer.from([0x2c]),
    u16le(0),
    u16le(0),
    u16le(SIDE),
    u16le(SIDE),
    Buffer.from([0, 2]),
    subBlocks(packed),
    Buffer.from([0x3b]),
  ]);
  const room = bytes - head.length - image.length - 3;
  const comment = room >= 2 ? [Buffer.from([0x21, 0xfe]), subBlocks(padding(room - Math.ceil(room / 256), seed))] : [];
  return Buffer.concat([head, ...comment, image]);
}

/** A GIF's data as sub-blocks of at most 255 bytes, each after its length, then the 0 that ends them. @param {Buffer} data */
function subBlocks(data) {
  /** @type {Buffer[]} */
  const blocks = [];
  for (let at = 0; at < data.length; at += 255) {
    const block = data.subarray(at, at + 255);
    blocks.push(Buffer.from([block.length]), block);
  }
  return Buffer.concat([...blocks, Buffer.from([0])]);
}

/**
 * A lossless WebP (VP8L): 16×16 of one colour, every prefix code a single symbol so the pixels take no bits, in the
 * extended format with an XMP chunk that brings it to `bytes`.
 * @param {number} bytes @param {string} seed
 */
export function webp(bytes, seed) {
  const chunk = (/** @type {string} */ type, /** @type {Buffer} */ data) =>
    Buffer.concat([ascii(type), u32le(data.length), data, data.length % 2 ? Buffer.from([0]) : Buffer.alloc(0)]);
  const bits = new BitWriter();
  bits
    .write(SIDE - 1, 14)
    .write(SIDE - 1, 14)
    .write(0, 1)
    .write(0, 3);
  // no transform, no colour cache, no meta prefix codes
  bits.write(0, 1).write(0, 1).write(0, 1);
  // green, red, blue, alpha: a simple code of one 8-bit symbol each; distance: one 1-bit symbol
  for (const symbol of [0x90, 0x30, 0xc0, 0xff]) bits.write(1, 1).write(0, 1).write(1, 1).write(symbol, 8);
  bits.write(1, 1).write(0, 1).write(0, 1).write(0, 1);
  const lossless = Buffer.concat([Buffer.from([0x2f]), bits.bytes()]);
  const canvas = Buffer.concat([
    Buffer.from([0x04, 0, 0, 0]),
    u32le(SIDE - 1).subarray(0, 3),
    u32le(SIDE - 1).subarray(0, 3),
  ]);
  const image = Buffer.concat([chunk('VP8X', canvas), chunk('VP8L', lossless)]);
  const room = bytes - 12 - image.length - 8;
  const xmp = chunk('XMP ', padding(room - (room % 2), seed));
  const inner = Buffer.concat([ascii('WEBP'), image, xmp]);
  return Buffer.concat([ascii('RIFF'), u32le(inner.length), inner]);
}

/** Bits written least significant first, as VP8L reads them. */
class BitWriter {
  /** @type {number[]} */
  #bits = [];
  /** @param {number} value @param {number} count */
  write(value, count) {
    for (let bit = 0; bit < count; bit++) this.#bits.push((value >> bit) & 1);
    return this;
  }
  bytes() {
    const out = Buffer.alloc(Math.ceil(this.#bits.length / 8));
    this.#bits.forEach((bit, i) => {
      out[i >> 3] |= bit << (i & 7);
    });
    return out;
  }
}

/**
 * A PDF of one empty 1-inch page, a comment after its header bringing it to `bytes`; its cross-reference table gives
 * each object's offset.
 * @param {number} bytes @param {string} seed
 */
export function pdf(bytes, seed) {
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 72 72] >>',
  ];
  const build = (/** @type {string} */ comment) => {
    let text = `%PDF-1.4\n${comment}`;
    const offsets = objects.map((object, i) => {
      const at = text.length;
      text += `${i + 1} 0 obj\n${object}\nendobj\n`;
      return at;
    });
    const xref = text.length;
    const entries = offsets.map((at) => `${String(at).padStart(10, '0')} 00000 n \n`).join('');
    text += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${entries}`;
    return `${text}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  };
  let comment = '';
  // the comment moves the table, and the table's offset may gain a digit: settle in two passes
  for (let pass = 0; pass < 2; pass++) {
    const room = bytes - build(comment).length + comment.length;
    comment = room >= 2 ? `%${payloadText(room - 2, seed)}\n` : '';
  }
  return ascii(build(comment));
}

/** Text, for a text or CSV upload. @param {number} bytes @param {string} seed */
export function text(bytes, seed) {
  return padding(bytes, seed);
}
