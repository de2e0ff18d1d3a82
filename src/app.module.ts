import { Module, Controller, Get, Injectable } from '@nestjs/common';

@Injectable()
export class AppService {
  hello() { return 'Hello World!'; }
}
@Controller()
export class AppController {
  constructor(private readonly appService: AppService) {}
  @Get() hello() { return this.appService.hello(); }
}
@Module({ controllers: [AppController], providers: [AppService] })
export class AppModule {}
