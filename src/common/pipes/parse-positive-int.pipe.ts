import { BadRequestException, Injectable, type ArgumentMetadata, type PipeTransform } from '@nestjs/common';

/** Ids are SQL INT columns: 1..2^31-1. */
const MAX_ID = 2_147_483_647;
const POSITIVE_INTEGER = /^[1-9][0-9]{0,9}$/;

/** Like ParseIntPipe, but only 1..2^31-1 written as plain digits ("007", "1e3", "-1" and "1.0" are refused). */
@Injectable()
export class ParsePositiveIntPipe implements PipeTransform<string, number> {
  transform(value: string, metadata: ArgumentMetadata): number {
    const id = POSITIVE_INTEGER.test(value) ? Number(value) : NaN;
    if (!(id <= MAX_ID)) {
      throw new BadRequestException(`${metadata.data ?? 'value'} must be an integer from 1 to ${MAX_ID}`);
    }
    return id;
  }
}
