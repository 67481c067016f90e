/**
 * onFirstUse returns a stand-in for the module that `load` returns (a `require` of it): the
 * module is loaded when one of its properties is first read, and every read goes to it. An
 * app that opens a store and never calls, say, an SDK adapter or a slash command does not
 * pay for their JavaScript (parsed and compiled, about 0.15 MB of resident memory a module).
 * Only property reads are forwarded: the stand-in is for `mod.name`, not for enumerating.
 */
export function onFirstUse<T extends object>(load: () => T): T {
  let loaded: T | undefined;
  return new Proxy({} as T, {
    get: (_target, key) => Reflect.get((loaded ??= load()), key),
  });
}
