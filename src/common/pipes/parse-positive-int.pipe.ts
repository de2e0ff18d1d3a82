import { BadRequestException, Injectable, type ArgumentMetadata, type PipeTransform } from '@nestjs/common';

/** Ids are SQL INT columns: 1..2^31-1. */
const MAX_ID = 2_147_483_647;

/**
 * Like ParseIntPipe, but only ids 1..2^31-1. The global ValidationPipe
 * (transform: true) runs first and has already turned a `number` path
 * parameter into a Number, so "007" arrives as 7 and "abc" as NaN.
 */
@Injectable()
export class ParsePositiveIntPipe implements PipeTransform<string | number, number> {
  transform(value: string | number, metadata: ArgumentMetadata): number {
    const id = Number(value);
    if (!Number.isInteger(id) || id < 1 || id > MAX_ID) {
      throw new BadRequestException(`${metadata.data ?? 'value'} must be an integer from 1 to ${MAX_ID}`);
    }
    return id;
  }
}
