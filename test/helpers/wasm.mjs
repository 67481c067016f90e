// A minimal WebAssembly module whose f() loads an i32 at 0x20000 from a one-page (64 KiB)
// memory: an out-of-bounds access, which V8 turns into a RuntimeError through its trap
// handler (a SIGSEGV handler, which the Go runtime in the addon must not take over).
export const OOB_WASM = new Uint8Array([
  0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 127, 3, 2, 1, 0, 5, 3, 1, 0, 1, 7, 5, 1, 1, 102, 0, 0,
  10, 11, 1, 9, 0, 65, 128, 128, 8, 40, 2, 0, 11,
]);

/** wasmTrap runs f() and returns how it failed, e.g. "RuntimeError: memory access out of bounds". */
export function wasmTrap() {
  const instance = new WebAssembly.Instance(new WebAssembly.Module(OOB_WASM));
  try {
    instance.exports.f();
    return 'no trap';
  } catch (e) {
    return `${e.constructor.name}: ${e.message}`;
  }
}
