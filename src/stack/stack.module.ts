import { Global, Module, type DynamicModule } from '@nestjs/common';
import { APP_SETTINGS, type AppSettings } from '../config/app-settings.js';
import { RequestLog } from './request-log.js';

/** Provides the settings to every module, and the request log when the stack has one. */
@Global()
@Module({})
export class StackModule {
  static forSettings(settings: AppSettings): DynamicModule {
    const providers = [
      { provide: APP_SETTINGS, useValue: settings },
      ...(settings.parts.has('logger') ? [RequestLog] : []),
    ];
    return { module: StackModule, providers, exports: providers };
  }
}
