import fs from 'node:fs';
import { UsageError, stringOption, type Parsed } from './args';
import type { Prices } from '../management-types';

/**
 * pricesOption reads --prices <file>, or $SESSIONKEEP_PRICES: a JSON file of dollars per
 * million tokens by model, { "claude-sonnet-4-5": { "input": 3, "output": 15, "cacheRead": 0.3 } }.
 */
export function pricesOption(args: Parsed): Prices | undefined {
  const file = stringOption(args, 'prices') ?? process.env.SESSIONKEEP_PRICES;
  if (!file) return undefined;
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    throw new UsageError(`cannot read the prices file ${file}: ${(err as Error).message}`);
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new UsageError(`the prices file ${file} is not JSON: ${(err as Error).message}`);
  }
}
