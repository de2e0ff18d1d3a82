import { Controller, DefaultValuePipe, MessageEvent, ParseIntPipe, Query, Sse } from '@nestjs/common';
import { map, range, type Observable } from 'rxjs';

const MAX_EVENTS = 10_000;

@Controller('events')
export class EventsController {
  /** `count` server-sent events (clamped to 1..10,000), as fast as they go, then the stream ends. */
  @Sse()
  events(@Query('count', new DefaultValuePipe(100), ParseIntPipe) count: number): Observable<MessageEvent> {
    const events = Math.min(Math.max(count, 1), MAX_EVENTS);
    return range(1, events).pipe(map((sequence) => ({ id: String(sequence), data: { sequence } })));
  }
}
