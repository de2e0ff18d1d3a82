import { ValidationPipe, VersioningType } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { NestFactory } from '@nestjs/core';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import compression from 'compression';
import helmet from 'helmet';
import morgan from 'morgan';
import { AppModule } from './app.module';

async function bootstrap() {
  const app = await NestFactory.create(AppModule);
  const config = app.get(ConfigService);
  app.enableShutdownHooks();
  app.setGlobalPrefix(config.getOrThrow('API_PREFIX'));
  app.enableVersioning({ type: VersioningType.URI, defaultVersion: '1' });
  app.useGlobalPipes(new ValidationPipe({ transform: true, whitelist: true }));
  app.use(helmet());
  app.use(compression());
  app.use(morgan('combined'));
  app.enableCors({ origin: config.getOrThrow('FRONTEND_ORIGIN') });

  const document = SwaggerModule.createDocument(
    app,
    new DocumentBuilder().setTitle(config.getOrThrow('APP_NAME')).setVersion('1.0').addBearerAuth().build(),
  );
  SwaggerModule.setup('docs', app, document);

  await app.listen(config.getOrThrow('PORT'));
}
void bootstrap();
