import { ApiError } from './respond';

/** Query is a request's query string, read with the checks each API parameter needs. */
export class Query {
  readonly #params: URLSearchParams;

  constructor(params: URLSearchParams) {
    this.#params = params;
  }

  /** string is the parameter's value; undefined when it is absent or empty. */
  string(name: string): string | undefined {
    const v = this.#params.get(name);
    return v === null || v === '' ? undefined : v;
  }

  /** int is a whole number from 0 to max; a value out of range or not a number is refused. */
  int(name: string, fallback: number, max = Number.MAX_SAFE_INTEGER): number {
    const v = this.string(name);
    if (v === undefined) return fallback;
    if (!/^\d+$/.test(v) || Number(v) > max) throw invalid(name, `a whole number from 0 to ${max}`, v);
    return Number(v);
  }

  /** oneOf is one of the allowed values, else the fallback when absent. */
  oneOf<T extends string>(name: string, allowed: readonly T[], fallback: T): T {
    return this.optionalOneOf(name, allowed) ?? fallback;
  }

  /** optionalOneOf is one of the allowed values, or undefined when absent. */
  optionalOneOf<T extends string>(name: string, allowed: readonly T[]): T | undefined {
    const v = this.string(name);
    if (v !== undefined && !(allowed as readonly string[]).includes(v)) throw invalid(name, allowed.join(', '), v);
    return v as T | undefined;
  }

  /**
   * day is a calendar day, YYYY-MM-DD, as the local midnight that starts it; `next` gives
   * the midnight that ends it, for an inclusive `to`.
   */
  day(name: string, next = false): Date | undefined {
    const v = this.string(name);
    if (v === undefined) return undefined;
    const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(v);
    const [y, mo, d] = m ? [Number(m[1]), Number(m[2]) - 1, Number(m[3])] : [0, 0, 0];
    const start = new Date(y, mo, d);
    if (!m || start.getFullYear() !== y || start.getMonth() !== mo || start.getDate() !== d) {
      throw invalid(name, 'a day such as 2026-03-01', v);
    }
    return next ? new Date(y, mo, d + 1) : start;
  }
}

function invalid(name: string, want: string, got: string): ApiError {
  return new ApiError(400, 'INVALID_ARGUMENT', `the parameter ${name} must be ${want}, not ${JSON.stringify(got)}`);
}
