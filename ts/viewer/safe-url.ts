// safe-url: addresses taken from stored records (imported from anywhere) become links only
// when they are http(s), so that a record cannot put a javascript: link in the page.

/** webUrl is the address when it is http or https, else undefined. */
export function webUrl(address: unknown): string | undefined {
  if (typeof address !== 'string') return undefined;
  try {
    const url = new URL(address);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

const MEDIA_TYPE = /^[a-z0-9.+-]+\/[a-z0-9.+-]+$/i;

/** mediaType is a record's media type when it has the form type/subtype, else the fallback. */
export function mediaType(value: unknown, fallback: string): string {
  return typeof value === 'string' && MEDIA_TYPE.test(value) ? value : fallback;
}
