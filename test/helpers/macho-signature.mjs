// A reader of a Mach-O file's ad-hoc code signature, for the darwin packages' test: it finds
// LC_CODE_SIGNATURE, reads the CodeDirectory in its SuperBlob and checks each page's hash
// against the file, which is what the macOS kernel checks before it runs arm64 code.
import crypto from 'node:crypto';

const MH_MAGIC_64 = 0xfeedfacf;
const LC_CODE_SIGNATURE = 0x1d;
const CSMAGIC_EMBEDDED_SIGNATURE = 0xfade0cc0;
const CSMAGIC_CODEDIRECTORY = 0xfade0c02;
const CSSLOT_CODEDIRECTORY = 0;
const CS_ADHOC = 0x2;
const HASHES = { 1: 'sha1', 2: 'sha256' };

/** codeSignatureRange finds LC_CODE_SIGNATURE: the signature's offset and size in the file. */
function codeSignatureRange(buf) {
  if (buf.readUInt32LE(0) !== MH_MAGIC_64) throw new Error('not a 64-bit Mach-O file');
  const ncmds = buf.readUInt32LE(16);
  let at = 32;
  for (let i = 0; i < ncmds; i++) {
    const cmd = buf.readUInt32LE(at);
    if (cmd === LC_CODE_SIGNATURE) return { offset: buf.readUInt32LE(at + 8), size: buf.readUInt32LE(at + 12) };
    at += buf.readUInt32LE(at + 4);
  }
  return undefined;
}

/**
 * checkAdhocSignature returns what is wrong with buf's code signature ([] when it is a valid
 * ad-hoc one): no signature, no CodeDirectory, not ad-hoc, a page hashed differently, or code
 * that the hashes do not cover up to the signature.
 */
export function checkAdhocSignature(buf) {
  const range = codeSignatureRange(buf);
  if (!range) return ['no LC_CODE_SIGNATURE'];
  const sig = buf.subarray(range.offset, range.offset + range.size);
  if (sig.readUInt32BE(0) !== CSMAGIC_EMBEDDED_SIGNATURE) return ['the signature is not an embedded SuperBlob'];
  const count = sig.readUInt32BE(8);
  let cd;
  for (let i = 0; i < count; i++) {
    const type = sig.readUInt32BE(12 + 8 * i);
    const offset = sig.readUInt32BE(16 + 8 * i);
    if (type === CSSLOT_CODEDIRECTORY) cd = sig.subarray(offset);
  }
  if (!cd || cd.readUInt32BE(0) !== CSMAGIC_CODEDIRECTORY) return ['no CodeDirectory'];
  const problems = [];
  const flags = cd.readUInt32BE(12);
  const hashOffset = cd.readUInt32BE(16);
  const nCodeSlots = cd.readUInt32BE(28);
  const codeLimit = cd.readUInt32BE(32);
  const hashSize = cd.readUInt8(36);
  const hash = HASHES[cd.readUInt8(37)];
  const pageSize = 2 ** cd.readUInt8(39);
  if (!(flags & CS_ADHOC)) problems.push(`flags ${flags.toString(16)} lack CS_ADHOC`);
  if (!hash) return [...problems, `unknown hash type ${cd.readUInt8(37)}`];
  if (codeLimit !== range.offset) problems.push(`the hashes cover ${codeLimit} bytes, the code is ${range.offset}`);
  if (nCodeSlots !== Math.ceil(codeLimit / pageSize)) problems.push(`${nCodeSlots} hashes for ${codeLimit} bytes in pages of ${pageSize}`);
  for (let i = 0; i < nCodeSlots; i++) {
    const page = buf.subarray(i * pageSize, Math.min((i + 1) * pageSize, codeLimit));
    const want = cd.subarray(hashOffset + i * hashSize, hashOffset + (i + 1) * hashSize);
    if (!crypto.createHash(hash).update(page).digest().equals(want)) problems.push(`page ${i} does not match its hash`);
  }
  return problems;
}
