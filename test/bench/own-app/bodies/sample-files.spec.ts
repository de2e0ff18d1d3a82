import { fileTypeFromBuffer } from 'file-type';
import { gif, jpeg, pdf, png, webp } from '../../../../bench/own-app/bodies/sample-files.js';

const KINDS = [
  ['a PNG', png, 'image/png'],
  ['a JPEG', jpeg, 'image/jpeg'],
  ['a GIF', gif, 'image/gif'],
  ['a WebP', webp, 'image/webp'],
  ['a PDF', pdf, 'application/pdf'],
] as const;

describe('the files sent to an upload route', () => {
  it.each(KINDS)(
    '%s is of the size asked, read as its type from its bytes, the same each time',
    async (_, make, type) => {
      const file = make(4096, 'photo');
      expect(file).toHaveLength(4096);
      expect((await fileTypeFromBuffer(file))?.mime).toBe(type);
      expect(make(4096, 'photo').equals(file)).toBe(true);
      expect(make(4096, 'other').equals(file)).toBe(false);
    },
  );

  it.each(KINDS)('%s smaller than its picture is the picture alone', (_, make) => {
    expect(make(0, 'photo').length).toBeLessThan(500);
  });
});
