import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { once } from 'node:events';
import { pino } from 'pino';
import { pinoHttp, type HttpLogger } from 'pino-http';
import { APP_SETTINGS, type AppSettings } from '../config/app-settings.js';

/**
 * One JSON line per request, written by pino-http (what nestjs-pino runs on
 * both adapters) to REQUEST_LOG_FILE through an asynchronous sonic-boom
 * stream: never the terminal, and the request does not wait for the disk.
 */
@Injectable()
export class RequestLog implements OnApplicationShutdown {
  private readonly destination: ReturnType<typeof pino.destination>;
  readonly middleware: HttpLogger<IncomingMessage, ServerResponse>;

  constructor(@Inject(APP_SETTINGS) settings: AppSettings) {
    this.destination = pino.destination({ dest: settings.requestLogFile, sync: false, mkdir: true });
    this.middleware = pinoHttp({
      logger: pino({ base: undefined }, this.destination),
      serializers: {
        // pino's request serializer has already taken Express's originalUrl where there is one
        req: ({ id, method, url }: { id: unknown; method: string; url: string }) => ({ id, method, url }),
        res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
      },
    });
  }

  /** Writes out what is buffered and closes the file. */
  async onApplicationShutdown(): Promise<void> {
    const closed = once(this.destination, 'close');
    this.destination.end();
    await closed;
  }
}
