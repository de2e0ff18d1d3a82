import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { describeBytes, type Received } from './digest.js';

@Controller('bodies')
export class BodiesController {
  /** Any JSON body up to the app's limit: the answer describes it as re-serialized, so a lost byte shows. */
  @Post()
  @HttpCode(200)
  receive(@Body() body: unknown): Received {
    return describeBytes(JSON.stringify(body));
  }
}
