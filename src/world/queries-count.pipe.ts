import { Injectable, type PipeTransform } from '@nestjs/common';

export const MIN_QUERIES = 1;
export const MAX_QUERIES = 500;

/** TechEmpower's rule for ?count / ?queries: a non-number counts as 1, the rest is clamped to 1..500. */
@Injectable()
export class QueriesCountPipe implements PipeTransform<unknown, number> {
  transform(value: unknown): number {
    const count = Number.parseInt(String(value), 10);
    if (Number.isNaN(count)) return MIN_QUERIES;
    return Math.min(MAX_QUERIES, Math.max(MIN_QUERIES, count));
  }
}
