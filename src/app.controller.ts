import { Controller, Get } from '@nestjs/common';
import { AppService } from './app.service.js';

/** The two routes without I/O, as a fresh `nest new` project and TechEmpower's plaintext/json tests have them. */
@Controller()
export class AppController {
  constructor(private readonly appService: AppService) {}

  @Get()
  getHello(): string {
    return this.appService.getHello();
  }

  @Get('json')
  getJson(): { message: string } {
    return this.appService.getJson();
  }
}
