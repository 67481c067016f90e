import { argTypeError } from './errors';
import { encode } from './serialize';

/**
 * optionsJSON serialises an options object for native code, which checks the values;
 * anything but an object is a TypeError.
 */
export function optionsJSON(options: unknown, name = 'options'): string {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw argTypeError(name, 'an object');
  }
  return encode(options);
}
