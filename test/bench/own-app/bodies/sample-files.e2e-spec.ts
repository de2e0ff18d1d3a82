import { gif, jpeg, png, webp } from '../../../../bench/own-app/bodies/sample-files.js';
import { openBrowser, type Browser } from '../../../support/browser.js';

// A decoder that is not ours: Chromium's (libpng, libjpeg-turbo, its GIF reader, libwebp) decodes each picture, and
// the top-left pixel is the colour the file was written with.
const PICTURES = [
  ['PNG', png, 'image/png', [0, 0, 128]],
  ['JPEG', jpeg, 'image/jpeg', [128, 128, 128]],
  ['GIF', gif, 'image/gif', [0x20, 0x60, 0xa0]],
  ['WebP', webp, 'image/webp', [0x30, 0x90, 0xc0]],
] as const;

describe('the pictures sent to an upload route, decoded by Chromium', () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await openBrowser();
  });

  afterAll(() => browser.close());

  it.each(PICTURES)('the %s is a 16×16 picture of its colours', async (_, make, type, colour) => {
    const page = await browser.context.newPage();
    try {
      const decoded = await page.evaluate(
        async ([base64, mime]) => {
          const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
          const bitmap = await createImageBitmap(new Blob([bytes], { type: mime }));
          const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
          const context = canvas.getContext('2d')!;
          context.drawImage(bitmap, 0, 0);
          return { width: bitmap.width, height: bitmap.height, pixel: [...context.getImageData(0, 0, 1, 1).data] };
        },
        [make(4096, 'photo').toString('base64'), type] as const,
      );
      expect(decoded.width).toBe(16);
      expect(decoded.height).toBe(16);
      decoded.pixel.slice(0, 3).forEach((value, i) => expect(Math.abs(value - colour[i])).toBeLessThanOrEqual(2));
      expect(decoded.pixel[3]).toBe(255);
    } finally {
      await page.close();
    }
  });
});
